//! The tablebase's API: known values, the invariants of every value against
//! its children, the best moves and lines, the file format and each way a
//! file can be damaged, and the budget (time, cancel, work and memory).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

use phutball::{Bitboard, BoardSize, Budget, Interrupt, Point, Position, Rules, SearchError, Side};
use phutball_solver::{
    BuildProgress, SolverError, Tablebase, TablebaseFileError, Value, MAX_TABLEBASE_POINTS,
};
use proptest::prelude::*;

fn size(cols: u8, rows: u8) -> BoardSize {
    BoardSize::new(cols, rows).expect("a size")
}

fn rules(continue_off_board: bool) -> Rules {
    Rules {
        continue_off_board,
        ..Rules::default()
    }
}

fn build(cols: u8, rows: u8, continue_off_board: bool) -> Tablebase {
    Tablebase::build_within(
        size(cols, rows),
        continue_off_board,
        &Budget::default(),
        &mut |_| {},
    )
    .expect("a small build")
}

/// The tables the property tests probe, built once.
fn tables() -> &'static [Tablebase] {
    static TABLES: OnceLock<Vec<Tablebase>> = OnceLock::new();
    TABLES.get_or_init(|| {
        vec![
            build(1, 9, false),
            build(1, 9, true),
            build(3, 4, false),
            build(3, 4, true),
            build(4, 4, false),
            build(2, 6, true),
        ]
    })
}

fn position(text: &str) -> Position {
    text.parse().expect("a position string")
}

#[test]
fn start_1x3_is_a_win_in_three_and_both_replies_lose() {
    let table = build(1, 3, false);
    let start = Position::start_with(size(1, 3), Rules::default()).expect("a start");
    assert_eq!(table.probe(&start), Some(Value::Win { plies: 3 }));
    assert_eq!(table.start_value(), Value::Win { plies: 3 });
    let best = table.best_move(&start).expect("a move");
    assert_eq!(best.to_string(), "A3");
    let after = start.play(&best).expect("legal");
    assert_eq!(table.probe(&after), Some(Value::Loss { plies: 2 }));
    let replies = after.legal_moves().expect("moves");
    assert_eq!(replies.len(), 2);
    for reply in &replies {
        let next = after.play(reply).expect("legal");
        assert!(
            matches!(table.probe(&next), Some(Value::Win { plies: 1 | 0 })),
            "{reply}: {:?}",
            table.probe(&next)
        );
    }
    let line: Vec<String> = table
        .line(&start, 10)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(line, ["A3", "A1", "A2-A4"]);
}

#[test]
fn finished_and_foreign_positions() {
    let table = build(3, 4, false);
    // Ball on Ohs's goal line: Ohs has won, whoever is to move.
    let over = Position::from_parts(
        size(3, 4),
        Rules::default(),
        Bitboard::EMPTY,
        Point::new(1, 4).expect("B4"),
        Side::Eks,
    )
    .expect("a position");
    assert_eq!(table.probe(&over), Some(Value::Loss { plies: 0 }));
    assert_eq!(table.probe(&over.end_turn()), Some(Value::Win { plies: 0 }));
    assert_eq!(table.best_move(&over), None);
    assert!(table.line(&over, 5).is_empty());
    // Another board, another rule: not covered.
    let other = Position::start_with(size(4, 3), Rules::default()).expect("a start");
    assert!(!table.covers(&other));
    assert_eq!(table.probe(&other), None);
    let other_rule = Position::start_with(size(3, 4), rules(true)).expect("a start");
    assert!(!table.covers(&other_rule));
    assert_eq!(table.probe(&other_rule), None);
    assert_eq!(table.best_move(&other_rule), None);
    // The first player and the start point do not matter.
    let eks_first = Rules {
        first_player: Side::Eks,
        ..Rules::default()
    };
    let pos = Position::start_with(size(3, 4), eks_first).expect("a start");
    assert!(table.covers(&pos));
    assert!(table.probe(&pos).is_some());
}

#[test]
fn stats_count_both_sides_of_every_state() {
    let table = build(3, 4, false);
    let stats = table.stats();
    assert_eq!(table.states(), (3 * 2) << 11);
    assert_eq!(stats.positions, 2 * table.states());
    assert_eq!(stats.wins + stats.losses + stats.draws, stats.positions);
    assert!(stats.longest_win > 0 && stats.longest_loss > 0);
    assert_eq!(
        Tablebase::memory_needed(size(3, 4)),
        Some(12_288 + 12_288 / 8)
    );
    assert!(
        stats.to_string().starts_with("24576 positions: "),
        "{stats}"
    );
}

