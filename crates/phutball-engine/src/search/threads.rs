//! The threaded search ("lazy SMP"): helper threads that search the same
//! root moves in another order into the one shared table.

use std::sync::atomic::Ordering;

use phutball::{Move, Position};

use super::state::Search;
use super::Analysis;

impl Search<'_> {
    /// [`Search::iterate`] by [`crate::Limits::threads`] threads: each
    /// searches every root move, all store into and probe the one table,
    /// so each finds much of its tree already searched by the others. The
    /// first to finish stops the rest; the answer is that of the deepest
    /// iteration completed (this thread's when equal), with the nodes of
    /// all.
    pub(super) fn iterate_in_threads(&mut self, roots: Vec<(Move, Position)>) -> Analysis {
        let helpers = self.shared.limits.threads.saturating_sub(1);
        if helpers == 0 {
            return self.iterate(roots);
        }
        let (mine, theirs) = std::thread::scope(|scope| {
            let running: Vec<_> = (1..=helpers)
                .map(|index| {
                    let mut helper = Search::new(self.shared);
                    let roots = helper_order(&roots, index as usize);
                    // A helper the system cannot start (no memory for its
                    // stack under an address-space limit) is left out: the
                    // search runs on the threads it has.
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || helper.iterate(roots))
                        .ok()
                })
                .collect();
            let mine = self.iterate(roots);
            self.shared.team.finished.store(true, Ordering::Relaxed);
            let theirs: Vec<Analysis> = running
                .into_iter()
                .flatten()
                .filter_map(|thread| thread.join().ok())
                .collect();
            (mine, theirs)
        });
        let nodes = mine.nodes + theirs.iter().map(|a| a.nodes).sum::<u64>();
        let mut best = mine;
        for analysis in theirs {
            if analysis.depth > best.depth {
                best = analysis;
            }
        }
        best.nodes = nodes;
        best.elapsed = self.shared.started.elapsed();
        best
    }
}

/// The root moves in the order of helper thread `index` (from 1) of a
/// threaded search: last first (rotated by `index - 1` for the third thread
/// on), so that while the first thread searches the best guesses the helper
/// refutes the others, and each finds the other's work in the table. (With
/// the helper in the first thread's order, two threads were no faster than
/// one at a fixed depth; reversed, about 1.5 times faster with a free
/// second core: see the README.)
fn helper_order(roots: &[(Move, Position)], index: usize) -> Vec<(Move, Position)> {
    let mut roots = roots.to_vec();
    roots.reverse();
    if !roots.is_empty() {
        let shift = (index - 1) % roots.len();
        roots.rotate_left(shift);
    }
    roots
}
