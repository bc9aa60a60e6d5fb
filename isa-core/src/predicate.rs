//! What a [`Violation`] reports of the predicate that failed: the path of validator
//! functions down to it and the fields it read, with the limits of both. The explain pass
//! builds them ([`crate::explain`]); a violation carries and prints them.
//!
//! [`Violation`]: crate::Violation

use core::fmt;

/// Most field values a [`Violation`](crate::Violation) carries.
pub const MAX_FIELDS: usize = 10;

/// A field a failing predicate reads: its name, for an enum how to name a value, and how
/// its value is written.
#[derive(Clone, Copy, Debug)]
pub struct FieldSpec {
    /// Dotted path inside the operand struct (`src_mem_pattern.num_elem[0]`), or a
    /// validator argument such as `engine`.
    pub name: &'static str,
    /// For an enum field: the vendor member name of a value.
    pub member: Option<fn(u64) -> Option<&'static str>>,
    /// How the value is written (the generator decides from the field's type).
    pub shown: Shown,
}

impl FieldSpec {
    /// The field `name`, written in decimal, not an enum.
    pub const fn named(name: &'static str) -> Self {
        FieldSpec {
            name,
            member: None,
            shown: Shown::Decimal,
        }
    }
}

/// How a reported value is written in a [`Violation`](crate::Violation): what the generator
/// derives from the field's type (`isa-codegen`'s `model::shown`, the same rule as the
/// disassembly's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Shown {
    /// A count, size, index or other number: decimal (`129`, `-2`).
    #[default]
    Decimal,
    /// An address (the tensor start-address union and everything in it, or a field of the
    /// address's own C type): hexadecimal (`0x2000000`).
    Hex,
    /// An fp32 immediate (an `f32` field, or a 4-byte view of a union that holds one): the
    /// float its bits are, as [`fp32`] writes it (`-1.0`, `NaN(0x7fc00001)`).
    Fp32,
}

impl Shown {
    /// Writes `value` this way.
    pub fn write(self, out: &mut fmt::Formatter<'_>, value: i64) -> fmt::Result {
        match self {
            Shown::Decimal => write!(out, "{value}"),
            Shown::Hex => write!(out, "{value:#x}"),
            Shown::Fp32 => fp32(out, f32::from_bits(value as u32)),
        }
    }
}

/// Writes an fp32 value so that it parses back (`str::parse::<f32>`) to the same bits: Rust's
/// shortest round-trip form (`-1.0`, `0.1`, `1e-45`, `inf`); a NaN, whose payload `parse`
/// would lose, as its bits (`NaN(0x7fc00001)`).
pub fn fp32(out: &mut fmt::Formatter<'_>, value: f32) -> fmt::Result {
    if value.is_nan() {
        write!(out, "NaN({:#010x})", value.to_bits())
    } else {
        write!(out, "{value:?}")
    }
}

/// Most steps a [`Violation`](crate::Violation) path holds (deeper steps are dropped, the outermost kept).
pub const MAX_PATH: usize = 8;

/// The predicate chain of a [`Violation`](crate::Violation), top-level validator first: a small array of static
/// names that dereferences to a slice (`path.starts_with(..)`, `path.last()`, `path[0]`) and
/// compares equal to arrays and slices of `&str`.
#[derive(Clone, Copy)]
pub struct PredicatePath {
    steps: [&'static str; MAX_PATH],
    len: usize,
}

impl PredicatePath {
    pub(crate) fn new(steps: [&'static str; MAX_PATH], len: usize) -> Self {
        PredicatePath {
            steps,
            len: len.min(MAX_PATH),
        }
    }

    pub(crate) fn of(path: &'static [&'static str]) -> Self {
        let mut steps = [""; MAX_PATH];
        for (slot, s) in steps.iter_mut().zip(path) {
            *slot = s;
        }
        PredicatePath::new(steps, path.len())
    }
}

impl core::ops::Deref for PredicatePath {
    type Target = [&'static str];
    fn deref(&self) -> &[&'static str] {
        &self.steps[..self.len]
    }
}

impl<'a> IntoIterator for &'a PredicatePath {
    type Item = &'a &'static str;
    type IntoIter = core::slice::Iter<'a, &'static str>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for PredicatePath {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for PredicatePath {}

impl<const N: usize> PartialEq<[&str; N]> for PredicatePath {
    fn eq(&self, other: &[&str; N]) -> bool {
        **self == other[..]
    }
}

impl PartialEq<[&str]> for PredicatePath {
    fn eq(&self, other: &[&str]) -> bool {
        **self == *other
    }
}

impl PartialEq<&[&str]> for PredicatePath {
    fn eq(&self, other: &&[&str]) -> bool {
        **self == **other
    }
}

impl fmt::Debug for PredicatePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// How a failed comparison bounds its field: what the predicate asked of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `field <= bound`.
    AtMost,
    /// `field < bound`.
    Below,
    /// `field >= bound`.
    AtLeast,
    /// `field > bound`.
    Above,
    /// `field == bound`.
    Equal,
    /// `field != bound`.
    NotEqual,
}

impl Relation {
    /// The words before the bound: `at most`, `must be`, ...
    pub fn words(self) -> &'static str {
        match self {
            Relation::AtMost => "at most",
            Relation::Below => "below",
            Relation::AtLeast => "at least",
            Relation::Above => "above",
            Relation::Equal => "must be",
            Relation::NotEqual => "must not be",
        }
    }
}

/// One of the on-chip memories an operand's start address lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// The state buffer.
    Sbuf,
    /// The partial-sum buffer.
    Psum,
}

impl Space {
    /// `SBUF` or `PSUM`.
    pub fn name(self) -> &'static str {
        match self {
            Space::Sbuf => "SBUF",
            Space::Psum => "PSUM",
        }
    }
}

