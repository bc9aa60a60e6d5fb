//! `disasm`: a stream of 64-byte words as a program text (`docs/program-format.md`) that
//! `asm` assembles back to the same bytes: one line per word, the instruction's one-line
//! disassembly with an engine annotation where the tree places its opcode on one engine only,
//! and the word's byte offset as a comment; a word that does not decode is a `.word` line.

use crate::fail::Outcome;
use crate::out::Out;
use crate::words::Input;
use isa_core::{program, Isa, INST_NBYTES};
use std::fmt::Write as _;
use std::io::Write;

/// Writes the listing of every word of `input`; a trailing partial word fails (exit 2) after
/// the lines of the whole words.
pub fn disasm<G: Isa, W: Write>(input: &Input, out: &mut Out<W>) -> Outcome {
    let _ = writeln!(out, "# {} (neuron-isa disasm)", G::INFO.name);
    input.for_each(|index, word| {
        let _ = program::write_line::<G>(out, index as usize * INST_NBYTES, word);
        out.maybe_flush()?;
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}
