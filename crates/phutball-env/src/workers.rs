//! The threads a batch's steps run on: a pool started at the batch's first
//! step on more than one job and kept for the steps after it, so that a
//! step costs a wake-up of its threads (microseconds) instead of a start
//! of new ones (tens of microseconds, and a share of the step's games done
//! by a thread that is not yet running).

use std::sync::Arc;

use rayon::iter::{IntoParallelIterator, ParallelIterator};
use rayon::{ThreadPool, ThreadPoolBuilder};

/// A batch's threads (none until a step needs them). Clones share them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Workers {
    pool: Option<Arc<ThreadPool>>,
}

impl Workers {
    /// `work(job)` for each job `0..jobs`, on up to `jobs` threads, the
    /// answers in job order. Each `work` must take its share from a queue
    /// shared with the others until the queue is empty, so that the jobs
    /// that ran take the share of one that did not: where no thread can be
    /// started (no memory for their stacks under an address-space limit),
    /// only `work(0)` runs, on the caller's thread.
    pub(crate) fn run<R: Send>(&mut self, jobs: usize, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
        if jobs <= 1 {
            return vec![work(0)];
        }
        match self.pool(jobs) {
            Some(pool) => pool.install(|| (0..jobs).into_par_iter().map(&work).collect()),
            None => vec![work(0)],
        }
    }

    /// A pool of at least `jobs` threads, started now if there is none
    /// (or a smaller one); `None` if the threads cannot be started.
    fn pool(&mut self, jobs: usize) -> Option<&ThreadPool> {
        if self
            .pool
            .as_ref()
            .is_none_or(|pool| pool.current_num_threads() < jobs)
        {
            self.pool = ThreadPoolBuilder::new()
                .num_threads(jobs)
                .thread_name(|i| format!("phutball-env-{i}"))
                .build()
                .ok()
                .map(Arc::new);
        }
        self.pool.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

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
        let pool = workers.pool.clone().expect("a pool of three threads");
        workers.run(2, |_| ());
        assert!(
            Arc::ptr_eq(&pool, workers.pool.as_ref().unwrap()),
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
        assert!(threads.iter().all(|name| name
            .as_deref()
            .is_some_and(|n| n.starts_with("phutball-env-"))));
    }
}
