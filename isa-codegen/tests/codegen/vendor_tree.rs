//! The quirks of a real vendor tree (issue 9, item 2), one fixture test per construct: the
//! `neuron_quirks_arch_isa` fixture holds one of each (a `common/` header, generated C function
//! bodies, a typedef of an enum and one of that typedef, anonymous records, keyword-named fields),
//! and generates without a single warning; the tests that need a warning break a copy of it in a
//! scratch directory.

use crate::common;

use common::{
    copy_tree, edit, gcc_for_tree, line_of, quirks_tree, strict_reports, warning, Scratch,
};
use isa_codegen::model::{Model, Ty};
use isa_codegen::Options;
use std::fs;
use std::path::PathBuf;
use std::sync::OnceLock;

const GRID: &str = "tpb/aws_neuron_isa_tpb_s1_grid.h";
const COMMON: &str = "tpb/aws_neuron_isa_tpb_common.h";
const DEFS: &str = "common/aws_neuron_isa_common_defs.h";
const ASSERT: &str = "tpb/aws_neuron_isa_tpb_assert.h";

/// The pristine fixture, generated once under `--strict` (so it produces no warning at all).
fn quirks() -> &'static isa_codegen::Generated {
    static G: OnceLock<isa_codegen::Generated> = OnceLock::new();
    G.get_or_init(|| {
        isa_codegen::generate(&quirks_tree(), &Options::STRICT)
            .unwrap_or_else(|e| panic!("the quirks fixture generates under --strict:\n{e}"))
    })
}

/// A scratch copy of the fixture, to break.
struct Copy {
    _scratch: Scratch,
    root: PathBuf,
}

impl Copy {
    fn new(tag: &str) -> Copy {
        let scratch = Scratch::new(&format!("vendor-{tag}"));
        let root = copy_tree(&quirks_tree(), scratch.path(), "neuron_quirks_arch_isa");
        Copy {
            _scratch: scratch,
            root,
        }
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Generates (not strict); a failure fails the test.
    fn generate(&self) -> isa_codegen::Generated {
        isa_codegen::generate(&self.root, &Options::default())
            .unwrap_or_else(|e| panic!("generation fails:\n{e}"))
    }

    /// Generates under `--strict`, which must fail; returns the error.
    fn strict_error(&self) -> isa_codegen::diag::Error {
        match isa_codegen::generate(&self.root, &Options::STRICT) {
            Ok(_) => panic!("--strict accepted a tree with warnings"),
            Err(e) => e,
        }
    }
}

fn record<'m>(m: &'m Model, name: &str) -> &'m isa_codegen::model::Record {
    &m.records[m
        .record_named(name)
        .unwrap_or_else(|| panic!("no record {name}"))]
}

fn typedef<'m>(m: &'m Model, name: &str) -> &'m isa_codegen::model::Typedef {
    m.typedefs
        .iter()
        .find(|t| t.c_name == name)
        .unwrap_or_else(|| panic!("no typedef {name}"))
}

fn field<'m>(r: &'m isa_codegen::model::Record, name: &str) -> &'m isa_codegen::model::Field {
    r.fields
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("{} has no field {name}", r.c_name))
}

#[test]
fn the_quirks_fixture_generates_without_a_warning() {
    let m = &quirks().model;
    assert!(m.warnings.is_empty(), "{:#?}", m.warnings);
    assert!(m.untranslated.is_empty(), "{:#?}", m.untranslated);
    assert_eq!(m.generation, "QUIRKS");
    assert_eq!(m.nc_version, 7);
}

// ---- common/ headers ----

#[test]
fn a_type_declared_under_common_resolves() {
    let m = &quirks().model;
    assert!(m.headers.iter().any(|h| h == DEFS), "{:?}", m.headers);
    let pair = m
        .record_named("NEURON_ISA_TPB_ADDR_PAIR")
        .expect("read from common/");
    assert_eq!(m.records[pair].loc.file, DEFS);
    assert_eq!(
        m.records[pair].loc.line,
        line_of(
            &quirks_tree().join(DEFS),
            "typedef struct NEURON_ISA_TPB_ADDR_PAIR"
        )
    );
    let grid = record(m, "NEURON_ISA_TPB_S1_GRID_STRUCT");
    assert_eq!(field(grid, "addr").ty, Ty::Record(pair));
    assert_eq!(field(grid, "addr").offset, 20);
}

