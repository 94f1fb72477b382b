"""phutball.Engine: scores when it can, stops a threat, is reproducible
with a node limit, reports its analysis, releases the GIL, and rejects bad
arguments with clear errors."""

import pickle
import threading
import time

import pytest

import phutball

START = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"
# Ball H10, men H11..H18: Ohs scores with H10-H19.
CHAIN = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
# The ball on Eks's strip: the game is over.
FINISHED = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O H0"


def test_scores_when_it_can():
    engine = phutball.Engine(depth=2)
    pos = phutball.Position(CHAIN)
    move = engine.best_move(pos)
    assert str(move) == "H10-H19"
    assert pos.play(move).winner == "O"
    analysis = engine.analyse(pos)
    assert analysis.win_in == 1
    assert analysis.score is None
    assert analysis.score_text == "win in 1"
    assert analysis.decision == "scores"


def test_stops_a_threat_when_a_move_does():
    # Ball H17, men H18 and H16, Eks to move: Ohs threatens H17-H19. Placing
    # on H19 only lengthens that jump; jumping the ball away, H17-H15, is the
    # one move that stops it.
    rows = ["15", "7#7", "7@7", "7#7"] + ["15"] * 15
    pos = phutball.Position("/".join(rows) + " X")
    assert pos.end_turn().can_score()
    move = phutball.Engine(nodes=500).best_move(pos)
    after = pos.play(move)
    assert not after.can_score(), f"after {move} Ohs can still score"
    assert str(move) == "H17-H15"


def test_a_node_limit_and_seed_make_it_reproducible():
    a = phutball.Engine(nodes=1500, seed=3).analyse(START)
    b = phutball.Engine(nodes=1500, seed=3).analyse(START)
    assert (a.best_move, a.nodes, a.depth, a.pv) == (b.best_move, b.nodes, b.depth, b.pv)
    assert a.pv[0] == a.best_move
    assert isinstance(a.score, int)
    assert a.depth >= 1 and a.nodes > 0 and a.seconds >= 0
    assert phutball.Position(START).is_legal(a.best_move)
    assert "Analysis(best_move=" in repr(a)


def test_two_threads_search_together():
    engine = phutball.Engine(depth=3, threads=2)
    assert repr(engine) == "Engine(time=None, depth=3, nodes=None, seed=1, threads=2)"
    analysis = engine.analyse(START)
    assert analysis.depth == 3
    assert phutball.Position(START).is_legal(analysis.best_move)
    assert analysis.pv[0] == analysis.best_move
    assert str(engine.best_move(CHAIN)) == "H10-H19"
    for bad in (0, -1, 65):
        with pytest.raises(ValueError, match="threads must be from 1 to 64"):
            phutball.Engine(threads=bad)


def test_the_gil_is_released_while_it_searches():
    engine = phutball.Engine(time=1.0)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        engine.best_move(START)
    finally:
        done.set()
        ticker.join()
    # With the GIL held for the whole search the ticker would stall.
    assert len(ticks) >= 10


def test_the_time_per_move_is_in_seconds():
    engine = phutball.Engine(time=0.25, seed=3)
    assert repr(engine) == "Engine(time=0.25, depth=None, nodes=None, seed=3, threads=1)"
    assert repr(pickle.loads(pickle.dumps(engine))) == repr(engine)
    assert phutball.Position(START).is_legal(engine.best_move(START))
    # A quarter of a second, not a quarter of a millisecond or 250 s: the
    # search from the start runs to about its time (0.21-0.26 s measured;
    # the bounds are generous for a busy machine).
    analysis = phutball.Engine(time=0.25).analyse(START)
    assert 0.05 < analysis.seconds < 5


@pytest.mark.parametrize(
    "old, new",
    [
        (lambda: phutball.Engine(time_ms=250, nodes=400), lambda: phutball.Engine(time=0.25, nodes=400)),
        (lambda: phutball.Engine(1500, 4), lambda: phutball.Engine(depth=4, time=1.5)),
    ],
)
def test_time_ms_still_works_with_a_deprecation_warning(old, new):
    with pytest.warns(DeprecationWarning, match=r"time_ms is deprecated.*time in seconds"):
        engine = old()
    assert repr(engine) == repr(new())
    # The node limit decides before the time does: the same move either way.
    assert str(engine.best_move(START)) == str(new().best_move(START))


