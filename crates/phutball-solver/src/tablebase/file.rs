//! The tablebase file format, version 1 (`docs/solver.md`): a 32-byte
//! header, then one value byte a state in index order. All integers are
//! little-endian.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `PHUTTB\r\n` |
//! | 8 | 2 | version, 1 |
//! | 10 | 1 | columns |
//! | 11 | 1 | rows |
//! | 12 | 1 | rule flags: bit 0 continue-off-board, the others 0 |
//! | 13 | 3 | reserved, 0 |
//! | 16 | 8 | state count |
//! | 24 | 8 | checksum: 64-bit FNV-1a of bytes 0-23, then of the values |
//! | 32 | count | values |
//!
//! Reading checks every field before it trusts the next, so a damaged or
//! foreign file is an error naming what is wrong, never a panic or a
//! wrong table. The checksum guards against damage, not forgery: a file
//! whose values were computed wrongly but checksummed again is read.

use std::sync::atomic::{AtomicU8, Ordering};

use std::io::{self, Read};

use phutball::{BoardSize, Budget, SearchError};
use thiserror::Error;

use super::code;
use super::index::{Layout, MAX_TABLEBASE_POINTS};
use super::Tablebase;

/// The first 8 bytes of a tablebase file; the `\r\n` catches a transfer
/// that rewrote line ends.
const MAGIC: [u8; 8] = *b"PHUTTB\r\n";
/// The format version this crate writes and reads.
pub const TABLEBASE_FILE_VERSION: u16 = 1;
/// Bytes before the values.
const HEADER: usize = 32;
/// The rule flag for the continue-off-board rule.
const CONTINUE_OFF_BOARD: u8 = 1;

/// Why bytes are not a tablebase file this crate reads.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TablebaseFileError {
    /// Fewer bytes than the header.
    #[error("not a tablebase file: {len} bytes, shorter than the 32-byte header")]
    TooShort {
        /// The bytes given.
        len: usize,
    },
    /// The first 8 bytes are not the magic.
    #[error("not a tablebase file (its first bytes are not PHUTTB)")]
    BadMagic,
    /// A version this crate does not read.
    #[error("tablebase file version {version} is not supported (this program reads version {TABLEBASE_FILE_VERSION})")]
    UnsupportedVersion {
        /// The file's version.
        version: u16,
    },
    /// A board size no tablebase has.
    #[error("the tablebase file's board {cols}x{rows} is not a tablebase board (at most {MAX_TABLEBASE_POINTS} points)")]
    BadBoard {
        /// The file's columns.
        cols: u8,
        /// The file's rows.
        rows: u8,
    },
    /// Rule flags or reserved bytes this version does not define.
    #[error("the tablebase file's rule flags or reserved bytes are not 0 or 1 ({bytes:02x?})")]
    BadFlags {
        /// Bytes 12-15.
        bytes: [u8; 4],
    },
    /// The state count is not the board's.
    #[error("the tablebase file says {found} states, a {size} board has {expected}")]
    WrongStateCount {
        /// The board.
        size: BoardSize,
        /// The board's state count.
        expected: u64,
        /// The file's.
        found: u64,
    },
    /// The values are cut short or followed by more bytes.
    #[error("the tablebase file has {found} bytes, {expected} expected (truncated or with bytes after the values)")]
    WrongLength {
        /// Header and values.
        expected: u64,
        /// The bytes given.
        found: u64,
    },
    /// The checksum does not match: the file is damaged.
    #[error(
        "the tablebase file is damaged: checksum {found:016x}, the header says {expected:016x}"
    )]
    BadChecksum {
        /// The header's checksum.
        expected: u64,
        /// The checksum of the bytes given.
        found: u64,
    },
    /// A byte that is no value.
    #[error("the tablebase file's value {index} is {code}, not a value")]
    BadValue {
        /// The state's index.
        index: u64,
        /// The byte.
        code: u8,
    },
    /// The allocator refused the table.
    #[error("out of memory reading a tablebase of {states} states")]
    OutOfMemory {
        /// The states of the table.
        states: u64,
    },
}

