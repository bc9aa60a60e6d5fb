//! Program texts (`docs/program-format.md`): reading one for `asm`, `run` and `validate`, and
//! `asm` itself, which writes the words of a text (raw, or `--hex` lines), validating each for
//! its engine with `--validate`.
//!
//! A text's errors are all reported, one `FILE:LINE:COL: message` line each, exit 2; an
//! invalid instruction under `--validate` is a `FILE:LINE: message` line, exit 1.

use crate::fail::{Failure, Outcome};
use crate::out::Out;
use crate::stdio;
use isa_core::program::{self, Program, Statement};
use isa_core::{Isa, VendorEnum, INST_NBYTES};
use std::io::{self, Read, Write};
use std::path::Path;

/// The extension that marks a program text (`run`, `validate`; `--text` for any other name).
pub const EXTENSION: &str = "s";

/// Whether `path` is read as a program text: `--text`, or the extension `.s`.
pub fn is_text(path: &Path, flag: bool) -> bool {
    flag || path.extension().is_some_and(|e| e == EXTENSION)
}

/// A program text read and assembled, with the name its messages give it.
#[derive(Debug)]
pub struct Text<E> {
    /// The file's name as given (`standard input` for `-`).
    pub name: String,
    /// Its words, with lines and engines.
    pub program: Program<E>,
}

impl<E> Text<E> {
    /// `NAME:LINE` of a statement, for messages.
    pub fn at(&self, statement: &Statement<E>) -> String {
        format!("{}:{}", self.name, statement.line)
    }
}

/// Reads and assembles the program text at `path` (`-`: standard input); every error of it is
/// one line of the failure (exit 2).
pub fn load<G: Isa>(path: &Path) -> Result<Text<G::Engine>, Failure> {
    let (name, bytes) = read_all(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
        let column = String::from_utf8_lossy(&valid[start..]).chars().count() + 1;
        Failure::Lines {
            code: 2,
            lines: vec![format!("{name}:{line}:{column}: not UTF-8 text")],
        }
    })?;
    match program::parse::<G>(&text) {
        Ok(program) => Ok(Text { name, program }),
        Err(errors) => Err(Failure::Lines {
            code: 2,
            lines: errors.iter().map(|e| format!("{name}:{e}")).collect(),
        }),
    }
}

/// The bytes of `path` (`-`: standard input) and the name messages give it.
fn read_all(path: &Path) -> Result<(String, Vec<u8>), Failure> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        let name = stdio::STDIN.to_string();
        let fail = |e: io::Error| Failure::usage(format!("{name}: {e}"));
        stdio::stdin()
            .map_err(fail)?
            .read_to_end(&mut bytes)
            .map_err(fail)?;
        return Ok((name, bytes));
    }
    let name = path.display().to_string();
    let fail = |e: io::Error| Failure::usage(format!("{name}: {e}"));
    let mut file = std::fs::File::open(path).map_err(fail)?;
    if file.metadata().map_err(fail)?.is_dir() {
        return Err(Failure::usage(format!("{name}: is a directory")));
    }
    file.read_to_end(&mut bytes).map_err(fail)?;
    Ok((name, bytes))
}

/// The engine a statement is validated or run on: its annotation (or `.engine`), else the one
/// engine the tree places its opcode on.
pub fn engine_of<G: Isa>(statement: &Statement<G::Engine>) -> Option<G::Engine> {
    statement
        .engine
        .or_else(|| G::opcode(statement.word[0]).and_then(program::sole_engine::<G>))
}

/// `asm --validate`: every statement's word decoded and validated for its engine; one line per
/// failing statement (exit 1 for an invalid instruction, 2 when a statement has no engine).
pub fn validate_all<G: Isa>(text: &Text<G::Engine>) -> Outcome {
    let mut lines = Vec::new();
    let mut code = 1;
    let engines: Vec<String> = <G::Engine as VendorEnum>::all()
        .iter()
        .map(|e| format!("@{}", e.vendor_name().to_ascii_lowercase()))
        .collect();
    for s in &text.program.statements {
        let at = text.at(s);
        let inst = match G::decode(&s.word) {
            Ok(inst) => inst,
            Err(e) => {
                lines.push(format!("{at}: does not decode: {e}"));
                continue;
            }
        };
        let Some(engine) = engine_of::<G>(s) else {
            code = 2;
            lines.push(format!(
                "{at}: {} runs on more than one engine; annotate the line ({}) or set .engine to validate it",
                program::opcode_name::<G>(&s.word),
                engines.join(", ")
            ));
            continue;
        };
        if let Err(v) = G::validate(&inst, engine) {
            lines.push(format!("{at}: on {engine}: {v}"));
        }
    }
    if lines.is_empty() {
        Ok(())
    } else {
        Err(Failure::Lines { code, lines })
    }
}

/// What `asm` writes and where.
#[derive(Clone, Debug)]
pub struct AsmRequest<'a> {
    /// `-o OUT` (standard output when `None`).
    pub output: Option<&'a Path>,
    /// `--hex`: one line of 128 hex digits per word instead of the raw bytes.
    pub hex: bool,
    /// `--validate`: validate each word for its engine first.
    pub validate: bool,
}

/// `asm`: assembles the text at `path`; nothing is written when it has an error.
pub fn asm<G: Isa, W: Write>(path: &Path, request: &AsmRequest, out: &mut Out<W>) -> Outcome {
    let text = load::<G>(path)?;
    if request.validate {
        validate_all::<G>(&text)?;
    }
    let mut data = Vec::with_capacity(text.program.statements.len() * 2 * INST_NBYTES);
    for s in &text.program.statements {
        if request.hex {
            for b in s.word {
                data.extend_from_slice(format!("{b:02x}").as_bytes());
            }
            data.push(b'\n');
        } else {
            data.extend_from_slice(&s.word);
        }
    }
    match request.output {
        Some(file) => std::fs::write(file, &data)
            .map_err(|e| Failure::usage(format!("asm -o {}: {e}", file.display()))),
        None => {
            out.bytes(&data);
            out.flush()?;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_told_by_extension_or_flag() {
        assert!(is_text(Path::new("examples/checkpoint.s"), false));
        assert!(!is_text(Path::new("program.bin"), false));
        assert!(!is_text(Path::new("-"), false));
        assert!(is_text(Path::new("-"), true));
    }
}
