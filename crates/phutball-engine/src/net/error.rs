//! Why a weights file, a network or a position was refused: one variant per
//! refusal of docs/network.md, each message saying what was wrong.

use phutball::{BoardSize, Side};
use thiserror::Error;

/// A weights file or network refused, or a position a network cannot judge.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum NetworkError {
    /// More bytes than a weights file may have ([`MAX_FILE_BYTES`](crate::net::MAX_FILE_BYTES)).
    #[error("the weights file is too large: over the limit of 64 MiB ({max} bytes)")]
    TooLarge {
        /// Its length, or as much of it as was read (a reader stops one
        /// byte past the limit).
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The bytes do not start with the magic `phbnet\n\0`.
    #[error(
        "not a phutball weights file: it does not start with the magic bytes \"phbnet\\n\\0\""
    )]
    NotAWeightsFile,
    /// A format version this build does not read.
    #[error("the weights file is format version {version}; this build reads version 1")]
    Version {
        /// The version the file gives.
        version: u32,
    },
    /// The file ends before its contents do (or a damaged count asks for
    /// more than it holds).
    #[error(
        "the weights file is truncated (or damaged): it has {len} bytes, its contents need at least {needed}"
    )]
    Truncated {
        /// Its length.
        len: usize,
        /// The length its contents, as far as they were read, need.
        needed: usize,
    },
    /// Bytes after the checksum.
    #[error("the weights file has {extra} bytes after its checksum")]
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// The checksum does not match the bytes before it.
    #[error("the weights file is damaged: checksum {computed:08x}, the file says {stored:08x}")]
    Checksum {
        /// The CRC-32 of the bytes before the checksum.
        computed: u32,
        /// The checksum the file gives.
        stored: u32,
    },
    /// A description longer than [`MAX_DESCRIPTION`](crate::net::MAX_DESCRIPTION) bytes.
    #[error("the description has {len} bytes; at most 4096")]
    DescriptionTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// A description that is not UTF-8 text.
    #[error("the description is not UTF-8 text")]
    DescriptionNotUtf8,
    /// No networks, or more than [`MAX_NETWORKS`](crate::net::MAX_NETWORKS).
    #[error("{count} networks; a weights file holds 1 to 16")]
    NetworkCount {
        /// The number given.
        count: usize,
    },
    /// A board size the core does not accept.
    #[error("network {network}: {cols}x{rows} is not a board size the core accepts")]
    BoardSize {
        /// The network's index in the file, from 0.
        network: usize,
        /// Its columns.
        cols: u8,
        /// Its rows.
        rows: u8,
    },
    /// A hidden layer of no units or more than [`MAX_HIDDEN`](crate::net::MAX_HIDDEN).
    #[error("network {network}: {hidden} hidden units; a network has 1 to 1024")]
    Hidden {
        /// The network's index, from 0.
        network: usize,
        /// The number given.
        hidden: usize,
    },
    /// A weight array of the wrong length for its network's board size and
    /// hidden units ([`Network::new`](crate::Network::new) only: a file's
    /// lengths follow from its header).
    #[error(
        "network {network}: {array} has {len} weights; its board and hidden units need {expected}"
    )]
    Shape {
        /// The network's index, from 0.
        network: usize,
        /// The array: `W1` or `w2`.
        array: &'static str,
        /// Its length.
        len: usize,
        /// The length it needs.
        expected: usize,
    },
    /// Two networks for the same board size.
    #[error("two networks serve {size}: a file has one network per board size")]
    DuplicateSize {
        /// The size.
        size: BoardSize,
    },
    /// A weight that is infinite or not a number.
    #[error("network {network}: {array}[{index}] is not finite ({value})")]
    NotFinite {
        /// The network's index, from 0.
        network: usize,
        /// The array: `W1`, `b1`, `w2` or `b2`.
        array: &'static str,
        /// The weight's index in it.
        index: usize,
        /// The weight.
        value: String,
    },
    /// A position of a board size the network does not serve.
    #[error("the network serves {}, not {size}", sizes_text(.served))]
    NotServed {
        /// The position's size.
        size: BoardSize,
        /// The sizes the network serves, in the file's order.
        served: Vec<BoardSize>,
    },
    /// A position where the game is over: the network judges positions
    /// still in play (the engine never evaluates a finished one).
    #[error("the game is over in this position ({winner} has scored): the network judges positions still in play")]
    Finished {
        /// The side that has scored.
        winner: Side,
    },
}

