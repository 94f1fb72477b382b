//! Can the side to move score this move: the search, the stronger proof
//! that it cannot, and the threats (placements after which it could).

pub(crate) mod refute;
pub(crate) mod search;
pub(crate) mod threats;
