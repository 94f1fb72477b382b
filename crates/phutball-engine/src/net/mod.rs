//! The learned evaluation (docs/network.md, issue 36): a small value
//! network per board size, read from and written to the weights file.
//!
//! - `features`: the inputs, from a position and the hand evaluation's terms;
//! - `forward`: the arithmetic, with the first layer's sums on the stack;
//! - `format`: the weights file, bytes in and bytes out (no file I/O);
//! - `crc32`: its checksum;
//! - `error`: [`NetworkError`], every refusal.

mod crc32;
mod error;
mod features;
mod format;
mod forward;

use core::fmt;
use std::sync::{Arc, OnceLock};

use phutball::{BoardSize, Budget, Position};

#[cfg(feature = "test-support")]
pub use error::every_network_error_named;
pub use error::NetworkError;
pub use features::Features;

use crate::eval::{terms, Terms};

/// The longest weights file: 64 MiB. [`Network::from_bytes`] refuses more,
/// and a reader of a file should read at most one byte more than this.
pub const MAX_FILE_BYTES: usize = 64 << 20;
/// The longest description, in bytes.
pub const MAX_DESCRIPTION: usize = 4096;
/// The most networks (board sizes) a file holds.
pub const MAX_NETWORKS: usize = 16;
/// The most hidden units a network has.
pub const MAX_HIDDEN: usize = 1024;

/// The network of one board size: `H` hidden units over the `F = 2 * C * R + 3`
/// inputs of a `C` x `R` board ([`Features`]), with the weights as
/// docs/network.md lays them out. [`Network::new`] checks them.
#[derive(Clone, PartialEq)]
pub struct BoardNetwork {
    /// The board size it serves.
    pub size: BoardSize,
    /// The first layer's weights, input-major: `W1[i][j]` is
    /// `w1[i * H + j]`, for the `F` inputs `i` and the `H` hidden units `j`.
    pub w1: Vec<f32>,
    /// The hidden units' biases; their number is `H`.
    pub b1: Vec<f32>,
    /// The output's weight of each hidden unit (`H` of them).
    pub w2: Vec<f32>,
    /// The output's bias.
    pub b2: f32,
}

impl BoardNetwork {
    /// The number of inputs of a network for `size`: `2 * C * R + 3`
    /// (573 on the standard board).
    pub fn input_count(size: BoardSize) -> usize {
        features::input_count(size)
    }

    /// Its hidden units, `H`: the length of `b1`.
    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    /// Its value of `pos` (of its board size, not finished) whose
    /// evaluation terms are `terms`.
    pub(crate) fn value(&self, pos: &Position, terms: Terms) -> i32 {
        forward::value_of(self.output(pos, features::dense(terms)))
    }

    /// Checks network `index`: its hidden units, its arrays' lengths and
    /// that every weight is finite.
    fn check(&self, index: usize) -> Result<(), NetworkError> {
        let hidden = self.hidden();
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(NetworkError::Hidden {
                network: index,
                hidden,
            });
        }
        let inputs = Self::input_count(self.size);
        for (array, len, expected) in [
            ("W1", self.w1.len(), inputs * hidden),
            ("w2", self.w2.len(), hidden),
        ] {
            if len != expected {
                return Err(NetworkError::Shape {
                    network: index,
                    array,
                    len,
                    expected,
                });
            }
        }
        let b2 = [self.b2];
        let arrays: [(&'static str, &[f32]); 4] = [
            ("W1", &self.w1),
            ("b1", &self.b1),
            ("w2", &self.w2),
            ("b2", &b2),
        ];
        for (array, weights) in arrays {
            if let Some((i, w)) = weights.iter().enumerate().find(|(_, w)| !w.is_finite()) {
                return Err(NetworkError::NotFinite {
                    network: index,
                    array,
                    index: i,
                    value: w.to_string(),
                });
            }
        }
        Ok(())
    }
}

impl fmt::Debug for BoardNetwork {
    /// Its size and hidden units: the weights would be thousands of numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoardNetwork")
            .field("size", &self.size)
            .field("hidden", &self.hidden())
            .finish_non_exhaustive()
    }
}

/// A learned evaluation: a value network for each of up to
/// [`MAX_NETWORKS`] board sizes and a description of how it was made, as a
/// weights file holds them (docs/network.md). Every weight is finite.
///
/// [`Network::evaluate`] judges a position in play of a size it serves, in
/// the engine's units (hundredths of a row, for the side to move);
/// [`Evaluation::Net`](crate::Evaluation::Net) makes the engine's search
/// use it.
///
/// ```
/// use phutball::{BoardSize, Budget, Position};
/// use phutball_engine::{BoardNetwork, Network};
/// let size: BoardSize = "5x7".parse()?;
/// // One hidden unit that reads the ball's progress (input 2 * 5 * 7 = 70, in rows).
/// let mut w1 = vec![0.0; BoardNetwork::input_count(size)];
/// w1[70] = 0.25;
/// let layer = BoardNetwork { size, w1, b1: vec![0.5], w2: vec![100.0], b2: 0.0 };
/// let net = Network::new("by hand", vec![layer])?;
/// // Ball on C5, a row up from the centre, Ohs to move: 100 * clamp(0.5 + 1 * 0.25, 0, 1).
/// let pos: Position = "5/5/2@2/5/5/5/5 O".parse()?;
/// assert_eq!(net.evaluate(&pos, &Budget::default())?, 75);
/// // The weights file, and back.
/// assert_eq!(Network::from_bytes(&net.to_bytes())?, net);
/// // Only its board size.
/// let err = net.evaluate(&Position::standard(), &Budget::default()).unwrap_err();
/// assert_eq!(err.to_string(), "the network serves 5x7, not 15x19");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct Network {
    description: String,
    networks: Vec<BoardNetwork>,
}

