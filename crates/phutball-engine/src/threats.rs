//! Threats one move away: the placements after which the side to move could
//! score (if it moved again), the moves that win in three plies whatever
//! the opponent replies, and the threat placements that win in five (a
//! threat, then a win in three after every reply): the root's checks.
//!
//! The threat placements themselves are the core's
//! ([`Position::threat_placements_within`]).

use core::ops::ControlFlow;

use phutball::{Bitboard, Budget, Move, Point, Position, SearchError, Side};

use crate::candidates::blocking_moves;
use crate::caps::INNER_JUMPS;
use crate::safety::is_safe_within;

/// The core's [`Position::threat_candidates_within`].
pub(crate) fn threat_candidates(
    pos: &Position,
    budget: &Budget<'_>,
) -> Result<Bitboard, SearchError> {
    pos.threat_candidates_within(budget)
}

/// The core's [`Position::men_needed_to_score`].
fn men_needed_to_score(pos: &Position) -> u32 {
    pos.men_needed_to_score()
}

/// The core's [`Position::threat_rows`].
#[cfg(test)]
fn rows_that_may_threaten(pos: &Position) -> u32 {
    pos.threat_rows()
}

/// The core's [`Position::threat_placements_within`].
pub(crate) fn threat_placements(
    pos: &Position,
    budget: &Budget<'_>,
) -> Result<Vec<Point>, SearchError> {
    pos.threat_placements_within(budget)
}

/// Every jump move of `pos`, one per distinct outcome, found within
/// `budget`, if there are at most [`INNER_JUMPS`]; `Ok(None)` when there
/// are more (each is a reply to try: a long list costs more than it is
/// worth), `Err` when the enumeration did not finish.
pub(crate) fn all_jump_moves(
    pos: &Position,
    budget: &Budget<'_>,
) -> Result<Option<Vec<Move>>, SearchError> {
    let mut out = Vec::new();
    let flow = pos.for_each_jump_outcome_within(budget, |path: &[Point]| {
        if out.len() == INNER_JUMPS {
            return ControlFlow::Break(());
        }
        out.push(Move::Jump(path.to_vec()));
        ControlFlow::Continue(())
    })?;
    Ok(flow.is_continue().then_some(out))
}

/// Whether placing a man on `p` wins in three plies: the opponent cannot
/// score at once, and every reply of its (each jump outcome, and each
/// placement on a landing point of the threatened scoring jump: no other
/// placement can stop it) is an own goal or leaves the side to move a
/// scoring jump. `Ok(false)` when `p` is no threat at all, or when the
/// opponent has more than [`INNER_JUMPS`] jumps (not known to win).
///
/// # Errors
///
/// [`SearchError`] when `budget` stops a search first (each call into the
/// core gets the budget's work limit).
pub(crate) fn wins_by_threat(
    pos: &Position,
    p: Point,
    budget: &Budget<'_>,
) -> Result<bool, SearchError> {
    wins_in_three(pos, &Move::Place(p), budget)
}

/// The position after `m` and the opponent's replies that might stop the
/// threat `m` makes, when `m` threatens to score and the opponent cannot
/// score at once: each jump outcome, and each placement on a landing point
/// of the threatened scoring jump (no other placement changes it; every
/// other reply leaves the side to move that jump). `Ok(None)` when `m` is
/// illegal, ends the game or makes no threat, when the opponent can score,
/// or when it has more than [`INNER_JUMPS`] jumps (too many to try: not
/// known to win).
///
/// # Errors
///
/// [`SearchError`] when `budget` stops a search first.
fn replies_to_threat(
    pos: &Position,
    m: &Move,
    budget: &Budget<'_>,
) -> Result<Option<(Position, Vec<Move>)>, SearchError> {
    let Ok(after) = pos.play(m) else {
        return Ok(None);
    };
    if after.is_finished() {
        return Ok(None);
    }
    let Some(threat) = after.end_turn().scoring_jump_within(budget)? else {
        return Ok(None);
    };
    if after.can_score_within(budget)? {
        return Ok(None);
    }
    let Some(jumps) = all_jump_moves(&after, budget)? else {
        return Ok(None);
    };
    let mut replies = blocking_moves(&after, &threat, 0, budget);
    replies.extend(jumps);
    Ok(Some((after, replies)))
}

