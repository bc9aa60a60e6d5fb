//! The operand-shape features of a generated crate (issue 9, item 5): `isa-mariana` built with
//! only some shapes compiles without a warning, and its generated `tests/features.rs` passes with
//! that subset: the opcodes of the shapes left out decode to a `ShapeNotCompiled` error naming the
//! feature, the others decode. With the default features the same test checks that every shape is
//! compiled in (it runs in the workspace tests).

use crate::common;

use common::nested_cargo;

fn cargo(args: &[&str]) -> (bool, String) {
    let out = nested_cargo().args(args).output().expect("cargo runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn a_subset_of_shapes_builds_clean_and_decodes_the_rest_as_compiled_out() {
    // RAND_GET_STATE's shape only: RAND_SET_STATE, DROPOUT, ... are compiled out.
    let subset = [
        "--offline",
        "-p",
        "isa-mariana",
        "--no-default-features",
        "--features",
        "d4_rand",
    ];
    let (ok, text) = cargo(&[&["build"][..], &subset].concat());
    assert!(ok, "the d4_rand-only build failed:\n{text}");
    assert!(
        !text.contains("warning"),
        "the d4_rand-only build warns:\n{text}"
    );
    let (ok, text) = cargo(&[&["test"][..], &subset, &["--test", "features"]].concat());
    assert!(ok, "tests/features.rs failed with d4_rand only:\n{text}");
    assert!(text.contains("1 passed"), "{text}");
    // No shape at all still builds: the decoder says what is missing for every opcode.
    let (ok, text) = cargo(&[
        "build",
        "--offline",
        "-p",
        "isa-mariana",
        "--no-default-features",
    ]);
    assert!(ok && !text.contains("warning"), "{text}");
}

#[test]
fn the_raw_declarations_build_clean_with_a_subset_of_shapes() {
    // The raw layer is off by default; with one shape its structs and union accessors of the
    // other shapes are compiled out like the typed ones, without a warning.
    let (ok, text) = cargo(&[
        "build",
        "--offline",
        "-p",
        "isa-mariana",
        "--no-default-features",
        "--features",
        "raw,d4_rand",
    ]);
    assert!(ok, "the raw + d4_rand build failed:\n{text}");
    assert!(
        !text.contains("warning"),
        "the raw + d4_rand build warns:\n{text}"
    );
}
