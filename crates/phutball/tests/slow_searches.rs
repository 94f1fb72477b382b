//! Positions on which a search once ran for minutes.

use phutball::{Position, Rules};

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
    let pos = text.parse::<Position>().unwrap().with_rules(rules);
    assert!(pos.can_score());
    let jump = pos.scoring_jump().expect("a scoring jump");
    let after = pos.play(&jump).expect("a legal jump");
    assert_eq!(after.winner(), Some(pos.to_move()), "{jump} scores");
}
