//! Retrograde tablebases: the exact value of every position of a tiny board.
//!
//! - [`index`]: which positions are stored (Ohs to move, not over) and where;
//! - [`code`]: a value as one byte;
//! - [`build`]: the rounds that compute the values;
//! - [`file`]: the versioned binary format (`docs/solver.md`).

mod build;
mod code;
mod file;
mod index;
mod threads;

use core::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

use phutball::{BoardSize, Budget, Move, Position};

pub use build::{BuildProgress, BuildStep};
pub use file::{TablebaseFileError, TablebaseReadError};
use index::Layout;
pub use index::MAX_TABLEBASE_POINTS;

/// The most jobs (threads) a tablebase build takes (the CLI's `--jobs`,
/// C's `jobs`, Python's `jobs=`): past a few per core they only wait on one
/// another, and a caller's typo should not start thousands.
pub const MAX_BUILD_JOBS: usize = 256;

use crate::error::SolverError;
use crate::value::Value;

/// The value of every position of one board size under one off-board rule
/// ([`phutball::Rules::continue_off_board`]; the first player and the
/// start point do not change values): the ball on any point, any men on
/// the others, either side to move.
///
/// Values follow [`Value`]: a win in the fewest plies the winner can
/// force, a loss in the most plies the loser can hold out, or a draw when
/// neither side can force a goal (there is no repetition rule). A finished
/// position is `Win { plies: 0 }` for the side to move if it is the
/// winner, else `Loss { plies: 0 }`.
///
/// ```
/// use phutball::{BoardSize, Budget, Position, Rules};
/// use phutball_solver::{Tablebase, Value};
///
/// let size = BoardSize::new(1, 3)?;
/// let table = Tablebase::build_within(size, false, &Budget::default(), &mut |_| {})?;
/// // 1x3, ball on A2: Ohs places a man on A3. Eks's two replies both
/// // lose: jumping it (A2-A4) is an own goal, and after A1 Ohs jumps A2-A4.
/// let start = Position::start_with(size, Rules::default())?;
/// assert_eq!(table.probe(&start), Some(Value::Win { plies: 3 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Tablebase {
    layout: Layout,
    values: Vec<AtomicU8>,
    stats: TablebaseStats,
}

/// The counts of a [`Tablebase`]'s values. Positions are those not over
/// (the ball strictly between the goal lines) with either side to move;
/// finished positions are not counted (their values are the rules').
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TablebaseStats {
    /// Positions not over, both sides to move: `2 x cols x (rows - 2) x
    /// 2^(cols x rows - 1)`.
    pub positions: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Positions neither side can force a goal from.
    pub draws: u64,
    /// The longest of the wins, in plies (0 if there is none).
    pub longest_win: u32,
    /// The longest of the losses, in plies (0 if there is none).
    pub longest_loss: u32,
}

impl Tablebase {
    /// Builds the tablebase of `size` under `continue_off_board` on every
    /// core ([`std::thread::available_parallelism`]), within `budget`:
    /// its deadline and cancel flag are polled before every block of about
    /// a millisecond of work, its work limit counts states gone through,
    /// and its memory limit must hold [`Tablebase::memory_needed`] and the
    /// jump walks' sets. `progress` is called from the calling thread
    /// every few milliseconds and after every step.
    ///
    /// # Errors
    ///
    /// [`SolverError::BoardTooLarge`] past [`MAX_TABLEBASE_POINTS`] points;
    /// [`SolverError::Search`] when the budget stops the build (time,
    /// cancel, work, memory limit) or the allocator refuses memory.
    pub fn build_within(
        size: BoardSize,
        continue_off_board: bool,
        budget: &Budget<'_>,
        progress: &mut dyn FnMut(&BuildProgress),
    ) -> Result<Tablebase, SolverError> {
        let jobs = Tablebase::default_jobs();
        Tablebase::build_with_jobs_within(size, continue_off_board, jobs, budget, progress)
    }

    /// The jobs (threads) a build takes when its caller names none: one per
    /// core ([`phutball::default_jobs`]), at most [`MAX_BUILD_JOBS`].
    #[must_use]
    pub fn default_jobs() -> usize {
        phutball::default_jobs().min(MAX_BUILD_JOBS)
    }

