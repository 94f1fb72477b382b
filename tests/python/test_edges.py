"""Misuse from Python gets clear answers (issue #26, parts 4 and 5): every
class pickles or says why not, VecEnv takes turns between threads, the
PettingZoo env says what is wrong, every integer argument refuses bools and
out-of-range values naming itself, and move lists take notation."""

from __future__ import annotations

import ast
import copy
import pathlib
import pickle
import struct
import threading
import zlib

import numpy as np
import pytest

import phutball
from phutball import _phutball

STUBS = pathlib.Path(__file__).resolve().parents[2] / "python" / "phutball" / "_phutball.pyi"

#: The classes documented (docs/python.md) not to pickle, with the reason
#: their TypeError gives.
UNPICKLABLE = {
    "VecEnv": "does not pickle",
    "CheckedProof": "does not pickle",
    "Proof": "does not pickle",
    "MoveListIterator": "does not pickle",
    "Transition": "does not pickle",
    "_Deadline": "does not pickle",
}


def stub_classes() -> list[str]:
    """Every class the stubs declare, exceptions aside."""
    tree = ast.parse(STUBS.read_text())
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef) and not node.name.endswith("Error")
    ]


def a_jump_in_progress():
    pos = phutball.Position.from_points("H10", ["H9"])
    for action in pos.legal_actions():
        state = pos.apply_action(action)
        if isinstance(state, phutball.JumpInProgress):
            return state
    raise AssertionError("no jump under way")


def a_game():
    game = phutball.Game()
    game.push("H9")
    return game


def an_episode():
    episode = phutball.Episode(phutball.Position.from_points("H10", ["H9"]), move_limit=9)
    episode.step(0)
    return episode


def a_network():
    """A network of 3x5 boards, two hidden units, its weights a pattern (docs/network.md)."""
    weights = [i / 64 for i in range((2 * 3 * 5 + 3) * 2 + 2 + 2 + 1)]
    body = b"phbnet\n\0" + struct.pack("<II", 1, 4) + b"tiny" + struct.pack("<I", 1)
    body += struct.pack("<BBH", 3, 5, 2) + struct.pack(f"<{len(weights)}f", *weights)
    return phutball.Network.from_bytes(body + struct.pack("<I", zlib.crc32(body)))


def example(name: str):
    """One instance of each class the extension exports."""
    pos = phutball.Position.from_points("H10", ["H9"])
    small = phutball.Position.start(3, 5)
    makers = {
        "Rules": lambda: phutball.Rules(continue_off_board=True),
        "Move": lambda: phutball.Move("H9"),
        "MoveList": lambda: pos.legal_moves(),
        "MoveListIterator": lambda: iter(pos.legal_moves()),
        "Position": lambda: pos,
        "JumpInProgress": a_jump_in_progress,
        "Game": a_game,
        "Analysis": lambda: phutball.Engine(nodes=200).analyse(pos),
        "Engine": lambda: phutball.Engine(depth=3, nodes=900, seed=7, threads=2),
        "SelfPlayGame": lambda: phutball.selfplay(1, nodes=50, move_limit=4, seed=3)[0],
        "MoveAnalysis": lambda: phutball.selfplay(1, nodes=50, move_limit=4, seed=3)[0].analyses[-1],
        "CheckedProof": lambda: small.prove(nodes=100000).certificate.check(),
        "Certificate": lambda: small.prove(nodes=100000).certificate,
        "Proof": lambda: small.prove(nodes=100000),
        "Value": lambda: phutball.Tablebase.build(3, 4).start_value,
        "Tablebase": lambda: phutball.Tablebase.build(3, 4),
        "VecEnv": lambda: phutball.VecEnv(2, seed=1),
        "Episode": an_episode,
        "Transition": lambda: an_episode().step(1),
        "_Deadline": lambda: _phutball._Deadline(60),
        "Network": a_network,
    }
    return makers[name]()


def state(value):
    """What two equal values of a class without ``==`` share."""
    if isinstance(value, phutball.Tablebase):
        return value.to_bytes()
    if isinstance(value, phutball.SelfPlayGame):
        return (value.index, value.seed, value.game, value.analyses, value.seconds)
    if isinstance(value, phutball.Analysis):
        return (repr(value), value.score_text, value.seconds, list(value.pv))
    return repr(value)


@pytest.mark.parametrize("name", stub_classes())
def test_every_class_pickles_or_says_why_not(name):
    assert hasattr(_phutball, name), name
    value = example(name)
    assert type(value).__name__ == name
    if name in UNPICKLABLE:
        with pytest.raises(TypeError, match=UNPICKLABLE[name]):
            pickle.dumps(value)
        return
    for again in [pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)]:
        assert type(again) is type(value)
        assert again == value or state(again) == state(value)


