//! `phutball.VecEnv`: the engine's batch of games (`phutball_engine::VecEnv`)
//! with numpy arrays in and out; the stepping runs with the GIL released
//! and answers Ctrl-C between chunks of games (`budget::run`).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Mutex, MutexGuard, TryLockError};

use numpy::ndarray::{Array3, Ix1, Ix2, Ix4};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArray4, PyArrayDescrMethods, PyArrayMethods,
    PyUntypedArrayMethods,
};
use phutball::{BoardSize, Position, PLANE_COUNT};
use phutball_env::{FinalObservation, Opponent, StepBuffers, VecEnv, VecEnvError};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::actions::step_to_py;
use crate::budget::{run, BudgetKeywords};
use crate::buffers::{buffer_arg, writable, write_to_move};
use crate::errors::{exception, IllegalMoveError, NetworkError, OrRaise};
use crate::network::evaluation_to_py;
use crate::notation::{int, size_arg, Int};
use crate::opponent::{agent_side_arg, opponent_arg, opponent_eval_arg};
use crate::rules::{rules_arg, PyRules};

/// ``num_envs`` games of step-by-step play stepped together in Rust (see
/// docs/python.md): ``reset()`` gives ``(obs, mask)``, ``step(actions)``
/// gives ``(obs, mask, rewards, terminated, truncated, info)``; games that
/// end restart at once, their last observation in ``info["final_obs"]``.
/// ``phutball.VecEnv`` (python/phutball/_vector.py) derives from this
/// class, adding the gymnasium-style spaces.
///
/// Threads: one batch steps at a time. Calls from several Python threads
/// on one ``VecEnv`` are safe and take turns (each waits, the GIL
/// released, for the one before it to finish), so their order is the
/// order they got the batch; for games in parallel use one ``VecEnv`` per
/// thread, or its own ``jobs=``. A ``VecEnv`` does not pickle (its games
/// and generator live in Rust): make a new one from its settings.
#[pyclass(name = "VecEnv", module = "phutball", subclass, frozen)]
pub(crate) struct PyVecEnv {
    /// The batch, behind the lock that makes threads take turns.
    env: Mutex<VecEnv>,
    /// Its settings, read without the lock (a getter must not wait for a step).
    len: usize,
    jobs: usize,
    move_limit: Option<u32>,
    size: BoardSize,
    opponent: Opponent,
    /// The batch as `_save` left it, for `_restore` (a callable opponent's
    /// step, which is several calls, undone as a whole on an error).
    saved: Mutex<Option<VecEnv>>,
}

/// The Python exception for a batch that cannot be made or stepped.
fn raise(e: &VecEnvError) -> PyErr {
    match e {
        VecEnvError::Action { .. } => IllegalMoveError::new_err(e.to_string()),
        VecEnvError::Config(_) | VecEnvError::Length { .. } => PyValueError::new_err(e.to_string()),
        VecEnvError::Network(_) => NetworkError::new_err(e.to_string()),
        VecEnvError::Waiting { .. } | VecEnvError::Opponent { .. } => {
            PyRuntimeError::new_err(e.to_string())
        }
        // As a search stopped by the same budget (`bounded` lets
        // `budget::run` raise these, with the signal handler's exception).
        VecEnvError::Interrupted(stop) => exception(&stop.clone().into()),
    }
}

/// Runs a step or a reset through `budget::run` (the GIL released, Ctrl-C
/// answered between chunks of games; no deadline: the work is O(N)).
fn bounded<T: Send>(
    py: Python<'_>,
    call: impl FnOnce(&phutball::Budget<'_>) -> Result<T, VecEnvError> + Send,
) -> PyResult<T> {
    let split = |budget: &phutball::Budget<'_>| match call(budget) {
        Err(VecEnvError::Interrupted(stop)) => Err(stop),
        answer => Ok(answer),
    };
    run(py, BudgetKeywords::timeout(None)?, split)?.map_err(|e| raise(&e))
}

/// A seed nobody chose: the standard library's per-process random keys.
fn random_seed() -> u64 {
    RandomState::new().build_hasher().finish()
}

