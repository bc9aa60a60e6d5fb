//! The typed layer's conveniences where the real trees have nothing to show them: the tiny
//! fixture's operand struct holds a `float` (no derivable `Eq`/`Hash`: compared and hashed by
//! bits), a union, bit-field enums and a 39-byte array (past serde's 32-element array impls).
//! The generated crate is built in a scratch directory with its `serde` feature and runs the
//! test below.

use crate::common;

use common::{run_generated_crate, tiny_tree, Scratch};

/// The test the generated crate runs.
const CRATE_TEST: &str = r#"
use isa_tiny::{Fill, Instruction, Word};
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

fn hash<T: std::hash::Hash>(v: &T) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(v)
}

fn fill() -> Fill {
    let mut w = [0u8; 64];
    w[0] = 0x02; // FILL
    w[1] = 16; // inst_word_len
    w[6] = 7; // count
    Fill::from_bytes(&w).unwrap()
}

#[test]
fn floats_compare_and_hash_by_their_bits() {
    let a = fill();
    let mut negative = a;
    negative.scale = -0.0;
    assert_ne!(a, negative, "0.0 and -0.0 encode differently");
    assert_ne!(a.to_bytes(), negative.to_bytes());
    let mut nan = a;
    nan.scale = f32::from_bits(0x7fc0_0001);
    let again = Fill::from_bytes(&nan.to_bytes()).unwrap();
    assert_eq!(nan, again, "a NaN equals itself, bit for bit");
    assert_eq!(hash(&nan), hash(&again));
    assert_eq!(Instruction::from(nan), Instruction::from(again));
    let mut other_nan = a;
    other_nan.scale = f32::from_bits(0x7fc0_0002);
    assert_ne!(nan, other_nan, "NaNs with other payloads differ");
}

#[test]
fn the_disassembly_shows_floats_unions_bit_fields_and_long_arrays() {
    let mut f = fill();
    assert_eq!(f.to_string(), "FILL header={inst_word_len=16} color=RED count=7");
    f.pair.hi = isa_tiny::Color::Green;
    f.word = Word::from_as_offset(0x1234);
    f.scale = 1.5;
    f.steps = [0, -2, 0, 0];
    f.reserved[38] = 9;
    let text = f.to_string();
    assert_eq!(
        text,
        format!(
            "FILL header={{inst_word_len=16}} color=RED pair={{lo=RED hi=GREEN}} count=7 word=0x1234 scale=1.5 steps=[0,-2,0,0] reserved=[{}9]",
            "0,".repeat(38)
        )
    );
    f.scale = f32::from_bits(0x7fc0_0001);
    assert!(f.to_string().contains(" scale=NaN(0x7fc00001) "), "{f}");
    assert_eq!(Instruction::from(f).to_string(), f.to_string());
}

#[test]
fn json_round_trips_a_float_a_union_and_a_39_byte_array() {
    let mut f = fill();
    f.scale = -1.25;
    f.word = Word::from_as_offset(0xdead_beef);
    f.reserved[38] = 9;
    let inst = Instruction::from(f);
    let text = serde_json::to_string(&inst).unwrap();
    assert!(text.starts_with("{\"FILL\":{"), "{text}");
    assert!(text.contains("\"scale\":-1.25"), "{text}");
    assert!(text.contains("\"color\":\"RED\""), "{text}");
    assert!(text.contains("\"word\":{\"bytes\":[239,190,173,222]}"), "{text}");
    let back: Instruction = serde_json::from_str(&text).unwrap();
    assert_eq!(back, inst);
    assert_eq!(back.to_bytes(), inst.to_bytes());
    // The alias member name is accepted for the same value.
    let alias = text.replace("\"lo\":\"RED\"", "\"lo\":\"VERT\"");
    let back: Instruction = serde_json::from_str(&alias).unwrap();
    let Instruction::Fill(g) = back else { panic!("{back:?}") };
    assert_eq!(g.pair.lo, isa_tiny::Color::Green);
}
"#;

#[test]
fn generated_floats_unions_and_long_arrays_have_eq_hash_display_and_serde() {
    let scratch = Scratch::new("fixture-api");
    let generated = isa_codegen::generate(&tiny_tree(), &isa_codegen::Options::STRICT)
        .unwrap_or_else(|e| panic!("{e}"));
    let inst = &generated.files["src/generated/inst.rs"];
    assert!(
        inst.contains("self.scale.to_bits() == other.scale.to_bits()"),
        "the float field compares by bits"
    );
    let (ok, output) = run_generated_crate(
        scratch.path(),
        &generated.files,
        "fixture_api",
        CRATE_TEST,
        &["serde"],
    );
    assert!(ok, "the generated crate's test failed:\n{output}");
    assert!(output.contains("test result: ok. 3 passed"), "{output}");
}