def test_every_exported_class_is_in_the_stubs_and_tried():
    exported = {n for n, v in vars(_phutball).items() if isinstance(v, type) and not issubclass(v, BaseException)}
    assert exported == set(stub_classes())


def test_a_pickled_engine_searches_as_the_original():
    engine = phutball.Engine(nodes=500, seed=5)
    again = pickle.loads(pickle.dumps(engine))
    pos = phutball.Position.from_points("H10", ["H9", "G9"])
    assert again.analyse(pos).best_move == engine.analyse(pos).best_move
    assert repr(again) == repr(engine)
    # With its network.
    small = phutball.Position.start(3, 5)
    engine = phutball.Engine(nodes=200, seed=5, eval=a_network())
    again = pickle.loads(pickle.dumps(engine))
    assert again.eval == engine.eval
    assert again.analyse(small).best_move == engine.analyse(small).best_move


def test_six_threads_stepping_one_vec_env_take_turns():
    env = phutball.VecEnv(4, seed=2, move_limit=None)
    env.reset(seed=2)
    errors: list[BaseException] = []
    stepped = []
    steps = 30

    def run():
        for _ in range(steps):
            actions = env.sample_actions()
            try:
                env.step(actions)
                stepped.append(1)
            except phutball.IllegalMoveError:
                # Another thread stepped between sample_actions and step:
                # the batch refused the stale actions and did not change.
                pass
            except BaseException as e:  # noqa: BLE001 - collected for the assertion
                errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert stepped
    assert len(env.states()) == 4


def test_pettingzoo_step_before_reset_and_after_the_end():
    from phutball.env import PhutballAECEnv

    env = PhutballAECEnv(start=phutball.Position.from_points("H17", ["H18"]))
    with pytest.raises(RuntimeError, match=r"before reset\(\)"):
        env.step(0)
    with pytest.raises(RuntimeError, match=r"before reset\(\)"):
        env.observe("O")
    env.reset()
    jump = next(a for a in env.position.legal_actions() if env.position.describe_action(a).startswith("jump"))
    env.step(jump)
    while not env.terminations[env.agent_selection]:
        env.step(env.position.legal_actions()[-1])
    # The protocol: every done agent is stepped with None.
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    while env.agents:
        env.step(None)
    with pytest.raises(RuntimeError, match="after the episode ended"):
        env.step(0)
    with pytest.raises(RuntimeError, match="after the episode ended"):
        env.step(None)
    env.reset()
    assert env.agents == ["O", "X"]


BOOL_CALLS = {
    "Engine(time=)": (lambda v: phutball.Engine(time=v), "time"),
    "Engine(time_ms=)": (lambda v: phutball.Engine(time_ms=v), "time_ms"),
    "Engine(depth=)": (lambda v: phutball.Engine(depth=v), "depth"),
    "Engine(nodes=)": (lambda v: phutball.Engine(nodes=v), "nodes"),
    "Engine(seed=)": (lambda v: phutball.Engine(seed=v), "seed"),
    "Engine(threads=)": (lambda v: phutball.Engine(threads=v), "threads"),
    "VecEnv()": (lambda v: phutball.VecEnv(v), "num_envs"),
    "VecEnv(cols=)": (lambda v: phutball.VecEnv(1, cols=v), "cols"),
    "VecEnv(seed=)": (lambda v: phutball.VecEnv(1, seed=v), "seed"),
    "VecEnv.reset(seed=)": (lambda v: phutball.VecEnv(1).reset(seed=v), "seed"),
    "selfplay()": (lambda v: phutball.selfplay(v), "games"),
    "selfplay(start=)": (lambda v: phutball.selfplay(1, start=v, nodes=10), "start"),
    "selfplay(move_limit=)": (lambda v: phutball.selfplay(1, move_limit=v, nodes=10), "move_limit"),
    "selfplay(jobs=)": (lambda v: phutball.selfplay(1, jobs=v, nodes=10), "jobs"),
    "legal_moves(limit=)": (lambda v: phutball.Position().legal_moves(limit=v), "limit"),
    "apply_action()": (lambda v: phutball.Position().apply_action(v), "action"),
    "Position.start()": (lambda v: phutball.Position.start(v), "cols"),
    "Game(move_limit=)": (lambda v: phutball.Game(move_limit=v), "move_limit"),
    "svg(size=)": (lambda v: phutball.Position().svg(size=v), "size"),
    "prove(nodes=)": (lambda v: phutball.Position.start(3, 5).prove(nodes=v), "nodes"),
    "memory_limit=": (lambda v: phutball.Position().legal_moves(memory_limit=v), "memory_limit"),
}


