//! A prove that saves its state to a file and goes on from it, so that the
//! CLI, C and Python share one atomic save (`atomic_file.rs`) and one
//! checked read; and its progress reports, made at the same pauses.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use phutball::{Budget, Position};

use super::{checkpoint, prover_table_bytes, Checkpointing, Handover, Proof, ProverState};
use crate::atomic_file::{probe, replace_file};
use crate::error::SolverError;
use crate::tablebase::Tablebase;

/// Where and how often [`prove_with_options_within`] saves.
pub struct CheckpointOptions<'a> {
    /// The checkpoint file: read first if it exists, then replaced at each
    /// save (through `PATH.tmp`, renamed into place, so the file is always
    /// a whole save).
    pub path: &'a Path,
    /// Time between two saves (the search also saves when it stops
    /// without an answer: a timeout, a cancel, a node or memory limit).
    pub every: Duration,
    /// Told of the resume and of each save.
    pub on_event: Option<&'a mut (dyn FnMut(&CheckpointEvent) + Send)>,
}

/// What [`CheckpointOptions::on_event`] is told.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CheckpointEvent {
    /// The search goes on from the file.
    Resumed {
        /// Nodes searched before.
        nodes: u64,
        /// Table entries read.
        table_entries: usize,
    },
    /// A save.
    Saved {
        /// Nodes searched so far, resumed ones included.
        nodes: u64,
        /// Table entries written.
        table_entries: usize,
        /// The file's size.
        bytes: u64,
        /// How long the save took.
        seconds: f64,
    },
}

/// How often [`prove_with_options_within`] reports its progress, and to
/// whom (the CLI's progress line; the library prints nothing).
pub struct ProgressOptions<'a> {
    /// Time between two reports (the first one this long after the start).
    /// The searches pause for a report (they go back to their roots), so
    /// a report every 100 ms or more costs little. On one job they pause
    /// at fixed node counts, as for a checkpoint (every 1.6% of a long
    /// search), and report at the first after a report is due: the search
    /// goes the same way whenever it reports.
    pub every: Duration,
    /// Told of the search's progress, on a prover thread.
    pub on_progress: &'a mut (dyn FnMut(&ProveProgress) + Send),
}

/// What [`ProgressOptions::on_progress`] is told.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ProveProgress {
    /// Nodes searched so far by the two searches, resumed ones included.
    pub nodes: u64,
    /// Entries in the two searches' tables.
    pub table_entries: usize,
    /// Each search's root (proof number, disproof number) as
    /// [`ProverState::root_numbers`] gives them: `[0]` for a win of the
    /// side to move, `[1]` for its opponent's.
    pub root_numbers: [Option<(u32, u32)>; 2],
    /// Time since this call's search started.
    pub elapsed: Duration,
}

/// How [`prove_with_options_within`] proves: on how many threads, with
/// which tablebase, saving its state where, reporting its progress to whom.
pub struct ProveOptions<'a> {
    /// Threads (at least 1): from 2, the two searches (for either side's
    /// win) run at once, each on half of them (at least one; past its
    /// first 65,536 nodes, a search of several threads shares one table;
    /// `docs/solver.md`). 1 is [`prove_within`](super::prove_within)'s
    /// search.
    pub jobs: usize,
    /// A tablebase: where it covers the position, it answers at once.
    pub tablebase: Option<&'a Tablebase>,
    /// Where to save the search's state, and how often.
    pub checkpoint: Option<CheckpointOptions<'a>>,
    /// How often to report the search's progress, and to whom.
    pub progress: Option<ProgressOptions<'a>>,
}

/// The most jobs (threads) a prove takes (the CLI's `--jobs`, Python's
/// `jobs=`, C's `phutball_prove_with_jobs_within`).
pub const MAX_PROVE_JOBS: usize = 1024;