/// One value of every variant of [`NetworkError`], named as the wrappers'
/// error tables name it (`NetworkError::Checksum`): test support for the C
/// ABI's table of network errors (docs/c-api.md). A test here matches
/// every variant, so a new one does not compile until it has an example.
#[cfg(feature = "test-support")]
pub fn every_network_error_named() -> Vec<(String, NetworkError)> {
    let size = |cols, rows| BoardSize::new(cols, rows).unwrap_or_default();
    let every = [
        NetworkError::TooLarge {
            len: crate::net::MAX_FILE_BYTES + 1,
            max: crate::net::MAX_FILE_BYTES,
        },
        NetworkError::NotAWeightsFile,
        NetworkError::Version { version: 2 },
        NetworkError::Truncated {
            len: 20,
            needed: 24,
        },
        NetworkError::TrailingBytes { extra: 1 },
        NetworkError::Checksum {
            computed: 0x1234_5678,
            stored: 0x1234_5679,
        },
        NetworkError::DescriptionTooLong { len: 4097 },
        NetworkError::DescriptionNotUtf8,
        NetworkError::NetworkCount { count: 0 },
        NetworkError::BoardSize {
            network: 0,
            cols: 0,
            rows: 9,
        },
        NetworkError::Hidden {
            network: 0,
            hidden: 0,
        },
        NetworkError::Shape {
            network: 0,
            array: "w2",
            len: 3,
            expected: 4,
        },
        NetworkError::DuplicateSize { size: size(9, 9) },
        NetworkError::NotFinite {
            network: 0,
            array: "b1",
            index: 2,
            value: "NaN".to_string(),
        },
        NetworkError::NotServed {
            size: size(9, 9),
            served: vec![BoardSize::STANDARD],
        },
        NetworkError::Finished { winner: Side::Ohs },
    ];
    every
        .into_iter()
        .map(|e| {
            (
                phutball::error_examples::variant_name("NetworkError", &e),
                e,
            )
        })
        .collect()
}

/// `sizes` as a list for a message: `15x19`, `9x9 and 15x19`,
/// `7x7, 9x9 and 15x19`.
fn sizes_text(sizes: &[BoardSize]) -> String {
    let names: Vec<String> = sizes.iter().map(ToString::to_string).collect();
    match names.split_last() {
        None => "no board size".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_is_an_example_of_every_variant() {
        let every: Vec<NetworkError> = every_network_error_named()
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        phutball::assert_every_variant!(every, NetworkError:
            TooLarge, NotAWeightsFile, Version, Truncated, TrailingBytes, Checksum,
            DescriptionTooLong, DescriptionNotUtf8, NetworkCount, BoardSize, Hidden, Shape,
            DuplicateSize, NotFinite, NotServed, Finished);
    }

    #[test]
    fn the_sizes_served_read_as_a_list() {
        let size = |text: &str| text.parse::<BoardSize>().unwrap();
        let not_served = |served: Vec<BoardSize>| NetworkError::NotServed {
            size: size("5x5"),
            served,
        };
        assert_eq!(
            not_served(vec![size("15x19")]).to_string(),
            "the network serves 15x19, not 5x5"
        );
        assert_eq!(
            not_served(vec![size("7x7"), size("9x9"), size("15x19")]).to_string(),
            "the network serves 7x7, 9x9 and 15x19, not 5x5"
        );
    }
}