// ---- headers that compile only after others (include order) ----

/// The vendor's `extended_utils.h` uses a type of `extended.h` without including it.
fn with_include_order_constraint(c: &Copy) -> u32 {
    fs::write(
        c.file("tpb/aws_neuron_isa_tpb_extended.h"),
        "#ifndef EXT_H\n#define EXT_H\n#include \"aws_neuron_isa_tpb_common.h\"\n\
         typedef struct NEURON_ISA_TPB_EXT_COMPLETION_INFO {\n    uint32_t tag; // 4 (0 - 3)\n} NEURON_ISA_TPB_EXT_COMPLETION_INFO;\n#endif\n",
    )
    .unwrap();
    let utils = c.file("tpb/aws_neuron_isa_tpb_extended_utils.h");
    fs::write(
        &utils,
        "#ifndef EXT_UTILS_H\n#define EXT_UTILS_H\n#include \"aws_neuron_isa_tpb_common.h\"\n\n\
         typedef struct NEURON_ISA_TPB_EXT_UTIL {\n    NEURON_ISA_TPB_EXT_COMPLETION_INFO info; // 4 (0 - 3)\n    uint8_t count;                           // 1 (4     )\n} NEURON_ISA_TPB_EXT_UTIL;\n#endif\n",
    )
    .unwrap();
    line_of(&utils, "NEURON_ISA_TPB_EXT_COMPLETION_INFO info;")
}

#[test]
fn a_header_that_needs_another_first_parses_after_the_others_with_a_warning() {
    let c = Copy::new("include-order");
    let line = with_include_order_constraint(&c);
    let utils = "tpb/aws_neuron_isa_tpb_extended_utils.h";
    let g = c.generate();
    let m = &g.model;
    warning(
        m,
        utils,
        line,
        &[
            "does not compile alone",
            "NEURON_ISA_TPB_EXT_COMPLETION_INFO",
            "include-order constraint",
        ],
    );
    // Declarations stay attributed to their own file, and the type resolves.
    let util = record(m, "NEURON_ISA_TPB_EXT_UTIL");
    assert_eq!(util.loc.file, utils);
    let info = m
        .record_named("NEURON_ISA_TPB_EXT_COMPLETION_INFO")
        .unwrap();
    assert_eq!(
        m.records[info].loc.file,
        "tpb/aws_neuron_isa_tpb_extended.h"
    );
    assert_eq!(field(util, "info").ty, Ty::Record(info));
    assert_eq!(util.size, 8);
    strict_reports(&c.strict_error(), utils, line, &["does not compile alone"]);
}

// ---- clang warnings ----

#[test]
fn clang_warnings_are_warnings_at_their_line_reported_once() {
    let c = Copy::new("clang-warning");
    // In common.h, which every header includes: one warning, not one per includer.
    let f = c.file(COMMON);
    edit(
        &f,
        "static const uint32_t NEURON_ISA_TPB_INST_NBYTES = 64U;\n",
        "static const uint32_t NEURON_ISA_TPB_INST_NBYTES = 64U;\nstatic const uint8_t NEURON_ISA_TPB_BIG = 300;\n",
    );
    let line = line_of(&f, "NEURON_ISA_TPB_BIG = 300");
    let g = c.generate();
    let w = warning(
        &g.model,
        COMMON,
        line,
        &["C warning:", "300", "[-Wconstant-conversion]"],
    );
    assert!(!w.message.contains("C error"), "{w}");
    assert_eq!(g.model.warnings.len(), 1, "{:#?}", g.model.warnings);
    // The declaration is still read, with the value C gives it.
    assert_eq!(g.model.constant("BIG").map(|k| k.value), Some(44));
    strict_reports(&c.strict_error(), COMMON, line, &["-Wconstant-conversion"]);
}