impl PyVecEnv {
    /// The batch, once no other thread uses it: waits with the GIL released
    /// (the thread stepping it may need the GIL to finish).
    fn lock(&self, py: Python<'_>) -> MutexGuard<'_, VecEnv> {
        loop {
            match self.env.try_lock() {
                Ok(env) => return env,
                // A panic mid-step (a bug) left it: its games are still whole.
                Err(TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => {
                    py.detach(|| drop(self.env.lock()));
                }
            }
        }
    }

    /// A fresh array for the observations of the batch, `(N, C, rows + 2,
    /// cols)`, from `numpy.empty`: the core writes every value (zeroing the
    /// megabytes of a step first would cost a tenth of the step).
    fn new_observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray4<f32>>> {
        let size = self.size;
        let shape = (
            self.len,
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
        let shape = (self.len, self.size.action_count());
        PyArray2::zeros(py, shape, false)
    }

    /// `step_into` (`waiting` false: every game's action) and
    /// `step_waiting_into` (true: the waiting games' actions, in order):
    /// the arguments checked, then one step written into the arrays.
    #[allow(clippy::too_many_arguments)]
    fn step_into_checked<'py>(
        &self,
        py: Python<'py>,
        waiting: bool,
        actions: &Bound<'py, PyAny>,
        obs: &Bound<'py, PyAny>,
        mask: &Bound<'py, PyAny>,
        rewards: &Bound<'py, PyAny>,
        terminated: &Bound<'py, PyAny>,
        truncated: &Bound<'py, PyAny>,
        to_move: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let count = if waiting {
            self.lock(py).waiting().len()
        } else {
            self.len
        };
        let actions = actions_arg(py, actions, count, self.size.action_count())?;
        let (n, (c, rows, cols)) = (self.len, self.observation_shape());
        let obs = buffer_arg::<f32, Ix4>(obs, "obs", &[n, c, rows, cols])?;
        let mask = buffer_arg::<bool, Ix2>(mask, "mask", &[n, self.size.action_count()])?;
        let rewards = buffer_arg::<f32, Ix1>(rewards, "rewards", &[n])?;
        let terminated = buffer_arg::<bool, Ix1>(terminated, "terminated", &[n])?;
        let truncated = buffer_arg::<bool, Ix1>(truncated, "truncated", &[n])?;
        let to_move = to_move
            .map(|a| buffer_arg::<i8, Ix1>(a, "to_move", &[n]))
            .transpose()?;
        let out = StepArrays {
            obs: &obs,
            mask: &mask,
            rewards: &rewards,
            terminated: &terminated,
            truncated: &truncated,
        };
        let which = if waiting {
            Actions::Waiting(&actions)
        } else {
            Actions::All(&actions)
        };
        let finals = self.step_arrays(py, which, &out, to_move.as_ref())?;
        if finals.is_empty() {
            Ok(PyDict::new(py))
        } else {
            self.info(py, finals)
        }
    }

    /// Steps the batch into `out` (and, when given, each game's side to act
    /// into `to_move`), the lock held throughout, with the GIL released and
    /// Ctrl-C answered (`bounded`): the one stepping of `step` and
    /// `step_into`.
    fn step_arrays(
        &self,
        py: Python<'_>,
        actions: Actions<'_>,
        out: &StepArrays<'_, '_>,
        to_move: Option<&Bound<'_, PyArray1<i8>>>,
    ) -> PyResult<Vec<FinalObservation>> {
        let (mut planes, mut flags) = (writable(out.obs, "obs")?, writable(out.mask, "mask")?);
        let mut won = writable(out.rewards, "rewards")?;
        let mut ended = writable(out.terminated, "terminated")?;
        let mut cut = writable(out.truncated, "truncated")?;
        let mut sides = to_move.map(|a| writable(a, "to_move")).transpose()?;
        let mut buffers = StepBuffers {
            planes: contiguous(&mut planes)?,
            masks: contiguous(&mut flags)?,
            rewards: contiguous(&mut won)?,
            terminated: contiguous(&mut ended)?,
            truncated: contiguous(&mut cut)?,
        };
        let mut env = self.lock(py);
        let env = &mut *env;
        let finals = bounded(py, |budget| match actions {
            Actions::All(actions) => env.step_within(actions, &mut buffers, budget),
            Actions::Waiting(actions) => env.step_waiting(actions, &mut buffers, budget),
        })?;
        if let Some(sides) = sides.as_mut() {
            write_to_move(env.states(), contiguous(sides)?);
        }
        Ok(finals)
    }

    /// `info`: `final_obs`, an object array with the last observation of each
    /// game that ended (None for the others), and `_final_obs`, which ended.
    fn info<'py>(
        &self,
        py: Python<'py>,
        finals: Vec<FinalObservation>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let size = self.size;
        let shape = (PLANE_COUNT, size.rows() as usize + 2, size.cols() as usize);
        let mut ended = vec![false; self.len];
        let mut observations: Vec<Py<PyAny>> = (0..self.len).map(|_| py.None()).collect();
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

/// A step's actions: the agent's in every game, or an external opponent's
/// in the games waiting for it.
#[derive(Clone, Copy)]
enum Actions<'a> {
    All(&'a [usize]),
    Waiting(&'a [usize]),
}

/// The arrays a step writes, checked (dtype, shape, C order) or made here.
struct StepArrays<'a, 'py> {
    obs: &'a Bound<'py, PyArray4<f32>>,
    mask: &'a Bound<'py, PyArray2<bool>>,
    rewards: &'a Bound<'py, PyArray1<f32>>,
    terminated: &'a Bound<'py, PyArray1<bool>>,
    truncated: &'a Bound<'py, PyArray1<bool>>,
}

/// The values of an array this module made (C order, so contiguous).
fn contiguous<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &'a mut numpy::PyReadwriteArray<'_, T, D>,
) -> PyResult<&'a mut [T]> {
    array
        .as_slice_mut()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// An action out of the board's range, naming the game.
fn out_of_range(game: usize, action: &str, action_count: usize) -> PyErr {
    IllegalMoveError::new_err(format!(
        "game {game}: action {action} does not exist: actions are 0 to {}",
        action_count - 1
    ))
}

/// The `actions` argument: one action index per game, from a numpy array of
/// integers or a sequence of ints (each read as every int argument is:
/// no bools). An action beyond every board's range raises
/// `IllegalMoveError` naming the game, as an unknown action does.
fn actions_arg(
    py: Python<'_>,
    actions: &Bound<'_, PyAny>,
    count: usize,
    action_count: usize,
) -> PyResult<Vec<usize>> {
    if !actions.is_instance_of::<numpy::PyUntypedArray>()
        && !actions.is_instance_of::<pyo3::types::PyString>()
    {
        if let Ok(list) = actions.cast::<pyo3::types::PySequence>() {
            let items: Vec<Bound<'_, PyAny>> = list.try_iter()?.collect::<PyResult<_>>()?;
            return sequence_actions(&items, count, action_count);
        }
    }
    array_actions(py, actions, count, action_count)
}

/// The error for an `actions` argument of the wrong shape.
fn wrong_shape(count: usize, shape: &[usize]) -> PyErr {
    PyValueError::new_err(format!(
        "actions must have shape ({count},), one per game, not ({})",
        shape.iter().map(|d| format!("{d},")).collect::<String>()
    ))
}

/// The actions of a Python sequence: each item read as an int argument, so
/// that an int no numpy dtype holds is out of range, not "float64".
fn sequence_actions(
    items: &[Bound<'_, PyAny>],
    count: usize,
    action_count: usize,
) -> PyResult<Vec<usize>> {
    if items.len() != count {
        return Err(wrong_shape(count, &[items.len()]));
    }
    items
        .iter()
        .enumerate()
        .map(|(game, item)| {
            let value = Int::read(item, "action").map_err(|_| {
                PyTypeError::new_err(format!(
                    "actions must be integers, not {} (actions[{game}])",
                    item.get_type()
                        .name()
                        .map_or_else(|_| "that".to_string(), |n| n.to_string())
                ))
            })?;
            value
                .within("action", 0, i64::MAX)
                .ok()
                .and_then(|a| usize::try_from(a).ok())
                .ok_or_else(|| out_of_range(game, &value.text(), action_count))
        })
        .collect()
}

/// The actions of anything `numpy.asarray` reads: an integer array of
/// shape `(count,)`, unsigned or signed.
fn array_actions(
    py: Python<'_>,
    actions: &Bound<'_, PyAny>,
    count: usize,
    action_count: usize,
) -> PyResult<Vec<usize>> {
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
        return Err(wrong_shape(count, array.shape()));
    }
    if kind == b'u' {
        let values: Vec<u64> = array_values(&array, "uint64")?;
        indices(values, action_count)
    } else {
        let values: Vec<i64> = array_values(&array, "int64")?;
        indices(values, action_count)
    }
}

/// The integer array's values, cast to the numpy dtype `dtype` (which is
/// `T`'s, and holds every value of the array's kind).
fn array_values<T: numpy::Element>(
    array: &Bound<'_, numpy::PyUntypedArray>,
    dtype: &str,
) -> PyResult<Vec<T>> {
    let array = array.call_method1("astype", (dtype,))?;
    let array = array
        .cast_into::<numpy::PyArray1<T>>()
        .map_err(PyErr::from)?;
    array
        .to_vec()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The values as action indices; a negative one, or one too large for a
/// `usize`, is out of range.
fn indices<T>(values: Vec<T>, action_count: usize) -> PyResult<Vec<usize>>
where
    T: Copy + ToString + TryInto<usize>,
{
    values
        .into_iter()
        .enumerate()
        .map(|(game, a)| {
            a.try_into()
                .map_err(|_| out_of_range(game, &a.to_string(), action_count))
        })
        .collect()
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(
        signature = (num_envs, *, cols=Int::of(15), rows=Int::of(19), rules=None, move_limit=Some(Int::of(200)), seed=None, jobs=None, opponent=None, opponent_limits=None, agent_side=None, opponent_eval=None),
        text_signature = "(num_envs, *, cols=15, rows=19, rules=None, move_limit=200, seed=None, jobs=None, opponent=None, opponent_limits=None, agent_side='O', opponent_eval=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = int::num_envs)] num_envs: Int,
        #[pyo3(from_py_with = int::cols)] cols: Int,
        #[pyo3(from_py_with = int::rows)] rows: Int,
        rules: Option<&PyRules>,
        #[pyo3(from_py_with = int::move_limit_or_none)] move_limit: Option<Int>,
        #[pyo3(from_py_with = int::seed_or_none)] seed: Option<Int>,
        #[pyo3(from_py_with = int::jobs_or_none)] jobs: Option<Int>,
        opponent: Option<&Bound<'_, PyAny>>,
        opponent_limits: Option<&Bound<'_, PyAny>>,
        agent_side: Option<&Bound<'_, PyAny>>,
        opponent_eval: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let opponent = opponent_arg(opponent, opponent_limits)?;
        let evaluation = opponent_eval_arg(py, opponent, opponent_eval)?;
        let agent = agent_side.map(agent_side_arg).transpose()?;
        if opponent == Opponent::SelfPlay && agent == Some(phutball::Side::Eks) {
            return Err(PyValueError::new_err(
                "agent_side='X' needs an opponent (opponent=...): in self-play the agent plays both sides",
            ));
        }
        let start = Position::start_with(size_arg(&cols, &rows)?, rules_arg(rules)).or_raise()?;
        let count = num_envs.within("num_envs", 1, u32::MAX)? as usize;
        let move_limit = move_limit
            .map(|l| l.within("move_limit", 1, u32::MAX))
            .transpose()?;
        let jobs = match jobs {
            Some(j) => j.within("jobs", 1, u32::MAX)? as usize,
            None => phutball::default_jobs(),
        };
        let seed = match seed {
            Some(s) => s.within("seed", 0, u64::MAX)?,
            None => random_seed(),
        };
        let env = VecEnv::new(start, count, move_limit, seed, jobs)
            .and_then(|env| env.with_opponent_evaluation(evaluation))
            .and_then(|env| env.with_opponent(opponent, agent.unwrap_or(phutball::Side::Ohs)))
            .map_err(|e| raise(&e))?;
        Ok(PyVecEnv {
            opponent,
            saved: Mutex::new(None),
            len: env.len(),
            jobs: env.jobs(),
            move_limit: env.move_limit(),
            size: env.start().size(),
            env: Mutex::new(env),
        })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.len
    }

    fn __len__(&self) -> usize {
        self.len
    }

    /// The jobs (threads) a step runs: at most ``jobs=``, and one per 128 games.
    #[getter]
    fn jobs(&self) -> usize {
        self.jobs
    }

    /// The whole moves after which a game without a goal is truncated (None: never).
    #[getter]
    fn move_limit(&self) -> Option<u32> {
        self.move_limit
    }

    /// The opponent: ``None`` (self-play), ``"random"``, ``"engine"`` or
    /// ``"external"`` (a callable's, stepped by ``step_waiting_into``).
    #[getter]
    fn opponent(&self) -> Option<&'static str> {
        match self.opponent {
            Opponent::SelfPlay => None,
            Opponent::Random => Some("random"),
            Opponent::Engine(_) => Some("engine"),
            Opponent::External => Some("external"),
        }
    }

    /// The engine opponent's evaluation: ``"auto"``, ``"hand"`` or its ``Network``
    /// (``None`` for the other opponents).
    #[getter]
    fn opponent_eval(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        if !matches!(self.opponent, Opponent::Engine(_)) {
            return Ok(None);
        }
        let env = self.lock(py);
        evaluation_to_py(py, env.opponent_evaluation()).map(Some)
    }

    /// The agent's side, ``"O"`` or ``"X"`` (``"O"`` in self-play, where it plays both).
    #[getter]
    fn agent_side(&self, py: Python<'_>) -> String {
        self.lock(py).agent_side().to_string()
    }

    /// Keeps a copy of the batch (its games and generators) for
    /// ``_restore``: ``phutball.VecEnv`` saves before a step with a
    /// callable opponent, so that an error in any of its calls changes no game.
    fn _save(&self, py: Python<'_>) {
        let copy = self.lock(py).clone();
        *self
            .saved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(copy);
    }

    /// Puts the batch back as ``_save`` left it (nothing if it saved none).
    fn _restore(&self, py: Python<'_>) {
        let saved = self
            .saved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(saved) = saved {
            *self.lock(py) = saved;
        }
    }

    /// The games waiting for an external opponent's action, in order, as
    /// an int64 array (empty for the other opponents).
    fn waiting<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let waiting = self.lock(py).waiting();
        PyArray1::from_vec(py, waiting.into_iter().map(|i| i as i64).collect())
    }

    /// An external opponent's ``actions``, one per game of ``waiting()``
    /// in its order, into the arrays of ``step_into`` (checked as it
    /// checks them): only the waiting games' entries are written (their
    /// observation and mask; their reward and end flags if the action
    /// ended the game, the reward the agent's). Returns ``{}`` if no game
    /// ended, else ``step``'s info for the games that did. Raises as
    /// ``step_into`` (``IllegalMoveError`` naming the game, ``ValueError``
    /// for a wrong number of actions or a batch without an external
    /// opponent); then no game changes.
    #[pyo3(signature = (actions, obs, mask, rewards, terminated, truncated, to_move=None))]
    #[allow(clippy::too_many_arguments)]
    fn step_waiting_into<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        obs: &Bound<'py, PyAny>,
        mask: &Bound<'py, PyAny>,
        rewards: &Bound<'py, PyAny>,
        terminated: &Bound<'py, PyAny>,
        truncated: &Bound<'py, PyAny>,
        to_move: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.step_into_checked(
            py, true, actions, obs, mask, rewards, terminated, truncated, to_move,
        )
    }

    /// The number of actions of the board (the masks' second dimension).
    #[getter]
    fn action_count(&self) -> usize {
        self.size.action_count()
    }

    /// The shape of one game's observation, ``(C, rows + 2, cols)``.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let size = self.size;
        (PLANE_COUNT, size.rows() as usize + 2, size.cols() as usize)
    }

