//! `phutball.Network` (a learned evaluation, read from its weights file:
//! docs/network.md), `phutball.network_features` (the inputs a trainer
//! learns from, as numpy arrays) and the engine's `eval=` argument
//! (`"hand"`, `"net:PATH"` or a `Network`).

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use phutball::{Position, SearchError};
use phutball_engine::{EvalSpec, Evaluation, Network, NetworkError as EngineNetworkError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::budget::{run, BudgetKeywords};
use crate::classes::{position_arg, reduce_to_bytes, type_name};
use crate::errors::NetworkError;
use crate::solver::os_error;

/// A learned evaluation: a small value network for each of the board sizes
/// it serves, read from a weights file (``.phbnet``, the format in the
/// repository's ``docs/network.md``). ``Network(path)`` (or
/// ``Network.load(path)``) reads a file, ``Network.from_bytes(data)`` its
/// bytes; ``to_bytes()`` gives them back. Give it to
/// ``Engine(eval=network)`` to search with it. Immutable, comparable with
/// ``==``, picklable (as its bytes).
#[pyclass(name = "Network", module = "phutball", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct PyNetwork {
    pub(crate) inner: Arc<Network>,
}

/// `NetworkError` with `error`'s message, after `name` (a file) if given.
fn network_err(error: &EngineNetworkError, name: Option<&str>) -> PyErr {
    match name {
        Some(name) => NetworkError::new_err(format!("{name}: {error}")),
        None => NetworkError::new_err(error.to_string()),
    }
}

/// The network of the weights file `path`: at most the format's 64 MiB and
/// one byte are read, so that a larger file (or an endless stream) is
/// refused without being read whole. `OSError` when it cannot be read,
/// `NetworkError` (naming the file) when its bytes are refused.
fn read_network(py: Python<'_>, path: &Path) -> PyResult<Network> {
    let bytes = py
        .detach(|| {
            let mut bytes = Vec::new();
            std::fs::File::open(path)?
                .take(phutball_engine::MAX_FILE_BYTES as u64 + 1)
                .read_to_end(&mut bytes)?;
            Ok::<_, std::io::Error>(bytes)
        })
        .map_err(|e| os_error(&e, path))?;
    Network::from_bytes(&bytes).map_err(|e| network_err(&e, Some(&path.display().to_string())))
}

#[pymethods]
impl PyNetwork {
    /// Reads the weights file ``path`` (``load``).
    #[new]
    fn new(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        Self::load(py, path)
    }

    /// Reads the weights file ``path``: ``OSError`` when it cannot be read,
    /// ``NetworkError`` (naming the file and what is wrong: damaged,
    /// truncated, another version, over 64 MiB, ...) when it is refused.
    #[staticmethod]
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Self> {
        Ok(PyNetwork {
            inner: Arc::new(read_network(py, &path)?),
        })
    }

    /// Reads a network from the bytes of its weights file (``to_bytes()``).
    /// Raises ``NetworkError`` saying what is wrong with bytes that are not
    /// one.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyNetwork {
            inner: Arc::new(Network::from_bytes(data).map_err(|e| network_err(&e, None))?),
        })
    }

    /// The network built into this build (``eval="net"``, and ``eval="auto"``
    /// on the standard 15x19 board it serves).
    #[staticmethod]
    fn built_in() -> PyResult<Self> {
        Ok(PyNetwork {
            inner: Network::built_in()
                .map_err(|e| network_err(&e, Some("the built-in network")))?,
        })
    }

    /// The network's weights file, as ``from_bytes`` reads it.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// The board sizes it serves, as ``(cols, rows)``, in the file's order.
    #[getter]
    fn sizes(&self) -> Vec<(u8, u8)> {
        self.inner
            .sizes()
            .iter()
            .map(|size| (size.cols(), size.rows()))
            .collect()
    }

    /// How it was made (the trainer's command, seed, generation).
    #[getter]
    fn description(&self) -> String {
        self.inner.description().to_string()
    }

    /// Its value of ``position`` (a ``Position`` or a position string) for
    /// the side to move, in hundredths of a row (-30000 to 30000), as the
    /// engine's search uses it. Raises ``NetworkError`` for a board size it
    /// does not serve, or a position where the game is over.
    fn evaluate(&self, position: &Bound<'_, PyAny>) -> PyResult<i32> {
        let pos = position_arg(position)?;
        self.inner
            .evaluate(&pos, &phutball::Budget::default())
            .map_err(|e| network_err(&e, None))
    }

    /// Pickles as its bytes (``to_bytes``), read back by ``from_bytes``.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        reduce_to_bytes(slf.as_any(), &slf.get().inner.to_bytes())
    }

    fn __repr__(&self) -> String {
        let layers: Vec<String> = self
            .inner
            .networks()
            .iter()
            .map(|net| format!("{} with {} hidden units", net.size, net.hidden()))
            .collect();
        format!(
            "<Network {}: {:?}>",
            layers.join(", "),
            self.inner.description()
        )
    }
}

