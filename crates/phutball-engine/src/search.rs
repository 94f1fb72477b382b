//! The search: iterative-deepening negamax alpha-beta with a transposition
//! table, a threat-aware horizon, and the root filter that gives the
//! engine's guarantees.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use phutball::{Budget, Game, Move, Position, SearchError, Side};

use crate::candidates::{all_moves, blocking_moves, nearby_placements, quiet_moves, INNER_JUMPS};
use crate::error::EngineError;
use crate::eval::{evaluate, progress};
use crate::limits::Limits;
use crate::rng::SplitMix64;
use crate::score::{Score, DECIDED, INFINITY, WIN};
use crate::table::{from_table, to_table, Bound, Entry, Table};

/// Size of the transposition table: 2^18 entries of 32 bytes (8 MiB).
const TABLE_BITS: u32 = 18;
/// What an opponent's scoring threat that can be stopped costs the side to
/// move at the horizon: stopping it spends the move.
const THREAT_PENALTY: i32 = 50;
/// The principal variation shown is at most this long.
const MAX_PV: usize = 32;
/// What going back to a position of the game's history costs the side the
/// engine plays for: it prefers any line not worse than this to a cycle, so
/// that it does not circle for ever against an opponent it should beat.
const CONTEMPT: i32 = 30;

/// How the move was chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// It scores now (found by the core's can-score search; no search needed).
    Scores,
    /// Every other move lets the opponent score at once (or is an own goal).
    OnlyMove,
    /// Every move loses at once; this one is the least bad.
    AllMovesLose,
    /// Chosen by the search.
    Searched,
}

/// The result of a search: the move, its score and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move to play.
    pub best_move: Move,
    /// Its value for the side to move.
    pub score: Score,
    /// The deepest iteration completed, in plies (0 if no search was needed).
    pub depth: u32,
    /// Positions examined.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The expected continuation, starting with the best move.
    pub pv: Vec<Move>,
    /// How the move was chosen.
    pub decision: Decision,
}

impl Analysis {
    /// Positions examined per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A Phutball engine: limits, a seed, and the search.
///
/// ```
/// use phutball::Position;
/// use phutball_engine::{Engine, Limits};
/// // Ball H10, men H11..H18 and H19 (a chain to the top goal line): Ohs scores.
/// let pos: Position = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O".parse()?;
/// let mut engine = Engine::new(Limits::nodes(1000), 1);
/// let analysis = engine.analyse(&pos)?;
/// assert!(pos.play(&analysis.best_move)?.winner() == Some(phutball::Side::Ohs));
/// assert_eq!(analysis.score.to_string(), "win in 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Engine {
    limits: Limits,
    seed: u64,
}

