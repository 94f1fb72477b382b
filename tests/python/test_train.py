"""The value network's trainer (issue 36): ``python -m phutball.train`` on a
self-play dataset made on a local Ray cluster. A seed reproduces a run; a
run stopped by its timeout and resumed from its checkpoint gives the
weights of an uninterrupted one; the exported file is what the engine reads,
and its values are the JAX network's; damaged datasets, checkpoints of
another run and bad arguments are refused, saying why."""

import json
import shutil
import struct
import zlib

import numpy as np
import pytest
import ray

import phutball
from phutball import distributed
from phutball.distributed import DatasetError
from phutball.train import BoardWeights, train, weights_bytes
from phutball.train.__main__ import main as command
from phutball.train._features import inputs_of
from phutball.train._model import ENGINE_UNITS, init_params, jax, value_in_rows

RUN = {"nodes": 60, "seed": 5, "move_limit": 40, "games_per_task": 4, "training": True, "random_openings": True}
GAMES = 16
SMALL = {"hidden": 8, "epochs": 3, "batch_size": 64, "seed": 11, "validation": 0.25, "progress": False}


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay") / "d"
    distributed.selfplay(GAMES, out=out, **RUN)
    return out


def test_a_seed_reproduces_the_weights_and_the_engine_reads_them(dataset, tmp_path):
    first, second = tmp_path / "a.phbnet", tmp_path / "b.phbnet"
    summary = train(dataset, first, **SMALL)
    train(dataset, second, **SMALL)
    assert first.read_bytes() == second.read_bytes()
    assert summary.finished and summary.epochs == 3 and summary.board == (15, 19)
    assert summary.training_positions > 0 and summary.validation_positions > 0
    assert len(summary.training_losses) == len(summary.validation_losses) == 3
    network = phutball.Network(str(first))
    assert network.sizes == [(15, 19)]
    assert json.loads(network.description)["seed"] == 11
    assert network.to_bytes() == first.read_bytes()
    # Another seed, other weights.
    other = tmp_path / "c.phbnet"
    train(dataset, other, **{**SMALL, "seed": 12})
    assert other.read_bytes() != first.read_bytes()


def test_training_lowers_the_loss(dataset, tmp_path):
    summary = train(dataset, tmp_path / "n.phbnet", **{**SMALL, "epochs": 12, "learning_rate": 3e-3})
    assert summary.training_losses[-1] < summary.training_losses[0]


def test_the_engine_computes_what_the_trainer_trained(tmp_path):
    """The exported network's values in the engine are the JAX network's,
    times 100, rounded: the features, their order and the arithmetic agree."""
    params = init_params(jax.random.PRNGKey(3), 15, 19, 16)
    # Weights large enough that the output moves well away from zero.
    params = {**params, "w2": params["w2"] * 4000.0, "b2": params["b2"] + 0.25}
    from phutball.train._model import export

    path = tmp_path / "n.phbnet"
    path.write_bytes(weights_bytes("test", [export(params, 15, 19)]))
    network = phutball.Network(str(path))
    game = phutball.Game(phutball.Position.start())
    positions = []
    for move in ["H11", "H12", "G9", "J11", "H9"]:
        game.push(move)
        positions.append(str(game.position))
    inputs = inputs_of(positions, 15, 19)
    expected = np.asarray(value_in_rows(params, inputs.batch(np.arange(len(positions))))) * ENGINE_UNITS
    got = [network.evaluate(p) for p in positions]
    assert len(set(got)) > 1, got
    for value, want in zip(got, expected):
        assert abs(value - want) <= 1.0, (got, expected)


def test_a_stopped_run_resumes_to_the_same_weights(dataset, tmp_path):
    whole = tmp_path / "whole.phbnet"
    train(dataset, whole, **SMALL)
    resumed, saved = tmp_path / "resumed.phbnet", tmp_path / "state.npz"
    stopped = train(dataset, resumed, **{**SMALL, "epochs": 1}, checkpoint=saved)
    assert stopped.finished and stopped.epochs == 1 and saved.exists()
    # A timeout of 0 stops before the first batch of the next epoch: nothing
    # is written, the checkpoint keeps its epoch.
    timed_out = train(dataset, tmp_path / "never.phbnet", **SMALL, checkpoint=saved, timeout=0)
    assert not timed_out.finished and timed_out.epochs == 1
    assert not (tmp_path / "never.phbnet").exists()
    finished = train(dataset, resumed, **SMALL, checkpoint=saved)
    assert finished.epochs == 3
    assert resumed.read_bytes() == whole.read_bytes()


