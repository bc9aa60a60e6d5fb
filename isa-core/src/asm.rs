//! Reads the one-line disassembly ([`crate::disasm`]) back into the 64-byte word it stands for.
//!
//! One parser for every generation and every operand struct: it walks the opcode's `FIELDS`
//! table ([`FieldInfo`]) by the field paths the line spells (`dst_mem_pattern={num_elem=[4]}`
//! is the leaf `dst_mem_pattern.num_elem[0]`), writes each value into an all-zero word, and
//! leaves the typed decode to the generated crate. The rules are those of the format
//! ([`crate::disasm`], "Reading it back").

use crate::{FieldInfo, FieldKind, Instruction64, Isa, OpcodeInfo, VendorEnum, INST_NBYTES};
use core::fmt;

/// Most `name=value` entries one line holds (every level counted): more than any 64-byte
/// struct has fields, so only a line with duplicates or nonsense reaches it.
const MAX_ENTRIES: usize = 96;
/// Largest edit distance at which an unknown name gets a suggestion.
const NEAR: usize = 3;

/// A piece of the parsed line, quoted in an error (the error owns it: no allocation).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Quoted(crate::kept::KeptText);

impl Quoted {
    fn new(s: &str) -> Self {
        Quoted(crate::kept::KeptText::new(s))
    }

    /// The quoted text (cut at its first 40 bytes, at a character boundary).
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Display for Quoted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cut = self.0.is_cut();
        if self.as_str().is_empty() && !cut {
            return f.write_str("the end of the line");
        }
        write!(f, "`{}{}`", self.as_str(), if cut { "..." } else { "" })
    }
}

impl fmt::Debug for Quoted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// A leaf field of a `FIELDS` table, named in an error (compared by its path and offset).
#[derive(Clone, Copy)]
pub struct Leaf(&'static FieldInfo);

impl Leaf {
    /// The field.
    pub fn info(&self) -> &'static FieldInfo {
        self.0
    }
}

impl PartialEq for Leaf {
    fn eq(&self, other: &Self) -> bool {
        self.0.path == other.0.path && self.0.offset == other.0.offset
    }
}
impl Eq for Leaf {}

impl fmt::Debug for Leaf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0.path, f)
    }
}

/// The fields one level of a line may name: the leaves under `prefix` (`""` at the top).
#[derive(Clone, Copy)]
pub struct Level {
    leaves: &'static [FieldInfo],
    prefix: &'static str,
}

impl Level {
    /// The names valid at this level, in header order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        let prefix = self.prefix;
        let mut last = "";
        self.leaves
            .iter()
            .filter(|f| !is_opcode_field(f))
            .filter_map(move |f| {
                let name = next_component(f.path, prefix);
                (name != last).then(|| {
                    last = name;
                    name
                })
            })
    }
}

impl PartialEq for Level {
    fn eq(&self, other: &Self) -> bool {
        self.prefix == other.prefix && self.names().eq(other.names())
    }
}
impl Eq for Level {}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

/// What is wrong with a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AsmErrorKind {
    /// Something else was expected here.
    Expected {
        /// What was expected (`"`=` after the field name"`).
        expected: &'static str,
        /// What was found.
        found: Quoted,
    },
    /// The line names no opcode of the generation.
    UnknownOpcode {
        /// The name given.
        name: Quoted,
        /// The generation (`"MARIANA"`).
        generation: &'static str,
        /// The nearest opcode name, if one is near.
        suggestion: Option<&'static str>,
    },
    /// The opcode has no operand struct, so it has no typed form to assemble.
    UnmappedOpcode {
        /// The opcode.
        opcode: &'static str,
    },
    /// The opcode's operand shape is compiled out of this build (its feature is off).
    ShapeNotCompiled {
        /// The opcode.
        opcode: &'static str,
        /// The crate feature that compiles it in.
        feature: &'static str,
    },
    /// A typed instruction's `FromStr` was given another opcode's line.
    WrongOpcode {
        /// The opcode the type reads.
        expected: &'static str,
        /// The opcode the line names.
        found: Quoted,
    },
    /// No field of this name at this level.
    UnknownField {
        /// The name given.
        name: Quoted,
        /// The record it was looked up in: the opcode at the top, else its path.
        within: &'static str,
        /// The names valid there.
        valid: Level,
        /// The nearest valid name, if one is near.
        suggestion: Option<&'static str>,
    },
    /// The opcode field is written by the opcode name, never as a field.
    OpcodeField {
        /// Its path (`"header.opcode"`).
        path: &'static str,
    },
    /// An enum field given a name that is no member of its enum.
    UnknownMember {
        /// The field.
        field: Leaf,
        /// The name given.
        name: Quoted,
        /// The nearest member, if one is near.
        suggestion: Option<&'static str>,
    },
    /// A value that does not fit the field.
    TooWide {
        /// The field.
        field: Leaf,
        /// The value given.
        value: Quoted,
    },
    /// A value of the wrong form for the field (a name where a number goes, a bad float).
    BadValue {
        /// The field.
        field: Leaf,
        /// The form the field takes.
        expected: &'static str,
        /// What was found.
        found: Quoted,
    },
    /// More array elements than the array has.
    TooManyElements {
        /// The array's path.
        array: &'static str,
        /// Its length.
        len: usize,
    },
    /// A field named twice.
    Duplicate {
        /// Its path.
        path: &'static str,
        /// The column of the first time (1-based); the error's column is the second.
        first: usize,
    },
    /// Text after the last field (an unmatched `}` or `]`).
    Trailing {
        /// The text.
        found: Quoted,
    },
    /// More entries than any struct has fields.
    TooManyEntries,
    /// The word the text gives does not decode (not reachable through the generated tables,
    /// whose values are all members; kept so that no decode error is lost).
    Decode(crate::DecodeError),
}

