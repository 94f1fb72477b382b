//! The can-score search's pruning: where the goal may still be reached from.

use crate::board::mailbox::{
    Mailbox, DIRECTION_OFFSETS, FLAG_OFF_BOARD, MAILBOX_LEN, MAILBOX_MASK, MAN, OUTSIDE, STRIDE,
};

/// A set of mailbox cells.
#[derive(Clone, Copy)]
pub(crate) struct CellSet([u64; MAILBOX_LEN / 64]);

impl CellSet {
    pub(crate) const EMPTY: CellSet = CellSet([0; MAILBOX_LEN / 64]);
    const ALL: CellSet = CellSet([u64::MAX; MAILBOX_LEN / 64]);

    #[inline(always)]
    pub(crate) fn contains(&self, cell: usize) -> bool {
        let cell = cell & MAILBOX_MASK;
        self.0[cell / 64] >> (cell % 64) & 1 != 0
    }

    #[inline(always)]
    pub(crate) fn insert(&mut self, cell: usize) {
        let cell = cell & MAILBOX_MASK;
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// Whether any cell of the run `first`, `first + d`, ... before `end` is in the set.
    pub(crate) fn intersects_run(&self, first: usize, end: usize, d: usize) -> bool {
        let mut c = first;
        while c != end {
            if self.contains(c) {
                return true;
            }
            c = c.wrapping_add(d) & MAILBOX_MASK;
        }
        false
    }
}

/// The layer of a cell from which the relaxation cannot reach the goal.
pub(crate) const NO_LAYER: u8 = u8::MAX;

/// Layers told apart by [`Reach::compute_with_layers`]; farther ones share the last.
const LAYER_ENDS: usize = 128;

/// How many jumps from the goal the men in [`Reach::support`] are collected:
/// the men near the goal are the few that every scoring path needs, and
/// watching only them keeps recomputation rare.
const SUPPORT_LAYERS: usize = 3;

/// The can-score search's pruning: the cells from which the ball might still
/// reach the goal if men were never removed but any of them could be missing,
/// found by a backward search over that relaxation of the jump rules. Men are
/// only ever removed, so a real jump is always a jump of the relaxation, and
/// from a cell outside `alive` the goal cannot be reached, however many more
/// men are removed. `support` holds the men the relaxation used for its last
/// jumps into the goal: when one of them is removed, `alive` is recomputed.
pub(crate) struct Reach {
    pub(crate) alive: CellSet,
    pub(crate) support: CellSet,
}

impl Reach {
    /// No pruning: everything alive, nothing to recompute.
    pub(crate) const EVERYWHERE: Reach = Reach {
        alive: CellSet::ALL,
        support: CellSet::EMPTY,
    };

    pub(crate) fn compute(mb: &Mailbox, goal_flag: u8, may_jump_from_strip: bool) -> Reach {
        Self::compute_inner::<false>(mb, goal_flag, may_jump_from_strip, &mut [0; 0])
    }

    /// [`Reach::compute`], also writing each cell's layer to `layers`: the
    /// fewest jumps of the relaxation from it to the goal (0 on the goal,
    /// [`NO_LAYER`] where the goal is out of reach).
    pub(crate) fn compute_with_layers(
        mb: &Mailbox,
        goal_flag: u8,
        may_jump_from_strip: bool,
        layers: &mut [u8; MAILBOX_LEN],
    ) -> Reach {
        layers.fill(NO_LAYER);
        Self::compute_inner::<true>(mb, goal_flag, may_jump_from_strip, layers)
    }

    /// With `LAYERS`, `layers` (of [`MAILBOX_LEN`] cells) gets each cell's
    /// layer, read from the queue's layer boundaries after the search, which
    /// keeps the search's loop as lean as without.
    // Over 80 lines on purpose: the reach relaxation, run for every
    // can-score and pruning query. The queue, the sets and the layer count
    // stay locals of one loop, with no helper call in it; the can-score
    // benchmark (benches/benches/jumps.rs) measures it.
    #[inline(always)]
    fn compute_inner<const LAYERS: bool>(
        mb: &Mailbox,
        goal_flag: u8,
        may_jump_from_strip: bool,
        layers: &mut [u8],
    ) -> Reach {
        let mut alive = CellSet::EMPTY;
        let mut support = CellSet::EMPTY;
        let mut queue = [0u16; MAILBOX_LEN];
        let mut tail = 0;
        // A row's flags are those of its first column (sentinels have none):
        // only the goal rows are scanned, not the whole array.
        for row_start in (0..MAILBOX_LEN).step_by(STRIDE) {
            if mb.flags[row_start + 1] & goal_flag == 0 {
                continue;
            }
            for cell in row_start..row_start + STRIDE {
                if mb.cells[cell] != OUTSIDE && mb.flags[cell] & goal_flag != 0 {
                    queue[tail] = cell as u16;
                    tail += 1;
                }
            }
        }
        // Layer k is queue[ends[k - 1]..ends[k]] (ends[-1] = 0).
        let mut ends = [0u16; LAYER_ENDS];
        ends[0] = tail as u16;
        let mut head = 0;
        // Breadth-first layers: layer k holds the cells k jumps from the goal.
        let mut layer = 0;
        let mut layer_end = tail;
        while head < tail {
            if head == layer_end {
                layer += 1;
                layer_end = tail;
                if LAYERS && layer < LAYER_ENDS {
                    ends[layer] = tail as u16;
                }
            }
            let target = queue[head] as usize;
            head += 1;
            for &d in &DIRECTION_OFFSETS {
                // Walk back from the target over one or more men: every point
                // behind them could be where the jump started.
                let mut c = target.wrapping_sub(d) & MAILBOX_MASK;
                if mb.cells[c] != MAN {
                    continue;
                }
                loop {
                    if layer < SUPPORT_LAYERS {
                        support.insert(c);
                    }
                    let source = c.wrapping_sub(d) & MAILBOX_MASK;
                    let contents = mb.cells[source];
                    if contents == OUTSIDE {
                        break;
                    }
                    let jumps_from_here =
                        may_jump_from_strip || mb.flags[source] & FLAG_OFF_BOARD == 0;
                    if jumps_from_here && !alive.contains(source) {
                        alive.insert(source);
                        queue[tail] = source as u16;
                        tail += 1;
                    }
                    if contents != MAN {
                        break;
                    }
                    c = source;
                }
            }
        }
        if LAYERS {
            let mut start = 0;
            for (k, &end) in ends.iter().enumerate().take(layer.min(LAYER_ENDS - 1) + 1) {
                for &cell in &queue[start..end as usize] {
                    layers[cell as usize & MAILBOX_MASK] = k as u8;
                }
                start = end as usize;
            }
            // Layers beyond the last boundary kept share it.
            for &cell in &queue[start..tail] {
                layers[cell as usize & MAILBOX_MASK] = (LAYER_ENDS - 1) as u8;
            }
        }
        Reach { alive, support }
    }
}
