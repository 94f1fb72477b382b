//! A stronger proof that the side to move cannot score, for the positions
//! whose [`Reach`](crate::jumps::reach::Reach) relaxation is too weak.
//!
//! That relaxation forgets which men are gone, so its counterexamples jump a
//! man twice or land on a man nobody removed. Here a few men are *tracked*:
//! the relaxed search keeps, with the ball's cell, which tracked men are gone,
//! and treats every other man as maybe there, maybe not. When the relaxed
//! search reaches the goal, its path is checked against the real rules: if
//! it breaks none, it is a real scoring path; otherwise the last man it
//! misused along the path becomes tracked and the search runs again. Men
//! misused late are mostly near the goal, where the men every scoring path
//! needs stand, which keeps the tracked men few and the states small: on
//! `tests/data/score-16.fixture` record 6 one tracked man settles what the exact
//! search needs 51,043 states for.

use crate::board::mailbox::{Mailbox, MAILBOX_LEN, MAILBOX_MASK, MAN, OUTSIDE, STRIP_STOP};
use crate::board::point::Point;
use crate::budget::{Meter, SearchError};
use crate::jumps::reach::CellSet;

/// The most men tracked; the removed ones form a [`Removed`].
const MAX_TRACKED: usize = 128;

/// Bit `i`: the `i`-th tracked man is gone.
type Removed = u128;

/// A state of the relaxed search, and how it was reached.
#[derive(Clone, Copy)]
struct Node {
    cell: u16,
    /// The direction (an index into `offsets`) of the jump that landed here.
    dir: u8,
    /// Bit `i`: the `i`-th tracked man is gone.
    removed: Removed,
    parent: u32,
}

const NO_PARENT: u32 = u32::MAX;

/// What [`refute`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refutation {
    /// The goal cannot be reached; the proof tracked this many men.
    CannotScore { tracked: usize },
    /// A real scoring path, the ball's point first.
    Scores(Vec<Point>),
    /// Neither, within the budget.
    Unknown,
    /// The caller's budget ran out.
    Stopped(SearchError),
}

/// Whether the ball on `start` can end a jump move on a cell with
/// `goal_flag`, if this relaxation settles it within its budget.
///
/// `alive` must hold every cell from which the [`Reach`](crate::jumps::reach::Reach)
/// relaxation of the same mailbox reaches the goal: this search's jumps are
/// jumps of that relaxation, so it skips landings outside `alive`. Under the
/// default off-board rule, vacant strip cells are [`STRIP_STOP`] and the
/// search does not go on from them. `offsets` are the eight direction
/// offsets; each state checks them for the goal in that order.
pub(crate) fn refute(
    mb: &Mailbox,
    start: usize,
    goal_flag: u8,
    alive: &CellSet,
    offsets: &[usize; 8],
    state_budget: usize,
    meter: &Meter<'_>,
) -> Refutation {
    let mut search = RelaxedSearch {
        mb,
        goal_flag,
        alive,
        offsets,
        tracked: [0; MAILBOX_LEN],
        tracked_count: 0,
        nodes: Vec::new(),
        seen: KeySet::default(),
        explored: 0,
        state_budget,
        meter,
    };
    loop {
        let (node, dir, landing) = match search.run(start) {
            Explored::OverBudget => return Refutation::Unknown,
            Explored::Stopped(e) => return Refutation::Stopped(e),
            Explored::GoalUnreachable => {
                return Refutation::CannotScore {
                    tracked: search.tracked_count,
                }
            }
            Explored::GoalReached { node, dir, landing } => (node, dir, landing),
        };
        let jumps = search.path_to(node, dir, landing);
        match search.last_misused_man(&jumps) {
            None => {
                let mut path = vec![mb.point(start)];
                path.extend(jumps.iter().map(|&(_, _, landing)| mb.point(landing)));
                return Refutation::Scores(path);
            }
            Some(man) if search.tracked_count < MAX_TRACKED => search.track(man),
            Some(_) => return Refutation::Unknown,
        }
    }
}

