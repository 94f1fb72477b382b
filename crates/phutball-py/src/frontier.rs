//! `phutball.frontier` and `phutball.combine_proofs`: proofs in parts (the
//! solver crate's `frontier_within` and `combine_within`). The positions
//! some plies below a root are proved on their own (by other processes or
//! machines: `phutball.distributed.prove`), and their certificates combined
//! into one certificate of the root.

use phutball::{Position, SearchError};
use phutball_solver::{combine_within, frontier_within, Certificate, SolverError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use crate::budget::{run, BudgetKeywords, MemoryLimit};
use crate::classes::PyPosition;
use crate::errors::{solver_exception, CertificateError, OrRaise};
use crate::notation::int_arg;
use crate::solver::{PyCertificate, PyProof};

/// The most plies of a frontier: the tree above it is searched in full
/// (depth first, by recursion), and with hundreds of moves a position a few
/// plies are already more than any machine enumerates.
const MAX_PLIES: u32 = 32;

/// The name of `obj`'s type, for the `TypeError`s of bad arguments.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "that".to_string(), |n| n.to_string())
}

/// A position argument: a `phutball.Position`, or a position string (read
/// with the default rules, as `Position(text)` reads it).
fn position_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Position> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().inner);
    }
    let text: String = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a phutball.Position or a position string, not {}",
            type_name(obj)
        ))
    })?;
    text.parse::<Position>().or_raise()
}

/// The `plies` argument: an int from 0 to [`MAX_PLIES`] (not a bool).
fn plies_arg(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("plies must be an int, not bool"));
    }
    int_arg(obj, "plies")?
        .and_then(|p| u32::try_from(p).ok())
        .filter(|p| *p <= MAX_PLIES)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "plies must be from 0 to {MAX_PLIES}, not {}",
                obj.str()
                    .map_or_else(|_| "that".to_string(), |s| s.to_string())
            ))
        })
}

/// The `certificates` argument: an iterable of `phutball.Certificate`
/// (not a single one, nor a string).
fn certificates_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Certificate>> {
    let not_a_sequence = || {
        PyTypeError::new_err(format!(
            "certificates must be a sequence of phutball.Certificate, not {}",
            type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyString>() || obj.cast::<PyCertificate>().is_ok() {
        return Err(not_a_sequence());
    }
    let items = obj.try_iter().map_err(|_| not_a_sequence())?;
    let mut certificates = Vec::new();
    for (i, item) in items.enumerate() {
        let item = item?;
        let certificate = item.cast::<PyCertificate>().map_err(|_| {
            PyTypeError::new_err(format!(
                "certificates[{i}] must be a phutball.Certificate, not {}",
                type_name(&item)
            ))
        })?;
        certificates.push(certificate.get().inner().clone());
    }
    Ok(certificates)
}

/// The distinct unfinished positions ``plies`` plies below ``position`` (a
/// ``Position`` or a position string): every legal move (one per distinct
/// outcome) of every position, down to that depth, stopping at finished
/// positions; ``plies=0`` is ``[position]``. Each can be proved on its own
/// (``Position.prove``) and the certificates combined with
/// ``combine_proofs(position, plies, certificates)``.
///
/// ``plies`` is an int from 0 to 32. After ``timeout`` seconds (``None``: no
/// timeout) it raises ``SearchTimeoutError``; a frontier of more positions
/// than ``memory_limit`` bytes hold (about 256 bytes each; default
/// ``DEFAULT_MEMORY_LIMIT``, ``None``: no limit) raises ``MemoryLimitError``;
/// Ctrl-C raises ``KeyboardInterrupt``; a finished position ``ValueError``.
/// Releases the GIL.
#[pyfunction]
#[pyo3(signature = (position, plies, *, timeout=None, memory_limit=MemoryLimit::DEFAULT))]
fn frontier(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    plies: &Bound<'_, PyAny>,
    timeout: Option<&Bound<'_, PyAny>>,
    memory_limit: MemoryLimit,
) -> PyResult<Vec<PyPosition>> {
    let root = position_arg(position, "position")?;
    let plies = plies_arg(plies)?;
    let budget_keywords = BudgetKeywords::new(timeout, memory_limit)?;
    let answer = run(py, budget_keywords, |budget| {
        Ok::<_, SearchError>(frontier_within(&root, plies, budget))
    })?;
    let positions = answer.map_err(|e| solver_exception(&e))?;
    Ok(positions.into_iter().map(PyPosition::from).collect())
}

/// Combines ``certificates`` (of positions of ``frontier(root, plies)``,
/// each proving a win for its winner from its root) into a proof of
/// ``root``: the top ``plies`` plies are searched in full (every reply of
/// the loser, one proved move of the winner) and the certificates used are
/// appended; the combined certificate is checked before it is claimed.
///
/// Returns a ``Proof`` as ``Position.prove`` does (``"win"`` or ``"loss"``
/// for the side to move, the line, the certificate; ``nodes`` 0: nothing is
/// searched but the top), or ``"unknown"`` when the certificates do not
/// settle the root: a frontier position without one counts as unproved (the
/// winner may avoid it). Certificates of positions at most ``plies`` below
/// the root are leaves wherever the top meets them (a tree cut unevenly
/// combines); those it does not reach are ignored.
///
/// ``plies`` is an int from 0 to 32. After ``timeout`` seconds (``None``: no
/// timeout) it raises ``SearchTimeoutError``; Ctrl-C raises
/// ``KeyboardInterrupt``; a finished root ``ValueError``; a certificate that
/// does not hold (found when the combined one is checked)
/// ``CertificateError``. Releases the GIL.
#[pyfunction]
#[pyo3(signature = (root, plies, certificates, *, timeout=None))]
fn combine_proofs(
    py: Python<'_>,
    root: &Bound<'_, PyAny>,
    plies: &Bound<'_, PyAny>,
    certificates: &Bound<'_, PyAny>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyProof> {
    let root = position_arg(root, "root")?;
    let plies = plies_arg(plies)?;
    let certificates = certificates_arg(certificates)?;
    let budget_keywords = BudgetKeywords::timeout(timeout)?;
    let answer = run(py, budget_keywords, |budget| {
        Ok::<_, SearchError>(combine_within(&root, plies, &certificates, budget))
    })?;
    let proof = match answer {
        // The check of the combined certificate failed: one given was wrong.
        Err(SolverError::Unsound(why)) => {
            return Err(CertificateError::new_err(format!(
                "the combined certificate does not hold (a certificate given is wrong): {why}"
            )))
        }
        Err(e) => return Err(solver_exception(&e)),
        Ok(proof) => proof,
    };
    // A limit that stopped the check is the call's limit, as in the enumeration.
    if let Some(stopped) = proof.stopped {
        return Err(solver_exception(&SolverError::Search(stopped)));
    }
    PyProof::from_solver(py, proof)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(frontier, m)?)?;
    m.add_function(wrap_pyfunction!(combine_proofs, m)?)?;
    Ok(())
}