    /// Every game back at the start; ``seed`` reseeds ``sample_actions``.
    /// Returns ``(obs, mask)``; Ctrl-C raises ``KeyboardInterrupt`` (polled
    /// every 1024 games; no game changes).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = int::seed_or_none)] seed: Option<Int>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed.map(|s| s.within("seed", 0, u64::MAX)).transpose()?;
        let (obs, masks) = (self.new_observations(py)?, self.new_masks(py));
        {
            let (mut planes, mut flags) = (obs.readwrite(), masks.readwrite());
            let (planes, flags) = (contiguous(&mut planes)?, contiguous(&mut flags)?);
            let mut env = self.lock(py);
            let env = &mut *env;
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
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = actions_arg(py, actions, self.len, self.size.action_count())?;
        let n = self.len;
        let (obs, masks) = (self.new_observations(py)?, self.new_masks(py));
        let rewards = PyArray1::<f32>::zeros(py, n, false);
        let terminated = PyArray1::<bool>::zeros(py, n, false);
        let truncated = PyArray1::<bool>::zeros(py, n, false);
        let out = StepArrays {
            obs: &obs,
            mask: &masks,
            rewards: &rewards,
            terminated: &terminated,
            truncated: &truncated,
        };
        let finals = self.step_arrays(py, Actions::All(&actions), &out, None)?;
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

    /// ``step`` into the caller's arrays, made once and reused: no array is
    /// allocated. They are ``obs`` float32 ``(N, C, rows + 2, cols)``,
    /// ``mask`` bool ``(N, A)``, ``rewards`` float32, ``terminated`` and
    /// ``truncated`` bool, and ``to_move`` int8 (0: Ohs to act, 1: Eks) if
    /// given, each ``(N,)``: writeable C-contiguous numpy arrays of that
    /// dtype and shape (``TypeError`` or ``ValueError`` naming the
    /// argument). Returns ``{}`` if no game ended, else ``step``'s info
    /// (``final_obs``, ``_final_obs``). Raises as ``step``
    /// (``IllegalMoveError``, ``KeyboardInterrupt``): then no game changes,
    /// but the arrays may hold part of the step's results.
    #[pyo3(signature = (actions, obs, mask, rewards, terminated, truncated, to_move=None))]
    #[allow(clippy::too_many_arguments)]
    fn step_into<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        obs: &Bound<'py, PyAny>,
        mask: &Bound<'py, PyAny>,
        rewards: &Bound<'py, PyAny>,
        terminated: &Bound<'py, PyAny>,
        truncated: &Bound<'py, PyAny>,
        to_move: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.step_into_checked(
            py, false, actions, obs, mask, rewards, terminated, truncated, to_move,
        )
    }

