//! The prover on more than one job: each search's turns on every job, over
//! a shared table, give the winner one job gives, with certificates that
//! check; a checkpoint
//! made on any number of jobs resumes on any other; a cancel stops them all.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use phutball::{BoardSize, Budget, Position, Rules, SearchError};
use phutball_solver::{
    prove_with_options_within, prove_within, CheckpointOptions, ProveOptions, SolverError, Value,
};

fn start(cols: u8, rows: u8) -> Position {
    Position::start_with(BoardSize::new(cols, rows).unwrap(), Rules::default()).unwrap()
}

fn with_jobs(jobs: usize) -> ProveOptions<'static> {
    ProveOptions {
        jobs,
        ..ProveOptions::default()
    }
}

/// `jobs` threads saving to `path` every 600 s: in these tests only when
/// a search stops or proves its root.
fn checkpointed(path: &std::path::Path, jobs: usize) -> ProveOptions<'_> {
    ProveOptions {
        jobs,
        checkpoint: Some(CheckpointOptions {
            path,
            every: Duration::from_secs(600),
            on_event: None,
        }),
        ..ProveOptions::default()
    }
}

/// Whether two values have the same winner (N may differ: it is the
/// longest line of the proof found, and the searches find other proofs).
fn same_winner(a: Option<Value>, b: Option<Value>) -> bool {
    matches!(
        (a, b),
        (Some(Value::Win { .. }), Some(Value::Win { .. }))
            | (Some(Value::Loss { .. }), Some(Value::Loss { .. }))
    )
}

#[test]
fn every_number_of_jobs_proves_the_same_winner_with_a_checked_certificate() {
    // 3x13 outlasts the nodes after which a search of its own threads
    // turns parallel; the others stay below them; the last is lost.
    let lost: Position = "3/3/3/3/#@#/3/3/3/3 X".parse().unwrap();
    for pos in [start(3, 13), start(7, 9), start(3, 12), lost] {
        let budget = Budget::default().with_work_limit(3_000_000);
        let one = prove_within(&pos, &budget).unwrap();
        for jobs in [2, 3, 4] {
            let proof = prove_with_options_within(&pos, &budget, with_jobs(jobs)).unwrap();
            assert!(
                same_winner(proof.value, one.value),
                "{pos} on {jobs} jobs: {:?}, on one: {:?}",
                proof.value,
                one.value
            );
            let certificate = proof
                .certificate
                .expect("a proof comes with its certificate");
            let checked = certificate.check(&Budget::default()).unwrap();
            assert_eq!(checked.root, pos);
        }
    }
}

#[test]
fn a_checkpoint_of_one_number_of_jobs_resumes_on_another() {
    let dir = std::env::temp_dir().join(format!("phutball-parallel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("3x15.ckpt");
    let pos = start(3, 15);
    let options = |jobs| checkpointed(&path, jobs);
    let mut nodes = 0;
    // 4 jobs (shared tables once past their first 65,536 nodes each),
    // then 2, then 1, then 2 to the end.
    for (jobs, limit) in [(4, 200_000), (2, 5_000), (1, 5_000)] {
        let budget = Budget::default().with_work_limit(limit);
        let part = prove_with_options_within(&pos, &budget, options(jobs)).unwrap();
        assert_eq!(part.value, None, "{jobs} jobs");
        assert!(matches!(part.stopped, Some(SearchError::WorkLimit { .. })));
        assert!(
            part.nodes > nodes,
            "{jobs} jobs: {} nodes after {nodes}",
            part.nodes
        );
        nodes = part.nodes;
    }
    let last = prove_with_options_within(&pos, &Budget::default(), options(2)).unwrap();
    assert!(
        matches!(last.value, Some(Value::Win { .. })),
        "{:?}",
        last.value
    );
    assert!(last.nodes > nodes);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_proved_root_is_saved_before_its_certificate_is_written() {
    // Writing a long proof's certificate takes minutes; a run stopped then
    // goes on from the proved root, not from the last periodic save (none
    // here: one every 600 s).
    let dir = std::env::temp_dir().join(format!("phutball-proved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pos = start(4, 9);
    for jobs in [1, 2] {
        let path = dir.join(format!("4x9-{jobs}.ckpt"));
        let options = || checkpointed(&path, jobs);
        let whole = prove_with_options_within(&pos, &Budget::default(), options()).unwrap();
        assert!(whole.nodes > 100, "{jobs} jobs: {} nodes", whole.nodes);
        // 20 nodes do not prove 4x9 from nothing; from the saved proof they do.
        let budget = Budget::default().with_work_limit(20);
        let again = prove_with_options_within(&pos, &budget, options()).unwrap();
        assert!(again.value.is_some(), "{jobs} jobs: {:?}", again.stopped);
        assert_eq!(
            format!("{:?}", again.value),
            format!("{:?}", whole.value),
            "{jobs} jobs"
        );
        let fresh = prove_with_options_within(&pos, &budget, with_jobs(jobs)).unwrap();
        assert_eq!(
            fresh.value, None,
            "{jobs} jobs: 20 nodes proved 4x9 from nothing"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cancel_stops_every_thread() {
    let cancel = AtomicBool::new(true);
    let budget = Budget::default().with_cancel_flag(&cancel);
    for jobs in [2, 4] {
        let result = prove_with_options_within(&start(13, 13), &budget, with_jobs(jobs));
        assert_eq!(
            result.unwrap_err(),
            SolverError::Search(SearchError::Cancelled),
            "{jobs} jobs"
        );
    }
}
