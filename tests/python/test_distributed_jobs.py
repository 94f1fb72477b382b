"""phutball.distributed.jobs, the job-level driver, on a local Ray cluster
of two nodes (ray.cluster_utils.Cluster, one CPU each: one prover actor a
node): proofs and disproofs whose certificates check; a prover worker and
the driver killed mid-run (the driver a subprocess, SIGKILLed once its
checkpoint holds answered jobs, then started again with the same command);
a timeout that saves and a call that resumes; damaged and foreign
checkpoints refused and left as they were; bad arguments. Ray is installed
by tests/python/run.sh: if it is missing these tests fail, they do not skip."""

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import ray
from ray.cluster_utils import Cluster

import phutball
from phutball import distributed
from phutball.distributed import jobs
from phutball.distributed.__main__ import main as command

from test_dataset import s3  # noqa: F401 - a real S3-compatible server on 127.0.0.1 (moto)

PYTHON_DIR = Path(phutball.__file__).resolve().parents[1]
FOUR_BY_NINE = phutball.Position.start(4, 9)
# Small tables: a job's table of the default 256 MiB takes longer to set
# up than these jobs' proofs.
SMALL = 8 << 20
# 40 prover nodes a job: 4x9's start (560 nodes for Position.prove since
# relevance zones; about 2,800 before, in 300-node jobs) takes many jobs, a
# few seconds on two one-CPU nodes.
JOB_NODES = 40
JOB = {"job_nodes": JOB_NODES, "memory_limit": SMALL}
# A run that outlasts a 3 s timeout: 4x9 in 10-node jobs took 21-39 s on the
# two-node cluster here (load 2.5), where 40-node jobs take about 430 jobs and
# 6 s, and 15-node jobs once ended within 5 s; so did 10-node jobs once, on
# S3, under load (5 s then). (The 3x13 start in 100-node jobs took 4,300 jobs
# and 15 s before relevance zones; it now outlasts 60 s, too long for the
# resumed run's 150 s.)
SLOW_JOB = {"job_nodes": 10, "memory_limit": SMALL}
SLOW_TIMEOUT = 3


@pytest.fixture(scope="module")
def cluster():
    """Two Ray nodes (their own raylets and workers), one CPU each, and this
    process connected as a driver; stopped after the module."""
    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    nodes.add_node(num_cpus=1)
    nodes.wait_for_nodes()
    ray.init(address=nodes.address, log_to_driver=False)
    yield nodes
    ray.shutdown()
    nodes.shutdown()


def assert_proves(proof, root, result):
    """``proof`` is ``result`` for ``root``'s side to move, with a certificate that checks."""
    assert proof.result == result, repr(proof)
    said = "in" if proof.exact else "within"
    assert re.fullmatch(rf"{result} {said} {proof.plies}: \S+( \S+)*", str(proof)), str(proof)
    checked = phutball.check_proof(proof.certificate)
    winner = root.to_move if result == "win" else ("X" if root.to_move == "O" else "O")
    assert (checked.root, checked.winner, checked.plies) == (root, winner, proof.plies)


def saved(path):
    """The driver's state in a checkpoint, as the driver saved it."""
    return json.loads(gzip.decompress(Path(path).read_bytes()))


def test_bad_arguments_raise_before_ray_starts(tmp_path):
    for kwargs, error, message in [
        ({"job_nodes": 0}, ValueError, "job_nodes must be 1 or more"),
        ({"job_nodes": "300"}, TypeError, "job_nodes"),
        ({"job_nodes": None}, TypeError, "job_nodes"),
        ({"expand_after": -1}, ValueError, "expand_after"),
        ({"jobs_per_actor": 0}, ValueError, "jobs_per_actor"),
        ({"job_timeout": "1"}, TypeError, "job_timeout"),
        ({"checkpoint_every": -1}, ValueError, "checkpoint_every"),
        ({"checkpoint_every": None}, TypeError, "checkpoint_every"),
        ({"timeout": -1}, ValueError, "timeout"),
        ({"memory_limit": -1}, ValueError, "memory_limit"),
        ({"checkpoint": 5}, TypeError, "checkpoint must be"),
    ]:
        with pytest.raises(error, match=message):
            jobs.prove_jobs(FOUR_BY_NINE, **kwargs)
    with pytest.raises(ValueError, match="game is already over"):
        jobs.prove_jobs("7/7/7/7/7/7/7/7/3@3 X")
    with pytest.raises(phutball.ParseError):
        jobs.prove_jobs("not a position")
    with pytest.raises(ValueError, match='driver must be "frontier" or "jobs"'):
        distributed.prove(FOUR_BY_NINE, driver="job")
    with pytest.raises(ValueError, match="checkpoint is the jobs driver's"):
        distributed.prove(FOUR_BY_NINE, checkpoint=tmp_path / "state.gz")
    assert command(["prove", "start:4x9", "--jobs-driver", "--frontier-plies", "2", "--no-progress"]) == 2
    # Every one refused before Ray was started (this test runs first).
    assert not ray.is_initialized()