@pytest.mark.parametrize("call", sorted(BOOL_CALLS))
@pytest.mark.parametrize("value", [True, False])
def test_no_integer_argument_takes_a_bool(call, value):
    function, name = BOOL_CALLS[call]
    with pytest.raises(TypeError, match=rf"{name}.*bool|bool.*{name}") as info:
        function(value)
    assert "bool" in str(info.value)


OUT_OF_RANGE = [
    (lambda: phutball.selfplay(-1), "games", "-1"),
    (lambda: phutball.selfplay(1, start=-1), "start", "-1"),
    (lambda: phutball.selfplay(1, move_limit=2**40, nodes=10), "move_limit", str(2**40)),
    (lambda: phutball.Engine(time=0), "time", "at least 0.001 seconds"),
    (lambda: phutball.Engine(time=-1), "time", "at least 0"),
    (lambda: phutball.Engine(nodes=0), "nodes", "at least 1"),
    (lambda: phutball.Engine(nodes=-5), "nodes", "-5"),
    (lambda: phutball.Engine(nodes=2**70), "nodes", str(2**70)),
    (lambda: phutball.Engine(depth=65), "depth", "from 1 to 64"),
    (lambda: phutball.Engine(threads=65), "threads", "from 1 to 64"),
    (lambda: phutball.Engine(seed=-1), "seed", "-1"),
    (lambda: phutball.Engine(seed=2**64), "seed", str(2**64)),
    (lambda: phutball.VecEnv(0), "num_envs", "0"),
    (lambda: phutball.VecEnv(-3), "num_envs", "-3"),
    (lambda: phutball.VecEnv(1, seed=-1), "seed", "-1"),
    (lambda: phutball.VecEnv(1, jobs=0), "jobs", "0"),
    # As the CLI's `prove --nodes 0`.
    (lambda: phutball.Position.start(3, 5).prove(nodes=0), "nodes", "at least 1, not 0"),
]


@pytest.mark.parametrize("index", range(len(OUT_OF_RANGE)))
def test_out_of_range_integers_raise_value_error_naming_them(index):
    call, name, text = OUT_OF_RANGE[index]
    with pytest.raises(ValueError, match=name) as info:
        call()
    assert text in str(info.value)
    assert not isinstance(info.value, OverflowError)


def test_svg_size_is_the_cores_range():
    assert 'width="65536"' in phutball.Position().svg(size=65536)
    with pytest.raises(ValueError, match="size must be None or the picture's width in pixels, an int from 1 to 65536, not 4294967295"):
        phutball.Position().svg(size=4294967295)


def test_engine_seed_takes_every_u64():
    assert "seed=18446744073709551615" in repr(phutball.Engine(seed=2**64 - 1))


@pytest.mark.parametrize("actions", [[2**63, 0, 0, 0], [2**70, 0, 0, 0], np.array([2**63, 0, 0, 0], dtype=np.uint64)])
def test_vec_env_actions_beyond_every_dtype_are_out_of_range(actions):
    env = phutball.VecEnv(4, seed=1)
    env.reset()
    with pytest.raises(phutball.IllegalMoveError, match=r"game 0: action \d+ does not exist"):
        env.step(actions)


def test_vec_env_actions_refuse_bools():
    env = phutball.VecEnv(2, seed=1)
    env.reset()
    with pytest.raises(TypeError, match=r"not bool \(actions\[0\]\)"):
        env.step([True, 0])
    with pytest.raises(TypeError, match="bool"):
        env.step(np.array([True, False]))


def test_move_lists_take_notation():
    pos = phutball.Position.from_points("K6", ["J7", "H8", "G9"])
    paths = pos.jump_paths()
    first = str(paths[0])
    assert first in paths
    assert phutball.Move(first) in paths
    assert paths.index(first) == 0
    assert paths.count(first) == 1
    # Well-formed but absent: False, as for a Move.
    assert "A1" not in paths
    assert paths.count("A1") == 0
    with pytest.raises(ValueError, match="not in the list"):
        paths.index("A1")
    # Malformed: the ParseError of every move argument.
    with pytest.raises(phutball.ParseError):
        "K6-" in paths  # noqa: B015 - the check is the raise
    # Other objects are in no list.
    assert 3 not in paths
    legal = pos.legal_moves()
    assert "A1" in legal and first in legal
