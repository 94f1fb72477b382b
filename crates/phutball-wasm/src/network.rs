//! `Network`: a learned evaluation read from the bytes of its weights file
//! (docs/network.md), written back, described, and given to the engine
//! (`analyse` and `bestMove` take one, read through its `toBytes()` as
//! `new Game(pos)` reads a position through its text, so that no call takes
//! it). The weights file is the engine's format, read and checked by
//! `phutball_engine::Network`.

use std::sync::Arc;

use js_sys::{Function, Reflect, Uint8Array};
use phutball::{BoardSize, Budget};
use phutball_engine::{EvalSpec, Evaluation, Network, NetworkError};
use wasm_bindgen::prelude::*;

use crate::classes::WasmPosition;
use crate::errors;

/// A learned evaluation: a small value network for each board size it
/// serves, read from a weights file (`.phbnet`, as `python -m
/// phutball.train` writes it). `Network.fromBytes(bytes)` reads one,
/// `Network.builtIn()` gives the standard board's; `analyse` and
/// `bestMove` search with the one they are given. Immutable.
#[wasm_bindgen(js_name = Network)]
pub struct WasmNetwork {
    inner: Arc<Network>,
}

/// `NetworkError` with the engine's message.
fn network_error(error: &NetworkError) -> JsValue {
    errors::named("NetworkError", error)
}

impl WasmNetwork {
    /// The evaluation of an optional `network` argument: the default
    /// (`auto`: the built-in network on the standard board, the hand
    /// evaluation elsewhere) for `undefined`; `"auto"`, `"hand"` or `"net"`
    /// (the built-in network) by name, as the CLI's `--eval` names them;
    /// else the network of a JavaScript `Network`, read through its own
    /// `toBytes()` so that the object stays usable (wasm-bindgen hands a
    /// class over by value only, taking it from its owner: an optional
    /// `&Network` it cannot take).
    pub(crate) fn evaluation(network: Option<&JsValue>) -> Result<Evaluation, JsValue> {
        let Some(value) = network.filter(|v| !v.is_undefined() && !v.is_null()) else {
            return Ok(Evaluation::Auto);
        };
        if let Some(name) = value.as_string() {
            return match name.parse::<EvalSpec>() {
                Ok(EvalSpec::Auto) => Ok(Evaluation::Auto),
                Ok(EvalSpec::Hand) => Ok(Evaluation::Hand),
                Ok(EvalSpec::BuiltIn) => Network::built_in()
                    .map(Evaluation::Net)
                    .map_err(|e| network_error(&e)),
                Ok(EvalSpec::NetFile(_)) => Err(errors::value(
                    "net:FILE names a file, which a browser has not: give a Network (Network.fromBytes)",
                )),
                Err(e) => Err(errors::value(format!("network: {e}"))),
            };
        }
        let not_a_network =
            || errors::value("network must be a Network, \"auto\", \"hand\", \"net\" or undefined");
        let to_bytes = Reflect::get(value, &JsValue::from_str("toBytes"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(not_a_network)?;
        let bytes = to_bytes
            .call0(value)?
            .dyn_into::<Uint8Array>()
            .map_err(|_| not_a_network())?
            .to_vec();
        let network = Network::from_bytes(&bytes).map_err(|e| network_error(&e))?;
        Ok(Evaluation::Net(Arc::new(network)))
    }
}

#[wasm_bindgen(js_class = Network)]
impl WasmNetwork {
    /// Reads a network from the bytes of its weights file (a `.phbnet`
    /// file's contents; `toBytes()` gives them back). The bytes are copied.
    /// Throws `NetworkError` saying what is wrong with bytes that are not
    /// one: a wrong magic, version or checksum (a damaged file), truncated,
    /// a weight that is not finite, two networks for one board size, over
    /// 64 MiB.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<WasmNetwork, JsValue> {
        Network::from_bytes(bytes)
            .map(|network| WasmNetwork {
                inner: Arc::new(network),
            })
            .map_err(|e| network_error(&e))
    }

    /// The network built into the package: the standard 15x19 board's
    /// (docs/network.md, "The shipped network"; the command line's `--eval
    /// net`), with no file to fetch. Its weights are part of the package's
    /// wasm (about 147 KB). Throws `NetworkError` only were those bytes
    /// damaged (the engine's tests read them).
    #[wasm_bindgen(js_name = builtIn)]
    pub fn built_in() -> Result<WasmNetwork, JsValue> {
        Network::built_in()
            .map(|inner| WasmNetwork { inner })
            .map_err(|e| network_error(&e))
    }

    /// The network's weights file, byte for byte as `fromBytes` read it.
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// How it was made (the trainer's command, seed, generation).
    #[wasm_bindgen(getter)]
    pub fn description(&self) -> String {
        self.inner.description().to_string()
    }

    /// The board sizes it serves, as `"15x19"` (columns x rows), in the
    /// file's order.
    #[wasm_bindgen(getter)]
    pub fn sizes(&self) -> Vec<String> {
        self.inner.sizes().iter().map(ToString::to_string).collect()
    }

    /// Whether it has a network for boards of `cols` columns and `rows`
    /// rows (`false` for a size no board has): an engine with it searches
    /// only positions of the sizes it serves.
    pub fn serves(&self, cols: f64, rows: f64) -> bool {
        BoardSize::try_from((cols as i64, rows as i64))
            .ok()
            .filter(|_| cols.fract() == 0.0 && rows.fract() == 0.0)
            .is_some_and(|size| self.inner.serves(size))
    }

    /// Its value of `position` for the side to move, in hundredths of a
    /// row (-30000 to 30000), as the engine's search uses it. Throws
    /// `NetworkError` for a board size it does not serve, or a position
    /// where the game is over.
    pub fn evaluate(&self, position: &WasmPosition) -> Result<i32, JsValue> {
        self.inner
            .evaluate(&position.inner, &Budget::default())
            .map_err(|e| network_error(&e))
    }
}
