//! `phutball.VecEnv`: the engine's batch of games (`phutball_engine::VecEnv`)
//! with numpy arrays in and out; the stepping runs with the GIL released
//! and answers Ctrl-C between chunks of games (`bounds::run`).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use numpy::ndarray::Array3;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArray4, PyArrayDescrMethods, PyArrayMethods,
    PyUntypedArrayMethods,
};
use phutball::{Position, PLANE_COUNT};
use phutball_engine::{FinalObservation, StepBuffers, VecEnv, VecEnvError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::actions::step_to_py;
use crate::bounds::{run, Bounds};
use crate::errors::{exception, IllegalMoveError, OrRaise};
use crate::notation::size_arg;
use crate::rules::{rules_arg, PyRules};

/// ``num_envs`` games of step-by-step play stepped together in Rust (see
/// docs/python.md): ``reset()`` gives ``(obs, mask)``, ``step(actions)``
/// gives ``(obs, mask, rewards, terminated, truncated, info)``; games that
/// end restart at once, their last observation in ``info["final_obs"]``.
/// ``phutball.VecEnv`` (python/phutball/_vector.py) derives from this
/// class, adding the gymnasium-style spaces.
#[pyclass(name = "VecEnv", module = "phutball", subclass)]
pub(crate) struct PyVecEnv {
    env: VecEnv,
}

/// The Python exception for a batch that cannot be made or stepped.
fn raise(e: &VecEnvError) -> PyErr {
    match e {
        VecEnvError::Action { .. } => IllegalMoveError::new_err(e.to_string()),
        VecEnvError::Config(_) | VecEnvError::Length { .. } => PyValueError::new_err(e.to_string()),
        // As a search stopped by the same budget (`bounded` lets
        // `bounds::run` raise these, with the signal handler's exception).
        VecEnvError::Interrupted(stop) => exception(&stop.clone().into()),
    }
}

/// Runs a step or a reset through `bounds::run` (the GIL released, Ctrl-C
/// answered between chunks of games; no deadline: the work is O(N)).
fn bounded<T: Send>(
    py: Python<'_>,
    call: impl FnOnce(&phutball::Budget<'_>) -> Result<T, VecEnvError> + Send,
) -> PyResult<T> {
    let split = |budget: &phutball::Budget<'_>| match call(budget) {
        Err(VecEnvError::Interrupted(stop)) => Err(stop),
        answer => Ok(answer),
    };
    run(py, Bounds::timeout(None)?, split)?.map_err(|e| raise(&e))
}

/// A count argument (`num_envs`, `threads`, `move_limit`): an int of at least 1.
fn count_arg<T: TryFrom<i64>>(value: i64, what: &str) -> PyResult<T> {
    T::try_from(value)
        .ok()
        .filter(|_| value >= 1)
        .ok_or_else(|| PyValueError::new_err(format!("{what} must be at least 1, not {value}")))
}

/// A seed nobody chose: the standard library's per-process random keys.
fn random_seed() -> u64 {
    RandomState::new().build_hasher().finish()
}

impl PyVecEnv {
    /// A fresh array for the observations of the batch, `(N, C, rows + 2,
    /// cols)`, from `numpy.empty`: the core writes every value (zeroing the
    /// megabytes of a step first would cost a tenth of the step).
    fn new_observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray4<f32>>> {
        let size = self.env.start().size();
        let shape = (
            self.env.len(),
            PLANE_COUNT,
            size.rows() as usize + 2,
            size.cols() as usize,
        );
        let array = py
            .import("numpy")?
            .getattr("empty")?
            .call1((shape, "float32"))?;
        Ok(array.cast_into::<PyArray4<f32>>()?)
    }

    /// A fresh array for the legal-action masks of the batch, `(N, A)`.
    fn new_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        let shape = (self.env.len(), self.env.start().size().action_count());
        PyArray2::zeros(py, shape, false)
    }

    /// `info`: `final_obs`, an object array with the last observation of each
    /// game that ended (None for the others), and `_final_obs`, which ended.
    fn info<'py>(
        &self,
        py: Python<'py>,
        finals: Vec<FinalObservation>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let size = self.env.start().size();
        let shape = (PLANE_COUNT, size.rows() as usize + 2, size.cols() as usize);
        let mut ended = vec![false; self.env.len()];
        let mut observations: Vec<Py<PyAny>> = (0..self.env.len()).map(|_| py.None()).collect();
        for last in finals {
            let array = Array3::from_shape_vec(shape, last.planes)
                .map_err(|e| PyValueError::new_err(format!("planes of the wrong shape: {e}")))?;
            observations[last.game] = array.into_pyarray(py).into_any().unbind();
            ended[last.game] = true;
        }
        let info = PyDict::new(py);
        info.set_item("final_obs", PyArray1::from_vec(py, observations))?;
        info.set_item("_final_obs", PyArray1::from_vec(py, ended))?;
        Ok(info)
    }
}

