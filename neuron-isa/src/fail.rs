//! Outcomes and exit codes: 0 success, 1 an invalid instruction, 2 bad usage or input
//! (standard input or output failing included), 141 the reader of standard output went away.

use crate::stdio;
use std::fmt;
use std::io;

/// Why a command did not succeed; its message is one line for stderr.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// Exit 1: an instruction is invalid (or a round trip the tool checks did not hold).
    Invalid(String),
    /// Exit 2: bad usage or input.
    Usage(String),
    /// Several errors of one input, each its own line (a program text's `FILE:LINE:COL:
    /// message` lines), with the exit code of the worst: 2 when any is bad input, else 1.
    Lines {
        /// The exit code.
        code: u8,
        /// The lines, in input order.
        lines: Vec<String>,
    },
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
            Failure::Lines { code, .. } => *code,
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

    /// The one-line message (nothing for [`Failure::Closed`]; the lines joined by `; ` for
    /// [`Failure::Lines`]).
    pub fn message(&self) -> Option<String> {
        match self {
            Failure::Invalid(m) | Failure::Usage(m) => Some(one_line(m)),
            Failure::Lines { lines, .. } => Some(one_line(&lines.join("\n"))),
            Failure::Closed => None,
        }
    }

    /// The lines for stderr: [`Failure::message`] after the tool's name, or each line of
    /// [`Failure::Lines`] as it is (`FILE:LINE:COL: message`, the form editors jump to).
    pub fn stderr_lines(&self) -> Vec<String> {
        match self {
            Failure::Lines { lines, .. } => lines.iter().map(|l| one_line(l)).collect(),
            _ => self
                .message()
                .map(|m| format!("neuron-isa: {m}"))
                .into_iter()
                .collect(),
        }
    }
}

/// The exit code of a broken pipe: 128 + SIGPIPE (13), what a shell reports for a process the
/// signal killed, as GNU tools are; `set -o pipefail` then sees the output was cut short.
pub const BROKEN_PIPE: u8 = 128 + 13;

/// `?` on a write: every `io::Error` a command propagates is one of standard output.
impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        output_failure(e)
    }
}

/// A write error on standard output as the command's failure: a reader that went away
/// (`| head -1`, EPIPE) is [`Failure::Closed`]; anything else names the stream (exit 2).
pub fn output_failure(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::Closed
    } else {
        Failure::usage(format!("{}: {e}", stdio::STDOUT))
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
        assert!(closed.stderr_lines().is_empty());
        assert_eq!(Failure::usage("x").stderr_lines(), ["neuron-isa: x"]);
        let lines = Failure::Lines {
            code: 1,
            lines: vec!["f.s:1:1: a".into(), "f.s:2:3: b\nc".into()],
        };
        assert_eq!(
            (lines.code(), lines.stderr_lines()),
            (1, vec!["f.s:1:1: a".into(), "f.s:2:3: b; c".to_string()])
        );
    }

    #[test]
    fn failures_name_the_stream_and_a_broken_pipe_is_quiet() {
        let full = output_failure(io::Error::from_raw_os_error(28));
        assert_eq!(full.code(), 2);
        let message = full.message().unwrap();
        assert!(message.starts_with("standard output: "), "{message}");
        assert_eq!(
            output_failure(io::Error::from(io::ErrorKind::BrokenPipe)),
            Failure::Closed
        );
        assert_eq!(
            output_failure(stdio::closed_error()).message().unwrap(),
            "standard output: closed (bad file descriptor)"
        );
    }
}
