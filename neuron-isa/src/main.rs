//! `neuron-isa`: see `neuron-isa --help` and the crate README.

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use neuron_isa::cli::Cli;
use neuron_isa::fail::one_line;
use neuron_isa::out::Out;
use std::process::ExitCode;

fn main() -> ExitCode {
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
        eprintln!("neuron-isa: internal error: {}{at}", one_line(&message));
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                print!("{e}");
                return ExitCode::SUCCESS;
            }
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
                eprintln!("neuron-isa: {}", missing_command());
                return ExitCode::from(2);
            }
            _ => {
                eprintln!("neuron-isa: {}", usage_line(&e.to_string()));
                return ExitCode::from(2);
            }
        },
    };
    let mut out = Out::new(std::io::stdout().lock());
    match neuron_isa::execute(&cli, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            // Whatever was printed before the failure still goes out.
            let _ = out.flush();
            if let Some(message) = failure.message() {
                eprintln!("neuron-isa: {message}");
            }
            ExitCode::from(failure.code())
        }
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
