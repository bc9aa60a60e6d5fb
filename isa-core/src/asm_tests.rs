//! Tests of the text assembly over a three-opcode test generation: every value form, every
//! error line.

use super::*;
use crate::{DecodeError, DecodeErrorKind, OpcodeStatus, Shown};
use std::string::{String, ToString};

/// A generation of three opcodes for the tests: `ALPHA` has the operand fields below,
/// `BETA` none (unmapped), `GAMMA`'s shape is compiled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Alpha = 1,
    Beta = 2,
    Gamma = 3,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Off,
    On,
    Fast,
}
macro_rules! vendor_enum {
    ($t:ident, $c:literal, $($v:ident = $n:literal),*) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.vendor_name())
            }
        }
        impl VendorEnum for $t {
            const C_NAME: &'static str = $c;
            fn all() -> &'static [Self] {
                &[$($t::$v),*]
            }
            fn vendor_name(self) -> &'static str {
                match self { $($t::$v => $n),* }
            }
            fn from_vendor_name(name: &str) -> Option<Self> {
                match name { $($n => Some($t::$v),)* _ => None }
            }
            fn value_u64(self) -> u64 {
                self as u64
            }
        }
    };
}
vendor_enum!(
    Op,
    "TEST_OPCODE",
    Alpha = "ALPHA",
    Beta = "BETA",
    Gamma = "GAMMA"
);
vendor_enum!(Mode, "TEST_MODE", Off = "OFF", On = "ON", Fast = "FAST");
impl OpcodeInfo for Op {
    fn byte(self) -> u8 {
        self as u8
    }
    fn status(self) -> OpcodeStatus {
        OpcodeStatus::Maintained
    }
    fn is_pseudo(self) -> bool {
        false
    }
    fn operand_struct(self) -> Option<&'static str> {
        None
    }
}
fn op_name(v: u64) -> Option<&'static str> {
    Op::all()
        .iter()
        .find(|o| o.value_u64() == v)
        .map(|o| o.vendor_name())
}
fn mode_name(v: u64) -> Option<&'static str> {
    Mode::all()
        .iter()
        .find(|o| o.value_u64() == v)
        .map(|o| o.vendor_name())
}
const OPCODE: FieldKind = FieldKind::Enum {
    name: "TEST_OPCODE",
    member: op_name,
    value_of: member_value::<Op>,
    member_at: member_at::<Op>,
};
const MODE: FieldKind = FieldKind::Enum {
    name: "TEST_MODE",
    member: mode_name,
    value_of: member_value::<Mode>,
    member_at: member_at::<Mode>,
};
const IMM: FieldKind = FieldKind::Union {
    name: "TEST_IMM",
    shown: Shown::Fp32,
};
const ADDR: FieldKind = FieldKind::Union {
    name: "TEST_ADDR",
    shown: Shown::Hex,
};
use FieldInfo as F;
use FieldKind as K;
static ALPHA: &[FieldInfo] = &[
    F::at("header.opcode", 0, 1, OPCODE),
    F::at("header.inst_word_len", 1, 1, K::Unsigned),
    F::at("mode", 2, 1, MODE),
    F::at("count", 4, 2, K::Unsigned),
    F::at("step[0]", 6, 2, K::Signed),
    F::at("step[1]", 8, 2, K::Signed),
    F::at("imm", 12, 4, IMM),
    F::at("pattern.start_addr", 16, 4, ADDR),
    F::at("pattern.num_elem[0]", 20, 2, K::Unsigned),
    F::at("pattern.num_elem[1]", 22, 2, K::Unsigned),
    F::at("reserved", 24, 8, K::Bytes),
    F::at("scale", 32, 4, K::Float),
    F::at("wide", 40, 16, ADDR),
    F::at("low", 56, 1, K::Unsigned).bits(0, 3),
    F::at("high", 56, 1, K::Signed).bits(3, 5),
];
fn fields_of(op: Op) -> Option<&'static [FieldInfo]> {
    (op == Op::Alpha).then_some(ALPHA)
}
fn decode(w: &[u8; INST_NBYTES]) -> Result<[u8; INST_NBYTES], DecodeError> {
    let kind = match w[0] {
        1 => return Ok(*w),
        3 => DecodeErrorKind::ShapeNotCompiled { feature: "gamma" },
        _ => DecodeErrorKind::UnmappedOpcode,
    };
    Err(DecodeError {
        field: "header.opcode",
        offset: 0,
        value: u64::from(w[0]),
        kind,
    })
}
fn asm(line: &str) -> Result<[u8; INST_NBYTES], AsmError> {
    assemble_with(line, "TEST", fields_of, decode)
}
/// The error of `line` as a caller prints it: `COL: message`.
fn error(line: &str) -> String {
    let e = asm(line).expect_err(line);
    std::format!("{}: {e}", e.column())
}

