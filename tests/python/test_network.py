"""phutball.Network, phutball.network_features and Engine(eval=...): a
weights file written here by hand (struct and zlib, as a trainer would,
from docs/network.md) is read and gives the value the page's formula
gives; damaged, cut and foreign files raise NetworkError; the features are
the engine's own; an engine searches with a network and refuses the board
sizes it has none for."""

import pickle
import struct
import zlib

import numpy as np
import pytest

import phutball
from conftest import REPO

# A 5x7 board: ball C4 (the centre row), men C5 and B3, Ohs to move. Its
# features: sparse 11 (B3), 22 (C5) and 35 + 17 = 52 (the ball); dense
# (0, 2, 2): the ball on the centre row, a two-row jump for each side.
TWO_JUMPS = "5/5/2#2/2@2/1#3/5/5 O"

HIDDEN = 3
INPUTS = 2 * 5 * 7 + 3


def tiny_weights():
    """The hand-made network of the Rust tests (tests/network.rs): W1, b1, w2, b2."""
    w1 = [0.0] * (INPUTS * HIDDEN)
    rows = {
        11: [0.25, -0.5, 0.5],
        22: [0.5, 0.125, 0.25],
        52: [0.125, 0.25, 0.125],
        70: [3.0, 1.0, -2.0],
        71: [0.0625, -0.25, 0.125],
        72: [-0.125, -0.5, -0.0625],
        # Inputs the position does not have: they must not count.
        12: [9.0, 9.0, 9.0],
        53: [-9.0, -9.0, -9.0],
    }
    for i, ws in rows.items():
        w1[i * HIDDEN : (i + 1) * HIDDEN] = ws
    return w1, [0.5, 0.25, -0.25], [100.0, 1000.0, -60.0], 7.25


def weights_file(description=b"tiny: by hand", version=1, layers=None):
    """A weights file as docs/network.md lays it out, checksummed with zlib.crc32."""
    if layers is None:
        w1, b1, w2, b2 = tiny_weights()
        layers = [(5, 7, HIDDEN, w1 + b1 + w2 + [b2])]
    body = b"phbnet\n\0" + struct.pack("<II", version, len(description)) + description
    body += struct.pack("<I", len(layers))
    for cols, rows, hidden, weights in layers:
        body += struct.pack("<BBH", cols, rows, hidden)
        body += struct.pack(f"<{len(weights)}f", *weights)
    return body + struct.pack("<I", zlib.crc32(body))


@pytest.fixture
def tiny_path(tmp_path):
    path = tmp_path / "tiny.phbnet"
    path.write_bytes(weights_file())
    return path


def test_a_file_written_by_hand_is_read_and_written_back(tiny_path):
    net = phutball.Network(tiny_path)
    assert net == phutball.Network.load(str(tiny_path))
    assert net.to_bytes() == weights_file()
    assert phutball.Network.from_bytes(net.to_bytes()) == net
    assert net.sizes == [(5, 7)]
    assert net.description == "tiny: by hand"
    assert pickle.loads(pickle.dumps(net)) == net
    assert "5x7 with 3 hidden units" in repr(net)


def test_the_value_is_the_pages_formula_worked_by_hand(tiny_path):
    # h = clamp((1.25, -1.375, 0.75), 0, 1) = (1, 0, 0.75);
    # out = 7.25 + 100 * 1 + 1000 * 0 - 60 * 0.75 = 62.25, rounded: 62.
    net = phutball.Network(tiny_path)
    assert net.evaluate(TWO_JUMPS) == 62
    assert net.evaluate(phutball.Position(TWO_JUMPS)) == 62
    with pytest.raises(phutball.NetworkError, match="the network serves 5x7, not 15x19"):
        net.evaluate(phutball.Position())
    with pytest.raises(phutball.NetworkError, match="the game is over"):
        net.evaluate("5/5/5/5/5/5/2@2 O")
    with pytest.raises(TypeError):
        net.evaluate(3)