// Every weight is finite (`Network::new` refuses the others), so `==` is
// an equivalence.
impl Eq for Network {}

/// The weights built into the engine: `networks/standard.phbnet`, the
/// standard board's network (docs/network.md, "The shipped network", has
/// the commands and seeds that made it, and the ladder's figures).
const BUILT_IN: &[u8] = include_bytes!("../../networks/standard.phbnet");

impl Network {
    /// The network built into this build (`net` in the CLI's `--eval` and
    /// Python's `eval=`), read once. It serves the standard 15x19 board.
    ///
    /// ```
    /// use phutball::BoardSize;
    /// use phutball_engine::Network;
    /// let network = Network::built_in()?;
    /// assert!(network.serves(BoardSize::new(15, 19)?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The [`NetworkError`] of the embedded bytes, were they damaged (the
    /// crate's tests read them, so a release never has that).
    pub fn built_in() -> Result<Arc<Network>, NetworkError> {
        Network::built_in_parsed().clone()
    }

    /// The built-in network as it is kept, read on the first call: the
    /// default evaluation borrows it for a whole search without a clone.
    pub(crate) fn built_in_parsed() -> &'static Result<Arc<Network>, NetworkError> {
        static PARSED: OnceLock<Result<Arc<Network>, NetworkError>> = OnceLock::new();
        PARSED.get_or_init(|| Network::from_bytes(BUILT_IN).map(Arc::new))
    }

    /// A network from its parts: `description` (how it was made: at most
    /// [`MAX_DESCRIPTION`] bytes) and one network per board size (1 to
    /// [`MAX_NETWORKS`]), each checked: 1 to [`MAX_HIDDEN`] hidden units,
    /// arrays of the lengths its board size needs, finite weights, its
    /// file at most [`MAX_FILE_BYTES`] long.
    ///
    /// # Errors
    ///
    /// The [`NetworkError`] of the first part refused.
    pub fn new(
        description: impl Into<String>,
        networks: Vec<BoardNetwork>,
    ) -> Result<Network, NetworkError> {
        let description = description.into();
        if description.len() > MAX_DESCRIPTION {
            return Err(NetworkError::DescriptionTooLong {
                len: description.len(),
            });
        }
        if !(1..=MAX_NETWORKS).contains(&networks.len()) {
            return Err(NetworkError::NetworkCount {
                count: networks.len(),
            });
        }
        for (i, net) in networks.iter().enumerate() {
            net.check(i)?;
            if networks[..i].iter().any(|other| other.size == net.size) {
                return Err(NetworkError::DuplicateSize { size: net.size });
            }
        }
        let len = format::encoded_len(description.len(), &networks);
        if len > MAX_FILE_BYTES {
            return Err(NetworkError::TooLarge {
                len,
                max: MAX_FILE_BYTES,
            });
        }
        Ok(Network {
            description,
            networks,
        })
    }

    /// The network of a weights file's bytes (docs/network.md).
    ///
    /// # Errors
    ///
    /// [`NetworkError`] saying why the bytes were refused: more than
    /// [`MAX_FILE_BYTES`], a wrong magic, version or checksum, truncated,
    /// bytes after the checksum, a size or count out of range, two
    /// networks for one board size, a weight that is not finite.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        format::read(bytes)
    }

    /// Its weights file: [`Network::from_bytes`] reads it back as it is.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(self)
    }

    /// How it was made (the trainer's command, seed, generation).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The board sizes it serves, in the file's order.
    pub fn sizes(&self) -> Vec<BoardSize> {
        self.networks.iter().map(|net| net.size).collect()
    }

    /// Whether it has a network for `size`.
    pub fn serves(&self, size: BoardSize) -> bool {
        self.networks.iter().any(|net| net.size == size)
    }

    /// Its networks, one per board size, in the file's order.
    pub fn networks(&self) -> &[BoardNetwork] {
        &self.networks
    }

    /// Its network for `size`.
    ///
    /// # Errors
    ///
    /// [`NetworkError::NotServed`] naming the sizes it serves.
    pub fn network_for(&self, size: BoardSize) -> Result<&BoardNetwork, NetworkError> {
        self.networks
            .iter()
            .find(|net| net.size == size)
            .ok_or_else(|| NetworkError::NotServed {
                size,
                served: self.sizes(),
            })
    }

    /// Its value of `pos` for the side to move, in hundredths of a row,
    /// from -30000 to 30000: what the engine's search uses where the hand
    /// evaluation would be (the dense inputs' jumps are looked for within
    /// `budget` and the evaluation's caps).
    ///
    /// # Errors
    ///
    /// [`NetworkError::NotServed`] for a board size it does not serve,
    /// [`NetworkError::Finished`] when the game is over in `pos`.
    pub fn evaluate(&self, pos: &Position, budget: &Budget<'_>) -> Result<i32, NetworkError> {
        let net = self.network_for(pos.size())?;
        if let Some(winner) = pos.winner() {
            return Err(NetworkError::Finished { winner });
        }
        Ok(net.value(pos, terms(pos, budget)))
    }

    /// The inputs of `pos` (not finished) as every network sees them
    /// (docs/network.md, "Inputs"), the dense terms' jumps looked for
    /// within `budget` and the evaluation's caps: what a trainer learns
    /// from (Python's `phutball.network_features`).
    ///
    /// # Errors
    ///
    /// [`NetworkError::Finished`] when the game is over in `pos`.
    pub fn features(pos: &Position, budget: &Budget<'_>) -> Result<Features, NetworkError> {
        Features::of(pos, budget)
    }
}

impl fmt::Debug for Network {
    /// Its description and networks (their sizes and hidden units).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("description", &self.description)
            .field("networks", &self.networks)
            .finish()
    }
}