/// A line that does not assemble: what is wrong and the (1-based, in characters) column where.
///
/// `Display` writes the message only, so that a caller prefixes its own place
/// (`FILE:LINE:COL: message`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsmError {
    column: usize,
    kind: AsmErrorKind,
}

impl AsmError {
    /// The 1-based column, in characters of the parsed line, where the error is.
    pub fn column(&self) -> usize {
        self.column
    }

    /// What is wrong.
    pub fn kind(&self) -> &AsmErrorKind {
        &self.kind
    }

    /// The error `kind` at byte `at` of `line`.
    fn at(line: &str, at: usize, kind: AsmErrorKind) -> Self {
        let at = at.min(line.len());
        let column = line
            .get(..at)
            .map_or(at, |head| head.chars().count())
            .saturating_add(1);
        AsmError { column, kind }
    }

    fn decode(error: crate::DecodeError) -> Self {
        AsmError {
            column: 1,
            kind: AsmErrorKind::Decode(error),
        }
    }
}

/// Writes `names` as `a, b, c`.
fn list(f: &mut fmt::Formatter<'_>, names: impl Iterator<Item = &'static str>) -> fmt::Result {
    for (k, name) in names.enumerate() {
        if k > 0 {
            f.write_str(", ")?;
        }
        f.write_str(name)?;
    }
    Ok(())
}

fn did_you_mean(f: &mut fmt::Formatter<'_>, suggestion: Option<&str>) -> fmt::Result {
    match suggestion {
        Some(s) => write!(f, " (did you mean `{s}`?)"),
        None => Ok(()),
    }
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use AsmErrorKind as E;
        match &self.kind {
            E::Expected { expected, found } => write!(f, "expected {expected}, found {found}"),
            E::UnknownOpcode {
                name,
                generation,
                suggestion,
            } => {
                write!(f, "{name} is not an opcode of {generation}")?;
                did_you_mean(f, *suggestion)
            }
            E::UnmappedOpcode { opcode } => write!(
                f,
                "opcode `{opcode}` has no operand struct in instruction_mapping.json, so it has no text form"
            ),
            E::ShapeNotCompiled { opcode, feature } => write!(
                f,
                "opcode `{opcode}` needs the crate feature `{feature}`, which this build leaves out"
            ),
            E::WrongOpcode { expected, found } => {
                write!(f, "expected a `{expected}` line, found opcode {found}")
            }
            E::UnknownField {
                name,
                within,
                valid,
                suggestion,
            } => {
                write!(f, "{name} is not a field of `{within}`")?;
                did_you_mean(f, *suggestion)?;
                f.write_str("; its fields: ")?;
                list(f, valid.names())
            }
            E::OpcodeField { path } => write!(
                f,
                "`{path}` is written by the opcode name at the start of the line, not as a field"
            ),
            E::UnknownMember {
                field,
                name,
                suggestion,
            } => {
                let (enum_name, members) = match field.0.kind {
                    FieldKind::Enum {
                        name, member_at, ..
                    } => (name, member_at),
                    _ => ("", no_members as fn(usize) -> Option<&'static str>),
                };
                write!(
                    f,
                    "{name} is not a member of {enum_name} (field `{}`)",
                    field.0.path
                )?;
                did_you_mean(f, *suggestion)?;
                f.write_str("; its members: ")?;
                list(f, (0..).map_while(members))
            }
            E::TooWide { field, value } => {
                let info = field.0;
                let width = width_of(info);
                match info.kind {
                    FieldKind::Signed => {
                        let (lo, hi) = signed_range(width);
                        write!(f, "{value} does not fit `{}` ({width}-bit signed, {lo}..={hi})", info.path)
                    }
                    FieldKind::Bytes => write!(
                        f,
                        "{value} does not fit a byte of `{}` (0..=255, or -128..=-1)",
                        info.path
                    ),
                    _ => write!(f, "{value} does not fit `{}` ({width} bits)", info.path),
                }
            }
            E::BadValue {
                field,
                expected,
                found,
            } => write!(f, "expected {expected} for `{}`, found {found}", field.0.path),
            E::TooManyElements { array, len } => write!(
                f,
                "`{array}` has {len} element{}; this is one more",
                if *len == 1 { "" } else { "s" }
            ),
            E::Duplicate { path, first } => write!(
                f,
                "`{path}` is given twice (columns {first} and {})",
                self.column
            ),
            E::Trailing { found } => write!(f, "unexpected {found} after the last field"),
            E::TooManyEntries => write!(f, "more than {MAX_ENTRIES} fields in one line"),
            E::Decode(e) => write!(f, "the word does not decode: {e}"),
        }
    }
}

