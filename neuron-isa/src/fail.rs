//! Outcomes and exit codes: 0 success, 1 an invalid instruction, 2 bad usage or input
//! (standard input or output failing included), 141 the reader of standard output went away.

use std::fmt;
use std::io;

/// Why a command did not succeed; its message is one line for stderr.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// Exit 1: an instruction is invalid (or a round trip the tool checks did not hold).
    Invalid(String),
    /// Exit 2: bad usage or input.
    Usage(String),
    /// The reader of standard output went away (`| head -1`, EPIPE): stop quietly, with the
    /// status a shell reports for a process killed by SIGPIPE.
    Closed,
}

impl Failure {
    /// The process exit code.
    pub fn code(&self) -> u8 {
        match self {
            Failure::Invalid(_) => 1,
            Failure::Usage(_) => 2,
            Failure::Closed => BROKEN_PIPE,
        }
    }

    /// A usage failure.
    pub fn usage(message: impl fmt::Display) -> Failure {
        Failure::Usage(message.to_string())
    }

    /// An invalid-instruction failure.
    pub fn invalid(message: impl fmt::Display) -> Failure {
        Failure::Invalid(message.to_string())
    }

    /// The one-line message (nothing for [`Failure::Closed`]).
    pub fn message(&self) -> Option<String> {
        match self {
            Failure::Invalid(m) | Failure::Usage(m) => Some(one_line(m)),
            Failure::Closed => None,
        }
    }
}

/// The exit code of a broken pipe: 128 + SIGPIPE (13), what a shell reports for a process the
/// signal killed, as GNU tools are; `set -o pipefail` then sees the output was cut short.
pub const BROKEN_PIPE: u8 = 128 + 13;

/// `?` on a write: every `io::Error` a command propagates is one of standard output.
impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        crate::stdio::output_failure(e)
    }
}

/// What a command returns.
pub type Outcome = Result<(), Failure>;

/// Folds a message onto one line (line breaks become `; `).
pub fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_lines() {
        assert_eq!(Failure::invalid("x").code(), 1);
        assert_eq!(Failure::usage("x").code(), 2);
        assert_eq!(
            Failure::usage("a\n\n  b\n").message().as_deref(),
            Some("a; b")
        );
        let closed: Failure = io::Error::from(io::ErrorKind::BrokenPipe).into();
        assert_eq!(closed, Failure::Closed);
        assert_eq!(closed.code(), 141);
        assert_eq!(closed.message(), None);
    }
}
