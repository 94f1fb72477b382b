//! Playing: moves and their legality, step-by-step play and its action
//! space, game records, and perft over whole moves.

pub(crate) mod actions;
pub(crate) mod game;
pub(crate) mod moves;
pub(crate) mod perft;
pub(crate) mod state;
