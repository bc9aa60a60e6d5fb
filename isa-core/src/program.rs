//! Programs as text: the assembler's input and the disassembler's listing (feature `alloc`).
//!
//! The format is documented in `docs/program-format.md`; in short:
//!
//! ```text
//! # Comments run from `#` to the end of the line; blank lines are ignored.
//! .engine dve                                  # the engine of the lines below
//! PSEUDO_SET_RNG_SEED header={inst_word_len=16} src=0x12345678
//! RAND_GET_STATE ... @dve                      # this line's engine (wins over `.engine`)
//! .word 0x7800...00                            # a raw word: 128 hex digits, byte for byte
//! ```
//!
//! An instruction line is the one-line disassembly (`Display`) of a generation's instruction.
//! The engine is not in the word; an annotation names the engine that executes it, by the
//! generation's engine member name in any case, for validation and the machine.
//!
//! [`parse`] (or [`read`], with another instruction parser) reads a whole text and reports every error of it, each with its line and column;
//! [`write_line`] writes one word of a listing, which reads back to the same bytes.

use crate::{words, DecodeError, Isa, VendorEnum, INST_NBYTES};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// The directive of a raw word.
pub const WORD_DIRECTIVE: &str = ".word";
/// The directive that sets the engine of the lines after it.
pub const ENGINE_DIRECTIVE: &str = ".engine";

/// One word of a program, with where it was written and the engine that executes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statement<E> {
    /// The line it was written on (1-based).
    pub line: usize,
    /// The 64 bytes.
    pub word: [u8; INST_NBYTES],
    /// Its engine annotation (`@dve`), else the last `.engine` before it, else `None`.
    pub engine: Option<E>,
}

/// A program read from text: its words in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program<E> {
    /// One per instruction or `.word` line.
    pub statements: Vec<Statement<E>>,
}

impl<E> Default for Program<E> {
    fn default() -> Self {
        Program {
            statements: Vec::new(),
        }
    }
}

impl<E> Program<E> {
    /// The words, concatenated: the bytes the program assembles to.
    pub fn bytes(&self) -> Vec<u8> {
        self.statements.iter().flat_map(|s| s.word).collect()
    }
}

/// One error of a program text, at a line and a column (both 1-based; the column counts
/// characters). `Display` is `LINE:COLUMN: message`, to follow a file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The line (1-based).
    pub line: usize,
    /// The column (1-based, in characters).
    pub column: usize,
    /// What is wrong, on one line.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl core::error::Error for LineError {}

/// The words of an instruction's text, or what is wrong with it at a column of that text.
pub type InstructionResult = Result<[u8; INST_NBYTES], (usize, String)>;

/// Reads a program of generation `G`: [`read`] with the generation's instruction parser
/// ([`Isa::parse_instruction`]).
pub fn parse<G: Isa>(text: &str) -> Result<Program<G::Engine>, Vec<LineError>> {
    read::<G::Engine>(text, instruction_word::<G>)
}

/// The word of one instruction's text in generation `G`, or the parser's error at its column.
pub fn instruction_word<G: Isa>(text: &str) -> InstructionResult {
    G::parse_instruction(text)
        .map(|inst| G::encode(&inst))
        .map_err(|e| (e.column(), e.to_string()))
}

/// Reads a program, handing each instruction's text (the line without its comment, engine
/// annotation and surrounding blanks) to `instruction`, which returns its word or an error at
/// a 1-based character column of the text it was given.
///
/// Every line is read whatever the lines before it held, so the error list is every error of
/// the text, in line order.
pub fn read<E: VendorEnum>(
    text: &str,
    mut instruction: impl FnMut(&str) -> InstructionResult,
) -> Result<Program<E>, Vec<LineError>> {
    let mut program = Program::default();
    let mut errors = Vec::new();
    let mut block_engine: Option<E> = None;
    for (index, full) in text.lines().enumerate() {
        let mut line = Line {
            number: index + 1,
            full,
            errors: &mut errors,
        };
        let code = full.split('#').next().unwrap_or_default();
        let Some((start, rest)) = next_token(code, 0) else {
            continue;
        };
        if rest.starts_with('.') {
            let (directive, _) = split_token(rest);
            match directive {
                WORD_DIRECTIVE => {
                    let (body, engine) = line.annotation::<E>(code, start + directive.len());
                    if let Some(word) = line.raw_word(start, body) {
                        program.statements.push(Statement {
                            line: line.number,
                            word,
                            engine: engine.or(block_engine),
                        });
                    }
                }
                ENGINE_DIRECTIVE => {
                    if let Some(engine) = line.engine_directive::<E>(code, start + directive.len())
                    {
                        block_engine = Some(engine);
                    }
                }
                _ => line.error(
                    start,
                    alloc::format!(
                        "unknown directive `{directive}`; the directives are {WORD_DIRECTIVE} and {ENGINE_DIRECTIVE}"
                    ),
                ),
            }
            continue;
        }
        let (body, engine) = line.annotation::<E>(code, start);
        if body.trim().is_empty() {
            line.error(
                start,
                "an engine annotation needs an instruction before it".into(),
            );
            continue;
        }
        let body = body.trim_end();
        match instruction(&code[start..body.len()]) {
            Ok(word) => program.statements.push(Statement {
                line: line.number,
                word,
                engine: engine.or(block_engine),
            }),
            Err((column, message)) => {
                let at = start + byte_of_column(&code[start..], column);
                line.error(at, message);
            }
        }
    }
    if errors.is_empty() {
        Ok(program)
    } else {
        Err(errors)
    }
}

