//! The threads a batch's steps run on: a pool started at the batch's first
//! step on more than one job and kept for the steps after it, so that a
//! step costs a hand-over to its threads instead of a start of new ones
//! (tens of microseconds, and a share of the step's games done by a
//! thread that is not yet running). Between calls and at a call's end the
//! threads wait awake for a moment ([`LINGER`]), as OpenMP's do: on this
//! project's virtual machines a sleeping thread takes tens of
//! microseconds to wake, a tenth of a step of 1024 games.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rayon::{ThreadPool, ThreadPoolBuilder};

/// How long a helper thread stays awake after a call for the next one.
/// Waking a sleeping thread takes tens of microseconds here (a sleeping
/// virtual CPU is woken through the host), and a caller stepping a batch
/// in a loop (Python's, a training loop's) comes back within some tens of
/// microseconds: a helper that waits awake starts the next call at once.
const LINGER: Duration = Duration::from_micros(200);

/// A batch's threads (none until a step needs them). Clones share them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Workers {
    /// The pool, and the process that started it: a forked child (Python's
    /// `multiprocessing`, `os.fork`) has the pool but not its threads.
    pool: Option<(Arc<ThreadPool>, u32)>,
    /// The calls so far: a helper waiting awake stops when it changes.
    calls: Arc<AtomicU64>,
}

impl Workers {
    /// `work(job)` for each job `0..jobs`: job 0 on the caller's thread,
    /// the others on up to `jobs - 1` of the pool's, the answers in job
    /// order. Each `work` must take its share from a queue shared with the
    /// others until the queue is empty, so that the jobs that ran take the
    /// share of one that did not: where no thread can be started (no
    /// memory for their stacks under an address-space limit), only
    /// `work(0)` runs.
    pub(crate) fn run<R: Send>(&mut self, jobs: usize, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
        let helpers = jobs.saturating_sub(1);
        // Wakes the helpers waiting awake: their waits end, this call's jobs start.
        let call = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let calls = Arc::clone(&self.calls);
        let Some(pool) = self.pool(helpers) else {
            return vec![work(0)];
        };
        let answers: Vec<Mutex<Option<R>>> = (0..jobs).map(|_| Mutex::new(None)).collect();
        let answered = AtomicUsize::new(0);
        let answer = |slot: &Mutex<Option<R>>, job: usize| {
            let value = work(job);
            *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(value);
            answered.fetch_add(1, Ordering::Release);
        };
        // The caller works too, from the start: waking a sleeping thread
        // takes tens of microseconds, a fifth of a small step.
        pool.in_place_scope(|scope| {
            for (job, slot) in answers.iter().enumerate().skip(1) {
                let answer = &answer;
                scope.spawn(move |_| answer(slot, job));
            }
            answer(&answers[0], 0);
            // The helpers' last blocks: waited for awake, as a helper waits.
            let started = Instant::now();
            while answered.load(Ordering::Acquire) < jobs && started.elapsed() < LINGER {
                std::hint::spin_loop();
            }
        });
        for _ in 0..helpers {
            let calls = Arc::clone(&calls);
            pool.spawn(move || linger(&calls, call));
        }
        // The scope returned once every job had answered (a job's panic
        // goes on in this thread).
        answers
            .into_iter()
            .filter_map(|slot| slot.into_inner().unwrap_or_else(PoisonError::into_inner))
            .collect()
    }

    /// A pool of at least `threads` threads (none for 0), started now if
    /// there is none (or a smaller one); `None` if the threads cannot be
    /// started.
    fn pool(&mut self, threads: usize) -> Option<&ThreadPool> {
        if threads == 0 {
            return None;
        }
        let process = std::process::id();
        if let Some((pool, started_in)) = self.pool.take() {
            if started_in != process {
                // A forked child: the pool's threads are the parent's, and
                // its locks may be held by them, so it is left alone.
                std::mem::forget(pool);
            } else if pool.current_num_threads() >= threads {
                self.pool = Some((pool, started_in));
            }
        }
        if self.pool.is_none() {
            self.pool = ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("phutball-env-{i}"))
                .build()
                .ok()
                .map(|pool| (Arc::new(pool), process));
        }
        self.pool.as_ref().map(|(pool, _)| &**pool)
    }
}

/// Keeps a helper awake until the next call (`calls` past `call`) or
/// [`LINGER`].
fn linger(calls: &AtomicU64, call: u64) {
    let started = Instant::now();
    while calls.load(Ordering::Relaxed) == call && started.elapsed() < LINGER {
        std::hint::spin_loop();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn every_job_answers_in_order_and_the_pool_is_kept() {
        let mut workers = Workers::default();
        for jobs in [1, 2, 3, 2] {
            assert_eq!(
                workers.run(jobs, |job| job * 10),
                (0..jobs).map(|j| j * 10).collect::<Vec<_>>()
            );
        }
        let (pool, _) = workers.pool.clone().expect("a pool of two threads");
        workers.run(2, |_| ());
        assert!(
            Arc::ptr_eq(&pool, &workers.pool.as_ref().unwrap().0),
            "a smaller step keeps the pool"
        );
    }

    #[test]
    fn the_jobs_share_one_queue_on_two_threads() {
        let mut workers = Workers::default();
        let queue = Mutex::new(0..1000);
        let taken = AtomicUsize::new(0);
        let threads = workers.run(2, |_| {
            while queue.lock().unwrap().next().is_some() {
                taken.fetch_add(1, Ordering::Relaxed);
            }
            std::thread::current().name().map(str::to_string)
        });
        assert_eq!(taken.into_inner(), 1000);
        let caller = std::thread::current().name().map(str::to_string);
        assert_eq!(threads[0], caller, "job 0 runs on the caller's thread");
        assert!(
            threads[1]
                .as_deref()
                .is_some_and(|n| n.starts_with("phutball-env-")),
            "{threads:?}"
        );
    }
}
