//! The weights file, format version 1 (docs/network.md, "The weights
//! file"): little-endian, a header, one network per board size, a CRC-32
//! of every byte before it. Bytes in, bytes out: reading the file is the
//! caller's (the CLI, Python).

use phutball::BoardSize;

use super::crc32::crc32;
use super::features::input_count;
use super::{BoardNetwork, Network, NetworkError, MAX_DESCRIPTION, MAX_FILE_BYTES, MAX_HIDDEN};

/// The first eight bytes of every weights file.
const MAGIC: &[u8; 8] = b"phbnet\n\0";
/// The format version this build reads and writes.
const VERSION: u32 = 1;
/// The bytes of the checksum at the end.
const CHECKSUM: usize = 4;

/// The length of the file of a network with a description of
/// `description` bytes and these networks.
pub(crate) fn encoded_len(description: usize, networks: &[BoardNetwork]) -> usize {
    let header = MAGIC.len() + 4 + 4 + description + 4;
    let bodies: usize = networks
        .iter()
        .map(|net| 4 + 4 * (net.w1.len() + net.b1.len() + net.w2.len() + 1))
        .sum();
    header + bodies + CHECKSUM
}

/// The file of `network`.
pub(crate) fn write(network: &Network) -> Vec<u8> {
    let description = network.description().as_bytes();
    let mut out = Vec::with_capacity(encoded_len(description.len(), network.networks()));
    out.extend_from_slice(MAGIC);
    // Lengths and counts are within the format's bounds (`Network::new`).
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(description.len() as u32).to_le_bytes());
    out.extend_from_slice(description);
    out.extend_from_slice(&(network.networks().len() as u32).to_le_bytes());
    for net in network.networks() {
        out.push(net.size.cols());
        out.push(net.size.rows());
        out.extend_from_slice(&(net.hidden() as u16).to_le_bytes());
        for w in net.w1.iter().chain(&net.b1).chain(&net.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&net.b2.to_le_bytes());
    }
    let checksum = crc32(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out
}

/// The network of the file `bytes`, checked (see [`Network::from_bytes`]).
pub(crate) fn read(bytes: &[u8]) -> Result<Network, NetworkError> {
    let len = bytes.len();
    if len > MAX_FILE_BYTES {
        return Err(NetworkError::TooLarge {
            len,
            max: MAX_FILE_BYTES,
        });
    }
    let head = &bytes[..len.min(MAGIC.len())];
    if head != &MAGIC[..head.len()] {
        return Err(NetworkError::NotAWeightsFile);
    }
    let mut reader = Reader { bytes, at: 0 };
    reader.take(MAGIC.len())?;
    let version = reader.u32()?;
    if version != VERSION {
        return Err(NetworkError::Version { version });
    }
    let (description, networks) = match contents(&mut reader) {
        Ok(contents) => contents,
        Err(e @ NetworkError::Truncated { .. }) => return Err(e),
        // A value out of range in a damaged file is the damage's doing:
        // said so. The file is at least as long as its version here.
        Err(e) => return Err(checked(bytes, len - CHECKSUM).err().unwrap_or(e)),
    };
    let end = reader.at;
    if len < end + CHECKSUM {
        return Err(NetworkError::Truncated {
            len,
            needed: end + CHECKSUM,
        });
    }
    checked(bytes, end)?;
    if len > end + CHECKSUM {
        return Err(NetworkError::TrailingBytes {
            extra: len - end - CHECKSUM,
        });
    }
    Network::new(description, networks)
}

/// Whether the four bytes at `at` are the checksum of the bytes before them.
fn checked(bytes: &[u8], at: usize) -> Result<(), NetworkError> {
    let computed = crc32(&bytes[..at]);
    let mut stored = [0; CHECKSUM];
    stored.copy_from_slice(&bytes[at..at + CHECKSUM]);
    let stored = u32::from_le_bytes(stored);
    if computed == stored {
        Ok(())
    } else {
        Err(NetworkError::Checksum { computed, stored })
    }
}

/// The description and networks after the version, each count and size
/// checked before it is used.
fn contents(reader: &mut Reader<'_>) -> Result<(String, Vec<BoardNetwork>), NetworkError> {
    let description_len = reader.u32()? as usize;
    if description_len > MAX_DESCRIPTION {
        return Err(NetworkError::DescriptionTooLong {
            len: description_len,
        });
    }
    let description = String::from_utf8(reader.take(description_len)?.to_vec())
        .map_err(|_| NetworkError::DescriptionNotUtf8)?;
    let count = reader.u32()? as usize;
    if !(1..=super::MAX_NETWORKS).contains(&count) {
        return Err(NetworkError::NetworkCount { count });
    }
    let mut networks = Vec::with_capacity(count);
    for network in 0..count {
        let (cols, rows) = (reader.u8()?, reader.u8()?);
        let size = BoardSize::new(cols, rows).map_err(|_| NetworkError::BoardSize {
            network,
            cols,
            rows,
        })?;
        let hidden = usize::from(reader.u16()?);
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(NetworkError::Hidden { network, hidden });
        }
        networks.push(BoardNetwork {
            size,
            w1: reader.f32s(input_count(size) * hidden)?,
            b1: reader.f32s(hidden)?,
            w2: reader.f32s(hidden)?,
            b2: reader.f32()?,
        });
    }
    Ok((description, networks))
}

/// The bytes of a file, read from the front.
struct Reader<'a> {
    bytes: &'a [u8],
    /// Where the next read starts.
    at: usize,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes, or [`NetworkError::Truncated`] (the checksum
    /// after them counted in what the file needs).
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetworkError> {
        let truncated = NetworkError::Truncated {
            len: self.bytes.len(),
            needed: self.at.saturating_add(n).saturating_add(CHECKSUM),
        };
        let end = self.at.checked_add(n).ok_or(truncated.clone())?;
        let taken = self.bytes.get(self.at..end).ok_or(truncated)?;
        self.at = end;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], NetworkError> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N)?);
        Ok(array)
    }

    fn u8(&mut self) -> Result<u8, NetworkError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, NetworkError> {
        self.array().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, NetworkError> {
        self.array().map(u32::from_le_bytes)
    }

    fn f32(&mut self) -> Result<f32, NetworkError> {
        self.array().map(f32::from_le_bytes)
    }

    /// The next `n` little-endian `f32`s (the bytes are checked to be there
    /// before anything is allocated).
    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, NetworkError> {
        let bytes = self.take(n.saturating_mul(4))?;
        Ok(bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}