#[test]
fn the_job_count_does_not_change_the_values() {
    for continue_off_board in [false, true] {
        let tables: Vec<Tablebase> = [1, 2, 3]
            .iter()
            .map(|&jobs| {
                Tablebase::build_with_jobs_within(
                    size(3, 4),
                    continue_off_board,
                    jobs,
                    &Budget::default(),
                    &mut |_| {},
                )
                .expect("a small build")
            })
            .collect();
        assert_eq!(tables[0], tables[1]);
        assert_eq!(tables[0], tables[2]);
    }
}

#[test]
fn progress_is_reported_and_adds_up() {
    let mut reports: Vec<BuildProgress> = Vec::new();
    let table = Tablebase::build_within(size(4, 4), false, &Budget::default(), &mut |p| {
        reports.push(p.clone());
    })
    .expect("a small build");
    assert!(reports.len() >= 3, "{} reports", reports.len());
    let last = reports.last().expect("reports");
    assert_eq!(last.states, table.states());
    assert_eq!(last.done, last.states);
    let stats = table.stats();
    assert_eq!(last.resolved * 2, stats.wins + stats.losses);
    assert!(reports.windows(2).all(|w| w[0].round <= w[1].round));
    // The last round decided nothing.
    assert_eq!(last.resolved_this_round, 0);
    assert_eq!(last.round, stats.longest_win.max(stats.longest_loss) + 1);
}

#[test]
fn boards_past_the_largest_are_refused() {
    let err =
        Tablebase::build_within(size(6, 6), false, &Budget::unlimited(), &mut |_| {}).unwrap_err();
    assert_eq!(
        err,
        SolverError::BoardTooLarge {
            cols: 6,
            rows: 6,
            points: 36,
            max: MAX_TABLEBASE_POINTS
        }
    );
    assert_eq!(Tablebase::memory_needed(size(6, 6)), None);
}

#[test]
fn a_memory_limit_below_the_table_fails_before_allocating() {
    let needed = Tablebase::memory_needed(size(4, 4)).expect("a small board");
    let budget = Budget::default().with_memory_limit(needed - 1);
    let err = Tablebase::build_within(size(4, 4), false, &budget, &mut |_| {}).unwrap_err();
    assert!(
        matches!(err, SolverError::Search(SearchError::MemoryLimit { limit, .. }) if limit == needed - 1),
        "{err:?}"
    );
    // The table fits, but not the jump walks' sets.
    let budget = Budget::default().with_memory_limit(needed + 1000);
    let err = Tablebase::build_within(size(4, 4), false, &budget, &mut |_| {}).unwrap_err();
    assert!(
        matches!(err, SolverError::Search(SearchError::MemoryLimit { what, .. }) if what.contains("walk")),
        "{err:?}"
    );
    // Enough for both.
    let budget = Budget::default().with_memory_limit(needed + (1 << 20));
    assert!(Tablebase::build_with_jobs_within(size(4, 4), false, 1, &budget, &mut |_| {}).is_ok());
}

#[test]
fn jobs_past_what_the_cores_and_the_memory_hold_run_on_fewer_threads() {
    let threads_run = |budget: &Budget<'_>| {
        let mut threads = 0;
        let table = Tablebase::build_with_jobs_within(size(3, 4), false, 256, budget, &mut |p| {
            threads = p.threads;
        })
        .expect("the build runs on the threads that fit");
        (threads, table)
    };
    let (free, table) = threads_run(&Budget::default());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    assert!(
        (1..=4 * cores).contains(&free),
        "{free} threads on {cores} cores"
    );
    // Room for the table and one walk: 256 jobs asked, one thread run,
    // where 256 walks used to fail the build.
    let needed = Tablebase::memory_needed(size(3, 4)).expect("a small board");
    let (tight, tight_table) =
        threads_run(&Budget::default().with_memory_limit(needed + (1 << 20)));
    assert_eq!(tight, 1);
    assert_eq!(tight_table, table);
}