/// The memories an operand may use: the validator's `AllowedInSBUF` / `AllowedInPSUM` arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spaces {
    /// May lie in SBUF.
    pub sbuf: bool,
    /// May lie in PSUM.
    pub psum: bool,
}

impl fmt::Display for Spaces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match (self.sbuf, self.psum) {
            (true, false) => "SBUF only",
            (false, true) => "PSUM only",
            (true, true) => "SBUF or PSUM",
            (false, false) => "neither SBUF nor PSUM",
        })
    }
}

/// A generation's address map (its `STATE_BUF_*` and `PSUM_BUF_*` constants), as byte ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemoryMap {
    /// SBUF: first byte address and size in bytes.
    pub sbuf: (u32, u32),
    /// PSUM: first byte address and size in bytes (0 where the generation has none).
    pub psum: (u32, u32),
}

impl MemoryMap {
    /// The memory holding byte address `address`, if any (PSUM first: where a generation's
    /// SBUF size reaches past the PSUM base, the header's own `in_psum` wins).
    pub fn space_of(&self, address: u32) -> Option<Space> {
        let inside = |(start, size): (u32, u32)| {
            u64::from(address) >= u64::from(start)
                && u64::from(address) < u64::from(start) + u64::from(size)
        };
        if inside(self.psum) {
            Some(Space::Psum)
        } else if inside(self.sbuf) {
            Some(Space::Sbuf)
        } else {
            None
        }
    }
}

/// What a violation says beyond the failed predicate's fields, when its walk can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Note {
    /// The predicate compared one field with a bound it broke: written after the field,
    /// `num_active_channels = 129, at most 128`.
    Bound {
        /// The field's name, as in [`crate::InvolvedField::name`].
        field: &'static str,
        /// What the predicate asked.
        relation: Relation,
        /// The bound, the value the predicate computed.
        bound: i64,
    },
    /// A start address in a memory the operand may not use:
    /// `SBUF only: start address 0x2000000 is in PSUM`.
    Space {
        /// What the validator allows the operand.
        allowed: Spaces,
        /// The immediate start address.
        address: u32,
        /// The memory it lies in.
        found: Space,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::format;
    use std::string::String;

    fn fp32_text(bits: u32) -> String {
        struct Show(u32);
        impl fmt::Display for Show {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                Shown::Fp32.write(f, i64::from(self.0))
            }
        }
        format!("{}", Show(bits))
    }

    /// The bits a written fp32 value parses back to: `NaN(0x..)` by its bits, else `parse`.
    fn parse_back(text: &str) -> u32 {
        match text
            .strip_prefix("NaN(0x")
            .and_then(|t| t.strip_suffix(')'))
        {
            Some(hex) => u32::from_str_radix(hex, 16).unwrap(),
            None => text.parse::<f32>().unwrap().to_bits(),
        }
    }

    #[test]
    fn fp32_immediates_read_as_floats() {
        assert_eq!(fp32_text((-1.0f32).to_bits()), "-1.0");
        assert_eq!(fp32_text(0.1f32.to_bits()), "0.1");
        assert_eq!(fp32_text(0x3dcc_cccd), "0.1");
        assert_eq!(fp32_text(0x8000_0000), "-0.0");
        assert_eq!(fp32_text(1), "1e-45");
        assert_eq!(fp32_text(f32::INFINITY.to_bits()), "inf");
        assert_eq!(fp32_text(0x7fc0_0001), "NaN(0x7fc00001)");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// Every bit pattern, NaNs, subnormals and infinities included, parses back to itself.
        #[test]
        fn fp32_text_parses_back_to_the_same_bits(bits in any::<u32>()) {
            prop_assert_eq!(parse_back(&fp32_text(bits)), bits);
        }
    }

    #[test]
    fn values_are_written_by_kind() {
        struct Show(Shown, i64);
        impl fmt::Display for Show {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write(f, self.1)
            }
        }
        assert_eq!(format!("{}", Show(Shown::Decimal, 129)), "129");
        assert_eq!(format!("{}", Show(Shown::Decimal, -2)), "-2");
        assert_eq!(format!("{}", Show(Shown::Hex, 0x200_0000)), "0x2000000");
        assert_eq!(format!("{}", Show(Shown::Hex, 0)), "0x0");
    }

    #[test]
    fn the_memory_map_names_the_space() {
        let map = MemoryMap {
            sbuf: (0, 0x200_0000),
            psum: (0x200_0000, 0x40_0000),
        };
        assert_eq!(map.space_of(0x1ff_ffff), Some(Space::Sbuf));
        assert_eq!(map.space_of(0x200_0000), Some(Space::Psum));
        assert_eq!(map.space_of(0x240_0000), None);
        // A generation without PSUM (size 0) whose SBUF reaches past the PSUM base.
        let no_psum = MemoryMap {
            sbuf: (0, 0x800_0000),
            psum: (0x200_0000, 0),
        };
        assert_eq!(no_psum.space_of(0x200_0000), Some(Space::Sbuf));
    }
}