impl core::error::Error for AsmError {}

fn no_members(_: usize) -> Option<&'static str> {
    None
}

/// The member of enum `E` with this vendor name, as its value: [`FieldKind::Enum`]'s `value_of`.
pub fn member_value<E: VendorEnum>(name: &str) -> Option<u64> {
    E::from_vendor_name(name).map(E::value_u64)
}

/// The vendor name of the `k`-th member of enum `E`: [`FieldKind::Enum`]'s `member_at`.
pub fn member_at<E: VendorEnum>(k: usize) -> Option<&'static str> {
    E::all().get(k).map(|e| e.vendor_name())
}

/// True for the opcode byte's field: the opcode name stands for it.
fn is_opcode_field(f: &FieldInfo) -> bool {
    f.offset == 0 && f.bits.is_none() && matches!(f.kind, FieldKind::Enum { .. })
}

/// The name after `prefix` (and its `.`) in `path`, up to the next `.` or `[`.
fn next_component<'p>(path: &'p str, prefix: &str) -> &'p str {
    let rest = if prefix.is_empty() {
        path
    } else {
        path.get(prefix.len() + 1..).unwrap_or("")
    };
    let end = rest.find(['.', '[']).unwrap_or(rest.len());
    &rest[..end]
}

/// True when `path` is `prefix` or continues it with `.` or `[`.
fn under(path: &str, prefix: &str) -> bool {
    path.starts_with(prefix)
        && matches!(path.as_bytes().get(prefix.len()), None | Some(b'.' | b'['))
}

/// A field's width in bits.
fn width_of(f: &FieldInfo) -> u32 {
    f.bits
        .map_or(f.size as u32 * 8, |(_, width)| u32::from(width))
}

fn signed_range(width: u32) -> (i128, i128) {
    let half = 1i128 << (width.clamp(1, 64) - 1);
    (-half, half - 1)
}

