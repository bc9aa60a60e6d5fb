//! The explain pass of the generated validators, run by a [`Violation`] when it is inspected.
//!
//! A generated crate emits one explain function per boolean spec function that a validator
//! walks into, next to the translated function itself: given the same arguments it re-evaluates
//! the function's top-level conjuncts in order and, at the first false one, either descends into
//! the callee's explain function (a conjunct that is a call) or records the failing predicate and
//! the fields it reads ([`Explain::check`]). A callee whose whole body is one predicate has no
//! explain function: its caller tests it in place ([`Explain::predicate`]). Every explain function
//! returns the same `bool` as its spec function, so the walk follows exactly the path the verdict
//! took. The path is built deepest step first (each function adds its own name after its
//! callee's steps, [`Explain::leave`]) and reversed at the end.
//!
//! Field names are static: an explain function reads the names of what it may report from a
//! *frame*, a `&'static [Reported]` its caller passes, with one entry per value a predicate reads
//! (named relative to the operand struct, `src_mem_pattern.num_elem[0]`, however many parameters
//! it went through), each predicate's entries contiguous, and a slice of it for each callee. The
//! values come from the instruction word ([`Source::Word`]) or from an argument of `validate`
//! ([`Source::Arg`], the engine).
//!
//! [`Violation`]: crate::Violation

use crate::predicate::{
    FieldSpec, MemoryMap, Note, PredicatePath, Relation, Shown, Spaces, MAX_FIELDS, MAX_PATH,
};
use crate::INST_NBYTES;
use core::ops::Range;

/// Most arguments besides the instruction (the engine) a traced violation keeps.
pub const MAX_ARGS: usize = 2;

/// Where the value of a [`Reported`] field comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Nothing to report: the parameter was bound to a constant or a computed value.
    Unnamed,
    /// An argument of `validate` besides the instruction (the engine), by position.
    Arg(u8),
    /// A field of the 64-byte word: byte offset, size in bytes (of the storage unit for a
    /// bit-field), bit range inside the little-endian unit, and whether it is sign-extended.
    Word {
        /// Byte offset in the word.
        offset: u8,
        /// Size in bytes (at most 8 are read).
        size: u8,
        /// For a bit-field: (first bit, width).
        bits: Option<(u8, u8)>,
        /// Sign-extend the value.
        signed: bool,
    },
}

/// One entry of an explain frame: a name a violation may report, and where its value is.
#[derive(Clone, Copy, Debug)]
pub struct Reported {
    /// The name (relative to the operand struct, or `engine`) and, for an enum, its member names.
    pub field: FieldSpec,
    /// Where the value comes from.
    pub source: Source,
}

impl Reported {
    /// An entry that reports nothing (a parameter bound to a constant).
    pub const NONE: Reported = Reported {
        field: FieldSpec::named(""),
        source: Source::Unnamed,
    };

    /// The unsigned field `name` of `size` bytes at byte `offset` of the word.
    pub const fn word(name: &'static str, offset: u8, size: u8) -> Reported {
        Reported {
            field: FieldSpec::named(name),
            source: Source::Word {
                offset,
                size,
                bits: None,
                signed: false,
            },
        }
    }

    /// Argument `k` of `validate` (after the instruction), reported as `name`.
    pub const fn arg(name: &'static str, k: u8) -> Reported {
        Reported {
            field: FieldSpec::named(name),
            source: Source::Arg(k),
        }
    }

    /// The same entry for a bit-field: bits `first..first + width` of the unit.
    pub const fn bits(mut self, first: u8, width: u8) -> Reported {
        if let Source::Word {
            offset,
            size,
            signed,
            ..
        } = self.source
        {
            self.source = Source::Word {
                offset,
                size,
                bits: Some((first, width)),
                signed,
            };
        }
        self
    }

    /// The same entry, sign-extended.
    pub const fn signed(mut self) -> Reported {
        if let Source::Word {
            offset, size, bits, ..
        } = self.source
        {
            self.source = Source::Word {
                offset,
                size,
                bits,
                signed: true,
            };
        }
        self
    }

    /// The same entry for an enum: `member` names a value.
    pub const fn member(mut self, member: fn(u64) -> Option<&'static str>) -> Reported {
        self.field.member = Some(member);
        self
    }

