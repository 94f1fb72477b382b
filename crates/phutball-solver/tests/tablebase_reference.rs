//! The tablebase against a deliberately simple reference on every position
//! of small boards: the values by their definition, round after round over
//! every position (both sides to move, no symmetry used), from the core's
//! `legal_moves_within` + `play` + `winner` alone.

use phutball::{Bitboard, BoardSize, Budget, Point, Position, Rules, Side};
use phutball_solver::{Tablebase, Value};

/// A child of a position in the reference's graph.
#[derive(Copy, Clone)]
enum Child {
    /// The game is over after the move: the child's value for its side to move.
    Over(Value),
    /// A position not over, by its index.
    Open(usize),
}

/// Every position of one board under one rule, indexed by side to move,
/// ball point and men mask over the board's points in the core's order.
struct Reference {
    points: Vec<Point>,
    rules: Rules,
    size: BoardSize,
    /// `None` where the index is no position not over (ball on a man, on a
    /// goal line).
    positions: Vec<Option<Position>>,
    /// The place in `points` of each point, by `Point::index`.
    place: Vec<usize>,
}

impl Reference {
    fn new(size: BoardSize, continue_off_board: bool) -> Reference {
        let points: Vec<Point> = size.board_points().iter().collect();
        let rules = Rules {
            continue_off_board,
            ..Rules::default()
        };
        let mut reference = Reference {
            points,
            rules,
            size,
            positions: Vec::new(),
            place: vec![usize::MAX; 1024],
        };
        for (i, p) in reference.points.iter().enumerate() {
            reference.place[p.index()] = i;
        }
        let n = reference.points.len();
        reference.positions = (0..(2 * n) << n).map(|i| reference.position(i)).collect();
        reference
    }

    /// The position of `index`, if it is one not over.
    fn position(&self, index: usize) -> Option<Position> {
        let n = self.points.len();
        let mask = index & ((1 << n) - 1);
        let ball = (index >> n) % n;
        let side = if (index >> n) / n == 0 {
            Side::Ohs
        } else {
            Side::Eks
        };
        if mask >> ball & 1 != 0 {
            return None;
        }
        let men: Bitboard = (0..n)
            .filter(|i| mask >> i & 1 != 0)
            .map(|i| self.points[i])
            .collect();
        let pos = Position::from_parts(self.size, self.rules, men, self.points[ball], side)
            .expect("a valid position");
        (!pos.is_finished()).then_some(pos)
    }

    /// The index of a position not over.
    fn index(&self, pos: &Position) -> usize {
        let n = self.points.len();
        let mask = pos
            .men()
            .iter()
            .fold(0, |mask, p| mask | 1 << self.place[p.index()]);
        let ball = self.place[pos.ball().index()];
        let side = usize::from(pos.to_move() == Side::Eks);
        ((side * n + ball) << n) | mask
    }

    /// The children of every position, by the core's moves.
    fn graph(&self) -> Vec<Vec<Child>> {
        self.positions
            .iter()
            .map(|pos| match pos {
                None => Vec::new(),
                Some(pos) => pos
                    .legal_moves_within(&Budget::unlimited())
                    .expect("small boards have few moves")
                    .iter()
                    .map(|m| {
                        let child = pos.play(m).expect("legal moves play");
                        match child.winner() {
                            Some(w) if w == child.to_move() => Child::Over(Value::Win { plies: 0 }),
                            Some(_) => Child::Over(Value::Loss { plies: 0 }),
                            None => Child::Open(self.index(&child)),
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// The values by definition: in round `k`, a position with a child lost
    /// in `k - 1` wins in `k`; one whose children are all wins, the longest
    /// in `k - 1`, loses in `k`; a round that decides nothing is the last,
    /// and the rest are draws.
    fn values(&self) -> Vec<Option<Value>> {
        let graph = self.graph();
        let mut values: Vec<Option<Value>> = vec![None; graph.len()];
        let value_of = |values: &[Option<Value>], child: &Child| match child {
            Child::Over(v) => Some(*v),
            Child::Open(i) => values[*i],
        };
        // The positions not decided yet.
        let mut open: Vec<usize> = (0..graph.len())
            .filter(|&i| self.positions[i].is_some())
            .collect();
        for round in 1u32.. {
            let mut decided = Vec::new();
            open.retain(|&index| {
                let known = graph[index].iter().map(|c| value_of(&values, c));
                let lost_before = Some(Value::Loss { plies: round - 1 });
                let won_before = Some(Value::Win { plies: round - 1 });
                if known.clone().any(|v| v == lost_before) {
                    decided.push((index, Value::Win { plies: round }));
                } else if known.clone().all(|v| matches!(v, Some(Value::Win { .. })))
                    && known.clone().any(|v| v == won_before)
                {
                    decided.push((index, Value::Loss { plies: round }));
                } else {
                    return true;
                }
                false
            });
            if decided.is_empty() {
                break;
            }
            for (index, value) in decided {
                values[index] = Some(value);
            }
        }
        values
            .iter()
            .zip(&self.positions)
            .map(|(v, pos)| pos.map(|_| v.unwrap_or(Value::Draw)))
            .collect()
    }
}

/// Builds the tablebase and compares it with the reference on every
/// position not over, and with the rules on every finished one.
fn check(cols: u8, rows: u8, continue_off_board: bool) {
    let size = BoardSize::new(cols, rows).expect("a size");
    let reference = Reference::new(size, continue_off_board);
    let expected = reference.values();
    let table =
        Tablebase::build_within(size, continue_off_board, &Budget::unlimited(), &mut |_| {})
            .expect("the build fits");
    let mut counts = [0u64; 3];
    for (index, value) in expected.iter().enumerate() {
        let Some(value) = value else { continue };
        let pos = reference.positions[index].expect("a position");
        assert_eq!(
            table.probe(&pos),
            Some(*value),
            "{cols}x{rows} continue_off_board={continue_off_board}: {pos}"
        );
        counts[match value {
            Value::Win { .. } => 0,
            Value::Loss { .. } => 1,
            Value::Draw => 2,
        }] += 1;
    }
    let stats = table.stats();
    assert_eq!(
        [stats.wins, stats.losses, stats.draws],
        counts,
        "{cols}x{rows} continue_off_board={continue_off_board}"
    );
    // Finished positions: the ball on a goal line or a strip.
    for col in 0..cols {
        for row in [0, 1, rows, rows + 1] {
            let ball = Point::new(col, row).expect("a point");
            for side in Side::ALL {
                let rules = Rules {
                    continue_off_board,
                    ..Rules::default()
                };
                let pos = Position::from_parts(size, rules, Bitboard::EMPTY, ball, side)
                    .expect("a position");
                let expected = if pos.winner() == Some(side) {
                    Value::Win { plies: 0 }
                } else {
                    Value::Loss { plies: 0 }
                };
                assert_eq!(table.probe(&pos), Some(expected), "{pos}");
            }
        }
    }
}

#[test]
fn one_column_boards_3_to_12() {
    for rows in 3..=12 {
        for continue_off_board in [false, true] {
            check(1, rows, continue_off_board);
        }
    }
}

#[test]
fn board_3x3() {
    check(3, 3, false);
    check(3, 3, true);
}

#[test]
fn board_3x4() {
    check(3, 4, false);
    check(3, 4, true);
}

#[test]
fn board_4x4_stopping_off_board() {
    check(4, 4, false);
}

#[test]
fn board_4x4_continuing_off_board() {
    check(4, 4, true);
}
