//! The engine's guarantees on generated positions, judged by the core alone:
//! it scores when it can, never scores an own goal while another move
//! exists, stops a threat to score whenever some move does, plays a win in
//! three plies when there is one and avoids a loss in three when it can,
//! and plays a win in five made by a threat, whatever its depth limit.

use phutball::{Move, Position};
use phutball_engine::suites::{
    defend_positions, lose_in_three_positions, loses_within_three, own_goal_positions,
    random_position, win_in_five_positions, win_in_three_positions, win_now_positions,
    wins_in_three, wins_within_five,
};
use phutball_engine::{is_safe, Decision, Engine, Limits, SplitMix64};

/// Small node limits keep the debug test suite fast; the guarantees must
/// hold however little the engine searches, with one thread or two.
fn engines() -> [Engine; 2] {
    let limits = Limits::nodes(300);
    [
        Engine::new(limits, 5),
        Engine::new(limits.with_threads(2), 5),
    ]
}

/// The move each of [`engines`] chooses, and the position after it.
fn chosen(pos: &Position) -> Vec<(Move, Position)> {
    engines()
        .iter()
        .map(|engine| {
            let m = engine
                .best_move(pos)
                .unwrap_or_else(|e| panic!("no move for {pos}: {e}"));
            let after = pos
                .play(&m)
                .unwrap_or_else(|e| panic!("illegal move {m} for {pos}: {e}"));
            (m, after)
        })
        .collect()
}

/// Whether some legal move (from the core's full list) is safe: it leaves
/// `pos`'s opponent unable to score at once and is not an own goal.
fn some_move_stops_every_threat(pos: &Position) -> bool {
    pos.legal_moves()
        .expect("moves")
        .iter()
        .any(|m| is_safe(pos, m))
}

#[test]
fn scores_whenever_it_can() {
    for pos in win_now_positions(11, 15) {
        for (m, after) in chosen(&pos) {
            assert_eq!(
                after.winner(),
                Some(pos.to_move()),
                "{pos}: {m} does not score"
            );
        }
    }
}

#[test]
fn never_scores_an_own_goal_while_another_move_exists() {
    for pos in own_goal_positions(12, 15) {
        for (m, after) in chosen(&pos) {
            assert_ne!(
                after.winner(),
                Some(pos.to_move().opponent()),
                "{pos}: {m} is an own goal"
            );
        }
    }
}

#[test]
fn stops_a_threat_when_few_moves_do() {
    for pos in defend_positions(13, 10, 3) {
        assert!(
            some_move_stops_every_threat(&pos),
            "{pos}: the generator is wrong"
        );
        for (m, after) in chosen(&pos) {
            assert!(
                !after.can_score(),
                "{pos}: after {m} the opponent can still score"
            );
            assert_ne!(after.winner(), Some(pos.to_move().opponent()));
        }
    }
}

#[test]
fn stops_a_threat_on_random_threatened_positions() {
    // Any threatened position (not only "few defences" ones) where the core
    // says some move stops every threat.
    let mut rng = SplitMix64::new(14);
    let mut checked = 0;
    while checked < 10 {
        let side = rng.side();
        let men = 10 + rng.below(40);
        let pos = random_position(&mut rng, men, 5, side);
        if pos.is_finished() || pos.can_score() || !pos.end_turn().can_score() {
            continue;
        }
        if !some_move_stops_every_threat(&pos) {
            continue;
        }
        checked += 1;
        for (m, after) in chosen(&pos) {
            assert!(
                !after.can_score(),
                "{pos}: after {m} the opponent can still score"
            );
        }
    }
}

#[test]
fn the_seeds_position_with_a_scoring_chain_is_a_win_in_one() {
    // Ball H10, men H11..H18: H10-H19 lands on Ohs's goal line.
    let pos: Position = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O"
        .parse()
        .unwrap();
    for engine in engines() {
        let analysis = engine.analyse(&pos).unwrap();
        assert_eq!(analysis.best_move.to_string(), "H10-H19");
        assert_eq!(analysis.decision, Decision::Scores);
        // Eks to move in the same position must not jump (that is an own
        // goal), and must stop the threat: a placement on H19 only
        // lengthens the jump, so nothing stops it and every move loses.
        let eks = pos.end_turn();
        let analysis = engine.analyse(&eks).unwrap();
        assert_eq!(analysis.decision, Decision::AllMovesLose);
        let after = eks.play(&analysis.best_move).unwrap();
        assert_eq!(after.winner(), None, "it must not score an own goal");
    }
}

#[test]
fn plays_a_win_in_three_when_one_exists() {
    for pos in win_in_three_positions(16, 4) {
        for (m, _) in chosen(&pos) {
            assert!(wins_in_three(&pos, &m), "{pos}: {m} does not win in three");
        }
    }
}

#[test]
fn plays_a_win_in_five_by_threat_at_any_depth_limit() {
    let shallow = Engine::new(Limits::depth(1), 5);
    for pos in win_in_five_positions(18, 3) {
        let mut moves: Vec<Move> = chosen(&pos).into_iter().map(|(m, _)| m).collect();
        let analysis = shallow.analyse(&pos).unwrap();
        assert_eq!(analysis.score.to_string(), "win in 5", "{pos}");
        moves.push(analysis.best_move);
        for m in moves {
            assert!(
                wins_within_five(&pos, &m),
                "{pos}: {m} does not win in five"
            );
        }
    }
}

#[test]
fn avoids_a_loss_in_three_when_a_move_does() {
    for pos in lose_in_three_positions(17, 2) {
        for (m, _) in chosen(&pos) {
            assert!(
                !loses_within_three(&pos, &m),
                "{pos}: after {m} the opponent wins in three"
            );
        }
    }
}

#[test]
fn the_issue_position_is_a_win_in_three() {
    // Issue 15: Ohs wins with a man on H18, G19, H19 or J19; the engine
    // played M16 before it looked at threat placements.
    let pos: Position = "15/15/7#7/15/7#2#4/15/7#2#4/5#1@7/15/5#9/7#7/7#7/7#7/15/15/15/15/15/15 O"
        .parse()
        .unwrap();
    for engine in engines() {
        let analysis = engine.analyse(&pos).unwrap();
        assert!(
            wins_in_three(&pos, &analysis.best_move),
            "{}",
            analysis.best_move
        );
        assert_eq!(analysis.score.to_string(), "win in 3");
    }
}
