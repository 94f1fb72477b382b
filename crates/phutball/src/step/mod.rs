//! Playing: the legality and play of moves, step-by-step play and its
//! action space, game records, and perft over whole moves.

pub(crate) mod actions;
pub(crate) mod episode;
pub(crate) mod game;
pub(crate) mod perft;
pub(crate) mod play;
pub(crate) mod state;