def test_a_checkpoint_of_another_run_is_refused_and_kept(dataset, tmp_path):
    saved = tmp_path / "state.npz"
    train(dataset, tmp_path / "a.phbnet", **{**SMALL, "epochs": 1}, checkpoint=saved)
    before = saved.read_bytes()
    with pytest.raises(ValueError, match=r"another run \(hidden differ\)"):
        train(dataset, tmp_path / "b.phbnet", **{**SMALL, "hidden": 9}, checkpoint=saved)
    saved.write_bytes(before[: len(before) // 2])
    with pytest.raises(ValueError, match="not a checkpoint of phutball.train, or damaged"):
        train(dataset, tmp_path / "b.phbnet", **SMALL, checkpoint=saved)
    assert saved.read_bytes() == before[: len(before) // 2]


def test_a_damaged_dataset_is_refused(dataset, tmp_path):
    copy = tmp_path / "d"
    shutil.copytree(dataset, copy)
    victim = sorted((copy / "training").glob("*.parquet"))[0]
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0x10
    victim.write_bytes(bytes(data))
    with pytest.raises(DatasetError, match="not complete"):
        train(copy, tmp_path / "n.phbnet", **SMALL)


def test_the_command(dataset, tmp_path, capsys):
    out = tmp_path / "n.phbnet"
    assert command([str(dataset), "--out", str(out), "--hidden", "8", "--epochs", "2", "--quiet"]) == 0
    assert phutball.Network(str(out)).sizes == [(15, 19)]
    assert "15x19" in capsys.readouterr().out
    assert command([str(dataset), "--out", str(out), "--board", "9x9", "--quiet"]) == 1
    assert "no positions of the 9x9 board" in capsys.readouterr().err
    assert command([str(dataset), "--out", str(out), "--hidden", "0", "--quiet"]) == 1
    assert "hidden must be a whole number, 1 or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit:
        command([str(dataset)])
    assert exit.value.code == 2


def test_the_weights_writer_refuses_what_the_format_cannot_hold():
    w = BoardWeights(3, 3, np.zeros((21, 2)), np.zeros(2), np.zeros(2), 0.0)
    data = weights_bytes("x", [w])
    assert data[:8] == b"phbnet\n\0" and struct.unpack("<I", data[-4:])[0] == zlib.crc32(data[:-4])
    with pytest.raises(ValueError, match="same board size"):
        weights_bytes("x", [w, w])
    with pytest.raises(ValueError, match="not finite"):
        weights_bytes("x", [BoardWeights(3, 3, np.full((21, 2), np.nan), np.zeros(2), np.zeros(2), 0.0)])
    with pytest.raises(ValueError, match="shapes"):
        weights_bytes("x", [BoardWeights(3, 3, np.zeros((20, 2)), np.zeros(2), np.zeros(2), 0.0)])


def test_selfplay_on_ray_plays_with_the_network_it_is_given(dataset, tmp_path):
    weights = tmp_path / "n.phbnet"
    train(dataset, weights, **SMALL)
    network = phutball.Network(str(weights))
    run = {"nodes": 60, "seed": 9, "move_limit": 12, "games_per_task": 2}
    out = tmp_path / "with-net"
    distributed.selfplay(4, out=out, eval=f"net:{weights}", **run)
    record = json.loads((out / "run.json").read_text())
    assert record["eval"].startswith("net:sha256:")
    import pyarrow.parquet as pq

    moves = [row["moves"] for row in pq.read_table(out / "games").sort_by("game").to_pylist()]
    alone = phutball.selfplay(4, nodes=60, seed=9, move_limit=12, eval=network, jobs=1)
    assert moves == [[str(m) for m in g.game.moves] for g in alone]
    hand = phutball.selfplay(4, nodes=60, seed=9, move_limit=12, jobs=1, eval="hand")
    assert moves != [[str(m) for m in g.game.moves] for g in hand], "the network changed no move"
    # The same out with the hand evaluation, or the default, is another run.
    for other in ("hand", None):
        with pytest.raises(ValueError, match="eval"):
            distributed.selfplay(4, out=out, eval=other, **run)


def test_selfplay_and_analyse_on_ray_record_their_evaluation(tmp_path):
    import hashlib

    import pyarrow.parquet as pq

    run = {"nodes": 60, "seed": 4, "move_limit": 8, "games_per_task": 2}
    built_in = hashlib.sha256(phutball.Network.built_in().to_bytes()).hexdigest()
    # The default, auto, is named with the built-in network: a build with
    # another network built in does not resume the run.
    auto = tmp_path / "auto"
    distributed.selfplay(2, out=auto, **run)
    assert json.loads((auto / "run.json").read_text())["eval"] == f"auto:net:sha256:{built_in}"
    moves = [row["moves"] for row in pq.read_table(auto / "games").sort_by("game").to_pylist()]
    alone = phutball.selfplay(2, nodes=60, seed=4, move_limit=8, jobs=1, eval="net")
    assert moves == [[str(m) for m in g.game.moves] for g in alone]
    with pytest.raises(ValueError, match="eval"):
        distributed.selfplay(2, out=auto, eval="hand", **run)
    # The hand evaluation keeps the record it had before eval= (no key), so
    # that its older datasets resume.
    hand = tmp_path / "hand"
    distributed.selfplay(2, out=hand, eval="hand", **run)
    assert "eval" not in json.loads((hand / "run.json").read_text())
    # Resumed with the default, it is refused with the way to resume it.
    with pytest.raises(DatasetError, match='resume it with eval="hand"'):
        distributed.selfplay(2, out=hand, **run)
    # A worker whose build has another network built in refuses an auto run.
    from phutball.distributed._datasets import _check_built_in

    _check_built_in({"eval": f"auto:net:sha256:{built_in}"})
    _check_built_in({})
    with pytest.raises(DatasetError, match="another built-in network"):
        _check_built_in({"eval": "auto:net:sha256:" + "0" * 64})
    # analyse takes eval= too, and records it as selfplay does; here the
    # two evaluations' 4,000-node searches part.
    positions = ["15/15/15/15/15/15/15/15/7#7/6##7/7@7/7#7/15/15/15/15/15/15/15 X"]
    answers = {}
    for name, spec in (("a-auto", None), ("a-hand", "hand")):
        distributed.analyse(positions, nodes=4000, out=tmp_path / name, eval=spec)
        answers[name] = pq.read_table(tmp_path / name / "analysis").to_pylist()[0]["best_move"]
        engine = phutball.Engine(nodes=4000, seed=0, eval=spec)
        assert answers[name] == str(engine.analyse(positions[0]).best_move)
    assert answers["a-auto"] != answers["a-hand"]
    with pytest.raises(ValueError, match="eval"):
        distributed.analyse(positions, nodes=4000, out=tmp_path / "a-auto", eval="hand")
    with pytest.raises(ValueError, match="eval must be"):
        distributed.analyse(positions, nodes=4000, out=tmp_path / "a-bad", eval="neural")


def test_the_generation_loop_gates_resumes_and_refuses_other_settings(tmp_path):
    from phutball.train.loop import loop

    settings = {"games": 6, "nodes": 60, "gate_pairs": 2, "epochs": 2, "hidden": 8, "move_limit": 24, "seed": 2, "progress": False}
    first = loop(str(tmp_path), generations=1, **settings)
    assert [g.number for g in first.generations] == [1]
    one = first.generations[0]
    assert one.played_with == "hand" and one.gate["games"] == 4
    assert one.promoted == (one.gate["score"] > 0.5)
    assert (tmp_path / "best.phbnet").exists() == one.promoted
    second = loop(str(tmp_path), generations=2, **settings)
    assert second.generations[0] == one
    two = second.generations[1]
    assert two.played_with == ("gen-1" if one.promoted else "hand")
    assert two.trained_on == ["gen-1/data", "gen-2/data"]
    recorded = json.loads((tmp_path / "loop.json").read_text())
    assert [g["number"] for g in recorded["generations"]] == [1, 2]
    with pytest.raises(ValueError, match=r"other settings \(games differ\)"):
        loop(str(tmp_path), generations=3, **{**settings, "games": 7})