impl Engine {
    /// An engine with these limits; `seed` breaks ties between equal moves.
    pub fn new(limits: Limits, seed: u64) -> Engine {
        Engine { limits, seed }
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Changes the limits.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The move to play.
    pub fn best_move(&self, pos: &Position) -> Result<Move, EngineError> {
        self.analyse(pos).map(|a| a.best_move)
    }

    /// Searches `pos` and reports the best move, its score, the depth
    /// reached, the nodes searched and the principal variation.
    ///
    /// Guarantees: it plays a scoring move whenever one exists; it never
    /// plays an own goal while another move exists; if some move leaves the
    /// opponent unable to score next move, it plays such a move.
    pub fn analyse(&self, pos: &Position) -> Result<Analysis, EngineError> {
        self.analyse_within(pos, &Budget::default())
    }

    /// [`Engine::analyse`], which the caller can stop: when `stop`'s cancel
    /// flag is set or its interrupt hook answers, the search ends with
    /// [`EngineError::Interrupted`]. The engine's own [`Limits`] still end
    /// it with a move, as in [`Engine::analyse`].
    pub fn analyse_within(
        &self,
        pos: &Position,
        stop: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        self.analyse_with_history(pos, &[], stop)
    }

    /// [`Engine::analyse`] for the current position of `game`: positions
    /// the game has already been through count as a slight loss (a cycle)
    /// for the side to move now, so the engine avoids going round in
    /// circles when it has anything as good.
    pub fn analyse_game(&self, game: &Game) -> Result<Analysis, EngineError> {
        self.analyse_game_within(game, &Budget::default())
    }

    /// [`Engine::analyse_game`], which the caller can stop as [`Engine::analyse_within`].
    pub fn analyse_game_within(
        &self,
        game: &Game,
        stop: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        let positions = game.positions();
        let earlier = &positions[..positions.len().saturating_sub(1)];
        self.analyse_with_history(game.position(), earlier, stop)
    }

    fn analyse_with_history(
        &self,
        pos: &Position,
        history: &[Position],
        stop: &Budget<'_>,
    ) -> Result<Analysis, EngineError> {
        if let Some(e) = stop.interrupted() {
            return Err(EngineError::Interrupted(e));
        }
        if pos.is_mid_jump() {
            return Err(EngineError::MidJump);
        }
        if let Some(winner) = pos.winner() {
            return Err(EngineError::Finished { winner });
        }
        let mut search = Search::new(self.limits, pos.to_move(), history, stop);
        search.nodes = 1;
        if let Some(m) = pos.scoring_jump() {
            return Ok(search.report(m.clone(), WIN - 1, 0, vec![m], Decision::Scores));
        }
        let me = pos.to_move();
        let mut safe = Vec::new();
        let mut lets_them_score = None;
        let mut own_goal = None;
        for m in all_moves(pos) {
            search.nodes += 1;
            let Ok(child) = pos.play(&m) else { continue };
            if child.winner() == Some(me.opponent()) {
                own_goal.get_or_insert(m);
            } else if child.can_score() {
                lets_them_score.get_or_insert(m);
            } else {
                safe.push((m, child));
            }
        }
        if safe.is_empty() {
            // Letting them score beats scoring for them now.
            let (m, value) = match (lets_them_score, own_goal) {
                (Some(m), _) => (m, -(WIN - 2)),
                (None, Some(m)) => (m, -(WIN - 1)),
                (None, None) => return Err(EngineError::NoLegalMove),
            };
            return Ok(search.report(m.clone(), value, 0, vec![m], Decision::AllMovesLose));
        }
        if safe.len() == 1 {
            let (m, child) = safe.swap_remove(0);
            let value = -evaluate(&child);
            return Ok(search.report(m.clone(), value, 0, vec![m], Decision::OnlyMove));
        }
        let roots = root_candidates(pos, safe, self.seed);
        let analysis = search.iterate(roots);
        match search.interrupted {
            Some(e) => Err(EngineError::Interrupted(e)),
            None => Ok(analysis),
        }
    }
}

/// The root moves to search, best first by a cheap guess: when the opponent
/// threatens to score, every safe move; otherwise the safe jumps and the safe
/// placements near the ball (all safe moves if none of those is left).
fn root_candidates(
    pos: &Position,
    safe: Vec<(Move, Position)>,
    seed: u64,
) -> Vec<(Move, Position)> {
    let threatened = pos.end_turn().can_score();
    let mut roots: Vec<(Move, Position)> = if threatened {
        safe.clone()
    } else {
        let near = nearby_placements(pos);
        safe.iter()
            .filter(|(m, _)| match m {
                Move::Place(p) => near.contains(p),
                Move::Jump(_) => true,
            })
            .cloned()
            .collect()
    };
    if roots.is_empty() {
        roots = safe;
    }
    let mut rng = SplitMix64::new(seed);
    let mut keyed: Vec<(i32, (Move, Position))> = roots
        .into_iter()
        .map(|(m, child)| (order_key(pos, &m) * 8 + rng.below(8) as i32, (m, child)))
        .collect();
    keyed.sort_by_key(|(key, _)| -key);
    keyed.into_iter().map(|(_, mc)| mc).collect()
}

/// A cheap guess at how good a move is, for move ordering: jumps by the row
/// progress they make, then placements ahead of the ball (towards the
/// mover's goal) and close to it.
fn order_key(pos: &Position, m: &Move) -> i32 {
    let me = pos.to_move();
    match m {
        Move::Jump(path) => {
            let landing = path.last().map_or(pos.ball().row(), |p| p.row());
            10_000 + progress(pos, me, landing) - progress(pos, me, pos.ball().row())
        }
        Move::Place(p) => {
            let ball = pos.ball();
            let ahead = progress(pos, me, p.row()) - progress(pos, me, ball.row());
            let d_col = (p.col() as i32 - ball.col() as i32).abs();
            let d_row = (p.row() as i32 - ball.row() as i32).abs();
            ahead / 2 - 40 * d_col.max(d_row)
        }
    }
}

/// The state of one search.
struct Search<'s> {
    /// The caller's cancel flag and interrupt hook.
    stop: &'s Budget<'s>,
    /// Why the caller stopped the search, if it did.
    interrupted: Option<SearchError>,
    limits: Limits,
    started: Instant,
    nodes: u64,
    aborted: bool,
    table: Table,
    /// The side the search plays for.
    engine_side: Side,
    /// Hashes of the positions the game has been through.
    history: HashSet<u64>,
}