/// The byte offset of 1-based character column `column` of `text` (its end when past it).
fn byte_of_column(text: &str, column: usize) -> usize {
    text.char_indices()
        .nth(column.saturating_sub(1))
        .map_or(text.len(), |(at, _)| at)
}

/// The first token of `text[from..]`: its byte offset in `text` and the text from there on.
fn next_token(text: &str, from: usize) -> Option<(usize, &str)> {
    let rest = &text[from..];
    let skipped = rest.len() - rest.trim_start().len();
    let rest = &rest[skipped..];
    (!rest.trim_end().is_empty()).then_some((from + skipped, rest))
}

/// `text` split after its first token (up to white space).
fn split_token(text: &str) -> (&str, &str) {
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    text.split_at(end)
}

/// The line being read, and where its errors go.
struct Line<'a> {
    number: usize,
    full: &'a str,
    errors: &'a mut Vec<LineError>,
}

impl Line<'_> {
    /// Records an error at byte offset `at` of the line.
    fn error(&mut self, at: usize, message: String) {
        self.errors.push(LineError {
            line: self.number,
            column: self.full[..at].chars().count() + 1,
            message,
        });
    }

    /// Splits a trailing `@engine` off `code[from..]`: returns `code` up to the annotation
    /// (all of it when there is none) and the engine when it names one of `E`.
    fn annotation<'c, E: VendorEnum>(
        &mut self,
        code: &'c str,
        from: usize,
    ) -> (&'c str, Option<E>) {
        let trimmed = code.trim_end();
        let last_start = trimmed.rfind(char::is_whitespace).map_or(0, |k| {
            k + trimmed[k..].chars().next().map_or(1, char::len_utf8)
        });
        if last_start < from || !trimmed[last_start..].starts_with('@') {
            return (code, None);
        }
        let name = &trimmed[last_start + 1..];
        let engine = self.engine::<E>(name, last_start);
        (&code[..last_start], engine)
    }

    /// `.engine NAME`, the directive ending at byte `from`.
    fn engine_directive<E: VendorEnum>(&mut self, code: &str, from: usize) -> Option<E> {
        let Some((at, rest)) = next_token(code, from) else {
            self.error(
                from,
                alloc::format!(
                    "{ENGINE_DIRECTIVE} needs an engine: {}",
                    engine_names::<E>()
                ),
            );
            return None;
        };
        let (name, tail) = split_token(rest);
        if !self.nothing_after(tail, at + name.len(), "the engine", ENGINE_DIRECTIVE) {
            return None;
        }
        self.engine::<E>(name, at)
    }

    /// Whether `tail`, the rest of a directive's line from byte `at`, is blank; if not, the
    /// error "text after `what` of `directive`" at its first token.
    fn nothing_after(&mut self, tail: &str, at: usize, what: &str, directive: &str) -> bool {
        let Some((extra, _)) = next_token(tail, 0) else {
            return true;
        };
        self.error(
            at + extra,
            alloc::format!("text after {what} of {directive}"),
        );
        false
    }

    /// The engine named `name`, written at byte `at` (its `@` when annotated).
    fn engine<E: VendorEnum>(&mut self, name: &str, at: usize) -> Option<E> {
        let bare = name.strip_prefix('@').unwrap_or(name);
        let found = E::all()
            .iter()
            .copied()
            .find(|e| e.vendor_name().eq_ignore_ascii_case(bare));
        if found.is_none() {
            let what = if bare.is_empty() {
                "an empty engine name".to_string()
            } else {
                alloc::format!("unknown engine `{bare}`")
            };
            self.error(
                at,
                alloc::format!("{what}; the engines are {}", engine_names::<E>()),
            );
        }
        found
    }

    /// The word of `.word 0x<128 hex digits>`; `body` is the line's code up to any annotation,
    /// and the directive starts at its byte `start`.
    fn raw_word(&mut self, start: usize, body: &str) -> Option<[u8; INST_NBYTES]> {
        let from = start + WORD_DIRECTIVE.len();
        let expected = alloc::format!(
            "{WORD_DIRECTIVE} takes 0x and {} hex digits (the {INST_NBYTES} bytes in order)",
            2 * INST_NBYTES
        );
        let Some((at, rest)) = next_token(body, from) else {
            self.error(from, alloc::format!("{expected}; nothing follows"));
            return None;
        };
        let (value, tail) = split_token(rest);
        if !self.nothing_after(tail, at + value.len(), "the word", WORD_DIRECTIVE) {
            return None;
        }
        let Some(digits) = value.strip_prefix("0x") else {
            self.error(
                at,
                alloc::format!("{expected}; `{value}` does not start with 0x"),
            );
            return None;
        };
        if let Some((k, c)) = digits.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
            self.error(at + 2 + k, alloc::format!("`{c}` is not a hex digit"));
            return None;
        }
        if digits.len() != 2 * INST_NBYTES {
            self.error(at, alloc::format!("{expected}; this has {}", digits.len()));
            return None;
        }
        let mut word = [0u8; INST_NBYTES];
        for (k, byte) in word.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&digits[2 * k..2 * k + 2], 16).ok()?;
        }
        Some(word)
    }
}