    /// `jobs` if a build takes it (1 to [`MAX_BUILD_JOBS`]): the one
    /// check of a build's job count, which the CLI, C and Python call too.
    ///
    /// ```
    /// use phutball_solver::{SolverError, Tablebase};
    /// assert_eq!(Tablebase::check_jobs(2), Ok(2));
    /// assert!(matches!(Tablebase::check_jobs(0), Err(SolverError::Jobs { .. })));
    /// ```
    ///
    /// # Errors
    ///
    /// [`SolverError::Jobs`] for 0 or more than [`MAX_BUILD_JOBS`].
    pub fn check_jobs(jobs: usize) -> Result<usize, SolverError> {
        if (1..=MAX_BUILD_JOBS).contains(&jobs) {
            Ok(jobs)
        } else {
            Err(SolverError::Jobs {
                what: "a tablebase build",
                requested: jobs,
                max: MAX_BUILD_JOBS,
            })
        }
    }

    /// [`Tablebase::build_within`] on `jobs` threads, 1 to
    /// [`MAX_BUILD_JOBS`] (the calling thread works too). The values do
    /// not depend on it.
    ///
    /// # Errors
    ///
    /// [`SolverError::Jobs`] for 0 jobs or more than
    /// [`MAX_BUILD_JOBS`]; otherwise as [`Tablebase::build_within`].
    pub fn build_with_jobs_within(
        size: BoardSize,
        continue_off_board: bool,
        jobs: usize,
        budget: &Budget<'_>,
        progress: &mut dyn FnMut(&BuildProgress),
    ) -> Result<Tablebase, SolverError> {
        let jobs = Tablebase::check_jobs(jobs)?;
        let layout = Layout::new(size, continue_off_board)?;
        let values = build::build(&layout, jobs, budget, progress)?;
        Ok(Tablebase::from_values(layout, values))
    }

    /// The bytes a build of `size` allocates for its values and marks (a
    /// byte and a bit a state), or `None` past [`MAX_TABLEBASE_POINTS`] points. The
    /// finished table keeps the values only; the build also needs up to 64
    /// bytes per position one jump walk reaches, per thread, which it takes
    /// from what the memory limit leaves (a few MiB on these boards).
    ///
    /// ```
    /// use phutball::BoardSize;
    /// use phutball_solver::Tablebase;
    /// // 4x4: 8 ball points x 2^15 men sets = 262,144 states.
    /// assert_eq!(Tablebase::memory_needed(BoardSize::new(4, 4)?), Some(262_144 + 32_768));
    /// assert_eq!(Tablebase::memory_needed(BoardSize::STANDARD), None);
    /// # Ok::<(), phutball::InvalidPositionError>(())
    /// ```
    pub fn memory_needed(size: BoardSize) -> Option<usize> {
        if size.num_board_points() > MAX_TABLEBASE_POINTS {
            return None;
        }
        build::table_bytes(Layout::count(size)).and_then(|bytes| usize::try_from(bytes).ok())
    }

    /// The number of states a table of `size` stores (positions with Ohs
    /// to move, not over: `cols x (rows - 2) x 2^(cols x rows - 1)`), or
    /// `None` past [`MAX_TABLEBASE_POINTS`] points.
    pub fn states_of(size: BoardSize) -> Option<u64> {
        (size.num_board_points() <= MAX_TABLEBASE_POINTS).then(|| Layout::count(size))
    }

    /// The table of `values` (one code a state of `layout`), with its counts.
    fn from_values(layout: Layout, values: Vec<AtomicU8>) -> Tablebase {
        let mut stats = TablebaseStats {
            positions: 2 * layout.states(),
            ..TablebaseStats::default()
        };
        for value in &values {
            let found = value.load(Ordering::Relaxed);
            let plies = code::plies(found);
            if found == code::DRAW {
                stats.draws += 2;
            } else if code::is_win(found) {
                stats.wins += 2;
                stats.longest_win = stats.longest_win.max(plies);
            } else {
                stats.losses += 2;
                stats.longest_loss = stats.longest_loss.max(plies);
            }
        }
        Tablebase {
            layout,
            values,
            stats,
        }
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.layout.board.size()
    }

    /// The off-board rule the values are for.
    pub fn continue_off_board(&self) -> bool {
        self.layout.board.continue_off_board()
    }

    /// Whether `pos` is of this table's board size and off-board rule.
    pub fn covers(&self, pos: &Position) -> bool {
        pos.size() == self.size() && pos.rules().continue_off_board == self.continue_off_board()
    }

