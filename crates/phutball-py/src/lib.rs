//! Python bindings: the extension module `phutball._phutball`, re-exported by
//! the pure-Python package `phutball` (`python/phutball`). Each class lives in
//! its own module and registers itself; the wrappers parse arguments with the
//! core's notation, call the core and format the answer.

mod actions;
mod budget;
mod buffers;
mod classes;
mod deadline;
mod engine;
mod episode;
mod errors;
mod frontier;
mod game;
mod jump_in_progress;
mod move_analysis;
mod move_time;
mod moves;
mod network;
mod notation;
mod opponent;
mod position;
mod rules;
mod solver;
mod svg;
mod tablebase;
mod vec_env;

use pyo3::prelude::*;

/// The compiled part of the `phutball` package.
#[pymodule]
fn _phutball(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    rules::register(m)?;
    moves::register(m)?;
    position::register(m)?;
    jump_in_progress::register(m)?;
    game::register(m)?;
    episode::register(m)?;
    engine::register(m)?;
    network::register(m)?;
    vec_env::register(m)?;
    solver::register(m)?;
    frontier::register(m)?;
    tablebase::register(m)?;
    deadline::register(m)?;
    budget::register(m)?;
    m.add("DEFAULT_MEMORY_LIMIT", phutball::DEFAULT_MEMORY_LIMIT)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