/// Levenshtein distance of two short ASCII names (longer ones count as far).
fn distance(a: &str, b: &str) -> usize {
    const MAX: usize = 64;
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() >= MAX || b.len() >= MAX {
        return usize::MAX;
    }
    let mut row = [0usize; MAX];
    for (j, cell) in row.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for (i, &ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(!ca.eq_ignore_ascii_case(&cb)));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The name among `names` nearest to `given`, if it is near enough to be a typo of it.
fn nearest(given: &str, names: impl Iterator<Item = &'static str>) -> Option<&'static str> {
    names
        .map(|n| (distance(given, n), n))
        .filter(|&(d, n)| d <= NEAR && d < n.len().max(given.len()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, n)| n)
}

/// Assembles `line` into the word of one of `G`'s instructions, and decodes it.
pub fn parse_instruction<G: Isa>(line: &str) -> Result<G::Instruction, AsmError> {
    parse_with(line, G::INFO.name, G::fields_of, G::decode)
}

/// Assembles `line` into the 64-byte word of one of `G`'s instructions.
pub fn assemble<G: Isa>(line: &str) -> Result<[u8; INST_NBYTES], AsmError> {
    assemble_with(line, G::INFO.name, G::fields_of, G::decode)
}

/// `FromStr` of a generation's `Instruction`: [`assemble_with`], then `decode`.
pub fn parse_with<O: OpcodeInfo, I>(
    line: &str,
    generation: &'static str,
    fields_of: impl Fn(O) -> Option<&'static [FieldInfo]>,
    decode: impl Fn(&[u8; INST_NBYTES]) -> Result<I, crate::DecodeError>,
) -> Result<I, AsmError> {
    let word = assemble_with(line, generation, fields_of, &decode)?;
    decode(&word).map_err(AsmError::decode)
}

/// Assembles `line` into a word of the generation named `generation`, whose opcodes are `O`,
/// whose operand fields `fields_of` gives, and whose decoder (asked why an opcode has no
/// fields: compiled out or not mapped) is `decode`.
pub fn assemble_with<O: OpcodeInfo, I>(
    line: &str,
    generation: &'static str,
    fields_of: impl Fn(O) -> Option<&'static [FieldInfo]>,
    decode: impl Fn(&[u8; INST_NBYTES]) -> Result<I, crate::DecodeError>,
) -> Result<[u8; INST_NBYTES], AsmError> {
    let (start, name) = opcode_name(line)?;
    let Some(op) = O::from_vendor_name(name) else {
        let names = O::all().iter().map(|op| op.vendor_name());
        return Err(AsmError::at(
            line,
            start,
            AsmErrorKind::UnknownOpcode {
                name: Quoted::new(name),
                generation,
                suggestion: nearest(name, names),
            },
        ));
    };
    let opcode = op.vendor_name();
    let Some(table) = fields_of(op) else {
        let mut probe = [0u8; INST_NBYTES];
        probe[0] = op.byte();
        let kind = match decode(&probe) {
            Err(crate::DecodeError {
                kind: crate::DecodeErrorKind::ShapeNotCompiled { feature },
                ..
            }) => AsmErrorKind::ShapeNotCompiled { opcode, feature },
            _ => AsmErrorKind::UnmappedOpcode { opcode },
        };
        return Err(AsmError::at(line, start, kind));
    };
    Parser::new(line, start + name.len(), opcode, table).instruction(op.byte())
}

/// Assembles a line of opcode `name` (byte `opcode`, operand fields `table`): what a typed
/// instruction's `FromStr` reads.
pub fn assemble_as(
    line: &str,
    name: &'static str,
    opcode: u8,
    table: &'static [FieldInfo],
) -> Result<[u8; INST_NBYTES], AsmError> {
    let (start, given) = opcode_name(line)?;
    if given != name {
        return Err(AsmError::at(
            line,
            start,
            AsmErrorKind::WrongOpcode {
                expected: name,
                found: Quoted::new(given),
            },
        ));
    }
    Parser::new(line, start + given.len(), name, table).instruction(opcode)
}

/// `FromStr` of a typed instruction: [`assemble_as`], then its decode.
pub fn parse_as<T: Instruction64>(line: &str, table: &'static [FieldInfo]) -> Result<T, AsmError> {
    let word = assemble_as(line, T::NAME, T::OPCODE, table)?;
    T::from_bytes(&word).map_err(AsmError::decode)
}

/// The opcode name at the start of `line` (after blanks): its byte offset and text.
fn opcode_name(line: &str) -> Result<(usize, &str), AsmError> {
    let start = line.len() - line.trim_start().len();
    let rest = &line[start..];
    let end = rest
        .find(|c: char| c.is_ascii_whitespace())
        .unwrap_or(rest.len());
    if end == 0 {
        return Err(AsmError::at(
            line,
            start,
            AsmErrorKind::Expected {
                expected: "an opcode name",
                found: Quoted::new(""),
            },
        ));
    }
    Ok((start, &rest[..end]))
}

/// One entry already read: the first leaf of its range, its path's length, its byte offset.
#[derive(Clone, Copy, Default)]
struct Entry {
    first: u16,
    len: u16,
    at: u32,
}

struct Parser<'a> {
    line: &'a str,
    pos: usize,
    opcode: &'static str,
    table: &'static [FieldInfo],
    word: [u8; INST_NBYTES],
    entries: [Entry; MAX_ENTRIES],
    count: usize,
}

/// Where a scalar value ends.
fn ends_value(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',' | b']' | b'}')
}

impl<'a> Parser<'a> {
    fn new(line: &'a str, pos: usize, opcode: &'static str, table: &'static [FieldInfo]) -> Self {
        Parser {
            line,
            pos,
            opcode,
            table,
            word: [0; INST_NBYTES],
            entries: [Entry::default(); MAX_ENTRIES],
            count: 0,
        }
    }

