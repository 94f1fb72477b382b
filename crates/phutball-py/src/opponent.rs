//! The `opponent=`, `opponent_limits=`, `opponent_eval=` and `agent_side=`
//! arguments of `phutball.VecEnv`: which `phutball_env::Opponent` the agent
//! plays, and the engine opponent's evaluation.

use phutball::Side;
use phutball_engine::{Evaluation, LimitSetting, Limits};
use phutball_env::Opponent;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyStringMethods};

use crate::move_time::move_time_arg;
use crate::network::evaluation_arg;
use crate::notation::{parse_side, Int};

/// The engine opponent's limits when `opponent_limits` is not given: a node
/// budget (deterministic) of about a millisecond a move.
const DEFAULT_NODES: u64 = 100;

/// The opponent of `opponent=` (None, "random", "engine", or "external":
/// the caller's, which `phutball.VecEnv` uses for a callable) with
/// `opponent_limits=` for the engine.
pub(crate) fn opponent_arg(
    opponent: Option<&Bound<'_, PyAny>>,
    limits: Option<&Bound<'_, PyAny>>,
) -> PyResult<Opponent> {
    let limits = limits.filter(|l| !l.is_none());
    let Some(opponent) = opponent.filter(|o| !o.is_none()) else {
        return no_limits(limits, Opponent::SelfPlay);
    };
    let Ok(name) = opponent.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "opponent must be None, 'random', 'engine' or a callable policy, not {}",
            opponent.get_type().name()?
        )));
    };
    match name.to_cow()?.as_ref() {
        "random" => no_limits(limits, Opponent::Random),
        "external" => no_limits(limits, Opponent::External),
        "engine" => Ok(Opponent::Engine(match limits {
            Some(limits) => limits_dict(limits)?,
            None => Limits::nodes(DEFAULT_NODES),
        })),
        other => Err(PyValueError::new_err(format!(
            "opponent must be None, 'random', 'engine' or a callable policy, not {other:?}"
        ))),
    }
}

/// The engine opponent's `opponent_eval=`: what `Engine(eval=...)` takes
/// (`None` or `"auto"`, `"hand"`, `"net"`, `"net:PATH"`, a `Network`), refused for the other
/// opponents (it is the engine's, as `opponent_limits=` is).
pub(crate) fn opponent_eval_arg(
    py: Python<'_>,
    opponent: Opponent,
    eval: Option<&Bound<'_, PyAny>>,
) -> PyResult<Evaluation> {
    let eval = eval.filter(|e| !e.is_none());
    if eval.is_some() && !matches!(opponent, Opponent::Engine(_)) {
        return Err(PyValueError::new_err(
            "opponent_eval is for opponent='engine' only",
        ));
    }
    evaluation_arg(py, eval, "opponent_eval")
}

/// `opponent`, refusing limits (they are the engine's).
fn no_limits(limits: Option<&Bound<'_, PyAny>>, opponent: Opponent) -> PyResult<Opponent> {
    match limits {
        Some(_) => Err(PyValueError::new_err(
            "opponent_limits is for opponent='engine' only",
        )),
        None => Ok(opponent),
    }
}

/// The limits of a dict such as `{"nodes": 200}`: keys `time` (seconds),
/// `depth` and `nodes`, as `phutball.Engine` takes them (one thread a
/// game), and `time_ms`, the deprecated spelling of `time`.
fn limits_dict(limits: &Bound<'_, PyAny>) -> PyResult<Limits> {
    let dict = limits.cast::<PyDict>().map_err(|_| {
        PyTypeError::new_err(format!(
            "opponent_limits must be a dict such as {{'nodes': 200}}, not {}",
            limits
                .get_type()
                .name()
                .map_or_else(|_| "that".to_string(), |n| n.to_string())
        ))
    })?;
    let (mut time, mut time_ms, mut depth, mut nodes) = (None, None, None, None);
    for (key, value) in dict.iter() {
        let key: String = key.extract().map_err(|_| {
            PyTypeError::new_err("opponent_limits' keys must be 'time', 'depth' or 'nodes'")
        })?;
        let name = format!("opponent_limits[{key:?}]");
        match key.as_str() {
            "time" => time = Some(value),
            // Its range is checked with its deprecation, by move_time_arg.
            "time_ms" => time_ms = Some(Int::read(&value, &name)?),
            "depth" => depth = Some(Int::read(&value, &name)?.limit(LimitSetting::Depth, &name)?),
            "nodes" => nodes = Some(Int::read(&value, &name)?.limit(LimitSetting::Nodes, &name)?),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "opponent_limits takes 'time', 'depth' and 'nodes', not {key:?}"
                )))
            }
        }
    }
    let time = move_time_arg(
        dict.py(),
        time.as_ref(),
        time_ms.as_ref(),
        ("opponent_limits['time']", "opponent_limits['time_ms']"),
    )?;
    if time.is_none() && depth.is_none() && nodes.is_none() {
        return Err(PyValueError::new_err(
            "opponent_limits needs at least one of 'time', 'depth' and 'nodes'",
        ));
    }
    // Within its range a depth fits a u32 (at most 64).
    Ok(Limits::new(time, depth.map(|d| d as u32), nodes))
}

/// The `agent_side=` argument: "O" or "X".
pub(crate) fn agent_side_arg(side: &Bound<'_, PyAny>) -> PyResult<Side> {
    let text: String = side.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "agent_side must be 'O' or 'X', not {}",
            side.get_type()
                .name()
                .map_or_else(|_| "that".to_string(), |n| n.to_string())
        ))
    })?;
    parse_side(&text)
        .map_err(|_| PyValueError::new_err(format!("agent_side must be 'O' or 'X', not {text:?}")))
}
