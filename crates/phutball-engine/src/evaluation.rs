//! Which evaluation an engine's search uses: the hand-written one
//! (`eval.rs`), a learned network (`net/`), or the default that picks
//! between them by board size; and the text that names one (`auto`,
//! `hand`, `net`, `net:FILE`), read here for the CLI and Python alike.

use core::fmt;
use core::str::FromStr;
use std::path::PathBuf;
use std::sync::Arc;

use phutball::{BoardSize, Budget, Position};
use thiserror::Error;

use crate::eval::{evaluate, terms};
use crate::net::{BoardNetwork, Network, NetworkError};

/// The evaluation an engine's search uses where no search goes deeper
/// ([`Engine::with_evaluation`](crate::Engine::with_evaluation)).
///
/// ```
/// use std::sync::Arc;
/// use phutball::{BoardSize, Position};
/// use phutball_engine::{BoardNetwork, Engine, EngineError, Evaluation, Limits, Network};
/// assert_eq!(*Engine::new(Limits::depth(2), 1).evaluation(), Evaluation::Auto);
/// // A network of 5x7 boards only, all its weights zero: every position is level.
/// let size: BoardSize = "5x7".parse()?;
/// let w1 = vec![0.0; BoardNetwork::input_count(size)];
/// let zeros = BoardNetwork { size, w1, b1: vec![0.0], w2: vec![0.0], b2: 0.0 };
/// let net = Evaluation::Net(Arc::new(Network::new("zeros", vec![zeros])?));
/// assert_eq!(net.to_string(), "net (5x7)");
/// let engine = Engine::new(Limits::depth(2), 1).with_evaluation(net);
/// assert!(engine.analyse(&"5/5/5/2@2/5/5/5 O".parse()?).is_ok());
/// let refused = engine.analyse(&Position::standard()).unwrap_err();
/// assert!(matches!(refused, EngineError::Network(_)));
/// assert_eq!(refused.to_string(), "the engine's network cannot judge this position: the network serves 5x7, not 15x19");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The default: the network built in ([`Network::built_in`]) on the
    /// board sizes it serves (the standard 15x19), the hand evaluation on
    /// every other. On 15x19 the network is the stronger by the ladder
    /// (docs/engine.md, "Which is stronger: the ladder"); elsewhere there is
    /// no network to be stronger.
    #[default]
    Auto,
    /// The three hand-written terms (docs/engine.md, "Evaluation").
    Hand,
    /// A learned network (docs/network.md): the search refuses a position
    /// of a board size it does not serve.
    Net(Arc<Network>),
}

impl Evaluation {
    /// Whether it can judge positions of `size`.
    ///
    /// # Errors
    ///
    /// [`NetworkError::NotServed`] for a network without a network of that
    /// size; the built-in network's error for [`Evaluation::Auto`] were its
    /// bytes damaged (the crate's tests read them).
    pub fn check_size(&self, size: BoardSize) -> Result<(), NetworkError> {
        self.evaluator(size).map(|_| ())
    }

    /// What a search of positions of `size` evaluates with.
    pub(crate) fn evaluator(&self, size: BoardSize) -> Result<Evaluator<'_>, NetworkError> {
        Ok(match self {
            Evaluation::Auto => match Network::built_in_parsed() {
                Ok(network) => network
                    .network_for(size)
                    .map_or(Evaluator::Hand, Evaluator::Net),
                Err(error) => return Err(error.clone()),
            },
            Evaluation::Hand => Evaluator::Hand,
            Evaluation::Net(network) => Evaluator::Net(network.network_for(size)?),
        })
    }
}

impl fmt::Display for Evaluation {
    /// `auto`, `hand`, or `net` and the sizes it serves: `net (15x19)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evaluation::Auto => f.write_str("auto"),
            Evaluation::Hand => f.write_str("hand"),
            Evaluation::Net(network) => {
                let sizes: Vec<String> = network.sizes().iter().map(ToString::to_string).collect();
                write!(f, "net ({})", sizes.join(", "))
            }
        }
    }
}

/// The evaluation of a search, chosen once as it starts: borrowed from the
/// engine's [`Evaluation`], the network of the position's size picked out,
/// so that each evaluation costs no lookup, clone or allocation.
#[derive(Copy, Clone)]
pub(crate) enum Evaluator<'a> {
    /// The hand evaluation.
    Hand,
    /// The network of the searched board size.
    Net(&'a BoardNetwork),
}

impl Evaluator<'_> {
    /// The value of `pos` (of the search's board size) for its side to
    /// move, the jump outcomes looked for within `budget`. A finished
    /// position, which the search decides before it evaluates (it gets
    /// here only when a check was cut short), has the hand value: its
    /// ball's progress says who has won, where the network has no input.
    pub(crate) fn evaluate(self, pos: &Position, budget: &Budget<'_>) -> i32 {
        match self {
            Evaluator::Net(net) if !pos.is_finished() => net.value(pos, terms(pos, budget)),
            _ => evaluate(pos, budget),
        }
    }
}