    /// The same entry, written in hexadecimal (an address).
    pub const fn hex(mut self) -> Reported {
        self.field.shown = Shown::Hex;
        self
    }

    /// The same entry, written as the fp32 value of its low 32 bits (an fp32 immediate).
    pub const fn fp32(mut self) -> Reported {
        self.field.shown = Shown::Fp32;
        self
    }

    /// True when the entry names a value.
    fn is_named(&self) -> bool {
        !matches!(self.source, Source::Unnamed) && !self.field.name.is_empty()
    }

    fn value(&self, word: &[u8; INST_NBYTES], args: &[i64; MAX_ARGS]) -> Option<i64> {
        match self.source {
            Source::Unnamed => None,
            Source::Arg(k) => args.get(usize::from(k)).copied(),
            Source::Word {
                offset,
                size,
                bits,
                signed,
            } => {
                let start = usize::from(offset).min(INST_NBYTES);
                let end = (start + usize::from(size).min(8)).min(INST_NBYTES);
                let unit = crate::le::get_uint(&word[start..end]);
                let (raw, width) = match bits {
                    Some((first, width)) => (
                        crate::le::extract_bits(unit, u32::from(first), u32::from(width)),
                        u32::from(width),
                    ),
                    None => (unit, (end - start) as u32 * 8),
                };
                Some(if signed && width > 0 && width < 64 {
                    let shift = 64 - width;
                    ((raw << shift) as i64) >> shift
                } else {
                    raw as i64
                })
            }
        }
    }
}

