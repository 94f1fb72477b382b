//! Reading a certificate from a file or a stream under a caller's budget:
//! plain text or gzip (by its first two bytes), a line at a time, so that
//! neither a gzip bomb nor an endless stream (`/dev/zero`) can hold the
//! reader past its deadline, its cancel flag or its memory limit.

use std::io::{self, BufRead, BufReader, Read};
use std::mem::size_of;

use flate2::bufread::MultiGzDecoder;
use phutball::{Budget, Move, SearchError};
use thiserror::Error;

use super::text::{refused_bytes, LineParser};
use super::{Certificate, CertificateParseError, Target};

/// The longest line a certificate may have: 1 MiB. Its real lines are
/// under a few kilobytes (the longest position string of the largest board
/// and a jump across it); the bound lets a reader refuse a bomb's endless
/// line after reading 1 MiB of it instead of all of it.
pub const MAX_CERTIFICATE_LINE: usize = 1 << 20;

/// Bytes read between two polls of the budget's stop, at most.
const POLL_BYTES: usize = 1 << 20;
/// Lines read between two polls of the budget's stop, at most.
const POLL_LINES: usize = 64;

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Why a certificate could not be read from a stream.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CertificateReadError {
    /// The stream failed (a read error, or gzip data that does not unpack).
    #[error("cannot read it: {message}")]
    Unreadable {
        /// What failed.
        message: String,
    },
    /// The text is not a certificate.
    #[error("not a certificate: {0}")]
    Parse(#[from] CertificateParseError),
    /// The budget stopped the reading: its deadline, its cancel flag, its
    /// memory limit ([`SearchError::MemoryLimit`] counts the nodes read),
    /// or the allocator's refusal.
    #[error(transparent)]
    Stopped(#[from] SearchError),
}

/// A stream that polls the budget at every read: past its stop, the read
/// fails with the stop inside the error, which [`read_failure`] takes out.
struct Polled<'b, R> {
    source: R,
    budget: &'b Budget<'b>,
}

/// The budget's stop, carried through `io::Error` (and gzip's decoder).
#[derive(Debug, Error)]
#[error("{0}")]
struct Stop(SearchError);

impl<R: Read> Read for Polled<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(stop) = self.budget.interrupted() {
            return Err(io::Error::other(Stop(stop)));
        }
        self.source.read(buf)
    }
}

/// The error of a failed read: the budget's stop, or the stream's (or
/// gzip's) failure.
fn read_failure(e: &io::Error, gzip: bool) -> CertificateReadError {
    if let Some(Stop(stop)) = e.get_ref().and_then(|inner| inner.downcast_ref::<Stop>()) {
        return CertificateReadError::Stopped(stop.clone());
    }
    CertificateReadError::Unreadable {
        message: if gzip {
            format!("not a readable gzip stream: {e}")
        } else {
            e.to_string()
        },
    }
}

