//! How long a search may run: time, depth and node count, in any combination.

use std::time::Duration;

/// The deepest iteration any search goes to, whatever the limits say.
pub const MAX_DEPTH: u32 = 64;

/// The most threads one search runs ([`Limits::with_threads`]).
pub const MAX_THREADS: u32 = 64;

/// Search limits. The search stops at the first limit reached and plays the
/// best move of the deepest iteration it has finished (at least one legal
/// move is always returned). Without a time limit the result depends only on
/// the position, the limits and the seed, and the search is not bounded in
/// time: the root's checks are exact, which can take minutes on dense
/// boards. A time limit is kept on every position (see the crate docs,
/// "Bounded work").
///
/// ```
/// use std::time::Duration;
/// use phutball_engine::Limits;
/// let limits = Limits::time(Duration::from_millis(100)).with_depth(6);
/// assert_eq!(limits.depth, Some(6));
/// assert_eq!(Limits::nodes(5000).time, None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Wall-clock time for the whole move (the core's searches inside it
    /// are bounded by it too).
    pub time: Option<Duration>,
    /// Deepest iteration, in plies (capped at [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Positions searched (by all threads together).
    pub nodes: Option<u64>,
    /// Threads searching the move together (1 to [`MAX_THREADS`]; 1 unless
    /// set with [`Limits::with_threads`]). With more than one the helpers
    /// search the same root and share the transposition table ("lazy
    /// SMP"): the depth is reached sooner, but the move, score and node
    /// count depend on the threads' timing, so only a single thread is
    /// reproducible.
    pub threads: u32,
}

impl Limits {
    /// The limits the interfaces build from their three optional settings
    /// (the CLI's `--time`/`--depth`/`--nodes`, C's `PhutballEngineLimits`,
    /// Python's `Engine(time_ms=, depth=, nodes=)`): the ones given, or the
    /// [default](Limits::default) of one second per move when none is.
    ///
    /// ```
    /// use std::time::Duration;
    /// use phutball_engine::Limits;
    /// assert_eq!(Limits::new(None, None, None), Limits::default());
    /// assert_eq!(Limits::new(None, Some(4), None), Limits::depth(4));
    /// let both = Limits::new(Some(Duration::from_millis(50)), None, Some(900));
    /// assert_eq!((both.time, both.depth, both.nodes), (Some(Duration::from_millis(50)), None, Some(900)));
    /// ```
    pub fn new(time: Option<Duration>, depth: Option<u32>, nodes: Option<u64>) -> Limits {
        if time.is_none() && depth.is_none() && nodes.is_none() {
            return Limits::default();
        }
        Limits {
            time,
            depth,
            nodes,
            threads: 1,
        }
    }

    /// Only a time limit.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            depth: None,
            nodes: None,
            threads: 1,
        }
    }

    /// Only a depth limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            time: None,
            depth: Some(depth),
            nodes: None,
            threads: 1,
        }
    }

    /// Only a node limit (deterministic).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            time: None,
            depth: None,
            nodes: Some(nodes),
            threads: 1,
        }
    }

    /// The same limits with a depth limit too.
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// The same limits searched by `threads` threads, at least 1 and at
    /// most [`MAX_THREADS`] (a number outside is taken as the nearest).
    ///
    /// ```
    /// use phutball_engine::{Limits, MAX_THREADS};
    /// assert_eq!(Limits::depth(5).with_threads(2).threads, 2);
    /// assert_eq!(Limits::depth(5).threads, 1);
    /// assert_eq!(Limits::depth(5).with_threads(0).threads, 1);
    /// assert_eq!(Limits::depth(5).with_threads(1000).threads, MAX_THREADS);
    /// ```
    #[must_use]
    pub fn with_threads(mut self, threads: u32) -> Limits {
        self.threads = threads.clamp(1, MAX_THREADS);
        self
    }

    /// The deepest iteration these limits allow.
    pub(crate) fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}

impl Default for Limits {
    /// One second per move.
    fn default() -> Limits {
        Limits::time(Duration::from_secs(1))
    }
}