#[test]
fn every_kind_of_value_lands_in_its_bytes() {
    let w = asm(
        "ALPHA header={inst_word_len=16} mode=FAST count=0x102 step=[-2,3] imm=-1.0 \
                 pattern={start_addr=0x100 num_elem=[4,1]} reserved=[1,0,255,-1] scale=0.5 \
                 wide=0x1000000000000000000000000000002 low=5 high=-3",
    )
    .unwrap();
    let mut want = [0u8; 64];
    want[0] = 1;
    want[1] = 16;
    want[2] = 2;
    want[4..6].copy_from_slice(&0x102u16.to_le_bytes());
    want[6..8].copy_from_slice(&(-2i16).to_le_bytes());
    want[8..10].copy_from_slice(&3i16.to_le_bytes());
    want[12..16].copy_from_slice(&(-1.0f32).to_bits().to_le_bytes());
    want[16..20].copy_from_slice(&0x100u32.to_le_bytes());
    want[20..24].copy_from_slice(&[4, 0, 1, 0]);
    want[24..28].copy_from_slice(&[1, 0, 255, 255]);
    want[32..36].copy_from_slice(&0.5f32.to_bits().to_le_bytes());
    want[40] = 2;
    want[55] = 1;
    want[56] = 5 | ((-3i8 as u8) << 3);
    assert_eq!(w, want);
}

#[test]
fn order_is_free_and_what_is_left_out_is_zero() {
    let a = asm("ALPHA count=7 mode=ON").unwrap();
    let b = asm("  ALPHA mode=ON   count=7 ").unwrap();
    assert_eq!(a, b);
    assert_eq!(a[..8], [1, 0, 1, 0, 7, 0, 0, 0]);
    assert!(a[8..].iter().all(|&b| b == 0));
    assert_eq!(asm("ALPHA").unwrap()[1..], [0; 63]);
}

#[test]
fn floats_in_every_form_the_disassembly_writes() {
    let imm = |text: &str| {
        let w = asm(&std::format!("ALPHA imm={text}")).unwrap();
        u32::from_le_bytes(w[12..16].try_into().unwrap())
    };
    assert_eq!(imm("-1"), (-1.0f32).to_bits());
    assert_eq!(imm("0.1"), 0x3dcc_cccd);
    assert_eq!(imm("1e-45"), 1);
    assert_eq!(imm("-0.0"), 0x8000_0000);
    assert_eq!(imm("inf"), f32::INFINITY.to_bits());
    assert_eq!(imm("-inf"), f32::NEG_INFINITY.to_bits());
    assert_eq!(imm("NaN(0x7fc00001)"), 0x7fc0_0001);
    assert_eq!(imm("0xbf800000"), 0xbf80_0000);
    assert_eq!(
        error("ALPHA imm=NaN"),
        "11: expected a float (`-1.0`, `0.1`, `inf`, `NaN(0x7fc00001)`) or its bits (`0xbf800000`) for `imm`, found `NaN`"
    );
    assert_eq!(
        error("ALPHA scale=NaN(0x3f800000)"),
        "13: expected a float (`-1.0`, `0.1`, `inf`, `NaN(0x7fc00001)`) or its bits (`0xbf800000`) for `scale`, found `NaN(0x3f800000)`"
    );
    assert_eq!(
        error("ALPHA scale=0x1ffffffff"),
        "13: `0x1ffffffff` does not fit `scale` (32 bits)"
    );
}

