//! A fixed integer action space for step-by-step play (reinforcement
//! learning): a whole move is a placement, or one jump action per landing
//! followed by "end the jump move".
//!
//! For a board of `C` columns and `R` rows the actions are numbered:
//!
//! | indices | action |
//! |---|---|
//! | `0 .. C*R` | place a man on column `c`, row `r` (1..=R): index `(r - 1) * C + c` |
//! | `C*R .. C*R + C*(R+2)` | jump the ball to column `c`, row `r` (0..=R+1, strips included): index `C*R + r * C + c` |
//! | `C*(2R+2)` | end the jump move under way (the turn passes) |
//!
//! so there are `C * (2R + 2) + 1` actions (601 on the standard board).
//! A jump action keeps the turn: it starts or continues a
//! [`JumpInProgress`](crate::JumpInProgress), where only further jumps and
//! "end" are legal; at the start of a move ([`Position`]) "end" is not.
//! [`StepState`] is either.
//!
//! Actions have a text form: `place H5`, `jump to H5`, `end jump`.

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::board::bitboard::Bitboard;
use crate::board::board_size::BoardSize;
use crate::board::point::Point;
use crate::error::{IllegalMoveError, ParseError};
use crate::jumps::jump_in_progress::JumpInProgress;
use crate::rng::SplitMix64;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::step::state::StepState;

impl StepState {
    /// The legal actions, in index order.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self {
            StepState::Move(pos) => pos.legal_actions(),
            StepState::Jump(jump) => jump.legal_actions(),
        }
    }

    /// Takes one action, or says why it cannot be taken.
    ///
    /// # Errors
    ///
    /// [`ActionError`] as [`Position::apply_action`] or [`JumpInProgress::apply_action`].
    pub fn apply_action(&self, action: Action) -> Result<StepState, ActionError> {
        match self {
            StepState::Move(pos) => pos.apply_action(action),
            StepState::Jump(jump) => jump.apply_action(action),
        }
    }

    /// [`StepState::apply_action`] by action index.
    ///
    /// # Errors
    ///
    /// As [`StepState::apply_action`], and [`ActionError::OutOfRange`] for an index
    /// no action of this board has.
    pub fn apply_action_index(&self, index: usize) -> Result<StepState, ActionError> {
        let action = self.position().size().action_of_index(index)?;
        self.apply_action(action)
    }

    /// The board as it stands, whether a jump move is under way (then no
    /// placement and "end jump" are legal), and the action indices of the
    /// single jumps in increasing order (at most 8: a sort is cheapest).
    fn action_parts(&self) -> (Position, bool, Vec<usize>) {
        let (pos, jumps, mid_jump) = match self {
            StepState::Move(pos) => (*pos, pos.single_jumps(), false),
            StepState::Jump(jump) => (jump.position(), jump.single_jumps(), true),
        };
        let size = pos.size();
        let mut landings: Vec<usize> = jumps
            .iter()
            .filter_map(|j| size.action_index(Action::JumpTo(j.to)))
            .collect();
        landings.sort_unstable();
        (pos, mid_jump, landings)
    }

    /// The placements that are legal: none during a jump move.
    fn legal_placements(pos: &Position, mid_jump: bool) -> Bitboard {
        if mid_jump {
            Bitboard::EMPTY
        } else {
            pos.placement_points()
        }
    }

    /// Calls `visit` with the index of every legal action, in increasing
    /// order. It costs the actions there are (the placements are read from
    /// the bitboard a row at a time, the jumps from the men next to the
    /// ball): no pass over every action index.
    pub fn for_each_legal_action_index(&self, mut visit: impl FnMut(usize)) {
        let (pos, mid_jump, landings) = self.action_parts();
        let size = pos.size();
        // Row-major bitboard order is index order.
        let cols = size.cols() as usize;
        for p in StepState::legal_placements(&pos, mid_jump) {
            visit((p.row() as usize - 1) * cols + p.col() as usize);
        }
        landings.into_iter().for_each(&mut visit);
        if mid_jump {
            visit(size.action_count() - 1);
        }
    }

    /// The indices of the legal actions, in increasing order.
    pub fn legal_action_indices(&self) -> Vec<usize> {
        let mut indices = Vec::new();
        self.for_each_legal_action_index(|i| indices.push(i));
        indices
    }

    /// One of the legal actions' indices, uniformly at random from `rng`
    /// (none once the game is over). It picks the k-th legal action by
    /// counting the placements a row at a time, without listing them.
    pub fn random_legal_action_index(&self, rng: &mut SplitMix64) -> Option<usize> {
        let (pos, mid_jump, landings) = self.action_parts();
        let size = pos.size();
        let placements = StepState::legal_placements(&pos, mid_jump);
        let total = placements.count() as usize + landings.len() + usize::from(mid_jump);
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        for row in 1..=size.rows() {
            let mut bits = placements.row_bits(row);
            let here = bits.count_ones() as usize;
            if k < here {
                for _ in 0..k {
                    bits &= bits - 1;
                }
                let col = bits.trailing_zeros() as usize;
                return Some((row as usize - 1) * size.cols() as usize + col);
            }
            k -= here;
        }
        match landings.get(k) {
            Some(&i) => Some(i),
            None => size.action_index(Action::EndJump),
        }
    }

    /// One flag per action index ([`BoardSize::action_count`] of them):
    /// whether that action is legal here.
    pub fn legal_action_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; self.position().size().action_count()];
        self.write_legal_action_mask(&mut mask);
        mask
    }

    /// [`StepState::legal_action_mask`] written into `mask`, without
    /// allocating (a batch of games writes into one array). Each flag is
    /// written once; the placements come a bitboard row at a time.
    ///
    /// # Panics
    /// If `mask` does not have [`BoardSize::action_count`] flags.
    pub fn write_legal_action_mask(&self, mask: &mut [bool]) {
        let (pos, mid_jump, landings) = self.action_parts();
        let size = pos.size();
        let count = size.action_count();
        assert_eq!(
            mask.len(),
            count,
            "a legal-action mask of this board has {count} flags"
        );
        let (cols, rows) = (size.cols() as usize, size.rows() as usize);
        let (placement_flags, rest) = mask.split_at_mut(cols * rows);
        let placements = StepState::legal_placements(&pos, mid_jump);
        for (row, flags) in (1..).zip(placement_flags.chunks_exact_mut(cols)) {
            let bits = placements.row_bits(row);
            for (col, flag) in flags.iter_mut().enumerate() {
                *flag = (bits >> col) & 1 != 0;
            }
        }
        rest.fill(false);
        for i in landings {
            mask[i] = true;
        }
        mask[count - 1] = mid_jump;
    }
}

