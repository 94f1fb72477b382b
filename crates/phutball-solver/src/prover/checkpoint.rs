//! A prove's state as bytes, so that a search that stops (a timeout, a
//! Ctrl-C, a crash after the last save) goes on where it was.
//!
//! What is saved is what the search needs to go on: both searches' tables
//! (every stored entry: key, proof and disproof numbers, work), their node
//! counts and round ends, which search's turn it is, the round's size, and
//! the position and rules it is for. The path of the search in progress is
//! not saved: the search descends again from the root through the table.
//!
//! The format (little-endian), version [`CHECKPOINT_VERSION`]:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `phbckpt\n` |
//! | 4 | format version |
//! | 4 | length L of the identity text (at most 4096) |
//! | L | identity: the position string, a newline, the rules' text form |
//! | 8 | the round's nodes |
//! | 4 | whose turn: 0 or 1 |
//! | 2x(8+8+4+8+8) | per search: nodes, round end, settled (0/1), the table's buckets, entry count N |
//! | 2x(Nx24) | per search: its N entries, key (8), pn (4), dn (4), work (8) |
//! | 8 | checksum of every byte before it |
//!
//! The checksum guards against damage, not forgery: each 8-byte word (the
//! last one padded with zeros) is folded in as FNV-1a folds a byte, so any
//! one changed word, and so any flipped bit, always changes it.

use std::io::{self, Read, Write};

use phutball::Position;
use thiserror::Error;

use super::shared_table::SharedTable;
use super::table::Table;

/// The checkpoint format's version: a file of another version is refused.
pub const CHECKPOINT_VERSION: u32 = 1;

const MAGIC: &[u8; 8] = b"phbckpt\n";

/// The longest identity text a checkpoint holds.
const MAX_IDENTITY: usize = 4096;

/// The bytes of one saved table entry.
const ENTRY_FILE_BYTES: u64 = 24;

/// Why a checkpoint was refused. Nothing was changed: the file is as it was.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Not a checkpoint at all.
    #[error("not a phutball prover checkpoint (its first bytes are not `phbckpt`)")]
    NotACheckpoint,
    /// A checkpoint of another format version.
    #[error(
        "a checkpoint of format version {found}; this build reads version {CHECKPOINT_VERSION}"
    )]
    Version {
        /// The file's version.
        found: u32,
    },
    /// The checkpoint of another position or other rules.
    #[error("the checkpoint is for {found}, not {expected}")]
    Foreign {
        /// What the file is for (position string, then rules).
        found: String,
        /// What the caller proves.
        expected: String,
    },
    /// A field out of its range: the file is damaged.
    #[error("the checkpoint is damaged: {0}")]
    Damaged(String),
    /// The checksum does not match: the file is damaged.
    #[error("the checkpoint is damaged: checksum {found:016x}, the file says {expected:016x}")]
    Checksum {
        /// The file's checksum.
        expected: u64,
        /// The checksum of the bytes read.
        found: u64,
    },
    /// The file ends early.
    #[error("the checkpoint is truncated (it ends before its checksum)")]
    Truncated,
    /// Bytes follow the checksum.
    #[error("the checkpoint has bytes after its checksum")]
    Trailing,
    /// The caller's reader failed.
    #[error("cannot read the checkpoint: {0}")]
    Read(#[source] io::Error),
    /// The allocator refused the tables.
    #[error("no memory for the checkpoint's tables")]
    OutOfMemory,
}

/// The identity text of a prove of `pos`: its position string and rules.
pub(crate) fn identity(pos: &Position) -> String {
    let rules = pos.rules().to_string();
    let rules = if rules.is_empty() {
        "default rules"
    } else {
        &rules
    };
    format!("{pos}\n{rules}")
}

/// One search's saved counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SearchCounters {
    pub(crate) nodes: u64,
    pub(crate) round_end: u64,
    pub(crate) settled: bool,
}

/// The schedule of the two searches: whose turn, the round's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Schedule {
    pub(crate) round: u64,
    pub(crate) turn: usize,
    pub(crate) searches: [SearchCounters; 2],
}

/// A checkpoint read back: its schedule and tables.
pub struct Resumed {
    pub(crate) schedule: Schedule,
    pub(crate) tables: [Table; 2],
}

impl Resumed {
    /// The nodes the two searches had searched when it was saved.
    pub fn nodes(&self) -> u64 {
        self.schedule.searches[0].nodes + self.schedule.searches[1].nodes
    }

    /// The table entries it holds.
    pub fn table_entries(&self) -> usize {
        self.tables[0].stored() + self.tables[1].stored()
    }
}

