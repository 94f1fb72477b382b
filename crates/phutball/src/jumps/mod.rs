//! Jumps: the depth-first walk of the ball over the men, and what is
//! built on it (single jumps, every path, distinct outcomes, counts), with
//! the walk's pruning and its memories of searched states.

pub(crate) mod enumerate;
pub(crate) mod reach;
pub(crate) mod searched;
pub(crate) mod state_set;
pub(crate) mod walk;