/// One step of step-by-step play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Put a man on this point (a whole move: the turn passes).
    Place(Point),
    /// Jump the ball once, landing on this point (the turn is kept).
    JumpTo(Point),
    /// End the jump move under way (the turn passes).
    EndJump,
}

/// An action that cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The index is not an action of this board.
    #[error("action {index} does not exist: a {cols}x{rows} board has actions 0 to {last}")]
    OutOfRange {
        /// The index given.
        index: usize,
        /// Board columns.
        cols: u8,
        /// Board rows.
        rows: u8,
        /// The largest action index.
        last: usize,
    },
    /// "End the jump move" with no jump move under way.
    #[error("no jump move is under way, so there is none to end")]
    NoJumpUnderWay,
    /// The placement or jump is illegal here.
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
}

impl BoardSize {
    /// The number of actions of this board: `cols * (2 * rows + 2) + 1`.
    pub fn action_count(self) -> usize {
        let (c, r) = (self.cols() as usize, self.rows() as usize);
        c * (2 * r + 2) + 1
    }

    /// The index of `action`, if this board has its point (a placement must be
    /// on rows 1..=R, a landing on rows 0..=R+1).
    pub fn action_index(self, action: Action) -> Option<usize> {
        let (c, r) = (self.cols() as usize, self.rows() as usize);
        match action {
            Action::Place(p) if self.is_on_board(p) => {
                Some((p.row() as usize - 1) * c + p.col() as usize)
            }
            Action::JumpTo(p) if self.contains(p) => {
                Some(c * r + p.row() as usize * c + p.col() as usize)
            }
            Action::EndJump => Some(c * (2 * r + 2)),
            _ => None,
        }
    }

    /// The action with index `index`, or an error naming the board's range.
    ///
    /// # Errors
    ///
    /// [`ActionError::OutOfRange`] if no action of this board has index `index`.
    pub fn action_of_index(self, index: usize) -> Result<Action, ActionError> {
        self.action_at(index).ok_or(ActionError::OutOfRange {
            index,
            cols: self.cols(),
            rows: self.rows(),
            last: self.action_count() - 1,
        })
    }