#[test]
fn a_deadline_a_cancel_and_a_work_limit_stop_the_build() {
    // A deadline already passed: no work at all.
    let passed = || Some(Interrupt::TimedOut);
    let budget = Budget::default().with_interrupt(&passed);
    let err = Tablebase::build_within(size(4, 4), false, &budget, &mut |_| {}).unwrap_err();
    assert_eq!(err, SolverError::Search(SearchError::TimedOut));
    // A deadline that passes during the build: the hook is polled often.
    let polls = AtomicUsize::new(0);
    let later = || (polls.fetch_add(1, Ordering::Relaxed) >= 20).then_some(Interrupt::TimedOut);
    let budget = Budget::default().with_interrupt(&later);
    let err = Tablebase::build_within(size(4, 5), false, &budget, &mut |_| {}).unwrap_err();
    assert_eq!(err, SolverError::Search(SearchError::TimedOut));
    assert!(polls.load(Ordering::Relaxed) < 100, "stopped soon after");
    // A cancel flag set from the progress hook (as another thread would).
    let cancel = AtomicBool::new(false);
    let budget = Budget::default().with_cancel_flag(&cancel);
    let mut reports = 0;
    let err = Tablebase::build_within(size(4, 5), false, &budget, &mut |_| {
        reports += 1;
        cancel.store(true, Ordering::Relaxed);
    })
    .unwrap_err();
    assert_eq!(err, SolverError::Search(SearchError::Cancelled));
    assert_eq!(reports, 1, "no report after the cancel");
    // A work limit: states gone through.
    let budget = Budget::default().with_work_limit(10_000);
    let err = Tablebase::build_within(size(4, 4), false, &budget, &mut |_| {}).unwrap_err();
    assert_eq!(
        err,
        SolverError::Search(SearchError::WorkLimit { limit: 10_000 })
    );
}

#[test]
fn files_round_trip() {
    for table in tables() {
        let bytes = table.to_bytes();
        assert_eq!(bytes.len() as u64, 32 + table.states());
        let read = Tablebase::from_bytes(&bytes).expect("its own file");
        assert_eq!(&read, table);
        assert_eq!(read.stats(), table.stats());
        assert_eq!(read.continue_off_board(), table.continue_off_board());
        assert_eq!(read.to_bytes(), bytes);
    }
}

/// `bytes` with its checksum made right again (bytes 24-31: FNV-1a of
/// bytes 0-23 and of the values).
fn rechecksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, &byte) in bytes.iter().enumerate() {
        if (24..32).contains(&i) {
            continue;
        }
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    bytes[24..32].copy_from_slice(&hash.to_le_bytes());
    bytes
}

#[test]
fn each_kind_of_damage_is_its_own_error() {
    let good = build(1, 5, false).to_bytes();
    let damaged = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = good.clone();
        f(&mut bytes);
        Tablebase::from_bytes(&bytes).unwrap_err()
    };
    assert_eq!(
        damaged(&|b| b.truncate(31)),
        TablebaseFileError::TooShort { len: 31 }
    );
    assert_eq!(
        Tablebase::from_bytes(&[]).unwrap_err(),
        TablebaseFileError::TooShort { len: 0 }
    );
    assert_eq!(damaged(&|b| b[0] = b'X'), TablebaseFileError::BadMagic);
    assert_eq!(damaged(&|b| b[6] = b'\n'), TablebaseFileError::BadMagic);
    assert_eq!(
        damaged(&|b| b[8] = 2),
        TablebaseFileError::UnsupportedVersion { version: 2 }
    );
    assert_eq!(
        damaged(&|b| b[10] = 0),
        TablebaseFileError::BadBoard { cols: 0, rows: 5 }
    );
    assert_eq!(
        damaged(&|b| (b[10], b[11]) = (6, 6)),
        TablebaseFileError::BadBoard { cols: 6, rows: 6 }
    );
    assert_eq!(
        damaged(&|b| b[12] = 2),
        TablebaseFileError::BadFlags {
            bytes: [2, 0, 0, 0]
        }
    );
    assert_eq!(
        damaged(&|b| b[15] = 1),
        TablebaseFileError::BadFlags {
            bytes: [0, 0, 0, 1]
        }
    );
    assert!(matches!(
        damaged(&|b| b[16] = 99),
        TablebaseFileError::WrongStateCount {
            expected: 48,
            found: 99,
            ..
        }
    ));
    // Values cut short, or followed by more bytes.
    assert!(matches!(
        damaged(&|b| b.truncate(79)),
        TablebaseFileError::WrongLength {
            expected: 80,
            found: 79
        }
    ));
    assert!(matches!(
        damaged(&|b| b.push(0)),
        TablebaseFileError::WrongLength {
            expected: 80,
            found: 81
        }
    ));
    assert!(matches!(
        damaged(&|b| b[40] ^= 2),
        TablebaseFileError::BadChecksum { .. }
    ));
    // The rule flag is under the checksum too.
    assert!(matches!(
        damaged(&|b| b[12] = 1),
        TablebaseFileError::BadChecksum { .. }
    ));
    // A byte that is no value, checksummed again: still refused.
    let mut bytes = good.clone();
    bytes[32 + 7] = 255;
    assert_eq!(
        Tablebase::from_bytes(&rechecksum(bytes)).unwrap_err(),
        TablebaseFileError::BadValue {
            index: 7,
            code: 255
        }
    );
    // The checksum helper agrees with the writer.
    assert_eq!(rechecksum(good.clone()), good);
    // Every message says what is wrong.
    let message = damaged(&|b| b[0] = b'X').to_string();
    assert!(message.contains("not a tablebase file"), "{message}");
}

