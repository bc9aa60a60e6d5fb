//! Bad input (issue 3, "Bad input"): one fixture test per kind of broken header tree.
//!
//! Each test copies a good tree (the tiny fixture, or a real tree from `headers/`) into a scratch
//! workspace and breaks one thing. It then checks three things:
//!
//! * `generate` returns an error (and does not panic) whose diagnostic names the right file, the
//!   right line and what is wrong;
//! * `workspace::plan` on the scratch workspace fails with that same diagnostic;
//! * the `isa-codegen` binary run on the scratch workspace exits with status 2, prints the
//!   diagnostic and "nothing was written", and leaves every file of the workspace as it was,
//!   including the stale crate of a second, good tree next to the broken one (a failure in any
//!   tree writes nothing at all).
//!
//! Every diagnostic any of these runs produces, errors and warnings alike, is also checked to
//! name its place as `file:line` ([`assert_places_have_lines`]): the helpers every test here goes
//! through (`generate_err`, `generate_ok`, `assert_nothing_written`) check them all, and
//! [`every_warning_and_note_of_the_normal_trees_names_a_line`] does the same for the trees that
//! generate.

use crate::common;

use common::{copy_tree, edit, edit_line, line_of, real_tree, snapshot, tiny_tree, Scratch};
use isa_codegen::diag::{Diagnostic, Error};
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

const TREE: &str = "neuron_tiny_arch_isa";
const COMMON: &str = "tpb/aws_neuron_isa_tpb_common.h";
const FILL: &str = "tpb/aws_neuron_isa_tpb_s1_fill.h";
const UTIL: &str = "tpb/aws_neuron_isa_tpb_util.h";
const MAPPING: &str = "tpb/instruction_mapping.json";
/// What the scratch crates hold before a run; any write would replace it.
const COMMITTED: &str = "// committed copy, must survive a failed run\n";

/// A scratch workspace: `headers/<tree>` (the tree under test, to be broken) with its crate
/// `isa-<gen>/`, and a good neighbour `headers/neuron_spare_arch_isa` with a stale crate `isa-spare/`.
struct Workspace {
    scratch: Scratch,
    tree: PathBuf,
}

impl Workspace {
    /// A workspace whose tree under test is a copy of `base` named `name`.
    fn new(tag: &str, base: &Path, name: &str) -> Workspace {
        let scratch = Scratch::new(&format!("bad-{tag}"));
        let headers = scratch.path().join("headers");
        let tree = copy_tree(base, &headers, name);
        copy_tree(&tiny_tree(), &headers, "neuron_spare_arch_isa");
        let gen = name
            .strip_prefix("neuron_")
            .and_then(|n| n.strip_suffix("_arch_isa"))
            .unwrap_or("none");
        for krate in [format!("isa-{gen}"), "isa-spare".to_string()] {
            let dir = scratch.path().join(&krate);
            fs::create_dir_all(dir.join("src/generated")).unwrap();
            fs::write(
                dir.join("Cargo.toml"),
                format!("[package]\nname = \"{krate}\"\n"),
            )
            .unwrap();
            fs::write(dir.join("src/generated/opcode.rs"), COMMITTED).unwrap();
        }
        Workspace { scratch, tree }
    }

    /// A workspace around a copy of the tiny fixture.
    fn tiny(tag: &str) -> Workspace {
        Workspace::new(tag, &tiny_tree(), TREE)
    }

    fn root(&self) -> &Path {
        self.scratch.path()
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.tree.join(rel)
    }
}

/// Every diagnostic of `diagnostics` (of the tree at `tree`) names a line of its file, between 1
/// and the file's last line, and prints as `file:line: message`.
///
/// The one exception is a place that has no line to name, and there the diagnostic names the path
/// alone: a directory (the tree, its `tpb/`, a runtime file that is a directory), a file that does
/// not exist (a missing tree or common header) or cannot be read, and what is not a file of the
/// tree at all (`(libclang)`, the library that reads the C headers). Which places those are is
/// decided here by the file system, not by the message: a diagnostic about a readable file
/// without a line fails.
#[track_caller]
fn assert_places_have_lines(tree: &Path, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let path = tree.join(&d.loc.file);
        let text = if path.is_file() {
            fs::read(&path).ok()
        } else {
            None
        };
        match text {
            Some(text) => {
                let last = String::from_utf8_lossy(&text).lines().count() as u32;
                assert!(
                    (1..=last).contains(&d.loc.line),
                    "`{d}` names no line of {} (lines 1 to {last})",
                    path.display()
                );
                let place = format!("{}:{}: ", d.loc.file, d.loc.line);
                assert!(
                    d.to_string().starts_with(&place),
                    "`{d}` is not printed at `{place}`"
                );
            }
            None => assert_eq!(
                d.loc.line,
                0,
                "`{d}` names a line of {}, which has no lines",
                path.display()
            ),
        }
    }
}

/// [`assert_places_have_lines`] for errors of trees under `headers` (an error without a tree name
/// names its place by its full path).
#[track_caller]
fn assert_errors_have_lines(headers: &Path, errors: &[Error]) {
    for e in errors {
        assert_places_have_lines(&headers.join(&e.tree), &e.diagnostics);
    }
}

/// [`assert_places_have_lines`] for the warnings, untranslated items and notes of a model.
#[track_caller]
fn assert_model_places_have_lines(tree: &Path, model: &isa_codegen::model::Model) {
    for diagnostics in [&model.warnings, &model.untranslated, &model.notes] {
        assert_places_have_lines(tree, diagnostics);
    }
}

/// Runs `generate` on a tree that must be rejected; a panic or a success fails the test.
fn generate_err(tree: &Path) -> Error {
    generate_err_with(tree, &Default::default())
}

/// As [`generate_err`], with `options`.
#[track_caller]
fn generate_err_with(tree: &Path, options: &isa_codegen::Options) -> Error {
    match catch_unwind(AssertUnwindSafe(|| isa_codegen::generate(tree, options))) {
        Err(_) => panic!("generate panicked on {}", tree.display()),
        Ok(Ok(_)) => panic!("generate accepted {} under {options:?}", tree.display()),
        Ok(Err(e)) => {
            assert_places_have_lines(tree, &e.diagnostics);
            e
        }
    }
}

/// Runs `generate` on a tree that must generate (with warnings, say); every warning and note
/// names its line.
#[track_caller]
fn generate_ok(tree: &Path, options: &isa_codegen::Options) -> isa_codegen::Generated {
    let g = isa_codegen::generate(tree, options)
        .unwrap_or_else(|e| panic!("{} does not generate:\n{e}", tree.display()));
    assert_model_places_have_lines(tree, &g.model);
    g
}

/// `model` carries a warning at `file:line` whose message contains every one of `words`.
#[track_caller]
fn assert_warns(model: &isa_codegen::model::Model, file: &str, line: u32, words: &[&str]) {
    let hit = model.warnings.iter().any(|d| {
        d.loc.file == file && d.loc.line == line && words.iter().all(|w| d.message.contains(w))
    });
    assert!(
        hit,
        "expected a warning at {file}:{line} mentioning {words:?}, got:\n{:#?}",
        model.warnings
    );
}

