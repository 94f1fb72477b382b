//! Zones are sound: a man added outside a move's zone leaves the move as
//! legal as it was, with the same outcome but for that man, and one added
//! outside the jump zone leaves the ball the same jump moves. The prover's
//! relevance zones and the certificates' `pass` lines rest on this.

mod random;
mod reference;

use phutball::{Bitboard, Move, Point, Position};
use proptest::prelude::*;

use random::position;

/// `pos` with a man on `q`, if one may stand there.
fn with_man(pos: &Position, q: Point) -> Option<Position> {
    Position::from_parts(
        pos.size(),
        pos.rules(),
        pos.men() | Bitboard::from_point(q),
        pos.ball(),
        pos.to_move(),
    )
    .ok()
}

/// The points a man could be added on: vacant board points but the ball's.
fn vacant(pos: &Position) -> Vec<Point> {
    (pos.size().board_points() - pos.men())
        .iter()
        .filter(|&p| p != pos.ball())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_man_outside_the_jump_zone_leaves_the_same_jumps(pos in position()) {
        let zone = pos.jump_zone();
        let paths = pos.jump_paths().unwrap();
        for q in vacant(&pos) {
            let Some(added) = with_man(&pos, q) else { continue };
            let added_paths = added.jump_paths().unwrap();
            if zone.contains(q) {
                continue;
            }
            prop_assert_eq!(&added_paths, &paths, "a man on {} (outside the zone) in {}", q, pos);
            for m in &paths {
                let (a, b) = (pos.play(m).unwrap(), added.play(m).unwrap());
                prop_assert_eq!(with_man(&a, q), Some(b));
            }
        }
    }

    #[test]
    fn a_man_outside_a_moves_zone_leaves_it_as_it_was(pos in position()) {
        let mut moves = pos.jump_paths().unwrap();
        moves.extend(pos.placement_points().iter().take(6).map(Move::Place));
        for m in &moves {
            let zone = pos.move_zone(m);
            let after = pos.play(m).unwrap();
            for q in vacant(&pos) {
                if zone.contains(q) {
                    continue;
                }
                let added = with_man(&pos, q).unwrap();
                prop_assert_eq!(added.play(m).ok(), with_man(&after, q), "{} with a man on {} in {}", m, q, pos);
            }
        }
    }

    #[test]
    fn the_jump_zone_holds_every_point_the_jumps_pass(pos in position()) {
        let zone = pos.jump_zone();
        for m in pos.jump_paths().unwrap() {
            let passed = pos.move_zone(&m);
            prop_assert!((passed - zone).is_empty(), "{} passes {:?} outside the zone of {}", m, passed - zone, pos);
        }
    }
}