/// Why a stream is not a tablebase file this crate reads
/// ([`Tablebase::read_within`]): what the bytes would have
/// ([`TablebaseFileError`]), or what only a stream meets.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TablebaseReadError {
    /// The bytes read are not a tablebase file.
    #[error(transparent)]
    File(#[from] TablebaseFileError),
    /// More bytes follow the values (the stream is not read on to count them).
    #[error("the tablebase file goes on after its {expected} bytes (bytes after the values)")]
    TrailingBytes {
        /// Header and values.
        expected: u64,
    },
    /// The stream failed.
    #[error("cannot read the tablebase file: {message}")]
    Unreadable {
        /// What failed.
        message: String,
    },
    /// The budget stopped the reading: its deadline, its cancel flag, or
    /// its memory limit (the table's values are more bytes than allowed).
    #[error(transparent)]
    Stopped(#[from] SearchError),
}

/// 64-bit FNV-1a, continued from `hash` over `bytes`.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// FNV-1a's offset basis.
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

impl Tablebase {
    /// The table in the file format (`docs/solver.md`): 32 bytes of
    /// header, then a byte a state.
    pub fn to_bytes(&self) -> Vec<u8> {
        let states = self.layout.states();
        let mut bytes = Vec::with_capacity(HEADER + self.values.len());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&TABLEBASE_FILE_VERSION.to_le_bytes());
        bytes.push(self.size().cols());
        bytes.push(self.size().rows());
        bytes.push(if self.continue_off_board() {
            CONTINUE_OFF_BOARD
        } else {
            0
        });
        bytes.extend_from_slice(&[0; 3]);
        bytes.extend_from_slice(&states.to_le_bytes());
        let header_hash = fnv1a(FNV_START, &bytes);
        bytes.extend_from_slice(&[0; 8]);
        bytes.extend(self.values.iter().map(|v| v.load(Ordering::Relaxed)));
        let checksum = fnv1a(header_hash, &bytes[HEADER..]);
        bytes[24..32].copy_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Writes [`Tablebase::to_bytes`] to `path` through a temporary file
    /// renamed into place (an interrupted write leaves no half table): the
    /// CLI's `tablebase build --out` and Python's `Tablebase.save`.
    ///
    /// # Errors
    ///
    /// The file system's error writing `path`.
    pub fn save(&self, path: &std::path::Path) -> io::Result<()> {
        crate::atomic_file::write_atomically(path, &self.to_bytes())
    }

    /// Reads a table written by [`Tablebase::to_bytes`], checking every
    /// field, the length, the checksum and every value byte.
    ///
    /// ```
    /// use phutball::{BoardSize, Budget};
    /// use phutball_solver::{Tablebase, TablebaseFileError};
    /// let table = Tablebase::build_within(BoardSize::new(1, 5)?, false, &Budget::default(), &mut |_| {})?;
    /// let mut bytes = table.to_bytes();
    /// assert_eq!(Tablebase::from_bytes(&bytes)?, table);
    /// *bytes.last_mut().unwrap() ^= 1;
    /// assert!(matches!(Tablebase::from_bytes(&bytes), Err(TablebaseFileError::BadChecksum { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TablebaseFileError`] for the first thing wrong, in the order of
    /// the fields.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tablebase, TablebaseFileError> {
        let header: &[u8; HEADER] = bytes
            .get(..HEADER)
            .and_then(|h| h.try_into().ok())
            .ok_or(TablebaseFileError::TooShort { len: bytes.len() })?;
        let (layout, expected) = read_header(header)?;
        let values = &bytes[HEADER..];
        if values.len() as u64 != expected {
            return Err(TablebaseFileError::WrongLength {
                expected: HEADER as u64 + expected,
                found: bytes.len() as u64,
            });
        }
        let mut table = Vec::new();
        table
            .try_reserve_exact(values.len())
            .map_err(|_| TablebaseFileError::OutOfMemory { states: expected })?;
        let mut scan = Scan::new(header);
        scan.add(values);
        table.extend(values.iter().map(|&c| AtomicU8::new(c)));
        scan.check(header, layout, table)
    }

    /// Reads a table file from `source` under `budget`, as
    /// [`Tablebase::from_bytes`] reads its bytes: the header is checked
    /// before a value is read, a table larger than the budget's memory
    /// limit is refused before it is read, and the values are read a MiB at
    /// a time with the budget's stop polled between. A stream that goes on
    /// after the values is refused without reading on.
    ///
    /// ```
    /// use phutball::{BoardSize, Budget, SearchError};
    /// use phutball_solver::{Tablebase, TablebaseFileError, TablebaseReadError};
    /// let table = Tablebase::build_within(BoardSize::new(1, 5)?, false, &Budget::default(), &mut |_| {})?;
    /// let bytes = table.to_bytes();
    /// assert_eq!(Tablebase::read_within(&bytes[..], &Budget::default())?, table);
    /// // An endless stream is refused by its first bytes.
    /// let zeros = Tablebase::read_within(std::io::repeat(0), &Budget::default());
    /// assert_eq!(zeros, Err(TablebaseReadError::File(TablebaseFileError::BadMagic)));
    /// // A table over the memory limit is refused before its values are read.
    /// let small = Budget::default().with_memory_limit(4);
    /// assert!(matches!(
    ///     Tablebase::read_within(&bytes[..], &small),
    ///     Err(TablebaseReadError::Stopped(SearchError::MemoryLimit { limit: 4, .. }))
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TablebaseReadError`]: what [`Tablebase::from_bytes`] would say of
    /// the bytes, or a stream's own failures.
    pub fn read_within(
        mut source: impl Read,
        budget: &Budget<'_>,
    ) -> Result<Tablebase, TablebaseReadError> {
        if let Some(stop) = budget.interrupted() {
            return Err(stop.into());
        }
        let mut header = [0; HEADER];
        let got = read_up_to(&mut source, &mut header, budget)?;
        if got < HEADER {
            return Err(TablebaseFileError::TooShort { len: got }.into());
        }
        let (layout, expected) = read_header(&header)?;
        let states = usize::try_from(expected).unwrap_or(usize::MAX);
        if states > budget.memory_limit() {
            return Err(SearchError::MemoryLimit {
                limit: budget.memory_limit(),
                what: "the tablebase file's values",
            }
            .into());
        }
        let mut values = Vec::new();
        values
            .try_reserve_exact(states)
            .map_err(|_| TablebaseFileError::OutOfMemory { states: expected })?;
        let mut chunk = vec![0; READ_CHUNK.min(states.max(1))];
        let mut scan = Scan::new(&header);
        while values.len() < states {
            let want = chunk.len().min(states - values.len());
            let got = read_up_to(&mut source, &mut chunk[..want], budget)?;
            // Checked as it comes, between two polls of the budget.
            scan.add(&chunk[..got]);
            values.extend(chunk[..got].iter().map(|&c| AtomicU8::new(c)));
            if got < want {
                return Err(TablebaseFileError::WrongLength {
                    expected: HEADER as u64 + expected,
                    found: (HEADER + values.len()) as u64,
                }
                .into());
            }
        }
        if read_up_to(&mut source, &mut [0], budget)? != 0 {
            return Err(TablebaseReadError::TrailingBytes {
                expected: HEADER as u64 + expected,
            });
        }
        Ok(scan.check(&header, layout, values)?)
    }
}

/// Bytes read from a stream between two polls of the budget's stop.
const READ_CHUNK: usize = 1 << 20;

/// Fills `buf` from `source` as far as the stream goes: the bytes read.
/// The budget's stop is polled after every read, so that neither a large
/// file nor a slow stream (a pipe) holds the reader past it.
fn read_up_to(
    source: &mut impl Read,
    buf: &mut [u8],
    budget: &Budget<'_>,
) -> Result<usize, TablebaseReadError> {
    let mut filled = 0;
    while filled < buf.len() {
        let read = source.read(&mut buf[filled..]);
        if let Some(stop) = budget.interrupted() {
            return Err(stop.into());
        }
        match read {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(TablebaseReadError::Unreadable {
                    message: e.to_string(),
                })
            }
        }
    }
    Ok(filled)
}

/// The header's fields, each checked before the next is trusted: the
/// table's layout and its state count.
fn read_header(header: &[u8; HEADER]) -> Result<(Layout, u64), TablebaseFileError> {
    if header[..8] != MAGIC {
        return Err(TablebaseFileError::BadMagic);
    }
    let version = u16::from_le_bytes([header[8], header[9]]);
    if version != TABLEBASE_FILE_VERSION {
        return Err(TablebaseFileError::UnsupportedVersion { version });
    }
    let (cols, rows) = (header[10], header[11]);
    let bad_board = TablebaseFileError::BadBoard { cols, rows };
    let size = BoardSize::new(cols, rows).map_err(|_| bad_board.clone())?;
    let flags: [u8; 4] = [header[12], header[13], header[14], header[15]];
    if flags[0] > CONTINUE_OFF_BOARD || flags[1..] != [0; 3] {
        return Err(TablebaseFileError::BadFlags { bytes: flags });
    }
    let layout = Layout::new(size, flags[0] == CONTINUE_OFF_BOARD).map_err(|_| bad_board)?;
    let found = u64::from_le_bytes(header[16..24].try_into().unwrap_or_default());
    let expected = layout.states();
    if found != expected {
        return Err(TablebaseFileError::WrongStateCount {
            size,
            expected,
            found,
        });
    }
    Ok((layout, expected))
}

/// The checksum and the first bad value byte of the values read so far,
/// a chunk at a time.
struct Scan {
    hash: u64,
    read: u64,
    bad: Option<(u64, u8)>,
}

impl Scan {
    fn new(header: &[u8; HEADER]) -> Scan {
        Scan {
            hash: fnv1a(FNV_START, &header[..24]),
            read: 0,
            bad: None,
        }
    }

    fn add(&mut self, chunk: &[u8]) {
        self.hash = fnv1a(self.hash, chunk);
        if self.bad.is_none() {
            if let Some(i) = chunk.iter().position(|&c| !code::is_valid(c)) {
                self.bad = Some((self.read + i as u64, chunk[i]));
            }
        }
        self.read += chunk.len() as u64;
    }

    /// The table of `values`, all read, once the header's checksum and
    /// every value byte check (the checksum first, as a damaged file is
    /// more likely than a forged one).
    fn check(
        &self,
        header: &[u8; HEADER],
        layout: Layout,
        values: Vec<AtomicU8>,
    ) -> Result<Tablebase, TablebaseFileError> {
        let checksum = u64::from_le_bytes(header[24..32].try_into().unwrap_or_default());
        if self.hash != checksum {
            return Err(TablebaseFileError::BadChecksum {
                expected: checksum,
                found: self.hash,
            });
        }
        if let Some((index, code)) = self.bad {
            return Err(TablebaseFileError::BadValue { index, code });
        }
        Ok(Tablebase::from_values(layout, values))
    }
}
