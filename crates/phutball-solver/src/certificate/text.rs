//! The certificate's text form: line-based, one node per `node` line
//! followed by its `move` or `reply` lines and its `else` and `pass` lines
//! (docs/certificates.md). Version 1 has no `pass` line; version 2 may.

use core::fmt;
use core::str::FromStr;
use std::collections::TryReserveError;

use phutball::{quoted, Bitboard, Move, Point, Position, Rules, Side};
use thiserror::Error;

use super::{Certificate, CertificateNode, PassAnswer, Target, CERTIFICATE_VERSION};

/// The first word of a certificate.
const MAGIC: &str = "phutball-proof";

/// Why a text is not a well-formed certificate (its moves are not checked
/// here: [`Certificate::check`] does that).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct CertificateParseError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

fn bad(line: usize, message: impl Into<String>) -> CertificateParseError {
    CertificateParseError {
        line,
        message: message.into(),
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Goal => f.write_str("goal"),
            Target::Node(i) => write!(f, "{i}"),
        }
    }
}

impl fmt::Display for Certificate {
    /// The text form: `phutball-proof 1` (or `2` when a node has a `pass`
    /// line), `rules ...`, `winner O|X`, then each node (`node I POSITION`)
    /// with its `move M T` or `reply M T` lines, at most one `pass T ZONE`
    /// and at most one `else M`, then `end`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Version 1 without pass lines: what every reader of version 1 reads.
        let version = if self.nodes.iter().any(|n| n.pass.is_some()) {
            CERTIFICATE_VERSION
        } else {
            1
        };
        writeln!(f, "{MAGIC} {version}")?;
        let rules = self.root().map(Position::rules).unwrap_or_default();
        if rules == Rules::default() {
            writeln!(f, "rules")?;
        } else {
            writeln!(f, "rules {rules}")?;
        }
        writeln!(f, "winner {}", self.winner.char())?;
        for (i, node) in self.nodes.iter().enumerate() {
            writeln!(f, "node {i} {}", node.position)?;
            let word = if node.position.to_move() == self.winner {
                "move"
            } else {
                "reply"
            };
            for (m, target) in &node.moves {
                writeln!(f, "{word} {m} {target}")?;
            }
            if let Some(pass) = &node.pass {
                write!(f, "pass {}", pass.target)?;
                for (k, p) in pass.zone.iter().enumerate() {
                    f.write_str(if k == 0 { " " } else { "," })?;
                    write!(f, "{p}")?;
                }
                writeln!(f)?;
            }
            if let Some(m) = &node.otherwise {
                writeln!(f, "else {m}")?;
            }
        }
        writeln!(f, "end")
    }
}

impl FromStr for Certificate {
    type Err = CertificateParseError;

    /// Reads the text form. Blank lines and `;` comments are skipped; the
    /// header lines come first, in order; nodes are numbered 0, 1, 2, ...
    /// (A file or a stream is read under a budget by [`Certificate::read_within`].)
    fn from_str(text: &str) -> Result<Certificate, CertificateParseError> {
        let mut parser = LineParser::default();
        let mut count = 0;
        for (i, line) in text.lines().enumerate() {
            count = i + 1;
            parser.line(count, line)?;
        }
        parser.finish(count)
    }
}

/// The text form read a line at a time, so that a stream is read without
/// holding its text: [`FromStr`] and [`Certificate::read_within`] both
/// feed it.
#[derive(Default)]
pub(super) struct LineParser {
    /// The header lines read so far: `phutball-proof`, `rules`, `winner`.
    header: Header,
    /// The format version the first line gives (0 before it is read).
    version: u32,
    nodes: Vec<CertificateNode>,
    ended: bool,
}

/// The header lines read so far, with what they said.
#[derive(Default)]
enum Header {
    #[default]
    Magic,
    Rules,
    Winner {
        rules: Rules,
        rules_line: usize,
    },
    Read {
        rules: Rules,
        rules_line: usize,
        winner: Side,
    },
}