/// The `eval=` argument of the engine (`name` in messages: `eval`,
/// `opponent_eval`): `None` or `"auto"` (the default, [`Evaluation::Auto`]),
/// `"hand"` (the hand evaluation), `"net"` (the built-in network),
/// `"net:PATH"` (the weights file PATH, read now) or a `phutball.Network`.
pub(crate) fn evaluation_arg(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
) -> PyResult<Evaluation> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(Evaluation::Auto);
    };
    if let Ok(network) = obj.cast::<PyNetwork>() {
        return Ok(Evaluation::Net(network.get().inner.clone()));
    }
    let Ok(text) = obj.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "{name} must be \"auto\", \"hand\", \"net\", \"net:PATH\" or a phutball.Network, not {}",
            type_name(obj)
        )));
    };
    let spec: EvalSpec = text
        .to_cow()?
        .parse()
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
    Ok(match spec {
        EvalSpec::Auto => Evaluation::Auto,
        EvalSpec::Hand => Evaluation::Hand,
        EvalSpec::BuiltIn => Evaluation::Net(
            Network::built_in().map_err(|e| network_err(&e, Some("the built-in network")))?,
        ),
        EvalSpec::NetFile(path) => Evaluation::Net(Arc::new(read_network(py, &path)?)),
    })
}

/// The `eval=` an engine pickles with: `"auto"`, `"hand"` or its `Network`.
pub(crate) fn evaluation_to_py(py: Python<'_>, evaluation: &Evaluation) -> PyResult<Py<PyAny>> {
    Ok(match evaluation {
        Evaluation::Net(network) => Py::new(
            py,
            PyNetwork {
                inner: network.clone(),
            },
        )?
        .into_any(),
        Evaluation::Auto => PyString::new(py, "auto").into_any().unbind(),
        Evaluation::Hand => PyString::new(py, "hand").into_any().unbind(),
    })
}

/// The three arrays of `network_features`.
type FeatureArrays<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i32>>,
    Bound<'py, PyArray2<f32>>,
);

/// The inputs of the network (docs/network.md, "Inputs") for every
/// position of ``positions`` (``Position`` objects or position strings),
/// computed by the engine's own code, as three numpy arrays ``(offsets,
/// indices, dense)``: position ``i``'s sparse features (the indices of the
/// inputs that are 1: a square index, in the mover's frame, for every man,
/// then ``C * R`` plus the ball's) are ``indices[offsets[i]:offsets[i + 1]]``
/// (int32, increasing), ``offsets`` (int64) has ``len(positions) + 1``
/// entries from 0, and ``dense[i]`` (float32, shape ``(n, 3)``) holds its
/// three dense inputs, inputs ``2 * C * R`` to ``2 * C * R + 2``.
///
/// Raises ``TypeError`` or ``ParseError`` for something that is not a
/// position and ``NetworkError`` (naming its index) for a position where
/// the game is over, before any array is returned; ``SearchTimeoutError``
/// after ``timeout`` seconds, ``KeyboardInterrupt`` on Ctrl-C. Releases
/// the GIL.
#[pyfunction]
#[pyo3(signature = (positions, *, timeout=None))]
fn network_features<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    timeout: Option<&Bound<'py, PyAny>>,
) -> PyResult<FeatureArrays<'py>> {
    let batch = positions
        .try_iter()?
        .map(|obj| position_arg(&obj?))
        .collect::<PyResult<Vec<Position>>>()?;
    let computed = run(py, BudgetKeywords::timeout(timeout)?, |budget| {
        let mut offsets = Vec::with_capacity(batch.len() + 1);
        let mut indices = Vec::new();
        let mut dense = Vec::with_capacity(batch.len() * 3);
        offsets.push(0i64);
        for (i, pos) in batch.iter().enumerate() {
            let features = match Network::features(pos, budget) {
                Ok(features) => features,
                Err(e) => return Ok(Err((i, e))),
            };
            // A stop cut the dense terms' jumps short: no features.
            if let Some(stop) = budget.interrupted() {
                return Err(stop);
            }
            // Indices are below 2 * 25 * 25.
            indices.extend(features.sparse().iter().map(|&s| s as i32));
            dense.extend(features.dense());
            offsets.push(indices.len() as i64);
        }
        Ok::<_, SearchError>(Ok((offsets, indices, dense)))
    })?;
    let (offsets, indices, dense) =
        computed.map_err(|(i, e)| network_err(&e, Some(&format!("positions[{i}]"))))?;
    let rows = offsets.len() - 1;
    let dense = Array2::from_shape_vec((rows, 3), dense)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((
        PyArray1::from_vec(py, offsets),
        PyArray1::from_vec(py, indices),
        dense.into_pyarray(py),
    ))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNetwork>()?;
    m.add_function(wrap_pyfunction!(network_features, m)?)
}
