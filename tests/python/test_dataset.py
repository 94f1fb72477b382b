"""The self-checking datasets of phutball.distributed (issue 26), on a real
local Ray cluster (two CPUs, one for the module) and on a local path and a
real S3-compatible server (moto's server mode, started on 127.0.0.1 for the
module): damaged and missing range files are rewritten on a resume, foreign,
junk and overlapping files and a bad run.json are refused naming the file,
a lost run.json is rebuilt from the files' metadata, and `verify` reports
it. After every repair the rows are the run's, each once."""

import json
import logging
import os
import shutil

import pyarrow.fs as pafs
import pyarrow.parquet as pq
import pytest
import ray

import phutball
from phutball import distributed
from phutball.distributed import TRAINING_SCHEMA, DatasetError
from phutball.distributed.__main__ import main as command

# The run (24 games, 4 a task, seed 3, nodes 60, training rows),
# halved to save time: six ranges of two games.
PER = 2
RUN = {"nodes": 60, "seed": 3, "move_limit": 30, "games_per_task": PER, "training": True}
GAMES = 12


def name(table, r):
    """The file name of range ``r`` (its number) of ``table``."""
    return f"{table}-{r * PER:012d}-{r * PER + PER:012d}.parquet"


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """The issue's run, written once; each test damages a copy."""
    out = tmp_path_factory.mktemp("pristine") / "d"
    distributed.selfplay(GAMES, out=out, **RUN)
    return out


@pytest.fixture
def dataset(pristine, tmp_path):
    out = tmp_path / "d"
    shutil.copytree(pristine, out)
    return out


def rows_of(table, filesystem=None):
    """The rows of a table, by game (and ply), without the time a game took."""
    rows = pq.read_table(table, filesystem=filesystem).to_pylist()
    for row in rows:
        row.pop("seconds", None)
    return sorted(rows, key=lambda r: (r["game"], r.get("ply", 0)))


def assert_whole(out, reference, filesystem=None):
    """Every game once, the training rows one per move of each, both as in ``reference``."""
    games = rows_of(f"{out}/games", filesystem)
    assert [g["game"] for g in games] == list(range(GAMES))
    training = rows_of(f"{out}/training", filesystem)
    assert len(training) == sum(g["plies"] for g in games)
    assert games == rows_of(os.path.join(reference, "games"))
    assert training == rows_of(os.path.join(reference, "training"))


def files(out, table):
    return sorted(p for p in (out / table).iterdir() if not p.name.startswith("."))


def verify_status(out, capsys):
    status = command(["verify", str(out)])
    return status, capsys.readouterr().out


def test_each_file_carries_the_run_and_its_range(pristine):
    record = json.loads((pristine / "run.json").read_text())
    for table in ("games", "training"):
        names = files(pristine, table)
        assert len(names) == 6
        for i, path in enumerate(names):
            meta = json.loads(pq.read_schema(path).metadata[b"phutball"])
            assert (meta["table"], meta["start"], meta["end"], meta["run"]) == (table, PER * i, PER * i + PER, record)
            assert meta["rows"] == pq.read_metadata(path).num_rows
    assert record["seed"] == 3 and record["games"] == GAMES


def test_the_training_rows_carry_each_moves_search(pristine):
    record = json.loads((pristine / "run.json").read_text())
    assert (record["schema"], record["random_openings"]) == (2, False)
    assert pq.read_table(pristine / "training").schema.remove_metadata().equals(TRAINING_SCHEMA)
    # One row per move of every game, with the mover's search as the
    # same games played locally record it.
    local = phutball.selfplay(GAMES, jobs=2, nodes=RUN["nodes"], seed=RUN["seed"], move_limit=RUN["move_limit"])
    searches = ("score", "win_in", "loss_in", "depth", "nodes", "decision")
    expected = [(g.index, ply, *(getattr(a, c) for c in searches)) for g in local for ply, a in enumerate(g.analyses)]
    training = rows_of(pristine / "training")
    assert [(t["game"], t["ply"], *(t[c] for c in searches)) for t in training] == expected
    assert len(training) == sum(len(g.game.moves) for g in local)
    # A won game's last row is the winner's goal: a win in 1.
    for g in local:
        last = [t for t in training if t["game"] == g.index][-1]
        if g.game.winner:
            assert (last["result"], last["win_in"], last["score"], last["decision"]) == (1, 1, None, "scores")


def test_a_truncated_and_an_empty_games_file_are_rewritten(dataset, pristine, capsys):
    games = files(dataset, "games")
    games[1].write_bytes(games[1].read_bytes()[:-200])
    games[3].write_bytes(b"")
    status, report = verify_status(dataset, capsys)
    assert status == 1
    assert f"damaged: {games[1]}" in report and f"damaged: {games[3]}" in report and "games: 4 of 6 ranges complete" in report
    summary = distributed.selfplay(GAMES, out=dataset, **RUN)
    assert summary.written == summary.repaired == [(PER, 2 * PER), (3 * PER, 4 * PER)] and len(summary.skipped) == 4
    assert_whole(dataset, pristine)
    assert verify_status(dataset, capsys)[0] == 0