impl LineParser {
    /// Reads line `n` (from 1) of the text: the bytes it kept (0 for a
    /// blank line or a comment).
    pub(super) fn line(&mut self, n: usize, raw: &str) -> Result<usize, CertificateParseError> {
        if let Some(refused) = refused_bytes(n, raw.as_bytes()) {
            return Err(refused);
        }
        let l = raw.split(';').next().unwrap_or("").trim();
        if l.is_empty() {
            return Ok(0);
        }
        let (rules, rules_line, winner) = match self.header {
            Header::Magic => {
                let version = header_field(n, l, MAGIC)?;
                self.version = (1..=CERTIFICATE_VERSION)
                    .find(|v| version == v.to_string())
                    .ok_or_else(|| {
                        bad(
                            n,
                            format!(
                                "unsupported version {} (this reader knows 1 to {CERTIFICATE_VERSION})",
                                quoted(version)
                            ),
                        )
                    })?;
                self.header = Header::Rules;
                return Ok(l.len());
            }
            Header::Rules => {
                let rules = header_field(n, l, "rules")?
                    .parse()
                    .map_err(|e| bad(n, format!("bad rules: {e}")))?;
                self.header = Header::Winner {
                    rules,
                    rules_line: n,
                };
                return Ok(l.len());
            }
            Header::Winner { rules, rules_line } => {
                let winner = header_field(n, l, "winner")?;
                let winner = single_char(winner)
                    .and_then(Side::from_char)
                    .ok_or_else(|| {
                        bad(n, format!("winner must be O or X, not {}", quoted(winner)))
                    })?;
                self.header = Header::Read {
                    rules,
                    rules_line,
                    winner,
                };
                return Ok(l.len());
            }
            Header::Read {
                rules,
                rules_line,
                winner,
            } => (rules, rules_line, winner),
        };
        if self.ended {
            return Err(bad(n, "text after `end`"));
        }
        let (word, rest) = l.split_once(' ').unwrap_or((l, ""));
        match word {
            "node" => {
                let node = node_line(n, rest, self.nodes.len(), rules, rules_line)?;
                self.nodes.push(node);
            }
            "move" | "reply" => {
                let node = self
                    .nodes
                    .last_mut()
                    .ok_or_else(|| bad(n, format!("`{word}` before the first node")))?;
                let m = move_line(n, word, rest, node, winner)?;
                node.moves.push(m);
            }
            "else" => {
                let node = self
                    .nodes
                    .last_mut()
                    .ok_or_else(|| bad(n, "`else` before the first node"))?;
                node.otherwise = Some(else_line(n, rest, node, winner)?);
            }
            "pass" => {
                if self.version < 2 {
                    return Err(bad(
                        n,
                        format!(
                            "a `pass` line needs format version 2 (the first line says version {})",
                            self.version
                        ),
                    ));
                }
                let i = self.nodes.len().saturating_sub(1);
                let node = self
                    .nodes
                    .last_mut()
                    .ok_or_else(|| bad(n, "`pass` before the first node"))?;
                node.pass = Some(pass_line(n, rest, i, node, winner)?);
            }
            "end" if rest.is_empty() => self.ended = true,
            _ => return Err(bad(n, format!("unknown line {}", quoted(l)))),
        }
        Ok(l.len())
    }

    /// Room for one more node, from the allocator.
    pub(super) fn try_reserve_node(&mut self) -> Result<(), TryReserveError> {
        self.nodes.try_reserve(1)
    }

    /// The bytes the list of nodes holds (their moves not counted).
    pub(super) fn node_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<CertificateNode>()
    }

    /// The certificate, after the text's last line, line `last` (0 for
    /// an empty text).
    pub(super) fn finish(self, last: usize) -> Result<Certificate, CertificateParseError> {
        let last = last.max(1);
        let winner = match self.header {
            Header::Magic => return Err(bad(last, format!("missing the `{MAGIC}` line"))),
            Header::Rules => return Err(bad(last, "missing the `rules` line")),
            Header::Winner { .. } => return Err(bad(last, "missing the `winner` line")),
            Header::Read { winner, .. } => winner,
        };
        if !self.ended {
            return Err(bad(last, "missing the `end` line (truncated?)"));
        }
        Ok(Certificate {
            winner,
            nodes: self.nodes,
        })
    }
}

/// Line `n`'s refusal for the bytes no certificate has, if it has them:
/// a byte-order mark starting the text, then a NUL byte anywhere. A stream
/// reader asks as the bytes come, before a line ends.
pub(super) fn refused_bytes(n: usize, line: &[u8]) -> Option<CertificateParseError> {
    if n == 1 && line.starts_with("\u{feff}".as_bytes()) {
        return Some(bad(
            n,
            "the text starts with a byte-order mark (U+FEFF): a certificate is UTF-8 without one",
        ));
    }
    line.contains(&0)
        .then(|| bad(n, "a NUL byte: a certificate is text"))
}

/// What follows `word` on header line `n` (`l`, comment cut and trimmed).
fn header_field<'a>(n: usize, l: &'a str, word: &str) -> Result<&'a str, CertificateParseError> {
    l.strip_prefix(word)
        .filter(|r| r.is_empty() || r.starts_with(' '))
        .map(str::trim)
        .ok_or_else(|| {
            bad(
                n,
                format!("expected the `{word}` line, found {}", quoted(l)),
            )
        })
}

