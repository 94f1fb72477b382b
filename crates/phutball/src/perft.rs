//! perft: the number of move sequences of a given depth, a standard check
//! of move generation.

use crate::error::TooManyOutcomes;
use crate::position::Position;

/// The number of move sequences of `depth` moves from `pos`, counting a jump
/// move once per distinct resulting position, with no moves from a finished
/// position. The last ply is counted in bulk, without playing its moves.
///
/// ```
/// use phutball::{perft, Position};
/// let start = Position::standard();
/// assert_eq!(perft(&start, 1)?, 284);
/// assert_eq!(perft(&start, 2)?, 80_380);
/// # Ok::<(), phutball::TooManyOutcomes>(())
/// ```
pub fn perft(pos: &Position, depth: u32) -> Result<u64, TooManyOutcomes> {
    if depth == 0 {
        return Ok(1);
    }
    if pos.is_finished() {
        return Ok(0);
    }
    if depth == 1 {
        return pos.count_legal_moves();
    }
    let mut total = 0;
    for m in pos.legal_moves()? {
        let next = pos.play(&m).expect("generated moves are legal");
        total += perft(&next, depth - 1)?;
    }
    Ok(total)
}