def test_damaged_cut_and_foreign_files_are_refused(tmp_path):
    good = weights_file()
    assert issubclass(phutball.NetworkError, ValueError)
    damaged = bytearray(good)
    damaged[100] ^= 0x10
    with pytest.raises(phutball.NetworkError, match="the weights file is damaged: checksum [0-9a-f]{8}, the file says"):
        phutball.Network.from_bytes(bytes(damaged))
    for cut in (0, 5, 11, 40, len(good) - 1):
        with pytest.raises(phutball.NetworkError, match="truncated"):
            phutball.Network.from_bytes(good[:cut])
    with pytest.raises(phutball.NetworkError, match="2 bytes after its checksum"):
        phutball.Network.from_bytes(good + b"\0\0")
    with pytest.raises(phutball.NetworkError, match="version 2; this build reads version 1"):
        phutball.Network.from_bytes(weights_file(version=2))
    with pytest.raises(phutball.NetworkError, match="not a phutball weights file"):
        phutball.Network.from_bytes(b"PK\x03\x04" + good)
    w1, b1, w2, b2 = tiny_weights()
    w1[4] = float("nan")
    with pytest.raises(phutball.NetworkError, match=r"W1\[4\] is not finite"):
        phutball.Network.from_bytes(weights_file(layers=[(5, 7, HIDDEN, w1 + b1 + w2 + [b2])]))
    layer = (5, 7, HIDDEN, sum(tiny_weights()[:3], []) + [7.25])
    with pytest.raises(phutball.NetworkError, match="two networks serve 5x7"):
        phutball.Network.from_bytes(weights_file(layers=[layer, layer]))
    # A file: named in the message; a file that is not there: OSError.
    path = tmp_path / "damaged.phbnet"
    path.write_bytes(bytes(damaged))
    with pytest.raises(phutball.NetworkError, match="damaged.phbnet: the weights file is damaged"):
        phutball.Network(path)
    with pytest.raises(FileNotFoundError):
        phutball.Network(tmp_path / "missing.phbnet")
    with pytest.raises(TypeError):
        phutball.Network.from_bytes("not bytes")


def test_network_features_are_the_engines(tiny_path):
    start = phutball.Position()
    offsets, indices, dense = phutball.network_features([TWO_JUMPS, start])
    assert offsets.dtype == np.int64 and indices.dtype == np.int32 and dense.dtype == np.float32
    assert offsets.tolist() == [0, 3, 4]
    # The start: the ball on H10, (10 - 1) * 15 + 7 = 142, after the 285 squares.
    assert indices.tolist() == [11, 22, 52, 285 + 142]
    assert dense.shape == (2, 3)
    assert dense.tolist() == [[0.0, 2.0, 2.0], [0.0, 0.0, 0.0]]
    # Eks's frame turns the rows over: C5 is on row' 3, B3 on row' 5.
    _, eks, _ = phutball.network_features([TWO_JUMPS.replace(" O", " X")])
    assert eks.tolist() == [12, 21, 52]
    # The same board turned over, the other side to move: the same inputs.
    pos = phutball.Position(TWO_JUMPS)
    turned = phutball.network_features([pos.flip_rows()])
    for a, b in zip(turned, phutball.network_features([pos])):
        assert a.tolist() == b.tolist()


def test_network_features_of_nothing_and_of_a_finished_game():
    offsets, indices, dense = phutball.network_features([])
    assert offsets.tolist() == [0] and indices.shape == (0,) and dense.shape == (0, 3)
    with pytest.raises(phutball.NetworkError, match=r"positions\[1\]: the game is over"):
        phutball.network_features([TWO_JUMPS, "5/5/5/5/5/5/2@2 O"])
    with pytest.raises(TypeError):
        phutball.network_features([3])