// ---- C function bodies ----

#[test]
fn c_function_bodies_are_read_as_nothing_but_text() {
    let m = &quirks().model;
    // The generated C validators, the debug switch and the engine table declare no function,
    // constant or type of the model, and no record is placed inside a body.
    for h in [
        ASSERT,
        "tpb/aws_neuron_isa_tpb_debug_assert.h",
        "tpb/aws_neuron_isa_tpb_instr_assert.h",
    ] {
        assert!(m.headers.iter().any(|x| x == h), "{h} is read");
    }
    let dbg = record(m, "NEURON_ISA_TPB_DEBUG_BOOL");
    assert_eq!(dbg.loc.file, ASSERT);
    assert_eq!(
        dbg.loc.line,
        line_of(
            &quirks_tree().join(ASSERT),
            "typedef struct NEURON_ISA_TPB_DEBUG_BOOL"
        )
    );
    assert_eq!(dbg.size, 1281);
    // A 2-D char array: 16 rows of 80.
    assert_eq!(
        field(dbg, "err_msg").ty,
        Ty::Array(
            Box::new(Ty::Array(
                Box::new(Ty::Prim(isa_codegen::model::Prim::I8)),
                80
            )),
            16
        )
    );
    // Enumerators are located at their declaration, not where a body compares with them.
    let op = &m.enums[m.opcode_enum];
    let grid = op.members.iter().find(|x| x.short == "GRID").expect("GRID");
    assert_eq!(grid.loc.file, COMMON);
}

// ---- typedef of an enum ----

#[test]
fn a_typedef_of_an_enum_is_that_enum() {
    let m = &quirks().model;
    let mode = m.enum_named("NEURON_ISA_TPB_MODE").unwrap();
    let alias = typedef(m, "NEURON_ISA_TPB_MODE_ALIAS");
    assert_eq!(alias.target, Ty::Enum(mode));
    assert_eq!(alias.loc.file, COMMON);
    assert_eq!(
        alias.loc.line,
        line_of(&quirks_tree().join(COMMON), "NEURON_ISA_TPB_MODE_ALIAS;")
    );
    let grid = record(m, "NEURON_ISA_TPB_S1_GRID_STRUCT");
    assert_eq!(field(grid, "mode").ty, Ty::Enum(mode));
    // The spec names it (`ModeAlias::Off`, `is_valid_enum(Mode, ...)`): the validator translated.
    let spec = &quirks().files["src/generated/spec.rs"];
    assert!(spec.contains("i.mode != Mode::Off"), "{spec}");
    // The raw layer keeps the vendor's name for it.
    assert!(quirks().files["src/generated/raw.rs"]
        .contains("pub type NEURON_ISA_TPB_MODE_ALIAS = NEURON_ISA_TPB_MODE;"));
}

#[test]
fn a_typedef_of_a_typedef_of_an_enum_is_that_enum() {
    let m = &quirks().model;
    let mode = m.enum_named("NEURON_ISA_TPB_MODE").unwrap();
    let chained = typedef(m, "NEURON_ISA_TPB_GRID_MODE");
    assert_eq!(chained.target, Ty::Enum(mode));
    assert_eq!(
        chained.loc.line,
        line_of(&quirks_tree().join(COMMON), "NEURON_ISA_TPB_GRID_MODE;")
    );
    let grid = record(m, "NEURON_ISA_TPB_S1_GRID_STRUCT");
    let grid_mode = field(grid, "grid_mode");
    assert_eq!(grid_mode.ty, Ty::Enum(mode));
    assert_eq!((grid_mode.offset, grid_mode.size), (35, 1));
    // Its name in the spec (`GridMode::Off`) is the enum's too.
    let spec = &quirks().files["src/generated/spec.rs"];
    assert!(spec.contains("i.grid_mode != Mode::Off"), "{spec}");
    assert!(quirks().files["src/generated/raw.rs"]
        .contains("pub type NEURON_ISA_TPB_GRID_MODE = NEURON_ISA_TPB_MODE_ALIAS;"));
}

