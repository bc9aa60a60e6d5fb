//! The crate generated from the `neuron_quirks_arch_isa` fixture compiles and round-trips words
//! a C compiler built (issue 9: the emit bugs). One crate build serves every check here:
//!
//! * two-dimensional arrays (`uint8_t grid[2][3]`, `int16_t m[2][2]`, `char err_msg[16][80]`)
//!   decode to the values C stored and re-encode to the same bytes, in the raw and typed layers
//!   (each array dimension has its own index in the generated loops);
//! * a packed 64-byte struct holding an aligned union, an aligned struct and a `uint32_t` array
//!   compiles (no `repr(align)` inside `repr(packed)`, no reference to a packed field) and
//!   round-trips;
//! * anonymous records and keyword-named fields read back under their generated names, and a
//!   field typed by a typedef of a typedef of an enum reads back as that enum.
//!
//! The words come from a small C program compiled with `gcc` against the fixture headers: it
//! fills every field with a distinct value and prints the 64 bytes.

use crate::common;

use common::{gcc_for_tree, quirks_tree, run_named_generated_crate, workspace_root, Scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Fills the fixture's operand structs with distinct values and prints each word as hex.
const C_PROGRAM: &str = r#"
#include <stdio.h>
#include <string.h>
#include "aws_neuron_isa_tpb_util.h"
#include "aws_neuron_isa_tpb_assert.h"

static void print(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++) printf("%02x", b[k]);
    printf("\n");
}

int main(void) {
    NEURON_ISA_TPB_INST_UNION g;
    memset(&g, 0, sizeof g);
    g.s1_grid.header.opcode = NEURON_ISA_TPB_OPCODE_GRID;
    g.s1_grid.header.inst_word_len = 16;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++) g.s1_grid.grid[r][c] = (uint8_t)(10 * r + c + 1);
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++) g.s1_grid.m[r][c] = (int16_t)(1000 * r - 10 * c - 1);
    g.s1_grid.type = 2;
    g.s1_grid.in = 5;
    g.s1_grid.gen = 9;
    g.s1_grid.addr.lo = 0x11223344u;
    g.s1_grid.addr.hi = 0x55667788u;
    g.s1_grid.imm_ptr = 0xdeadbeefu;
    g.s1_grid.span.lo = 3;
    g.s1_grid.span.hi = 7;
    g.s1_grid.mode = NEURON_ISA_TPB_MODE_ON;
    g.s1_grid.grid_mode = NEURON_ISA_TPB_MODE_ON;
    print(&g, 64);

    NEURON_ISA_TPB_INST_UNION p;
    memset(&p, 0, sizeof p);
    p.s2_packed.header.opcode = NEURON_ISA_TPB_OPCODE_PACK;
    p.s2_packed.header.inst_word_len = 16;
    p.s2_packed.a = 0xa1;
    p.s2_packed.w.as_u32 = 0x0a0b0c0du;
    p.s2_packed.p.lo = 0x01020304u;
    p.s2_packed.p.hi = 0x05060708u;
    p.s2_packed.arr[0] = 0x10203040u;
    p.s2_packed.arr[1] = 0x50607080u;
    p.s2_packed.k = 0xbeef;
    print(&p, 64);

    NEURON_ISA_TPB_DEBUG_BOOL d;
    memset(&d, 0, sizeof d);
    d.result = 1;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 80; c++) d.err_msg[r][c] = (char)((r * 7 + c) % 100);
    print(&d, sizeof d);
    return 0;
}
"#;

/// Compiles and runs [`C_PROGRAM`]; returns its words.
fn words_from_c(dir: &Path) -> Vec<Vec<u8>> {
    let src = dir.join("words.c");
    let exe = dir.join("words");
    std::fs::write(&src, C_PROGRAM).unwrap();
    let out = gcc_for_tree(&quirks_tree())
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("gcc runs");
    assert!(
        out.status.success(),
        "gcc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            (0..l.len())
                .step_by(2)
                .map(|k| u8::from_str_radix(&l[k..k + 2], 16).unwrap())
                .collect()
        })
        .collect()
}

fn bytes_literal(w: &[u8]) -> String {
    let items: Vec<String> = w.iter().map(|b| format!("{b:#04x}")).collect();
    format!("[{}]", items.join(", "))
}

/// The test the generated crate runs (`GRID`, `PACK`, `DBG` are the words C built).
const CRATE_TEST: &str = r#"
use isa_quirks::{raw, Grid, GridSort, Instruction, Mode, NeuronEngine, Pack};

#[test]
fn two_dimensional_arrays_decode_to_what_c_stored_and_round_trip() {
    let g = Grid::from_bytes(&GRID).unwrap();
    assert_eq!(g.grid, [[1, 2, 3], [11, 12, 13]]);
    assert_eq!(g.m, [[-1, -11], [999, 989]]);
    assert_eq!(g.to_bytes(), GRID);
    assert_eq!(Instruction::decode(&GRID).unwrap().to_bytes(), GRID);
    let r = raw::NEURON_ISA_TPB_S1_GRID_STRUCT::from_bytes(&GRID);
    assert_eq!(r.grid, [[1, 2, 3], [11, 12, 13]]);
    assert_eq!(r.m, [[-1, -11], [999, 989]]);
    assert_eq!(r.to_bytes(), GRID);
    let d = raw::NEURON_ISA_TPB_DEBUG_BOOL::from_bytes(&DBG);
    assert!(d.result);
    for row in 0..16 {
        for col in 0..80 {
            assert_eq!(d.err_msg[row][col], ((row * 7 + col) % 100) as i8, "err_msg[{row}][{col}]");
        }
    }
    assert_eq!(d.to_bytes(), DBG);
}