/// The rank of a value for the side that has it, as a best move chooses.
fn rank(value: Value) -> (u8, i64) {
    match value {
        Value::Win { plies } => (2, -i64::from(plies)),
        Value::Draw => (1, 0),
        Value::Loss { plies } => (0, i64::from(plies)),
    }
}

/// Whether the value of `pos` (not over) agrees with its children's, by
/// the core's moves: `Win(n)` has a child `Loss(n - 1)` and none shorter,
/// `Loss(n)` only children won, the longest in `n - 1`, a draw no child
/// lost and some child drawn; and its mirror image has the same value.
/// A table in which every position agrees is the true one (by induction
/// on the plies: what is decided in fewer than `n` plies is right, then so
/// is what is decided in `n`; the rest are draws on both sides).
fn agrees_with_children(table: &Tablebase, pos: &Position) -> Result<(), String> {
    let value = table.probe(pos).ok_or("not covered")?;
    let mut fastest_loss = None;
    let mut longest_win = None;
    let (mut all_won, mut some_drawn, mut children) = (true, false, 0);
    for m in pos.legal_moves().map_err(|e| e.to_string())? {
        let child = pos.play(&m).map_err(|e| e.to_string())?;
        children += 1;
        match table.probe(&child).ok_or("a child not covered")? {
            Value::Loss { plies } => {
                fastest_loss = Some(fastest_loss.map_or(plies, |f: u32| f.min(plies)));
                all_won = false;
            }
            Value::Win { plies } => longest_win = longest_win.max(Some(plies)),
            Value::Draw => {
                some_drawn = true;
                all_won = false;
            }
        }
    }
    let agrees = children > 0
        && match value {
            Value::Win { plies } => fastest_loss == Some(plies - 1),
            Value::Loss { plies } => all_won && longest_win == Some(plies - 1),
            Value::Draw => fastest_loss.is_none() && some_drawn,
        };
    if !agrees {
        return Err(format!("{pos}: {value:?} against its children"));
    }
    if table.probe(&pos.flip_rows()) != Some(value) {
        return Err(format!("{pos}: {value:?}, its mirror image differs"));
    }
    Ok(())
}

/// The points of `size` off the goal lines: where the ball is in a
/// position not over.
fn interior(size: BoardSize) -> Vec<Point> {
    size.board_points()
        .iter()
        .filter(|p| size.scorer_at_row(p.row()).is_none())
        .collect()
}

/// Every position not over of `table`'s board with `to_move` to move and
/// the ball on `ball`.
fn positions_with_ball(
    table: &Tablebase,
    ball: Point,
    to_move: Side,
) -> impl Iterator<Item = Position> + '_ {
    let size = table.size();
    let points: Vec<Point> = size.board_points().iter().filter(|&p| p != ball).collect();
    let rules = rules(table.continue_off_board());
    (0u64..1 << points.len()).map(move |mask| {
        let men: Bitboard = points
            .iter()
            .enumerate()
            .filter(|&(i, _)| mask >> i & 1 != 0)
            .map(|(_, &p)| p)
            .collect();
        Position::from_parts(size, rules, men, ball, to_move).expect("a position")
    })
}