impl Certificate {
    /// Reads a certificate's text form ([`FromStr`](core::str::FromStr)),
    /// plain or gzip-compressed, from `source` under `budget`: its stop is
    /// polled at least every 64 lines and every MiB read, and the nodes
    /// read count against its memory limit. A line longer than
    /// [`MAX_CERTIFICATE_LINE`] is refused without reading the rest of it.
    ///
    /// ```
    /// use phutball::{Budget, SearchError};
    /// use phutball_solver::{Certificate, CertificateReadError};
    /// let text = "phutball-proof 1\nrules\nwinner O\nnode 0 #/@/# O\nmove A2-A4 goal\nend\n";
    /// let cert = Certificate::read_within(text.as_bytes(), &Budget::default())?;
    /// assert_eq!(cert, text.parse()?);
    ///
    /// // An endless stream of NUL bytes is refused at once.
    /// let zeros = std::io::repeat(0);
    /// let err = Certificate::read_within(zeros, &Budget::default()).unwrap_err();
    /// assert!(err.to_string().contains("NUL byte"), "{err}");
    ///
    /// // An endless stream of comment lines ends with the budget.
    /// let comments = std::io::repeat(b'\n');
    /// let stop = std::sync::atomic::AtomicBool::new(true);
    /// let err = Certificate::read_within(comments, &Budget::default().with_cancel_flag(&stop));
    /// assert_eq!(err, Err(CertificateReadError::Stopped(SearchError::Cancelled)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`CertificateReadError`]: the stream failed, the text is not a
    /// certificate (with its line), or the budget stopped the reading.
    pub fn read_within(
        source: impl Read,
        budget: &Budget<'_>,
    ) -> Result<Certificate, CertificateReadError> {
        if let Some(stop) = budget.interrupted() {
            return Err(stop.into());
        }
        // Every read of the stream polls the budget, so that nothing read
        // (gzip that unpacks to nothing included) escapes it.
        let mut polled = Polled { source, budget };
        let mut magic = [0; 2];
        let mut got = 0;
        while got < magic.len() {
            match polled.read(&mut magic[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(read_failure(&e, false)),
            }
        }
        let whole = io::Cursor::new(magic).take(got as u64).chain(polled);
        if magic[..got] == GZIP_MAGIC {
            let unpacked = MultiGzDecoder::new(BufReader::new(whole));
            read_lines(BufReader::new(unpacked), budget, true)
        } else {
            read_lines(BufReader::new(whole), budget, false)
        }
    }
}

/// Reads the text of `source` line by line into a [`LineParser`].
fn read_lines(
    mut source: impl BufRead,
    budget: &Budget<'_>,
    gzip: bool,
) -> Result<Certificate, CertificateReadError> {
    let mut parser = LineParser::default();
    let mut line = Vec::new();
    let mut number = 0;
    let (mut lines_since_poll, mut bytes_since_poll) = (0, 0);
    let mut memory = Memory::new(budget);
    loop {
        line.clear();
        let ended = read_line(&mut source, &mut line, number + 1, gzip)?;
        if line.is_empty() && ended {
            break;
        }
        number += 1;
        lines_since_poll += 1;
        bytes_since_poll += line.len();
        if lines_since_poll >= POLL_LINES || bytes_since_poll >= POLL_BYTES {
            if let Some(stop) = budget.interrupted() {
                return Err(stop.into());
            }
            (lines_since_poll, bytes_since_poll) = (0, 0);
        }
        let text = std::str::from_utf8(&line).map_err(|_| CertificateParseError {
            line: number,
            message: "not UTF-8 text".to_string(),
        })?;
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        // The limit is on the text, its line end not counted.
        if text.len() > MAX_CERTIFICATE_LINE {
            return Err(too_long(number).into());
        }
        // Room for one more node, asked of the allocator before the parser
        // grows its list, so that its refusal is an error, not an abort.
        parser
            .try_reserve_node()
            .map_err(|_| SearchError::OutOfMemory {
                what: "the certificate's nodes",
            })?;
        let kept = parser.line(number, text)?;
        // Blank lines and comments hold nothing.
        if kept > 0 {
            memory.count(&parser, kept)?;
        }
        if ended {
            break;
        }
    }
    Ok(parser.finish(number)?)
}

/// Line `number`'s refusal for being longer than [`MAX_CERTIFICATE_LINE`].
fn too_long(number: usize) -> CertificateParseError {
    CertificateParseError {
        line: number,
        message: format!(
            "longer than {MAX_CERTIFICATE_LINE} bytes (a certificate's lines are short)"
        ),
    }
}

/// Reads one line of `source` into `line`, its `\n` included, refusing a
/// NUL byte, or more than [`MAX_CERTIFICATE_LINE`] bytes and a line end, as
/// soon as it meets them. Answers whether the stream ended.
fn read_line(
    source: &mut impl BufRead,
    line: &mut Vec<u8>,
    number: usize,
    gzip: bool,
) -> Result<bool, CertificateReadError> {
    loop {
        let chunk = match source.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(read_failure(&e, gzip)),
        };
        if chunk.is_empty() {
            return Ok(true);
        }
        let (taken, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(end) => (&chunk[..=end], true),
            None => (chunk, false),
        };
        if taken.contains(&0) {
            line.extend_from_slice(taken);
            if let Some(refusal) = refused_bytes(number, line) {
                return Err(refusal.into());
            }
        }
        // Room for the text and a `\r\n`: the text's own limit is checked
        // once the line end is cut.
        if line.len() + taken.len() > MAX_CERTIFICATE_LINE + 2 {
            return Err(too_long(number).into());
        }
        line.extend_from_slice(taken);
        let used = taken.len();
        source.consume(used);
        if done {
            return Ok(false);
        }
    }
}

/// The memory the nodes read hold, about, against the budget's limit.
struct Memory {
    limit: usize,
    held: usize,
}

impl Memory {
    fn new(budget: &Budget<'_>) -> Memory {
        Memory {
            limit: budget.memory_limit(),
            held: 0,
        }
    }

    /// Counts a line of `bytes` read: a move's record, and the line's
    /// length for the heap its move or node holds (the list of nodes is
    /// counted as it is).
    fn count(&mut self, parser: &LineParser, bytes: usize) -> Result<(), SearchError> {
        self.held = self
            .held
            .saturating_add(bytes + size_of::<(Move, Target)>());
        if parser.node_bytes().saturating_add(self.held) > self.limit {
            return Err(SearchError::MemoryLimit {
                limit: self.limit,
                what: "the certificate's nodes",
            });
        }
        Ok(())
    }
}
