//! Positions on which a search once ran for minutes.

use phutball::{fixtures, Budget, Position, Rules};

/// Dense, Eks to move, ball jumping on over the off-board rows: the
/// goal-first depth-first order wandered for minutes through states with no
/// goal; the restart in clockwise order finds a scoring path at once.
#[test]
fn can_score_restarts_in_another_order() {
    let text = "#######1#######/1###1####1####1/#1#1#########1#/2#2##########/###3#1###1###/1#1####2######/########1####1#/1##4##1#1##1/1#1#6##2#/#####3#1#4/4#3##1#3/#2##1#1##2@#1/###7#3#/#1#6##2##/2##3#3##1#/4#2#4#2/6#7#/#1#2#1#3##2/2#2#4#4 X";
    let rules = Rules {
        continue_off_board: true,
        ..Rules::default()
    };
    let pos = text.parse::<Position>().unwrap().with_rules(rules).unwrap();
    assert!(pos.can_score());
    let jump = pos.scoring_jump().expect("a scoring jump");
    let after = pos.play(&jump).expect("a legal jump");
    assert_eq!(after.winner(), Some(pos.to_move()), "{jump} scores");
}

/// The two positions of issue 9 (Ohs to move), on which the search of the
/// first issue ran for minutes: the layered search with its memory of dead
/// states finds a scoring jump within a work limit the old search was far
/// from (it needed over 400 million landings on each).
#[test]
fn the_dense_boards_of_issue_9_score_within_a_work_limit() {
    // Records 1 and 2 of hard-32.
    let records = fixtures::parse(include_str!("data/hard-32.fixture")).unwrap();
    let lines: Vec<String> = records[..2]
        .iter()
        .map(|r| r.position.to_string())
        .collect();
    let budget = Budget::default().with_work_limit(10_000_000);
    for line in &lines {
        let pos: Position = line.parse().unwrap();
        assert_eq!(pos.can_score_within(&budget), Ok(true), "{line}");
        let jump = pos
            .scoring_jump_within(&budget)
            .unwrap()
            .expect("a scoring jump");
        let after = pos.play(&jump).expect("a legal jump");
        assert_eq!(
            after.winner(),
            Some(pos.to_move()),
            "{jump} scores in {line}"
        );
    }
}
