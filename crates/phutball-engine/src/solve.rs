//! `solve`: a proved result of a position, or "unknown": the solver's
//! proof-number search first, then the engine's deepening search with the
//! time that is left.

use core::fmt;
use std::time::Duration;

use phutball::{Budget, Move, Position, SearchError};
use phutball_solver::{prove_within, Value};

use crate::clock::Instant;
use crate::deadline::Deadline;
use crate::error::EngineError;
use crate::evaluation::Evaluation;
use crate::limits::{Limits, MAX_DEPTH};
use crate::score::Score;
use crate::search::{Decision, Engine};

/// What [`solve`] proved about a position, for its side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// A forced win in `plies` plies (1: it scores now), with the line: the
    /// winning move first, then the expected replies and follow-ups.
    Win {
        /// Plies to the goal, the winning move included.
        plies: u32,
        /// Whether `plies` is the shortest win (else it bounds it).
        exact: bool,
        /// The winning move and the expected continuation.
        line: Vec<Move>,
    },
    /// Every move loses within `plies` plies; the line starts with the
    /// side to move's longest resistance.
    Loss {
        /// Plies to the opponent's goal.
        plies: u32,
        /// Whether `plies` is the longest resistance (else it bounds it).
        exact: bool,
        /// The least bad move and what follows.
        line: Vec<Move>,
    },
    /// Neither side can force a goal (proved by a tablebase).
    Draw,
    /// Nothing proved within the time.
    Unknown,
}

impl fmt::Display for Solution {
    /// What the CLI's `solve` prints: `win in N: LINE` or `loss in N: LINE`
    /// where N is exact, `win within N: LINE` or `loss within N: LINE`
    /// where it is a proof's bound (as the solver's `Proof` says it; the
    /// moves in notation, the side to move's first), `draw` or `unknown`.
    ///
    /// ```
    /// use phutball_engine::Solution;
    /// let line = vec!["H10-H12".parse()?, "J12".parse()?, "H12-H19".parse()?];
    /// let win = Solution::Win { plies: 3, exact: true, line: line.clone() };
    /// assert_eq!(win.to_string(), "win in 3: H10-H12 J12 H12-H19");
    /// let bound = Solution::Win { plies: 3, exact: false, line };
    /// assert_eq!(bound.to_string(), "win within 3: H10-H12 J12 H12-H19");
    /// assert_eq!(Solution::Unknown.to_string(), "unknown");
    /// # Ok::<(), phutball::ParseError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, plies, exact, line) = match self {
            Solution::Win { plies, exact, line } => ("win", plies, exact, line),
            Solution::Loss { plies, exact, line } => ("loss", plies, exact, line),
            Solution::Draw => return f.write_str("draw"),
            Solution::Unknown => return f.write_str("unknown"),
        };
        let within = if *exact { "in" } else { "within" };
        write!(f, "{kind} {within} {plies}:")?;
        for m in line {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}

/// Proves the value of `pos` for its side to move: for a fifth of
/// `timeout`, the engine searching one ply deeper at a time until it
/// proves a win (a score of `win in N`: every defence searched, see
/// docs/engine.md; short wins are found so) or a loss within two plies;
/// then, with the rest of the time, the solver's [`prove_within`] (wins
/// and losses of any length, each with a checked certificate; exact values
/// and draws on the boards it has a tablebase for). `stop` cancels it as
/// [`Engine::analyse_within`].
///
/// ```
/// use std::time::Duration;
/// use phutball::{Budget, Position};
/// use phutball_engine::{solve, Solution};
/// // Issue 15: Ohs wins in three plies with a man on G19, H18, H19 or J19.
/// let pos: Position = "15/15/7#7/15/7#2#4/15/7#2#4/5#1@7/15/5#9/7#7/7#7/7#7/15/15/15/15/15/15 O".parse()?;
/// let solution = solve(&pos, Duration::from_secs(5), &Budget::default())?;
/// assert!(matches!(solution, Solution::Win { plies: 3, .. }));
/// // The 1x3 board: Ohs wins in three (both of Eks's replies lose).
/// let solution = solve(&"1/@/1 O".parse()?, Duration::from_secs(5), &Budget::default())?;
/// assert!(matches!(solution, Solution::Win { plies: 3, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`EngineError::Finished`] if the game is over, [`EngineError::NoLegalMove`]
/// if the side to move has no legal move, [`EngineError::Interrupted`]
/// when `stop` stopped it.
pub fn solve(
    pos: &Position,
    timeout: Duration,
    stop: &Budget<'_>,
) -> Result<Solution, EngineError> {
    let started = Instant::now();
    if let Some(winner) = pos.winner() {
        return Err(EngineError::Finished { winner });
    }
    // The deepening search finds short wins fast where it finds any (a
    // proof-number search finds a proof, not the shortest): a fifth of
    // the time first, then the prover with the rest.
    if let Some(solution) = deepen_within(pos, timeout / DEEPENING_SHARE, stop)?.solution {
        return Ok(solution);
    }
    let left = timeout.saturating_sub(started.elapsed());
    Ok(prove(pos, left, stop)?.unwrap_or(Solution::Unknown))
}

/// `solve` gives the engine's deepening search 1 / this of its time first.
const DEEPENING_SHARE: u32 = 5;

/// What [`deepen_within`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deepening {
    /// The win or loss it proved, or `None` when the time ran out first
    /// (or a search was not needed: a single move left).
    pub solution: Option<Solution>,
    /// The deepest depth it started a search at (0: none).
    pub depth: u32,
}