/// The values of an array this module made (C order, so contiguous).
fn contiguous<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &'a mut numpy::PyReadwriteArray<'_, T, D>,
) -> PyResult<&'a mut [T]> {
    array
        .as_slice_mut()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The `actions` argument: one action index per game, from a numpy array of
/// integers or a sequence of ints.
fn actions_arg(py: Python<'_>, actions: &Bound<'_, PyAny>, count: usize) -> PyResult<Vec<usize>> {
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("asarray", (actions,))?;
    let array = array
        .cast_into::<numpy::PyUntypedArray>()
        .map_err(PyErr::from)?;
    let dtype = array.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers, not {}",
            dtype.str()?
        )));
    }
    if array.shape() != [count] {
        return Err(PyValueError::new_err(format!(
            "actions must have shape ({count},), one per game, not ({})",
            array
                .shape()
                .iter()
                .map(|d| format!("{d},"))
                .collect::<String>()
        )));
    }
    let array = array.call_method1("astype", ("int64",))?;
    let array = array
        .cast_into::<numpy::PyArray1<i64>>()
        .map_err(PyErr::from)?;
    let values = array
        .to_vec()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    values
        .into_iter()
        .enumerate()
        .map(|(game, a)| {
            usize::try_from(a).map_err(|_| {
                IllegalMoveError::new_err(format!(
                    "game {game}: action {a} does not exist: actions are 0 or more"
                ))
            })
        })
        .collect()
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(
        signature = (num_envs, *, cols=15, rows=19, rules=None, move_limit=Some(200), seed=None, threads=None),
        text_signature = "(num_envs, *, cols=15, rows=19, rules=None, move_limit=200, seed=None, threads=None)"
    )]
    fn new(
        num_envs: i64,
        cols: i64,
        rows: i64,
        rules: Option<&PyRules>,
        move_limit: Option<i64>,
        seed: Option<u64>,
        threads: Option<i64>,
    ) -> PyResult<Self> {
        let start = Position::start_with(size_arg(cols, rows)?, rules_arg(rules)).or_raise()?;
        let count = count_arg(num_envs, "num_envs")?;
        let move_limit = move_limit.map(|l| count_arg(l, "move_limit")).transpose()?;
        let threads = match threads {
            Some(t) => count_arg(t, "threads")?,
            None => VecEnv::default_threads(),
        };
        let seed = seed.unwrap_or_else(random_seed);
        let env = VecEnv::new(start, count, move_limit, seed, threads).map_err(|e| raise(&e))?;
        Ok(PyVecEnv { env })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.env.len()
    }

    fn __len__(&self) -> usize {
        self.env.len()
    }

    /// The threads a step uses: at most ``threads=``, and one per 512 games.
    #[getter]
    fn threads(&self) -> usize {
        self.env.threads()
    }

    /// The whole moves after which a game without a goal is truncated (None: never).
    #[getter]
    fn move_limit(&self) -> Option<u32> {
        self.env.move_limit()
    }

    /// The number of actions of the board (the masks' second dimension).
    #[getter]
    fn action_count(&self) -> usize {
        self.env.start().size().action_count()
    }

    /// The shape of one game's observation, ``(C, rows + 2, cols)``.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let size = self.env.start().size();
        (PLANE_COUNT, size.rows() as usize + 2, size.cols() as usize)
    }

    /// Every game back at the start; ``seed`` reseeds ``sample_actions``.
    /// Returns ``(obs, mask)``; Ctrl-C raises ``KeyboardInterrupt`` (polled
    /// every 1024 games; no game changes).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Bound<'py, PyTuple>> {
        let (obs, masks) = (self.new_observations(py)?, self.new_masks(py));
        {
            let (mut planes, mut flags) = (obs.readwrite(), masks.readwrite());
            let (planes, flags) = (contiguous(&mut planes)?, contiguous(&mut flags)?);
            let env = &mut self.env;
            bounded(py, |budget| env.reset_within(seed, planes, flags, budget))?;
        }
        PyTuple::new(py, [obs.into_any(), masks.into_any()])
    }

    /// Takes ``actions[i]`` in game ``i``. Returns ``(obs, mask, rewards,
    /// terminated, truncated, info)``; raises ``IllegalMoveError`` naming
    /// the game for an illegal action, ``ValueError`` for a wrong shape,
    /// ``TypeError`` for actions that are not integers, and
    /// ``KeyboardInterrupt`` on Ctrl-C (polled every 1024 games); then no
    /// game changes.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = actions_arg(py, actions, self.env.len())?;
        let n = self.env.len();
        let (obs, masks) = (self.new_observations(py)?, self.new_masks(py));
        let rewards = PyArray1::<f32>::zeros(py, n, false);
        let terminated = PyArray1::<bool>::zeros(py, n, false);
        let truncated = PyArray1::<bool>::zeros(py, n, false);
        let finals = {
            let (mut planes, mut flags) = (obs.readwrite(), masks.readwrite());
            let (mut won, mut ended, mut cut) = (
                rewards.readwrite(),
                terminated.readwrite(),
                truncated.readwrite(),
            );
            let mut out = StepBuffers {
                planes: contiguous(&mut planes)?,
                masks: contiguous(&mut flags)?,
                rewards: contiguous(&mut won)?,
                terminated: contiguous(&mut ended)?,
                truncated: contiguous(&mut cut)?,
            };
            let env = &mut self.env;
            bounded(py, |budget| env.step_within(&actions, &mut out, budget))?
        };
        PyTuple::new(
            py,
            [
                obs.into_any(),
                masks.into_any(),
                rewards.into_any(),
                terminated.into_any(),
                truncated.into_any(),
                self.info(py, finals)?.into_any(),
            ],
        )
    }

    /// One legal action per game, uniformly at random (the batch's seeded
    /// generator), as an int64 array.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let env = &mut self.env;
        let actions = py.detach(|| env.sample_actions());
        // Action indices are below 2^31 (at most 25 * 52 + 1 of them).
        PyArray1::from_vec(py, actions.into_iter().map(|a| a as i64).collect())
    }

    /// The state of each game: a ``Position``, or a ``JumpInProgress`` during a jump move.
    fn states<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let states: PyResult<Vec<Py<PyAny>>> =
            self.env.states().map(|s| step_to_py(py, s)).collect();
        PyList::new(py, states?)
    }

    fn __repr__(&self) -> String {
        let size = self.env.start().size();
        format!(
            "VecEnv({}, cols={}, rows={}, move_limit={}, threads={})",
            self.env.len(),
            size.cols(),
            size.rows(),
            self.env
                .move_limit()
                .map_or("None".to_string(), |l| l.to_string()),
            self.env.threads()
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecEnv>()
}