/// Whether the move `m` wins in three plies, as [`wins_by_threat`].
///
/// # Errors
///
/// [`SearchError`] when `budget` stops a search first.
fn wins_in_three(pos: &Position, m: &Move, budget: &Budget<'_>) -> Result<bool, SearchError> {
    let Some((after, replies)) = replies_to_threat(pos, m, budget)? else {
        return Ok(false);
    };
    for reply in &replies {
        if is_safe_within(&after, reply, budget)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether placing a man on `p` wins within five plies by force: it
/// threatens to score, the opponent cannot score at once, and after each
/// reply that might stop the threat (as [`wins_in_three`]) the reply was an
/// own goal, or the side to move can score, or it has a move that wins in
/// three plies ([`winning_move`]). A threat-space search two threats deep:
/// a win in five whose first move threatens nothing is not looked for (the
/// opponent's ~280 replies would each need a check).
///
/// # Errors
///
/// [`SearchError`] when `budget` stops a search first.
fn wins_in_five_by_threat(
    pos: &Position,
    p: Point,
    budget: &Budget<'_>,
) -> Result<bool, SearchError> {
    let me = pos.to_move();
    let Some((after, replies)) = replies_to_threat(pos, &Move::Place(p), budget)? else {
        return Ok(false);
    };
    for reply in &replies {
        // The replies are legal moves; one that was not would be no reply.
        let Ok(next) = after.play(reply) else {
            continue;
        };
        match next.winner() {
            Some(winner) if winner == me => continue,
            Some(_) => return Ok(false),
            None => {}
        }
        if next.can_score_within(budget)? {
            continue;
        }
        if winning_move(&next, budget)?.is_none() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A sort key: smaller the nearer `p` is to the goal the side to move
/// attacks (the likeliest to score, so tried first).
fn rows_to_goal(pos: &Position, p: Point) -> i32 {
    match pos.to_move() {
        Side::Ohs => -i32::from(p.row()),
        Side::Eks => i32::from(p.row()),
    }
}

/// A placement that wins in three plies (see [`wins_by_threat`]), among the
/// candidates of [`threat_candidates`] (nearest the goal first), if there
/// is one. `Ok(None)` is a proof that none exists when the side to move
/// cannot score now.
///
/// # Errors
///
/// [`SearchError`] when `budget` stops a search first.
pub(crate) fn winning_threat(
    pos: &Position,
    budget: &Budget<'_>,
) -> Result<Option<Point>, SearchError> {
    let mut candidates: Vec<Point> = threat_candidates(pos, budget)?.iter().collect();
    candidates.sort_by_key(|p| rows_to_goal(pos, *p));
    for p in candidates {
        if wins_by_threat(pos, p, budget)? {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

/// A move that wins in three plies: a placement (as [`winning_threat`])
/// or a jump after which the opponent cannot stop the threat (jumps only
/// when there are at most [`INNER_JUMPS`] of them). `Ok(None)` means none
/// was found.
///
/// # Errors
///
/// [`SearchError`] when `budget` stops a search first.
pub(crate) fn winning_move(
    pos: &Position,
    budget: &Budget<'_>,
) -> Result<Option<Move>, SearchError> {
    // A jump adds no man and the opponent's reply need not help, so a jump
    // wins in three only when no row needs filling (see
    // [`rows_that_may_threaten`]); a placement when one man fills them.
    let needed = men_needed_to_score(pos);
    if needed > 1 {
        return Ok(None);
    }
    if let Some(p) = winning_threat(pos, budget)? {
        return Ok(Some(Move::Place(p)));
    }
    if needed > 0 {
        return Ok(None);
    }
    for jump in all_jump_moves(pos, budget)?.unwrap_or_default() {
        if wins_in_three(pos, &jump, budget)? {
            return Ok(Some(jump));
        }
    }
    Ok(None)
}

/// A placement that wins within five plies by force (see
/// [`wins_in_five_by_threat`]), among `threats` (the threat placements of
/// `pos`, as [`threat_placements`] finds them), nearest the goal first.
/// Call it when the side to move has no win in three ([`winning_move`]
/// found none). `Ok(None)` means none was found.
///
/// # Errors
///
/// [`SearchError`] when `budget` stops a search first.
pub(crate) fn winning_threat_in_five(
    pos: &Position,
    threats: &[Point],
    budget: &Budget<'_>,
) -> Result<Option<Point>, SearchError> {
    let mut threats = threats.to_vec();
    threats.sort_by_key(|p| rows_to_goal(pos, *p));
    for p in threats {
        if wins_in_five_by_threat(pos, p, budget)? {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::{self, random_position};
    use phutball::SplitMix64;

    /// The issue's position: Ohs wins with a man on H18, G19, H19 or J19.
    const ISSUE: &str = "15/15/7#7/15/7#2#4/15/7#2#4/5#1@7/15/5#9/7#7/7#7/7#7/15/15/15/15/15/15 O";

    fn names(points: &[Point]) -> Vec<String> {
        points.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_issue_position_has_its_four_winning_placements() {
        let pos: Position = ISSUE.parse().unwrap();
        let budget = Budget::default();
        let winning: Vec<Point> = pos
            .placement_points()
            .iter()
            .filter(|&p| wins_by_threat(&pos, p, &budget).unwrap())
            .collect();
        let mut got = names(&winning);
        got.sort();
        assert_eq!(got, ["G19", "H18", "H19", "J19"]);
        assert!(winning_threat(&pos, &budget).unwrap().is_some());
    }

    #[test]
    fn threat_placements_match_trying_every_placement() {
        // The reference: every vacant point with a can-score after it.
        let mut rng = SplitMix64::new(15);
        let budget = Budget::default();
        let mut with_threats = 0;
        for i in 0..150 {
            let side = if i % 2 == 0 { Side::Ohs } else { Side::Eks };
            let men = 5 + rng.below(30);
            let pos = random_position(&mut rng, men, 4, side);
            if pos.is_finished() || pos.can_score() {
                continue;
            }
            let reference = suites::threat_placements_by_trial(&pos);
            let found = threat_placements(&pos, &budget).unwrap();
            assert_eq!(names(&found), names(&reference), "{pos}");
            with_threats += usize::from(!found.is_empty());
        }
        assert!(
            with_threats > 10,
            "too few positions with threats: {with_threats}"
        );
    }

    #[test]
    fn a_man_in_the_middle_of_three_empty_rows_is_a_threat() {
        // Ball H13, men H14 and H18, rows 15 to 17 empty: H16 makes
        // H13-H15-H17-H19 (the goal line); no other placement scores.
        let pos: Position = "15/7#7/15/15/15/7#7/7@7/15/15/15/15/15/15/15/15/15/15/15/15 O"
            .parse()
            .unwrap();
        assert_eq!(
            names(&threat_placements(&pos, &Budget::default()).unwrap()),
            ["H16"]
        );
        assert_eq!(rows_that_may_threaten(&pos), 1 << 16);
        // Four empty rows: no man can make a threat.
        let far: Position = "7#7/15/15/15/15/7#7/7@7/15/15/15/15/15/15/15/15/15/15/15/15 O"
            .parse()
            .unwrap();
        assert_eq!(rows_that_may_threaten(&far), 0);
    }

    #[test]
    fn a_threat_that_wins_in_five_is_found_and_holds() {
        // Middle game 3 of docs/engine.md: no win in three; J19 threatens
        // J17-J19... and every defence leaves a win in three.
        let pos: Position = "15/9@5/9#5/15/15/15/11#3/15/6#4#3/15/7#7/15/15/15/15/15/15/15/15 O"
            .parse()
            .unwrap();
        let budget = Budget::default();
        assert_eq!(winning_move(&pos, &budget).unwrap(), None);
        let threats = threat_placements(&pos, &budget).unwrap();
        let p = winning_threat_in_five(&pos, &threats, &budget)
            .unwrap()
            .expect("a win in five");
        assert!(suites::wins_within_five(&pos, &Move::Place(p)), "{p}");
    }

    #[test]
    fn every_win_in_five_found_holds_by_brute_force() {
        // Sound: each placement claimed wins within five plies against
        // every reply of the core's full move list (some 40 claims here),
        // with the engine's work cap per call; a check that gives up is
        // skipped.
        let mut rng = SplitMix64::new(55);
        let budget = Budget::default().with_work_limit(1 << 16);
        let mut found = 0;
        for i in 0..2000 {
            let side = if i % 2 == 0 { Side::Ohs } else { Side::Eks };
            let men = 5 + rng.below(20);
            let pos = random_position(&mut rng, men, 4, side);
            let quiet = |p: &Position| p.can_score_within(&budget) == Ok(false);
            if pos.is_finished() || !quiet(&pos) || !quiet(&pos.end_turn()) {
                continue;
            }
            let Ok(None) = winning_move(&pos, &budget) else {
                continue;
            };
            let Ok(threats) = threat_placements(&pos, &budget) else {
                continue;
            };
            if let Ok(Some(p)) = winning_threat_in_five(&pos, &threats, &budget) {
                assert!(
                    suites::wins_within_five(&pos, &Move::Place(p)),
                    "{pos}: {p}"
                );
                found += 1;
            }
        }
        assert!(found >= 30, "too few wins in five to check: {found}");
    }

    #[test]
    fn a_budget_too_small_is_an_error() {
        let pos: Position = ISSUE.parse().unwrap();
        let none = Budget::default().with_work_limit(0);
        assert!(threat_placements(&pos, &none).is_err());
        assert!(winning_threat(&pos, &none).is_err());
    }
}
