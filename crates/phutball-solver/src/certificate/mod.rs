//! Certificates: a proved win as a graph of positions that anyone can check
//! with the plain rules ([`Certificate::check`]). The text format
//! (`docs/certificates.md`) is [`Certificate`]'s `Display` and `FromStr`.
//!
//! At a node where the winner is to move the certificate names one move;
//! at the loser's nodes it names a reply for every distinct outcome of
//! every legal move, or for some of them and a scoring jump that answers
//! all the others (`else`), or for the placements in a zone and a proof
//! from the same position with the winner to move that answers every
//! placement outside it (`pass`, format version 2). Each reply leads to
//! another node or ends the game with the winner's goal. Nodes are listed
//! so that every move leads to a later node: the graph has no cycle, so
//! every line ends in a goal.
//!
//! A `pass` line's zone must hold every point its target's proof depends
//! on; the checker computes that zone itself from the core's
//! [`Position::move_zone`] and [`Position::jump_zone`], from the last node
//! back. A certificate without a `pass` line is written as format
//! version 1, as before version 2 existed; the reader reads both.

mod check;
mod read;
mod save;
mod text;

pub use check::{CertificateError, CheckedProof};
pub use read::{CertificateReadError, MAX_CERTIFICATE_LINE};
pub use text::CertificateParseError;

use phutball::{Bitboard, Move, Position, Side};

/// The newest format version this crate reads and writes (the first line's
/// number). A certificate without a `pass` line is written as version 1,
/// which every reader of version 1 still checks.
pub const CERTIFICATE_VERSION: u32 = 2;

/// A loser's node's answer to a whole class of placements (format version
/// 2): the node `target`, whose position is this node's with the winner to
/// move (as if the loser had passed), proves the win whatever man stands
/// outside `zone`, because nothing its proof plays or answers depends on
/// those points. So every placement outside `zone` is answered by it, and
/// the checker checks that `zone` holds every point the target's proof
/// depends on ([`Position::move_zone`], [`Position::jump_zone`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassAnswer {
    /// The node proving the win with the winner to move here.
    pub target: usize,
    /// The points the answer does not cover: a placement on one of them
    /// needs a reply of its own.
    pub zone: Bitboard,
}

/// Where a move of a certificate leads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The move ends the game with the winner's goal.
    Goal,
    /// The move leads to the node of this index (later than its own).
    Node(usize),
}

/// One position of a certificate and its moves: one move where the winner
/// is to move; where the loser is, a reply for each distinct outcome, or
/// for some of them and an answer to all the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertificateNode {
    /// The position (the rules are the certificate's).
    pub position: Position,
    /// The moves and where they lead.
    pub moves: Vec<(Move, Target)>,
    /// At the loser's node: the winner's answer to every reply not listed
    /// in `moves`, a jump that scores after each of them (most replies do
    /// nothing against a threat; this keeps them out of the file).
    pub otherwise: Option<Move>,
    /// At the loser's node: the proof that answers every placement outside
    /// a zone (format version 2).
    pub pass: Option<PassAnswer>,
}

/// A proof that `winner` forces a goal from the first node's position.
///
/// ```
/// use phutball::{Position, Side};
/// use phutball_solver::{Certificate, CertificateNode, Target};
/// // 1x3, ball on A2, men on A1 and A3, Ohs to move: A2-A4 scores.
/// let root: Position = "#/@/# O".parse()?;
/// let cert = Certificate {
///     winner: Side::Ohs,
///     nodes: vec![CertificateNode {
///         position: root,
///         moves: vec![("A2-A4".parse()?, Target::Goal)],
///         otherwise: None,
///         pass: None,
///     }],
/// };
/// let checked = cert.check(&phutball::Budget::default())?;
/// assert_eq!((checked.winner, checked.plies), (Side::Ohs, 1));
/// let text = cert.to_string();
/// assert_eq!(text.parse::<Certificate>()?, cert);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The side the certificate proves forces a goal.
    pub winner: Side,
    /// The nodes; the first is the root, and every move leads to a later one.
    pub nodes: Vec<CertificateNode>,
}

impl Certificate {
    /// The root position (the first node's), if there is one.
    pub fn root(&self) -> Option<&Position> {
        self.nodes.first().map(|n| &n.position)
    }
}