/// `offsetof(R, path) == N` for every byte-aligned field of `rec` and, through anonymous
/// members (C names their members as members of `R`) and named record fields (`span.lo`), of
/// the records inside it; bit-fields have no offset in C.
fn offset_asserts(
    m: &Model,
    top: &str,
    rec: &isa_codegen::model::Record,
    path: &str,
    base: u64,
    out: &mut String,
) {
    for f in rec.fields.iter().filter(|f| f.bits.is_none()) {
        let inner = if f.anonymous {
            path.to_string()
        } else {
            format!("{path}{}", f.name)
        };
        if !f.anonymous {
            out.push_str(&format!(
                "_Static_assert(offsetof({top}, {inner}) == {}, \"{top}.{inner}\");\n",
                base + f.offset
            ));
        }
        if let Ty::Record(r) = f.ty {
            let prefix = if f.anonymous {
                inner
            } else {
                format!("{inner}.")
            };
            offset_asserts(m, top, &m.records[r], &prefix, base + f.offset, out);
        }
    }
}

/// The layout the model computed for every record the fixture's headers name is the layout gcc
/// gives them: a C file of `_Static_assert`s on `sizeof` and `offsetof`, compiled by gcc.
#[test]
fn every_record_of_the_quirks_fixture_is_laid_out_as_gcc_lays_it_out() {
    let m = &quirks().model;
    let tree = quirks_tree();
    let texts: Vec<String> = m
        .headers
        .iter()
        .map(|h| fs::read_to_string(tree.join(h)).unwrap())
        .collect();
    let mut probe = String::from("#include <stddef.h>\n");
    for h in &m.headers {
        probe.push_str(&format!("#include \"{h}\"\n"));
    }
    let mut records = 0;
    for rec in &m.records {
        // The anonymous ones (`P_span`, `P_anon1`) have no C name; they are checked through `P`.
        if !texts.iter().any(|t| t.contains(&rec.c_name)) {
            continue;
        }
        let name = &rec.c_name;
        probe.push_str(&format!(
            "_Static_assert(sizeof({name}) == {}, \"sizeof {name}\");\n",
            rec.size
        ));
        offset_asserts(m, name, rec, "", 0, &mut probe);
        records += 1;
    }
    assert!(records >= 8, "{records} records probed:\n{probe}");
    assert!(
        probe.contains("offsetof(NEURON_ISA_TPB_S1_GRID_STRUCT, grid_mode) == 35"),
        "{probe}"
    );
    let scratch = Scratch::new("vendor-gcc-layout");
    let src = scratch.path().join("layout.c");
    fs::write(&src, &probe).unwrap();
    let out = gcc_for_tree(&tree)
        .arg("-fsyntax-only")
        .arg(&src)
        .output()
        .expect("gcc runs");
    assert!(
        out.status.success(),
        "gcc disagrees with the model:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---- anonymous records ----

#[test]
fn anonymous_records_get_names_from_their_parent_and_field() {
    let m = &quirks().model;
    let grid = record(m, "NEURON_ISA_TPB_S1_GRID_STRUCT");
    let anon = field(grid, "anon1");
    assert!(anon.anonymous);
    assert_eq!(anon.offset, 28);
    let anon_rec = m
        .record_named("NEURON_ISA_TPB_S1_GRID_STRUCT_anon1")
        .expect("the anonymous member's union");
    assert_eq!(anon.ty, Ty::Record(anon_rec));
    assert_eq!(m.records[anon_rec].loc, grid.loc);
    let span = field(grid, "span");
    assert!(!span.anonymous);
    let span_rec = m
        .record_named("NEURON_ISA_TPB_S1_GRID_STRUCT_span")
        .expect("the named field's struct");
    assert_eq!(span.ty, Ty::Record(span_rec));
    assert_eq!(
        m.records[span_rec].loc.line,
        line_of(&quirks_tree().join(GRID), "} span;")
    );
    assert_eq!(m.records[span_rec].size, 2);
    for r in &m.records {
        assert!(!r.c_name.contains("bindgen"), "{}", r.c_name);
        for f in &r.fields {
            assert!(!f.name.contains("bindgen"), "{}.{}", r.c_name, f.name);
        }
    }
    // The spec reads a member of the anonymous union as a member of the struct.
    let spec = &quirks().files["src/generated/spec.rs"];
    assert!(spec.contains("i.anon1.imm_ptr()"), "{spec}");
}

#[test]
fn nested_and_colliding_anonymous_records_get_distinct_names() {
    let c = Copy::new("anon-nested");
    edit(
        &c.file(GRID),
        "    struct {\n        uint8_t               lo;           //  1 (32     )\n        uint8_t               hi;           //  1 (33     )\n    } span;\n",
        "    struct {\n        uint8_t               lo;           //  1 (32     )\n        union { uint8_t hi; int8_t shi; };\n    } span;\n",
    );
    // A declared record already has the name the anonymous union would get.
    edit(
        &c.file(COMMON),
        "typedef union NEURON_ISA_TPB_WORD {",
        "typedef struct NEURON_ISA_TPB_S1_GRID_STRUCT_span_anon1 { uint8_t x; } NEURON_ISA_TPB_S1_GRID_STRUCT_span_anon1;\ntypedef union NEURON_ISA_TPB_WORD {",
    );
    edit(
        &c.file(GRID),
        "(i.s1_grid.span.lo <= i.s1_grid.span.hi)",
        "(i.s1_grid.span.lo <= i.s1_grid.span.shi)",
    );
    let g = c.generate();
    let m = &g.model;
    let span = record(m, "NEURON_ISA_TPB_S1_GRID_STRUCT_span");
    let inner = field(span, "anon1");
    assert!(inner.anonymous);
    let inner_rec = m
        .record_named("NEURON_ISA_TPB_S1_GRID_STRUCT_span_anon1_2")
        .expect("a fresh name beside the declared one");
    assert_eq!(inner.ty, Ty::Record(inner_rec));
    assert!(m
        .record_named("NEURON_ISA_TPB_S1_GRID_STRUCT_span_anon1")
        .is_some());
    assert!(g.files["src/generated/spec.rs"].contains("i.span.anon1.shi()"));
    for (path, text) in &g.files {
        assert!(!text.contains("__bindgen"), "{path} mentions __bindgen");
    }
}

// ---- keyword-named fields ----

#[test]
fn keyword_named_fields_keep_their_c_names() {
    let m = &quirks().model;
    let grid = record(m, "NEURON_ISA_TPB_S1_GRID_STRUCT");
    for name in ["type", "in", "gen"] {
        field(grid, name);
    }
    assert_eq!(field(grid, "type").offset, 18);
    assert_eq!(
        field(grid, "gen").bits.map(|b| (b.offset, b.width)),
        Some((4, 4))
    );
    // The Rust spelling is the emitters' (`type_`); the spec read them by their C names.
    let inst = &quirks().files["src/generated/inst.rs"];
    assert!(inst.contains("pub type_: u8,") && inst.contains("pub in_: u8,"));
    let spec = &quirks().files["src/generated/spec.rs"];
    assert!(
        spec.contains("i.type_ <= 3") && spec.contains("i.in_ <= 9"),
        "{spec}"
    );
}

// ---- validator discovery ----

fn validator_name(g: &isa_codegen::Generated, op: &str) -> Option<String> {
    let m = &g.model;
    let k = m.opcode_named(op).unwrap();
    m.validator(k).map(|v| m.specs[v.func].name.clone())
}

#[test]
fn the_debug_switch_names_validators_and_takes_precedence() {
    let g = quirks();
    assert!(g.model.spec_dropped.is_empty());
    // `case ..._GRID_SORT: check = dbg_is_valid_grid_sorted(i,nc);`, although `is_valid_s1_grid`
    // (the shape's) exists too.
    assert_eq!(
        validator_name(g, "GRID_SORT").as_deref(),
        Some("is_valid_grid_sorted")
    );
    assert_eq!(
        validator_name(g, "GRID").as_deref(),
        Some("is_valid_s1_grid")
    );
    // PACK has no arm in the switch: the naming convention finds it.
    assert_eq!(
        validator_name(g, "PACK").as_deref(),
        Some("is_valid_s2_packed")
    );
    assert!(g.files["src/generated/validate.rs"].contains("crate::spec::is_valid_grid_sorted("));
}

#[test]
fn a_mapped_opcode_without_a_validator_is_a_warning_naming_the_names_tried() {
    let c = Copy::new("no-validator");
    let packed = c.file("tpb/aws_neuron_isa_tpb_s2_packed.h");
    edit(&packed, "// fn is_valid_s2_packed(i: Inst) -> bool {\n//       has_valid_header(i)\n//    && (i.s2_packed.w.as_u32 != 0)\n//    && (i.s2_packed.arr[1] >= i.s2_packed.arr[0])\n//    && (i.s2_packed.p.lo <= i.s2_packed.p.hi)\n// }\n", "");
    let mapping = c.file("tpb/instruction_mapping.json");
    let line = line_of(&mapping, "\"NEURON_ISA_TPB_S2_PACKED_STRUCT\"");
    let g = c.generate();
    let m = &g.model;
    warning(
        m,
        "tpb/instruction_mapping.json",
        line,
        &[
            "opcode `PACK` has no validator",
            "`is_valid_pack`, `is_valid_s2_packed`",
        ],
    );
    let pack = m.opcode_named("PACK").unwrap();
    assert!(m.validator(pack).is_none());
    let why = &m.unvalidated.iter().find(|(k, _)| *k == pack).unwrap().1;
    assert!(why.contains("is_valid_s2_packed"), "{why}");
    let validate = &g.files["src/generated/validate.rs"];
    assert!(validate.contains("no spec validator for PACK: no spec function is named"));
    assert!(!validate.contains("impl crate::inst::Pack "));
    strict_reports(
        &c.strict_error(),
        "tpb/instruction_mapping.json",
        line,
        &["no validator"],
    );
}

// ---- spec resilience ----

#[test]
fn an_untranslatable_block_is_dropped_with_every_caller_and_only_their_instructions_lose_validate()
{
    let c = Copy::new("drop");
    let f = c.file(GRID);
    edit(&f, "(e == NeuronEngine::DVE)", "(e == NeuronEngine::Nope)");
    let bad = line_of(&f, "NeuronEngine::Nope");
    let grid_fn = line_of(&f, "// fn is_valid_s1_grid(");
    let sorted_fn = line_of(&f, "// fn is_valid_grid_sorted(");
    let g = c.generate();
    let m = &g.model;
    warning(
        m,
        GRID,
        bad,
        &[
            "spec function `grid_engine_ok` is not translated",
            "`Nope` is not a member of NEURON_ISA_TPB_NEURON_ENGINE",
        ],
    );
    warning(
        m,
        GRID,
        grid_fn,
        &[
            "spec function `is_valid_s1_grid` is not translated",
            "it calls `grid_engine_ok`",
        ],
    );
    warning(
        m,
        GRID,
        sorted_fn,
        &[
            "spec function `is_valid_grid_sorted` is not translated",
            "it calls `is_valid_s1_grid`",
        ],
    );
    let dropped: Vec<&str> = m.spec_dropped.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(dropped.len(), 3, "{dropped:?}");
    let names: Vec<&str> = m.specs.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["has_valid_header", "is_valid_s2_packed"]);
    // GRID and GRID_SORT lose `validate`, with the reason; PACK keeps it.
    assert_eq!(
        validator_name(&g, "PACK").as_deref(),
        Some("is_valid_s2_packed")
    );
    assert!(validator_name(&g, "GRID").is_none() && validator_name(&g, "GRID_SORT").is_none());
    let validate = &g.files["src/generated/validate.rs"];
    assert!(
        validate.contains("no spec validator for GRID: its validator `is_valid_s1_grid`"),
        "{validate}"
    );
    assert!(validate.contains("is not translated: it calls `grid_engine_ok`"));
    assert!(validate.contains("impl crate::inst::Pack {"));
    assert!(!validate.contains("impl crate::inst::Grid {"));
    assert!(!g.files["src/generated/spec.rs"].contains("fn grid_engine_ok"));
    // --strict keeps it fatal.
    strict_reports(&c.strict_error(), GRID, bad, &["`Nope` is not a member"]);
}

#[test]
fn a_block_that_does_not_parse_is_dropped_with_its_callers() {
    let c = Copy::new("unparsed");
    let f = c.file(GRID);
    edit(
        &f,
        "(e == NeuronEngine::Pool) || (e == NeuronEngine::DVE)",
        "(e == NeuronEngine::Pool) || (e == )",
    );
    let bad = line_of(&f, "(e == )");
    let grid_fn = line_of(&f, "// fn is_valid_s1_grid(");
    let g = c.generate();
    warning(
        &g.model,
        GRID,
        bad,
        &[
            "spec function `grid_engine_ok` is not translated",
            "does not parse",
        ],
    );
    warning(
        &g.model,
        GRID,
        grid_fn,
        &[
            "`is_valid_s1_grid` is not translated",
            "it calls `grid_engine_ok`",
            "which does not parse",
        ],
    );
    assert!(validator_name(&g, "GRID").is_none());
    assert_eq!(
        validator_name(&g, "PACK").as_deref(),
        Some("is_valid_s2_packed")
    );
    strict_reports(&c.strict_error(), GRID, bad, &["does not parse"]);
}

#[test]
fn an_unused_spec_function_is_a_warning_and_an_unused_common_helper_a_note() {
    let c = Copy::new("unused");
    let f = c.file(GRID);
    edit(
        &f,
        "\n#endif",
        "\n// fn lonely(n: u8) -> bool {\n//     n == 1\n// }\n\n#endif",
    );
    let lonely = line_of(&f, "// fn lonely(");
    let common = c.file(COMMON);
    edit(
        &common,
        "// fn has_valid_header(",
        "// fn shared_helper(n: u8) -> bool {\n//     n == 2\n// }\n\n// fn has_valid_header(",
    );
    let helper = line_of(&common, "// fn shared_helper(");
    let g = c.generate();
    let w = warning(&g.model, GRID, lonely, &["is not used by any instruction"]);
    assert_eq!(
        w.message,
        format!("spec function `lonely` ({GRID}:{lonely}) is not used by any instruction")
    );
    assert_eq!(g.model.warnings.len(), 1, "{:#?}", g.model.warnings);
    assert!(
        g.model.notes.iter().any(|n| n.loc.line == helper
            && n.message.contains("`shared_helper`")
            && n.message.contains("not used by any instruction")),
        "{:#?}",
        g.model.notes
    );
    strict_reports(&c.strict_error(), GRID, lonely, &["`lonely`"]);
}

// ---- engine placement ----

#[test]
fn engine_placement_is_interpreted_from_the_c_function() {
    let m = &quirks().model;
    let p = m
        .placement
        .as_ref()
        .expect("the fixture has instr_assert.h");
    let file = "tpb/aws_neuron_isa_tpb_instr_assert.h";
    assert_eq!(p.loc.file, file);
    assert_eq!(
        p.loc.line,
        line_of(
            &quirks_tree().join(file),
            "STATIC inline bool neuron_isa_check_opcode_on_engine("
        )
    );
    let engine = &m.enums[m.engine_enum.unwrap()];
    let on = |op: &str| -> Vec<&str> {
        p.engines[m.opcode_named(op).unwrap()]
            .iter()
            .map(|&e| engine.members[e].short.as_str())
            .collect()
    };
    assert_eq!(on("GRID"), ["POOL", "DVE"]);
    assert_eq!(on("GRID_SORT"), ["POOL"]);
    assert_eq!(on("PACK"), ["DVE"]);
    // Through a call of another C function of the tree (`is_pseudo_op`).
    assert_eq!(on("PSEUDO_PACK"), ["POOL"]);
    assert!(on("NOP").is_empty() && on("INVALID").is_empty());
    assert_eq!(p.placed(), 4);
}

#[test]
fn a_placement_body_outside_the_subset_or_with_an_unknown_name_is_a_warning_and_no_placement() {
    let file = "tpb/aws_neuron_isa_tpb_instr_assert.h";
    let c = Copy::new("placement-form");
    let f = c.file(file);
    edit(
        &f,
        "    return false;\n}\n\n#endif",
        "    int unused = 0;\n    return false;\n}\n\n#endif",
    );
    let line = line_of(&f, "int unused = 0;");
    let g = c.generate();
    assert!(g.model.placement.is_none());
    warning(
        &g.model,
        file,
        line,
        &["engine placement not derived", "outside the C subset"],
    );

    // A macro is valid C, but not a name of the model.
    let c = Copy::new("placement-name");
    let f = c.file(file);
    edit(
        &f,
        "STATIC inline bool is_pseudo_op(",
        "#define PACK_OPCODE NEURON_ISA_TPB_OPCODE_PACK\n\nSTATIC inline bool is_pseudo_op(",
    );
    edit(
        &f,
        "(opcode == NEURON_ISA_TPB_OPCODE_PACK)",
        "(opcode == PACK_OPCODE)",
    );
    let line = line_of(&f, "(opcode == PACK_OPCODE)");
    let g = c.generate();
    assert!(g.model.placement.is_none());
    warning(
        &g.model,
        file,
        line,
        &["`PACK_OPCODE` is neither a parameter, an enumerator nor a constant"],
    );
    strict_reports(&c.strict_error(), file, line, &["PACK_OPCODE"]);
}

#[test]
fn the_report_lists_warnings_and_the_placement() {
    let c = Copy::new("report");
    edit(
        &c.file("tpb/instruction_mapping.json"),
        "\"NEURON_ISA_TPB_OPCODE_PACK\"",
        "\"NEURON_ISA_TPB_OPCODE_PA_CK\"",
    );
    let line = line_of(&c.file("tpb/instruction_mapping.json"), "PA_CK");
    let ws = c.root.parent().unwrap();
    let headers = ws.join("headers");
    fs::create_dir_all(&headers).unwrap();
    common::copy_dir(&c.root, &headers.join("neuron_quirks_arch_isa"));
    fs::create_dir_all(ws.join("isa-quirks")).unwrap();
    fs::write(ws.join("isa-quirks/Cargo.toml"), "[package]\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
        .args(["--check", "--root"])
        .arg(ws)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let place = line_of(
        &c.file("tpb/aws_neuron_isa_tpb_instr_assert.h"),
        "neuron_isa_check_opcode_on_engine(",
    );
    for expected in [
        format!("    engine placement: 4 opcodes placed (tpb/aws_neuron_isa_tpb_instr_assert.h:{place})"),
        format!("    warning: tpb/instruction_mapping.json:{line}: alias resolved: mapping entry `NEURON_ISA_TPB_S2_PACKED_STRUCT` names opcode `NEURON_ISA_TPB_OPCODE_PA_CK`"),
        "    1 warning(s) in neuron_quirks_arch_isa (`--strict` makes them errors)".to_string(),
    ] {
        assert!(stdout.contains(&expected), "`{expected}` not in:\n{stdout}");
    }
    // With --strict: exit 2, the warning as an error, nothing written.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
        .args(["--strict", "--root"])
        .arg(ws)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "neuron_quirks_arch_isa/tpb/instruction_mapping.json:{line}: alias resolved"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"));
    assert!(!ws.join("isa-quirks/src").exists());
}