    /// The action with index `index`, if this board has it.
    pub fn action_at(self, index: usize) -> Option<Action> {
        let (c, r) = (self.cols() as usize, self.rows() as usize);
        let point =
            |i: usize, first_row: usize| Point::new((i % c) as u8, (i / c + first_row) as u8);
        if index < c * r {
            point(index, 1).map(Action::Place)
        } else if index < c * (2 * r + 2) {
            point(index - c * r, 0).map(Action::JumpTo)
        } else if index == c * (2 * r + 2) {
            Some(Action::EndJump)
        } else {
            None
        }
    }
}

impl Action {
    /// The actions that make move `m` step by step: a placement, or one jump
    /// per landing and then [`Action::EndJump`].
    pub fn of_move(m: &Move) -> Vec<Action> {
        match m {
            Move::Place(p) => vec![Action::Place(*p)],
            Move::Jump(path) => path
                .iter()
                .skip(1)
                .map(|&p| Action::JumpTo(p))
                .chain([Action::EndJump])
                .collect(),
        }
    }
}

impl fmt::Display for Action {
    /// `place H5`, `jump to H5` or `end jump`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(p) => write!(f, "place {p}"),
            Action::JumpTo(p) => write!(f, "jump to {p}"),
            Action::EndJump => f.write_str("end jump"),
        }
    }
}

impl FromStr for Action {
    type Err = ParseError;

    /// Parses the text `Display` writes: `place H5`, `jump to H5`, `end jump`
    /// (spaces between the words may vary).
    fn from_str(text: &str) -> Result<Action, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [] => Err(ParseError::Empty { what: "action" }),
            ["place", p] => Ok(Action::Place(p.parse()?)),
            ["jump", "to", p] => Ok(Action::JumpTo(p.parse()?)),
            ["end", "jump"] => Ok(Action::EndJump),
            _ => Err(ParseError::Action {
                text: text.to_string(),
            }),
        }
    }
}

impl Position {
    /// The legal actions at the start of a move, in index order: the
    /// placements and single jumps; none once the game is over.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions: Vec<Action> = self.placement_points().iter().map(Action::Place).collect();
        let mut landings: Vec<Point> = self.single_jumps().iter().map(|j| j.to).collect();
        landings.sort_by_key(|p| p.index());
        actions.extend(landings.into_iter().map(Action::JumpTo));
        actions
    }

    /// One flag per action index ([`BoardSize::action_count`] of them): whether
    /// that action is legal here.
    pub fn legal_action_mask(&self) -> Vec<bool> {
        StepState::from(*self).legal_action_mask()
    }

    /// Takes one action: a placement passes the turn
    /// ([`StepState::Move`]), a jump starts a jump move
    /// ([`StepState::Jump`]). Says why an illegal action cannot be taken.
    ///
    /// # Errors
    ///
    /// [`ActionError::Illegal`] with the [`IllegalMoveError`](crate::IllegalMoveError) that says
    /// why the placement or jump is not legal here, [`ActionError::NoJumpUnderWay`]
    /// for [`Action::EndJump`].
    pub fn apply_action(&self, action: Action) -> Result<StepState, ActionError> {
        match action {
            Action::Place(p) => Ok(self.play(&Move::Place(p))?.into()),
            Action::JumpTo(to) => Ok(self.apply_jump(to)?.into()),
            Action::EndJump => match self.winner() {
                Some(winner) => Err(IllegalMoveError::GameOver { winner }.into()),
                None => Err(ActionError::NoJumpUnderWay),
            },
        }
    }

    /// [`Position::apply_action`] by action index.
    ///
    /// # Errors
    ///
    /// As [`Position::apply_action`], and [`ActionError::OutOfRange`] for an index
    /// no action of this board has.
    pub fn apply_action_index(&self, index: usize) -> Result<StepState, ActionError> {
        self.apply_action(self.size.action_of_index(index)?)
    }
}