    /// The value of `pos` for its side to move, or `None` if the table
    /// does not cover it ([`Tablebase::covers`]).
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if !self.covers(pos) {
            return None;
        }
        if let Some(winner) = pos.winner() {
            return Some(if winner == pos.to_move() {
                Value::Win { plies: 0 }
            } else {
                Value::Loss { plies: 0 }
            });
        }
        let state = self.layout.state_of(pos)?;
        let found = self.values[self.layout.index(state)].load(Ordering::Relaxed);
        Some(code::value(found))
    }

    /// A move of `pos` that keeps its value: the shortest win, else a
    /// drawing move, else the loss that holds out longest (the first such
    /// move in the core's order). `None` if `pos` is over or not covered.
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        if !self.covers(pos) || pos.is_finished() {
            return None;
        }
        // Small boards have few moves: the default budget always holds them.
        let moves = pos.legal_moves_within(&Budget::default()).ok()?;
        let mut best: Option<(Move, (u8, i64))> = None;
        for m in moves {
            let Some(value) = pos.play(&m).ok().and_then(|child| self.probe(&child)) else {
                continue;
            };
            let rank = rank(value.parent());
            if best.as_ref().is_none_or(|(_, best)| rank > *best) {
                best = Some((m, rank));
            }
        }
        best.map(|(m, _)| m)
    }

    /// The principal variation from `pos`: [`Tablebase::best_move`] played
    /// until the game ends or `max_plies` moves are made (a draw goes on
    /// for ever).
    pub fn line(&self, pos: &Position, max_plies: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = *pos;
        while line.len() < max_plies {
            let Some(m) = self.best_move(&pos) else {
                break;
            };
            let Ok(next) = pos.play(&m) else {
                break;
            };
            line.push(m);
            pos = next;
        }
        line
    }

    /// The counts of wins, losses and draws, and the longest of each.
    pub fn stats(&self) -> TablebaseStats {
        self.stats
    }

    /// The number of states stored: positions with Ohs to move, not over
    /// (half of [`TablebaseStats::positions`]).
    pub fn states(&self) -> u64 {
        self.layout.states()
    }

    /// The position numbered `index` of the [`TablebaseStats::positions`]
    /// the table values (none over): below [`Tablebase::states`], the
    /// stored states with Ohs to move; from there, the same ball and men
    /// with Eks to move. `None` from `positions` on. For enumerating or
    /// sampling the table's positions (`phutball.rl` does).
    pub fn position(&self, index: u64) -> Option<Position> {
        let states = self.layout.states();
        let (state, to_move) = if index < states {
            (index, phutball::Side::Ohs)
        } else if index - states < states {
            (index - states, phutball::Side::Eks)
        } else {
            return None;
        };
        let small = self.layout.state(usize::try_from(state).ok()?);
        self.layout.board.decode(small, to_move)
    }

    /// The value of the start position of the table's board (the ball on
    /// the centre, Ohs to move): what the stats of a table lead with.
    pub fn start_value(&self) -> Value {
        let start = Position::start_with(
            self.size(),
            phutball::Rules {
                continue_off_board: self.continue_off_board(),
                ..phutball::Rules::default()
            },
        );
        start
            .ok()
            .and_then(|start| self.probe(&start))
            .unwrap_or(Value::Draw)
    }
}

/// How good a value is for the side that has it: wins first, the shortest
/// first; then draws; then losses, the longest first.
fn rank(value: Value) -> (u8, i64) {
    match value {
        Value::Win { plies } => (2, -i64::from(plies)),
        Value::Draw => (1, 0),
        Value::Loss { plies } => (0, i64::from(plies)),
    }
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("size", &self.size())
            .field("continue_off_board", &self.continue_off_board())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Tablebase {
    /// Equal boards, rules and values.
    fn eq(&self, other: &Tablebase) -> bool {
        self.size() == other.size()
            && self.continue_off_board() == other.continue_off_board()
            && self
                .values
                .iter()
                .zip(&other.values)
                .all(|(a, b)| a.load(Ordering::Relaxed) == b.load(Ordering::Relaxed))
    }
}

impl Eq for Tablebase {}

impl fmt::Display for TablebaseStats {
    /// One line: `N positions: W wins, L losses, D draws; longest win W
    /// plies, longest loss L plies`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} positions: {} wins, {} losses, {} draws; longest win {} plies, longest loss {} plies",
            self.positions, self.wins, self.losses, self.draws, self.longest_win, self.longest_loss
        )
    }
}
