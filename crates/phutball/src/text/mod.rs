//! The board in other forms: the notation (points, moves, position
//! strings), text diagrams, SVG pictures, and the planes of numbers
//! networks read; and the one other notation, a memory limit's size.

pub(crate) mod byte_size;
pub(crate) mod diagram;
pub(crate) mod notation;
pub(crate) mod planes;
pub(crate) mod svg;
