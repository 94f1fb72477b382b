"""Datasets that prove their own content (issue 39, F1): every range file
carries the SHA-256 of its bytes, and Parquet's page checksums. A file with
any single bit flipped is reported damaged by `verify`, naming it; a resume
sets it aside in out/quarantine (never deleted) and writes its range again,
the dataset then holding the undamaged run's rows, each once. Files written
before checksums are unverifiable, not complete. On the local Ray cluster
of test_dataset.py (two CPUs, started once for the module)."""

import json
import random
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from phutball import distributed
from phutball.distributed import DatasetError, _Store
from phutball.distributed.__main__ import main as command
from phutball.distributed._dataset_files import _TRAINING_SCHEMA_1

# The run of test_dataset.py (six ranges of two games, with training rows),
# written once for the module; each test damages a copy. Its files are
# small, so a random bit lands in the data pages, the statistics or the
# footer alike.
from test_dataset import GAMES, PER, RUN, cluster, dataset, pristine, rows_of  # noqa: F401 - fixtures
from test_dataset import name as file_name

FLIPS = 200
RESUMED = 4


def range_file(out, table, r):
    return out / table / file_name(table, r)


def flipped(data, bit):
    """``data`` with bit ``bit`` (counted from the first byte's lowest) flipped."""
    damaged = bytearray(data)
    damaged[bit // 8] ^= 1 << (bit % 8)
    return bytes(damaged)


def damaged_files(report):
    return sorted(path for table in report.tables.values() for _, path, _ in table.damaged)


def assert_same_rows(out, reference):
    """Every row of the reference run once, and nothing else (the time a game took aside)."""
    for table in ("games", "training"):
        assert rows_of(out / table) == rows_of(reference / table), table


def random_flips(pristine, count, seed):
    """``count`` (file, bit) pairs: random files of the run, a random bit of each."""
    rng = random.Random(seed)
    files = [range_file(pristine, t, r) for t in ("games", "training") for r in range(GAMES // PER)]
    sizes = {f: f.stat().st_size for f in files}
    return [(f, rng.randrange(8 * sizes[f])) for f in (rng.choice(files) for _ in range(count))]


def test_every_file_carries_its_checksum_and_page_checksums(pristine):
    for table in ("games", "training"):
        for r in range(GAMES // PER):
            path = range_file(pristine, table, r)
            footer = pq.read_metadata(path)
            assert len(footer.metadata[b"phutball-sha256"]) == 64
            assert json.loads(footer.metadata[b"phutball"])["format"] == 2
    report = distributed.verify(pristine, replay=True)  # every game replays to its result, too
    assert report.complete and all(len(t.complete) == GAMES // PER for t in report.tables.values())


def test_every_single_bit_flip_is_reported_damaged_by_name(dataset):
    flips = random_flips(dataset, FLIPS, seed=39)
    detected = []
    for path, bit in flips:
        original = path.read_bytes()
        path.write_bytes(flipped(original, bit))
        try:
            report = distributed.verify(dataset)
        finally:
            path.write_bytes(original)
        if not report.complete and damaged_files(report) == [str(path)] and not report.refused:
            detected.append((path.name, bit))
    assert len(detected) == len(flips), sorted(set(flips) - set(detected))
    assert distributed.verify(dataset).complete  # every file put back as it was


def test_the_command_reports_a_flipped_file_and_a_resume_sets_it_aside_and_rewrites_it(dataset, pristine, capsys):
    for path, bit in random_flips(dataset, RESUMED, seed=7):
        copy = dataset.parent / f"{path.parent.name}-{bit}"
        shutil.copytree(pristine, copy)
        damaged = copy / path.parent.name / path.name
        damaged_bytes = flipped(damaged.read_bytes(), bit)
        damaged.write_bytes(damaged_bytes)
        assert command(["verify", str(copy)]) == 1
        report = capsys.readouterr().out
        assert f"damaged: {damaged}: " in report and "not complete" in report

        summary = distributed.selfplay(GAMES, out=copy, **RUN)
        start = int(damaged.name.split("-")[1])
        assert summary.written == summary.repaired == [(start, start + PER)]
        aside = copy / "quarantine" / damaged.parent.name / f"{damaged.name}.damaged"
        assert summary.set_aside == [str(aside)]
        assert aside.read_bytes() == damaged_bytes  # set aside as it was: nothing lost
        assert_same_rows(copy, pristine)
        assert command(["verify", str(copy)]) == 0
        capsys.readouterr()


def test_a_dataset_written_before_checksums_is_unverifiable_until_rewritten(dataset, pristine, capsys):
    # The first games file as the previous version wrote it: format 1, no
    # checksum, no page checksums; otherwise whole.
    old = range_file(dataset, "games", 0)
    table = pq.read_table(old)
    record = json.loads(table.schema.metadata[b"phutball"])
    pq.write_table(table.replace_schema_metadata({b"phutball": json.dumps({**record, "format": 1}).encode()}), old)
    report = distributed.verify(dataset)
    assert not report.complete and report.tables["games"].unverifiable == [((0, PER), str(old))]
    assert report.tables["games"].complete == [(start, start + PER) for start in range(PER, GAMES, PER)]
    assert not report.tables["games"].damaged
    assert command(["verify", str(dataset)]) == 1
    printed = capsys.readouterr().out
    assert f"unverifiable: {old}: has no checksum" in printed and "1 unverifiable" in printed

    summary = distributed.selfplay(GAMES, out=dataset, **RUN)
    assert summary.written == summary.unverified == [(0, PER)] and summary.repaired == []
    assert (dataset / "quarantine" / "games" / f"{old.name}.damaged").exists()
    assert_same_rows(dataset, pristine)
    assert distributed.verify(dataset).complete


def as_schema_1(out):
    """Rewrites the dataset ``out`` as the version before each move's search
    was kept wrote it: training rows without the search's columns, and a
    run record without ``schema`` and ``random_openings``."""
    store = _Store(out)
    for table in ("games", "training"):
        for path in sorted((out / table).glob("*.parquet")):
            data = pq.read_table(path)
            record = json.loads(data.schema.metadata[b"phutball"])
            run = {k: v for k, v in record["run"].items() if k not in ("schema", "random_openings")}
            if table == "training":
                data = data.select(_TRAINING_SCHEMA_1.names)
            store.write_range(data, table, record["start"], record["end"], run)
    (out / "run.json").write_text(json.dumps(run, indent=1, sort_keys=True))


def test_a_dataset_of_the_schema_before_the_search_columns_is_checked_but_never_resumed(dataset, capsys):
    as_schema_1(dataset)
    before = {p: p.read_bytes() for p in sorted(dataset.rglob("*")) if p.is_file()}
    # verify reads it with its own schema: whole.
    assert distributed.verify(dataset).complete
    # A run of this version is refused, saying why, and nothing is mixed in.
    with pytest.raises(DatasetError, match=r"run.json: .*\(self-play schema 1, this version writes schema 2.*choose another out"):
        distributed.selfplay(GAMES, out=dataset, **RUN)
    assert command(["selfplay", "--games", str(GAMES), "--nodes", "60", "--seed", "3", "--move-limit", "30",
                    "--games-per-task", str(PER), "--training", "--out", str(dataset), "--no-progress"]) == 2
    assert "self-play schema 1" in capsys.readouterr().err
    # Without run.json, its files are refused for the same reason.
    (dataset / "run.json").unlink()
    with pytest.raises(DatasetError, match=r"parquet: was written by another version .*\(self-play schema 1"):
        distributed.selfplay(GAMES, out=dataset, **RUN)
    del before[dataset / "run.json"]
    assert {p: p.read_bytes() for p in sorted(dataset.rglob("*")) if p.is_file()} == before


def test_a_file_of_the_checksummed_format_without_its_checksum_is_damaged(dataset, pristine):
    stripped = range_file(dataset, "training", 1)
    table = pq.read_table(stripped)
    pq.write_table(table.replace_schema_metadata({b"phutball": table.schema.metadata[b"phutball"]}), stripped)
    report = distributed.verify(dataset)
    assert damaged_files(report) == [str(stripped)]
    assert "has no checksum" in report.tables["training"].damaged[0][2]
    second = range_file(dataset, "games", 1)
    second.write_bytes(flipped(second.read_bytes(), 100))
    summary = distributed.selfplay(GAMES, out=dataset, **RUN)
    assert summary.repaired == [(PER, 2 * PER)]
    aside = dataset / "quarantine"
    assert sorted(p.name for p in aside.rglob("*.damaged")) == sorted([f"{stripped.name}.damaged", f"{second.name}.damaged"])
    assert_same_rows(dataset, pristine)


def test_a_second_damage_of_the_same_range_is_set_aside_beside_the_first(dataset, pristine):
    path = range_file(dataset, "games", 0)
    for round in (1, 2):
        path.write_bytes(flipped(path.read_bytes(), 8 * 40 + round))
        distributed.selfplay(GAMES, out=dataset, **RUN)
    names = sorted(p.name for p in (dataset / "quarantine" / "games").iterdir())
    assert names == [f"{path.name}.damaged", f"{path.name}.damaged-2"]
    assert_same_rows(dataset, pristine)


def test_verify_replay_finds_games_that_do_not_replay_in_a_file_that_checks(dataset, capsys):
    # A games file written whole, checksum and all, with the last move of
    # its first game dropped: what a writer's bug would leave. Only the
    # replay sees it.
    path = range_file(dataset, "games", 1)
    table = pq.read_table(path)
    rows = table.to_pylist()
    rows[0]["moves"] = rows[0]["moves"][:-1]
    rows[0]["plies"] -= 1
    run = json.loads((dataset / "run.json").read_text())
    training = range_file(dataset, "training", 1)
    kept = pq.read_table(training).to_pylist()
    short = [row for row in kept if not (row["game"] == PER and row["ply"] == rows[0]["plies"])]
    store = distributed._Store(dataset)
    store.write_range(pa.Table.from_pylist(rows, schema=distributed.GAMES_SCHEMA), "games", PER, 2 * PER, run)
    store.write_range(pa.Table.from_pylist(short, schema=distributed.TRAINING_SCHEMA), "training", PER, 2 * PER, run)
    assert distributed.verify(dataset).complete
    report = distributed.verify(dataset, replay=True)
    assert damaged_files(report) == [str(path)]
    assert f"game {PER} does not replay to its result: not over in {rows[0]['plies']} moves" in report.tables["games"].damaged[0][2]
    assert command(["verify", "--replay", str(dataset)]) == 1
    assert f"damaged: {path}: game {PER} does not replay" in capsys.readouterr().out
    assert command(["verify", str(dataset)]) == 0