    fn instruction(mut self, opcode: u8) -> Result<[u8; INST_NBYTES], AsmError> {
        self.word[0] = opcode;
        self.fields(0, self.table.len(), "", None)?;
        Ok(self.word)
    }

    fn peek(&self) -> Option<u8> {
        self.line.as_bytes().get(self.pos).copied()
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn error(&self, at: usize, kind: AsmErrorKind) -> AsmError {
        AsmError::at(self.line, at, kind)
    }

    /// The text from `at` to where a value ends, quoted.
    fn quote_from(&self, at: usize) -> Quoted {
        let rest = self.line.get(at..).unwrap_or("");
        let end = match rest.bytes().position(ends_value) {
            // A delimiter where something else was expected is what was found.
            Some(0) => rest.chars().next().map_or(0, char::len_utf8),
            Some(end) => end,
            None => rest.len(),
        };
        Quoted::new(&rest[..end])
    }

    fn expected(&self, expected: &'static str) -> AsmError {
        self.error(
            self.pos,
            AsmErrorKind::Expected {
                expected,
                found: self.quote_from(self.pos),
            },
        )
    }

    /// `name=value` entries of the leaves `lo..hi` under `prefix`, up to `close` (or the end
    /// of the line at the top).
    fn fields(
        &mut self,
        lo: usize,
        hi: usize,
        prefix: &'static str,
        close: Option<u8>,
    ) -> Result<(), AsmError> {
        let mut first = true;
        let mut next = lo;
        loop {
            let before = self.pos;
            self.skip_blanks();
            let blank = self.pos > before;
            match (self.peek(), close) {
                (None, None) => return Ok(()),
                (None, Some(_)) => return Err(self.expected("`}`")),
                (Some(b), Some(c)) if b == c => {
                    self.pos += 1;
                    return Ok(());
                }
                (Some(b'}' | b']'), None) => {
                    return Err(self.error(
                        self.pos,
                        AsmErrorKind::Trailing {
                            found: Quoted::new(&self.line[self.pos..]),
                        },
                    ))
                }
                _ => {}
            }
            // The opcode name and the entries are one blank apart; the first in braces is not.
            if !(blank || first && close.is_some()) {
                return Err(self.expected("a blank before the next field"));
            }
            first = false;
            next = self.entry(lo, hi, prefix, next)?;
        }
    }

    /// One `name=value` entry, its name looked up from leaf `from` on; the end of its leaves.
    fn entry(
        &mut self,
        lo: usize,
        hi: usize,
        prefix: &'static str,
        from: usize,
    ) -> Result<usize, AsmError> {
        let start = self.pos;
        let rest = &self.line.as_bytes()[start..];
        let len = rest
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(self.expected("a field name"));
        }
        let name = &self.line[start..start + len];
        self.pos += len;
        if self.peek() != Some(b'=') {
            return Err(self.expected("`=` after the field name"));
        }
        self.pos += 1;
        let (path, sub_lo, sub_hi) = self.resolve(lo, hi, prefix, name, start, from)?;
        self.note(sub_lo, path, start)?;
        self.value(sub_lo, sub_hi, path)?;
        Ok(sub_hi)
    }

    /// The leaves `lo..hi` under `prefix` that `name` names: their path and range.
    fn resolve(
        &self,
        lo: usize,
        hi: usize,
        prefix: &'static str,
        name: &str,
        at: usize,
        from: usize,
    ) -> Result<(&'static str, usize, usize), AsmError> {
        let level = &self.table[lo..hi];
        let skip = if prefix.is_empty() {
            0
        } else {
            prefix.len() + 1
        };
        let first = name.as_bytes()[0];
        let names = |f: &FieldInfo| {
            f.path.as_bytes().get(skip) == Some(&first)
                && f.path
                    .get(skip..)
                    .is_some_and(|rest| rest.starts_with(name) && under(rest, name))
        };
        // The disassembly lists fields in header order: the one after the last is tried first.
        let from = from.clamp(lo, hi) - lo;
        let found = level[from..]
            .iter()
            .position(names)
            .map(|k| from + k)
            .or_else(|| level[..from].iter().position(names));
        let Some(k) = found else {
            let valid = Level {
                leaves: level,
                prefix,
            };
            return Err(self.error(
                at,
                AsmErrorKind::UnknownField {
                    name: Quoted::new(name),
                    within: if prefix.is_empty() {
                        self.opcode
                    } else {
                        prefix
                    },
                    valid,
                    suggestion: nearest(name, valid.names()),
                },
            ));
        };
        let path = &level[k].path[..skip + name.len()];
        let end = if level[k].path.len() == path.len() {
            // A leaf: the next entry of the table is another field.
            k + 1
        } else {
            level[k..]
                .iter()
                .position(|f| !under(f.path, path))
                .map_or(level.len(), |n| k + n)
        };
        if end == k + 1 && is_opcode_field(&level[k]) {
            return Err(self.error(at, AsmErrorKind::OpcodeField { path }));
        }
        Ok((path, lo + k, lo + end))
    }

