//! Properties every position must have, checked on random positions with
//! the core alone: legal steps, closed prefixes, distinct paths, outcomes,
//! symmetries, step-by-step play and text round trips.

mod random;
mod reference;

use std::collections::{BTreeSet, HashSet};

use phutball::{
    Action, ActionError, Bitboard, Game, GameResult, IllegalMoveError, Jump, Move, Point, Position,
    StepState,
};
use proptest::prelude::*;
use proptest::sample::Index;

use random::{path_name_set, position};

/// What a whole move leaves: ball, men and side to move.
type State = (Point, Bitboard, phutball::Side);

fn state(pos: &Position) -> State {
    (pos.ball(), pos.men(), pos.to_move())
}

/// Replays `path` on `pos` with plain geometry and returns the men left, or
/// why a step breaks the rules.
fn replay_by_geometry(pos: &Position, path: &[Point]) -> Result<Bitboard, String> {
    let size = pos.size();
    let mut men = pos.men();
    let mut removed = Bitboard::EMPTY;
    if path.first() != Some(&pos.ball()) {
        return Err("the path does not start at the ball".into());
    }
    for (i, step) in path.windows(2).enumerate() {
        let (from, to) = (step[0], step[1]);
        if i > 0 && !pos.rules().continue_off_board && size.is_off_board_row(from.row()) {
            return Err(format!(
                "the path goes on after landing off the board on {from}"
            ));
        }
        let dc = i32::from(to.col()) - i32::from(from.col());
        let dr = i32::from(to.row()) - i32::from(from.row());
        if !(dc == 0 || dr == 0 || dc.abs() == dr.abs()) {
            return Err(format!("{from}-{to} is not along a line"));
        }
        let distance = dc.abs().max(dr.abs());
        if distance < 2 {
            return Err(format!("{from}-{to} passes over no man"));
        }
        for k in 1..distance {
            let over = from
                .offset(dc.signum() * k, dr.signum() * k)
                .expect("points between two points exist");
            if removed.contains(over) {
                return Err(format!("{from}-{to} jumps {over} a second time"));
            }
            if !men.contains(over) {
                return Err(format!("{from}-{to} passes over the vacant {over}"));
            }
            men.remove(over);
            removed.insert(over);
        }
        if men.contains(to) {
            return Err(format!("{from}-{to} lands on a man"));
        }
        if !size.contains(to) {
            return Err(format!("{from}-{to} lands outside the board"));
        }
    }
    Ok(men)
}

/// The single jumps offered in a step state.
fn offered_jumps(state: &StepState) -> Vec<Jump> {
    match state {
        StepState::Move(pos) => pos.single_jumps(),
        StepState::Jump(jump) => jump.single_jumps(),
    }
}

/// The position after `path`, made one jump action at a time, checking each
/// step is offered by `single_jumps` and keeps the move under way.
fn step_by_step(pos: &Position, path: &[Point]) -> Result<Position, String> {
    let mut current = StepState::from(*pos);
    let mut removed_so_far = Bitboard::EMPTY;
    for &to in &path[1..] {
        let offered = offered_jumps(&current);
        let Some(jump) = offered.iter().find(|j| j.to == to) else {
            return Err(format!("single_jumps of {current} does not offer {to}"));
        };
        let next = current
            .apply_action(Action::JumpTo(to))
            .map_err(|e| e.to_string())?;
        let removed: Bitboard = jump.jumped_points().collect();
        removed_so_far |= removed;
        if next.position().men() != current.position().men() - removed
            || removed.count() != u32::from(jump.jumped)
        {
            return Err(format!("apply_jump to {to} removed the wrong men"));
        }
        let StepState::Jump(under_way) = next else {
            return Err(format!(
                "after apply_jump to {to}: the move is not under way"
            ));
        };
        if next.winner().is_some()
            || next.to_move() != pos.to_move()
            || under_way.start() != path[0]
            || under_way.removed() != removed_so_far
        {
            return Err(format!("after apply_jump to {to}: {under_way} is wrong"));
        }
        current = next;
    }
    match current {
        StepState::Jump(jump) => Ok(jump.end()),
        StepState::Move(_) => Err("the path has no jump".to_string()),
    }
}

