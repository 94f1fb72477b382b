//! The prover (search alone, and with its tablebase), the engine's `solve`
//! and the tablebase agree on generated positions of tiny boards.

use std::time::Duration;

use phutball::{BoardSize, Budget, Position, Rules, SplitMix64};
use phutball_engine::{solve, Solution};
use phutball_solver::{prove_with_tablebase_within, prove_within, Tablebase, Value};

/// A random position of `size` reached by up to 8 random moves from its
/// start, not finished.
fn random_position(rng: &mut SplitMix64, size: BoardSize, continue_off_board: bool) -> Position {
    let rules = Rules {
        continue_off_board,
        ..Rules::default()
    };
    let mut pos = Position::start_with(size, rules).unwrap();
    for _ in 0..rng.below(9) {
        let moves = pos.legal_moves().unwrap();
        let next = pos.play(&moves[rng.below(moves.len())]).unwrap();
        if next.is_finished() {
            break;
        }
        pos = next;
    }
    pos
}

/// Whether a proved value agrees with the table's exact one: the same side
/// wins, within at least as many plies (a proof's line is no shorter than
/// the shortest win; the loser's longest resistance is no longer than the
/// proof's longest line).
fn agrees(proved: Value, exact: Value) -> bool {
    match (proved, exact) {
        (Value::Win { plies: p }, Value::Win { plies: e })
        | (Value::Loss { plies: p }, Value::Loss { plies: e }) => e <= p,
        (Value::Draw, Value::Draw) => true,
        _ => false,
    }
}

#[test]
fn prover_solve_and_tablebase_agree_on_tiny_boards() {
    let mut rng = SplitMix64::new(2026);
    let mut compared = [0usize; 3];
    for (cols, rows) in [(1, 5), (1, 8), (1, 11), (3, 3), (3, 4), (4, 4)] {
        for continue_off_board in [false, true] {
            let size = BoardSize::new(cols, rows).unwrap();
            let table =
                Tablebase::build_within(size, continue_off_board, &Budget::default(), &mut |_| {})
                    .unwrap();
            for _ in 0..12 {
                let pos = random_position(&mut rng, size, continue_off_board);
                let exact = table.probe(&pos).unwrap();
                let budget = Budget::default().with_work_limit(20_000);
                // The search alone: never a wrong side, never a claim on a draw.
                let searched = prove_with_tablebase_within(&pos, &budget, None).unwrap();
                if let Some(v) = searched.value {
                    assert!(agrees(v, exact), "{pos}: search {v}, table {exact}");
                    // Claimed exact (a win in 1, a loss in 2) only when it is.
                    assert!(
                        !searched.exact || v == exact,
                        "{pos}: search {v}, table {exact}"
                    );
                    compared[0] += 1;
                }
                // With the table: exactly its value, and a certificate for a win or loss.
                let with_table = prove_with_tablebase_within(&pos, &budget, Some(&table)).unwrap();
                assert_eq!(with_table.value, Some(exact), "{pos}");
                assert_eq!(
                    with_table.certificate.is_some(),
                    exact != Value::Draw,
                    "{pos}"
                );
                assert!(with_table.exact, "{pos}");
                // prove_within builds its own table on boards this small,
                // when its budget allows the build; the search's bound otherwise.
                let auto = prove_within(&pos, &budget).unwrap();
                match auto.value {
                    Some(v) if auto.exact => assert_eq!(v, exact, "{pos}"),
                    Some(v) => assert!(agrees(v, exact), "{pos}: {v}, table {exact}"),
                    None => {}
                }
                if size.num_board_points() <= phutball_solver::AUTO_TABLEBASE_POINTS {
                    let auto = prove_within(&pos, &Budget::default()).unwrap();
                    assert_eq!((auto.value, auto.exact), (Some(exact), true), "{pos}");
                }
                compared[1] += 1;
                // The engine's solve.
                let solved = solve(&pos, Duration::from_secs(5), &Budget::default()).unwrap();
                let v = match solved {
                    Solution::Win { plies, .. } => Some(Value::Win { plies }),
                    Solution::Loss { plies, .. } => Some(Value::Loss { plies }),
                    Solution::Draw => Some(Value::Draw),
                    Solution::Unknown => None,
                };
                if let Some(v) = v {
                    assert!(agrees(v, exact), "{pos}: solve {v}, table {exact}");
                    compared[2] += 1;
                }
            }
        }
    }
    assert!(
        compared[0] >= 60 && compared[2] >= 100,
        "too few compared: {compared:?}"
    );
}