/// The FNV-1a fold of 8-byte words, and the writer or reader it watches.
struct Hashing<T> {
    inner: T,
    hash: u64,
    /// Bytes of a word not yet folded.
    pending: [u8; 8],
    filled: usize,
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl<T> Hashing<T> {
    fn new(inner: T) -> Hashing<T> {
        Hashing {
            inner,
            hash: FNV_START,
            pending: [0; 8],
            filled: 0,
        }
    }

    fn fold(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.pending[self.filled] = b;
            self.filled += 1;
            if self.filled == 8 {
                self.hash = (self.hash ^ u64::from_le_bytes(self.pending)).wrapping_mul(FNV_PRIME);
                self.filled = 0;
            }
        }
    }

    /// The checksum of everything folded so far (a partial word padded).
    fn finish(&self) -> u64 {
        if self.filled == 0 {
            return self.hash;
        }
        let mut last = [0; 8];
        last[..self.filled].copy_from_slice(&self.pending[..self.filled]);
        (self.hash ^ u64::from_le_bytes(last)).wrapping_mul(FNV_PRIME)
    }
}

impl<W: Write> Hashing<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.fold(bytes);
        self.inner.write_all(bytes)
    }
}

impl<R: Read> Hashing<R> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], CheckpointError> {
        let mut bytes = [0; N];
        self.inner.read_exact(&mut bytes).map_err(read_error)?;
        self.fold(&bytes);
        Ok(bytes)
    }

    fn u64(&mut self) -> Result<u64, CheckpointError> {
        self.take::<8>().map(u64::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, CheckpointError> {
        self.take::<4>().map(u32::from_le_bytes)
    }
}

fn read_error(e: io::Error) -> CheckpointError {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        CheckpointError::Truncated
    } else {
        CheckpointError::Read(e)
    }
}

/// A search's table as a checkpoint reads it: its own, or a parallel
/// search's shared one (saved alike: a checkpoint resumes on any number
/// of jobs).
#[derive(Clone, Copy)]
pub(crate) enum TableView<'a> {
    Own(&'a Table),
    Shared(&'a SharedTable),
}

impl TableView<'_> {
    fn buckets(self) -> usize {
        match self {
            TableView::Own(t) => t.buckets(),
            TableView::Shared(t) => t.buckets(),
        }
    }

    pub(crate) fn stored(self) -> usize {
        match self {
            TableView::Own(t) => t.stored(),
            TableView::Shared(t) => t.stored(),
        }
    }

    /// Calls `each` with every stored entry.
    fn for_each(
        self,
        each: &mut dyn FnMut((u64, u32, u32, u64)) -> io::Result<()>,
    ) -> io::Result<()> {
        match self {
            TableView::Own(t) => t.entries().try_for_each(each),
            TableView::Shared(t) => t.entries().try_for_each(each),
        }
    }
}

