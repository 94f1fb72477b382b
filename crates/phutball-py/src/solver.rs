//! `phutball.Proof`, `phutball.Certificate`, `phutball.CheckedProof` and
//! `phutball.check_proof`: the solver's prover and certificate checker from
//! Python (`Position.prove` calls [`prove`]). The proofs and the checks are
//! the solver crate's; this module converts, and reads and writes the files.

use std::path::{Path, PathBuf};

use phutball::{Budget, Move, Position, SearchError};
use phutball_solver::{
    prove_with_options_within, Certificate, CheckedProof, CheckpointOptions, ProveOptions, Value,
};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::budget::{run, run_threaded, BudgetKeywords, MemoryLimit};
use crate::classes::{PyPosition, PyTablebase};
use crate::errors::{
    certificate_exception, certificate_read_exception, solver_exception, ParseError,
};
use crate::moves::{moves_to_py, PyMove};
use crate::notation::limit_arg;

/// A proof certificate: a proved win as a graph of positions, at the
/// winner's nodes one move, at the loser's a reply for every distinct
/// outcome of every legal move, every line ending in the winner's goal.
/// ``check()`` verifies it with the plain rules, without search.
///
/// ``str(certificate)`` is its text format (the repository's
/// ``docs/certificates.md``), which ``Certificate.parse`` and
/// ``Certificate.load`` read back; ``len(certificate)`` is its number of
/// nodes. Immutable; ``==`` compares the graphs.
#[pyclass(name = "Certificate", module = "phutball", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct PyCertificate {
    inner: Certificate,
}

/// What a valid certificate proves: ``winner`` forces a goal from ``root``
/// within ``plies`` plies; ``nodes`` is the certificate's size.
#[pyclass(name = "CheckedProof", module = "phutball", frozen)]
pub(crate) struct PyCheckedProof {
    inner: CheckedProof,
}

/// What ``Position.prove`` found, for the side to move: ``result``
/// (``"win"``, ``"loss"``, ``"draw"`` or ``"unknown"``), ``plies`` to the
/// forced goal, the proved ``line``, the ``certificate`` that proves it,
/// and the figures.
///
/// ``str(proof)`` is the CLI's line: ``win in 3: A3 A1 A2-A4``, or
/// ``unknown``. An unknown result is not an error: ``stopped`` says which
/// limit ended the search (``None`` when both searches ended without a
/// goal: ``exhausted``). Immutable.
#[pyclass(name = "Proof", module = "phutball", frozen)]
pub(crate) struct PyProof {
    /// The solver's line for it (`win in 3: ...`, `win within 7: ...`).
    text: String,
    value: Option<Value>,
    exact: bool,
    numbers: Option<(u32, u32)>,
    line: Vec<Move>,
    nodes: u64,
    table_entries: usize,
    stopped: Option<String>,
    exhausted: bool,
    certificate: Option<Py<PyCertificate>>,
}

/// `Position.prove`: proves who wins `pos`, with the GIL released; the
/// prover runs on threads of its own, so this thread waits and runs the
/// signal handlers (Ctrl-C cancels the search and raises).
pub(crate) fn prove(
    py: Python<'_>,
    pos: Position,
    timeout: Option<&Bound<'_, PyAny>>,
    memory_limit: MemoryLimit,
    nodes: Option<&Bound<'_, PyAny>>,
    tablebase: Option<&Bound<'_, PyTablebase>>,
    how: &ProveArgs,
) -> PyResult<PyProof> {
    let budget_keywords = BudgetKeywords::new(timeout, memory_limit)?;
    // As the CLI's `prove --nodes` (at least 1): 0 nodes is no search.
    let nodes = match limit_arg(nodes, "nodes")? {
        Some(0) => {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "nodes must be None or an int of at least 1, not 0",
            ))
        }
        nodes => nodes,
    };
    let table = tablebase.map(|t| &t.get().inner);
    let answer = run_threaded(py, budget_keywords, |budget| {
        let budget = nodes.map_or(*budget, |n| budget.with_work_limit(n));
        let options = ProveOptions {
            jobs: how.jobs,
            tablebase: table,
            checkpoint: how.checkpoint.as_deref().map(|path| CheckpointOptions {
                path,
                every: how.checkpoint_every,
                on_event: None,
            }),
            ..ProveOptions::default()
        };
        prove_with_options_within(&pos, &budget, options)
    })?;
    PyProof::from_solver(py, answer.map_err(|e| solver_exception(&e))?)
}

