//! Generation-independent helpers: instruction words built from a `FIELDS` table, and the
//! reference data files.
#![allow(dead_code)]

use isa_core::{FieldInfo, FieldKind};

/// Vendor name of the opcode enum; the field of that type at byte 0 is the opcode byte.
pub const OPCODE_ENUM: &str = "NEURON_ISA_TPB_OPCODE";

/// True for the opcode field of an operand struct (`header.opcode`).
pub fn is_opcode_field(f: &FieldInfo) -> bool {
    f.offset == 0 && matches!(f.kind, FieldKind::Enum { name, .. } if name == OPCODE_ENUM)
}

/// How many distinct values the field can hold in its bits (capped at 2^16: enums are bytes).
fn value_limit(f: &FieldInfo) -> u64 {
    match f.bits {
        Some((_, width)) => 1u64 << width.min(16),
        None => 1u64 << (f.size * 8).min(16),
    }
}

/// The values that are members of an enum field, in increasing order (empty for other kinds).
pub fn members(f: &FieldInfo) -> Vec<u64> {
    let FieldKind::Enum { member, .. } = f.kind else {
        return Vec::new();
    };
    (0..value_limit(f))
        .filter(|v| member(*v).is_some())
        .collect()
}

/// The smallest value of an enum field that is not a member, if the field has room for one.
pub fn first_non_member(f: &FieldInfo) -> Option<u64> {
    let FieldKind::Enum { member, .. } = f.kind else {
        return None;
    };
    (0..value_limit(f)).find(|v| member(*v).is_none())
}

fn get_le(word: &[u8; 64], offset: usize, size: usize) -> u64 {
    word[offset..offset + size.min(8)]
        .iter()
        .rev()
        .fold(0u64, |acc, b| (acc << 8) | u64::from(*b))
}

fn put_le(word: &mut [u8; 64], offset: usize, size: usize, value: u64) {
    for k in 0..size.min(8) {
        word[offset + k] = (value >> (8 * k)) as u8;
    }
}

/// Writes `value` into the field (into its bits, for a bit-field), leaving other bits alone.
pub fn put(word: &mut [u8; 64], f: &FieldInfo, value: u64) {
    match f.bits {
        Some((first, width)) => {
            let mask = ((1u64 << width) - 1) << first;
            let unit = get_le(word, f.offset, f.size);
            let unit = (unit & !mask) | ((value << first) & mask);
            put_le(word, f.offset, f.size, unit);
        }
        None => put_le(word, f.offset, f.size, value),
    }
}

/// A valid word of `opcode` built from its `FIELDS` table: the opcode byte, for every enum field a
/// member chosen by `picks`, for every other field the bytes (or bits) of `raw`, and zero in every
/// byte or bit no field covers.
pub fn build_word(fields: &[FieldInfo], opcode: u8, raw: &[u8; 64], picks: &[u8; 64]) -> [u8; 64] {
    let mut word = [0u8; 64];
    for (k, f) in fields.iter().enumerate() {
        if is_opcode_field(f) {
            put(&mut word, f, u64::from(opcode));
            continue;
        }
        match f.kind {
            FieldKind::Enum { name, .. } => {
                let m = members(f);
                assert!(!m.is_empty(), "{}: enum {name} has no member", f.path);
                let pick = usize::from(picks[k % 64].wrapping_add((k / 64) as u8));
                put(&mut word, f, m[pick % m.len()]);
            }
            _ => match f.bits {
                Some((first, _)) => put(&mut word, f, get_le(raw, f.offset, f.size) >> first),
                None => word[f.offset..f.offset + f.size]
                    .copy_from_slice(&raw[f.offset..f.offset + f.size]),
            },
        }
    }
    word
}

/// The smallest valid word of `opcode`: every enum field at its first member, all else zero.
pub fn min_word(fields: &[FieldInfo], opcode: u8) -> [u8; 64] {
    build_word(fields, opcode, &[0; 64], &[0; 64])
}

/// Per byte of the word, the bits some field covers.
pub fn coverage(fields: &[FieldInfo]) -> [u8; 64] {
    let mut used = [0u8; 64];
    for f in fields {
        match f.bits {
            Some((first, width)) => {
                for bit in u32::from(first)..u32::from(first) + u32::from(width) {
                    used[f.offset + (bit / 8) as usize] |= 1 << (bit % 8);
                }
            }
            None => used[f.offset..f.offset + f.size].fill(0xff),
        }
    }
    used
}

/// One row of `headers/probe/expected_layout.txt` with what the generated `raw` module says
/// (`raw_offset`, `raw_size`: `offset_of!` and `size_of`, built by `build.rs`).
#[derive(Debug)]
pub struct Row {
    pub line: u32,
    pub strukt: &'static str,
    pub field: &'static str,
    pub offset: usize,
    pub size: usize,
    pub raw_offset: usize,
    pub raw_size: usize,
}

/// `size_of` the type a closure returns (a field taken by value, a union member accessor).
pub fn size_of_ret<T, F>(_: impl Fn(T) -> F) -> usize {
    core::mem::size_of::<F>()
}

/// The layout data file.
pub const EXPECTED_LAYOUT: &str = include_str!("../../../../headers/probe/expected_layout.txt");

/// How many rows of the layout file apply to `gen` (counted here, independently of `build.rs`).
pub fn layout_rows_for(gen: &str) -> usize {
    EXPECTED_LAYOUT
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            cols.len() == 4 || cols[4].split(',').any(|g| g == gen)
        })
        .count()
}

/// One opcode of the reference table `tests/data/opcodes.tsv`, as present in one generation.
#[derive(Debug, Clone)]
pub struct RefOpcode {
    pub value: u8,
    pub name: String,
    /// `Y`, `n` or `.` (no flag).
    pub flag: char,
    /// The `class` column is `pseudo`.
    pub pseudo: bool,
}

/// The reference opcodes of `gen` (`sunda`, ...), by value.
pub fn reference_opcodes(gen: &str) -> Vec<RefOpcode> {
    let text = include_str!("../../data/opcodes.tsv");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (value, name, class, flag) = (col("value"), col("name"), col("class"), col(gen));
    let mut out: Vec<RefOpcode> = lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c[flag] != "-")
        .map(|c| RefOpcode {
            value: u8::from_str_radix(c[value].trim_start_matches("0x"), 16).unwrap(),
            name: c[name].to_string(),
            flag: c[flag].chars().next().unwrap(),
            pseudo: c[class] == "pseudo",
        })
        .collect();
    out.sort_by_key(|o| o.value);
    out
}

/// The proptest configuration: a fixed number of cases and a fixed seed (the same words on
/// every run and machine), no regression files written into the source tree.
pub fn proptest_config() -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: 256,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed_1a5e),
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// A leaf of a `FIELDS` table as data: path, offset, size, bits.
pub type Leaf = (&'static str, usize, usize, Option<(u8, u8)>);

/// A `FIELDS` table as comparable data (`FieldInfo` holds fn pointers and constants have no
/// fixed address, so tables are compared by content).
pub fn layout_of(fields: &[FieldInfo]) -> Vec<Leaf> {
    fields
        .iter()
        .map(|f| (f.path, f.offset, f.size, f.bits))
        .collect()
}