impl ProveOptions<'_> {
    /// The jobs of a prove given none (the CLI's `--jobs` left out, C's 0):
    /// every core ([`phutball::default_jobs`]), at most [`MAX_PROVE_JOBS`].
    #[must_use]
    pub fn default_jobs() -> usize {
        phutball::default_jobs().min(MAX_PROVE_JOBS)
    }

    /// `jobs` if a prove takes it (1 to [`MAX_PROVE_JOBS`]): the one check
    /// of a prove's job count, which the CLI, C and Python call too.
    ///
    /// ```
    /// use phutball_solver::{ProveOptions, SolverError};
    /// assert_eq!(ProveOptions::check_jobs(2), Ok(2));
    /// let e = ProveOptions::check_jobs(0).unwrap_err();
    /// assert_eq!(e.to_string(), "a prove takes 1 to 1024 jobs, not 0");
    /// ```
    ///
    /// # Errors
    ///
    /// [`SolverError::Jobs`] for 0 or more than [`MAX_PROVE_JOBS`].
    pub fn check_jobs(jobs: usize) -> Result<usize, SolverError> {
        if (1..=MAX_PROVE_JOBS).contains(&jobs) {
            Ok(jobs)
        } else {
            Err(SolverError::Jobs {
                what: "a prove",
                requested: jobs,
                max: MAX_PROVE_JOBS,
            })
        }
    }
}

impl Default for ProveOptions<'_> {
    /// One job, no tablebase, no checkpoint, no progress reports:
    /// [`prove_within`](super::prove_within).
    fn default() -> Self {
        ProveOptions {
            jobs: 1,
            tablebase: None,
            checkpoint: None,
            progress: None,
        }
    }
}

/// [`prove_with_tablebase_within`](super::prove_with_tablebase_within) on
/// `options.jobs` threads, resumable: with `options.checkpoint`, the
/// search's state is saved to its path every `every` and whenever the
/// search stops without an answer (the budget's time, work or memory
/// limit, or a cancel: a Ctrl-C), and a call with the same file goes on
/// from it (on any number of jobs). After a crash only the work since the
/// last save is lost. With `options.progress`, the search pauses every
/// `every` to report its nodes, table entries and root numbers.
///
/// A file that is not a whole checkpoint of this position, these rules and
/// this format version is refused (nothing is written). The folder is
/// checked for writing before the search starts. A tablebase that covers
/// the position, or a board of at most
/// [`AUTO_TABLEBASE_POINTS`](super::AUTO_TABLEBASE_POINTS) points, answers
/// at once without a checkpoint.
///
/// ```
/// use phutball::{Budget, Position};
/// use phutball_solver::{prove_with_options_within, CheckpointOptions, ProveOptions, Value};
/// let dir = std::env::temp_dir().join(format!("phutball-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("3x13.ckpt");
/// let pos = Position::start_with("3x13".parse()?, Default::default())?;
/// let options = |p| ProveOptions {
///     jobs: 2,
///     checkpoint: Some(CheckpointOptions { path: p, every: std::time::Duration::from_secs(60), on_event: None }),
///     ..ProveOptions::default()
/// };
/// // A budget of 1000 nodes stops the search: its state is saved ...
/// let first = prove_with_options_within(&pos, &Budget::default().with_work_limit(1000), options(&path))?;
/// assert_eq!(first.value, None);
/// // ... and the next call goes on from it.
/// let proof = prove_with_options_within(&pos, &Budget::default(), options(&path))?;
/// assert!(matches!(proof.value, Some(Value::Win { .. })));
/// assert!(proof.nodes > first.nodes);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`prove_within`](super::prove_within), [`SolverError::Jobs`] for
/// `options.jobs` out of 1 to [`MAX_PROVE_JOBS`], and
/// [`SolverError::Checkpoint`] when the file is refused or cannot be
/// written.
pub fn prove_with_options_within(
    pos: &Position,
    budget: &Budget<'_>,
    options: ProveOptions<'_>,
) -> Result<Proof, SolverError> {
    if pos.is_finished() {
        return Err(SolverError::Finished);
    }
    let ProveOptions {
        jobs,
        tablebase,
        checkpoint,
        progress,
    } = options;
    let jobs = ProveOptions::check_jobs(jobs)?;
    if tablebase.is_some_and(|t| t.covers(pos))
        || pos.size().num_board_points() <= super::AUTO_TABLEBASE_POINTS
    {
        return match tablebase {
            Some(t) => super::prove_with_tablebase_within(pos, budget, Some(t)),
            None => super::prove_within(pos, budget),
        };
    }
    if checkpoint.is_none() && progress.is_none() {
        return super::on_prover_thread(|| super::prove_on_this_thread(pos, budget, jobs, None));
    }
    let mut resume = None;
    let mut saving = None;
    if let Some(CheckpointOptions {
        path,
        every,
        mut on_event,
    }) = checkpoint
    {
        let temp = temp_path(path);
        check_writable(path, &temp)?;
        resume = read_resume(path, pos, budget, &mut on_event)?;
        saving = Some((path, temp, every, on_event));
    }
    let mut reporting = progress;
    let started = Instant::now();
    let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    // When the next save and the next report are due, in milliseconds
    // from the start (u64::MAX: never).
    let next_save = AtomicU64::new(saving.as_ref().map_or(u64::MAX, |s| millis(s.2)));
    let next_report = AtomicU64::new(reporting.as_ref().map_or(u64::MAX, |r| millis(r.every)));
    let save_due = || millis(started.elapsed()) >= next_save.load(Ordering::Relaxed);
    let report_due = || millis(started.elapsed()) >= next_report.load(Ordering::Relaxed);
    let due = || save_due() || report_due();
    let mut hand_over = |state: &ProverState<'_>, moment: Handover| -> Result<(), String> {
        if let Some((path, temp, every, on_event)) = saving.as_mut() {
            if moment == Handover::End || save_due() {
                let began = Instant::now();
                let bytes = save_atomically(path, temp, state)
                    .map_err(|e| format!("cannot save {}: {e}", path.display()))?;
                next_save.store(
                    millis(started.elapsed()).saturating_add(millis(*every)),
                    Ordering::Relaxed,
                );
                if let Some(report) = on_event.as_mut() {
                    report(&CheckpointEvent::Saved {
                        nodes: state.nodes(),
                        table_entries: state.table_entries(),
                        bytes,
                        seconds: began.elapsed().as_secs_f64(),
                    });
                }
            }
        }
        if let Some(ProgressOptions { every, on_progress }) = reporting.as_mut() {
            if moment == Handover::Pause && report_due() {
                let elapsed = started.elapsed();
                next_report.store(
                    millis(elapsed).saturating_add(millis(*every)),
                    Ordering::Relaxed,
                );
                on_progress(&ProveProgress {
                    nodes: state.nodes(),
                    table_entries: state.table_entries(),
                    root_numbers: state.root_numbers(),
                    elapsed,
                });
            }
        }
        Ok(())
    };
    let checkpointing = Checkpointing {
        resume,
        due: &due,
        save: &mut hand_over,
    };
    super::on_prover_thread(|| super::prove_on_this_thread(pos, budget, jobs, Some(checkpointing)))
}