def test_a_deleted_training_file_is_written_again(dataset, pristine, capsys):
    training = files(dataset, "training")
    training[2].unlink()
    games = files(dataset, "games")
    kept = games[2].stat().st_mtime_ns
    status, report = verify_status(dataset, capsys)
    assert status == 1 and f"missing: training {2 * PER} to {3 * PER - 1}" in report
    summary = distributed.selfplay(GAMES, out=dataset, **RUN)
    assert summary.written == [(2 * PER, 3 * PER)] and summary.repaired == []
    assert games[2].stat().st_mtime_ns == kept  # its games file was whole: kept
    assert_whole(dataset, pristine)


def test_training_rows_that_do_not_match_their_games_are_damage(dataset, pristine):
    # A training file of another range's rows, under this range's name and
    # with this range's metadata: the row count agrees, the games do not.
    training = files(dataset, "training")
    table = pq.read_table(training[0])
    other = pq.read_table(training[1])
    pq.write_table(other.replace_schema_metadata(table.schema.metadata), training[0])
    summary = distributed.selfplay(GAMES, out=dataset, **RUN)
    assert summary.repaired == [(0, PER)]
    assert_whole(dataset, pristine)


def test_without_run_json_the_record_is_rebuilt_or_the_run_refused(dataset, pristine):
    (dataset / "run.json").unlink()
    with pytest.raises(DatasetError, match=rf"{name('games', 0)}.*another run.*seed"):
        distributed.selfplay(GAMES, out=dataset, **{**RUN, "seed": 9})
    assert not (dataset / "run.json").exists()
    report = distributed.verify(dataset)
    assert report.complete and not report.recorded and report.run["seed"] == 3
    summary = distributed.selfplay(GAMES, out=dataset, **RUN)
    assert summary.written == [] and len(summary.skipped) == 6
    assert json.loads((dataset / "run.json").read_text()) == json.loads((pristine / "run.json").read_text())
    assert_whole(dataset, pristine)


def test_junk_foreign_and_overlapping_files_are_refused(dataset, pristine, tmp_path, capsys):
    junk = dataset / "games" / "junk.parquet"
    junk.write_bytes(b"not parquet")
    with pytest.raises(DatasetError, match=f"{junk}: not a range file"):
        distributed.selfplay(GAMES, out=dataset, **RUN)
    status, report = verify_status(dataset, capsys)
    assert status == 1 and f"refused: {junk}" in report
    junk.unlink()

    overlapping = dataset / "games" / f"games-{PER // 2:012d}-{PER // 2 + PER:012d}.parquet"
    shutil.copy(files(dataset, "games")[1], overlapping)
    with pytest.raises(DatasetError, match=f"{overlapping}: its range overlaps"):
        distributed.selfplay(GAMES, out=dataset, **RUN)
    assert verify_status(dataset, capsys)[0] == 1
    overlapping.unlink()

    # A file of another run (seed 9) under the name of one of this run's ranges.
    other = tmp_path / "other"
    distributed.selfplay(PER, out=other, **{**RUN, "seed": 9})
    foreign = files(dataset, "games")[0]
    shutil.copy(files(other, "games")[0], foreign)
    with pytest.raises(DatasetError, match=f"{foreign}: belongs to another run"):
        distributed.selfplay(GAMES, out=dataset, **RUN)
    shutil.copy(files(pristine, "games")[0], foreign)
    assert distributed.selfplay(GAMES, out=dataset, **RUN).written == []
    assert_whole(dataset, pristine)


def test_a_bad_run_json_or_a_file_for_out_is_a_clear_error(dataset, tmp_path, capsys):
    (dataset / "run.json").write_text("{ not json")
    for call in (lambda: distributed.selfplay(GAMES, out=dataset, **RUN), lambda: distributed.verify(dataset)):
        with pytest.raises(DatasetError, match=f"{dataset / 'run.json'} does not read"):
            call()
    assert command(["verify", str(dataset)]) == 2
    assert f"error: {dataset / 'run.json'} does not read" in capsys.readouterr().err
    plain = tmp_path / "plain"
    plain.write_text("a file")
    with pytest.raises(DatasetError, match=f"{plain} is a file"):
        distributed.selfplay(4, out=plain, **RUN)
    assert command(["selfplay", "--games", "4", "--nodes", "60", "--out", str(plain), "--no-progress"]) == 2
    assert f"{plain} is a file" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert verify_status(empty, capsys)[0] == 2