    /// Records an entry; one already read for the same path is an error naming both columns.
    fn note(&mut self, first: usize, path: &'static str, at: usize) -> Result<(), AsmError> {
        let entry = Entry {
            first: first as u16,
            len: path.len() as u16,
            at: at as u32,
        };
        if let Some(e) = self.entries[..self.count]
            .iter()
            .find(|e| e.first == entry.first && e.len == entry.len)
        {
            let first = self
                .error(e.at as usize, AsmErrorKind::TooManyEntries)
                .column;
            return Err(self.error(at, AsmErrorKind::Duplicate { path, first }));
        }
        if self.count == MAX_ENTRIES {
            return Err(self.error(at, AsmErrorKind::TooManyEntries));
        }
        self.entries[self.count] = entry;
        self.count += 1;
        Ok(())
    }

    /// The value of the leaves `lo..hi` at `path`: a record, an array or a leaf.
    fn value(&mut self, lo: usize, hi: usize, path: &'static str) -> Result<(), AsmError> {
        let leaf = &self.table[lo];
        let is_leaf = hi == lo + 1 && leaf.path.len() == path.len();
        match self.peek() {
            Some(b'{') if !is_leaf && leaf.path.as_bytes()[path.len()] == b'.' => {
                self.pos += 1;
                self.fields(lo, hi, path, Some(b'}'))
            }
            Some(b'[') if is_leaf && matches!(leaf.kind, FieldKind::Bytes) => {
                self.pos += 1;
                self.bytes(leaf)
            }
            Some(b'[') if !is_leaf && leaf.path.as_bytes()[path.len()] == b'[' => {
                self.pos += 1;
                self.elements(lo, hi, path)
            }
            _ if is_leaf && !matches!(leaf.kind, FieldKind::Bytes) => self.scalar(leaf),
            _ if is_leaf => Err(self.expected("`[` (a byte array)")),
            _ if leaf.path.as_bytes()[path.len()] == b'.' => Err(self.expected("`{` (a struct)")),
            _ => Err(self.expected("`[` (an array)")),
        }
    }

    /// The elements of the array at `path` (leaves `lo..hi`), after its `[`.
    fn elements(&mut self, lo: usize, hi: usize, path: &'static str) -> Result<(), AsmError> {
        let mut at = lo;
        loop {
            self.skip_blanks();
            if self.peek() == Some(b']') && at == lo {
                self.pos += 1;
                return Ok(());
            }
            if at == hi {
                return Err(self.error(
                    self.pos,
                    AsmErrorKind::TooManyElements {
                        array: path,
                        len: self.array_len(lo, hi, path),
                    },
                ));
            }
            let leaf = self.table[at].path;
            let close = leaf[path.len()..]
                .find(']')
                .map_or(leaf.len(), |n| path.len() + n + 1);
            let element = &leaf[..close];
            let end = if close == leaf.len() {
                at + 1
            } else {
                self.table[at..hi]
                    .iter()
                    .position(|f| !under(f.path, element))
                    .map_or(hi, |n| at + n)
            };
            self.value(at, end, element)?;
            at = end;
            if self.array_closed()? {
                return Ok(());
            }
        }
    }