/// How an evaluation is named in text (the CLI's `--eval`, Python's
/// `eval=`): `auto`, the default ([`Evaluation::Auto`]); `hand`; `net`,
/// the network built in ([`Network::built_in`]); or `net:FILE`, a weights
/// file that the caller reads (with at most
/// [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES)` + 1` bytes) and gives to
/// [`Network::from_bytes`].
///
/// ```
/// use phutball_engine::EvalSpec;
/// assert_eq!("auto".parse::<EvalSpec>()?, EvalSpec::Auto);
/// assert_eq!("hand".parse::<EvalSpec>()?, EvalSpec::Hand);
/// assert_eq!("net".parse::<EvalSpec>()?, EvalSpec::BuiltIn);
/// assert_eq!("net:weights.phbnet".parse::<EvalSpec>()?, EvalSpec::NetFile("weights.phbnet".into()));
/// let empty = "net:".parse::<EvalSpec>().unwrap_err();
/// assert_eq!(empty.to_string(), "net: needs a file name: net:FILE");
/// # Ok::<(), phutball_engine::EvalSpecError>(())
/// ```
// Not `non_exhaustive`: a new kind (the built-in network) must be handled
// by every wrapper that reads one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSpec {
    /// `auto`: the default, the built-in network where it serves the board
    /// and the hand evaluation elsewhere ([`Evaluation::Auto`]).
    Auto,
    /// `hand`: the hand evaluation.
    Hand,
    /// `net`: the network built into the engine ([`Network::built_in`]).
    BuiltIn,
    /// `net:FILE`: the network of a weights file.
    NetFile(PathBuf),
}

/// Text that names no evaluation ([`EvalSpec`]'s `FromStr`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EvalSpecError {
    /// `net:` without a file name.
    #[error("net: needs a file name: net:FILE")]
    NoFile,
    /// Anything else.
    #[error("unknown evaluation {0:?}: auto, hand, net or net:FILE")]
    Unknown(String),
}

impl FromStr for EvalSpec {
    type Err = EvalSpecError;

    fn from_str(text: &str) -> Result<EvalSpec, EvalSpecError> {
        match text {
            "auto" => Ok(EvalSpec::Auto),
            "hand" => Ok(EvalSpec::Hand),
            "net" => Ok(EvalSpec::BuiltIn),
            _ => match text.strip_prefix("net:") {
                Some("") => Err(EvalSpecError::NoFile),
                Some(file) => Ok(EvalSpec::NetFile(file.into())),
                None => Err(EvalSpecError::Unknown(text.chars().take(60).collect())),
            },
        }
    }
}

impl fmt::Display for EvalSpec {
    /// `auto`, `hand`, `net` or `net:FILE`, as it is read.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalSpec::Auto => f.write_str("auto"),
            EvalSpec::Hand => f.write_str("hand"),
            EvalSpec::BuiltIn => f.write_str("net"),
            EvalSpec::NetFile(file) => write!(f, "net:{}", file.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_back_as_they_print() {
        for text in ["auto", "hand", "net", "net:w.phbnet", "net:dir/a b.phbnet"] {
            let spec: EvalSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!("net:".parse::<EvalSpec>(), Err(EvalSpecError::NoFile));
        assert_eq!(
            "Hand".parse::<EvalSpec>().unwrap_err().to_string(),
            "unknown evaluation \"Hand\": auto, hand, net or net:FILE"
        );
    }

    #[test]
    fn auto_is_the_built_in_network_where_it_serves_the_board_and_hand_elsewhere() {
        let standard = BoardSize::new(15, 19).unwrap();
        let small = BoardSize::new(9, 9).unwrap();
        let Evaluator::Net(chosen) = Evaluation::Auto.evaluator(standard).unwrap() else {
            panic!("auto on 15x19 is not the network");
        };
        let built_in = Network::built_in().unwrap();
        assert!(core::ptr::eq(
            chosen,
            built_in.network_for(standard).unwrap()
        ));
        assert!(matches!(
            Evaluation::Auto.evaluator(small),
            Ok(Evaluator::Hand)
        ));
        assert_eq!(Evaluation::Auto.check_size(small), Ok(()));
        assert_eq!(
            Evaluation::Net(built_in)
                .check_size(small)
                .map_err(|e| e.to_string()),
            Err("the network serves 15x19, not 9x9".to_string())
        );
        assert_eq!(Evaluation::default(), Evaluation::Auto);
        assert_eq!(Evaluation::Auto.to_string(), "auto");
    }
}