/// Writes the checkpoint of a prove of `pos` to `out`: `schedule` and the
/// two searches' `tables`. Returns the bytes written.
pub(crate) fn write(
    out: &mut dyn Write,
    pos: &Position,
    schedule: &Schedule,
    tables: [TableView<'_>; 2],
) -> io::Result<u64> {
    let mut w = Hashing::new(io::BufWriter::with_capacity(1 << 20, out));
    let id = identity(pos);
    w.put(MAGIC)?;
    w.put(&CHECKPOINT_VERSION.to_le_bytes())?;
    w.put(&(id.len() as u32).to_le_bytes())?;
    w.put(id.as_bytes())?;
    w.put(&schedule.round.to_le_bytes())?;
    w.put(&(schedule.turn as u32).to_le_bytes())?;
    for (s, table) in schedule.searches.iter().zip(tables) {
        w.put(&s.nodes.to_le_bytes())?;
        w.put(&s.round_end.to_le_bytes())?;
        w.put(&u32::from(s.settled).to_le_bytes())?;
        w.put(&(table.buckets() as u64).to_le_bytes())?;
        w.put(&(table.stored() as u64).to_le_bytes())?;
    }
    let mut written = 8 + 4 + 4 + id.len() as u64 + 8 + 4 + 2 * 36 + 8;
    for table in tables {
        let mut entry = [0u8; ENTRY_FILE_BYTES as usize];
        table.for_each(&mut |(key, pn, dn, work)| {
            entry[..8].copy_from_slice(&key.to_le_bytes());
            entry[8..12].copy_from_slice(&pn.to_le_bytes());
            entry[12..16].copy_from_slice(&dn.to_le_bytes());
            entry[16..].copy_from_slice(&work.to_le_bytes());
            written += ENTRY_FILE_BYTES;
            w.put(&entry)
        })?;
    }
    let checksum = w.finish();
    w.inner.write_all(&checksum.to_le_bytes())?;
    w.inner.flush()?;
    Ok(written)
}

/// Reads a checkpoint written by [`write`] for a prove of `pos`, into two
/// tables of at most `table_bytes` each (a checkpoint of more entries than
/// they hold keeps, as the search would, the entries with the most work).
/// Every field is checked, and the checksum before anything is returned.
pub(crate) fn read(
    input: &mut dyn Read,
    pos: &Position,
    table_bytes: usize,
) -> Result<Resumed, CheckpointError> {
    let mut r = Hashing::new(io::BufReader::with_capacity(1 << 20, input));
    if &r.take::<8>()? != MAGIC {
        return Err(CheckpointError::NotACheckpoint);
    }
    let version = r.u32()?;
    if version != CHECKPOINT_VERSION {
        return Err(CheckpointError::Version { found: version });
    }
    let len = r.u32()? as usize;
    if len > MAX_IDENTITY {
        return Err(CheckpointError::Damaged(format!(
            "an identity of {len} bytes (at most {MAX_IDENTITY})"
        )));
    }
    let mut id = vec![0; len];
    r.inner.read_exact(&mut id).map_err(read_error)?;
    r.fold(&id);
    let expected = identity(pos);
    if id != expected.as_bytes() {
        return Err(CheckpointError::Foreign {
            found: quoted(&String::from_utf8_lossy(&id)),
            expected: quoted(&expected),
        });
    }
    let round = r.u64()?;
    let turn = r.u32()?;
    if turn > 1 || round == 0 {
        return Err(CheckpointError::Damaged(format!(
            "turn {turn}, round {round}"
        )));
    }
    let mut searches = [SearchCounters::default(); 2];
    let mut counts = [0u64; 2];
    let mut buckets = [0u64; 2];
    for ((s, count), buckets) in searches.iter_mut().zip(&mut counts).zip(&mut buckets) {
        s.nodes = r.u64()?;
        s.round_end = r.u64()?;
        s.settled = match r.u32()? {
            0 => false,
            1 => true,
            other => return Err(CheckpointError::Damaged(format!("settled flag {other}"))),
        };
        *buckets = r.u64()?;
        if !buckets.is_power_of_two() {
            return Err(CheckpointError::Damaged(format!(
                "a table of {buckets} buckets"
            )));
        }
        *count = r.u64()?;
        if *count > buckets.saturating_mul(4) {
            return Err(CheckpointError::Damaged(format!(
                "{count} entries in a table of {buckets} buckets"
            )));
        }
    }
    let table = |buckets: u64| {
        Table::with_bytes_and_buckets(table_bytes, usize::try_from(buckets).unwrap_or(usize::MAX))
            .map_err(|_| CheckpointError::OutOfMemory)
    };
    let mut tables = [table(buckets[0])?, table(buckets[1])?];
    for (table, &count) in tables.iter_mut().zip(&counts) {
        for _ in 0..count {
            let entry = r.take::<24>()?;
            let u64_at =
                |at: usize| u64::from_le_bytes(entry[at..at + 8].try_into().unwrap_or_default());
            let u32_at =
                |at: usize| u32::from_le_bytes(entry[at..at + 4].try_into().unwrap_or_default());
            let (key, proof, disproof, spent) = (u64_at(0), u32_at(8), u32_at(12), u64_at(16));
            if key == 0 || proof > super::dfpn::INF || disproof > super::dfpn::INF {
                return Err(CheckpointError::Damaged(format!(
                    "an entry with key {key:016x}, numbers {proof} and {disproof}"
                )));
            }
            table.put(key, proof, disproof, spent);
        }
    }
    let found = r.finish();
    let expected = u64::from_le_bytes(r.inner.read_exact_array().map_err(read_error)?);
    if found != expected {
        return Err(CheckpointError::Checksum { expected, found });
    }
    let mut rest = [0u8; 1];
    match r.inner.read(&mut rest) {
        Ok(0) => {}
        Ok(_) => return Err(CheckpointError::Trailing),
        Err(e) => return Err(CheckpointError::Read(e)),
    }
    Ok(Resumed {
        schedule: Schedule {
            round,
            turn: turn as usize,
            searches,
        },
        tables,
    })
}

/// `text` cut to 60 characters, quoted, with its newline shown as `; `.
fn quoted(text: &str) -> String {
    let flat = text.replace('\n', "; ");
    let mut cut: String = flat.chars().take(60).collect();
    if cut.len() < flat.len() {
        cut.push_str("...");
    }
    format!("`{cut}`")
}

/// `read_exact` into a fresh array.
trait ReadArray {
    fn read_exact_array<const N: usize>(&mut self) -> io::Result<[u8; N]>;
}

impl<R: Read> ReadArray for R {
    fn read_exact_array<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let mut bytes = [0; N];
        self.read_exact(&mut bytes)?;
        Ok(bytes)
    }
}
