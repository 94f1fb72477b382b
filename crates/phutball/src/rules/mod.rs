//! The rules' vocabulary: the rule options, positions (men, ball, side to
//! move) checked against them, and moves as values.

pub(crate) mod moves;
pub(crate) mod options;
pub(crate) mod position;
