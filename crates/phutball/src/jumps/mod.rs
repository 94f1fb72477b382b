//! Jumps: one jump of the ball, a jump move made one jump at a time, the
//! depth-first walk behind every enumeration and what is built on it
//! (every path, distinct outcomes, counts), with the walk's pruning and its
//! memories of searched states.

pub(crate) mod enumerate;
pub(crate) mod jump;
pub(crate) mod jump_in_progress;
pub(crate) mod reach;
pub(crate) mod searched;
pub(crate) mod state_set;
pub(crate) mod walk;
pub(crate) mod zone;