/// `Position.prove`'s `jobs`, `checkpoint` and `checkpoint_every`, checked.
pub(crate) struct ProveArgs {
    jobs: usize,
    checkpoint: Option<PathBuf>,
    checkpoint_every: std::time::Duration,
}

impl ProveArgs {
    pub(crate) fn new(
        jobs: Option<&Bound<'_, PyAny>>,
        checkpoint: Option<PathBuf>,
        checkpoint_every: f64,
    ) -> PyResult<ProveArgs> {
        // The solver's range (1 to MAX_PROVE_JOBS); a count past usize is past it too.
        let jobs = match limit_arg(jobs, "jobs")? {
            None => 1,
            Some(j) => ProveOptions::check_jobs(usize::try_from(j).unwrap_or(usize::MAX))
                .map_err(|e| PyValueError::new_err(format!("jobs={j}: {e}")))?,
        };
        if !(checkpoint_every.is_finite() && checkpoint_every > 0.0 && checkpoint_every <= 1e9) {
            return Err(PyValueError::new_err(format!(
                "checkpoint_every must be a number of seconds above 0, not {checkpoint_every}"
            )));
        }
        Ok(ProveArgs {
            jobs,
            checkpoint,
            checkpoint_every: std::time::Duration::from_secs_f64(checkpoint_every),
        })
    }
}

impl PyProof {
    /// The `Proof` of the solver's answer (`Position.prove`, and
    /// `combine_proofs` in `frontier.rs`).
    pub(crate) fn from_solver(py: Python<'_>, proof: phutball_solver::Proof) -> PyResult<PyProof> {
        let text = proof.to_string();
        let certificate = proof
            .certificate
            .map(|inner| Py::new(py, PyCertificate { inner }))
            .transpose()?;
        Ok(PyProof {
            text,
            value: proof.value,
            exact: proof.exact,
            numbers: proof.numbers,
            line: proof.line,
            nodes: proof.nodes,
            table_entries: proof.table_entries,
            stopped: proof.stopped.as_ref().map(ToString::to_string),
            exhausted: proof.exhausted,
            certificate,
        })
    }
}

impl PyCertificate {
    /// The solver's certificate (for `combine_proofs` in `frontier.rs`).
    pub(crate) fn inner(&self) -> &Certificate {
        &self.inner
    }
}

/// A string as Python's `repr` writes it: in single quotes unless it holds
/// one (the messages are plain ASCII).
fn str_repr(text: &str) -> String {
    if text.contains('\'') {
        format!("{text:?}")
    } else {
        format!("'{text}'")
    }
}

/// The moves in notation, separated by single spaces.
fn moves_text(moves: &[Move]) -> String {
    let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
    moves.join(" ")
}

/// An `OSError` for a failed read or write of `path`, of the subclass
/// Python gives its errno (`FileNotFoundError`, `PermissionError`, ...).
pub(crate) fn os_error(e: &std::io::Error, path: &Path) -> PyErr {
    let name = path.display().to_string();
    match e.raw_os_error() {
        Some(code) => {
            let message = e.to_string();
            let message = message
                .strip_suffix(&format!(" (os error {code})"))
                .unwrap_or(&message)
                .to_string();
            PyOSError::new_err((code, message, name))
        }
        None => PyOSError::new_err(format!("{name}: {e}")),
    }
}