def test_a_damaged_analysis_file_is_rewritten(tmp_path, capsys):
    positions = ["15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O"] * 5
    distributed.analyse(positions, nodes=100, positions_per_task=2, out=tmp_path)
    before = pq.read_table(tmp_path / "analysis").to_pylist()
    damaged = files(tmp_path, "analysis")[1]
    damaged.write_bytes(damaged.read_bytes()[:50])
    assert verify_status(tmp_path, capsys)[0] == 1
    summary = distributed.analyse(positions, nodes=100, positions_per_task=2, out=tmp_path)
    assert summary.repaired == [(2, 4)] and summary.skipped == [(0, 2), (4, 5)]
    after = sorted(pq.read_table(tmp_path / "analysis").to_pylist(), key=lambda r: r["index"])
    assert after == sorted(before, key=lambda r: r["index"]) and [r["index"] for r in after] == list(range(5))
    assert verify_status(tmp_path, capsys)[0] == 0


# The same on an object store: a real S3-compatible server on 127.0.0.1.


@pytest.fixture(scope="module")
def s3():
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    env = {
        "AWS_ENDPOINT_URL": f"http://{host}:{port}",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    fs = pafs.S3FileSystem(
        endpoint_override=f"{host}:{port}", scheme="http", access_key="testing", secret_key="testing", region="us-east-1",
        allow_bucket_creation=True,
    )
    fs.create_dir("datasets")
    yield fs
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    server.stop()


def objects(fs, prefix):
    return sorted(i.path for i in fs.get_file_info(pafs.FileSelector(prefix, recursive=True)) if i.type == pafs.FileType.File)


def test_on_s3_a_run_is_repaired_verified_and_refuses_foreign_files(s3, pristine, capsys):
    out = "s3://datasets/issue26"
    first = distributed.selfplay(GAMES, out=out, **RUN)
    assert first.out == out and len(first.written) == 6
    names = objects(s3, "datasets/issue26")
    # Only the final names: no temporary object is left behind.
    assert names == sorted(
        ["datasets/issue26/run.json"]
        + [f"datasets/issue26/{t}/{name(t, r)}" for t in ("games", "training") for r in range(GAMES // PER)]
    )
    assert_whole("datasets/issue26", pristine, s3)
    assert verify_status(out, capsys)[0] == 0

    games1 = f"datasets/issue26/games/{name('games', 1)}"
    with s3.open_input_stream(games1) as f:
        data = f.read()
    with s3.open_output_stream(games1) as f:
        f.write(data[: len(data) // 2])
    s3.delete_file(f"datasets/issue26/training/{name('training', 4)}")
    status, report = verify_status(out, capsys)
    assert status == 1 and f"damaged: s3://{games1}" in report and f"missing: training {4 * PER} to {5 * PER - 1}" in report
    summary = distributed.selfplay(GAMES, out=out, **RUN)
    assert summary.written == [(PER, 2 * PER), (4 * PER, 5 * PER)] and summary.repaired == [(PER, 2 * PER)]
    # The damaged object set aside, as it was, not deleted.
    aside = f"datasets/issue26/quarantine/games/{name('games', 1)}.damaged"
    assert summary.set_aside == [f"s3://{aside}"]
    with s3.open_input_stream(aside) as f:
        assert f.read() == data[: len(data) // 2]
    assert_whole("datasets/issue26", pristine, s3)
    assert verify_status(out, capsys)[0] == 0

    # One bit flipped in an object: its checksum no longer matches.
    games2 = f"datasets/issue26/games/{name('games', 2)}"
    with s3.open_input_stream(games2) as f:
        data = bytearray(f.read())
    data[8] ^= 4  # in the first page, before the footer: read as it is, the checksum fails
    with s3.open_output_stream(games2) as f:
        f.write(bytes(data))
    status, report = verify_status(out, capsys)
    assert status == 1 and f"damaged: s3://{games2}: its content does not match its checksum" in report
    assert distributed.selfplay(GAMES, out=out, **RUN).repaired == [(2 * PER, 3 * PER)]
    assert_whole("datasets/issue26", pristine, s3)

    junk = "datasets/issue26/games/junk.parquet"
    with s3.open_output_stream(junk) as f:
        f.write(b"junk")
    with pytest.raises(DatasetError, match=f"s3://{junk}: not a range file"):
        distributed.selfplay(GAMES, out=out, **RUN)
    s3.delete_file(junk)
    s3.delete_file("datasets/issue26/run.json")
    with pytest.raises(DatasetError, match=rf"s3://datasets/issue26/games/{name('games', 0)}.*another run"):
        distributed.selfplay(GAMES, out=out, **{**RUN, "seed": 9})
    assert distributed.selfplay(GAMES, out=out, **RUN).written == []
    assert "datasets/issue26/run.json" in objects(s3, "datasets/issue26")
    assert_whole("datasets/issue26", pristine, s3)