    /// After an array element: `]` closes the array (true), `,` announces the next element.
    fn array_closed(&mut self) -> Result<bool, AsmError> {
        self.skip_blanks();
        match self.peek() {
            Some(b']') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b',') => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(self.expected("`,` or `]`")),
        }
    }

    /// The number of elements of the array at `path` (leaves `lo..hi`).
    fn array_len(&self, lo: usize, hi: usize, path: &str) -> usize {
        let mut last = "";
        let mut n = 0;
        for f in &self.table[lo..hi] {
            let rest = &f.path[path.len()..];
            let index = &rest[..rest.find(']').unwrap_or(rest.len())];
            if index != last {
                last = index;
                n += 1;
            }
        }
        n
    }

    /// The elements of a byte array, after its `[`.
    fn bytes(&mut self, leaf: &'static FieldInfo) -> Result<(), AsmError> {
        let mut k = 0;
        loop {
            self.skip_blanks();
            if self.peek() == Some(b']') && k == 0 {
                self.pos += 1;
                return Ok(());
            }
            if k == leaf.size {
                return Err(self.error(
                    self.pos,
                    AsmErrorKind::TooManyElements {
                        array: leaf.path,
                        len: leaf.size,
                    },
                ));
            }
            let start = self.pos;
            let text = self.token();
            let value = match parse_int(text) {
                Some(Int::Negative(v)) if v <= 128 => (v as u8).wrapping_neg(),
                Some(Int::Positive(v)) if v <= 0xff => v as u8,
                Some(_) => {
                    return Err(self.error(
                        start,
                        AsmErrorKind::TooWide {
                            field: Leaf(leaf),
                            value: Quoted::new(text),
                        },
                    ))
                }
                None => {
                    return Err(self.bad(start, leaf, "a byte (decimal or 0x hex)", text));
                }
            };
            self.word[leaf.offset + k] = value;
            k += 1;
            if self.array_closed()? {
                return Ok(());
            }
        }
    }

    /// The text of a scalar value, consumed.
    fn token(&mut self) -> &'a str {
        let line: &'a str = self.line;
        let rest = &line[self.pos..];
        let end = rest.bytes().position(ends_value).unwrap_or(rest.len());
        self.pos += end;
        &rest[..end]
    }

    fn bad(
        &self,
        at: usize,
        leaf: &'static FieldInfo,
        expected: &'static str,
        text: &str,
    ) -> AsmError {
        self.error(
            at,
            AsmErrorKind::BadValue {
                field: Leaf(leaf),
                expected,
                found: if text.is_empty() {
                    self.quote_from(at)
                } else {
                    Quoted::new(text)
                },
            },
        )
    }

    /// A leaf's value.
    fn scalar(&mut self, leaf: &'static FieldInfo) -> Result<(), AsmError> {
        let start = self.pos;
        let text = self.token();
        let too_wide = |p: &Self| {
            p.error(
                start,
                AsmErrorKind::TooWide {
                    field: Leaf(leaf),
                    value: Quoted::new(text),
                },
            )
        };
        let width = width_of(leaf);
        let fits = |v: u128| width >= 128 || v >> width == 0;
        let bits: u64 = match leaf.kind {
            FieldKind::Unsigned => match parse_int(text) {
                Some(Int::Positive(v)) if fits(v) => v as u64,
                Some(Int::Positive(_) | Int::Negative(_)) => return Err(too_wide(self)),
                None => {
                    return Err(self.bad(
                        start,
                        leaf,
                        "an unsigned integer (decimal or 0x hex)",
                        text,
                    ))
                }
            },
            FieldKind::Signed => {
                let (lo, hi) = signed_range(width);
                match parse_int(text) {
                    Some(Int::Positive(v)) if text.starts_with("0x") && fits(v) => v as u64,
                    Some(Int::Positive(v)) if v as i128 <= hi && v <= u64::MAX as u128 => v as u64,
                    Some(Int::Negative(v)) if -(v as i128) >= lo => (v as u64).wrapping_neg(),
                    Some(_) => return Err(too_wide(self)),
                    None => {
                        return Err(self.bad(start, leaf, "an integer (decimal or 0x hex)", text))
                    }
                }
            }
            FieldKind::Float => match float_bits(text, leaf.size) {
                Some(Ok(bits)) => bits,
                Some(Err(())) => return Err(too_wide(self)),
                None => return Err(self.bad(start, leaf, FLOAT_FORMS, text)),
            },
            FieldKind::Enum {
                value_of,
                member_at,
                ..
            } => match value_of(text) {
                Some(v) => v,
                None => {
                    return Err(self.error(
                        start,
                        AsmErrorKind::UnknownMember {
                            field: Leaf(leaf),
                            name: Quoted::new(text),
                            suggestion: nearest(text, (0..).map_while(member_at)),
                        },
                    ));
                }
            },
            FieldKind::Union { shown, .. } => {
                if shown == crate::Shown::Fp32 && !text.starts_with("0x") {
                    match float_bits(text, leaf.size) {
                        Some(Ok(bits)) => bits,
                        Some(Err(())) => return Err(too_wide(self)),
                        None => return Err(self.bad(start, leaf, FLOAT_FORMS, text)),
                    }
                } else {
                    return match self.wide(leaf, text) {
                        Some(true) => Ok(()),
                        Some(false) => Err(too_wide(self)),
                        None => Err(self.bad(
                            start,
                            leaf,
                            "an unsigned integer (decimal or 0x hex)",
                            text,
                        )),
                    };
                }
            }
            FieldKind::Bytes => return Err(self.bad(start, leaf, "`[`", text)),
        };
        self.put(leaf, bits);
        Ok(())
    }

    /// Writes `text`, an integer of up to the field's size, into a union's bytes: `None` when
    /// it is no integer, `Some(false)` when it is too wide.
    fn wide(&mut self, leaf: &FieldInfo, text: &str) -> Option<bool> {
        let bytes = &mut self.word[leaf.offset..leaf.offset + leaf.size];
        if let Some(hex) = text.strip_prefix("0x") {
            if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            let digits = hex.trim_start_matches('0').as_bytes();
            if digits.len() > 2 * bytes.len() {
                return Some(false);
            }
            for (k, d) in digits.iter().rev().enumerate() {
                let nibble = (*d as char).to_digit(16).unwrap_or(0) as u8;
                bytes[k / 2] |= nibble << (4 * (k % 2));
            }
            return Some(true);
        }
        let v: u64 = text.parse().ok()?;
        if bytes.len() < 8 && v >> (bytes.len() * 8) != 0 {
            return Some(false);
        }
        for (k, b) in bytes.iter_mut().enumerate().take(8) {
            *b = (v >> (8 * k)) as u8;
        }
        Some(true)
    }

    /// Writes the low bits of `value` into the leaf.
    fn put(&mut self, leaf: &FieldInfo, value: u64) {
        let size = leaf.size.min(8);
        let unit = &mut self.word[leaf.offset..leaf.offset + size];
        let value = match leaf.bits {
            Some((first, width)) => {
                let mask = if width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                } << first;
                (crate::le::get_uint(unit) & !mask) | ((value << first) & mask)
            }
            None => value,
        };
        crate::le::put_uint(unit, value);
    }
}

