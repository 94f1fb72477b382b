//! The one error type of the `phutball` command and its exit statuses.
//!
//! Every command returns [`CliError`]; `main` prints it as one line
//! `phutball: ...` on stderr and exits with [`CliError::status`]. Every
//! failed write to standard output goes through [`CliError::output`], so a
//! reader that stops early (`phutball ... | head -1`) ends every command
//! quietly with status 0.
//!
//! | status | meaning |
//! |---|---|
//! | 0 | done (also: standard output was closed by its reader) |
//! | 1 | bad input, an unreadable file or a failed write |
//! | 2 | bad usage: a value an option refuses (one line), or clap's own report |
//! | 3 | `--timeout` ran out (the answer is unknown, not wrong) |
//! | 4 | the memory limit (`--memory-limit`) or the allocator stopped a search |

use std::fmt;
use std::io;
use std::process::ExitCode;

/// Exit status for bad input, an unreadable file or a failed write.
pub const EXIT_INPUT: u8 = 1;
/// Exit status for bad usage: a value an option's parser refuses (clap's
/// other usage errors exit with the same status from clap itself).
pub const EXIT_USAGE: u8 = 2;
/// Exit status when `--timeout` ran out (the answer is unknown, not wrong).
pub const EXIT_TIMED_OUT: u8 = 3;
/// Exit status when the memory limit (`--memory-limit`) or the allocator
/// stopped a search.
pub const EXIT_MEMORY: u8 = 4;

/// Why a command stopped: what went wrong, in one line, and so its exit status.
#[derive(Debug, PartialEq, Eq)]
pub enum CliError {
    /// Bad input, an unreadable file or a failed write: status 1.
    Input(String),
    /// A value an option refuses (`--timeout abc`): status 2.
    Usage(String),
    /// A search gave up before it had an answer (`--timeout`, a work
    /// limit): status 3.
    TimedOut(String),
    /// A search went over the memory limit or the allocator failed: status 4.
    Memory(String),
    /// The reader of standard output went away: not an error, status 0 and
    /// nothing on stderr.
    OutputClosed,
}

impl CliError {
    /// The error for a failed write to standard output: a closed pipe is
    /// [`CliError::OutputClosed`], anything else bad I/O.
    // By value: it is the function `map_err` calls.
    #[allow(clippy::needless_pass_by_value)]
    pub fn output(e: io::Error) -> CliError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::OutputClosed
        } else {
            CliError::Input(format!("cannot write the output: {e}"))
        }
    }

    /// The exit status that goes with this error.
    pub fn status(&self) -> u8 {
        match self {
            CliError::Input(_) => EXIT_INPUT,
            CliError::Usage(_) => EXIT_USAGE,
            CliError::TimedOut(_) => EXIT_TIMED_OUT,
            CliError::Memory(_) => EXIT_MEMORY,
            CliError::OutputClosed => 0,
        }
    }

    /// Prints the error (if it is one) as one line on stderr and gives the
    /// exit code.
    pub fn report(self) -> ExitCode {
        if self != CliError::OutputClosed {
            eprintln!("phutball: {self}");
        }
        ExitCode::from(self.status())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m)
            | CliError::Usage(m)
            | CliError::TimedOut(m)
            | CliError::Memory(m) => f.write_str(m),
            CliError::OutputClosed => f.write_str("standard output was closed"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    /// A failed write to standard output (see [`CliError::output`]); other
    /// I/O (files, stdin) is mapped by hand, with what it was reading.
    fn from(e: io::Error) -> CliError {
        CliError::output(e)
    }
}

impl From<String> for CliError {
    /// Bad input (or I/O): exit status 1.
    fn from(message: String) -> CliError {
        CliError::Input(message)
    }
}

/// What a command returns.
pub type CliResult<T = ()> = Result<T, CliError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_not_an_error_and_other_write_errors_are_bad_io() {
        let closed = CliError::output(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(closed, CliError::OutputClosed);
        assert_eq!(closed.status(), 0);
        let full = CliError::output(io::Error::other("disk full"));
        assert_eq!(full.status(), EXIT_INPUT);
        assert_eq!(full.to_string(), "cannot write the output: disk full");
    }

    #[test]
    fn each_kind_has_its_documented_status() {
        assert_eq!(CliError::from("x".to_string()).status(), 1);
        assert_eq!(CliError::Usage("x".into()).status(), 2);
        assert_eq!(CliError::TimedOut("x".into()).status(), EXIT_TIMED_OUT);
        assert_eq!(CliError::Memory("x".into()).status(), EXIT_MEMORY);
    }
}
