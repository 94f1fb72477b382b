//! The certificate's text form: line-based, one node per `node` line
//! followed by its `move` or `reply` lines (docs/certificates.md).

use core::fmt;
use core::str::FromStr;

use phutball::{Move, Position, Rules, Side};
use thiserror::Error;

use super::{Certificate, CertificateNode, Target, CERTIFICATE_VERSION};

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
    /// The text form: `phutball-proof 1`, `rules ...`, `winner O|X`, then
    /// each node (`node I POSITION`) with its `move M T` or `reply M T`
    /// lines and at most one `else M`, then `end`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{MAGIC} {CERTIFICATE_VERSION}")?;
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
    fn from_str(text: &str) -> Result<Certificate, CertificateParseError> {
        let mut lines = meaningful_lines(text);
        let (rules, winner) = read_header(&mut lines, text)?;
        let mut nodes: Vec<CertificateNode> = Vec::new();
        let mut ended = false;
        for (n, l) in lines {
            if ended {
                return Err(bad(n, "text after `end`"));
            }
            let (word, rest) = l.split_once(' ').unwrap_or((l, ""));
            match word {
                "node" => nodes.push(node_line(n, rest, nodes.len(), rules)?),
                "move" | "reply" => {
                    let node = nodes
                        .last_mut()
                        .ok_or_else(|| bad(n, format!("`{word}` before the first node")))?;
                    node.moves.push(move_line(n, word, rest, node, winner)?);
                }
                "else" => {
                    let node = nodes
                        .last_mut()
                        .ok_or_else(|| bad(n, "`else` before the first node"))?;
                    node.otherwise = Some(else_line(n, rest, node, winner)?);
                }
                "end" if rest.is_empty() => ended = true,
                _ => return Err(bad(n, format!("unknown line `{l}`"))),
            }
        }
        if !ended {
            return Err(bad(
                text.lines().count().max(1),
                "missing the `end` line (truncated?)",
            ));
        }
        Ok(Certificate { winner, nodes })
    }
}

/// The lines of `text` that hold something, numbered from 1, with their
/// `;` comments cut and trimmed.
fn meaningful_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split(';').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// Reads the header lines from `lines` (of `text`): the magic word and
/// version, the rules and the winner.
fn read_header<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    text: &str,
) -> Result<(Rules, Side), CertificateParseError> {
    let mut header = |word: &str| -> Result<(usize, String), CertificateParseError> {
        let (n, l) = lines.next().ok_or_else(|| {
            bad(
                text.lines().count().max(1),
                format!("missing the `{word}` line"),
            )
        })?;
        let rest = l
            .strip_prefix(word)
            .filter(|r| r.is_empty() || r.starts_with(' '))
            .ok_or_else(|| bad(n, format!("expected the `{word}` line, found `{l}`")))?;
        Ok((n, rest.trim().to_string()))
    };
    let (n, version) = header(MAGIC)?;
    if version != CERTIFICATE_VERSION.to_string() {
        return Err(bad(
            n,
            format!("unsupported version `{version}` (this reader knows {CERTIFICATE_VERSION})"),
        ));
    }
    let (n, rules) = header("rules")?;
    let rules: Rules = rules
        .parse()
        .map_err(|e| bad(n, format!("bad rules: {e}")))?;
    let (n, winner) = header("winner")?;
    let winner = single_char(&winner)
        .and_then(Side::from_char)
        .ok_or_else(|| bad(n, format!("winner must be O or X, not `{winner}`")))?;
    Ok((rules, winner))
}

/// A `node I POSITION` line (`rest` is what follows `node`), which must
/// number the node `expected`.
fn node_line(
    n: usize,
    rest: &str,
    expected: usize,
    rules: Rules,
) -> Result<CertificateNode, CertificateParseError> {
    let (index, pos) = rest.split_once(' ').unwrap_or((rest, ""));
    if index != expected.to_string() {
        return Err(bad(
            n,
            format!("node `{index}` out of order (expected {expected})"),
        ));
    }
    let position = Position::parse_with_rules(pos.trim(), rules)
        .map_err(|e| bad(n, format!("bad position: {e}")))?;
    Ok(CertificateNode {
        position,
        moves: Vec::new(),
        otherwise: None,
    })
}

/// An `else M` line of `node` (`rest` is what follows `else`): its move.
fn else_line(
    n: usize,
    rest: &str,
    node: &CertificateNode,
    winner: Side,
) -> Result<Move, CertificateParseError> {
    if node.position.to_move() == winner {
        return Err(bad(n, "`else` at a node where the winner is to move"));
    }
    if node.otherwise.is_some() {
        return Err(bad(n, "a second `else` at one node"));
    }
    rest.trim()
        .parse()
        .map_err(|e| bad(n, format!("bad move `{rest}`: {e}")))
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
    let m: Move = m
        .parse()
        .map_err(|e| bad(n, format!("bad move `{m}`: {e}")))?;
    let target = match target.trim() {
        "goal" => Target::Goal,
        t => Target::Node(t.parse().map_err(|_| {
            bad(
                n,
                format!("target must be a node number or `goal`, not `{t}`"),
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