/// Checks `certificate` within `timeout`, with the GIL released.
fn check(
    py: Python<'_>,
    certificate: &Certificate,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyCheckedProof> {
    let verdict = run(
        py,
        BudgetKeywords::timeout(timeout)?,
        |budget: &Budget<'_>| Ok::<_, SearchError>(certificate.check(budget)),
    )?;
    let inner = verdict.map_err(|e| certificate_exception(&e))?;
    Ok(PyCheckedProof { inner })
}

/// Reads a certificate file, plain text or gzip-compressed (by its first
/// bytes), a line at a time with the GIL released, within `budget_keywords`
/// (`timeout=`; Ctrl-C raises `KeyboardInterrupt`).
fn load(py: Python<'_>, path: &Path, budget_keywords: BudgetKeywords) -> PyResult<Certificate> {
    let read = run(py, budget_keywords, |budget: &Budget<'_>| {
        Ok::<_, SearchError>(std::fs::File::open(path).map(|file| read_certificate(file, budget)))
    })?;
    match read {
        Err(e) => Err(os_error(&e, path)),
        Ok(read) => read.map_err(|e| certificate_read_exception(&e, &path.display().to_string())),
    }
}

/// Reads a certificate from `file` under `budget`'s deadline and stop but
/// no memory limit, as the CLI's `check-proof` does: its size is the
/// file's, which the caller chose (the memory limit is the check's).
fn read_certificate(
    file: std::fs::File,
    budget: &Budget<'_>,
) -> Result<Certificate, phutball_solver::CertificateReadError> {
    let poll = || budget.interrupt();
    Certificate::read_within(file, &Budget::unlimited().with_interrupt(&poll))
}

impl PyCertificate {
    /// Writes the text to `path`, gzip-compressed if it ends in `.gz`, atomically.
    fn save_to(&self, path: &Path) -> PyResult<()> {
        self.inner.save(path).map_err(|e| os_error(&e, path))
    }
}

#[pymethods]
impl PyCertificate {
    /// Reads a certificate from its text format. Raises ``ParseError`` for
    /// text that is not one (naming the line; an impossible position in it
    /// too); its moves are not checked here: ``check()`` does that.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        let inner = text
            .parse()
            .map_err(|e| ParseError::new_err(format!("not a certificate: {e}")))?;
        Ok(PyCertificate { inner })
    }

    /// Reads a certificate file (a path or ``os.PathLike``), plain text or
    /// gzip-compressed (told by its first bytes), a line at a time. Raises
    /// ``OSError`` when the file cannot be read (or its gzip stream is
    /// broken), ``ParseError`` when it is not a certificate (a line over 1
    /// MiB, a NUL byte or a byte-order mark included). After ``timeout``
    /// seconds it raises ``SearchTimeoutError``; Ctrl-C raises
    /// ``KeyboardInterrupt``; ``MemoryLimitError`` only if the allocator
    /// refuses the nodes (no limit is set: the file's size is the caller's).
    /// Releases the GIL.
    #[staticmethod]
    #[pyo3(signature = (path, *, timeout=None))]
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn load(py: Python<'_>, path: PathBuf, timeout: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PyCertificate {
            inner: load(py, &path, BudgetKeywords::timeout(timeout)?)?,
        })
    }

    /// Writes the text format to ``path``, gzip-compressed if the name ends
    /// in ``.gz``, through a temporary file renamed into place (an
    /// interrupted write leaves no half file). Raises ``OSError`` when it
    /// cannot write.
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.save_to(&path)
    }

    /// Checks the certificate with the plain rules: every move legal, every
    /// reply of the loser answered, every line ending in the winner's goal.
    /// Returns what it proves, a ``CheckedProof``; raises
    /// ``CertificateError`` with the checker's message (naming the node)
    /// when it does not hold. After ``timeout`` seconds (``None``: no
    /// timeout) it raises ``SearchTimeoutError``; Ctrl-C raises
    /// ``KeyboardInterrupt``. Releases the GIL.
    #[pyo3(signature = (*, timeout=None))]
    fn check(
        &self,
        py: Python<'_>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyCheckedProof> {
        check(py, &self.inner, timeout)
    }

    /// The side the certificate claims forces a goal: ``"O"`` or ``"X"``.
    #[getter]
    fn winner(&self) -> char {
        self.inner.winner.char()
    }

    /// The root position (the first node's), or ``None`` for a certificate
    /// without nodes.
    #[getter]
    fn root(&self) -> Option<PyPosition> {
        self.inner.root().copied().map(PyPosition::from)
    }

    fn __len__(&self) -> usize {
        self.inner.nodes.len()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        let root = self
            .inner
            .root()
            .map_or_else(|| "None".to_string(), |p| format!("'{p}'"));
        format!(
            "<Certificate: {} wins, {} nodes, root {root}>",
            self.inner.winner.char(),
            self.inner.nodes.len()
        )
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("parse")?,
            (slf.get().inner.to_string(),),
        ))
    }
}

