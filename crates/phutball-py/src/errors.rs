//! The Python exception classes and the conversion of the core's and the
//! engine's errors to them ([`class_of`], the table in docs/python.md),
//! keeping the core's messages.

use phutball::{ActionError, GameError, ParseError as CoreParseError, SearchError};
use phutball_engine::{AnyError, EngineError};
use phutball_solver::{
    CertificateError as SolverCertificateError, CertificateReadError, SolverError,
    TablebaseFileError as SolverTablebaseFileError, TablebaseReadError,
};
use pyo3::create_exception;
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyMemoryError, PyOSError, PyRuntimeError, PyTimeoutError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

create_exception!(
    phutball,
    ParseError,
    PyValueError,
    "Text that is not valid notation: a point, a side, a move, a malformed position string, or \
a game record (anything wrong in it, with the line)."
);
create_exception!(
    phutball,
    IllegalMoveError,
    PyValueError,
    "A move or action that is not legal in the position; the message says why."
);
create_exception!(
    phutball,
    InvalidPositionError,
    PyValueError,
    "A position that cannot exist, from a position string or from parts: an unsupported size, \
a man off the board, the ball on a man, or rules that do not fit the board (a start point off \
the board or not strictly between the goal lines)."
);
// Not a ValueError: the input was fine, the caller's own limit was too small for it.
create_exception!(
    phutball,
    TooManyOutcomesError,
    PyRuntimeError,
    "A search would need more outcomes (or more memory) than the caller's limit allows: the \
input was fine, the limit too small for it."
);

create_exception!(
    phutball,
    CertificateError,
    PyValueError,
    "A proof certificate that does not prove what it claims (an illegal move, a reply of the \
loser left unanswered, a line that does not end in the winner's goal, ...); the message is the \
checker's, naming the node."
);

create_exception!(
    phutball,
    TablebaseFileError,
    PyValueError,
    "Bytes that are not a tablebase file this version reads (damaged, truncated, another \
version or board); the message says what is wrong."
);

create_exception!(
    phutball,
    NetworkError,
    PyValueError,
    "A weights file or network refused (damaged, truncated, another version, a weight that is \
not finite, ...), or a position it cannot judge (a board size it has no network for, a finished \
game); the message says which."
);

create_exception!(
    phutball,
    SearchTimeoutError,
    PyTimeoutError,
    "A search ran out of the time (or work) it was given before it could answer."
);

/// `phutball.MemoryLimitError`, a subclass of both `TooManyOutcomesError`
/// (what a list too large raised before) and the builtin `MemoryError`.
/// `create_exception!` takes one base, so the class is made by `type()`.
static MEMORY_LIMIT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

const MEMORY_LIMIT_DOC: &str = "A call would need more memory than its memory_limit= allows (or \
the allocator refused it). A TooManyOutcomesError and a MemoryError.";

fn memory_limit_error(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let ty = MEMORY_LIMIT_ERROR.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let bases = PyTuple::new(
            py,
            [
                py.get_type::<TooManyOutcomesError>(),
                py.get_type::<PyMemoryError>(),
            ],
        )?;
        let dict = PyDict::new(py);
        dict.set_item("__doc__", MEMORY_LIMIT_DOC)?;
        dict.set_item("__module__", "phutball")?;
        let ty = py
            .get_type::<PyType>()
            .call1(("MemoryLimitError", bases, dict))?;
        Ok(ty.cast_into::<PyType>()?.unbind())
    })?;
    Ok(ty.bind(py))
}