/// A `node I POSITION` line (`rest` is what follows `node`), which must
/// number the node `expected`.
/// The rules were read on line `rules_line`: a start point that does not
/// fit the node's board is blamed there.
fn node_line(
    n: usize,
    rest: &str,
    expected: usize,
    rules: Rules,
    rules_line: usize,
) -> Result<CertificateNode, CertificateParseError> {
    let (index, pos) = rest.split_once(' ').unwrap_or((rest, ""));
    if index != expected.to_string() {
        return Err(bad(
            n,
            format!("node {} out of order (expected {expected})", quoted(index)),
        ));
    }
    let position = Position::parse_with_rules(pos.trim(), rules).map_err(|e| {
        let centred = Rules {
            start: None,
            ..rules
        };
        match Position::parse_with_rules(pos.trim(), centred).map(|p| rules.validate(p.size())) {
            Ok(Err(unfit)) => bad(
                rules_line,
                format!("the rules do not fit node {expected}'s board: {unfit}"),
            ),
            _ => bad(n, format!("bad position: {e}")),
        }
    })?;
    Ok(CertificateNode {
        position,
        moves: Vec::new(),
        otherwise: None,
        pass: None,
    })
}

/// Refuses line `n`, a `word` line of `node` (which may have only one),
/// where the winner is to move or where the node has one `already`.
fn once_at_losers_node(
    n: usize,
    word: &str,
    node: &CertificateNode,
    winner: Side,
    already: bool,
) -> Result<(), CertificateParseError> {
    if node.position.to_move() == winner {
        return Err(bad(
            n,
            format!("`{word}` at a node where the winner is to move"),
        ));
    }
    if already {
        return Err(bad(n, format!("a second `{word}` at one node")));
    }
    Ok(())
}

/// An `else M` line of `node` (`rest` is what follows `else`): its move.
fn else_line(
    n: usize,
    rest: &str,
    node: &CertificateNode,
    winner: Side,
) -> Result<Move, CertificateParseError> {
    once_at_losers_node(n, "else", node, winner, node.otherwise.is_some())?;
    rest.trim()
        .parse()
        .map_err(|e| bad(n, format!("bad move: {e}")))
}

/// A `pass T ZONE` line of node `i`, `node` (`rest` is what follows
/// `pass`): its target and zone, the points in notation separated by
/// commas (none for an empty zone), each a point men may stand on of the
/// node's board, none twice.
fn pass_line(
    n: usize,
    rest: &str,
    i: usize,
    node: &CertificateNode,
    winner: Side,
) -> Result<PassAnswer, CertificateParseError> {
    once_at_losers_node(n, "pass", node, winner, node.pass.is_some())?;
    let (target, points) = rest.split_once(' ').unwrap_or((rest, ""));
    let target = target.parse().map_err(|_| {
        bad(
            n,
            format!(
                "the pass line's target must be a node number, not {}",
                quoted(target)
            ),
        )
    })?;
    let board = node.position.size().board_points();
    let mut zone = Bitboard::EMPTY;
    let points = points.trim();
    if !points.is_empty() {
        for name in points.split(',') {
            let name = name.trim();
            let p: Point = name
                .parse()
                .map_err(|e| bad(n, format!("bad point in the pass line's zone: {e}")))?;
            if !board.contains(p) {
                return Err(bad(
                    n,
                    format!(
                        "the pass line's zone has {p}, which is not a point of node {i}'s board"
                    ),
                ));
            }
            if zone.contains(p) {
                return Err(bad(n, format!("the pass line's zone has {p} twice")));
            }
            zone.insert(p);
        }
    }
    Ok(PassAnswer { target, zone })
}

/// A `move M T` or `reply M T` line of `node`: the move and its target.
fn move_line(
    n: usize,
    word: &str,
    rest: &str,
    node: &CertificateNode,
    winner: Side,
) -> Result<(Move, Target), CertificateParseError> {
    let expected = if node.position.to_move() == winner {
        "move"
    } else {
        "reply"
    };
    if word != expected {
        return Err(bad(
            n,
            format!(
                "`{word}` at a node where {} is to move (the winner is {}): use `{expected}`",
                node.position.to_move().char(),
                winner.char()
            ),
        ));
    }
    let (m, target) = rest
        .split_once(' ')
        .ok_or_else(|| bad(n, format!("`{word}` needs a move and a target")))?;
    let m: Move = m.parse().map_err(|e| bad(n, format!("bad move: {e}")))?;
    let target = match target.trim() {
        "goal" => Target::Goal,
        t => Target::Node(t.parse().map_err(|_| {
            bad(
                n,
                format!("target must be a node number or `goal`, not {}", quoted(t)),
            )
        })?),
    };
    Ok((m, target))
}

fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}
