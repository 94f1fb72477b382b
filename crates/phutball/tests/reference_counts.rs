//! The published reference figures (`tests/data/*.fixture`): the benchmark
//! positions' path, outcome and can-score counts and perft from the start.

use phutball::fixtures::{self, Fixture, ScoreFigure};
use phutball::{perft, Side};

fn records(text: &str) -> Vec<Fixture> {
    fixtures::parse(text).expect("the fixture file reads")
}

/// Checks every record of a benchmark file against its figures (each must
/// give all three), and that each claimed scoring jump really scores for
/// the side to move.
fn check_file(text: &str, count: usize) -> Vec<Fixture> {
    let records = records(text);
    assert_eq!(records.len(), count);
    for record in &records {
        let (pos, line) = (&record.position, record.line);
        let can_score = record.score.and_then(ScoreFigure::known);
        assert!(
            record.paths.is_some() && record.outcomes.is_some(),
            "line {line}"
        );
        assert!(can_score.is_some(), "line {line}: a decided score figure");
        assert_eq!(
            Some(pos.count_jump_paths()),
            record.paths,
            "line {line}: {pos}"
        );
        assert_eq!(
            pos.count_jump_outcomes().ok(),
            record.outcomes,
            "line {line}"
        );
        assert_eq!(Some(pos.can_score()), can_score, "line {line}: {pos}");
        match pos.scoring_jump() {
            Some(m) => {
                let after = pos.play(&m).unwrap();
                assert_eq!(after.winner(), Some(pos.to_move()), "line {line}: {m}");
            }
            None => assert_eq!(can_score, Some(false), "line {line}: no scoring jump found"),
        }
    }
    records
}

#[test]
fn jumps_24_matches_its_figures() {
    let records = check_file(include_str!("data/jumps-24.fixture"), 24);
    let total: u64 = records.iter().filter_map(|r| r.paths).sum();
    assert_eq!(total, 1_366_444);
}

#[test]
fn score_16_matches_its_figures() {
    let records = check_file(include_str!("data/score-16.fixture"), 16);
    // Half of the positions can score and half cannot, and both sides move in some.
    let yes = records.iter().filter(|r| r.score == Some(ScoreFigure::Yes));
    assert_eq!(yes.count(), 8);
    let movers: Vec<Side> = records.iter().map(|r| r.position.to_move()).collect();
    assert!(movers.contains(&Side::Ohs) && movers.contains(&Side::Eks));
}

/// Only `score` figures; the undecided ones are kept for the benchmark and
/// checked by nothing (see tests/data/README.md).
#[test]
fn hard_32_has_a_score_figure_for_every_position() {
    let records = records(include_str!("data/hard-32.fixture"));
    assert_eq!(records.len(), 32);
    assert!(records
        .iter()
        .all(|r| r.score.is_some() && r.paths.is_none()));
    assert!(records.iter().all(|r| r.position.to_move() == Side::Ohs));
    assert!(records.iter().all(|r| !r.position.is_finished()));
    let undecided: Vec<usize> = (1..)
        .zip(&records)
        .filter(|(_, r)| r.score == Some(ScoreFigure::Undecided))
        .map(|(n, _)| n)
        .collect();
    assert_eq!(undecided, [13, 23, 28]);
}

/// Every file reads back from the records it holds: the fixtures are
/// written in the canonical form `Fixture`'s `Display` gives.
#[test]
fn the_files_are_in_canonical_form() {
    for text in [
        include_str!("data/jumps-24.fixture"),
        include_str!("data/score-16.fixture"),
        include_str!("data/hard-32.fixture"),
        include_str!("data/perft.fixture"),
    ] {
        let figures: String = text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with("# "))
            .map(|l| format!("{l}\n"))
            .collect();
        let written: String = records(text).iter().map(Fixture::to_string).collect();
        assert_eq!(written, figures);
    }
}

#[test]
fn perft_from_the_start() {
    let records = records(include_str!("data/perft.fixture"));
    let [start] = records.as_slice() else {
        panic!("one record in perft.fixture");
    };
    assert_eq!(start.position, phutball::Position::standard());
    assert_eq!(perft(&start.position, 0), Ok(1));
    let depths: Vec<u32> = start.perft.iter().map(|&(d, _)| d).collect();
    assert_eq!(depths, [1, 2, 3]);
    // Depth 3: about 1.3 s in a debug build on the project machine, 0.25 s in release.
    for &(depth, count) in &start.perft {
        assert_eq!(perft(&start.position, depth), Ok(count), "depth {depth}");
    }
}