def test_an_engine_searches_with_a_network(tiny_path):
    net = phutball.Network(tiny_path)
    hand = phutball.Engine(nodes=300, eval="hand")
    assert hand.eval == "hand" and "eval='hand'" in repr(hand) and eval(repr(hand), vars(phutball)).eval == "hand"
    for spec in (net, f"net:{tiny_path}"):
        engine = phutball.Engine(nodes=300, eval=spec)
        assert engine.eval == net
        assert "eval=<Network 5x7>" in repr(engine)
        move = engine.best_move(TWO_JUMPS)
        assert phutball.Position(TWO_JUMPS).is_legal(move)
        with pytest.raises(phutball.NetworkError, match="the network serves 5x7, not 15x19"):
            engine.analyse(phutball.Position())
        answers = engine.analyse_many([TWO_JUMPS, phutball.Position()], jobs=2)
        assert isinstance(answers[0], phutball.Analysis)
        assert isinstance(answers[1], phutball.NetworkError)
        again = pickle.loads(pickle.dumps(engine))
        assert again.eval == net and again.analyse(TWO_JUMPS).best_move == engine.analyse(TWO_JUMPS).best_move


def test_an_eval_that_names_no_evaluation_is_refused(tmp_path):
    with pytest.raises(ValueError, match="net: needs a file name"):
        phutball.Engine(eval="net:")
    with pytest.raises(ValueError, match="unknown evaluation"):
        phutball.Engine(eval="neural")
    with pytest.raises(TypeError, match="eval must be"):
        phutball.Engine(eval=3)
    with pytest.raises(FileNotFoundError):
        phutball.Engine(eval=f"net:{tmp_path / 'missing.phbnet'}")


def test_selfplay_takes_a_network(tiny_path):
    net = phutball.Network(tiny_path)
    games = phutball.selfplay(2, nodes=100, move_limit=10, openings=["start:5x7"], eval=net, jobs=2)
    assert len(games) == 2
    with pytest.raises(phutball.NetworkError, match=r"openings\[0\]: the network serves 5x7, not 15x19"):
        phutball.selfplay(1, nodes=100, eval=net)


def test_net_alone_is_the_network_built_in():
    engine = phutball.Engine(nodes=4000, eval="net")
    assert isinstance(engine.eval, phutball.Network) and engine.eval.sizes == [(15, 19)]
    # The shipped file's, byte for byte.
    shipped = (REPO / "crates" / "phutball-engine" / "networks" / "standard.phbnet").read_bytes()
    assert engine.eval.to_bytes() == shipped
    pos = "15/15/15/15/15/15/15/15/7#7/6##7/7@7/7#7/15/15/15/15/15/15/15 X"
    # The search evaluates with it: its score is not the hand evaluation's.
    assert engine.analyse(pos).score != phutball.Engine(nodes=4000, eval="hand").analyse(pos).score
    assert phutball.Network.built_in() == engine.eval


def test_auto_is_the_default_the_built_in_network_on_15x19_and_hand_elsewhere():
    default = phutball.Engine(nodes=4000)
    assert default.eval == "auto" == phutball.Engine(nodes=4000, eval="auto").eval
    assert "eval" not in repr(default)
    assert pickle.loads(pickle.dumps(default)).eval == "auto"
    pos = "15/15/15/15/15/15/15/15/7#7/6##7/7@7/7#7/15/15/15/15/15/15/15 X"
    net, hand = phutball.Engine(nodes=4000, eval="net"), phutball.Engine(nodes=4000, eval="hand")
    assert default.analyse(pos).pv == net.analyse(pos).pv
    assert default.analyse(pos).score == net.analyse(pos).score != hand.analyse(pos).score
    small = "9/9/9/4#4/3#@4/4#4/9/9/9 O"
    assert default.analyse(small).pv == hand.analyse(small).pv
    with pytest.raises(phutball.NetworkError, match="the network serves 15x19, not 9x9"):
        net.analyse(small)
    # Self-play and the engine opponent follow it.
    games = [g.game.moves for g in phutball.selfplay(2, nodes=200, move_limit=6, seed=3, jobs=1)]
    assert games == [g.game.moves for g in phutball.selfplay(2, nodes=200, move_limit=6, seed=3, jobs=1, eval="net")]
