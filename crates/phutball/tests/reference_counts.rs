//! The published reference figures: the benchmark positions' path, outcome
//! and can-score counts (`benches/data/*.expected`) and perft from the start
//! (`benches/data/README.md`).

use phutball::{perft, Position, Side};

const JUMPS_POS: &str = include_str!("../../../benches/data/jumps-24.pos");
const JUMPS_EXPECTED: &str = include_str!("../../../benches/data/jumps-24.expected");
const SCORE_POS: &str = include_str!("../../../benches/data/score-16.pos");
const SCORE_EXPECTED: &str = include_str!("../../../benches/data/score-16.expected");

/// One line of an `.expected` file: `<paths> <outcomes> <can-score 0|1>`.
#[derive(Debug, PartialEq, Eq)]
struct Figures {
    paths: u64,
    outcomes: u64,
    can_score: bool,
}

fn expected_figures(text: &str) -> Vec<Figures> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "malformed expected line {line:?}");
            Figures {
                paths: fields[0].parse().unwrap(),
                outcomes: fields[1].parse().unwrap(),
                can_score: match fields[2] {
                    "1" => true,
                    "0" => false,
                    other => panic!("can-score must be 0 or 1, not {other:?}"),
                },
            }
        })
        .collect()
}

fn positions(text: &str) -> Vec<Position> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.parse().unwrap())
        .collect()
}

/// Checks every position of a benchmark file against its expected figures,
/// and that each claimed scoring jump really scores for the side to move.
fn check_file(pos_text: &str, expected_text: &str, count: usize) {
    let positions = positions(pos_text);
    let expected = expected_figures(expected_text);
    assert_eq!(positions.len(), count);
    assert_eq!(expected.len(), count);
    for (i, (pos, want)) in positions.iter().zip(&expected).enumerate() {
        let found = Figures {
            paths: pos.count_jump_paths(),
            outcomes: pos.count_jump_outcomes().unwrap(),
            can_score: pos.can_score(),
        };
        assert_eq!(&found, want, "line {}: {pos}", i + 1);
        match pos.scoring_jump() {
            Some(m) => {
                let after = pos.play(&m).unwrap();
                assert_eq!(after.winner(), Some(pos.to_move()), "line {}: {m}", i + 1);
            }
            None => assert!(!want.can_score, "line {}: no scoring jump found", i + 1),
        }
    }
}

#[test]
fn jumps_24_matches_its_expected_counts() {
    check_file(JUMPS_POS, JUMPS_EXPECTED, 24);
}

#[test]
fn score_16_matches_its_expected_counts() {
    check_file(SCORE_POS, SCORE_EXPECTED, 16);
    // Half of the positions can score and half cannot, and both sides move in some.
    let expected = expected_figures(SCORE_EXPECTED);
    assert_eq!(expected.iter().filter(|f| f.can_score).count(), 8);
    let movers: Vec<Side> = positions(SCORE_POS).iter().map(Position::to_move).collect();
    assert!(movers.contains(&Side::Ohs) && movers.contains(&Side::Eks));
}

#[test]
fn perft_from_the_start() {
    let start = Position::standard();
    assert_eq!(perft(&start, 0), Ok(1));
    assert_eq!(perft(&start, 1), Ok(284));
    assert_eq!(perft(&start, 2), Ok(80_380));
}

// About 1.3 s in a debug build on the project machine, 0.25 s in release.
#[test]
fn perft_3_from_the_start() {
    assert_eq!(perft(&Position::standard(), 3), Ok(22_671_816));
}