/// Runs the binary on the workspace with `args`: (exit code, stdout, stderr).
fn run_binary(ws: &Workspace, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
        .arg("--root")
        .arg(ws.root())
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `--help` documents every option the parser accepts (read from `main.rs`'s match arms), and an
/// unknown option is exit 2 with the usage.
#[test]
fn help_lists_every_option_and_an_unknown_one_is_refused() {
    let main =
        fs::read_to_string(common::workspace_root().join("isa-codegen/src/main.rs")).unwrap();
    let options: Vec<&str> = main
        .lines()
        .filter_map(|l| l.trim().strip_prefix("\"--"))
        .filter_map(|rest| rest.split_once('"'))
        .filter(|(_, after)| {
            after.trim_start().starts_with("=>") || after.trim_start().starts_with('|')
        })
        .map(|(name, _)| name)
        .filter(|name| *name != "help")
        .collect();
    assert!(options.len() >= 5, "{options:?}");
    let run = |arg: &str| {
        Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
            .arg(arg)
            .output()
            .unwrap()
    };
    let out = run("--help");
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for name in options {
        let option = format!("--{name}");
        assert!(
            help.lines().any(|l| l.trim_start().starts_with(&option)),
            "--help has no line for {option}:\n{help}"
        );
    }
    let out = run("--vendor-rot");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown option `--vendor-rot`"), "{stderr}");
    assert!(stderr.contains("usage: isa-codegen"), "{stderr}");
}

/// The workspace, to be checked with `--strict` by [`assert_nothing_written_with`].
fn ws_strict(ws: &Workspace) -> (&Workspace, bool) {
    (ws, true)
}

/// `err` has a diagnostic at `file:line` whose message contains every one of `words`.
fn assert_reports(err: &Error, file: &str, line: u32, words: &[&str]) {
    let hit = err.diagnostics.iter().any(|d| {
        d.loc.file == file && d.loc.line == line && words.iter().all(|w| d.message.contains(w))
    });
    assert!(
        hit,
        "expected a diagnostic at {file}:{line} mentioning {words:?}, got:\n{err}"
    );
    let shown = err.to_string();
    let place = if line == 0 {
        format!("{}/{file}", err.tree)
    } else {
        format!("{}/{file}:{line}", err.tree)
    };
    assert!(shown.contains(&place), "`{place}` not in:\n{shown}");
}

/// The broken tree of `ws` fails through `workspace::plan` and through the binary, and the
/// binary writes nothing. `shown` is text the binary must print (the diagnostic).
fn assert_nothing_written(ws: &Workspace, shown: &str) {
    assert_nothing_written_with((ws, false), shown);
}

/// As [`assert_nothing_written`]; with `strict`, under `--strict`.
fn assert_nothing_written_with((ws, strict): (&Workspace, bool), shown: &str) {
    let options = isa_codegen::Options { strict };
    let before = snapshot(ws.root());
    let headers = ws.root().join("headers");
    let planned = catch_unwind(AssertUnwindSafe(|| {
        isa_codegen::workspace::plan(ws.root(), &headers, &[], &options)
    }))
    .expect("workspace::plan panicked");
    let errors = planned.expect_err("workspace::plan accepted a workspace with a broken tree");
    assert_errors_have_lines(&headers, &errors);
    let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert!(
        all.iter().any(|e| e.contains(shown)),
        "plan errors do not mention `{shown}`: {all:#?}"
    );
    assert!(
        before == snapshot(ws.root()),
        "workspace::plan changed files"
    );

    let (code, _, stderr) = run_binary(ws, if strict { &["--strict"] } else { &[] });
    assert_eq!(code, Some(2), "isa-codegen exit status; stderr:\n{stderr}");
    assert!(stderr.contains(shown), "stderr lacks `{shown}`:\n{stderr}");
    // What the binary prints is those diagnostics, with the places checked above.
    for e in &all {
        assert!(stderr.contains(e.as_str()), "stderr lacks `{e}`:\n{stderr}");
    }
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(
        before == snapshot(ws.root()),
        "isa-codegen wrote into the workspace after an error"
    );
    assert_eq!(
        fs::read_to_string(ws.root().join("isa-spare/src/generated/opcode.rs")).unwrap(),
        COMMITTED
    );
}

/// The common check: `generate` reports `file:line` with `words`, and the workspace run writes nothing.
fn check(ws: &Workspace, file: &str, line: u32, words: &[&str]) -> Error {
    let err = generate_err(&ws.tree);
    assert_reports(&err, file, line, words);
    let place = if line == 0 {
        format!("{TREE}/{file}")
    } else {
        format!("{TREE}/{file}:{line}")
    };
    assert_nothing_written(ws, &place);
    err
}

#[test]
fn the_tiny_fixture_itself_generates() {
    // The baseline every broken copy starts from.
    let ws = Workspace::tiny("baseline");
    generate_ok(&ws.tree, &isa_codegen::Options::STRICT);
}

#[test]
fn c_syntax_error_is_reported_at_the_clang_location() {
    let ws = Workspace::tiny("syntax");
    let f = ws.file(FILL);
    let line = line_of(&f, "uint8_t               lanes;");
    edit(
        &f,
        "uint8_t               lanes;",
        "uint8_t               lanes @;",
    );
    let err = check(&ws, FILL, line, &["C error:", "expected"]);
    // util.h includes the broken header: its run reports the same place, never another one.
    assert!(
        err.diagnostics
            .iter()
            .all(|d| d.loc.file == FILL && d.loc.line == line),
        "{err}"
    );
}

#[test]
fn c_error_in_a_real_tree_names_the_file_and_line() {
    let ws = Workspace::new(
        "syntax-real",
        &real_tree("mariana"),
        "neuron_mariana_arch_isa",
    );
    let rel = "tpb/aws_neuron_isa_tpb_d3_rand.h";
    let f = ws.file(rel);
    let line = edit_line(&f, "min_src;", "min_src;", "min_src");
    let err = generate_err(&ws.tree);
    // clang reports a missing `;` at the end of the line it belongs to (or the next token's line).
    assert!(
        err.diagnostics.iter().any(|d| d.loc.file == rel
            && (d.loc.line == line || d.loc.line == line + 1)
            && d.message.starts_with("C error:")),
        "{err}"
    );
    // The mariana copy has a crate name of its own here, so the workspace check applies as is.
    assert_nothing_written(&ws, &format!("neuron_mariana_arch_isa/{rel}:"));
}

#[test]
fn shrunk_operand_struct_fails_the_static_assert_in_clang() {
    let ws = Workspace::tiny("shrunk-assert");
    let f = ws.file(FILL);
    let line = line_of(
        &f,
        "ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S1_FILL_STRUCT)",
    );
    edit(
        &f,
        "reserved[39]; // 39 (25 - 63)",
        "reserved[35]; // 35 (25 - 59)",
    );
    check(
        &ws,
        FILL,
        line,
        &["C error:", "NEURON_ISA_TPB_S1_FILL_STRUCT is NOT 64B"],
    );
}

#[test]
fn shrunk_operand_struct_without_the_assert_fails_the_model_size_check() {
    let ws = Workspace::tiny("shrunk-model");
    let f = ws.file(FILL);
    let line = line_of(&f, "typedef struct NEURON_ISA_TPB_S1_FILL_STRUCT {");
    edit(
        &f,
        "reserved[39]; // 39 (25 - 63)",
        "reserved[35]; // 35 (25 - 59)",
    );
    // Blank the assert (same line count), so only the generator's own check can catch it.
    edit(
        &f,
        "ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S1_FILL_STRUCT) == 64, \"Error: NEURON_ISA_TPB_S1_FILL_STRUCT is NOT 64B.\");",
        "",
    );
    check(
        &ws,
        FILL,
        line,
        &["NEURON_ISA_TPB_S1_FILL_STRUCT", "is 60 bytes", "must be 64"],
    );
}

#[test]
fn mapping_entry_naming_an_unknown_struct() {
    let ws = Workspace::tiny("unknown-struct");
    let f = ws.file(MAPPING);
    let line = line_of(&f, "\"NEURON_ISA_TPB_S1_FILL_STRUCT\"");
    edit(
        &f,
        "\"NEURON_ISA_TPB_S1_FILL_STRUCT\"",
        "\"NEURON_ISA_TPB_S9_NOPE_STRUCT\"",
    );
    check(
        &ws,
        MAPPING,
        line,
        &["NEURON_ISA_TPB_S9_NOPE_STRUCT", "no header declares"],
    );
}

/// A mapping token naming no enumerator is a stale entry: skipped with a warning at the line of the
/// token (instruction_mapping.json is a stale superset of the enum); `--strict` makes it an error.
#[test]
fn mapping_entry_naming_an_unknown_opcode_is_skipped_with_a_warning() {
    let ws = Workspace::tiny("unknown-opcode");
    let f = ws.file(MAPPING);
    let line = line_of(&f, "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\"");
    edit(
        &f,
        "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\"",
        "\"NEURON_ISA_TPB_OPCODE_FILL_NEW\"",
    );
    let words = [
        "stale entry skipped",
        "NEURON_ISA_TPB_OPCODE_FILL_NEW",
        "NEURON_ISA_TPB_S1_FILL_STRUCT",
        "OPCODE enum lacks",
    ];
    let generated = generate_ok(&ws.tree, &Default::default());
    assert_warns(&generated.model, MAPPING, line, &words);
    let m = &generated.model;
    assert_eq!(m.shapes[0].opcodes, [m.opcode_named("FILL").unwrap()]);
    assert_eq!(m.opcodes[m.opcode_named("FILL_OLD").unwrap()].shape, None);
    // --strict makes it an error and writes nothing; without it the report lists it.
    let err = generate_err_with(&ws.tree, &isa_codegen::Options::STRICT);
    assert_reports(&err, MAPPING, line, &words);
    assert_nothing_written_with(
        ws_strict(&ws),
        &format!("{TREE}/{MAPPING}:{line}: stale entry"),
    );
    let out = run_binary(&ws, &[]);
    assert_eq!(out.0, Some(0), "{}", out.2);
    assert!(
        out.1.contains(&format!(
            "    warning: {MAPPING}:{line}: stale entry skipped"
        )),
        "{}",
        out.1
    );
}

/// A token equal to exactly one enumerator ignoring underscores and case (the vendor's
/// `DMA_MEMCPY` for `DMAMEMCPY`) is read as that enumerator, with a warning; an ambiguous one is stale.
#[test]
fn mapping_alias_is_resolved_with_a_warning_and_an_ambiguous_one_is_skipped() {
    let ws = Workspace::tiny("alias-opcode");
    let f = ws.file(MAPPING);
    let line = line_of(&f, "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\"");
    edit(
        &f,
        "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\"",
        "\"NEURON_ISA_TPB_OPCODE_FILLOLD\"",
    );
    let generated = generate_ok(&ws.tree, &Default::default());
    let m = &generated.model;
    assert_warns(
        m,
        MAPPING,
        line,
        &[
            "alias resolved",
            "`NEURON_ISA_TPB_OPCODE_FILLOLD`",
            "read as `NEURON_ISA_TPB_OPCODE_FILL_OLD`",
        ],
    );
    assert_eq!(m.shapes[0].opcodes.len(), 2);
    assert_eq!(
        m.opcodes[m.opcode_named("FILL_OLD").unwrap()].shape,
        Some(isa_codegen::model::ShapeId::new(0))
    );
    assert!(generated.files["src/generated/inst.rs"].contains("pub struct FillOld("));
    let err = generate_err_with(&ws.tree, &isa_codegen::Options::STRICT);
    assert_reports(&err, MAPPING, line, &["alias resolved", "--strict"]);

    // Two enumerators equal to the token ignoring underscores: ambiguous, so stale.
    edit(
        &ws.file(COMMON),
        "    NEURON_ISA_TPB_OPCODE_PSEUDO_X  = 0xc1,\n",
        "    NEURON_ISA_TPB_OPCODE_PSEUDO_X  = 0xc1,\n    NEURON_ISA_TPB_OPCODE_FI_LLOLD  = 0xc2,\n",
    );
    let generated = generate_ok(&ws.tree, &Default::default());
    assert_warns(
        &generated.model,
        MAPPING,
        line,
        &[
            "stale entry skipped",
            "ambiguous",
            "`NEURON_ISA_TPB_OPCODE_FILL_OLD`",
            "`NEURON_ISA_TPB_OPCODE_FI_LLOLD`",
        ],
    );
    assert_eq!(generated.model.shapes[0].opcodes.len(), 1);
}

#[test]
fn two_opcodes_with_one_value() {
    let ws = Workspace::tiny("dup-value");
    let f = ws.file(COMMON);
    let line = line_of(&f, "NEURON_ISA_TPB_OPCODE_FILL_OLD  = 0x03");
    edit(
        &f,
        "NEURON_ISA_TPB_OPCODE_FILL_OLD  = 0x03",
        "NEURON_ISA_TPB_OPCODE_FILL_OLD  = 0x02",
    );
    check(
        &ws,
        COMMON,
        line,
        &[
            "NEURON_ISA_TPB_OPCODE_FILL_OLD",
            "0x02",
            "NEURON_ISA_TPB_OPCODE_FILL`",
        ],
    );
}

#[test]
fn two_opcodes_with_one_value_in_a_real_tree() {
    let ws = Workspace::new("dup-real", &real_tree("sunda"), "neuron_sunda_arch_isa");
    let f = ws.file("tpb/aws_neuron_isa_tpb_common.h");
    let line = edit_line(&f, "NEURON_ISA_TPB_OPCODE_RAND_GET_STATE ", "0x77", "0x78");
    let err = generate_err(&ws.tree);
    // RAND_GET_STATE comes first in the enum, so RAND_SET_STATE (0x78) is the duplicate.
    let set = line_of(&f, "NEURON_ISA_TPB_OPCODE_RAND_SET_STATE ");
    assert_eq!(set, line + 1);
    assert_reports(
        &err,
        COMMON,
        set,
        &[
            "NEURON_ISA_TPB_OPCODE_RAND_SET_STATE",
            "0x78",
            "NEURON_ISA_TPB_OPCODE_RAND_GET_STATE",
        ],
    );
    assert_nothing_written(&ws, &format!("neuron_sunda_arch_isa/{COMMON}:{set}"));
}

/// A firmware entry of `rng-runtime.json` must carry one of the evidence levels PROVENANCE
/// defines; another word is an error at the entry's line (the data flows into the generated
/// `Firmware` answers, so it is never guessed).
#[test]
fn unknown_evidence_level_in_the_runtime_data() {
    let ws = Workspace::new("evidence", &real_tree("cayman"), "neuron_cayman_arch_isa");
    let f = ws.tree.join("rng-runtime.json");
    let text = fs::read_to_string(&f).unwrap();
    fs::write(&f, text.replacen("\"observed\"", "\"seen\"", 1)).unwrap();
    let err = generate_err(&ws.tree);
    assert!(
        err.diagnostics
            .iter()
            .any(|d| d.loc.file == "rng-runtime.json"
                && d.loc.line > 0
                && d.message.contains("evidence `seen` is not a level")),
        "{err}"
    );
    assert_nothing_written(&ws, "neuron_cayman_arch_isa/rng-runtime.json:");
}

/// A placement line's note names its evidence by `headers/PROVENANCE.md` entry (`(A55)`); an
/// item of such a group that is no entry name, or a group left open, is an error at that line
/// (the note becomes the generated `Opcode::placement_evidence`, so it is never guessed).
#[test]
fn malformed_evidence_note_of_a_placement_line() {
    const INSTR_ASSERT: &str = "tpb/aws_neuron_isa_tpb_instr_assert.h";
    let ws = Workspace::new(
        "place-note",
        &real_tree("mariana"),
        "neuron_mariana_arch_isa",
    );
    let f = ws.file(INSTR_ASSERT);
    let line = edit_line(
        &f,
        "RAND_GET_STATE)    // validator Act arm",
        "(C11)",
        "(C11, X4)",
    );
    let err = generate_err(&ws.tree);
    assert_reports(
        &err,
        INSTR_ASSERT,
        line,
        &["`X4` in `(C11, X4)`", "evidence note"],
    );
    assert_nothing_written(
        &ws,
        &format!("neuron_mariana_arch_isa/{INSTR_ASSERT}:{line}"),
    );

    let ws = Workspace::new("place-open", &real_tree("sunda"), "neuron_sunda_arch_isa");
    let f = ws.file(INSTR_ASSERT);
    let line = edit_line(&f, "seeds the DVE generator", "(A57)", "(A57");
    let err = generate_err(&ws.tree);
    assert_reports(&err, INSTR_ASSERT, line, &["does not close"]);
}

/// A legality arm's evidence note goes through the same reader: a malformed entry name in
/// CAYMAN's `// inferred (A27, C4)` is an error at the arm's line.
#[test]
fn malformed_evidence_note_of_a_legality_arm() {
    let ws = Workspace::new("arm-note", &real_tree("cayman"), "neuron_cayman_arch_isa");
    let f = ws.file("tpb/aws_neuron_isa_tpb_s1_rand.h");
    let text = fs::read_to_string(&f).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("// inferred (A27, C4)"))
        .expect("an arm note") as u32
        + 1;
    fs::write(
        &f,
        text.replacen("// inferred (A27, C4)", "// inferred (A27, C04)", 1),
    )
    .unwrap();
    let err = generate_err(&ws.tree);
    assert_reports(&err, "tpb/aws_neuron_isa_tpb_s1_rand.h", line, &["`C04`"]);
}

/// A spec block that does not parse is dropped with a warning at its line (and so is every
/// function calling it); `--strict` makes it an error and writes nothing.
#[test]
fn unparsable_spec_block_names_its_line() {
    let ws = Workspace::tiny("spec-parse");
    let f = ws.file(FILL);
    let line = line_of(&f, "(i.s1_fill.count >= 1)");
    edit(&f, "(i.s1_fill.count >= 1)", "(i.s1_fill.count >= )");
    let g = generate_ok(&ws.tree, &Default::default());
    assert_warns(
        &g.model,
        FILL,
        line,
        &[
            "spec function `is_valid_s1_fill` is not translated",
            "spec block does not parse",
        ],
    );
    assert!(g.model.validators.is_empty());
    let err = generate_err_with(&ws.tree, &isa_codegen::Options::STRICT);
    assert_reports(&err, FILL, line, &["spec block does not parse"]);
    assert_nothing_written_with(ws_strict(&ws), &format!("{TREE}/{FILL}:{line}"));
}

#[test]
fn unclosed_spec_block_names_its_first_line() {
    let ws = Workspace::tiny("spec-open");
    let f = ws.file(FILL);
    let line = line_of(&f, "// fn fill_lanes_ok(");
    edit(&f, "(n <= MAX_LANES)\n// }\n", "(n <= MAX_LANES)\n\n");
    let g = generate_ok(&ws.tree, &Default::default());
    assert_warns(
        &g.model,
        FILL,
        line,
        &["`fill_lanes_ok`", "spec block is not closed"],
    );
    // Its caller goes too, naming it.
    let caller = line_of(&f, "// fn is_valid_s1_fill(");
    assert_warns(
        &g.model,
        FILL,
        caller,
        &[
            "`is_valid_s1_fill` is not translated: it calls `fill_lanes_ok`",
            "does not parse",
        ],
    );
    let err = generate_err_with(&ws.tree, &isa_codegen::Options::STRICT);
    assert_reports(&err, FILL, line, &["spec block is not closed"]);
    assert_nothing_written_with(ws_strict(&ws), &format!("{TREE}/{FILL}:{line}"));
}

#[test]
fn duplicate_spec_function() {
    let ws = Workspace::tiny("spec-dup");
    let f = ws.file(UTIL);
    edit(
        &f,
        "#endif",
        "// fn fill_lanes_ok(n: u8, e: NeuronEngine) -> bool {\n//     (n <= MAX_LANES)\n// }\n\n#endif",
    );
    let first = line_of(&ws.file(FILL), "// fn fill_lanes_ok(");
    let line = line_of(&f, "// fn fill_lanes_ok(");
    check(
        &ws,
        UTIL,
        line,
        &[
            "spec function `fill_lanes_ok`",
            &format!("already defined at {FILL}:{first}"),
        ],
    );
}

#[test]
fn missing_tree() {
    let scratch = Scratch::new("bad-missing");
    let gone = scratch.path().join("headers/neuron_gone_arch_isa");
    let err = generate_err(&gone);
    assert_eq!(err.diagnostics.len(), 1, "{err}");
    assert_eq!(err.diagnostics[0].loc.file, gone.display().to_string());
    assert!(
        err.diagnostics[0].message.contains("header tree not found"),
        "{err}"
    );
    assert!(err.to_string().contains("neuron_gone_arch_isa"), "{err}");

    // A workspace without headers/: plan names the directory, the binary exits 2 and writes nothing.
    let headers = scratch.path().join("headers");
    let errors = isa_codegen::workspace::plan(scratch.path(), &headers, &[], &Default::default())
        .unwrap_err();
    assert_errors_have_lines(&headers, &errors);
    assert!(
        errors[0]
            .to_string()
            .contains(&headers.display().to_string()),
        "{errors:?}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
        .arg("--root")
        .arg(scratch.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was written"));
    assert!(snapshot(scratch.path()).is_empty());
}

#[test]
fn tree_without_tpb() {
    let ws = Workspace::tiny("no-tpb");
    let tpb = ws.file("tpb");
    fs::rename(&tpb, ws.tree.join("include")).unwrap();
    check(&ws, "tpb", 0, &["no tpb/ directory"]);
}

#[test]
fn tree_without_common_header() {
    let ws = Workspace::tiny("no-common");
    fs::remove_file(ws.file(COMMON)).unwrap();
    check(&ws, COMMON, 0, &["missing", "aws_neuron_isa_tpb_common.h"]);
}

/// The last line of `file`: where what a file lacks is reported.
fn last_line(file: &Path) -> u32 {
    fs::read_to_string(file).unwrap().lines().count() as u32
}

/// What common.h must declare and does not is reported at its last line, where it would go (as
/// rustc points at the end of a file that lacks `main`).
#[test]
fn common_header_without_the_instruction_size() {
    let ws = Workspace::tiny("no-inst-nbytes");
    let f = ws.file(COMMON);
    edit(
        &f,
        "NEURON_ISA_TPB_INST_NBYTES = 64U",
        "NEURON_ISA_TPB_INST_BYTES = 64U",
    );
    check(
        &ws,
        COMMON,
        last_line(&f),
        &["missing constant NEURON_ISA_TPB_INST_NBYTES"],
    );
}

#[test]
fn common_header_without_the_opcode_enum() {
    let ws = Workspace::tiny("no-opcode-enum");
    let f = ws.file(COMMON);
    let text = fs::read_to_string(&f).unwrap();
    fs::write(
        &f,
        text.replace("NEURON_ISA_TPB_OPCODE ", "NEURON_ISA_TPB_OPCODES ")
            .replace("NEURON_ISA_TPB_OPCODE;", "NEURON_ISA_TPB_OPCODES;"),
    )
    .unwrap();
    check(
        &ws,
        COMMON,
        last_line(&f),
        &["missing enum NEURON_ISA_TPB_OPCODE"],
    );
}

#[test]
fn invalid_json_in_the_mapping() {
    let ws = Workspace::tiny("json");
    let f = ws.file(MAPPING);
    edit(
        &f,
        "\"NEURON_ISA_TPB_OPCODE_FILL\",",
        "\"NEURON_ISA_TPB_OPCODE_FILL\"",
    );
    // serde_json notices the missing comma at the next string.
    let line = line_of(&f, "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\"");
    check(
        &ws,
        MAPPING,
        line,
        &["not valid JSON", "expected `,` or `]`"],
    );
}

#[test]
fn mapping_with_a_wrong_shape() {
    let ws = Workspace::tiny("json-shape");
    let f = ws.file(MAPPING);
    edit(&f, "\"NEURON_ISA_TPB_OPCODE_FILL\",", "7,");
    let line = line_of(&f, "\"NEURON_ISA_TPB_S1_FILL_STRUCT\"");
    check(&ws, MAPPING, line, &["every opcode must be a string"]);
}

#[test]
fn banner_without_the_nc_version() {
    let ws = Workspace::tiny("banner");
    let f = ws.file(COMMON);
    edit(
        &f,
        " * ISA header for NC-v9",
        " * ISA header, ninth generation",
    );
    check(&ws, COMMON, 3, &["ISA header for NC-vN"]);
}

#[test]
fn banner_with_a_version_that_is_not_a_number() {
    let ws = Workspace::tiny("banner-nan");
    let f = ws.file(COMMON);
    edit(&f, " * ISA header for NC-v9", " * ISA header for NC-vX");
    check(&ws, COMMON, 3, &["not followed by a version number"]);
}

#[test]
fn tree_directory_not_named_neuron_gen_arch_isa() {
    let scratch = Scratch::new("bad-name");
    let tree = copy_tree(&tiny_tree(), scratch.path(), "tiny_isa");
    let err = generate_err(&tree);
    assert_reports(&err, ".", 0, &["`tiny_isa`", "neuron_<gen>_arch_isa"]);
    // Under headers/ such a directory is not a tree at all: plan skips it and writes nothing.
    let headers = scratch.path().join("headers");
    copy_tree(&tiny_tree(), &headers, "neuron-tiny-arch-isa");
    copy_tree(&tiny_tree(), &headers, "neuron_Tiny_arch_isa");
    let run =
        isa_codegen::workspace::plan(scratch.path(), &headers, &[], &Default::default()).unwrap();
    assert!(run.plans.is_empty() && run.missing.is_empty(), "{run:?}");
    // An upper-case generation name is not a tree name.
    let err = generate_err(&headers.join("neuron_Tiny_arch_isa"));
    assert_reports(
        &err,
        ".",
        0,
        &["`neuron_Tiny_arch_isa`", "neuron_<gen>_arch_isa"],
    );
}

#[test]
fn tree_without_a_crate_is_reported_and_the_others_still_generate() {
    let ws = Workspace::tiny("no-crate");
    fs::remove_dir_all(ws.root().join("isa-tiny")).unwrap();
    let headers = ws.root().join("headers");
    let run = isa_codegen::workspace::plan(ws.root(), &headers, &[], &Default::default()).unwrap();
    assert_eq!(run.missing.len(), 1);
    let message = run.missing[0].report();
    let crate_dir = ws.root().join("isa-tiny");
    for part in [
        "headers/neuron_tiny_arch_isa has no crate: create ".to_string(),
        format!("{}/Cargo.toml", crate_dir.display()),
        "name = \"isa-tiny\"".to_string(),
        "add \"isa-tiny\" to the workspace members".to_string(),
        "cargo run -p isa-codegen".to_string(),
    ] {
        assert!(message.contains(&part), "`{part}` not in: {message}");
    }
    assert_eq!(run.plans.len(), 1);
    assert_eq!(run.plans[0].tree_name, "neuron_spare_arch_isa");
    assert!(!run.plans[0].is_fresh());

    // The binary prints the message and regenerates the crate that exists.
    let out = Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
        .arg("--root")
        .arg(ws.root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(&message), "{stdout}");
    let opcode = fs::read_to_string(ws.root().join("isa-spare/src/generated/opcode.rs")).unwrap();
    assert_ne!(opcode, COMMITTED);
    assert!(opcode.contains("pub enum Opcode"));
    assert!(ws.root().join("isa-spare/src/generated/inst.rs").is_file());
    assert!(
        !crate_dir.exists(),
        "no crate is created for the tree without one"
    );
    // Once written, the spare crate is fresh: a second run writes nothing more.
    let again =
        isa_codegen::workspace::plan(ws.root(), &headers, &[], &Default::default()).unwrap();
    assert!(again.plans[0].is_fresh());
}

#[test]
fn missing_libclang_is_one_clear_error_not_a_panic() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
        .args(["--check"])
        .env("LIBCLANG_PATH", "/nonexistent/libclang")
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("runs the generator");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot load libclang") && stderr.contains("libclang-dev"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The one diagnostic of each tree names the library, which has no lines (the exception of
    // `assert_places_have_lines`), so it is printed without one.
    let diagnostics: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with("isa-codegen:"))
        .collect();
    assert!(!diagnostics.is_empty(), "{stderr}");
    for d in diagnostics {
        let (place, _) = d.split_once(": ").unwrap();
        assert!(place.ends_with("_arch_isa/(libclang)"), "{d}");
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 12: the malformed trees that crashed the generator or were accepted silently, one per
// class. Each failed before its fix (a panic, a stack overflow, or a tree generated anyway).

const RUNTIME: &str = "rng-runtime.json";

#[test]
fn mapping_lists_an_opcode_twice() {
    // Was a panic (index out of bounds) in the model builder.
    let ws = Workspace::tiny("dup-opcode");
    let f = ws.file(MAPPING);
    edit(
        &f,
        "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\"",
        "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\",\n            \"NEURON_ISA_TPB_OPCODE_FILL\"",
    );
    let first = line_of(&f, "\"NEURON_ISA_TPB_OPCODE_FILL\",");
    let second = first + 2;
    check(
        &ws,
        MAPPING,
        second,
        &[
            "`NEURON_ISA_TPB_OPCODE_FILL` is listed twice",
            "NEURON_ISA_TPB_S1_FILL_STRUCT",
            &format!("first at {MAPPING}:{first}"),
        ],
    );
    // The same under --strict (an error, not a warning --strict would add to).
    assert_nothing_written_with(ws_strict(&ws), &format!("{TREE}/{MAPPING}:{second}"));
}

#[test]
fn mapping_with_a_duplicate_key_names_both_lines() {
    // serde_json kept the last list: FILL lost its mapping without a word.
    let ws = Workspace::tiny("dup-key");
    let f = ws.file(MAPPING);
    edit(
        &f,
        "    },\n    \"struct2pseudo_opcode\"",
        "    ,\n        \"NEURON_ISA_TPB_S1_FILL_STRUCT\": [\"NEURON_ISA_TPB_OPCODE_FILL_OLD\"]\n    },\n    \"struct2pseudo_opcode\"",
    );
    let text = fs::read_to_string(&f).unwrap();
    let lines: Vec<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"NEURON_ISA_TPB_S1_FILL_STRUCT\""))
        .map(|(k, _)| k as u32 + 1)
        .collect();
    assert_eq!(lines.len(), 2);
    check(
        &ws,
        MAPPING,
        lines[1],
        &[
            "duplicate key `NEURON_ISA_TPB_S1_FILL_STRUCT`",
            &format!("{MAPPING}:{}", lines[0]),
        ],
    );
}

/// Puts a runtime file (or directory) into the tiny tree.
fn with_runtime(ws: &Workspace, text: &str) {
    fs::write(ws.file(RUNTIME), text).unwrap();
}

#[test]
fn runtime_data_with_a_duplicate_key_names_both_lines() {
    let ws = Workspace::tiny("dup-runtime");
    with_runtime(
        &ws,
        "{\n  \"about\": \"x\",\n  \"firmware\": [],\n  \"about\": \"y\"\n}\n",
    );
    check(
        &ws,
        RUNTIME,
        4,
        &["duplicate key `about`", &format!("{RUNTIME}:2")],
    );
}

#[test]
fn runtime_data_that_is_a_directory_is_an_error_not_absent() {
    // Was read as "no runtime data": the crate rewritten without its firmware data.
    let ws = Workspace::tiny("runtime-dir");
    fs::create_dir(ws.file(RUNTIME)).unwrap();
    check(&ws, RUNTIME, 0, &["is a directory"]);
}

#[test]
fn runtime_data_that_is_not_utf8_names_line_and_column() {
    let ws = Workspace::tiny("runtime-utf8");
    fs::write(ws.file(RUNTIME), b"{\n  \"about\": \"caf\xe9\"\n}\n").unwrap();
    check(&ws, RUNTIME, 2, &["not UTF-8", "byte 0xe9 at column 16"]);
}

#[test]
fn firmware_entry_with_an_engine_rng_core_does_not_model() {
    // `PE` is a member of the engine enum but has no RNG state: the entry was dropped from the
    // rng-core data and kept in the tables' firmware answers.
    let ws = Workspace::new("fw-engine", &real_tree("cayman"), "neuron_cayman_arch_isa");
    let f = ws.tree.join(RUNTIME);
    let text = fs::read_to_string(&f).unwrap();
    fs::write(
        &f,
        text.replacen("\"engine\": \"POOL\"", "\"engine\": \"PE\"", 1),
    )
    .unwrap();
    let line = line_of(&f, "\"engine\": \"PE\"") - 1;
    let err = generate_err(&ws.tree);
    assert_eq!(err.diagnostics.len(), 1, "{err}");
    assert_reports(
        &err,
        RUNTIME,
        line,
        &["engine `PE`", "one of ACT, POOL, DVE"],
    );
    assert_nothing_written(&ws, &format!("neuron_cayman_arch_isa/{RUNTIME}:{line}"));
}

#[test]
fn firmware_entry_naming_an_instruction_without_a_body() {
    let ws = Workspace::new("fw-inst", &real_tree("cayman"), "neuron_cayman_arch_isa");
    let f = ws.tree.join(RUNTIME);
    let text = fs::read_to_string(&f).unwrap();
    // The second entry: its line is that of its `"instruction"` key.
    fs::write(&f, text.replacen("\"RAND_GET_STATE\"", "\"RAND\"", 1)).unwrap();
    let line = line_of(&f, "\"instruction\": \"RAND\"");
    let err = generate_err(&ws.tree);
    assert_reports(
        &err,
        RUNTIME,
        line,
        &["instruction `RAND` has no firmware body", "RAND_SET_STATE"],
    );
}

#[test]
fn model_override_that_rng_core_does_not_have() {
    // Was a crate without its rng_core::Generation impl, with a note in the report.
    let ws = Workspace::new("override", &real_tree("cayman"), "neuron_cayman_arch_isa");
    let f = ws.tree.join(RUNTIME);
    edit(
        &f,
        "\"model\": {",
        "\"model\": {\n        \"lane_interleave\": { \"value\": \"zigzag\", \"source\": \"none\" },",
    );
    let line = line_of(&f, "\"zigzag\"");
    let err = generate_err(&ws.tree);
    assert_reports(
        &err,
        RUNTIME,
        line,
        &[
            "`lane_interleave` is `zigzag`",
            "one of round_robin, lockstep",
        ],
    );
}

#[test]
fn legality_width_of_zero_is_reported_at_its_disjunct() {
    // `x / 0 = 0` in the spec language: this became a legal arm of width 0.
    let ws = Workspace::new("width-0", &real_tree("cayman"), "neuron_cayman_arch_isa");
    let rel = "tpb/aws_neuron_isa_tpb_d4_rand.h";
    let f = ws.file(rel);
    edit(
        &f,
        "&& rand_get_state_elem_cnt(i, 7))",
        "&& rand_get_state_elem_cnt(i, 7 / 0))",
    );
    let line = line_of(&f, "rand_get_state_elem_cnt(i, 7 / 0)") - 4;
    let err = generate_err(&ws.tree);
    assert_reports(
        &err,
        rel,
        line,
        &[
            "`rand_get_state_legal_combinations`",
            "width 0 is not a word count",
            "x / 0",
        ],
    );
    assert_nothing_written(&ws, &format!("neuron_cayman_arch_isa/{rel}:{line}"));
}

#[test]
fn header_that_is_not_utf8_names_line_and_column() {
    // Was a byte offset.
    let ws = Workspace::tiny("utf8");
    let f = ws.file(FILL);
    let line = line_of(&f, "uint16_t              count;");
    let text = fs::read(&f).unwrap();
    let at = text.windows(5).position(|w| w == b"count").expect("count");
    let mut bytes = text.clone();
    bytes.insert(at, 0xff);
    fs::write(&f, bytes).unwrap();
    check(&ws, FILL, line, &["not UTF-8", "byte 0xff at column 27"]);
}

#[test]
fn header_that_cannot_be_read_is_named() {
    // Reading /proc/self/mem from offset 0 fails even for root (chmod does not stop root).
    let ws = Workspace::tiny("unreadable");
    let rel = "tpb/aws_neuron_isa_tpb_zz.h";
    std::os::unix::fs::symlink("/proc/self/mem", ws.file(rel)).unwrap();
    check(&ws, rel, 0, &["cannot read"]);
}

/// The `// fn` block of `is_valid_s1_fill` with `body` for a body.
fn fill_validator(body: &str) -> String {
    format!("// fn is_valid_s1_fill(i: Inst, e: NeuronEngine) -> bool {{\n//     {body}\n// }}\n")
}

/// The largest `n` whose block `make(n)` is within the nesting limit (bounds grow with `n`).
fn largest_within_limit(make: impl Fn(usize) -> String) -> usize {
    use isa_codegen::read::spec::{nesting_bound, MAX_SPEC_DEPTH};
    // The bound is of the block's text, as the reader sees it: without the `//` prefixes.
    let bound = |n: usize| {
        let text: String = make(n)
            .lines()
            .map(|l| format!("{}\n", l.trim_start().trim_start_matches("//")))
            .collect();
        nesting_bound(&text)
    };
    let n = (1..=MAX_SPEC_DEPTH)
        .find(|&n| bound(n) > MAX_SPEC_DEPTH)
        .expect("the bound grows past the limit")
        - 1;
    assert!(n > 100 && bound(n) <= MAX_SPEC_DEPTH, "n = {n}");
    n
}

/// The tiny tree with `is_valid_s1_fill`'s block replaced by `block`; the block's line.
fn tiny_with_validator(tag: &str, block: &str) -> (Workspace, u32) {
    let ws = Workspace::tiny(tag);
    let f = ws.file(FILL);
    let line = line_of(&f, "// fn is_valid_s1_fill(");
    edit(
        &f,
        "// fn is_valid_s1_fill(i: Inst, e: NeuronEngine) -> bool {\n//       has_valid_header(i)\n//    && (i.s1_fill.count >= 1)\n//    && fill_lanes_ok(i.s1_fill.lanes, e)\n// }\n",
        block,
    );
    (ws, line)
}

fn chain(n: usize) -> String {
    let mut parts = vec!["fill_lanes_ok(i.s1_fill.lanes, e)".to_string()];
    parts.extend((1..n).map(|k| format!("(i.s1_fill.count != {k})")));
    fill_validator(&parts.join(" && "))
}

fn parens(n: usize) -> String {
    fill_validator(&format!(
        "{}fill_lanes_ok(i.s1_fill.lanes, e) && (i.s1_fill.count >= 1){}",
        "(".repeat(n),
        ")".repeat(n)
    ))
}

#[test]
fn spec_blocks_at_the_nesting_limit_generate() {
    // A long `&&` chain and deep parentheses, each as deep as the limit allows: read, modelled,
    // evaluated (legality, instance search) and emitted — was a stack overflow at ~650 terms.
    for (tag, make) in [
        ("deep-chain", chain as fn(usize) -> String),
        ("deep-parens", parens),
    ] {
        let n = largest_within_limit(make);
        let (ws, _) = tiny_with_validator(tag, &make(n));
        let g = generate_ok(&ws.tree, &isa_codegen::Options::STRICT);
        assert!(g.files["src/generated/spec.rs"].contains("is_valid_s1_fill"));
    }
}

#[test]
fn legality_function_at_the_nesting_limit_generates() {
    // The legality derivation walks the same trees: a table from a chain as long as allowed.
    let legal = |n: usize| {
        format!(
            "// fn fill_legal_combinations(i: Inst, e: NeuronEngine) -> bool {{\n//     {} && (i.s1_fill.count == 6)\n// }}\n",
            vec!["(e == NeuronEngine::Pool)"; n].join(" && ")
        )
    };
    let n = largest_within_limit(legal);
    let ws = Workspace::tiny("deep-legal");
    edit(&ws.file(FILL), "#endif", &format!("{}\n#endif", legal(n)));
    let g = generate_ok(&ws.tree, &isa_codegen::Options::STRICT);
    let t = &g.model.tables[0];
    assert_eq!((t.arms.len(), t.arms[0].words), (1, 6), "{t:?}");
}

#[test]
fn spec_blocks_past_the_nesting_limit_are_errors_before_any_walk() {
    for (tag, make) in [
        ("deep-chain-over", chain as fn(usize) -> String),
        ("deep-parens-over", parens),
    ] {
        let n = largest_within_limit(make) + 1;
        let (ws, line) = tiny_with_validator(tag, &make(n));
        check(
            &ws,
            FILL,
            line,
            &["`is_valid_s1_fill` nests", "the limit is 1000"],
        );
    }
    // Far past it: the error comes from the lexical bound, so nothing recursive ever runs.
    let (ws, line) = tiny_with_validator("deep-far", &chain(200_000));
    let err = generate_err(&ws.tree);
    assert_reports(&err, FILL, line, &["the limit is 1000"]);
}

#[test]
fn spec_depth_counts_through_calls_and_recursion_is_an_error() {
    // Three blocks each within the limit, each calling the next at its deepest point (the
    // first term of a left-nested chain): parentheses vanish from the resolved tree, chains do not.
    let link = |name: &str, first: &str| {
        let terms: Vec<String> = std::iter::once(first.to_string())
            .chain((1..480).map(|k| format!("(i.s1_fill.count != {k})")))
            .collect();
        format!(
            "// fn {name}(i: Inst, e: NeuronEngine) -> bool {{\n//     {}\n// }}\n",
            terms.join(" && ")
        )
    };
    let block = format!(
        "{}\n{}\n{}",
        link("is_valid_s1_fill", "deep_helper(i, e)"),
        link("deep_helper", "deeper_helper(i, e)"),
        link("deeper_helper", "fill_lanes_ok(i.s1_fill.lanes, e)")
    );
    let (ws, line) = tiny_with_validator("deep-calls", &block);
    check(
        &ws,
        FILL,
        line,
        &[
            "`is_valid_s1_fill` nests",
            "with the functions it calls inlined",
        ],
    );

    let (ws, line) = tiny_with_validator(
        "recursion",
        &fill_validator("fill_lanes_ok(i.s1_fill.lanes, e) && is_valid_s1_fill(i, e)"),
    );
    check(
        &ws,
        FILL,
        line,
        &[
            "`is_valid_s1_fill` calls itself",
            "is_valid_s1_fill -> is_valid_s1_fill",
        ],
    );
}

/// The trees that generate, the committed ones, the fixtures and the vendor-scale tree (the one
/// with warnings), read and modelled: every warning, untranslated item and note names its line.
#[test]
fn every_warning_and_note_of_the_normal_trees_names_a_line() {
    let root = common::workspace_root();
    let mut trees: Vec<PathBuf> = fs::read_dir(root.join("headers"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("tpb").is_dir())
        .collect();
    trees.sort();
    assert_eq!(trees.len(), 4, "{trees:?}");
    trees.push(tiny_tree());
    trees.push(common::quirks_tree());
    trees.push(root.join("fixtures/vendor-scale/neuron_maverick_arch_isa"));
    let mut seen = 0;
    for tree in &trees {
        let input = isa_codegen::read::read_tree(tree).unwrap_or_else(|e| panic!("{e}"));
        let model = isa_codegen::model::build(&input).unwrap_or_else(|e| panic!("{e}"));
        assert_model_places_have_lines(tree, &model);
        seen += model.warnings.len() + model.untranslated.len() + model.notes.len();
    }
    // The vendor-scale tree's mapping quirks and the committed trees' notes at least.
    assert!(seen >= 8, "only {seen} diagnostics seen");
}

/// What the model cannot represent (a function, an extern variable, pointer and function
/// typedefs, a float and a string constant) is noted, each at its line, and is an error under
/// `--strict`; the members of an anonymous enum are constants at their lines (C gives such an
/// enum no type name, so nothing of bindgen's name for it is left).
#[test]
fn declarations_the_model_cannot_represent_are_noted_at_their_line() {
    let ws = Workspace::tiny("untranslated");
    let rel = "tpb/aws_neuron_isa_tpb_zz_extra.h";
    let f = ws.file(rel);
    fs::write(
        &f,
        "#ifndef ZZ_EXTRA_H\n#define ZZ_EXTRA_H\n#include \"aws_neuron_isa_tpb_common.h\"\n\
         uint32_t neuron_isa_tpb_helper(uint32_t x);\n\
         extern uint32_t neuron_isa_tpb_counter;\n\
         typedef uint8_t *NEURON_ISA_TPB_PTR;\n\
         typedef void (*NEURON_ISA_TPB_CALLBACK)(void);\n\
         static const float NEURON_ISA_TPB_SCALE = 1.5f;\n\
         #define NEURON_ISA_TPB_NAME \"tiny\"\n\
         enum {\n    NEURON_ISA_TPB_ANON_A = 1,\n    NEURON_ISA_TPB_ANON_B = 2,\n};\n\
         #endif\n",
    )
    .unwrap();
    let noted = [
        (
            "neuron_isa_tpb_helper(",
            "`neuron_isa_tpb_helper`",
            "functions and extern variables",
        ),
        (
            "neuron_isa_tpb_counter;",
            "`neuron_isa_tpb_counter`",
            "functions and extern variables",
        ),
        (
            "*NEURON_ISA_TPB_PTR;",
            "typedef `NEURON_ISA_TPB_PTR`",
            "has no ISA meaning",
        ),
        (
            "NEURON_ISA_TPB_CALLBACK)",
            "typedef `NEURON_ISA_TPB_CALLBACK`",
            "has no ISA meaning",
        ),
        (
            "NEURON_ISA_TPB_SCALE =",
            "`NEURON_ISA_TPB_SCALE`",
            "not an integer literal",
        ),
        (
            "NEURON_ISA_TPB_NAME \"",
            "`NEURON_ISA_TPB_NAME`",
            "constant of type",
        ),
    ];
    let g = generate_ok(&ws.tree, &Default::default());
    let m = &g.model;
    assert_eq!(m.untranslated.len(), noted.len(), "{:#?}", m.untranslated);
    for (needle, name, why) in noted {
        let line = line_of(&f, needle);
        assert!(
            m.untranslated
                .iter()
                .any(|d| d.loc == isa_codegen::diag::Loc::new(rel, line)
                    && d.message.contains(name)
                    && d.message.contains(why)),
            "no note at {rel}:{line} on {name}: {:#?}",
            m.untranslated
        );
    }
    for (member, value) in [("ANON_A", 1), ("ANON_B", 2)] {
        let c = m
            .constant(member)
            .unwrap_or_else(|| panic!("no constant {member}"));
        assert_eq!(c.value, value);
        assert_eq!(
            c.loc.line,
            line_of(&f, &format!("NEURON_ISA_TPB_{member} ="))
        );
    }
    assert!(m.enums.iter().all(|e| !e.c_name.contains("bindgen")));
    assert!(!g.files["src/generated/raw.rs"].contains("bindgen"));
    // --strict refuses the tree naming them; without it the report prints each at its place
    // (`--check`: the scratch crates are stale, so it exits 1 and writes nothing).
    let helper = line_of(&f, "neuron_isa_tpb_helper(");
    let err = generate_err_with(&ws.tree, &isa_codegen::Options::STRICT);
    assert_reports(&err, rel, helper, &["`neuron_isa_tpb_helper`", "--strict"]);
    assert_nothing_written_with(ws_strict(&ws), &format!("{TREE}/{rel}:{helper}"));
    let (code, stdout, stderr) = run_binary(&ws, &["--check"]);
    assert_eq!(code, Some(1), "{stderr}");
    let shown = format!("not translated: {TREE}/{rel}:{helper}: `neuron_isa_tpb_helper`");
    assert!(stdout.contains(&shown), "`{shown}` not in:\n{stdout}");
}
