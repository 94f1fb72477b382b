"""Batches from Python: Engine.analyse_many answers in input order as one
search per position would, and phutball.selfplay plays the same games on one
thread and on two; both release the GIL and reject bad input clearly."""

import threading

import pytest

import phutball

START = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"
CHAIN = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
FINISHED = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O H0"
SMALL = "7/7/7/7/3@3/7/7/7/7 O"


def test_analyse_many_answers_in_input_order():
    engine = phutball.Engine(nodes=400, seed=3)
    small = phutball.Position(SMALL)
    positions = [small.play(m) for m in ["D6", "C4", "E5", "D3"]] + [CHAIN, phutball.Position(START)]
    batch = engine.analyse_many(positions, jobs=2)
    assert len(batch) == len(positions)
    for pos, analysis in zip(positions, batch):
        alone = engine.analyse(pos)
        assert (str(analysis.best_move), analysis.nodes, analysis.score_text) == (
            str(alone.best_move),
            alone.nodes,
            alone.score_text,
        )
    assert str(batch[4].best_move) == "H10-H19"
    assert engine.analyse_many([]) == []


def test_analyse_many_with_a_threaded_engine_gives_legal_moves_at_its_depth():
    # Each job's engine searches with two threads sharing its table.
    engine = phutball.Engine(depth=2, threads=2)
    positions = [phutball.Position(START), phutball.Position(CHAIN), phutball.Position(SMALL)]
    batch = engine.analyse_many(positions * 2, jobs=2)
    assert len(batch) == 6
    for pos, analysis in zip(positions * 2, batch):
        assert pos.is_legal(analysis.best_move)
        assert analysis.depth == 2 or analysis.win_in is not None
    assert str(engine.analyse_many([CHAIN], jobs=1)[0].best_move) == "H10-H19"


def test_analyse_many_answers_a_position_with_no_move_by_its_error_in_its_place():
    engine = phutball.Engine(nodes=100)
    batch = engine.analyse_many([START, FINISHED, SMALL], jobs=2)
    assert [type(a) for a in batch] == [phutball.Analysis, ValueError, phutball.Analysis]
    # The exception analyse raises for that position, returned, not raised.
    with pytest.raises(ValueError) as alone:
        engine.analyse(FINISHED)
    assert str(batch[1]) == str(alone.value)
    assert batch[1].__traceback__ is None


def test_analyse_many_rejects_bad_input_by_position():
    engine = phutball.Engine(nodes=100)
    with pytest.raises(phutball.ParseError):
        engine.analyse_many([START, "not a position"])
    with pytest.raises(TypeError):
        engine.analyse_many([START, 7])
    with pytest.raises(ValueError, match="jobs"):
        engine.analyse_many([START], jobs=0)


def test_selfplay_is_the_same_on_one_thread_and_on_two():
    def games(jobs):
        played = phutball.selfplay(4, jobs=jobs, nodes=300, seed=5, openings=[SMALL], move_limit=30)
        return [(g.index, g.seed, str(g.game)) for g in played]

    one = games(1)
    assert [index for index, _, _ in one] == [0, 1, 2, 3]
    assert one == games(2)
    assert len({seed for _, seed, _ in one}) == 4
    record = phutball.Game.from_record(one[0][2])
    assert str(record.start) == SMALL
    assert record.result != "ongoing"


def test_each_selfplay_move_keeps_its_search():
    played = phutball.selfplay(4, jobs=2, nodes=300, seed=5, openings=[SMALL], move_limit=30)
    assert any(g.game.winner for g in played)
    for g in played:
        assert len(g.analyses) == len(g.game.moves)
        # Each move is what the mover's engine answers, searched again alone
        # (Ohs's engine has the game's seed, Eks's the next).
        game = phutball.Game(g.game.start, move_limit=30)
        for move, search in zip(g.game.moves, g.analyses):
            seed = g.seed if game.position.to_move == "O" else g.seed + 1
            alone = phutball.Engine(nodes=300, seed=seed).analyse_game(game)
            assert str(alone.best_move) == str(move)
            assert (search.score, search.win_in, search.loss_in, search.score_text, search.depth, search.nodes, search.decision) == (
                alone.score, alone.win_in, alone.loss_in, alone.score_text, alone.depth, alone.nodes, alone.decision
            )
            game.push(move)
        if g.game.winner:
            # The winner's last move scored, and its search said so.
            last = g.analyses[-1]
            assert (last.win_in, last.score, last.decision) == (1, None, "scores")
            assert g.game.positions[-2].to_move == g.game.winner
    searched = [a for g in played for a in g.analyses if a.decision == "searched" and a.score is not None]
    assert searched and all(a.depth > 0 for a in searched)


def test_random_openings_are_seeded_varied_legal_and_unfinished():
    def starts(seed):
        return [str(g.game.start) for g in phutball.selfplay(12, nodes=30, seed=seed, move_limit=2, random_openings=True)]

    first = starts(4)
    assert first == starts(4)
    assert len(set(first)) == 12 and first != starts(5)
    for g in phutball.selfplay(3, start=9, nodes=30, seed=4, move_limit=2, random_openings=True):
        start = g.game.start
        assert str(start) == first[g.index] and start == phutball.random_opening(g.seed, 0)
        assert not start.is_finished and start.to_move == "O" and start.ball == phutball.Position(START).ball
        assert len(start.men) == 4
    # The ladder's generator: the same for the same arguments, another for another index.
    assert phutball.random_opening(1, 5) == phutball.random_opening(1, 5) != phutball.random_opening(1, 6)
    assert str(phutball.random_opening(1, 5)) == "15/15/15/15/15/15/9#5/5#9/15/7@7/15/15/4#4#5/15/15/15/15/15/15 O"
    with pytest.raises(ValueError, match="not both"):
        phutball.selfplay(1, nodes=10, openings=[SMALL], random_openings=True)
    with pytest.raises(ValueError, match="index"):
        phutball.random_opening(1, -1)


def test_selfplay_rejects_bad_input():
    with pytest.raises(ValueError, match="openings"):
        phutball.selfplay(1, nodes=10, openings=[])
    with pytest.raises(ValueError, match=r"openings\[0\]"):
        phutball.selfplay(1, nodes=10, openings=[FINISHED])
    with pytest.raises(ValueError, match="nodes"):
        phutball.selfplay(1, nodes=-1)
    for jobs in [1, 2]:
        # Not KeyboardInterrupt: the games are stopped by the timeout alone.
        with pytest.raises(phutball.SearchTimeoutError):
            phutball.selfplay(50, depth=64, jobs=jobs, timeout=0.05)


def test_batches_release_the_gil():
    # A Python thread keeps counting while a batch runs in another.
    engine = phutball.Engine(nodes=3000)
    done = threading.Event()
    ticks = 0

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        engine.analyse_many([START] * 4, jobs=1)
    finally:
        done.set()
        counter.join()
    assert ticks > 1000