const FLOAT_FORMS: &str =
    "a float (`-1.0`, `0.1`, `inf`, `NaN(0x7fc00001)`) or its bits (`0xbf800000`)";

/// An integer's magnitude and sign.
enum Int {
    Positive(u128),
    Negative(u128),
}

/// A decimal or `0x` hexadecimal integer, with an optional `-` (a magnitude too large for
/// `u128` saturates: too wide for any field anyway).
fn parse_int(text: &str) -> Option<Int> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (radix, digits) = match digits.strip_prefix("0x") {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    if digits.is_empty() {
        return None;
    }
    let mut magnitude: u128 = 0;
    for b in digits.bytes() {
        let d = (b as char).to_digit(radix)?;
        magnitude = magnitude
            .checked_mul(u128::from(radix))
            .and_then(|m| m.checked_add(u128::from(d)))
            .unwrap_or(u128::MAX);
    }
    Some(if negative {
        Int::Negative(magnitude)
    } else {
        Int::Positive(magnitude)
    })
}

/// The bits of a float of `size` bytes written as `text`: `None` when it is no float, `Err`
/// when bits given in hex do not fit.
fn float_bits(text: &str, size: usize) -> Option<Result<u64, ()>> {
    let bits_of = |hex: &str| {
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let digits = hex.trim_start_matches('0');
        Some(if digits.len() > 2 * size.min(8) {
            Err(())
        } else {
            Ok(u64::from_str_radix(digits, 16).unwrap_or(0))
        })
    };
    if let Some(hex) = text.strip_prefix("0x") {
        return bits_of(hex);
    }
    if let Some(hex) = text
        .strip_prefix("NaN(0x")
        .and_then(|t| t.strip_suffix(')'))
    {
        let bits = bits_of(hex)?;
        let is_nan = match bits {
            Ok(b) if size == 4 => f32::from_bits(b as u32).is_nan(),
            Ok(b) => f64::from_bits(b).is_nan(),
            Err(()) => true,
        };
        return is_nan.then_some(bits);
    }
    // A bare `NaN` does not say which NaN; the disassembly always writes the bits.
    if size == 4 {
        let v: f32 = text.parse().ok()?;
        (!v.is_nan()).then_some(Ok(u64::from(v.to_bits())))
    } else {
        let v: f64 = text.parse().ok()?;
        (!v.is_nan()).then_some(Ok(v.to_bits()))
    }
}

#[cfg(test)]
#[path = "asm_tests.rs"]
mod tests;