impl<'s> Search<'s> {
    fn new(
        limits: Limits,
        engine_side: Side,
        history: &[Position],
        stop: &'s Budget<'s>,
    ) -> Search<'s> {
        Search {
            stop,
            interrupted: None,
            limits,
            started: Instant::now(),
            nodes: 0,
            aborted: false,
            table: Table::new(TABLE_BITS),
            engine_side,
            history: history.iter().map(Position::zobrist).collect(),
        }
    }

    fn report(
        &self,
        best_move: Move,
        value: i32,
        depth: u32,
        pv: Vec<Move>,
        decision: Decision,
    ) -> Analysis {
        Analysis {
            best_move,
            score: Score::from_internal(value),
            depth,
            nodes: self.nodes,
            elapsed: self.started.elapsed(),
            pv,
            decision,
        }
    }

    /// Whether a limit has been reached (then the search unwinds).
    fn out_of_budget(&mut self) -> bool {
        if !self.aborted {
            let nodes_out = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            let time_out = self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t);
            self.interrupted = self.stop.interrupted();
            self.aborted = nodes_out || time_out || self.interrupted.is_some();
        }
        self.aborted
    }

    /// Iterative deepening over the root moves (`roots` is not empty).
    fn iterate(&mut self, mut roots: Vec<(Move, Position)>) -> Analysis {
        let mut best = 0usize;
        let mut best_value = -INFINITY;
        let mut depth_done = 0;
        for depth in 1..=self.limits.max_depth() {
            let mut alpha = -INFINITY;
            let mut iteration_best = None;
            for (i, (_, child)) in roots.iter().enumerate() {
                let value = -self.negamax(child, depth - 1, -INFINITY, -alpha, 1);
                if self.aborted {
                    break;
                }
                if value > alpha {
                    alpha = value;
                    iteration_best = Some(i);
                }
            }
            // A move that beat the previous best (searched first) in an
            // unfinished iteration is still an improvement.
            if let Some(i) = iteration_best {
                if !self.aborted || i != 0 || depth_done == 0 {
                    best = i;
                    best_value = alpha;
                }
            }
            if self.aborted {
                break;
            }
            depth_done = depth;
            let chosen = roots.remove(best);
            roots.insert(0, chosen);
            best = 0;
            if best_value >= DECIDED || best_value <= -DECIDED && depth >= 4 {
                break;
            }
            // The next iteration would take several times as long: stop early.
            if let Some(t) = self.limits.time {
                if self.started.elapsed() * 3 >= t {
                    break;
                }
            }
        }
        if best_value == -INFINITY {
            // Not even one root move was searched: trust the ordering.
            best_value = -evaluate(&roots[best].1);
        }
        let (m, child) = roots[best].clone();
        let pv = self.principal_variation(m.clone(), child, depth_done as usize + 2);
        self.report(m, best_value, depth_done, pv, Decision::Searched)
    }

    /// The move and the moves stored as best after it in the table.
    fn principal_variation(&self, first: Move, mut pos: Position, len: usize) -> Vec<Move> {
        let mut pv = vec![first];
        while pv.len() < len.min(MAX_PV) && !pos.is_finished() {
            if let Some(m) = pos.scoring_jump() {
                pv.push(m);
                break;
            }
            let Some(entry) = self.table.probe(pos.zobrist()) else {
                break;
            };
            let next = all_moves(&pos).into_iter().find_map(|m| {
                let child = pos.play(&m).ok()?;
                (child.zobrist() == entry.best_child).then_some((m, child))
            });
            let Some((m, child)) = next else { break };
            pv.push(m);
            pos = child;
        }
        pv
    }

    /// The value of `pos` for its side to move, searched `depth` plies deep;
    /// `ply` is the distance from the root.
    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        if let Some(winner) = pos.winner() {
            let value = WIN - ply as i32;
            return if winner == pos.to_move() {
                value
            } else {
                -value
            };
        }
        if pos.can_score() {
            return WIN - ply as i32 - 1;
        }
        if self.history.contains(&pos.zobrist()) {
            return if pos.to_move() == self.engine_side {
                -CONTEMPT
            } else {
                CONTEMPT
            };
        }
        if self.out_of_budget() {
            return 0;
        }
        let threat = pos.end_turn().scoring_jump();
        if depth == 0 {
            return self.horizon(pos, threat.as_ref(), ply);
        }
        let key = pos.zobrist();
        let mut table_move = 0;
        if let Some(entry) = self.table.probe(key) {
            table_move = entry.best_child;
            if u32::from(entry.depth) >= depth {
                let value = from_table(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if usable {
                    return value;
                }
            }
        }
        let moves = match &threat {
            Some(t) => blocking_moves(pos, t, INNER_JUMPS),
            None => {
                let moves = quiet_moves(pos);
                if moves.is_empty() {
                    all_moves(pos)
                } else {
                    moves
                }
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
        if children.is_empty() {
            // Threatened with nothing to stop it: they score next move.
            return if threat.is_some() {
                -(WIN - ply as i32 - 2)
            } else {
                0
            };
        }
        children.sort_by_key(|(key, _)| -key);
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_child = 0;
        for (_, child) in &children {
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
        let bound = if best <= alpha_before {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            best_child,
            score: to_table(best, ply),
            depth: depth.min(u8::MAX as u32) as u8,
            bound,
        });
        best
    }

    /// The value at the search horizon: the evaluation, unless the opponent
    /// threatens to score and no move stops it (then it is a loss).
    fn horizon(&mut self, pos: &Position, threat: Option<&Move>, ply: u32) -> i32 {
        let Some(threat) = threat else {
            return evaluate(pos);
        };
        let me = pos.to_move();
        for m in blocking_moves(pos, threat, INNER_JUMPS) {
            self.nodes += 1;
            let Ok(child) = pos.play(&m) else { continue };
            if child.winner() != Some(me.opponent()) && !child.can_score() {
                return evaluate(pos) - THREAT_PENALTY;
            }
        }
        -(WIN - ply as i32 - 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_from_the_history_is_avoided_when_an_equal_move_exists() {
        // At the start every move has a mirror image of equal value, so
        // marking the chosen move's result as seen must change the choice.
        let start = Position::standard();
        let engine = Engine::new(Limits::depth(2), 3);
        let first = engine.analyse(&start).unwrap().best_move;
        let seen = start.play(&first).unwrap();
        let again = engine
            .analyse_with_history(&start, &[seen], &Budget::default())
            .unwrap();
        assert_ne!(again.best_move, first);
        assert!(!again.best_move.is_jump());
    }
}