def test_a_win_and_a_loss_are_proved_job_by_job_on_both_nodes(cluster, tmp_path):
    proof, figures = jobs._prove_jobs(FOUR_BY_NINE, checkpoint=tmp_path / "win.gz", timeout=150, **JOB)
    assert_proves(proof, FOUR_BY_NINE, FOUR_BY_NINE.prove().result)
    # Many jobs, the tree grown below the root, and both nodes' actors at work.
    assert figures.actors == 2 and len(figures.jobs_by_node) == 2, figures
    assert min(figures.jobs_by_node.values()) > 0 and sum(figures.jobs_by_node.values()) == figures.jobs
    assert figures.jobs == figures.proved + figures.unknown and figures.proved > 1 and figures.expanded > 0
    # The checkpoint holds the tree and every proved leaf's certificate.
    state = saved(tmp_path / "win.gz")
    assert state["root"] == str(FOUR_BY_NINE) and len(state["certificates"]) > 1
    assert len(state["tree"]) == figures.tree_nodes
    # The same state, restored, assembles the same certificate.
    restored = jobs._Driver(FOUR_BY_NINE, JOB_NODES, 2)
    restored.restore(state)
    again = jobs._JobRun(restored, None, 60.0, None, {}).proof()
    assert_proves(again, FOUR_BY_NINE, "win")
    assert again.certificate == proof.certificate
    # The position after the proof's first move: lost for Eks, every reply refuted.
    lost = FOUR_BY_NINE.play(proof.line[0])
    lost_proof = distributed.prove(lost, driver="jobs", nodes=JOB_NODES, memory_limit=SMALL, timeout=150)
    assert_proves(lost_proof, lost, "loss")


def test_a_run_out_of_time_is_saved_and_the_same_call_goes_on(cluster, tmp_path):
    path = tmp_path / "state.gz"
    with pytest.raises(phutball.SearchTimeoutError, match=f"saved in {re.escape(str(path))}"):
        jobs.prove_jobs(FOUR_BY_NINE, checkpoint=path, timeout=SLOW_TIMEOUT, **SLOW_JOB)
    # Saved, with the jobs answered so far (under load the actors may not
    # have answered one in the 3 s), and not yet resumed.
    before = saved(path)["figures"]
    assert before["resumed"] == 0
    proof, figures = jobs._prove_jobs(FOUR_BY_NINE, checkpoint=path, timeout=150, **SLOW_JOB)
    assert_proves(proof, FOUR_BY_NINE, "win")
    assert figures.resumed == 1 and figures.jobs > before["jobs"]
    # A proved root's checkpoint answers at once, without a job.
    again, figures_again = jobs._prove_jobs(FOUR_BY_NINE, checkpoint=path, timeout=150, **SLOW_JOB)
    # (The same proof, assembled again from the saved tree; which of a win's
    # proved moves it takes can differ from the first run's.)
    assert_proves(again, FOUR_BY_NINE, "win")
    assert figures_again.jobs == figures.jobs and figures_again.resumed == 2


def test_on_s3_the_state_is_saved_and_resumed(cluster, s3):
    uri, key = "s3://datasets/jobs/4x9.gz", "datasets/jobs/4x9.gz"
    with pytest.raises(phutball.SearchTimeoutError, match=f"saved in {uri}"):
        jobs.prove_jobs(FOUR_BY_NINE, checkpoint=uri, timeout=SLOW_TIMEOUT, **SLOW_JOB)
    # The object holds the gzip bytes as written (not zipped again by the name).
    with s3.open_input_stream(key, compression=None) as stream:
        before = json.loads(gzip.decompress(stream.read()))["figures"]
    assert before["resumed"] == 0
    proof, figures = jobs._prove_jobs(FOUR_BY_NINE, checkpoint=uri, timeout=150, **SLOW_JOB)
    assert_proves(proof, FOUR_BY_NINE, "win")
    assert figures.resumed == 1 and figures.jobs > before["jobs"]


