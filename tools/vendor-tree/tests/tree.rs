//! Checks of the committed vendor-scale tree `fixtures/vendor-scale/neuron_maverick_arch_isa`.
//!
//! * it is exactly what the program produces (and the program is deterministic);
//! * every header compiles alone as C11 and as C++17 (`-Wall -Wextra -Werror -pedantic`), except
//!   `aws_neuron_isa_tpb_extended_utils.h`, which must fail alone and compile after
//!   `aws_neuron_isa_tpb_extended.h`; an umbrella of every header compiles; every operand struct is
//!   64 bytes, every field sits at the offset its comment gives, every building block has the size
//!   the program assumes;
//! * the documented counts and odd entries are there.
//!
//! The C compilers are `gcc` and `g++` from `PATH`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use vendor_tree::{Output, TREE};

fn out() -> &'static Output {
    static OUT: OnceLock<Output> = OnceLock::new();
    OUT.get_or_init(|| vendor_tree::generate().expect("the program generates the tree"))
}

fn root() -> PathBuf {
    vendor_tree::default_root()
}

fn tpb_dir() -> PathBuf {
    root().join(TREE).join("tpb")
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

fn tpb_file(name: &str) -> String {
    read(&tpb_dir().join(name))
}

/// Committed `.h` files of a directory, sorted.
fn headers(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".h"))
        .collect();
    v.sort();
    v
}

const SPINE: [&str; 8] = [
    "aws_neuron_isa_tpb_common.h",
    "aws_neuron_isa_tpb_enums.h",
    "aws_neuron_isa_tpb_assert.h",
    "aws_neuron_isa_tpb_debug_assert.h",
    "aws_neuron_isa_tpb_instr_assert.h",
    "aws_neuron_isa_tpb_util.h",
    "aws_neuron_isa_tpb_extended.h",
    "aws_neuron_isa_tpb_extended_utils.h",
];