/// The first part of [`solve`] on its own: the engine, one ply deeper at a
/// time within `timeout`, until it proves a win or a loss within two
/// plies. Before `solve` called the prover (commit 060cfd8) this was the
/// whole of it; the benches time it against the prover. `stop` cancels it
/// as [`Engine::analyse_within`].
///
/// ```
/// use std::time::Duration;
/// use phutball::Budget;
/// use phutball_engine::{deepen_within, Solution};
/// // Ball H10, men H11 to H18: Ohs jumps to the goal, found at depth 1.
/// let chain = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O";
/// let found = deepen_within(&chain.parse()?, Duration::from_secs(5), &Budget::default())?;
/// assert!(matches!(found.solution, Some(Solution::Win { plies: 1, exact: true, .. })));
/// assert_eq!(found.depth, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`solve`]: [`EngineError::Finished`], [`EngineError::NoLegalMove`],
/// [`EngineError::Interrupted`].
pub fn deepen_within(
    pos: &Position,
    timeout: Duration,
    stop: &Budget<'_>,
) -> Result<Deepening, EngineError> {
    let started = Instant::now();
    let mut reached = 0;
    for depth in 1..=MAX_DEPTH {
        let Some(left) = timeout
            .checked_sub(started.elapsed())
            .filter(|t| !t.is_zero())
        else {
            break;
        };
        reached = depth;
        // The hand evaluation: the verdict does not depend on it (it only
        // orders the moves), and a node costs the network a tenth more.
        let analysis = Engine::new(Limits::new(Some(left), Some(depth), None), 1)
            .with_evaluation(Evaluation::Hand)
            .analyse_within(pos, stop)?;
        match analysis.score {
            Score::Win { plies } => {
                // No win is shorter than one ply, nor than three where the
                // side to move cannot score now (the core's can-score).
                let exact = plies <= 1
                    || (plies == 3
                        && !pos
                            .can_score_within(stop)
                            .map_err(EngineError::Interrupted)?);
                return Ok(Deepening {
                    solution: Some(Solution::Win {
                        plies,
                        exact,
                        line: analysis.pv,
                    }),
                    depth: reached,
                });
            }
            Score::Loss { plies } if analysis.decision == Decision::AllMovesLose => {
                // Every move lets the opponent score at once: no longer
                // resistance than two plies.
                return Ok(Deepening {
                    solution: Some(Solution::Loss {
                        plies,
                        exact: plies <= 2,
                        line: analysis.pv,
                    }),
                    depth: reached,
                });
            }
            _ => {}
        }
        // No search was needed (a single move left): a deeper one would
        // not search either.
        if analysis.decision != Decision::Searched {
            break;
        }
    }
    Ok(Deepening {
        solution: None,
        depth: reached,
    })
}

/// The prover's answer within `timeout` and `stop`, if it proved one.
fn prove(
    pos: &Position,
    timeout: Duration,
    stop: &Budget<'_>,
) -> Result<Option<Solution>, EngineError> {
    let deadline = Deadline::after(timeout);
    let hook = || stop.interrupt().or_else(|| deadline.check());
    let budget = Budget::default()
        .with_memory_limit(stop.memory_limit())
        .with_interrupt(&hook);
    let proof = match prove_within(pos, &budget) {
        Ok(proof) => proof,
        // Cancelled by the caller, not by the deadline.
        Err(phutball_solver::SolverError::Search(_)) => {
            return Err(EngineError::Interrupted(
                stop.interrupted().unwrap_or(SearchError::Cancelled),
            ))
        }
        Err(_) => return Ok(None),
    };
    Ok(proof.value.map(|value| match value {
        Value::Win { plies } => Solution::Win {
            plies,
            exact: proof.exact,
            line: proof.line,
        },
        Value::Loss { plies } => Solution::Loss {
            plies,
            exact: proof.exact,
            line: proof.line,
        },
        Value::Draw => Solution::Draw,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solved(text: &str, ms: u64) -> Solution {
        let pos: Position = text.parse().unwrap();
        solve(&pos, Duration::from_millis(ms), &Budget::default()).unwrap()
    }

    #[test]
    fn a_chain_to_the_goal_is_a_win_in_one_and_a_loss_in_two_for_the_other_side() {
        // Ball H10, men H11..H18: Ohs plays H10-H19; Eks cannot stop it.
        let chain = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15";
        match solved(&format!("{chain} O"), 5000) {
            Solution::Win {
                plies: 1,
                exact,
                line,
            } => {
                assert!(exact);
                assert_eq!(line[0].to_string(), "H10-H19");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            solved(&format!("{chain} X"), 5000),
            Solution::Loss { plies: 2, .. }
        ));
    }

    #[test]
    fn a_deepening_that_runs_out_of_time_says_how_deep_it_started() {
        let found = deepen_within(
            &Position::standard(),
            Duration::from_millis(30),
            &Budget::default(),
        )
        .unwrap();
        assert_eq!(found.solution, None);
        assert!((1..=MAX_DEPTH).contains(&found.depth), "{found:?}");
    }

    #[test]
    fn the_start_is_unknown_and_a_finished_game_an_error() {
        let start = Position::standard();
        assert_eq!(
            solve(&start, Duration::from_millis(30), &Budget::default()),
            Ok(Solution::Unknown)
        );
        let over: Position = "7@7/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X"
            .parse()
            .unwrap();
        assert!(matches!(
            solve(&over, Duration::from_millis(30), &Budget::default()),
            Err(EngineError::Finished { .. })
        ));
    }
}