#[pymethods]
impl PyCheckedProof {
    /// The side that forces a goal: ``"O"`` or ``"X"``.
    #[getter]
    fn winner(&self) -> char {
        self.inner.winner.char()
    }

    /// The longest line of the proof, in plies (the loser's longest
    /// resistance against the certificate's moves).
    #[getter]
    fn plies(&self) -> u32 {
        self.inner.plies
    }

    /// The certificate's number of nodes.
    #[getter]
    fn nodes(&self) -> usize {
        self.inner.nodes
    }

    /// The root position: what the certificate proves a win from.
    #[getter]
    fn root(&self) -> PyPosition {
        self.inner.root.into()
    }

    fn __str__(&self) -> String {
        format!(
            "{} wins in at most {} plies from {} ({} nodes)",
            self.inner.winner.char(),
            self.inner.plies,
            self.inner.root,
            self.inner.nodes
        )
    }

    #[allow(clippy::unused_self)]
    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "a CheckedProof does not pickle (only checking a certificate makes one): \
             pickle the Certificate and check it again",
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "CheckedProof(winner='{}', plies={}, nodes={}, root=Position('{}'))",
            self.inner.winner.char(),
            self.inner.plies,
            self.inner.nodes,
            self.inner.root
        )
    }
}

impl PyProof {
    /// The certificate, or a `ValueError` saying there is none.
    fn certificate_or_raise(&self) -> PyResult<&Py<PyCertificate>> {
        self.certificate.as_ref().ok_or_else(|| {
            PyValueError::new_err(
                "the proof has no certificate: only a win or a loss has one, not an unknown result or a draw",
            )
        })
    }
}

#[pymethods]
impl PyProof {
    /// ``"win"`` or ``"loss"`` for the side to move, ``"draw"``, or
    /// ``"unknown"`` when nothing was proved.
    #[getter]
    fn result(&self) -> &'static str {
        match self.value {
            None => "unknown",
            Some(Value::Win { .. }) => "win",
            Some(Value::Loss { .. }) => "loss",
            Some(Value::Draw) => "draw",
        }
    }

    /// Whether ``plies`` is exact (the shortest win, the longest loss: a
    /// tablebase's answer, which the prover builds on boards of at most 20
    /// points, or a win in 1 or a loss in 2) rather than this proof's
    /// bound (``str(proof)`` then says ``win within N``); ``True`` for a
    /// draw, ``False`` for an unknown result.
    #[getter]
    fn exact(&self) -> bool {
        self.exact
    }

    /// When a limit stopped the search: the root's proof numbers for the
    /// side to move's win and for its loss, ``(win, loss)``, as the two
    /// searches last had them (the smaller, the nearer that proof looked);
    /// ``None`` otherwise.
    #[getter]
    fn numbers(&self) -> Option<(u32, u32)> {
        self.numbers
    }

    /// Plies (both sides' moves, the goal included) to the forced goal of a
    /// win or a loss; ``None`` otherwise. Exact when ``exact`` is true,
    /// else a bound: the winner wins within it.
    #[getter]
    fn plies(&self) -> Option<u32> {
        match self.value {
            Some(Value::Win { plies } | Value::Loss { plies }) => Some(plies),
            _ => None,
        }
    }

    /// The proved line: the side to move's move first, then the longest
    /// resistance within the proof. Empty when nothing is proved.
    #[getter]
    fn line(&self) -> Vec<PyMove> {
        moves_to_py(self.line.clone())
    }

    /// The certificate that proves the result (checked before it was
    /// claimed), or ``None`` for an unknown result or a draw.
    #[getter]
    fn certificate(&self, py: Python<'_>) -> Option<Py<PyCertificate>> {
        self.certificate.as_ref().map(|c| c.clone_ref(py))
    }

    /// Nodes searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Positions remembered in the prover's tables at the end.
    #[getter]
    fn table_entries(&self) -> usize {
        self.table_entries
    }

    /// Why the search stopped without a proof (``"timed out"``, the work
    /// limit of ``nodes=``, the memory limit), or ``None``.
    #[getter]
    fn stopped(&self) -> Option<String> {
        self.stopped.clone()
    }

    /// Whether both searches ended without proving a goal: neither side
    /// forces one in the graph searched (not claimed as a draw).
    #[getter]
    fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// Writes the certificate to ``path`` as ``Certificate.save`` does
    /// (gzip-compressed for a name ending in ``.gz``, atomically). Raises
    /// ``ValueError`` when there is no certificate (an unknown result or a
    /// draw), ``OSError`` when it cannot write.
    // pyo3 hands over the extracted argument by value.
    #[allow(clippy::needless_pass_by_value)]
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.certificate_or_raise()?.get().save_to(&path)
    }

    /// Checks the certificate again, as ``Certificate.check`` does: a
    /// ``CheckedProof``, or ``CertificateError``. Raises ``ValueError`` when
    /// there is no certificate (an unknown result or a draw); after
    /// ``timeout`` seconds ``SearchTimeoutError``; Ctrl-C raises
    /// ``KeyboardInterrupt``.
    #[pyo3(signature = (*, timeout=None))]
    fn check(
        &self,
        py: Python<'_>,
        timeout: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyCheckedProof> {
        check(py, &self.certificate_or_raise()?.get().inner, timeout)
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }

    #[allow(clippy::unused_self)]
    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "a Proof does not pickle (it holds the search's figures, not a value to rebuild): \
             pickle its certificate, a Certificate, and check it again",
        ))
    }

    fn __repr__(&self) -> String {
        let mut fields = vec![format!("result='{}'", self.result())];
        if let Some(plies) = self.plies() {
            fields.push(format!("plies={plies}"));
            fields.push(format!(
                "exact={}",
                if self.exact { "True" } else { "False" }
            ));
            fields.push(format!("line=[{}]", moves_text(&self.line)));
        }
        if let Some(stopped) = &self.stopped {
            fields.push(format!("stopped={}", str_repr(stopped)));
        }
        if self.exhausted {
            fields.push("exhausted=True".to_string());
        }
        fields.push(format!("nodes={}", self.nodes));
        format!("Proof({})", fields.join(", "))
    }
}