struct RelaxedSearch<'a, 'b> {
    mb: &'a Mailbox,
    goal_flag: u8,
    alive: &'a CellSet,
    offsets: &'a [usize; 8],
    /// Per cell: 0, or 1 + the index of the tracked man on it.
    tracked: [u8; MAILBOX_LEN],
    tracked_count: usize,
    nodes: Vec<Node>,
    seen: KeySet,
    explored: usize,
    /// Relaxed states explored, over all refinements, before giving up.
    state_budget: usize,
    /// The caller's budget: a relaxed state is a step of work.
    meter: &'a Meter<'b>,
}

impl RelaxedSearch<'_, '_> {
    fn track(&mut self, cell: usize) {
        debug_assert_eq!(self.tracked[cell], 0, "a tracked man is never misused");
        self.tracked_count += 1;
        self.tracked[cell] = self.tracked_count as u8;
    }

    /// The bit of the tracked man on `cell`, or 0.
    #[inline(always)]
    fn tracked_bit(&self, cell: usize) -> Removed {
        match self.tracked[cell & MAILBOX_MASK] {
            0 => 0,
            t => 1 << (t - 1),
        }
    }

    /// Depth-first over relaxed states from `start`.
    fn run(&mut self, start: usize) -> Explored {
        self.nodes.clear();
        self.seen.clear();
        self.nodes.push(Node {
            cell: start as u16,
            dir: 0,
            removed: 0,
            parent: NO_PARENT,
        });
        let mut stack = vec![0u32];
        while let Some(index) = stack.pop() {
            let node = self.nodes[index as usize];
            for (dir, &d) in self.offsets.iter().enumerate() {
                let mut run_removed = 0;
                let mut c = (node.cell as usize).wrapping_add(d) & MAILBOX_MASK;
                // Walk the run of men that may still be there; every cell
                // after one of them that may be vacant is a possible landing.
                while self.mb.cells[c] == MAN && self.tracked_bit(c) & node.removed == 0 {
                    run_removed |= self.tracked_bit(c);
                    let landing = c.wrapping_add(d) & MAILBOX_MASK;
                    let contents = self.mb.cells[landing];
                    if contents == OUTSIDE {
                        break;
                    }
                    let bit = self.tracked_bit(landing);
                    let may_be_vacant = contents != MAN || bit == 0 || bit & node.removed != 0;
                    if may_be_vacant {
                        if self.mb.flags[landing] & self.goal_flag != 0 {
                            return Explored::GoalReached {
                                node: index,
                                dir: dir as u8,
                                landing,
                            };
                        }
                        if contents != STRIP_STOP && self.alive.contains(landing) {
                            let removed = node.removed | run_removed;
                            if self.seen.insert(removed, landing as u16) {
                                self.explored += 1;
                                if self.explored > self.state_budget {
                                    return Explored::OverBudget;
                                }
                                if let Err(e) = self.meter.tick() {
                                    return Explored::Stopped(e);
                                }
                                stack.push(self.nodes.len() as u32);
                                self.nodes.push(Node {
                                    cell: landing as u16,
                                    dir: dir as u8,
                                    removed,
                                    parent: index,
                                });
                            }
                        }
                    }
                    c = landing;
                }
            }
        }
        Explored::GoalUnreachable
    }

    /// The relaxed path to `node` and on by `dir` to `landing`, as jumps
    /// (start cell, direction, landing cell), first jump first.
    fn path_to(&self, node: u32, dir: u8, landing: usize) -> Vec<(usize, u8, usize)> {
        let mut jumps = vec![(self.nodes[node as usize].cell as usize, dir, landing)];
        let mut at = self.nodes[node as usize];
        while at.parent != NO_PARENT {
            let parent = self.nodes[at.parent as usize];
            jumps.push((parent.cell as usize, at.dir, at.cell as usize));
            at = parent;
        }
        jumps.reverse();
        jumps
    }