#[test]
fn keyword_fields_anonymous_records_and_the_enum_typedef_read_back() {
    let g = Grid::from_bytes(&GRID).unwrap();
    assert_eq!((g.type_, g.in_, g.gen_), (2, 5, 9));
    assert_eq!((g.addr.lo, g.addr.hi), (0x1122_3344, 0x5566_7788));
    assert_eq!(g.anon1.imm_ptr(), 0xdead_beef);
    assert_eq!((g.span.lo, g.span.hi), (3, 7));
    assert_eq!(g.mode, Mode::On);
    assert_eq!(g.grid_mode, Mode::On, "a typedef of a typedef of an enum, where gcc put it");
    assert_eq!(raw::NEURON_ISA_TPB_S1_GRID_STRUCT::from_bytes(&GRID).grid_mode, raw::NEURON_ISA_TPB_MODE_ON);
    assert_eq!(g.validate(NeuronEngine::Pool), Ok(()));
    let sorted = GridSort::from_bytes(&{ let mut w = GRID; w[0] = 0x11; w }).unwrap();
    assert_eq!(sorted.validate(NeuronEngine::Pool), Ok(()));
}

#[test]
fn the_packed_struct_round_trips() {
    let p = Pack::from_bytes(&PACK).unwrap();
    assert_eq!(p.a, 0xa1);
    assert_eq!(p.w.as_u32(), 0x0a0b_0c0d);
    assert_eq!((p.p.lo, p.p.hi), (0x0102_0304, 0x0506_0708));
    assert_eq!(p.arr, [0x1020_3040, 0x5060_7080]);
    assert_eq!(p.k, 0xbeef);
    assert_eq!(p.to_bytes(), PACK);
    assert_eq!(p.validate(NeuronEngine::Dve), Ok(()));
    let r = raw::NEURON_ISA_TPB_S2_PACKED_STRUCT::from_bytes(&PACK);
    assert_eq!({ r.arr }, [0x1020_3040, 0x5060_7080]);
    assert_eq!({ r.w }.as_u32(), 0x0a0b_0c0d);
    assert_eq!(r.to_bytes(), PACK);
    assert_eq!(core::mem::align_of::<raw::NEURON_ISA_TPB_WORD>(), 4);
    assert_eq!(core::mem::size_of::<raw::NEURON_ISA_TPB_S2_PACKED_STRUCT>(), 64);
}
"#;

#[test]
fn the_quirks_crate_compiles_and_round_trips_words_built_by_c() {
    let scratch = Scratch::new("emit-quirks");
    let words = words_from_c(scratch.path());
    assert_eq!((words.len(), words[0].len(), words[2].len()), (3, 64, 1281));
    let generated = isa_codegen::generate(&quirks_tree(), &isa_codegen::Options::STRICT)
        .unwrap_or_else(|e| panic!("{e}"));
    let test = format!(
        "const GRID: [u8; 64] = {};\nconst PACK: [u8; 64] = {};\nconst DBG: [u8; 1281] = {};\n{CRATE_TEST}",
        bytes_literal(&words[0]),
        bytes_literal(&words[1]),
        bytes_literal(&words[2]),
    );
    let (ok, text) = run_named_generated_crate(
        scratch.path(),
        "isa-quirks",
        &generated.files,
        "words",
        &test,
        &["raw"],
    );
    assert!(ok, "the quirks crate failed:\n{text}");
    assert!(text.contains("test result: ok. 3 passed"), "{text}");
}

/// No generated file of any committed crate, nor of the fixtures, mentions bindgen's names for
/// anonymous records, members and enums (`__bindgen_ty_N`, `__bindgen_anon_N`, `_bindgen_ty_N`).
#[test]
fn no_generated_file_mentions_bindgen_names() {
    let root = workspace_root();
    let mut checked = 0;
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("isa-") || !entry.path().join("src/generated").is_dir() {
            continue;
        }
        for rel in [
            "src/generated",
            "src/lib.rs",
            "build.rs",
            "tests/agreement.rs",
        ] {
            let p = entry.path().join(rel);
            let files: Vec<PathBuf> = if p.is_dir() {
                std::fs::read_dir(&p)
                    .unwrap()
                    .flatten()
                    .map(|e| e.path())
                    .collect()
            } else if p.is_file() {
                vec![p]
            } else {
                Vec::new()
            };
            for f in files {
                let text = std::fs::read_to_string(&f).unwrap();
                assert!(
                    !text.contains("_bindgen"),
                    "{} mentions bindgen's names",
                    f.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 4 * 13, "only {checked} committed files found");
    for tree in [
        quirks_tree(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/neuron_tiny_arch_isa"),
    ] {
        let g = isa_codegen::generate(&tree, &isa_codegen::Options::STRICT)
            .unwrap_or_else(|e| panic!("{e}"));
        for (path, text) in &g.files {
            assert!(
                !text.contains("_bindgen"),
                "{}: {path} mentions bindgen's names",
                tree.display()
            );
        }
    }
}