impl JumpInProgress {
    /// The legal actions, in index order: the single jumps, then
    /// [`Action::EndJump`].
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut landings: Vec<Point> = self.single_jumps().iter().map(|j| j.to).collect();
        landings.sort_by_key(|p| p.index());
        let mut actions: Vec<Action> = landings.into_iter().map(Action::JumpTo).collect();
        actions.push(Action::EndJump);
        actions
    }

    /// One flag per action index: whether that action is legal here.
    pub fn legal_action_mask(&self) -> Vec<bool> {
        StepState::from(*self).legal_action_mask()
    }

    /// Takes one action: a jump continues the move, [`Action::EndJump`] ends
    /// it; a placement is illegal until the move has ended.
    ///
    /// # Errors
    ///
    /// [`ActionError::Illegal`]: [`IllegalMoveError::JumpInProgress`] for a placement, or
    /// why the jump is not legal here.
    pub fn apply_action(&self, action: Action) -> Result<StepState, ActionError> {
        match action {
            Action::Place(_) => Err(IllegalMoveError::JumpInProgress.into()),
            Action::JumpTo(to) => Ok(self.apply_jump(to)?.into()),
            Action::EndJump => Ok(self.end().into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jumps::jump_in_progress::tests::started;
    use crate::{Rules, Side};

    const SEEDS_EXAMPLE: &str = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O";

    fn pt(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn standard_board_has_601_actions_and_indices_round_trip() {
        let size = BoardSize::STANDARD;
        assert_eq!(size.action_count(), 15 * 40 + 1);
        for i in 0..size.action_count() {
            let a = size.action_at(i).unwrap();
            assert_eq!(size.action_index(a), Some(i), "{a:?}");
        }
        assert_eq!(size.action_at(size.action_count()), None);
        assert_eq!(size.action_at(0), Some(Action::Place(pt("A1"))));
        assert_eq!(size.action_at(15 * 19 - 1), Some(Action::Place(pt("P19"))));
        assert_eq!(size.action_at(15 * 19), Some(Action::JumpTo(pt("A0"))));
        assert_eq!(size.action_at(600 - 1), Some(Action::JumpTo(pt("P20"))));
        assert_eq!(size.action_at(600), Some(Action::EndJump));
        assert_eq!(size.action_index(Action::Place(pt("H20"))), None);
        assert_eq!(size.action_index(Action::JumpTo(pt("Q5"))), None);
    }

    #[test]
    fn start_position_has_284_legal_actions_all_placements() {
        let pos = Position::standard();
        let mask = pos.legal_action_mask();
        assert_eq!(mask.iter().filter(|&&b| b).count(), 284);
        assert!(
            !mask[BoardSize::STANDARD
                .action_index(Action::Place(pt("H10")))
                .unwrap()]
        );
        assert!(pos
            .legal_actions()
            .iter()
            .all(|a| matches!(a, Action::Place(_))));
    }

    #[test]
    fn mask_agrees_with_placements_and_first_jumps_of_legal_moves() {
        for text in [
            SEEDS_EXAMPLE,
            "15/15/15/15/15/15/15/15/15/7@7/7#7/7#7/15/15/15/15/15/15/15 O",
        ] {
            let pos: Position = text.parse().unwrap();
            let mut expected: Vec<Action> = Vec::new();
            for m in pos.legal_moves().unwrap() {
                let first = Action::of_move(&m)[0];
                if !expected.contains(&first) {
                    expected.push(first);
                }
            }
            let mut legal = pos.legal_actions();
            expected.sort();
            legal.sort();
            assert_eq!(legal, expected, "{text}");
        }
    }

    #[test]
    fn jump_actions_then_end_equal_playing_the_path() {
        let pos: Position = SEEDS_EXAMPLE.parse().unwrap();
        let m: Move = "K6-G9-G11-J11".parse().unwrap();
        let mut step = StepState::from(pos);
        let size = pos.size();
        for a in Action::of_move(&m) {
            let i = size.action_index(a).unwrap();
            assert!(step.legal_action_mask()[i], "{a:?} should be legal");
            step = step.apply_action_index(i).unwrap();
            if a != Action::EndJump {
                assert!(step.is_mid_jump());
                assert_eq!(step.to_move(), pos.to_move());
                assert!(!step
                    .legal_actions()
                    .iter()
                    .any(|a| matches!(a, Action::Place(_))));
            }
        }
        assert_eq!(step, StepState::Move(pos.play(&m).unwrap()));
    }

    #[test]
    fn indices_and_mask_agree_with_the_legal_actions_along_random_play() {
        let mut rng = crate::SplitMix64::new(11);
        let mut state = StepState::from(Position::standard());
        let size = BoardSize::STANDARD;
        let mut mask = vec![true; size.action_count()];
        let mut mid_jumps = 0;
        for _ in 0..400 {
            let expected: Vec<usize> = state
                .legal_actions()
                .into_iter()
                .filter_map(|a| size.action_index(a))
                .collect();
            assert_eq!(state.legal_action_indices(), expected, "{state}");
            state.write_legal_action_mask(&mut mask);
            let from_mask: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
            assert_eq!(from_mask, expected, "{state}");
            // Draws are legal; on short lists, every action is drawn.
            let mut drawn = std::collections::BTreeSet::new();
            for _ in 0..expected.len().clamp(1, 16) * 20 {
                drawn.insert(state.random_legal_action_index(&mut rng));
            }
            let every: std::collections::BTreeSet<Option<usize>> =
                expected.iter().map(|&i| Some(i)).collect();
            let every = if every.is_empty() {
                [None].into()
            } else {
                every
            };
            if every.len() <= 16 {
                assert_eq!(drawn, every, "{state}");
            } else {
                assert!(drawn.is_subset(&every), "{state}");
            }
            if state.is_finished() {
                state = StepState::from(Position::standard());
                continue;
            }
            // Jumps when there are some, so that jump moves get played.
            let jumps: Vec<usize> = expected.iter().copied().filter(|&i| i >= 285).collect();
            let pool = if !jumps.is_empty() && rng.chance(3, 4) {
                &jumps
            } else {
                &expected
            };
            state = state
                .apply_action_index(pool[rng.below(pool.len())])
                .unwrap();
            mid_jumps += usize::from(state.is_mid_jump());
        }
        assert!(
            mid_jumps > 10,
            "the walk should make jump moves: {mid_jumps}"
        );
    }

    #[test]
    fn illegal_actions_say_why() {
        let pos = Position::standard();
        assert_eq!(
            pos.apply_action(Action::EndJump),
            Err(ActionError::NoJumpUnderWay)
        );
        assert!(matches!(
            pos.apply_action_index(601),
            Err(ActionError::OutOfRange {
                index: 601,
                last: 600,
                ..
            })
        ));
        assert!(matches!(
            pos.apply_action(Action::JumpTo(pt("H12"))),
            Err(ActionError::Illegal(_))
        ));
    }

    #[test]
    fn actions_have_a_text_form_that_round_trips() {
        for (action, text) in [
            (Action::Place(pt("H5")), "place H5"),
            (Action::JumpTo(pt("H5")), "jump to H5"),
            (Action::EndJump, "end jump"),
        ] {
            assert_eq!(action.to_string(), text);
            assert_eq!(text.parse::<Action>(), Ok(action));
        }
        assert_eq!(
            "  jump   to A0 ".parse::<Action>(),
            Ok(Action::JumpTo(pt("A0")))
        );
        for bad in ["", "place", "jump H5", "end", "place I5", "hop to H5"] {
            assert!(bad.parse::<Action>().is_err(), "{bad:?}");
        }
        let err = "hop to H5".parse::<Action>().unwrap_err().to_string();
        assert!(
            err.contains("\"place <point>\", \"jump to <point>\" or \"end jump\""),
            "{err}"
        );
    }

    #[test]
    fn a_jump_in_progress_allows_only_jumps_and_ending() {
        let jump = started();
        assert_eq!(
            jump.apply_action(Action::Place(pt("A1"))),
            Err(ActionError::Illegal(IllegalMoveError::JumpInProgress))
        );
        assert_eq!(
            jump.legal_actions(),
            vec![Action::JumpTo(pt("G11")), Action::EndJump]
        );
        let state = StepState::from(jump);
        assert_eq!(state.winner(), None);
        assert!(state.is_mid_jump() && !state.is_finished());
        assert!(jump
            .diagram()
            .ends_with("\nOhs (O) to move, jumping from K6 (removed J7, H8)\n"));
    }

    #[test]
    fn a_ball_on_a_strip_ends_the_move_unless_the_rules_allow_more() {
        let pos: Position = "1#1/1#1/1@1/3/3 O".parse().unwrap();
        let jump = pos.apply_jump(pt("B6")).unwrap();
        assert_eq!(jump.legal_actions(), vec![Action::EndJump]);
        assert_eq!(
            jump.apply_jump(pt("B4")),
            Err(IllegalMoveError::AfterOffBoard(pt("B6")))
        );
        assert_eq!(jump.end().winner(), Some(Side::Ohs));
        let rules = Rules {
            continue_off_board: true,
            ..Rules::default()
        };
        let pos = pos.with_rules(rules).unwrap();
        let jump = pos.apply_jump(pt("B6")).unwrap();
        assert_eq!(jump.single_jumps().len(), 0, "nothing left to jump");
        assert_eq!(
            jump.apply_jump(pt("B2")),
            Err(IllegalMoveError::Gap {
                from: pt("B6"),
                to: pt("B2"),
                gap: pt("B5")
            })
        );
    }
}