    /// Replays relaxed `jumps` under the real rules; returns the last man
    /// they jump twice or land on while it stands, or `None` if they are a
    /// real jump path.
    fn last_misused_man(&self, jumps: &[(usize, u8, usize)]) -> Option<usize> {
        let mut jumped = CellSet::EMPTY;
        let mut misused = None;
        for &(from, dir, landing) in jumps {
            let d = self.offsets[dir as usize];
            let mut c = from.wrapping_add(d) & MAILBOX_MASK;
            while c != landing {
                if jumped.contains(c) {
                    misused = Some(c);
                }
                jumped.insert(c);
                c = c.wrapping_add(d) & MAILBOX_MASK;
            }
            if self.mb.cells[landing] == MAN && !jumped.contains(landing) {
                misused = Some(landing);
            }
        }
        misused
    }
}

/// How a run of the relaxed search ended.
enum Explored {
    OverBudget,
    Stopped(SearchError),
    GoalUnreachable,
    /// From `node`, the jump in direction `dir` lands on the goal at `landing`.
    GoalReached {
        node: u32,
        dir: u8,
        landing: usize,
    },
}

/// A set of relaxed states (removed tracked men, cell), open addressing: a
/// few thousand lookups a refutation, where std's `SipHash` would cost more
/// than the search.
#[derive(Default)]
struct KeySet {
    removed: Vec<Removed>,
    /// The cell of each slot; [`KeySet::FREE`] for a free slot.
    cells: Vec<u16>,
    len: usize,
}

impl KeySet {
    const FREE: u16 = u16::MAX;

    fn clear(&mut self) {
        self.cells.fill(Self::FREE);
        self.len = 0;
    }

