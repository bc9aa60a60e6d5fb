//! `neuron-isa`: the command-line face of the generated Neuron ISA crates.
//!
//! Every generation-specific subcommand goes through one generic function,
//! [`run`], instantiated per `--gen` by [`for_gen!`]; nothing is written per
//! generation. See the crate README for the commands.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod checkpoint;
pub mod cli;
pub mod decode;
pub mod diff;
pub mod disasm;
pub mod draw;
pub mod encode;
pub mod fail;
pub mod matrix;
pub mod names;
pub mod num;
pub mod out;
pub mod program;
pub mod rng;
pub mod stdio;
pub mod text;
pub mod validate;
pub mod words;

use cli::{Cli, Command, Gen};
use fail::Outcome;
use isa_core::construct::Construct;
use isa_core::Isa;
use out::Out;
use rng_core::Generation;
use std::io::Write;
use words::Input;

/// Evaluates `$body` with the type alias `$G` bound to the marker type of generation `$gen`.
#[macro_export]
macro_rules! for_gen {
    ($gen:expr, $G:ident => $body:expr) => {
        match $gen {
            $crate::cli::Gen::Sunda => {
                type $G = isa_sunda::Sunda;
                $body
            }
            $crate::cli::Gen::Cayman => {
                type $G = isa_cayman::Cayman;
                $body
            }
            $crate::cli::Gen::Mariana => {
                type $G = isa_mariana::Mariana;
                $body
            }
            $crate::cli::Gen::Maverick => {
                type $G = isa_maverick::Maverick;
                $body
            }
        }
    };
}

/// Runs a parsed command line.
pub fn execute<W: Write>(cli: &Cli, out: &mut Out<W>) -> Outcome {
    match &cli.command {
        Command::Matrix { gen: None, json } => {
            let rows: Vec<_> = Gen::ALL
                .iter()
                .flat_map(|g| for_gen!(g, G => matrix::rows::<G>()))
                .collect();
            print_matrix(&rows, *json, out)
        }
        Command::Matrix { gen: Some(gen), .. }
        | Command::Asm { gen, .. }
        | Command::Disasm { gen, .. }
        | Command::Encode { gen, .. }
        | Command::Decode { gen, .. }
        | Command::Validate { gen, .. }
        | Command::Checkpoint { gen, .. }
        | Command::Run { gen, .. } => for_gen!(gen, G => run::<G, W>(&cli.command, out)),
        Command::Rng { generator } => rng::rng(generator, out),
        Command::Diff { from, to } => diff::diff(from, to, out),
    }
}

fn print_matrix<W: Write>(rows: &[matrix::Row], json: bool, out: &mut Out<W>) -> Outcome {
    out.str(&if json {
        matrix::json(rows)
    } else {
        matrix::table(rows)
    });
    out.flush()?;
    Ok(())
}

/// Runs a generation-specific command for generation `G`.
pub fn run<G: Isa + Generation + Construct, W: Write>(
    command: &Command,
    out: &mut Out<W>,
) -> Outcome {
    match command {
        Command::Matrix { json, .. } => print_matrix(&matrix::rows::<G>(), *json, out),
        Command::Encode { inst, raw, .. } => {
            let word = encode::encode::<G>(inst)?;
            if *raw {
                out.bytes(&word);
            } else {
                out.hex_bytes(&word);
                out.str("\n");
            }
            out.flush()?;
            Ok(())
        }
        Command::Decode {
            json, short, input, ..
        } => {
            let input = Input::from_args(&input.hex, input.file.as_deref())?;
            if *short {
                decode::decode_short::<G, W>(&input, out)
            } else {
                decode::decode::<G, W>(&input, *json, out)
            }
        }
        Command::Asm {
            file,
            output,
            hex,
            validate,
            ..
        } => {
            let request = text::AsmRequest {
                output: output.as_deref(),
                hex: *hex,
                validate: *validate,
            };
            text::asm::<G, W>(file, &request, out)
        }
        Command::Disasm { file, .. } => disasm::disasm::<G, W>(&Input::File(file.clone()), out),
        Command::Validate {
            engine,
            input,
            firmware,
            text: as_text,
            ..
        } => match input.file.as_deref() {
            Some(path) if text::is_text(path, *as_text) => {
                let program = text::load::<G>(path)?;
                validate::validate_text::<G, W>(&program, *engine, *firmware, out)
            }
            _ => {
                let engine = engine.ok_or_else(|| {
                    fail::Failure::usage(
                        "validate: --engine is required for words (only a program text's annotations name engines)",
                    )
                })?;
                let input = Input::from_args(&input.hex, input.file.as_deref())?;
                validate::validate::<G, W>(&input, engine, *firmware, out)
            }
        },
        Command::Checkpoint {
            engine,
            generator,
            algorithm,
            seed,
            draws,
            channels,
            ..
        } => checkpoint::checkpoint::<G, W>(
            &checkpoint::Request {
                engine: *engine,
                generator: *generator,
                algorithm: *algorithm,
                seed: *seed,
                draws: *draws,
                channels: *channels,
            },
            out,
        ),
        Command::Run {
            file,
            text: as_text,
            engine,
            engine_state,
            dump,
            json,
            ..
        } => {
            let request = program::Request {
                engine: *engine,
                engine_state: (engine_state != "default").then(|| engine_state.into()),
                dump: *dump,
                json: *json,
            };
            let source = if text::is_text(file, *as_text) {
                program::Source::Text(text::load::<G>(file)?)
            } else {
                program::Source::Words(Input::File(file.clone()))
            };
            program::run::<G, W>(&source, &request, out)
        }
        // Not generation-specific: the same for every G.
        Command::Rng { generator } => rng::rng(generator, out),
        Command::Diff { from, to } => diff::diff(from, to, out),
    }
}
