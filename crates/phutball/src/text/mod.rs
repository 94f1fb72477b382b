//! The board in other forms: the notation (points, moves, position
//! strings), text diagrams, SVG pictures, and the planes of numbers
//! networks read.

pub(crate) mod diagram;
pub(crate) mod notation;
pub(crate) mod planes;
pub(crate) mod svg;
