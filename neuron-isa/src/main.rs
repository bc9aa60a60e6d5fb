//! `neuron-isa`: see `neuron-isa --help` and the crate README.

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use neuron_isa::cli::Cli;
use neuron_isa::fail::{one_line, Failure};
use neuron_isa::out::Out;
use neuron_isa::stdio;
use std::io::Write;
use std::process::ExitCode;

/// Which of standard input (bit 0) and output (bit 1) were closed when the process started,
/// read before Rust's runtime reopens a closed one on `/dev/null` (which it does before
/// `main`; see `neuron_isa::stdio`). Functions in `.init_array` run before that runtime start-up.
#[cfg(target_os = "linux")]
mod startup {
    use std::sync::atomic::{AtomicU8, Ordering};

    pub static CLOSED: AtomicU8 = AtomicU8::new(0);

    extern "C" fn record() {
        let mut closed = 0;
        for fd in 0..2 {
            // SAFETY: F_GETFD only reads the descriptor's flags; it touches no memory.
            #[allow(unsafe_code)]
            if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
                closed |= 1 << fd;
            }
        }
        CLOSED.store(closed, Ordering::Relaxed);
    }

    #[used]
    #[link_section = ".init_array"]
    static RECORD: extern "C" fn() = record;

    pub fn closed() -> (bool, bool) {
        let closed = CLOSED.load(Ordering::Relaxed);
        (closed & 1 != 0, closed & 2 != 0)
    }
}

/// Elsewhere the runtime's substitution is not detected (a closed stream reads as empty and
/// swallows writes).
#[cfg(not(target_os = "linux"))]
mod startup {
    pub fn closed() -> (bool, bool) {
        (false, false)
    }
}

/// One line on stderr; if stderr itself fails there is nowhere left to say so (and
/// `eprintln!` would panic).
fn error_line(message: &str) {
    let _ = writeln!(std::io::stderr(), "neuron-isa: {message}");
}

/// The exit of a failure: its lines on stderr (one, or one per error of a program text; none
/// for a broken pipe) and its code.
fn fail(failure: &Failure) -> ExitCode {
    let mut stderr = std::io::stderr().lock();
    for line in failure.stderr_lines() {
        let _ = writeln!(stderr, "{line}");
    }
    ExitCode::from(failure.code())
}

fn main() -> ExitCode {
    let (stdin_closed, stdout_closed) = startup::closed();
    stdio::record_closed(stdin_closed, stdout_closed);
    // A bug must still be one line on stderr, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        error_line(&format!("internal error: {}{at}", one_line(&message)));
    }));
    // Every byte of standard output goes through `out`, whose writes and flushes report errors
    // (`print!` would panic on a full disk); nothing is left unflushed at exit.
    let mut out = Out::new(stdio::stdout());
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let failure = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    out.str(&e.to_string());
                    return match out.flush() {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(e) => fail(&e.into()),
                    };
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                | ErrorKind::MissingSubcommand => Failure::usage(missing_command()),
                _ => Failure::usage(usage_line(&e.to_string())),
            };
            return fail(&failure);
        }
    };
    let outcome = neuron_isa::execute(&cli, &mut out);
    // Whatever was printed before a failure still goes out; a failed flush is the failure
    // when the command had none.
    let flushed = out.flush();
    match (outcome, flushed) {
        (Ok(()), Ok(())) => ExitCode::SUCCESS,
        (Err(failure), _) => fail(&failure),
        (Ok(()), Err(e)) => fail(&e.into()),
    }
}

/// clap's error text (message, context, usage, tip) as one line: the message and its
/// context, then a pointer to `--help`.
fn usage_line(text: &str) -> String {
    let mut line = String::new();
    for l in text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:"))
        .filter(|l| {
            !l.is_empty() && !l.starts_with("tip:") && !l.starts_with("For more information")
        })
    {
        if !line.is_empty() {
            line.push_str(if line.ends_with(':') || l.starts_with('[') {
                " "
            } else {
                "; "
            });
        }
        line.push_str(l);
    }
    let line = line.strip_prefix("error: ").unwrap_or(&line);
    format!("{line} (see --help)")
}

/// Which command the line stops at, and the subcommands it needs one of.
fn missing_command() -> String {
    let mut command = Cli::command();
    let mut path = vec!["neuron-isa".to_string()];
    for arg in std::env::args().skip(1) {
        if let Some(sub) = command.find_subcommand(&arg).cloned() {
            path.push(arg);
            command = sub;
        }
    }
    let names: Vec<&str> = command
        .get_subcommands()
        .map(|c| c.get_name())
        .filter(|&n| n != "help")
        .collect();
    format!(
        "`{}` needs one of: {} (see --help)",
        path.join(" "),
        names.join(", ")
    )
}