def test_a_damaged_or_foreign_checkpoint_is_refused_and_kept(tmp_path):
    path = tmp_path / "state.gz"
    # A real state: a proved loss of the 4x9 position below, from a run of its own.
    lost = FOUR_BY_NINE.play("C6")
    driver = jobs._Driver(lost, 300, 2)
    driver.expand(driver.root)
    path.write_bytes(gzip.compress(json.dumps(driver.state()).encode()))
    whole = path.read_bytes()
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0x40
    damaged = {"flipped": bytes(flipped), "truncated": whole[: len(whole) // 2], "not gzip": b"{}"}
    for name, data in damaged.items():
        path.write_bytes(data)
        with pytest.raises(ValueError, match="not a job-level proof's checkpoint|does not rebuild"):
            jobs.prove_jobs(lost, checkpoint=path, **JOB)
        assert path.read_bytes() == data, name
    path.write_bytes(whole)
    with pytest.raises(ValueError, match="checkpoint of another position"):
        jobs.prove_jobs(FOUR_BY_NINE, checkpoint=path, **JOB)
    record = json.loads(gzip.decompress(whole))
    for change, message in [({"format": 3}, "format 3"), ({"kind": "selfplay"}, "not a job-level"), ({"tree": [[None, 300, 0, 1]]}, "does not rebuild")]:
        path.write_bytes(gzip.compress(json.dumps({**record, **change}).encode()))
        with pytest.raises(ValueError, match=message):
            jobs.prove_jobs(lost, checkpoint=path, **JOB)


def prover_workers(cluster):
    """The processes of the prover actors: the raylets' children whose command is a _Prover's."""
    raylets = {node.all_processes["raylet"][0].process.pid for node in cluster.list_all_nodes()}
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            title = (entry / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if parent in raylets and "_Prover" in title:
            found.append(int(entry.name))
    return found


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for {what}")


def test_a_killed_worker_and_a_killed_driver_leave_the_proof_proved(cluster, tmp_path):
    # The scenario needs the proof still open when a worker has lost a job
    # and more were answered after it. Killed between two jobs a worker
    # loses none, and the proof of 4x9 takes seconds: twice in CI (4e71d07,
    # ed7655c) the driver had proved it before it could be killed. Such an
    # attempt tests nothing, so the scenario is set up again, in a new
    # directory, up to three times; a resumed run that fails still fails.
    for attempt in range(3):
        outcome = _a_worker_and_the_driver_killed(cluster, tmp_path / f"attempt-{attempt}")
        if outcome is not None:
            break
    else:
        raise AssertionError("in three attempts the driver proved 4x9 before a lost job and its own kill")
    arguments, certificate, at_kill, environment, driver = outcome
    second = subprocess.run(arguments, cwd=driver, env=environment, capture_output=True, text=True, timeout=170)
    assert second.returncode == 0, second.stderr
    line = second.stdout.strip()
    assert re.fullmatch(r"win within \d+: \S+( \S+)*", line), line
    figures = re.search(r"jobs (\d+): \d+ proved, \d+ unknown, (\d+) lost with their actor;.*, resumed 1 times", second.stderr)
    assert figures, second.stderr
    # The resumed run goes on from the saved jobs. On an idle machine the
    # driver had once answered its last job before it was killed (CI's run
    # of 4e71d07: 692 jobs at the kill and after): the resumed run then
    # answers none and writes the proof from its checkpoint, which still
    # resumes it (the "resumed 1 times" above).
    assert int(figures.group(1)) >= at_kill["jobs"] and int(figures.group(2)) >= 1
    checked = phutball.check_proof(certificate)
    assert (checked.root, checked.winner) == (FOUR_BY_NINE, "O") and line.startswith(f"win within {checked.plies}: ")
    # The CLI's independent reading agrees (run.sh sets PHUTBALL_CLI).
    if os.environ.get("PHUTBALL_CLI"):
        cli = subprocess.run([os.environ["PHUTBALL_CLI"], "check-proof", str(certificate)], capture_output=True, text=True)
        assert cli.returncode == 0 and cli.stdout.startswith(f"valid: O wins in at most {checked.plies} plies"), cli


def _a_worker_and_the_driver_killed(cluster, folder):
    """Runs the job-level driver on 4x9 with 10-node jobs, kills a worker
    until one loses a job, then kills the driver after 60 jobs; returns the
    arguments, the certificate's path, the figures saved at the kill, the
    environment and the driver's folder, or ``None`` if the driver proved
    4x9 before it could be killed."""
    driver = folder / "driver"
    driver.mkdir(parents=True)
    checkpoint, certificate = driver / "state.gz", folder / "proof.txt.gz"
    arguments = [
        # 10-node jobs: in 40-node ones the proof once ended before a killed
        # worker had lost a job, and once was proved when the driver was
        # killed (so the resumed run answered no job).
        sys.executable, "-m", "phutball.distributed", "prove", "start:4x9", "--jobs-driver", "--nodes", str(SLOW_JOB["job_nodes"]),
        "--memory-limit", "8M", "--checkpoint", str(checkpoint), "--checkpoint-every", "0.2",
        "--address", cluster.address, "--certificate", str(certificate), "--timeout", "150", "--no-progress",
    ]
    # The driver in a directory of its own; the workers are told no path.
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PYTHON_DIR), os.environ.get("PYTHONPATH", "")])}

    def jobs_saved():
        return saved(checkpoint)["figures"] if checkpoint.exists() else None

    def still_open():
        if first.poll() is None:
            return True
        out, err = first.communicate()
        # Proved before the scenario was set up: not a failure of the resume.
        assert first.returncode == 0, (out, err)
        return False

    first = subprocess.Popen(arguments, cwd=driver, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: (jobs_saved() or {}).get("jobs", 0) >= 20 or first.poll() is not None, 90, "a checkpoint with 20 jobs")
        # A worker killed on a job loses it: counted and sent again. Killed
        # in the millisecond between two jobs it loses none (Ray restarts
        # it either way): then another is killed.
        for _ in range(5):
            # Ray restarts a killed actor; on a loaded machine that took
            # over 30 s once (CI's run of dc11b2f).
            if not still_open():
                return None
            workers = wait_for(lambda: prover_workers(cluster), 90, "a prover worker")
            os.kill(workers[0], signal.SIGKILL)
            try:
                wait_for(lambda: jobs_saved()["lost"] >= 1, 10, "the lost job in the checkpoint")
                break
            except AssertionError:
                continue
        # More jobs answered after it; then the driver dies.
        at_kill = wait_for(
            lambda: ((f := jobs_saved()) and f["lost"] >= 1 and f["jobs"] >= 60 and f) or first.poll() is not None,
            90, "a checkpoint after the lost job")
        if not still_open():
            return None
        first.send_signal(signal.SIGKILL)
        first.wait(30)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == -signal.SIGKILL
    assert not certificate.exists()
    return arguments, certificate, at_kill, environment, driver