#[test]
fn errors_say_where_and_what_was_expected() {
    assert_eq!(
        error(""),
        "1: expected an opcode name, found the end of the line"
    );
    assert_eq!(
        error("ALPA count=1"),
        "1: `ALPA` is not an opcode of TEST (did you mean `ALPHA`?)"
    );
    assert_eq!(error("ZZZZZZZ"), "1: `ZZZZZZZ` is not an opcode of TEST");
    assert_eq!(
        error("BETA"),
        "1: opcode `BETA` has no operand struct in instruction_mapping.json, so it has no text form"
    );
    assert_eq!(
        error(" GAMMA x=1"),
        "2: opcode `GAMMA` needs the crate feature `gamma`, which this build leaves out"
    );
    assert_eq!(
        error("ALPHA cuont=1"),
        "7: `cuont` is not a field of `ALPHA` (did you mean `count`?); its fields: header, mode, count, step, imm, pattern, reserved, scale, wide, low, high"
    );
    assert_eq!(
        error("ALPHA pattern={num_elm=[1]}"),
        "16: `num_elm` is not a field of `pattern` (did you mean `num_elem`?); its fields: start_addr, num_elem"
    );
    assert_eq!(
        error("ALPHA header={opcode=ALPHA}"),
        "15: `header.opcode` is written by the opcode name at the start of the line, not as a field"
    );
    assert_eq!(
        error("ALPHA mode=FASTT"),
        "12: `FASTT` is not a member of TEST_MODE (field `mode`) (did you mean `FAST`?); its members: OFF, ON, FAST"
    );
    assert_eq!(
        error("ALPHA count=65536"),
        "13: `65536` does not fit `count` (16 bits)"
    );
    assert_eq!(
        error("ALPHA count=-1"),
        "13: `-1` does not fit `count` (16 bits)"
    );
    assert_eq!(
        error("ALPHA step=[32768]"),
        "13: `32768` does not fit `step[0]` (16-bit signed, -32768..=32767)"
    );
    assert_eq!(error("ALPHA low=8"), "11: `8` does not fit `low` (3 bits)");
    assert_eq!(
        error("ALPHA wide=0x100000000000000000000000000000000"),
        "12: `0x100000000000000000000000000000000` does not fit `wide` (128 bits)"
    );
    assert_eq!(
        error("ALPHA reserved=[256]"),
        "17: `256` does not fit a byte of `reserved` (0..=255, or -128..=-1)"
    );
    assert_eq!(
        error("ALPHA reserved=[,1]"),
        "17: expected a byte (decimal or 0x hex) for `reserved`, found `,`"
    );
    assert_eq!(
        error("ALPHA cou\tnt=1"),
        "10: expected `=` after the field name, found `\t`"
    );
    assert_eq!(
        error("ALPHA count=ten"),
        "13: expected an unsigned integer (decimal or 0x hex) for `count`, found `ten`"
    );
    assert_eq!(
        error("ALPHA count=1 mode=ON count=2"),
        "23: `count` is given twice (columns 7 and 23)"
    );
    assert_eq!(
        error("ALPHA pattern={start_addr=0x1} pattern={num_elem=[2]}"),
        "32: `pattern` is given twice (columns 7 and 32)"
    );
    assert_eq!(
        error("ALPHA count=1 }"),
        "15: unexpected `}` after the last field"
    );
    assert_eq!(
        error("ALPHA count=1}"),
        "14: unexpected `}` after the last field"
    );
    assert_eq!(
        error("ALPHA count"),
        "12: expected `=` after the field name, found the end of the line"
    );
    assert_eq!(
        error("ALPHA pattern={start_addr=0x1"),
        "30: expected `}`, found the end of the line"
    );
    assert_eq!(
        error("ALPHA pattern=5"),
        "15: expected `{` (a struct), found `5`"
    );
    assert_eq!(
        error("ALPHA step=5"),
        "12: expected `[` (an array), found `5`"
    );
    assert_eq!(
        error("ALPHA reserved=5"),
        "16: expected `[` (a byte array), found `5`"
    );
    assert_eq!(
        error("ALPHA step=[1,2,3]"),
        "17: `step` has 2 elements; this is one more"
    );
    assert_eq!(
        error("ALPHA step=[1;2]"),
        "13: expected an integer (decimal or 0x hex) for `step[0]`, found `1;2`"
    );
    assert_eq!(
        error("ALPHA step=[1 2]"),
        "15: expected `,` or `]`, found `2`"
    );
    assert_eq!(error("ALPHA =1"), "7: expected a field name, found `=1`");
    assert_eq!(
        error("ALPHA\u{e9} x=1"),
        "1: `ALPHA\u{e9}` is not an opcode of TEST (did you mean `ALPHA`?)"
    );
    // Columns count characters, not bytes.
    assert_eq!(
        error("ALPHA count=\u{e9}\u{e9} mode=X"),
        "13: expected an unsigned integer (decimal or 0x hex) for `count`, found `\u{e9}\u{e9}`"
    );
    assert_eq!(asm("ALPHA count=\u{e9} mode=X").unwrap_err().column(), 13);
    assert_eq!(
        asm("ALPHA mode=\u{e9}\u{e9} count=").unwrap_err().column(),
        12
    );
    assert_eq!(asm("ALPHA \u{e9}=1 count").unwrap_err().column(), 7);
    assert_eq!(
        asm("ALPHA step=[1] count=1 \u{e9}\u{e9}=1 c")
            .unwrap_err()
            .column(),
        24
    );
}

#[test]
fn a_typed_parser_names_both_opcodes() {
    let e = assemble_as("BETA count=1", "ALPHA", 1, ALPHA).unwrap_err();
    assert_eq!(e.column(), 1);
    assert_eq!(
        e.to_string(),
        "expected a `ALPHA` line, found opcode `BETA`"
    );
    assert_eq!(
        assemble_as("ALPHA count=1", "ALPHA", 1, ALPHA),
        asm("ALPHA count=1")
    );
}

#[test]
fn long_quotes_are_cut() {
    let line = std::format!("ALPHA count={}", "9".repeat(60));
    assert_eq!(
        error(&line),
        std::format!("13: `{}...` does not fit `count` (16 bits)", "9".repeat(40))
    );
}

#[test]
fn names_are_suggested_within_a_small_distance() {
    assert_eq!(distance("num_elm", "num_elem"), 1);
    assert_eq!(distance("", "ab"), 2);
    assert_eq!(distance("kitten", "sitting"), 3);
    assert_eq!(nearest("xyz", ["count", "mode"].into_iter()), None);
    assert_eq!(nearest("mod", ["count", "mode"].into_iter()), Some("mode"));
}
