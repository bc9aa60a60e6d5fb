//! The one-line disassembly the generated instructions print with `Display`.
//!
//! ```text
//! RAND_SET_STATE header={inst_word_len=16} rand_algorithm=XORWOW num_active_channels=128 update_state=SRC_TENSOR in_dtype=UINT32 src_mem_pattern={start_addr=0x100 step_elem=[1] num_elem=[6]} rand_generator=RNG_XORWOW
//! ```
//!
//! The format, for tools that grep or parse it:
//!
//! * the vendor opcode name (`RAND_SET_STATE`), then the operand fields in header (byte) order
//!   as `name=value`, separated by one space; the opcode field itself is left out (the name
//!   stands for it);
//! * **a field whose bytes are all zero is left out**, except an enum field, which always shows
//!   its member name (so `update_state=SRC_TENSOR` can be grepped even though it is value 0),
//!   and an address (`start_addr=0x0`: a start address of 0 is an address, not an unused
//!   field); a nested struct whose bytes are all zero is left out as a whole. Nothing else is
//!   left out, so the text determines the word: what is not shown is zero;
//! * values: unsigned and signed integers in decimal (`-2`); `true`/`false`; floats in Rust's
//!   shortest form that parses back to the same bits (`1.5`, `-1.0`, `0.1`), a NaN with its bits
//!   (`NaN(0x7fc00001)`); enums by vendor member name without prefix (`XORWOW`; a value outside
//!   the enum cannot be decoded, so it never shows); a union that holds an fp32 immediate
//!   (`min`, `threshold`) as that float; any other union (the start address and the like) as
//!   the hexadecimal value of its little-endian bytes (`0x100`); arrays as `[a,b,c]` (every
//!   element, no spaces); nested structs as `{name=value ...}` under the same rules. Which
//!   unions are addresses and which hold floats the generator decides from the headers' types
//!   (`isa-codegen`'s `model::shown`).
//!
//! The text is stable: it changes only when the headers do (a field renamed, added or moved).
//!
//! ## Reading it back
//!
//! [`crate::asm`] (`FromStr` of every generated instruction, `Isa::parse_instruction`) reads
//! exactly this line back into its word: word -> text -> word is the identity for every word that
//! decodes, and text -> word -> text gives the line above. What it accepts:
//!
//! * blanks (spaces, tabs) around the line and between entries; the opcode name first, then
//!   `name=value` entries in **any order**, each field at most once (a second one is an error
//!   naming both columns); inside `{..}` and `[..]` the same, with `,` between array elements
//!   and blanks allowed around them; nothing after the last entry;
//! * **a field left out is zero**, an array given fewer elements has zero in the rest; the
//!   opcode field is the opcode name, never an entry;
//! * integers in decimal or `0x` hexadecimal (up to the field's width: a signed field takes
//!   `-2` or its two's-complement bits in hex; a byte array's element `0..=255` or `-128..=-1`);
//!   a union shown in hex takes a hex number as wide as its bytes;
//! * floats (fp32 fields and unions that hold an fp32 immediate) as Rust reads them (`-1`,
//!   `-1.0`, `0.1`, `1e-45`, `inf`, `-inf`), a NaN only with its bits (`NaN(0x7fc00001)`: a bare
//!   `NaN` does not say which), or the bits themselves (`0xbf800000`);
//! * enum fields by vendor member name only (a number could name a value outside the enum).
//!
//! Every error is an [`AsmError`](crate::asm::AsmError): its 1-based column and one line saying
//! what was expected (an unknown field or member lists the valid ones and suggests the nearest).

use crate::VendorEnum;
use core::fmt::{self, Write as _};