def test_selfplay_and_the_engine_opponent_take_seconds_too():
    with pytest.warns(DeprecationWarning, match="time_ms is deprecated"):
        old = phutball.selfplay(2, time_ms=1000, nodes=60, jobs=1, move_limit=6)
    new = phutball.selfplay(2, time=1.0, nodes=60, jobs=1, move_limit=6)
    assert [str(g.game) for g in old] == [str(g.game) for g in new]
    phutball.VecEnv(1, opponent="engine", opponent_limits={"time": 0.05})
    with pytest.warns(DeprecationWarning, match=r"opponent_limits\['time_ms'\] is deprecated"):
        phutball.VecEnv(1, opponent="engine", opponent_limits={"time_ms": 50})


@pytest.mark.parametrize(
    "both",
    [
        lambda: phutball.Engine(time=1.0, time_ms=1000),
        lambda: phutball.Engine(1000, time=1.0),
        lambda: phutball.selfplay(1, time=1.0, time_ms=1000),
        lambda: phutball.VecEnv(1, opponent="engine", opponent_limits={"time": 1.0, "time_ms": 1000}),
    ],
)
def test_time_and_time_ms_together_are_a_type_error(both):
    with pytest.raises(TypeError, match=r"time.*\(seconds\) or the deprecated .*time_ms.*not both"):
        both()


def test_bad_arguments_raise_clear_errors():
    engine = phutball.Engine(depth=1)
    with pytest.raises(TypeError, match="phutball.Position or a position string"):
        engine.best_move(42)
    with pytest.raises(phutball.ParseError):
        engine.best_move("15/15 O")
    with pytest.raises(ValueError, match="game is over"):
        engine.best_move(FINISHED)
    with pytest.raises(ValueError, match="time must be None or a number of seconds of at least 0, not -5"):
        phutball.Engine(time=-5)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="time_ms must be at least 1, not -5"):
        phutball.Engine(time_ms=-5)
    with pytest.raises(ValueError, match="depth must be from 1 to 64, not 0"):
        phutball.Engine(depth=0)
    with pytest.raises(TypeError):
        phutball.Engine(nodes="many")
    assert repr(phutball.Engine()) == "Engine(time=1.0, depth=None, nodes=None, seed=1, threads=1)"


def _cycle_back_to_the_start(placed):
    """A game from the start back to it: Ohs places ``placed`` next to the
    ball, Eks jumps it, Ohs places it again, Eks jumps back."""
    start = phutball.Position()
    ball = start.ball
    # The landing point behind ``placed``, seen from the ball.
    cols = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    bc, br = cols.index(ball[0]), int(ball[1:])
    pc, pr = cols.index(placed[0]), int(placed[1:])
    assert max(abs(pc - bc), abs(pr - br)) == 1, f"{placed} is not next to the ball {ball}"
    behind = f"{cols[2 * pc - bc]}{2 * pr - br}"
    game = phutball.Game()
    for move in [placed, f"{ball}-{behind}", placed, f"{behind}-{ball}"]:
        game.push(move)
    assert game.position == start
    return game


def test_a_game_brings_the_history_guard():
    # At the start every move has a mirror image of equal value (by the hand
    # evaluation: a network's weights are not mirror images), so the
    # position the engine's first choice leads to, once seen earlier in the
    # game, must make it choose another move.
    engine = phutball.Engine(depth=2, seed=3, eval="hand")
    first = engine.best_move(phutball.Position())
    assert not first.is_jump
    game = _cycle_back_to_the_start(str(first))
    assert phutball.Position().play(first) in game.positions
    for again in (engine.best_move(game), engine.analyse(game).best_move, engine.analyse_game(game).best_move):
        assert again != first
        assert not again.is_jump
    # A game with no history chooses as the lone position does.
    assert engine.best_move(phutball.Game()) == first


def test_analyse_game_takes_only_a_game():
    engine = phutball.Engine(depth=1)
    with pytest.raises(TypeError, match="must be a phutball.Game"):
        engine.analyse_game(phutball.Position())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a phutball.Game, a phutball.Position or a position string, not int"):
        engine.best_move(3)  # type: ignore[arg-type]
    over = phutball.Game(FINISHED)
    with pytest.raises(ValueError):
        engine.analyse_game(over)


def test_an_analysis_reads_well():
    analysis = phutball.Engine(depth=2).analyse(phutball.Position(CHAIN))
    text = repr(analysis)
    assert text.startswith("Analysis(best_move=H10-H19, score=win in 1,")
    assert "decision=scores" in text
    html = analysis._repr_html_()
    import xml.etree.ElementTree as ET

    table = ET.fromstring(html)
    cells = {row[0].text: "".join(row[1].itertext()) for row in table}
    assert cells["best move"] == "H10-H19"
    assert cells["score"] == "win in 1"
    assert cells["principal variation"].split()[0] == "H10-H19"
    assert int(cells["nodes"]) == analysis.nodes