/// `pool, dve, act, ...`: the engines of `E`, as annotations spell them.
fn engine_names<E: VendorEnum>() -> String {
    let names: Vec<String> = E::all()
        .iter()
        .map(|e| e.vendor_name().to_ascii_lowercase())
        .collect();
    names.join(", ")
}

/// Writes the listing line of the word at byte `offset` of a stream, then a line break: the
/// instruction's one-line disassembly, an engine annotation when the tree places its opcode on
/// one engine only ([`Isa::engines`]), and the offset as a comment. A word that does not decode
/// is a `.word` line, its comment saying why.
pub fn write_line<G: Isa>(
    out: &mut impl fmt::Write,
    offset: usize,
    word: &[u8; INST_NBYTES],
) -> fmt::Result {
    match G::decode(word) {
        Ok(inst) => {
            write!(out, "{inst}")?;
            if let Some(only) = sole_engine::<G>(G::opcode_of(&inst)) {
                write!(out, " @{}", only.vendor_name().to_ascii_lowercase())?;
            }
            writeln!(out, "  # {offset:#x}")
        }
        Err(e) => {
            write_raw_word(out, word)?;
            writeln!(out, "  # {offset:#x}: does not decode: {e}")
        }
    }
}

/// Writes `.word 0x` and the word's 128 hex digits.
pub fn write_raw_word(out: &mut impl fmt::Write, word: &[u8; INST_NBYTES]) -> fmt::Result {
    out.write_str(WORD_DIRECTIVE)?;
    out.write_str(" 0x")?;
    for b in word {
        write!(out, "{b:02x}")?;
    }
    Ok(())
}

/// The listing of a byte stream ([`write_line`] per word); a stream that ends inside a word is
/// the error [`crate::words`] gives for its tail.
pub fn listing<G: Isa>(bytes: &[u8]) -> Result<String, DecodeError> {
    let mut text = String::new();
    for (offset, word) in words(bytes) {
        // Writing to a String cannot fail.
        let _ = write_line::<G>(&mut text, offset, word?);
    }
    Ok(text)
}

/// The engine annotation of an opcode in a listing: its one engine, when the tree places it on
/// one only.
pub fn sole_engine<G: Isa>(op: G::Opcode) -> Option<G::Engine> {
    match G::engines(op) {
        [only] => Some(*only),
        _ => None,
    }
}

