//! Standard input and output, with the errors Rust's standard library hides.
//!
//! Rust's runtime reopens a standard stream that is closed at start-up on `/dev/null` (std's
//! Unix `init`, so that a later `open` cannot land on descriptor 0 or 1). After that, `>&-`
//! cannot be told from `>/dev/null`: every write "succeeds" and the output is lost, and `<&-`
//! reads as an empty stream. The binary records which streams were open before the runtime
//! starts (`main.rs`) and hands that here ([`record_closed`]); a stream that was closed then
//! fails its first use with EBADF, named, like any other read or write error. Output bypasses
//! `std::io::Stdout`, which also reports EBADF as success ([`stdout`]).

use std::io::{self, Write};
use std::sync::atomic::{AtomicU8, Ordering};

/// Bit 0: standard input was closed at start-up; bit 1: standard output was.
static CLOSED: AtomicU8 = AtomicU8::new(0);

/// The name errors give standard input.
pub const STDIN: &str = "standard input";
/// The name errors give standard output.
pub const STDOUT: &str = "standard output";

/// Records which standard streams were closed when the process started.
pub fn record_closed(stdin: bool, stdout: bool) {
    CLOSED.store(u8::from(stdin) | u8::from(stdout) << 1, Ordering::Relaxed);
}

fn closed(bit: u8) -> bool {
    CLOSED.load(Ordering::Relaxed) & bit != 0
}

/// The error a closed stream gives (what a read or write on a closed descriptor returns).
pub(crate) fn closed_error() -> io::Error {
    io::Error::other("closed (bad file descriptor)")
}

/// The process's standard output as a writer that reports every failure, a closed stream included.
///
/// On Unix it writes through a duplicate of descriptor 1, not through `std::io::Stdout`, which
/// reports EBADF as success (a standard output opened read-only, `1<file`, would swallow every
/// byte); the buffering is [`crate::out::Out`]'s.
pub fn stdout() -> Stdout {
    Stdout {
        inner: if closed(2) {
            Err(closed_error())
        } else {
            own(io::stdout())
        },
    }
}

/// A descriptor of its own for a standard stream (on Unix), whose reads and writes return
/// their errors as they are.
#[cfg(unix)]
fn own<S: std::os::fd::AsFd>(stream: S) -> io::Result<std::fs::File> {
    Ok(std::fs::File::from(stream.as_fd().try_clone_to_owned()?))
}

#[cfg(not(unix))]
fn own<S>(stream: S) -> io::Result<S> {
    Ok(stream)
}

#[cfg(unix)]
type Sink = std::fs::File;
#[cfg(not(unix))]
type Sink = io::Stdout;

/// See [`stdout`].
pub struct Stdout {
    /// The sink, or why there is none (reported by every write).
    inner: io::Result<Sink>,
}

impl Stdout {
    fn sink(&mut self) -> io::Result<&mut Sink> {
        self.inner
            .as_mut()
            .map_err(|e| io::Error::new(e.kind(), e.to_string()))
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.sink()?.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.sink()?.flush()
    }
}

/// The process's standard input, or the error a closed one gives. Like [`stdout`], on Unix a
/// duplicate of descriptor 0, so a read error (EBADF for `0>file` included) is reported rather
/// than read as the end of the stream, as `std::io::Stdin` does with EBADF.
pub fn stdin() -> io::Result<Source> {
    if closed(1) {
        Err(closed_error())
    } else {
        own(io::stdin())
    }
}

/// What [`stdin`] reads from.
#[cfg(unix)]
pub type Source = std::fs::File;
/// What [`stdin`] reads from.
#[cfg(not(unix))]
pub type Source = io::Stdin;