/// The checkpoint at `path` to go on from (`None` if there is no file),
/// its resume told to `on_event`.
fn read_resume(
    path: &Path,
    pos: &Position,
    budget: &Budget<'_>,
    on_event: &mut Option<&mut (dyn FnMut(&CheckpointEvent) + Send)>,
) -> Result<Option<super::Resumed>, SolverError> {
    match File::open(path) {
        Ok(mut file) => {
            let r = checkpoint::read(&mut file, pos, prover_table_bytes(budget.memory_limit()))
                .map_err(|e| refused(path, &e))?;
            if let Some(report) = on_event.as_mut() {
                report(&CheckpointEvent::Resumed {
                    nodes: r.nodes(),
                    table_entries: r.table_entries(),
                });
            }
            Ok(Some(r))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(refused(path, &e)),
    }
}

/// `PATH.tmp`: where a save is written before it is renamed into place.
fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Fails now, not after the search, when the checkpoint's folder cannot
/// be written.
fn check_writable(path: &Path, temp: &Path) -> Result<(), SolverError> {
    probe(temp)
        .map_err(|e| SolverError::Checkpoint(format!("cannot write {}: {e}", temp.display())))?;
    if path.is_dir() {
        return Err(SolverError::Checkpoint(format!(
            "{} is a folder, not a checkpoint file",
            path.display()
        )));
    }
    Ok(())
}

fn refused(path: &Path, why: &dyn std::fmt::Display) -> SolverError {
    SolverError::Checkpoint(format!(
        "{} is refused, and left as it is: {why}",
        path.display()
    ))
}

/// Writes `state` to `temp`, flushed to the disk, then renames it over
/// `path`: a crash at any moment leaves the last whole save in place.
fn save_atomically(path: &Path, temp: &Path, state: &ProverState<'_>) -> std::io::Result<u64> {
    replace_file(path, temp, |file| state.write_to(file))
}