/// The state of one explain walk: the word and arguments it explains, and the path and fields
/// found so far. Generated explain functions drive it; [`crate::Violation`] runs them.
#[derive(Clone, Copy, Debug)]
pub struct Explain {
    word: [u8; INST_NBYTES],
    args: [i64; MAX_ARGS],
    /// Deepest step first while walking.
    steps: [&'static str; MAX_PATH],
    depth: usize,
    fields: [Option<(&'static FieldSpec, i64)>; MAX_FIELDS],
    truncated: bool,
    note: Option<Note>,
}

impl Explain {
    pub(crate) fn new(word: [u8; INST_NBYTES], args: [i64; MAX_ARGS]) -> Self {
        Explain {
            word,
            args,
            steps: [""; MAX_PATH],
            depth: 0,
            fields: [None; MAX_FIELDS],
            truncated: false,
            note: None,
        }
    }

    /// The instruction word being explained.
    pub fn word(&self) -> &[u8; INST_NBYTES] {
        &self.word
    }

    /// Argument `k` of `validate` besides the instruction (0 when absent).
    pub fn arg(&self, k: usize) -> i64 {
        self.args.get(k).copied().unwrap_or(0)
    }

    /// A conjunct of a function walked conjunct by conjunct: when `holds` is false, records the
    /// values of `frame[reads]` (the conjunct's slice of the function's frame) and the
    /// conjunct's source text as the deepest step. Returns `holds`.
    ///
    /// The frame and the range come separately, so that a generated check is a call with
    /// constant arguments: sliced at each call site, the checks of an operand struct were a
    /// call each for a debug build to lower (passing the range makes each added operand struct
    /// cheaper to compile).
    pub fn check(
        &mut self,
        holds: bool,
        frame: &'static [Reported],
        reads: Range<usize>,
        text: &'static str,
    ) -> bool {
        if !holds {
            self.failed(frame, reads, text);
        }
        holds
    }

    /// [`Explain::check`] of a comparison whose one side is the plain read `frame[subject]`
    /// and whose other side computed `bound`: when it fails and the subject is the only named
    /// value it read, the violation also states the bound ([`Note::Bound`]), so that
    /// `(n <= max)` reads `num_active_channels = 129, at most 128`.
    #[allow(clippy::too_many_arguments)]
    pub fn check_bound(
        &mut self,
        holds: bool,
        frame: &'static [Reported],
        reads: Range<usize>,
        text: &'static str,
        subject: usize,
        relation: Relation,
        bound: i64,
    ) -> bool {
        if !holds {
            self.failed(frame, reads.clone(), text);
            let start = reads.start;
            let others_unnamed = frame
                .get(reads)
                .unwrap_or_default()
                .iter()
                .enumerate()
                .all(|(k, r)| start + k == subject || !r.is_named());
            if let Some(s) = frame.get(subject).filter(|s| s.is_named()) {
                if others_unnamed && self.note.is_none() {
                    self.note = Some(Note::Bound {
                        field: s.field.name,
                        relation,
                        bound,
                    });
                }
            }
        }
        holds
    }

    /// After a failed start-address predicate of an operand the validator allows in `allowed`:
    /// when the immediate `address` lies in a memory of `map` the operand may not use, records
    /// [`Note::Space`] (`SBUF only: start address 0x2000000 is in PSUM`). Returns `false`, the
    /// verdict it follows.
    pub fn space(&mut self, address: u32, allowed: Spaces, map: &MemoryMap) -> bool {
        let found = map.space_of(address);
        let refused = match found {
            Some(crate::predicate::Space::Sbuf) => !allowed.sbuf,
            Some(crate::predicate::Space::Psum) => !allowed.psum,
            None => false,
        };
        if let (true, Some(found), None) = (refused, found, self.note) {
            self.note = Some(Note::Space {
                allowed,
                address,
                found,
            });
        }
        false
    }

    /// A function whose whole body is one predicate, tested where it is called: when `holds` is
    /// false, records the values of `frame[reads]` (its frame) and adds `name` to the path.
    /// Returns `holds`.
    pub fn predicate(
        &mut self,
        name: &'static str,
        holds: bool,
        frame: &'static [Reported],
        reads: Range<usize>,
    ) -> bool {
        if !holds {
            self.failed(frame, reads, name);
        }
        holds
    }

    /// A failed check or predicate: the values of `frame[reads]`, and `step` on the path.
    fn failed(&mut self, frame: &'static [Reported], reads: Range<usize>, step: &'static str) {
        self.record(frame.get(reads).unwrap_or_default());
        self.step(step);
    }

    /// Leaves function `name`: when `holds` is false, adds `name` to the path (after the steps
    /// its callees added). Returns `holds`.
    pub fn leave(&mut self, name: &'static str, holds: bool) -> bool {
        if !holds {
            self.step(name);
        }
        holds
    }

    fn step(&mut self, s: &'static str) {
        if self.depth < MAX_PATH {
            self.steps[self.depth] = s;
            self.depth += 1;
        } else {
            // Keep the outermost steps: drop the deepest one.
            self.steps.copy_within(1.., 0);
            self.steps[MAX_PATH - 1] = s;
        }
    }

    fn record(&mut self, reads: &'static [Reported]) {
        for r in reads {
            let Some(value) = r.value(&self.word, &self.args) else {
                continue;
            };
            if r.field.name.is_empty() {
                continue;
            }
            let count = self.fields.iter().flatten().count();
            if self.fields[..count]
                .iter()
                .flatten()
                .any(|(f, _)| f.name == r.field.name)
            {
                continue;
            }
            if count == MAX_FIELDS {
                self.truncated = true;
                continue;
            }
            self.fields[count] = Some((&r.field, value));
        }
    }

    /// The path, top-level validator first.
    pub(crate) fn path(&self) -> PredicatePath {
        let mut steps = [""; MAX_PATH];
        for (k, s) in self.steps[..self.depth].iter().rev().enumerate() {
            steps[k] = s;
        }
        PredicatePath::new(steps, self.depth)
    }

    pub(crate) fn fields(&self) -> [Option<(&'static FieldSpec, i64)>; MAX_FIELDS] {
        self.fields
    }

    pub(crate) fn truncated(&self) -> bool {
        self.truncated
    }

    pub(crate) fn note(&self) -> Option<Note> {
        self.note
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::Violation;
    use std::string::ToString;

    fn algo_name(v: u64) -> Option<&'static str> {
        (v == 3).then_some("XORWOW")
    }

    /// A frame the way a generated crate lays one out: what `outer` reads, then `inner`'s frame.
    static FRAME: [Reported; 7] = [
        Reported::word("rand_algorithm", 12, 1).member(algo_name),
        Reported::arg("engine", 0),
        Reported::word("src_mem_pattern.num_elem[0]", 20, 2),
        Reported::NONE,
        Reported::word("src_mem_pattern.num_elem[0]", 20, 2),
        Reported::word("src_mem_pattern.step_elem[0]", 18, 2).signed(),
        Reported::word("src_mem_pattern.start_addr.addr_reg.marker", 24, 1)
            .bits(5, 3)
            .hex(),
    ];

    fn inner(x: &mut Explain, n: &'static [Reported], count: u16) -> bool {
        let ok = x.check(true, n, 0..0, "(t.num_elem[1] != 0)")
            && x.check(count == 7, n, 0..5, "(t.num_elem[0] == 7)");
        x.leave("inner", ok)
    }

    fn outer(x: &mut Explain) {
        let w = *x.word();
        let count = u16::from_le_bytes([w[20], w[21]]);
        let ok =
            x.predicate("algorithm_set", w[12] != 0, &FRAME, 0..1) && inner(x, &FRAME[2..7], count);
        x.leave("outer", ok);
    }

    fn word(algo: u8, count: u16) -> [u8; 64] {
        let mut w = [0u8; 64];
        w[12] = algo;
        w[18..20].copy_from_slice(&(-2i16).to_le_bytes());
        w[24] = 0b1010_0011;
        w[20..22].copy_from_slice(&count.to_le_bytes());
        w
    }

    #[test]
    fn the_walk_is_built_deepest_first_and_reported_top_down() {
        let v = Violation::traced(word(3, 5), &[2], outer);
        assert_eq!(v.path(), ["outer", "inner", "(t.num_elem[0] == 7)"]);
        assert_eq!(v.predicate(), "(t.num_elem[0] == 7)");
        // Frame entries are relative to the callee's slice; NONE reports nothing.
        let fields: std::vec::Vec<_> = v.fields().map(|f| (f.name, f.value)).collect();
        assert_eq!(
            fields,
            [
                ("src_mem_pattern.num_elem[0]", 5),
                ("src_mem_pattern.step_elem[0]", -2),
                ("src_mem_pattern.start_addr.addr_reg.marker", 0b101),
            ]
        );
        assert_eq!(
            v.to_string(),
            "inst failed assertion check: '(t.num_elem[0] == 7)' (outer -> inner -> (t.num_elem[0] == 7)); \
             src_mem_pattern.num_elem[0] = 5, src_mem_pattern.step_elem[0] = -2, \
             src_mem_pattern.start_addr.addr_reg.marker = 0x5"
        );
        // The same word explains the same way every time; another word does not compare equal.
        assert_eq!(v, Violation::traced(word(3, 5), &[2], outer));
        assert_ne!(v, Violation::traced(word(3, 6), &[2], outer));
    }

    #[test]
    fn a_whole_body_predicate_adds_its_name_and_arguments_are_values() {
        let v = Violation::traced(word(0, 7), &[2], outer);
        assert_eq!(v.path(), ["outer", "algorithm_set"]);
        assert_eq!(v.value_of("rand_algorithm"), Some(0));
        assert_eq!(v.fields().next().and_then(|f| f.member), None);
        let v = Violation::traced(word(3, 7), &[2], outer);
        assert!(v.path().is_empty(), "a word the walk accepts has no path");
        static ARGS: [Reported; 1] = [Reported::arg("engine", 0)];
        fn engine(x: &mut Explain) {
            x.predicate("engine_check", false, &ARGS, 0..ARGS.len());
        }
        let v = Violation::traced([0; 64], &[-3], engine);
        assert_eq!(v.value_of("engine"), Some(-3));
    }

    /// A lane count against a bound the caller passes as a constant (frame entry `NONE`), and
    /// the same check where the bound is a field too (no note: both values are shown).
    static BOUNDED: [Reported; 4] = [
        Reported::word("num_active_channels", 34, 1),
        Reported::NONE,
        Reported::word("num_active_channels", 34, 1),
        Reported::word("limit", 35, 1),
    ];

    fn lanes(x: &mut Explain) {
        let w = *x.word();
        let (n, max) = (i64::from(w[34]), 128);
        let ok = x.check_bound(
            n <= max,
            &BOUNDED,
            0..2,
            "(n <= max)",
            0,
            Relation::AtMost,
            max,
        ) && x.check_bound(
            n <= i64::from(w[35]),
            &BOUNDED,
            2..4,
            "(n <= limit)",
            2,
            Relation::AtMost,
            i64::from(w[35]),
        );
        x.leave("lanes", ok);
    }

    #[test]
    fn a_broken_bound_is_stated_after_its_field() {
        let mut w = [0u8; 64];
        w[34] = 129;
        w[35] = 255;
        let v = Violation::traced(w, &[], lanes);
        assert_eq!(
            v.note(),
            Some(Note::Bound {
                field: "num_active_channels",
                relation: Relation::AtMost,
                bound: 128
            })
        );
        assert!(
            v.to_string()
                .ends_with("; num_active_channels = 129, at most 128"),
            "{v}"
        );
        w[34] = 100;
        w[35] = 99;
        let v = Violation::traced(w, &[], lanes);
        assert_eq!(v.note(), None, "the bound is a field: both are reported");
        assert!(v
            .to_string()
            .ends_with("; num_active_channels = 100, limit = 99"));
    }

    #[test]
    fn a_start_address_in_a_refused_memory_names_both() {
        static MAP: MemoryMap = MemoryMap {
            sbuf: (0, 0x200_0000),
            psum: (0x200_0000, 0x40_0000),
        };
        static ADDR: [Reported; 1] = [Reported::word("start_addr.addr_immediate", 0, 4).hex()];
        fn sbuf_only(x: &mut Explain) {
            let a = u32::from_le_bytes([x.word()[0], x.word()[1], x.word()[2], x.word()[3]]);
            let sbuf_only = Spaces {
                sbuf: true,
                psum: false,
            };
            let ok = x.predicate("tensor_start_addr_valid", a < 0x200_0000, &ADDR, 0..1)
                || x.space(a, sbuf_only, &MAP);
            x.leave("tensor1d_valid", ok);
        }
        let mut w = [0u8; 64];
        w[..4].copy_from_slice(&0x200_0000u32.to_le_bytes());
        let v = Violation::traced(w, &[], sbuf_only);
        assert_eq!(
            v.to_string(),
            "inst failed assertion check: 'tensor_start_addr_valid' (tensor1d_valid -> \
             tensor_start_addr_valid); start_addr.addr_immediate = 0x2000000; SBUF only: start \
             address 0x2000000 is in PSUM"
        );
        // Outside both memories: the predicate fails for another reason, and no space is named.
        w[..4].copy_from_slice(&0x300_0000u32.to_le_bytes());
        assert_eq!(Violation::traced(w, &[], sbuf_only).note(), None);
    }

    #[test]
    fn fields_beyond_the_capacity_are_counted_not_shown() {
        static MANY: [Reported; 12] = {
            let mut out = [Reported::NONE; 12];
            let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
            let mut k = 0;
            while k < 12 {
                out[k] = Reported::word(names[k], k as u8, 1);
                k += 1;
            }
            out
        };
        fn many(x: &mut Explain) {
            x.predicate("many", false, &MANY, 0..MANY.len());
        }
        let v = Violation::traced([1; 64], &[], many);
        assert_eq!(v.fields().count(), crate::MAX_FIELDS);
        assert!(v.is_truncated());
        assert!(v.to_string().ends_with(" [more fields not shown]"));
    }

    #[test]
    fn a_path_deeper_than_the_capacity_keeps_its_outer_steps() {
        fn deep(x: &mut Explain, level: usize) -> bool {
            let ok = if level == 12 {
                x.check(false, &[], 0..0, "deepest")
            } else {
                deep(x, level + 1)
            };
            x.leave(
                [
                    "l0", "l1", "l2", "l3", "l4", "l5", "l6", "l7", "l8", "l9", "l10", "l11", "l12",
                ][level],
                ok,
            )
        }
        fn walk(x: &mut Explain) {
            deep(x, 0);
        }
        let v = Violation::traced([0; 64], &[], walk);
        assert_eq!(v.path().len(), MAX_PATH);
        assert_eq!(v.path()[0], "l0");
        assert_eq!(v.path()[MAX_PATH - 1], "l7");
    }
}