/// Every position reachable by ending the move after one or more
/// `single_jumps`/`apply_jump` steps.
fn step_by_step_outcomes(state: StepState, out: &mut HashSet<State>) {
    for jump in offered_jumps(&state) {
        let next = state
            .apply_action(Action::JumpTo(jump.to))
            .expect("offered jumps apply");
        let StepState::Jump(under_way) = next else {
            panic!("a jump keeps the move under way");
        };
        out.insert(self::state(&under_way.end()));
        step_by_step_outcomes(next, out);
    }
}

fn mirror_point(pos: &Position, p: Point) -> Point {
    Point::new(pos.size().cols() - 1 - p.col(), p.row()).expect("mirrored points exist")
}

fn flip_point(pos: &Position, p: Point) -> Point {
    Point::new(p.col(), pos.size().rows() + 1 - p.row()).expect("flipped points exist")
}

fn mapped_paths(pos: &Position, map: impl Fn(&Position, Point) -> Point) -> BTreeSet<String> {
    pos.jump_paths()
        .unwrap()
        .iter()
        .map(|m| Move::Jump(m.path().iter().map(|&p| map(pos, p)).collect()).to_string())
        .collect()
}

/// Any point some board could have.
fn any_point() -> impl Strategy<Value = Point> {
    (0u8..25, 0u8..27).prop_map(|(c, r)| Point::new(c, r).expect("in range"))
}