    /// ``reset`` into the caller's arrays ``obs`` and ``mask`` (and
    /// ``to_move``), checked as ``step_into`` checks them (``TypeError``,
    /// ``ValueError``). ``seed`` reseeds ``sample_actions``. Ctrl-C raises
    /// ``KeyboardInterrupt`` (no game changes; the arrays may hold part of
    /// the start's observations).
    #[pyo3(signature = (obs, mask, *, seed=None, to_move=None))]
    fn reset_into<'py>(
        &self,
        py: Python<'py>,
        obs: &Bound<'py, PyAny>,
        mask: &Bound<'py, PyAny>,
        #[pyo3(from_py_with = int::seed_or_none)] seed: Option<Int>,
        to_move: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<()> {
        let seed = seed.map(|s| s.within("seed", 0, u64::MAX)).transpose()?;
        let (n, (c, rows, cols)) = (self.len, self.observation_shape());
        let obs = buffer_arg::<f32, Ix4>(obs, "obs", &[n, c, rows, cols])?;
        let mask = buffer_arg::<bool, Ix2>(mask, "mask", &[n, self.size.action_count()])?;
        let to_move = to_move
            .map(|a| buffer_arg::<i8, Ix1>(a, "to_move", &[n]))
            .transpose()?;
        let (mut planes, mut flags) = (writable(&obs, "obs")?, writable(&mask, "mask")?);
        let mut sides = to_move
            .as_ref()
            .map(|a| writable(a, "to_move"))
            .transpose()?;
        let (planes, flags) = (contiguous(&mut planes)?, contiguous(&mut flags)?);
        let mut env = self.lock(py);
        let env = &mut *env;
        bounded(py, |budget| env.reset_within(seed, planes, flags, budget))?;
        if let Some(sides) = sides.as_mut() {
            write_to_move(env.states(), contiguous(sides)?);
        }
        Ok(())
    }

    /// One legal action per game, uniformly at random (the batch's seeded
    /// generator), as an int64 array.
    fn sample_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut env = self.lock(py);
        let env = &mut *env;
        let actions = py.detach(|| env.sample_actions());
        // Action indices are below 2^31 (at most 25 * 52 + 1 of them).
        PyArray1::from_vec(py, actions.into_iter().map(|a| a as i64).collect())
    }

    /// The state of each game: a ``Position``, or a ``JumpInProgress`` during a jump move.
    fn states<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let env = self.lock(py);
        let states: PyResult<Vec<Py<PyAny>>> = env.states().map(|s| step_to_py(py, s)).collect();
        PyList::new(py, states?)
    }

    #[allow(clippy::unused_self)]
    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a VecEnv does not pickle: its games and generator live in Rust; \
             make a new VecEnv from its settings (num_envs, cols, rows, rules, move_limit, seed)",
        ))
    }

    fn __repr__(&self) -> String {
        let size = self.size;
        format!(
            "VecEnv({}, cols={}, rows={}, move_limit={}, jobs={})",
            self.len,
            size.cols(),
            size.rows(),
            self.move_limit
                .map_or("None".to_string(), |l| l.to_string()),
            self.jobs
        )
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVecEnv>()
}
