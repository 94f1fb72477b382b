//! The tree search: negamax alpha-beta over the transposition table, with
//! the threat-aware choice of moves at each node and the horizon's value.

use std::collections::HashSet;

use phutball::{Budget, Move, Position};

use super::state::Search;
use crate::candidates::{all_moves, blocking_moves, quiet_moves};
use crate::caps::{INNER_JUMPS, NODE_SCORE_WORK};
use crate::eval::progress;
use crate::safety::is_safe_within;
use crate::score::{loss_in, win_in, DECIDED, INFINITY};
use crate::table::{from_table, to_table, Bound, Entry};
use crate::threats::all_jump_moves;

/// What an opponent's scoring threat that can be stopped costs the side to
/// move at the horizon: stopping it spends the move.
const THREAT_PENALTY: i32 = 50;
/// What going back to a position of the game's history costs the side the
/// engine plays for: it prefers any line not worse than this to a cycle, so
/// that it does not circle for ever against an opponent it should beat.
const CONTEMPT: i32 = 30;

impl Search<'_> {
    /// The value of `pos` for its side to move, searched `depth` plies deep;
    /// `ply` is the distance from the root.
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if let Some(value) = finished_value(pos, ply) {
            return value;
        }
        let hook = self.shared.clock(self.shared.deadline);
        let budget = self.shared.budget(NODE_SCORE_WORK, &hook);
        if let Some(value) = self.settled_value(pos, ply, &budget) {
            return value;
        }
        let key = pos.zobrist();
        if depth == 0 {
            return self.leaf(pos, key, alpha, beta, ply, &budget);
        }
        // `None`: not known whether the opponent threatens.
        let threat = self.known(pos.end_turn().scoring_jump_within(&budget));
        if self.aborted {
            return 0;
        }
        let table_move = match self.probe_table(key, depth, alpha, beta, ply) {
            Ok(value) => return value,
            Err(table_move) => table_move,
        };
        let children = children_in_order(
            pos,
            threat.as_ref().and_then(Option::as_ref),
            table_move,
            &budget,
        );
        if children.is_empty() {
            // Threatened with nothing to stop it: they score next move.
            return if matches!(threat, Some(Some(_))) {
                loss_in(ply + 2)
            } else {
                0
            };
        }
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_child = 0;
        let mut searched = children;
        let mut widened = false;
        loop {
            for child in &searched {
                let value = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1);
                if self.aborted {
                    return 0;
                }
                if value > best {
                    best = value;
                    best_child = child.zobrist();
                }
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
            // A forced loss is proved only when every move was searched:
            // when all the candidates lose, the other moves are searched too.
            if best > -DECIDED || widened {
                break;
            }
            widened = true;
            searched = other_children(pos, &searched, &budget);
        }
        let bound = bound_of(best, alpha_before, beta);
        self.store(key, best_child, best, depth, ply, bound);
        best
    }

    /// Stores `value`, the value of the position of `key` at `ply` searched
    /// `depth` deep (a `bound` of it), with the hash of its best child.
    fn store(&self, key: u64, best_child: u64, value: i32, depth: u32, ply: u32, bound: Bound) {
        self.shared.table.store(Entry {
            key,
            best_child,
            score: to_table(value, ply),
            depth: depth.min(u32::from(u8::MAX)) as u8,
            bound,
        });
    }

    /// The value of `pos` found before any move is tried, if any: a win in
    /// one when its side can score ("don't know" is not a win), the price
    /// of a cycle when the game has been there, and 0 once a limit is
    /// reached (the search unwinds).
    fn settled_value(&mut self, pos: &Position, ply: u32, budget: &Budget<'_>) -> Option<i32> {
        if self.known(pos.can_score_within(budget)) == Some(true) {
            return Some(win_in(ply + 1));
        }
        if self.seen(pos) {
            return Some(if pos.to_move() == self.shared.engine_side {
                -CONTEMPT
            } else {
                CONTEMPT
            });
        }
        self.out_of_budget().then_some(0)
    }

    /// The table's value for the position of `key` searched `depth` deep
    /// (`Ok`) when its entry is deep enough and its bound settles the
    /// window `alpha..beta`; otherwise (`Err`) the hash of the best child
    /// the table remembers, to try first (0 if none).
    fn probe_table(
        &self,
        key: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> Result<i32, u64> {
        let Some(entry) = self.shared.table.probe(key) else {
            return Err(0);
        };
        if u32::from(entry.depth) >= depth {
            let value = from_table(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if usable {
                return Ok(value);
            }
        }
        Err(entry.best_child)
    }

    /// The value of `pos` (hash `key`) at the horizon: the table's, when a
    /// transposition met before stored it (or a deeper search's settles the
    /// window `alpha..beta`), else [`Search::horizon`]'s, which is stored
    /// (placements commute, so the same leaves come back often).
    fn leaf(
        &mut self,
        pos: &Position,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: u32,
        budget: &Budget<'_>,
    ) -> i32 {
        if let Ok(value) = self.probe_table(key, 0, alpha, beta, ply) {
            return value;
        }
        // `None`: not known whether the opponent threatens.
        let threat = self.known(pos.end_turn().scoring_jump_within(budget));
        if self.aborted {
            return 0;
        }
        let value = self.horizon(pos, threat, ply, budget);
        if !self.aborted {
            self.store(key, 0, value, 0, ply, Bound::Exact);
        }
        value
    }

    /// The value at the search horizon: the evaluation, unless the opponent
    /// threatens to score and no move stops it (then it is a loss). A
    /// threat not known, or a defence not known to hold, is not a loss: the
    /// evaluation less the price of a threat.
    // The threat as known: `None` not known, `Some(None)` none, `Some(Some(m))` m scores.
    #[allow(clippy::option_option)]
    fn horizon(
        &mut self,
        pos: &Position,
        threat: Option<Option<Move>>,
        ply: u32,
        budget: &Budget<'_>,
    ) -> i32 {
        let threat = match threat {
            Some(None) => return self.evaluate(pos, budget),
            None => return self.evaluate(pos, budget) - THREAT_PENALTY,
            Some(Some(threat)) => threat,
        };
        // Every jump is a possible defence: a list cut short proves nothing.
        let Some(Some(jumps)) = self.known(all_jump_moves(pos, budget)) else {
            return self.evaluate(pos, budget) - THREAT_PENALTY;
        };
        let mut defences = blocking_moves(pos, &threat, 0, budget);
        defences.extend(jumps);
        let mut undecided = false;
        for m in defences {
            self.nodes += 1;
            match self.known(is_safe_within(pos, &m, budget)) {
                Some(true) => return self.evaluate(pos, budget) - THREAT_PENALTY,
                Some(false) => {}
                None if self.aborted => return 0,
                None => undecided = true,
            }
        }
        if undecided {
            self.evaluate(pos, budget) - THREAT_PENALTY
        } else {
            loss_in(ply + 2)
        }
    }
}

/// The value of a finished game for the side to move at `ply`, if it is.
fn finished_value(pos: &Position, ply: u32) -> Option<i32> {
    let winner = pos.winner()?;
    Some(if winner == pos.to_move() {
        win_in(ply)
    } else {
        loss_in(ply)
    })
}

/// The positions after the moves of `pos` not among `searched`: every
/// placement and up to [`ROOT_JUMPS`](crate::caps::ROOT_JUMPS) jumps.
fn other_children(pos: &Position, searched: &[Position], budget: &Budget<'_>) -> Vec<Position> {
    let tried: HashSet<u64> = searched.iter().map(Position::zobrist).collect();
    all_moves(pos, budget)
        .iter()
        .filter_map(|m| pos.play(m).ok())
        .filter(|child| !tried.contains(&child.zobrist()))
        .collect()
}

/// The bound a node's value `best` is, searched in the window
/// `alpha..beta`.
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best <= alpha {
        Bound::Upper
    } else if best >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    }
}