/// A `MemoryLimitError` with `message`.
fn memory_limit_err(message: String) -> PyErr {
    Python::attach(|py| match memory_limit_error(py) {
        Ok(ty) => PyErr::from_type(ty.clone(), message),
        Err(e) => e,
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add(
        "InvalidPositionError",
        py.get_type::<InvalidPositionError>(),
    )?;
    m.add(
        "TooManyOutcomesError",
        py.get_type::<TooManyOutcomesError>(),
    )?;
    m.add("SearchTimeoutError", py.get_type::<SearchTimeoutError>())?;
    m.add("MemoryLimitError", memory_limit_error(py)?)?;
    m.add("CertificateError", py.get_type::<CertificateError>())?;
    m.add("TablebaseFileError", py.get_type::<TablebaseFileError>())?;
    m.add("NetworkError", py.get_type::<NetworkError>())?;
    Ok(())
}

/// A Python exception class an error is raised as.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ExceptionClass {
    ParseError,
    InvalidPositionError,
    IllegalMoveError,
    TooManyOutcomesError,
    MemoryLimitError,
    SearchTimeoutError,
    KeyboardInterrupt,
    ValueError,
    CertificateError,
    TablebaseFileError,
    NetworkError,
    RuntimeError,
}

impl ExceptionClass {
    fn new_err(self, message: String) -> PyErr {
        match self {
            ExceptionClass::ParseError => ParseError::new_err(message),
            ExceptionClass::InvalidPositionError => InvalidPositionError::new_err(message),
            ExceptionClass::IllegalMoveError => IllegalMoveError::new_err(message),
            ExceptionClass::TooManyOutcomesError => TooManyOutcomesError::new_err(message),
            ExceptionClass::MemoryLimitError => memory_limit_err(message),
            ExceptionClass::SearchTimeoutError => SearchTimeoutError::new_err(message),
            ExceptionClass::KeyboardInterrupt => PyKeyboardInterrupt::new_err(message),
            ExceptionClass::ValueError => PyValueError::new_err(message),
            ExceptionClass::CertificateError => CertificateError::new_err(message),
            ExceptionClass::TablebaseFileError => TablebaseFileError::new_err(message),
            ExceptionClass::NetworkError => NetworkError::new_err(message),
            ExceptionClass::RuntimeError => PyRuntimeError::new_err(message),
        }
    }
}

/// The Python class of each core and engine error: the table in
/// docs/python.md ("Which exception for which error"), checked against it by
/// a test. The core's enums are matched exhaustively where they allow it, so
/// a new variant cannot compile without a class.
// One arm per row of the docs table, in its order: merging arms with the
// same class would hide rows.
#[allow(clippy::match_same_arms)]
fn class_of(error: &AnyError) -> ExceptionClass {
    use ExceptionClass as C;
    match error {
        // A well-formed position string can still describe an impossible
        // position: the same class as the same parts given one by one.
        AnyError::Parse(CoreParseError::Invalid(_)) => C::InvalidPositionError,
        AnyError::Parse(
            CoreParseError::Empty { .. }
            | CoreParseError::Point { .. }
            | CoreParseError::ColumnI { .. }
            | CoreParseError::PointOutside { .. }
            | CoreParseError::Side { .. }
            | CoreParseError::RuleOption { .. }
            | CoreParseError::Action { .. }
            | CoreParseError::Move { .. }
            | CoreParseError::Position { .. }
            | CoreParseError::Record { .. }
            | CoreParseError::Size { .. },
        ) => C::ParseError,
        AnyError::InvalidPosition(_) => C::InvalidPositionError,
        AnyError::IllegalMove(_) => C::IllegalMoveError,
        // A game at its move limit takes no more moves.
        AnyError::Game(GameError::Illegal { .. } | GameError::MoveLimit(_)) => C::IllegalMoveError,
        AnyError::Action(
            ActionError::OutOfRange { .. } | ActionError::NoJumpUnderWay | ActionError::Illegal(_),
        ) => C::IllegalMoveError,
        AnyError::Search(SearchError::TimedOut | SearchError::WorkLimit { .. }) => {
            C::SearchTimeoutError
        }
        AnyError::Search(SearchError::Cancelled) => C::KeyboardInterrupt,
        AnyError::Search(SearchError::MemoryLimit { .. } | SearchError::OutOfMemory { .. }) => {
            C::MemoryLimitError
        }
        AnyError::Search(_) | AnyError::TooManyOutcomes(_) => C::TooManyOutcomesError,
        // The caller's limits stopping the engine raise what they raise in the core.
        AnyError::Engine(EngineError::Interrupted(stop)) => {
            class_of(&AnyError::Search(stop.clone()))
        }
        // A board size the engine's network has no network for.
        AnyError::Engine(EngineError::Network(_)) => C::NetworkError,
        // A position the engine cannot move in.
        AnyError::Engine(_) => C::ValueError,
    }
}

/// The Python class of each solver error: the table in docs/python.md
/// ("Which exception for which solver error"), checked against it by a
/// test. The caller's limits raise what they raise in the core.
// One arm per row of the docs table: merging arms with the same class would hide rows.
#[allow(clippy::match_same_arms)]
fn solver_class_of(error: &SolverError) -> ExceptionClass {
    use ExceptionClass as C;
    match error {
        SolverError::Search(stop) => class_of(&AnyError::Search(stop.clone())),
        // The board is fine, only too large for a table of every position.
        SolverError::BoardTooLarge { .. } => C::ValueError,
        // Nothing to prove, as the engine's finished game.
        SolverError::Finished => C::ValueError,
        // A proof that failed its own check: a bug, reported as one.
        SolverError::Unsound(_) => C::RuntimeError,
        // The board's values outgrow the table's format: too large a board.
        SolverError::TooManyPlies { .. } => C::ValueError,
        // A job count out of the build's range.
        SolverError::Jobs { .. } => C::ValueError,
        // A checkpoint file refused (damaged, foreign) or not writable:
        // the message says which and names the file.
        SolverError::Checkpoint(_) => C::ValueError,
        // A variant added later (the enum is non-exhaustive).
        _ => C::ValueError,
    }
}

/// The Python class of each verdict of the certificate checker (the same
/// table): `CertificateError`, or what the limit that stopped it raises.
fn certificate_class_of(error: &SolverCertificateError) -> ExceptionClass {
    match error {
        SolverCertificateError::Search(stop) => class_of(&AnyError::Search(stop.clone())),
        _ => ExceptionClass::CertificateError,
    }
}

/// The Python class of each error reading a tablebase file (the same
/// table): `TablebaseFileError`, or `MemoryLimitError` when the allocator
/// refused the table.
fn tablebase_file_class_of(error: &SolverTablebaseFileError) -> ExceptionClass {
    match error {
        SolverTablebaseFileError::OutOfMemory { .. } => ExceptionClass::MemoryLimitError,
        _ => ExceptionClass::TablebaseFileError,
    }
}

/// The Python exception for an error reading a tablebase file, with the
/// solver's message (after the file's name, when there is one).
pub(crate) fn tablebase_file_exception(
    error: &SolverTablebaseFileError,
    name: Option<&str>,
) -> PyErr {
    let message = match name {
        Some(name) => format!("{name}: {error}"),
        None => error.to_string(),
    };
    tablebase_file_class_of(error).new_err(message)
}

/// The Python exception for a solver error, with the solver's message.
pub(crate) fn solver_exception(error: &SolverError) -> PyErr {
    solver_class_of(error).new_err(error.to_string())
}

/// The Python exception for an error reading the certificate file `name`:
/// `ParseError` for text that is not one, `OSError` for a stream that
/// failed, or what the limit that stopped it raises.
pub(crate) fn certificate_read_exception(error: &CertificateReadError, name: &str) -> PyErr {
    let message = format!("{name}: {error}");
    match error {
        CertificateReadError::Parse(_) => ParseError::new_err(message),
        CertificateReadError::Stopped(stop) => {
            class_of(&AnyError::Search(stop.clone())).new_err(message)
        }
        _ => PyOSError::new_err(message),
    }
}

/// The Python exception for an error reading the tablebase file `name`:
/// what its bytes raise from `from_bytes`, `OSError` for a stream that
/// failed, or what the limit that stopped it raises.
pub(crate) fn tablebase_read_exception(error: &TablebaseReadError, name: &str) -> PyErr {
    match error {
        TablebaseReadError::File(e) => tablebase_file_exception(e, Some(name)),
        TablebaseReadError::Stopped(stop) => {
            class_of(&AnyError::Search(stop.clone())).new_err(format!("{name}: {error}"))
        }
        TablebaseReadError::TrailingBytes { .. } => {
            TablebaseFileError::new_err(format!("{name}: {error}"))
        }
        _ => PyOSError::new_err(format!("{name}: {error}")),
    }
}

/// The Python exception for a checker's verdict, with the checker's message.
pub(crate) fn certificate_exception(error: &SolverCertificateError) -> PyErr {
    certificate_class_of(error).new_err(error.to_string())
}

/// The Python exception for `error`, with the core's message.
pub(crate) fn exception(error: &AnyError) -> PyErr {
    class_of(error).new_err(error.to_string())
}

/// Turns a core or engine error into the matching Python exception.
pub(crate) trait OrRaise<T> {
    /// The value, or the Python exception for the error.
    fn or_raise(self) -> PyResult<T>;
}

impl<T, E: Into<AnyError>> OrRaise<T> for Result<T, E> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(|e| exception(&e.into()))
    }
}