/// The opcode name of a word for messages: its vendor name, or `opcode 0x..` when `G` has none.
pub fn opcode_name<G: Isa>(word: &[u8; INST_NBYTES]) -> String {
    match G::opcode(word[0]) {
        Some(op) => op.vendor_name().to_string(),
        None => alloc::format!("opcode {:#04x}", word[0]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Engine {
        Pool,
        Dve,
    }

    impl fmt::Display for Engine {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.vendor_name())
        }
    }

    impl VendorEnum for Engine {
        const C_NAME: &'static str = "ENGINE";
        fn all() -> &'static [Self] {
            &[Engine::Pool, Engine::Dve]
        }
        fn vendor_name(self) -> &'static str {
            match self {
                Engine::Pool => "POOL",
                Engine::Dve => "DVE",
            }
        }
        fn from_vendor_name(name: &str) -> Option<Self> {
            Self::all()
                .iter()
                .copied()
                .find(|e| e.vendor_name() == name)
        }
        fn value_u64(self) -> u64 {
            self as u64
        }
    }

    /// A stand-in instruction set: `OP n` is the word of byte n; anything else fails at the
    /// column of its first character that is not `OP ` or a digit.
    fn op(text: &str) -> InstructionResult {
        let bad = |k: usize| Err((k + 1, format!("not an OP: `{text}`")));
        let Some(n) = text.strip_prefix("OP ") else {
            return bad(0);
        };
        match n.parse::<u8>() {
            Ok(n) => {
                let mut w = [0u8; INST_NBYTES];
                w[0] = n;
                Ok(w)
            }
            Err(_) => bad(3),
        }
    }

    fn errors(text: &str) -> Vec<String> {
        read::<Engine>(text, op)
            .unwrap_err()
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    fn hex(byte: u8) -> String {
        format!("{byte:02x}{}", "0".repeat(126))
    }

    #[test]
    fn lines_comments_annotations_and_raw_words() {
        let text = format!(
            "# a program\n\nOP 1\n  OP 2 @dve   # on DVE\n.engine Pool\nOP 3\nOP 4 @DVE\n.word 0x{} @dve\n.word 0x{}\n",
            hex(0xab),
            hex(0xcd)
        );
        let program = read::<Engine>(&text, op).unwrap();
        let seen: Vec<(usize, u8, Option<Engine>)> = program
            .statements
            .iter()
            .map(|s| (s.line, s.word[0], s.engine))
            .collect();
        use Engine::{Dve, Pool};
        assert_eq!(
            seen,
            [
                (3, 1, None),
                (4, 2, Some(Dve)),
                (6, 3, Some(Pool)),
                (7, 4, Some(Dve)),
                (8, 0xab, Some(Dve)),
                (9, 0xcd, Some(Pool)),
            ]
        );
        assert_eq!(program.bytes().len(), 6 * INST_NBYTES);
        assert_eq!(program.bytes()[5 * INST_NBYTES], 0xcd);
        assert_eq!(read::<Engine>("", op), Ok(Program::default()));
    }

    #[test]
    fn every_error_of_the_text_with_its_line_and_column() {
        let text = format!(
            "OP 1\nOP x\n  OP 2 @gpu\n.engine\n.engine pe\n.engine dve extra\n.wrd 0x00\n.word\n.word 00\n.word 0x{}\n.word 0x{}ff\n.word 0x{} more\n\u{e9}  @dve\nOP 3 @\n.word 0x{}",
            "0".repeat(127) + "g",
            hex(0),
            hex(0),
            "1".repeat(126),
        );
        assert_eq!(
            errors(&text),
            [
                "2:4: not an OP: `OP x`",
                "3:8: unknown engine `gpu`; the engines are pool, dve",
                "4:8: .engine needs an engine: pool, dve",
                "5:9: unknown engine `pe`; the engines are pool, dve",
                "6:13: text after the engine of .engine",
                "7:1: unknown directive `.wrd`; the directives are .word and .engine",
                "8:6: .word takes 0x and 128 hex digits (the 64 bytes in order); nothing follows",
                "9:7: .word takes 0x and 128 hex digits (the 64 bytes in order); `00` does not start with 0x",
                "10:136: `g` is not a hex digit",
                "11:7: .word takes 0x and 128 hex digits (the 64 bytes in order); this has 130",
                "12:138: text after the word of .word",
                "13:1: not an OP: `\u{e9}`",
                "14:6: an empty engine name; the engines are pool, dve",
                "15:7: .word takes 0x and 128 hex digits (the 64 bytes in order); this has 126",
            ]
        );
        // An annotation alone, and columns count characters, not bytes.
        assert_eq!(
            errors("@dve\n\u{e9}\u{e9} OP @gpu"),
            [
                "1:1: an engine annotation needs an instruction before it",
                "2:7: unknown engine `gpu`; the engines are pool, dve",
                "2:1: not an OP: `\u{e9}\u{e9} OP`",
            ]
        );
    }

    #[test]
    fn raw_words_write_and_read_back() {
        let mut word = [0u8; INST_NBYTES];
        for (k, b) in word.iter_mut().enumerate() {
            *b = (k * 37) as u8;
        }
        let mut line = String::new();
        write_raw_word(&mut line, &word).unwrap();
        assert_eq!(line.len(), ".word 0x".len() + 128);
        let program = read::<Engine>(&line, op).unwrap();
        assert_eq!(program.statements[0].word, word);
        assert_eq!(
            program.statements[0],
            Statement {
                line: 1,
                word,
                engine: None
            }
        );
    }
}