fn operand_headers() -> Vec<String> {
    headers(&tpb_dir())
        .into_iter()
        .filter(|h| !SPINE.contains(&h.as_str()))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// freshness and determinism
// ---------------------------------------------------------------------------------------------

#[test]
fn committed_tree_is_what_the_program_produces() {
    let problems = vendor_tree::check(out(), &root());
    assert!(
        problems.is_empty(),
        "the committed tree is stale (run `cargo run -p vendor-tree`):\n{}",
        problems.join("\n")
    );
}

#[test]
fn check_reports_a_changed_a_missing_and_an_extra_file() {
    let dir = scratch("check");
    vendor_tree::write(out(), &dir).unwrap();
    assert!(vendor_tree::check(out(), &dir).is_empty());
    let tpb = dir.join(TREE).join("tpb");
    fs::write(tpb.join("aws_neuron_isa_tpb_s4_pb.h"), "changed\n").unwrap();
    fs::remove_file(tpb.join("aws_neuron_isa_tpb_ctrl_no.h")).unwrap();
    fs::write(tpb.join("stray.h"), "").unwrap();
    let problems = vendor_tree::check(out(), &dir);
    assert_eq!(
        problems,
        [
            format!("differs: {TREE}/tpb/aws_neuron_isa_tpb_s4_pb.h"),
            format!("extra: {TREE}/tpb/stray.h"),
            format!("missing: {TREE}/tpb/aws_neuron_isa_tpb_ctrl_no.h"),
        ]
    );
}

#[test]
fn output_is_deterministic() {
    let again = vendor_tree::generate().unwrap();
    assert_eq!(again.files, out().files);
    for (path, text) in &again.files {
        assert!(
            !text.contains("/work/") && !text.contains("/home/"),
            "{path} holds a path"
        );
    }
}

#[test]
fn check_mode_of_the_binary_fails_on_a_stale_tree() {
    let dir = scratch("binary");
    let bin = env!("CARGO_BIN_EXE_vendor-tree");
    let run = |args: &[&str]| {
        Command::new(bin)
            .args(args)
            .output()
            .expect("run vendor-tree")
    };
    let d = dir.to_str().unwrap();
    assert!(
        !run(&["--check", "--out", d]).status.success(),
        "empty dir is stale"
    );
    assert!(run(&["--out", d]).status.success());
    assert!(run(&["--check", "--out", d]).status.success());
    fs::write(dir.join(TREE).join("common").join("extra.h"), "").unwrap();
    let stale = run(&["--check", "--out", d]);
    assert!(!stale.status.success());
    assert!(String::from_utf8_lossy(&stale.stderr).contains("extra:"));
    assert_eq!(run(&["--bogus"]).status.code(), Some(2));
}

// ---------------------------------------------------------------------------------------------
// compile probes
// ---------------------------------------------------------------------------------------------

fn scratch(tag: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("vendor-tree-{tag}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compiles `src` as C11 and as C++17; Err holds every failing compiler's output.
fn compile(src: &str, tag: &str) -> Result<(), String> {
    let dir = scratch(tag);
    let c = dir.join("probe.c");
    let cpp = dir.join("probe.cpp");
    // a header of defines only leaves the unit empty, which ISO C forbids: declare something
    let src = format!("{src}typedef int neuron_isa_probe_unit;\n");
    fs::write(&c, &src).unwrap();
    fs::write(&cpp, &src).unwrap();
    let mut failures = String::new();
    for (cc, std, file) in [("gcc", "-std=c11", &c), ("g++", "-std=c++17", &cpp)] {
        let out = Command::new(cc)
            .args([
                std,
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pedantic",
                "-fsyntax-only",
                "-I",
            ])
            .arg(tpb_dir())
            .arg(file)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {cc} (the probes need gcc and g++): {e}"));
        if !out.status.success() {
            failures.push_str(&format!(
                "{cc} {std} failed:\n{}\n",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

fn includes(files: &[&str]) -> String {
    files
        .iter()
        .map(|f| format!("#include \"{f}\"\n"))
        .collect()
}

#[test]
fn every_header_compiles_alone_except_extended_utils() {
    let mut failures = Vec::new();
    for h in headers(&tpb_dir()) {
        let r = compile(&includes(&[&h]), "alone");
        if h == "aws_neuron_isa_tpb_extended_utils.h" {
            let err = r.expect_err("extended_utils.h must not compile without extended.h first");
            assert!(
                err.contains("gcc") && err.contains("g++"),
                "both compilers must reject it:\n{err}"
            );
            assert!(err.contains("NEURON_ISA_TPB_EXT_COMPLETION_INFO"), "{err}");
        } else if let Err(e) = r {
            failures.push(format!("{h}:\n{e}"));
        }
    }
    for h in headers(&root().join(TREE).join("common")) {
        if let Err(e) = compile(&includes(&[&format!("../common/{h}")]), "common") {
            failures.push(format!("common/{h}:\n{e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn extended_utils_compiles_after_extended() {
    compile(
        &includes(&[
            "aws_neuron_isa_tpb_extended.h",
            "aws_neuron_isa_tpb_extended_utils.h",
        ]),
        "ext",
    )
    .unwrap();
}

/// Every header in a working order: common/, common.h, the operand headers, the spine.
fn umbrella() -> String {
    let mut files: Vec<String> = headers(&root().join(TREE).join("common"))
        .into_iter()
        .map(|h| format!("../common/{h}"))
        .collect();
    files.push("aws_neuron_isa_tpb_common.h".into());
    files.extend(operand_headers());
    for h in [
        "aws_neuron_isa_tpb_extended.h",
        "aws_neuron_isa_tpb_extended_utils.h",
        "aws_neuron_isa_tpb_util.h",
        "aws_neuron_isa_tpb_enums.h",
        "aws_neuron_isa_tpb_assert.h",
        "aws_neuron_isa_tpb_debug_assert.h",
        "aws_neuron_isa_tpb_instr_assert.h",
    ] {
        files.push(h.into());
    }
    let refs: Vec<&str> = files.iter().map(String::as_str).collect();
    let mut s = includes(&refs);
    s.push_str("#include <stddef.h>\n");
    s
}

fn layout_asserts() -> String {
    let mut s = String::new();
    let mut k = 0;
    let mut assert = |cond: String| {
        k += 1;
        s.push_str(&format!("ISA_STATIC_ASSERT({cond}, \"probe {k}\");\n"));
    };
    for (t, size, _) in vendor_tree::layout::BLOCKS {
        assert(format!("sizeof({t}) == {size}"));
    }
    for (st, fields) in &out().offsets {
        for (f, off, size) in fields {
            assert(format!("offsetof({st}, {f}) == {off}"));
            assert(format!("sizeof((({st} *)0)->{f}) == {size}"));
        }
    }
    for h in operand_headers() {
        let shape = h
            .trim_start_matches("aws_neuron_isa_tpb_")
            .trim_end_matches(".h")
            .to_ascii_uppercase();
        assert(format!("sizeof(NEURON_ISA_TPB_{shape}_STRUCT) == 64"));
    }
    assert("sizeof(NEURON_ISA_TPB_EXTENDED_STRUCT) == 64".into());
    s
}

#[test]
fn umbrella_and_layouts_compile() {
    let src = umbrella() + &layout_asserts();
    compile(&src, "umbrella").unwrap();
}

#[test]
fn the_layout_probe_can_fail() {
    let (st, fields) = &out().offsets[0];
    let (f, off, _) = &fields[2];
    let src = umbrella()
        + &format!(
            "ISA_STATIC_ASSERT(offsetof({st}, {f}) == {}, \"wrong\");\n",
            off + 1
        );
    let err = compile(&src, "wrong").expect_err("a wrong offset must not compile");
    assert!(err.contains("gcc") && err.contains("g++"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// counts, documented entries and quirks
// ---------------------------------------------------------------------------------------------

#[test]
fn tree_shape_and_banners() {
    let ops = operand_headers();
    assert_eq!(ops.len(), 84, "operand headers");
    assert_eq!(headers(&tpb_dir()).len(), 92, "tpb/*.h");
    assert_eq!(
        headers(&root().join(TREE).join("common")).len(),
        3,
        "common/*.h"
    );
    for dir in ["tpb", "common"] {
        let d = root().join(TREE).join(dir);
        for h in headers(&d) {
            let text = read(&d.join(&h));
            assert_eq!(
                text.lines().nth(2),
                Some(" * ISA header for NC-v5"),
                "{dir}/{h}: banner line 3"
            );
        }
    }
    // every header-conventions.md §2 name for MAVERICK, and the RNG family
    let named = [
        "s4d4_tr",
        "s4d4_pl",
        "s4d4_cr",
        "s3d3_mm",
        "s3_lw",
        "dma_direct2d_xpose",
        "dma_gather_xpose",
        "pseudo_jpeg_decode",
        "s2d2_jpeg",
        "s2_convlut",
        "s2d2_rs",
        "s3_lt",
        "s3d3_collective",
        "s3d3_nonzero_with_count",
        "s3d3_seq_bounds",
        "s3d3_tens_dequant",
        "s4d3_mm",
        "smx1d3_mm",
        "smx1_lw",
        "s3dmx1_quant",
        "ctrl_test_es",
        "d3_rand",
        "s2d2_ac",
        "s2d2d2_sc",
        "s3d3_sc",
        "s2s1d2_pe_seed",
        "ctrl_cci",
        "dma_copy2d",
        "dma_immediate",
        "s1s2d2_am",
        "s2d2d2_ts_wide",
        "s2s2d2d2_tt",
        "mem_2d",
        "pseudo_mem_2d",
        "pseudo_core_barrier",
        "s3d3_ts",
        "s3s3d3_tt",
        "s2s2d2_stt",
        "s3d3_cp_pred_scalar",
        "s2d2_ts_as",
        "s1d2_sort",
        "s4d4_tsm",
        "ctrl_mv",
        "ctrl_im",
        "d1_rd",
        "d4_mr",
        "d4_rand",
        "s1_rand",
        "s3d3_ac",
        "s3d3_aq",
        "s4_pb",
        "s2d2_addr",
        "s3s3d1_bn",
        "s3s3d1_bn2",
        "dma_direct2d",
        "dma_indirect1d",
        "s4d4_gt",
        "pseudo_embedding_update",
        "s3d3_dropout",
        "pseudo_set_rng_seed",
    ];
    assert_eq!(named.len(), 60);
    for n in named {
        assert!(
            ops.contains(&format!("aws_neuron_isa_tpb_{n}.h")),
            "missing aws_neuron_isa_tpb_{n}.h"
        );
    }
    for sunda_only in ["ctrl_rs", "custom_op_header", "custom_op_payload", "nx_map"] {
        assert!(!ops.contains(&format!("aws_neuron_isa_tpb_{sunda_only}.h")));
    }
}

#[test]
fn rng_headers_are_the_projects_own() {
    for (n, text) in vendor_tree::COPIED {
        let main = root()
            .join("..")
            .join("..")
            .join("headers")
            .join(TREE)
            .join("tpb")
            .join(format!("aws_neuron_isa_tpb_{n}.h"));
        assert_eq!(&read(&main), text, "{n}");
        assert_eq!(&tpb_file(&format!("aws_neuron_isa_tpb_{n}.h")), text, "{n}");
    }
}

/// Enumerators of one enum of common.h, with their 1-based line numbers.
fn enum_members(common: &str, name: &str) -> Vec<(String, usize)> {
    let open = format!("typedef enum NEURON_ISA_TPB_{name} {{");
    let mut out = Vec::new();
    let mut inside = false;
    for (k, line) in common.lines().enumerate() {
        let code = line.split("//").next().unwrap().trim();
        if code == open {
            inside = true;
        } else if inside && code.starts_with('}') {
            break;
        } else if inside && code.contains('=') {
            out.push((code.split('=').next().unwrap().trim().to_string(), k + 1));
        }
    }
    out
}

#[test]
fn common_h_enums_and_constants() {
    let common = tpb_file("aws_neuron_isa_tpb_common.h");
    let lines: Vec<&str> = common.lines().collect();
    assert_eq!(
        lines[156], "typedef enum NEURON_ISA_TPB_OPCODE {",
        "typedef on line 157"
    );
    assert_eq!(
        lines[322], "} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;",
        "close on line 323"
    );
    let ops = enum_members(&common, "OPCODE");
    assert_eq!(ops.len(), 165, "MAVERICK opcode enumerators");
    let line_of = |n: &str| ops.iter().find(|(m, _)| m == n).map(|(_, l)| *l);
    assert_eq!(line_of("NEURON_ISA_TPB_OPCODE_RAND_GET_STATE"), Some(218));
    assert_eq!(line_of("NEURON_ISA_TPB_OPCODE_RAND_SET_STATE"), Some(219));
    assert_eq!(line_of("NEURON_ISA_TPB_OPCODE_EXPONENTIAL"), Some(247));
    assert_eq!(line_of("NEURON_ISA_TPB_OPCODE_INVALID"), Some(322));
    assert!(common.contains("NEURON_ISA_TPB_OPCODE_EXPONENTIAL                       = 0x30,\n"));
    assert!(common.contains("= 0x04, // n, tonga stuff, deprecated\n"));
    assert!(common.contains("= 0xbf, // Y\n"));
    // the project's headers/ tree and this one agree on every opcode line
    let main = read(
        &root()
            .join("..")
            .join("..")
            .join("headers")
            .join(TREE)
            .join("tpb")
            .join("aws_neuron_isa_tpb_common.h"),
    );
    let main_lines: Vec<&str> = main.lines().collect();
    assert_eq!(lines[156..323], main_lines[156..323]);

    assert_eq!(enum_members(&common, "DTYPE").len(), 30);
    let versions: Vec<String> = enum_members(&common, "NEURON_CORE_VERSION")
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        versions,
        ["V2", "V3", "V4", "V5"].map(|v| format!("NEURON_ISA_TPB_NEURON_CORE_VERSION_{v}"))
    );
    for c in [
        "static const uint32_t NEURON_ISA_TPB_INST_NBYTES                 = 64U;",
        "static const uint32_t NEURON_ISA_TPB_POOLING_NUM_CHANNELS        = 128U;",
        "static const uint32_t NEURON_ISA_TPB_NUM_DGE_SHAPE_REGISTERS     = 4U;",
    ] {
        assert!(common.contains(c), "{c}");
    }
    for t in [
        "typedef struct NEURON_ISA_TPB_HEADER {",
        "typedef struct NEURON_ISA_TPB_EVENTS {",
        "typedef union NEURON_ISA_TPB_ADDR4 {",
        "typedef struct NEURON_ISA_TPB_TENSOR1D {",
        "typedef struct NEURON_ISA_TPB_TENSOR4D {",
        "typedef union NEURON_ISA_TPB_MEM_PATTERN3D {",
        "typedef union NEURON_ISA_TPB_IMM_VAL_INST_FIELD {",
        "typedef struct NEURON_ISA_TPB_DTYPE_PAIR {",
        "typedef struct NEURON_ISA_TPB_BOUND_CHECK_REG {",
        "typedef enum NEURON_ISA_TPB_NEURON_ENGINE {",
        "typedef NEURON_ISA_TPB_DTYPE NEURON_ISA_TPB_SCALE_DTYPE;",
        "NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE_INDIRECT_DMA_ADDRESSING_MODE_SRC_INDIRECTION = 0x0,",
        "    NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE indirect_mode : 2;",
        "#include \"../common/aws_neuron_isa_common_types.h\"",
    ] {
        assert!(common.contains(t), "common.h lacks `{t}`");
    }
}

fn mapping() -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    serde_json::from_str(&tpb_file("instruction_mapping.json")).expect("mapping parses")
}

#[test]
fn mapping_is_the_documented_table() {
    let text = tpb_file("instruction_mapping.json");
    let m = mapping();
    assert_eq!(
        m.keys().collect::<Vec<_>>(),
        ["struct2opcode", "struct2pseudo_opcode"]
    );
    let s2o = &m["struct2opcode"];
    let s2p = &m["struct2pseudo_opcode"];
    assert_eq!(s2o.len(), 83, "struct2opcode keys");
    assert_eq!(
        s2p.keys().collect::<Vec<_>>(),
        ["NEURON_ISA_TPB_PSEUDO_MEM_2D_STRUCT"]
    );
    // pretty-printed as json.dumps(obj, indent=4, sort_keys=True) prints it, plus a newline
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(
        &mut buf,
        serde_json::ser::PrettyFormatter::with_indent(b"    "),
    );
    serde::Serialize::serialize(&m, &mut ser).unwrap();
    assert_eq!(String::from_utf8(buf).unwrap() + "\n", text);
    assert!(text.contains("\n        \"NEURON_ISA_TPB_S1D2_SORT_STRUCT\": [\n            \"NEURON_ISA_TPB_OPCODE_SORT\"\n        ],\n"));

    // stale and oddly spelled tokens
    assert_eq!(
        s2o["NEURON_ISA_TPB_S4D4_TSM_STRUCT"],
        [
            "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_ARITH",
            "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_BITVEC",
            "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH",
            "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC",
        ]
    );
    assert_eq!(
        s2o["NEURON_ISA_TPB_DMA_DIRECT2D_STRUCT"],
        ["NEURON_ISA_TPB_OPCODE_DMA_MEMCPY"]
    );
    assert_eq!(
        s2o["NEURON_ISA_TPB_PSEUDO_DMA_BARRIER_STRUCT"],
        ["NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_BARRIER"]
    );
    assert_eq!(s2o["NEURON_ISA_TPB_S4D4_TR_STRUCT"].len(), 11);
    assert_eq!(s2o["NEURON_ISA_TPB_S3D3_TS_STRUCT"].len(), 8);
    assert_eq!(
        s2o["NEURON_ISA_TPB_S3D3_TS_STRUCT"].last().unwrap(),
        "NEURON_ISA_TPB_OPCODE_EXPONENTIAL"
    );
    let common = tpb_file("aws_neuron_isa_tpb_common.h");
    let enumerators: BTreeSet<String> = enum_members(&common, "OPCODE")
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let not_enumerators: BTreeSet<&str> = s2o
        .values()
        .chain(s2p.values())
        .flatten()
        .map(String::as_str)
        .filter(|t| !enumerators.contains(*t))
        .collect();
    assert_eq!(
        not_enumerators,
        BTreeSet::from([
            "NEURON_ISA_TPB_OPCODE_DMA_MEMCPY",
            "NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_BARRIER",
            "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH",
            "NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_DUAL_BITVEC",
        ])
    );
    // every key names a struct of the tree
    let all: String = headers(&tpb_dir()).iter().map(|h| tpb_file(h)).collect();
    for key in s2o.keys().chain(s2p.keys()) {
        assert!(
            all.contains(&format!("}} {key};")),
            "{key} is not a struct of the tree"
        );
    }
}

#[test]
fn util_union_has_one_member_per_operand_struct() {
    let util = tpb_file("aws_neuron_isa_tpb_util.h");
    for h in operand_headers() {
        let shape = h
            .trim_start_matches("aws_neuron_isa_tpb_")
            .trim_end_matches(".h");
        let st = format!("NEURON_ISA_TPB_{}_STRUCT", shape.to_ascii_uppercase());
        assert!(
            util.lines().any(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.len() >= 2 && w[0] == st && w[1] == format!("{shape};")
            }),
            "util.h lacks `{st} {shape};`"
        );
    }
    assert!(util.contains(" raw;"));
    assert!(util.contains(" pseudo_core_barrier;"));
}

#[test]
fn spec_blocks_cover_the_required_forms() {
    let o = out();
    let ops = operand_headers().len();
    assert!(
        o.with_spec.len() * 10 >= ops * 4,
        "only {} of {ops} operand headers carry spec blocks",
        o.with_spec.len()
    );
    let all: String = o.files.values().map(String::as_str).collect();
    assert!(all.contains("is_valid_enum(DataSrc, i.mem_2d.src_datasrc)"));
    assert!(
        all.contains("(i.ctrl_al.src1_reg < NUM_ADDR_REGISTERS)"),
        "anonymous union member"
    );
    assert!(all.contains("(i.ctrl_cci.type < 4)"), "keyword-named field");
    assert!(
        all.contains("(i.ctrl_test_es.ref <= 0xffff)"),
        "keyword-named field"
    );
    let why: Vec<&str> = o.untranslated.iter().map(|(_, _, w)| w.as_str()).collect();
    for form in ["`match`", "`let`", "method call", "cast"] {
        assert!(
            why.iter().any(|w| w.contains(form)),
            "no out-of-contract block with {form}: {why:?}"
        );
    }
    // exactly the deliberate ones lack a C twin: any other spec error (an unknown name, a wrong
    // member) would show up here
    let untranslated: BTreeSet<&str> = o.untranslated.iter().map(|(f, _, _)| f.as_str()).collect();
    assert_eq!(
        untranslated,
        BTreeSet::from([
            "ctrl_poll_sem_has_timeout",
            "is_valid_ctrl_poll_sem",
            "s2d2_jpeg_quality_class",
            "is_valid_s2d2_jpeg",
            "s4d4_gt_lanes_clamped",
            "s2s2d2d2_tt_basic_input",
        ])
    );
    assert!(o.unused.iter().any(|f| f == "s3_lt_first_slot_free"));
    // neither is_valid_<op> nor is_valid_<shape>, bound through debug_assert.h
    let bound: BTreeMap<&str, &str> = o
        .bound
        .iter()
        .map(|(op, f)| (op.as_str(), f.as_str()))
        .collect();
    assert_eq!(
        bound["CROSS_LANE_REDUCE_ARITH"],
        "is_valid_cross_lane_reduce"
    );
    assert_eq!(bound["TENSOR_TENSOR_ARITH_OP"], "is_valid_tensor_tensor");
    assert_eq!(bound["BATCH_NORM_STATS2"], "is_valid_batch_norm_stats");
    // shared validators where the vendor shares them, own ones where it does not
    assert_eq!(bound["COPY"], "is_valid_s4d4_tr");
    assert_eq!(bound["RECIPROCAL"], "is_valid_reciprocal");
    assert_eq!(bound["EXPONENTIAL"], "is_valid_exponential");
    assert_eq!(bound["TENSOR_SCALAR_CACHE_REDUCE"], "is_valid_s3d3_ts");
    assert_eq!(bound["RAND_SET_STATE"], "is_valid_s1_rand");
    assert!(
        !bound.contains_key("JPEG_DECODE"),
        "its validator calls a `match` block"
    );
}

/// Spec names compare ignoring case and underscores (docs/spec-language.md); no two declarations
/// of the tree, and no two members of one enum, may collide under that rule.
#[test]
fn spec_names_are_unambiguous() {
    let reg = vendor_tree::spec::Registry::scan(
        out()
            .files
            .iter()
            .filter(|(p, _)| p.ends_with(".h"))
            .map(|(_, t)| t.as_str()),
    )
    .unwrap();
    let norm = |s: &str| s.replace('_', "").to_ascii_lowercase();
    let mut seen = BTreeMap::new();
    for name in reg.enums.keys().chain(reg.types.iter()) {
        if let Some(prev) = seen.insert(norm(name), name.clone()) {
            assert_eq!(&prev, name, "`{prev}` and `{name}` have the same spec name");
        }
    }
    assert!(seen.len() > 80, "{} declarations", seen.len());
    for (e, members) in &reg.enums {
        let mut m = BTreeSet::new();
        for (name, _) in members {
            assert!(m.insert(norm(name)), "{e}: member {name} collides");
        }
    }
}

#[test]
fn generated_c_spine() {
    let dbg = tpb_file("aws_neuron_isa_tpb_debug_assert.h");
    assert!(dbg.contains(
        "    case NEURON_ISA_TPB_OPCODE_SORT:\n        check = dbg_is_valid_s1d2_sort(i);\n        break;\n"
    ));
    assert!(dbg.contains("check = dbg_is_valid_nonzero_with_count(i, nc);"));
    assert!(dbg.contains("check = dbg_is_valid_s3d3_sc(i, nc);"));
    assert!(dbg.contains("check = dbg_is_valid_s1_rand(i, engine);"));
    assert!(dbg.contains("    case NEURON_ISA_TPB_OPCODE_DMAMEMCPY:\n"));

    let instr = tpb_file("aws_neuron_isa_tpb_instr_assert.h");
    assert!(instr.contains(
        "STATIC inline bool neuron_isa_check_opcode_on_engine(NEURON_ISA_TPB_OPCODE opcode,
                                                     NEURON_ISA_TPB_NEURON_ENGINE engine) {
    if (engine == NEURON_ISA_TPB_NEURON_ENGINE_POOL) {
        return(   (opcode == NEURON_ISA_TPB_OPCODE_SB2SB_COLLECTIVE)
               || (opcode == NEURON_ISA_TPB_OPCODE_COPY)
"
    ));
    assert!(instr.contains("    if (engine == NEURON_ISA_TPB_NEURON_ENGINE_DVE) {\n"));
    assert!(instr.contains("    return false;\n}\n"));
    assert!(instr.contains("STATIC inline bool is_pseudo_op(NEURON_ISA_TPB_OPCODE opcode) {\n    return(   (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_DMATRIGGER)\n"));
    let pseudo_lines = instr
        .lines()
        .skip_while(|l| !l.contains("is_pseudo_op"))
        .take_while(|l| !l.starts_with('}'))
        .filter(|l| l.contains("(opcode == "))
        .count();
    assert_eq!(pseudo_lines, 31);

    let asrt = tpb_file("aws_neuron_isa_tpb_assert.h");
    assert!(asrt.contains(
        "//* pseudo_core_barrier_assert.h\n\n//* pseudo_cur_processing_rank_id_assert.h\n"
    ));
    assert!(asrt.contains("\n//* common_assert.h\n"));
    assert!(
        asrt.contains("STATIC inline bool is_valid_range_select(NEURON_ISA_TPB_INST_UNION i,\n")
    );
    assert!(asrt.contains("STATIC inline NEURON_ISA_TPB_DEBUG_BOOL dbg_is_valid_range_select("));
    let markers = asrt.lines().filter(|l| l.starts_with("//* ")).count();
    assert_eq!(markers, 1 + operand_headers().len() + 1);

    let enums = tpb_file("aws_neuron_isa_tpb_enums.h");
    assert!(
        enums.contains("static const uint32_t NEURON_ISA_TPB_RAND_ALGORITHM_MAX_PLUS_ONE = 4U;")
    );
    assert!(enums.contains("STATIC inline bool is_valid_enum_opcode(uint32_t v) {"));
    assert!(enums.contains("STATIC inline bool is_valid_enum_pseudo_opcode(uint32_t v) {"));
    assert!(
        enums.contains("static const uint32_t NEURON_ISA_TPB_DGE_COMPUTE_OP_n_MAX_PLUS_ONE = 5U;")
    );
}

#[test]
fn documented_struct_quirks() {
    let coll = tpb_file("aws_neuron_isa_tpb_s3d3_collective.h");
    assert!(
        coll.lines()
            .any(|l| l.contains("reserved1[14];") && l.ends_with("// 14 (35 - 47) zero")),
        "the vendor's off-by-one range"
    );
    let copy2d = tpb_file("aws_neuron_isa_tpb_dma_copy2d.h");
    assert!(copy2d
        .lines()
        .any(|l| l.contains("wait_sema_value;") && l.contains("//  4 ( 4 -  7)")));
    assert!(!copy2d.contains("NEURON_ISA_TPB_EVENTS"));
    let sort = tpb_file("aws_neuron_isa_tpb_s1d2_sort.h");
    assert!(sort.contains("static const uint32_t NEURON_ISA_TPB_SORT_MAX_SIZE = 8192U;\nISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S1D2_SORT_STRUCT) == 64,\n                  \"Error: NEURON_ISA_TPB_S1D2_SORT_STRUCT is NOT 64B.\");"));
    assert!(sort
        .lines()
        .any(|l| l.contains(" stable;") && l.contains("//  1 (40     )")));
    let barrier = tpb_file("aws_neuron_isa_tpb_pseudo_core_barrier.h");
    assert!(barrier.contains("// Neuron ISA / TPB / vnc barrier"));
    let pool = tpb_file("aws_neuron_isa_tpb_modify_pool_config.h");
    assert!(pool.contains("//   +28  reserved0      [u8;4]"));
    assert!(pool.lines().any(|l| l.contains("uint32_t")
        && l.contains(" library_size;")
        && l.contains("//  4 (28 - 31)")));
    let rs = tpb_file("aws_neuron_isa_tpb_s2d2_rs.h");
    assert!(rs.contains("#include \"aws_neuron_isa_tpb_s4d4_cr.h\""));
    let dma = tpb_file("aws_neuron_isa_tpb_dma_direct2d.h");
    assert!(dma.contains("#include \"../common/aws_neuron_isa_dma_types.h\""));
    assert!(dma.contains("i.header.opcode == Opcode::DMAMemcpy"));
    let lt = tpb_file("aws_neuron_isa_tpb_s3_lt.h");
    assert!(lt.contains("tag_map[4][8];"));
    let quant = tpb_file("aws_neuron_isa_tpb_s3dmx1_quant.h");
    assert!(quant.contains("NEURON_ISA_TPB_SCALE_DTYPE "));
    let imm = tpb_file("aws_neuron_isa_tpb_dma_immediate.h");
    assert!(imm.contains("NEURON_ISA_TPB_DMA_QUEUE_REF queue;"));
    let br = tpb_file("aws_neuron_isa_tpb_ctrl_br.h");
    assert!(br.contains("    __extension__ struct {\n"));
    let rc = tpb_file("aws_neuron_isa_tpb_pseudo_range_check.h");
    assert!(rc.contains("    } range;"));
}