#[cfg(test)]
mod tests {
    use phutball::error_examples::assert_docs_table;
    use phutball_engine::every_error_named;
    use phutball_solver::error_examples::{
        every_error_named as every_solver_error_named, SolverErrorExample,
    };

    use super::*;

    /// The class as the docs name it: `phutball.ParseError`, or a builtin's name.
    fn docs_name(class: ExceptionClass) -> String {
        match class {
            ExceptionClass::KeyboardInterrupt
            | ExceptionClass::ValueError
            | ExceptionClass::RuntimeError => format!("{class:?}"),
            _ => format!("phutball.{class:?}"),
        }
    }

    #[test]
    fn the_exception_table_in_the_docs_is_the_mapping() {
        let every: Vec<(String, AnyError)> = every_error_named();
        let mapped: Vec<(String, String)> = every
            .into_iter()
            .map(|(name, e)| (name, docs_name(class_of(&e))))
            .collect();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/python.md");
        let markdown = std::fs::read_to_string(path).unwrap();
        let heading = "### Which exception for which error";
        assert_docs_table("docs/python.md", &markdown, heading, &mapped);
    }

    /// The class of any of the solver's errors the docs table lists.
    fn example_class_of(error: &SolverErrorExample) -> ExceptionClass {
        match error {
            SolverErrorExample::Solver(e) => solver_class_of(e),
            SolverErrorExample::Certificate(e) => certificate_class_of(e),
            SolverErrorExample::TablebaseFile(e) => tablebase_file_class_of(e),
        }
    }

    /// Every solver error variant (the solver's examples: a new variant
    /// has one, or the solver's own test fails) needs its row in the docs
    /// table, so its class is chosen, not left to a default arm unseen.
    #[test]
    fn the_solver_exception_table_in_the_docs_is_the_mapping() {
        let mapped: Vec<(String, String)> = every_solver_error_named()
            .into_iter()
            .map(|(name, e)| (name, docs_name(example_class_of(&e))))
            .collect();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/python.md");
        let markdown = std::fs::read_to_string(path).unwrap();
        let heading = "### Which exception for which solver error";
        assert_docs_table("docs/python.md", &markdown, heading, &mapped);
    }
}