/// The positions after the moves [`Search::negamax`] tries at `pos`, best
/// first: the moves that block `threat` when the opponent threatens to score,
/// else the quiet moves (all moves if there are none); the table's best
/// child (hash `table_move`) first, then by [`order_key`].
fn children_in_order(
    pos: &Position,
    threat: Option<&Move>,
    table_move: u64,
    budget: &Budget<'_>,
) -> Vec<Position> {
    let moves = if let Some(t) = threat {
        blocking_moves(pos, t, INNER_JUMPS, budget)
    } else {
        let moves = quiet_moves(pos, budget);
        if moves.is_empty() {
            all_moves(pos, budget)
        } else {
            moves
        }
    };
    let mut children: Vec<(i32, Position)> = moves
        .iter()
        .filter_map(|m| {
            let child = pos.play(m).ok()?;
            let key = if child.zobrist() == table_move {
                i32::MAX
            } else {
                order_key(pos, m)
            };
            Some((key, child))
        })
        .collect();
    children.sort_by_key(|(key, _)| -key);
    children.into_iter().map(|(_, child)| child).collect()
}

/// A cheap guess at how good a move is, for move ordering: jumps by the row
/// progress they make, then placements ahead of the ball (towards the
/// mover's goal) and close to it.
pub(super) fn order_key(pos: &Position, m: &Move) -> i32 {
    let me = pos.to_move();
    match m {
        Move::Jump(path) => {
            let landing = path.last().map_or(pos.ball().row(), |p| p.row());
            10_000 + progress(pos, me, landing) - progress(pos, me, pos.ball().row())
        }
        Move::Place(p) => {
            let ball = pos.ball();
            let ahead = progress(pos, me, p.row()) - progress(pos, me, ball.row());
            let d_col = (i32::from(p.col()) - i32::from(ball.col())).abs();
            let d_row = (i32::from(p.row()) - i32::from(ball.row())).abs();
            ahead / 2 - 40 * d_col.max(d_row)
        }
    }
}