/// The draws' part of the check below, cheap enough for every `cargo
/// test` (about 25 s at the tests' opt-level 1 on 2 cores): every draw of
/// 3x7 (the smallest board with draws) and every child not over of one
/// agrees with its children, under both rules. That runs each draw branch
/// of the build (an undecided state left a draw) and of the check (a draw
/// no child lost and some child drawn; a win or a draw beside one).
#[test]
fn every_draw_of_3x7_and_its_children_agree_with_their_children() {
    for continue_off_board in [false, true] {
        let table = build(3, 7, continue_off_board);
        let balls = interior(table.size());
        // Ohs to move: Eks's positions are their mirror images, which the
        // check probes too.
        let draws: Vec<Position> = std::thread::scope(|scope| {
            let table = &table;
            let halves: Vec<_> = balls
                .chunks(balls.len().div_ceil(2))
                .map(|half| {
                    scope.spawn(move || {
                        half.iter()
                            .flat_map(|&ball| positions_with_ball(table, ball, Side::Ohs))
                            .filter(|pos| table.probe(pos) == Some(Value::Draw))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            halves
                .into_iter()
                .flat_map(|half| half.join().expect("a scan"))
                .collect()
        });
        assert!(
            !draws.is_empty(),
            "3x7 has draws (rule {continue_off_board})"
        );
        assert_eq!(2 * draws.len() as u64, table.stats().draws);
        let mut checked = 0;
        for draw in &draws {
            agrees_with_children(&table, draw)
                .unwrap_or_else(|e| panic!("continue_off_board={continue_off_board}: {e}"));
            for m in draw.legal_moves().expect("moves") {
                let child = draw.play(&m).expect("legal");
                if child.winner().is_none() {
                    agrees_with_children(&table, &child)
                        .unwrap_or_else(|e| panic!("continue_off_board={continue_off_board}: {e}"));
                    checked += 1;
                }
            }
        }
        assert!(checked > draws.len(), "{checked} children checked");
    }
}

/// Release only (4 minutes of CPU): `cargo test --release -p
/// phutball-solver --test tablebase -- --ignored`. 3x7 is the smallest
/// board found with draws (64 positions under the stop rule, 172 under
/// the other); every one of its 31 million positions, both sides to move,
/// agrees with its children by the core's moves, which proves the table
/// right, draws included (the exhaustive reference's boards have none).
#[test]
#[ignore = "4 minutes of CPU in release; every draw of 3x7 is checked in the test command"]
fn every_position_of_3x7_agrees_with_its_children() {
    for continue_off_board in [false, true] {
        let table = build(3, 7, continue_off_board);
        assert!(table.stats().draws > 0, "3x7 has draws");
        let balls = interior(table.size());
        let draws = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for half in balls.chunks(balls.len().div_ceil(2)) {
                let (table, draws) = (&table, &draws);
                scope.spawn(move || {
                    for &ball in half {
                        for to_move in Side::ALL {
                            for pos in positions_with_ball(table, ball, to_move) {
                                if let Err(e) = agrees_with_children(table, &pos) {
                                    panic!("continue_off_board={continue_off_board}: {e}");
                                }
                                if table.probe(&pos) == Some(Value::Draw) {
                                    draws.fetch_add(1, Ordering::Relaxed);
                                }
                            }
                        }
                    }
                });
            }
        });
        assert_eq!(draws.load(Ordering::Relaxed) as u64, table.stats().draws);
    }
}

/// A random position not over of one of [`tables`], and its table.
fn table_and_position() -> impl Strategy<Value = (usize, Position)> {
    (0..tables().len(), any::<u64>(), any::<u64>(), any::<bool>()).prop_map(
        |(t, ball_draw, men, eks)| {
            let table = &tables()[t];
            let size = table.size();
            let interior: Vec<Point> = size
                .board_points()
                .iter()
                .filter(|p| size.scorer_at_row(p.row()).is_none())
                .collect();
            let ball = interior[(ball_draw % interior.len() as u64) as usize];
            let men: Bitboard = size
                .board_points()
                .iter()
                .enumerate()
                .filter(|&(i, p)| men >> i & 1 != 0 && p != ball)
                .map(|(_, p)| p)
                .collect();
            let to_move = if eks { Side::Eks } else { Side::Ohs };
            let pos =
                Position::from_parts(size, rules(table.continue_off_board()), men, ball, to_move)
                    .expect("a position");
            (t, pos)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Win(n): a child lost in n - 1 and none lost sooner; Loss(n): every
    /// child won, the longest in n - 1; Draw: no child lost, some child drawn.
    #[test]
    fn every_value_agrees_with_its_children((t, pos) in table_and_position()) {
        let table = &tables()[t];
        if let Err(e) = agrees_with_children(table, &pos) {
            return Err(TestCaseError::fail(e));
        }
    }

    /// The best move keeps the value, no move is better, and the line of
    /// a win or a loss ends the game in exactly its plies.
    #[test]
    fn best_moves_and_lines_keep_the_value((t, pos) in table_and_position()) {
        let table = &tables()[t];
        let value = table.probe(&pos).expect("covered");
        let best = table.best_move(&pos).expect("a move");
        let after = pos.play(&best).expect("legal");
        prop_assert_eq!(table.probe(&after).map(Value::parent), Some(value));
        for m in pos.legal_moves().expect("moves") {
            let v = table.probe(&pos.play(&m).expect("legal")).expect("covered").parent();
            prop_assert!(rank(v) <= rank(value), "{} is better than {} in {}", m, best, pos);
        }
        let line = table.line(&pos, 300);
        let mut end = pos;
        for m in &line {
            end = end.play(m).expect("the line is legal");
        }
        match value {
            Value::Win { plies } | Value::Loss { plies } => {
                prop_assert_eq!(line.len() as u32, plies);
                prop_assert!(end.is_finished());
                let winner = if matches!(value, Value::Win { .. }) {
                    pos.to_move()
                } else {
                    pos.to_move().opponent()
                };
                prop_assert_eq!(end.winner(), Some(winner));
            }
            Value::Draw => {
                prop_assert_eq!(line.len(), 300);
                prop_assert_eq!(table.probe(&end), Some(Value::Draw));
            }
        }
    }
}

#[test]
fn a_known_position_of_3x4() {
    // Ball B2, men B3 and B4 ahead of it: Ohs jumps both and lands over the goal.
    let table = &tables()[2];
    let pos = position("1#1/1#1/1@1/3 O");
    assert_eq!(table.probe(&pos), Some(Value::Win { plies: 1 }));
    assert_eq!(
        table.best_move(&pos).map(|m| m.to_string()),
        Some("B2-B5".to_string())
    );
}

/// `position` numbers every position the table values once (their values
/// add up to the stats), and a move keeps a value (`Value::is_kept_by`)
/// exactly when it ranks with the best move's, or wins when the best does:
/// the rule the exact-accuracy figure of `phutball.rl` counts by.
#[test]
fn positions_are_numbered_once_and_kept_values_follow_the_best_moves() {
    for table in tables().iter().filter(|t| t.stats().positions <= 40_000) {
        let stats = table.stats();
        let mut seen = std::collections::HashSet::new();
        let (mut wins, mut draws, mut not_kept) = (0, 0, 0);
        for index in 0..stats.positions {
            let pos = table.position(index).expect("a position below the count");
            assert!(seen.insert(pos.to_string()), "{pos} numbered twice");
            let value = table.probe(&pos).expect("covered");
            wins += u64::from(matches!(value, Value::Win { .. }));
            draws += u64::from(value == Value::Draw);
            let best = table.best_move(&pos).expect("a move");
            let best_rank = rank(table.probe(&pos.play(&best).unwrap()).unwrap().parent());
            for m in pos.legal_moves().expect("a small board's moves") {
                let child = table.probe(&pos.play(&m).unwrap()).unwrap();
                let expected = match (value, child.parent()) {
                    (Value::Win { .. }, Value::Win { .. }) => true,
                    (_, after) => rank(after) == best_rank,
                };
                assert_eq!(value.is_kept_by(child), expected, "{pos} {m}");
                not_kept += u64::from(!expected);
            }
        }
        assert_eq!((wins, draws), (stats.wins, stats.draws), "{table:?}");
        assert_eq!(table.position(stats.positions), None);
        assert!(not_kept > 0, "{table:?}: every move kept its value");
    }
}