/// A random game: a random start, then up to 12 random legal moves.
fn game() -> impl Strategy<Value = Game> {
    (
        position(),
        prop::collection::vec(any::<Index>(), 0..12),
        prop::option::of(0u32..10),
    )
        .prop_map(|(start, picks, limit)| {
            let mut game = Game::new(start).with_move_limit(limit);
            for pick in picks {
                if game.result() != GameResult::Ongoing {
                    break;
                }
                let moves = game.position().legal_moves().expect("small positions");
                if moves.is_empty() {
                    break;
                }
                let m = moves[pick.index(moves.len())].clone();
                game.push(m).expect("generated moves are legal");
            }
            game
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_path_is_legal_step_by_step_and_play_removes_the_jumped_men(pos in position()) {
        for m in pos.jump_paths().unwrap() {
            let path = m.path();
            let men = replay_by_geometry(&pos, path);
            prop_assert!(men.is_ok(), "{} in {}: {}", m, pos, men.unwrap_err());
            let after = pos.play(&m);
            prop_assert!(after.is_ok(), "enumerated {} is illegal in {}", m, pos);
            let after = after.unwrap();
            prop_assert_eq!(after.men(), men.unwrap());
            prop_assert_eq!(after.ball(), path[path.len() - 1]);
            prop_assert_eq!(after.to_move(), pos.to_move().opponent());
        }
    }

    #[test]
    fn the_hash_after_a_placement_is_the_placed_positions(pos in position()) {
        for p in pos.placement_points() {
            let placed = pos.play(&Move::Place(p)).unwrap();
            prop_assert_eq!(pos.zobrist_after_placement(p), placed.zobrist(), "{} in {}", p, pos);
        }
    }

    #[test]
    fn paths_are_distinct_and_closed_under_prefixes(pos in position()) {
        let paths: Vec<String> = pos.jump_paths().unwrap().iter().map(Move::to_string).collect();
        let set: BTreeSet<&String> = paths.iter().collect();
        prop_assert_eq!(set.len(), paths.len(), "a path is enumerated twice in {}", pos);
        for m in pos.jump_paths().unwrap() {
            for len in 2..m.path().len() {
                let prefix = Move::Jump(m.path()[..len].to_vec()).to_string();
                prop_assert!(set.contains(&prefix), "{} is enumerated but not its prefix {}", m, prefix);
            }
        }
        prop_assert_eq!(pos.count_jump_paths(), paths.len() as u64);
    }

    #[test]
    fn outcomes_are_the_end_positions_of_all_paths(pos in position()) {
        let ends: HashSet<State> = pos.jump_paths().unwrap().iter().map(|m| state(&pos.play(m).unwrap())).collect();
        let outcomes = pos.jump_outcomes().expect("small positions");
        let reached: HashSet<State> = outcomes.iter().map(|m| state(&pos.play(m).unwrap())).collect();
        prop_assert_eq!(reached.len(), outcomes.len(), "two outcome paths reach one position in {}", pos);
        prop_assert_eq!(&reached, &ends);
        prop_assert_eq!(pos.count_jump_outcomes(), Ok(ends.len() as u64));
        let mut visited = 0;
        let _ = pos.for_each_jump_outcome(|_| { visited += 1; core::ops::ControlFlow::Continue(()) });
        prop_assert_eq!(visited, ends.len());
    }

    #[test]
    fn step_by_step_play_reaches_exactly_the_whole_moves(pos in position()) {
        let mut whole = HashSet::new();
        for m in pos.jump_paths().unwrap() {
            let stepped = step_by_step(&pos, m.path());
            prop_assert!(stepped.is_ok(), "{} in {}: {}", m, pos, stepped.unwrap_err());
            let played = pos.play(&m).unwrap();
            prop_assert_eq!(stepped.unwrap(), played);
            whole.insert(state(&played));
        }
        let mut stepped = HashSet::new();
        step_by_step_outcomes(StepState::from(pos), &mut stepped);
        prop_assert_eq!(stepped, whole);
    }

    #[test]
    fn a_move_under_way_allows_only_jumps(pos in position()) {
        for jump in pos.single_jumps() {
            let mid = pos.apply_jump(jump.to).unwrap();
            prop_assert!(!mid.legal_actions().iter().any(|a| matches!(a, Action::Place(_))));
            for p in pos.placement_points() {
                prop_assert_eq!(
                    mid.apply_action(Action::Place(p)),
                    Err(ActionError::Illegal(IllegalMoveError::JumpInProgress))
                );
            }
            let landed_off = pos.size().is_off_board_row(jump.to.row());
            if landed_off && !pos.rules().continue_off_board {
                prop_assert!(mid.single_jumps().is_empty());
                prop_assert_eq!(mid.apply_jump(jump.from), Err(IllegalMoveError::AfterOffBoard(jump.to)));
            }
        }
    }

    #[test]
    fn placements_are_the_vacant_points(pos in position()) {
        let size = pos.size();
        let expected = if pos.is_finished() {
            0
        } else {
            let ball_on_board = u32::from(size.is_on_board(pos.ball()));
            size.num_board_points() - pos.men().count() - ball_on_board
        };
        prop_assert_eq!(pos.placements().len() as u32, expected);
        for m in pos.placements() {
            prop_assert!(pos.is_legal(&m));
        }
    }

    #[test]
    fn mirroring_columns_mirrors_the_paths(pos in position()) {
        let mirrored = pos.mirror_columns();
        prop_assert_eq!(mirrored.mirror_columns(), pos);
        prop_assert_eq!(path_name_set(&mirrored), mapped_paths(&pos, mirror_point));
        prop_assert_eq!(mirrored.count_jump_outcomes(), pos.count_jump_outcomes());
        prop_assert_eq!(mirrored.can_score(), pos.can_score());
        prop_assert_eq!(mirrored.winner(), pos.winner());
    }

    #[test]
    fn flipping_rows_and_sides_flips_the_paths(pos in position()) {
        let flipped = pos.flip_rows();
        prop_assert_eq!(flipped.flip_rows(), pos);
        prop_assert_eq!(flipped.to_move(), pos.to_move().opponent());
        prop_assert_eq!(path_name_set(&flipped), mapped_paths(&pos, flip_point));
        prop_assert_eq!(flipped.count_jump_outcomes(), pos.count_jump_outcomes());
        prop_assert_eq!(flipped.can_score(), pos.can_score());
        prop_assert_eq!(flipped.winner(), pos.winner().map(phutball::Side::opponent));
    }

    #[test]
    fn points_round_trip(p in any_point()) {
        prop_assert_eq!(p.to_string().parse::<Point>(), Ok(p));
        prop_assert_eq!(p.to_string().to_lowercase().parse::<Point>(), Ok(p));
    }

    #[test]
    fn moves_round_trip(points in prop::collection::vec(any_point(), 1..6)) {
        let m = if points.len() == 1 { Move::Place(points[0]) } else { Move::Jump(points) };
        prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
    }

    #[test]
    fn positions_round_trip(pos in position()) {
        let text = pos.to_string();
        prop_assert_eq!(Position::parse_with_rules(&text, pos.rules()), Ok(pos));
        prop_assert_eq!(Position::from_parts(pos.size(), pos.rules(), pos.men(), pos.ball(), pos.to_move()), Ok(pos));
    }

    #[test]
    fn game_records_round_trip(game in game()) {
        let record = game.to_string();
        let read: Result<Game, _> = record.parse();
        prop_assert_eq!(read.as_ref(), Ok(&game), "record:\n{}", record);
        let read = read.unwrap();
        prop_assert_eq!(read.result(), game.result());
        prop_assert_eq!(read.position(), game.position());
    }
}