/// How a field value shows in the disassembly, and whether it is left out.
pub trait Disasm {
    /// Shown even when zero (enums: their member name is what one greps for).
    const ALWAYS_SHOWN: bool = false;
    /// True when the value encodes as all-zero bytes.
    fn is_zero(&self) -> bool;
    /// Writes the value.
    fn disasm(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// [`Disasm::disasm`] as a trait object (`Disasm` has a constant, so it cannot be one), so
/// that [`Fields`] writes every kind of value with one function.
trait Value {
    fn write(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T: Disasm> Value for T {
    fn write(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.disasm(out)
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Disasm for $t {
            #[inline]
            fn is_zero(&self) -> bool { *self == 0 }
            #[inline]
            fn disasm(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result { fmt::Display::fmt(self, out) }
        }
    )*};
}
integers!(u8, u16, u32, u64, i8, i16, i32, i64);

impl Disasm for bool {
    fn is_zero(&self) -> bool {
        !*self
    }
    fn disasm(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, out)
    }
}

impl Disasm for f32 {
    fn is_zero(&self) -> bool {
        self.to_bits() == 0
    }
    fn disasm(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::predicate::fp32(out, *self)
    }
}

impl Disasm for f64 {
    fn is_zero(&self) -> bool {
        self.to_bits() == 0
    }
    fn disasm(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_nan() {
            write!(out, "NaN({:#018x})", self.to_bits())
        } else {
            write!(out, "{self:?}")
        }
    }
}

impl<T: VendorEnum> Disasm for T {
    const ALWAYS_SHOWN: bool = true;
    fn is_zero(&self) -> bool {
        self.value_u64() == 0
    }
    fn disasm(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(self.vendor_name())
    }
}

impl<T: Disasm, const N: usize> Disasm for [T; N] {
    const ALWAYS_SHOWN: bool = T::ALWAYS_SHOWN;
    fn is_zero(&self) -> bool {
        self.iter().all(Disasm::is_zero)
    }
    fn disasm(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_char('[')?;
        for (k, v) in self.iter().enumerate() {
            if k > 0 {
                out.write_char(',')?;
            }
            v.disasm(out)?;
        }
        out.write_char(']')
    }
}

/// Writes `name=value` entries, one space apart, leaving out what the format leaves out.
///
/// The first write error is kept and every later entry skipped (as `core::fmt::DebugStruct`
/// does), so a generated record lists its fields as plain calls: a `?` per field made every
/// record's listing a chain of branches for the compiler to check and lower.
pub struct Fields<'a, 'b> {
    out: &'a mut fmt::Formatter<'b>,
    first: bool,
    result: fmt::Result,
}

impl Fields<'_, '_> {
    /// Writes ` name=value` (no space before the first entry inside braces) unless `value`
    /// is zero and not [`Disasm::ALWAYS_SHOWN`].
    #[inline]
    pub fn field<T: Disasm>(&mut self, name: &str, value: &T) -> &mut Self {
        if self.result.is_ok() && (T::ALWAYS_SHOWN || !value.is_zero()) {
            self.result = self.entry(name, value);
        }
        self
    }

    fn entry(&mut self, name: &str, value: &dyn Value) -> fmt::Result {
        if !self.first {
            self.out.write_char(' ')?;
        }
        self.first = false;
        self.out.write_str(name)?;
        self.out.write_char('=')?;
        value.write(self.out)
    }
}

/// A record whose fields the disassembly lists: written by [`record_disasm!`](crate::record_disasm).
pub trait DisasmFields {
    /// Writes the fields as `name=value` entries, in header order.
    fn disasm_fields(&self, w: &mut Fields<'_, '_>);
}

/// Writes the entries of `fields` to `out`.
fn entries(out: &mut fmt::Formatter<'_>, first: bool, fields: &dyn DisasmFields) -> fmt::Result {
    let mut w = Fields {
        out,
        first,
        result: Ok(()),
    };
    fields.disasm_fields(&mut w);
    w.result
}

/// Writes a nested struct: `{` entries `}`.
pub fn record(out: &mut fmt::Formatter<'_>, fields: &dyn DisasmFields) -> fmt::Result {
    out.write_char('{')?;
    entries(out, true, fields)?;
    out.write_char('}')
}

/// Writes an instruction: its vendor opcode name, then ` name=value` entries.
pub fn instruction(
    out: &mut fmt::Formatter<'_>,
    name: &str,
    fields: &dyn DisasmFields,
) -> fmt::Result {
    out.write_str(name)?;
    entries(out, false, fields)
}

/// Writes the 4 little-endian `bytes` of a union that holds an fp32 immediate as that float
/// (`-1.0`, `NaN(0x7fc00001)`): what [`f32`]'s [`Disasm`] writes, so it parses back to the bits.
pub fn le_fp32(out: &mut fmt::Formatter<'_>, bytes: &[u8; 4]) -> fmt::Result {
    crate::predicate::fp32(out, f32::from_le_bytes(*bytes))
}

/// Writes little-endian `bytes` (a union) as one hexadecimal number: `0x100`, `0x0`.
pub fn le_hex(out: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    out.write_str("0x")?;
    let mut digits = bytes.iter().rev().skip_while(|b| **b == 0);
    match digits.next() {
        None => out.write_char('0'),
        Some(top) => {
            write!(out, "{top:x}")?;
            digits.try_for_each(|b| write!(out, "{b:02x}"))
        }
    }
}

/// The disassembly of a generated record: its `disasm_fields` (the fields as `name=value`
/// entries, in the order listed) and its [`Disasm`] impl. A field whose vendor name is not its
/// Rust name (one renamed off a keyword, `type_`) gives the vendor name after `=`.
///
/// Generated crates invoke it once per record instead of spelling the two impls out, so that
/// a vendor tree of hundreds of records does not repeat them hundreds of times.
#[macro_export]
macro_rules! record_disasm {
    ($record:ident { $($field:ident $(= $name:literal)?),* $(,)? }) => {
        impl $crate::disasm::DisasmFields for $record {
            fn disasm_fields(&self, w: &mut $crate::disasm::Fields<'_, '_>) {
                let _ = &w;
                $( w.field($crate::__vendor_field_name!($field $(, $name)?), &self.$field); )*
            }
        }
        impl $crate::disasm::Disasm for $record {
            fn is_zero(&self) -> bool {
                true $(&& $crate::disasm::Disasm::is_zero(&self.$field))*
            }
            fn disasm(&self, out: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                $crate::disasm::record(out, self)
            }
        }
    };
}

/// The vendor name of a field in [`record_disasm!`]: the one given, else the Rust name.
#[doc(hidden)]
#[macro_export]
macro_rules! __vendor_field_name {
    ($field:ident) => {
        stringify!($field)
    };
    ($field:ident, $name:literal) => {
        $name
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use std::string::String;

    /// A value shown through a closure, for the tests.
    struct Show<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result>(F);
    impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Show<F> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            (self.0)(f)
        }
    }
    fn text(f: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result) -> String {
        format!("{}", Show(f))
    }

    #[test]
    fn values() {
        assert_eq!(text(|f| (-2i16).disasm(f)), "-2");
        assert_eq!(text(|f| 1.5f32.disasm(f)), "1.5");
        assert_eq!(
            text(|f| f32::from_bits(0x7fc0_0001).disasm(f)),
            "NaN(0x7fc00001)"
        );
        assert_eq!(text(|f| [6u16, 1, 0].disasm(f)), "[6,1,0]");
        assert_eq!(text(|f| le_hex(f, &[0x00, 0x01, 0x00, 0x00])), "0x100");
        assert_eq!(text(|f| le_hex(f, &[0x0a, 0x00])), "0xa");
        assert_eq!(text(|f| le_hex(f, &[0, 0])), "0x0");
        assert!((-0.0f32).disasm_is_shown());
        assert!(!0.0f32.disasm_is_shown());
    }

    trait Shown {
        fn disasm_is_shown(&self) -> bool;
    }
    impl<T: Disasm> Shown for T {
        fn disasm_is_shown(&self) -> bool {
            !self.is_zero() || T::ALWAYS_SHOWN
        }
    }

    /// A record of five fields for the tests, listed as the generated ones are.
    struct Five(u8, u32, [i16; 4], bool, bool);
    impl DisasmFields for Five {
        fn disasm_fields(&self, w: &mut Fields<'_, '_>) {
            w.field("a", &self.0)
                .field("b", &self.1)
                .field("c", &self.2)
                .field("d", &self.3)
                .field("e", &self.4);
        }
    }
    struct Pair(u8, [u16; 1]);
    impl DisasmFields for Pair {
        fn disasm_fields(&self, w: &mut Fields<'_, '_>) {
            w.field("x", &self.0).field("y", &self.1);
        }
    }
    struct Empty;
    impl DisasmFields for Empty {
        fn disasm_fields(&self, _: &mut Fields<'_, '_>) {}
    }

    #[test]
    fn zero_fields_are_left_out() {
        let t = text(|f| instruction(f, "OP", &Five(0, 3, [0; 4], true, false)));
        assert_eq!(t, "OP b=3 d=true");
        assert_eq!(text(|f| record(f, &Pair(0, [1]))), "{y=[1]}");
        assert_eq!(text(|f| instruction(f, "NOP", &Empty)), "NOP");
    }

    /// A sink that fails after `room` bytes.
    struct Full {
        room: usize,
        text: String,
    }
    impl fmt::Write for Full {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            if self.text.len() + s.len() > self.room {
                return Err(fmt::Error);
            }
            self.text.push_str(s);
            Ok(())
        }
    }

    #[test]
    fn a_write_error_stops_the_listing_and_is_returned() {
        struct Show<'a>(&'a dyn DisasmFields);
        impl fmt::Display for Show<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                instruction(f, "OP", self.0)
            }
        }
        let record = Five(1, 3, [0; 4], true, false);
        let mut sink = Full {
            room: 8,
            text: String::new(),
        };
        assert!(write!(sink, "{}", Show(&record)).is_err());
        // "OP a=1" fits, " b=3" does not; nothing after the failed entry is written.
        assert_eq!(sink.text, "OP a=1 b");
    }
}