    fn insert(&mut self, removed: Removed, cell: u16) -> bool {
        if 2 * (self.len + 1) > self.cells.len() {
            self.grow();
        }
        let mask = self.cells.len() - 1;
        let folded = (removed as u64) ^ ((removed >> 64) as u64).rotate_left(17) ^ u64::from(cell);
        let mut i = (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize & mask;
        loop {
            match self.cells[i] {
                Self::FREE => {
                    self.cells[i] = cell;
                    self.removed[i] = removed;
                    self.len += 1;
                    return true;
                }
                c if c == cell && self.removed[i] == removed => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let slots = (2 * self.cells.len()).max(256);
        let cells = core::mem::replace(&mut self.cells, vec![Self::FREE; slots]);
        let removed = core::mem::replace(&mut self.removed, vec![0; slots]);
        self.len = 0;
        for (cell, removed) in cells.into_iter().zip(removed) {
            if cell != Self::FREE {
                self.insert(removed, cell);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use core::ops::ControlFlow;

    use proptest::prelude::*;

    use super::Refutation;
    use crate::board::mailbox::{Mailbox, FLAG_EKS_GOAL, FLAG_OHS_GOAL};
    use crate::fixtures::ScoreFigure;
    use crate::jumps::reach::Reach;
    use crate::jumps::walk::{walk, DEDUP_INTERNAL, NORTH_FIRST, SOUTH_FIRST};
    use crate::{Bitboard, BoardSize, Move, Point, Position, Rules, Side};

    fn goal_and_offsets(pos: &Position) -> (u8, &'static [usize; 8]) {
        match pos.to_move() {
            Side::Ohs => (FLAG_OHS_GOAL, &NORTH_FIRST.offsets),
            Side::Eks => (FLAG_EKS_GOAL, &SOUTH_FIRST.offsets),
        }
    }

    /// The refutation of `pos`, as the can-score search calls it.
    /// A found scoring path comes back as a [`Move`].
    fn refute(pos: &Position) -> Result<Option<usize>, Move> {
        let (goal, offsets) = goal_and_offsets(pos);
        let continues = pos.rules().continue_off_board;
        let mb = Mailbox::new(pos.size(), pos.men(), !continues);
        let start = mb.cell(pos.ball());
        let reach = Reach::compute(&mb, goal, continues);
        let meter = crate::budget::Meter::unlimited();
        match super::refute(&mb, start, goal, &reach.alive, offsets, 512, &meter) {
            Refutation::CannotScore { tracked } => Ok(Some(tracked)),
            Refutation::Unknown | Refutation::Stopped(_) => Ok(None),
            Refutation::Scores(path) => Err(Move::Jump(path)),
        }
    }

    /// Landings the exact search may make before [`exact_can_score`] gives
    /// up. Random boards of up to 15 x 19 points at up to 70% men include,
    /// rarely, ones whose every-state search runs for hours in a debug build
    /// (one stopped CI); at this bound a case takes about 20 ms in a release
    /// build, and 1 case in 40,000 reaches it.
    pub(crate) const EXACT_WORK_LIMIT: u64 = 2_000_000;

    /// Can-score by the exact search alone: every state, no pruning. `None`
    /// if it needs more than [`EXACT_WORK_LIMIT`] landings.
    pub(crate) fn exact_can_score(pos: &Position) -> Option<bool> {
        let (goal, _) = goal_and_offsets(pos);
        let budget = crate::Budget::unlimited().with_work_limit(EXACT_WORK_LIMIT);
        let meter = crate::budget::Meter::start(&budget).expect("nothing to interrupt");
        let stats = walk::<DEDUP_INTERNAL, false, _>(
            pos,
            &NORTH_FIRST,
            usize::MAX,
            None,
            &meter,
            |_, flags| {
                if flags & goal != 0 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        match stats {
            Ok(stats) => Some(stats.stopped),
            Err(crate::SearchError::WorkLimit { .. }) => None,
            Err(e) => panic!("no other limit: {e}"),
        }
    }

    pub(crate) fn position() -> impl Strategy<Value = Position> {
        (3u8..=15, 3u8..=19)
            .prop_flat_map(|(cols, rows)| {
                let points = cols as usize * rows as usize;
                (
                    Just((cols, rows)),
                    prop::collection::vec(0u8..100, points),
                    20u8..70,
                    any::<prop::sample::Index>(),
                    any::<bool>(),
                    any::<bool>(),
                )
            })
            .prop_filter_map(
                "the ball needs a vacant point",
                |((cols, rows), dice, density, ball, eks, continues)| {
                    let size = BoardSize::new(cols, rows).ok()?;
                    let rules = Rules {
                        continue_off_board: continues,
                        ..Rules::default()
                    };
                    let mut men = Bitboard::EMPTY;
                    let mut vacant = Vec::new();
                    for (i, &die) in dice.iter().enumerate() {
                        let p =
                            Point::new((i % cols as usize) as u8, (i / cols as usize) as u8 + 1)?;
                        if die < density {
                            men.insert(p);
                        } else if p.row() > 1 && p.row() < rows {
                            vacant.push(p);
                        }
                    }
                    if vacant.is_empty() {
                        return None;
                    }
                    let to_move = if eks { Side::Eks } else { Side::Ohs };
                    Position::from_parts(size, rules, men, *ball.get(&vacant), to_move).ok()
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// A refutation is a proof: the exact search never finds a scoring
        /// path where one was refuted; and a scoring path it returns is legal
        /// and scores.
        #[test]
        fn refutations_agree_with_the_exact_search(pos in position()) {
            match refute(&pos) {
                Ok(Some(_)) => prop_assert_ne!(exact_can_score(&pos), Some(true), "refuted, but {} can score", pos),
                Ok(None) => {}
                Err(path) => {
                    let after = pos.play(&path);
                    prop_assert!(after.is_ok(), "{} is illegal in {}: {:?}", path, pos, after);
                    prop_assert_eq!(after.unwrap().winner(), Some(pos.to_move()), "{} in {}", path, pos);
                }
            }
        }
    }

    #[test]
    fn benchmark_positions() {
        let text = include_str!("../../tests/data/score-16.fixture");
        let mut proved_by_tracking = 0;
        for (number, record) in (1..).zip(crate::fixtures::parse(text).expect("score-16 reads")) {
            let pos = record.position;
            let can_score = record.score.and_then(ScoreFigure::known).expect("decided");
            match refute(&pos) {
                Ok(Some(tracked)) => {
                    assert!(!can_score, "refuted {pos}, which can score");
                    proved_by_tracking += usize::from(tracked > 0);
                }
                Ok(None) => assert!(can_score || number != 6, "record 6 not refuted"),
                Err(path) => assert!(can_score, "{path} scores in {pos}, which cannot score"),
            }
        }
        // Record 6 (51,043 states for the exact search) needs a tracked man.
        assert!(proved_by_tracking >= 1);
    }
}
