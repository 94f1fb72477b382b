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
    /// Python's `Engine(time=, depth=, nodes=)`): the ones given, or the
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

/// A setting of [`Limits`] as an interface reads it from its user (the
/// CLI's `--time`/`--depth`/`--nodes`/`--jobs`, C's
/// `PhutballEngineLimits`, Python's `Engine(depth=, nodes=, threads=)` and
/// its deprecated `time_ms=`; its `time=` is seconds, at least one
/// millisecond): the one table of the values each may take, which every
/// interface checks with [`LimitSetting::check`] so that a value means the same,
/// or is refused the same way, everywhere.
///
/// ```
/// use phutball_engine::LimitSetting;
/// assert_eq!(LimitSetting::Nodes.check(5000), Ok(5000));
/// let e = LimitSetting::Nodes.check(0).unwrap_err();
/// assert_eq!(e.to_string(), "nodes must be at least 1, not 0");
/// assert_eq!(LimitSetting::Depth.range(), (1, 64));
/// assert!(LimitSetting::Threads.check(65).is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LimitSetting {
    /// Time per move in milliseconds: at least 1 (no time limit is no setting, not 0).
    TimeMs,
    /// Deepest iteration in plies: 1 to [`MAX_DEPTH`].
    Depth,
    /// Positions searched: at least 1.
    Nodes,
    /// Threads searching a move: 1 to [`MAX_THREADS`].
    Threads,
}

impl LimitSetting {
    /// Every setting, in the order of [`Limits`]' fields.
    pub const ALL: [LimitSetting; 4] = [
        LimitSetting::TimeMs,
        LimitSetting::Depth,
        LimitSetting::Nodes,
        LimitSetting::Threads,
    ];

    /// Its name in messages: `time_ms`, `depth`, `nodes`, `threads`.
    pub fn name(self) -> &'static str {
        match self {
            LimitSetting::TimeMs => "time_ms",
            LimitSetting::Depth => "depth",
            LimitSetting::Nodes => "nodes",
            LimitSetting::Threads => "threads",
        }
    }

    /// The smallest and the largest value it takes (both included).
    pub fn range(self) -> (u64, u64) {
        match self {
            LimitSetting::TimeMs | LimitSetting::Nodes => (1, u64::MAX),
            LimitSetting::Depth => (1, u64::from(MAX_DEPTH)),
            LimitSetting::Threads => (1, u64::from(MAX_THREADS)),
        }
    }

    /// `value` if it is within [`LimitSetting::range`], else the error naming
    /// the setting and its range.
    ///
    /// # Errors
    /// [`LimitError`] for a value outside the range.
    pub fn check(self, value: u64) -> Result<u64, LimitError> {
        let (min, max) = self.range();
        if (min..=max).contains(&value) {
            Ok(value)
        } else {
            Err(LimitError {
                setting: self,
                value: value.to_string(),
            })
        }
    }

    /// The range in words: `at least 1`, `from 1 to 64`.
    pub fn range_text(self) -> String {
        match self.range() {
            (min, u64::MAX) => format!("at least {min}"),
            (min, max) => format!("from {min} to {max}"),
        }
    }
}

/// A value a [`LimitSetting`] does not take: names the setting, its range and the value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} must be {}, not {value}", setting.name(), setting.range_text())]
pub struct LimitError {
    /// The setting given the value.
    pub setting: LimitSetting,
    /// The value, as given (an interface may report one that fits no `u64`).
    pub value: String,
}

impl LimitError {
    /// The same error for a value the interface could not even read as a
    /// `u64` (negative, or too large): `value` is its text.
    pub fn outside(setting: LimitSetting, value: impl std::fmt::Display) -> LimitError {
        LimitError {
            setting,
            value: value.to_string(),
        }
    }

    /// The message with the interface's own name for the setting (`--nodes`).
    pub fn named(&self, name: &str) -> String {
        format!(
            "{name} must be {}, not {}",
            self.setting.range_text(),
            self.value
        )
    }
}

impl Limits {
    /// The limits of the three optional settings, each checked against the
    /// [`LimitSetting`] table, with `threads` threads (checked too): the
    /// validated form of [`Limits::new`] and [`Limits::with_threads`] that
    /// the CLI, C and Python build their limits with.
    ///
    /// ```
    /// use phutball_engine::Limits;
    /// assert_eq!(Limits::checked(None, Some(4), None, 1), Ok(Limits::depth(4)));
    /// assert!(Limits::checked(None, None, Some(0), 1).is_err());
    /// assert!(Limits::checked(Some(0), None, None, 1).is_err());
    /// assert!(Limits::checked(None, Some(65), None, 1).is_err());
    /// assert!(Limits::checked(None, None, None, 0).is_err());
    /// ```
    ///
    /// # Errors
    /// [`LimitError`] naming the first setting out of its range.
    pub fn checked(
        time_ms: Option<u64>,
        depth: Option<u64>,
        nodes: Option<u64>,
        threads: u64,
    ) -> Result<Limits, LimitError> {
        let time = time_ms.map(|t| LimitSetting::TimeMs.check(t)).transpose()?;
        let depth = depth.map(|d| LimitSetting::Depth.check(d)).transpose()?;
        let nodes = nodes.map(|n| LimitSetting::Nodes.check(n)).transpose()?;
        let threads = LimitSetting::Threads.check(threads)?;
        // Within their ranges, depth and threads fit a u32 (at most 64).
        Ok(Limits::new(
            time.map(Duration::from_millis),
            depth.map(|d| d as u32),
            nodes,
        )
        .with_threads(threads as u32))
    }
}
