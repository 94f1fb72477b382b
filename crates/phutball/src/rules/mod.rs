//! The rules: the rule options and positions (men, ball, side to move)
//! checked against them.

pub(crate) mod options;
pub(crate) mod position;