/// Checks a certificate: a ``Certificate``, or the path of a certificate
/// file (plain or gzip-compressed). Returns what it proves, a
/// ``CheckedProof``; raises ``CertificateError`` when it does not hold,
/// ``ParseError`` or ``OSError`` for a file that is not a certificate or
/// cannot be read, ``TypeError`` for anything else. After ``timeout``
/// seconds it raises ``SearchTimeoutError``; Ctrl-C raises ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (path_or_certificate, *, timeout=None))]
fn check_proof(
    py: Python<'_>,
    path_or_certificate: &Bound<'_, PyAny>,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyCheckedProof> {
    if let Ok(certificate) = path_or_certificate.cast::<PyCertificate>() {
        return check(py, &certificate.get().inner, timeout);
    }
    let path: PathBuf = path_or_certificate.extract().map_err(|_| {
        let name = path_or_certificate
            .get_type()
            .name()
            .map_or_else(|_| "that".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!(
            "path_or_certificate must be a phutball.Certificate, a str or an os.PathLike, not {name}"
        ))
    })?;
    // One budget, so one deadline, for the reading and the check.
    let verdict = run(
        py,
        BudgetKeywords::timeout(timeout)?,
        |budget: &Budget<'_>| {
            Ok::<_, SearchError>(
                std::fs::File::open(&path)
                    .map(|file| read_certificate(file, budget).map(|c| c.check(budget))),
            )
        },
    )?;
    let read = verdict.map_err(|e| os_error(&e, &path))?;
    let checked = read
        .map_err(|e| certificate_read_exception(&e, &path.display().to_string()))?
        .map_err(|e| certificate_exception(&e))?;
    Ok(PyCheckedProof { inner: checked })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyProof>()?;
    m.add_class::<PyCertificate>()?;
    m.add_class::<PyCheckedProof>()?;
    m.add_function(wrap_pyfunction!(check_proof, m)?)?;
    Ok(())
}