def test_ctrl_c_saves_the_state_and_says_so(cluster, tmp_path):
    checkpoint = tmp_path / "state.gz"
    arguments = [
        sys.executable, "-m", "phutball.distributed", "prove", "start:13x13", "--jobs-driver", "--nodes", "100",
        "--memory-limit", "8M", "--checkpoint", str(checkpoint), "--checkpoint-every", "600",
        "--address", cluster.address, "--timeout", "150", "--no-progress",
    ]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PYTHON_DIR), os.environ.get("PYTHONPATH", "")])}
    driver = subprocess.Popen(arguments, cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # No save before the interrupt (one every 600 s): the one there is, Ctrl-C's.
        # The 13x13 start is open (no prover settles it in 100-node jobs), so the
        # run cannot end before the interrupt; the 3x13 start once did, on a
        # faster machine, and saved its state at the end.
        wait_for(lambda: prover_workers(cluster), 60, "the prover actors")
        time.sleep(2)
        assert driver.poll() is None, driver.communicate()
        assert not checkpoint.exists()
        driver.send_signal(signal.SIGINT)
        out, err = driver.communicate(timeout=60)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode == 130, err
    assert f"interrupted: the state is saved in {checkpoint}" in err and out == ""
    state = saved(checkpoint)
    assert state["root"] == str(phutball.Position.start(13, 13)) and state["figures"]["resumed"] == 0


def test_a_resumed_tree_keeps_its_leaves_numbers_and_an_older_checkpoint_still_reads():
    driver = jobs._Driver(FOUR_BY_NINE, 300, 2)
    driver.expand(driver.root)
    leaf = driver.root.children[0]
    driver.fold(leaf, "unknown", None, (40, 7))
    assert (leaf.win, leaf.loss, leaf.tries) == (40, 7, 1)
    record = driver.state()
    assert record["format"] == 2 and all(len(entry) == 6 for entry in record["tree"])
    again = jobs._Driver(FOUR_BY_NINE, 300, 2)
    again.restore(record)
    kept = again.root.children[0]
    assert (kept.move, kept.win, kept.loss, kept.tries) == (leaf.move, 40, 7, 1)
    assert (again.root.win, again.root.loss) == (driver.root.win, driver.root.loss)
    # Format 1 (no numbers): an open leaf's numbers count its tries.
    older = {**record, "format": 1, "tree": [entry[:4] for entry in record["tree"]]}
    old = jobs._Driver(FOUR_BY_NINE, 300, 2)
    old.restore(older)
    assert (old.root.children[0].win, old.root.children[0].loss) == (2, 2)

