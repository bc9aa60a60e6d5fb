//! A header drop (issue 3, "Done when"): copy the MARIANA tree, add one opcode and one struct field,
//! regenerate, and check that the report and the crate show exactly those changes.
//!
//! The drop: `RAND_SKIP = 0x75` (a free value between TENSOR_SCALAR_ADDR 0x74 and RAND 0x76) joins
//! the OPCODE enum, and `S1_RAND_STRUCT` gains `uint8_t state_tag` at byte 25, taken from the front
//! of `reserved[7]` (now `reserved[6]` at 26..31), so the struct stays 64 bytes and its static
//! assert stays. The reserved-zero spec rule that read `reserved[6]` now reads `state_tag`.
//!
//! * `report::diff` between the two summaries is exactly: opcode added, field added, reserved moved
//!   and retyped;
//! * the emitted files differ only in lines that mention the new opcode or field, the reserved
//!   array, a fingerprint, or the opcode count; header line references shift by the one line
//!   each edit inserts;
//! * the build-script path: with `NEURON_ISA_HEADERS` pointing at the dropped tree, building
//!   `isa-mariana` fails naming the changed files and `cargo run -p isa-codegen`, and building it
//!   with `--features isa-mariana/regenerate` succeeds, compiled from code regenerated into OUT_DIR.

use crate::common;

use common::{
    copy_tree, edit, line_of, nested_cargo, nested_target_dir, real_tree, workspace_root, Scratch,
};
use isa_codegen::report::summary::FieldSummary;
use isa_codegen::report::{diff, Change};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

const TREE: &str = "neuron_mariana_arch_isa";
const COMMON: &str = "aws_neuron_isa_tpb_common.h";
const S1_RAND: &str = "aws_neuron_isa_tpb_s1_rand.h";
const S1_RAND_STRUCT: &str = "NEURON_ISA_TPB_S1_RAND_STRUCT";

/// The two edits of the drop, applied to a copy of the tree; returns the 1-based lines of the two
/// inserted lines (in `common.h` and in `s1_rand.h`).
fn drop_into(tree: &Path) -> (u32, u32) {
    let common = tree.join("tpb").join(COMMON);
    let anchor = "    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ADDR                = 0x74, // Y\n";
    edit(
        &common,
        anchor,
        &format!(
            "{anchor}    NEURON_ISA_TPB_OPCODE_RAND_SKIP                         = 0x75, // Y\n"
        ),
    );
    let s1 = tree.join("tpb").join(S1_RAND);
    edit(
        &s1,
        "    uint8_t                          reserved[7];          //  7 (25 - 31) zero\n",
        "    uint8_t                          state_tag;            //  1 (25     ) state tag\n    uint8_t                          reserved[6];          //  6 (26 - 31) zero\n",
    );
    edit(
        &s1,
        "//    && (i.s1_rand.reserved[6] == 0)\n",
        "//    && (i.s1_rand.state_tag == 0)\n",
    );
    (
        line_of(&common, "NEURON_ISA_TPB_OPCODE_RAND_SKIP"),
        line_of(&s1, "state_tag;"),
    )
}

// ---------------------------------------------------------------------------------------------
// A line diff (Myers), enough to list the lines two texts do not share.
// ---------------------------------------------------------------------------------------------

/// One run of differing lines: `old[a..a + removed.len()]` became `added` (at `new[b..]`).
#[derive(Debug)]
struct Hunk {
    a: usize,
    b: usize,
    removed: Vec<String>,
    added: Vec<String>,
}

/// The hunks turning `old` into `new` (Myers' shortest edit script).
fn line_diff(old: &[&str], new: &[&str]) -> Vec<Hunk> {
    let (n, m) = (old.len() as isize, new.len() as isize);
    let max = (n + m) as usize;
    let off = max as isize + 1;
    let at = |k: isize| (off + k) as usize;
    let mut v = vec![0isize; 2 * max + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    'search: for d in 0..=max as isize {
        trace.push(v.clone());
        for k in (-d..=d).step_by(2) {
            let mut x = if k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]) {
                v[at(k + 1)]
            } else {
                v[at(k - 1)] + 1
            };
            let mut y = x - k;
            while x < n && y < m && old[x as usize] == new[y as usize] {
                x += 1;
                y += 1;
            }
            v[at(k)] = x;
            if x >= n && y >= m {
                break 'search;
            }
        }
    }
    // Back through the trace: `Some(true)` deletes old[x], `Some(false)` inserts new[y], `None` keeps.
    let (mut x, mut y) = (n, m);
    let mut ops: Vec<(Option<bool>, usize, usize)> = Vec::new();
    for (d, v) in trace.iter().enumerate().rev() {
        let d = d as isize;
        let k = x - y;
        if d == 0 {
            while x > 0 && y > 0 {
                x -= 1;
                y -= 1;
                ops.push((None, x as usize, y as usize));
            }
            break;
        }
        let prev_k = if k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = v[at(prev_k)];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            x -= 1;
            y -= 1;
            ops.push((None, x as usize, y as usize));
        }
        if x == prev_x {
            ops.push((Some(false), prev_x as usize, prev_y as usize));
        } else {
            ops.push((Some(true), prev_x as usize, prev_y as usize));
        }
        x = prev_x;
        y = prev_y;
    }
    ops.reverse();
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut open = false;
    for (op, x, y) in ops {
        let Some(delete) = op else {
            open = false;
            continue;
        };
        if !open {
            hunks.push(Hunk {
                a: x,
                b: y,
                removed: Vec::new(),
                added: Vec::new(),
            });
            open = true;
        }
        let h = hunks.last_mut().unwrap();
        if delete {
            h.removed.push(old[x].to_string());
        } else {
            h.added.push(new[y].to_string());
        }
    }
    hunks
}

/// `text` with every `FILE:N` reference for `N >= from` moved down one line (the line the drop inserted).
fn shift_refs(text: &str, file: &str, from: u32) -> String {
    let pat = format!("{file}:");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find(&pat) {
        let (head, tail) = rest.split_at(k + pat.len());
        out.push_str(head);
        let digits: String = tail.chars().take_while(|c| c.is_ascii_digit()).collect();
        match digits.parse::<u32>() {
            Ok(n) if n >= from => out.push_str(&(n + 1).to_string()),
            _ => out.push_str(&digits),
        }
        rest = &tail[digits.len()..];
    }
    out.push_str(rest);
    out
}

/// Words that explain a changed line: the new opcode, the new field, the resized reserved array.
const EXPLAINED_BY: &[&str] = &["RAND_SKIP", "RandSkip", "0x75", "state_tag", "reserved"];

/// A hunk is explained when a line of it, or one of the `CONTEXT` lines of the new text around
/// it, names the drop; or when every line of it only carries a fingerprint or the opcode count.
fn unexplained<'h>(
    hunks: &'h [Hunk],
    new: &[&str],
    fingerprints: &[(String, String)],
) -> Vec<&'h Hunk> {
    const CONTEXT: usize = 3;
    hunks
        .iter()
        .filter(|h| {
            let lines = h.removed.iter().chain(&h.added);
            let from = h.b.saturating_sub(CONTEXT);
            let to = (h.b + h.added.len() + CONTEXT).min(new.len());
            let named = lines
                .clone()
                .map(String::as_str)
                .chain(new[from..to].iter().copied())
                .any(|l| EXPLAINED_BY.iter().any(|w| l.contains(w)));
            let fingerprint_only = lines.clone().all(|l| {
                fingerprints
                    .iter()
                    .any(|(o, n)| l.contains(o.as_str()) || l.contains(n.as_str()))
            });
            // 159 opcodes before, 160 after: the line is the same but for the count.
            let count_only = h.removed.len() == h.added.len()
                && h.removed
                    .iter()
                    .zip(&h.added)
                    .all(|(r, a)| r.contains("159") && r.replace("159", "160") == *a);
            !(named || fingerprint_only || count_only)
        })
        .collect()
}

/// The MARIANA tree generated before and after the drop (generated once for all tests here).
struct Drop {
    old: isa_codegen::Generated,
    new: isa_codegen::Generated,
    /// Lines the drop inserted in common.h and s1_rand.h.
    op_line: u32,
    field_line: u32,
}

fn dropped() -> &'static Drop {
    static DROP: OnceLock<Drop> = OnceLock::new();
    DROP.get_or_init(|| {
        let scratch = Scratch::new("drop-gen");
        let tree = copy_tree(&real_tree("mariana"), scratch.path(), TREE);
        let old = isa_codegen::generate(&tree, &isa_codegen::Options::STRICT)
            .expect("the MARIANA tree generates");
        let (op_line, field_line) = drop_into(&tree);
        let new = isa_codegen::generate(&tree, &isa_codegen::Options::STRICT)
            .expect("the dropped tree generates");
        Drop {
            old,
            new,
            op_line,
            field_line,
        }
    })
}

fn expected_changes() -> Vec<Change> {
    vec![
        Change::OpcodeAdded {
            name: "RAND_SKIP".into(),
            value: 0x75,
        },
        Change::FieldAdded {
            record: S1_RAND_STRUCT.into(),
            field: FieldSummary {
                name: "state_tag".into(),
                offset: 25,
                size: 1,
                ty: "uint8_t".into(),
            },
        },
        Change::FieldMoved {
            record: S1_RAND_STRUCT.into(),
            name: "reserved".into(),
            from: 25,
            to: 26,
        },
        Change::FieldRetyped {
            record: S1_RAND_STRUCT.into(),
            name: "reserved".into(),
            from: "uint8_t[7]".into(),
            to: "uint8_t[6]".into(),
        },
    ]
}

#[test]
fn the_semantic_diff_is_exactly_the_drop() {
    let d = dropped();
    assert_eq!(diff(&d.old.summary, &d.new.summary), expected_changes());
    assert_eq!(diff(&d.new.summary, &d.new.summary), Vec::<Change>::new());

    // The model: the new opcode is there, flagged, unmapped; the struct is still 64 bytes.
    let m = &d.new.model;
    let op = &m.opcodes[m.opcode_named("RAND_SKIP").expect("RAND_SKIP modelled")];
    assert_eq!(
        (op.value, op.rust.as_str(), op.shape),
        (0x75, "RandSkip", None)
    );
    assert_eq!(op.status, isa_codegen::model::Status::Maintained);
    assert_eq!(m.opcodes.len(), d.old.model.opcodes.len() + 1);
    let rec = &m.records[m.record_named(S1_RAND_STRUCT).unwrap()];
    assert_eq!(rec.size, 64);
    let fields: Vec<(&str, u64, u64)> = rec
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.offset, f.size))
        .collect();
    assert!(fields.contains(&("state_tag", 25, 1)), "{fields:?}");
    assert!(fields.contains(&("reserved", 26, 6)), "{fields:?}");
    assert_eq!(d.new.summary.spec_functions, d.old.summary.spec_functions);
}

#[test]
fn the_workspace_report_lists_exactly_the_drop() {
    // A workspace whose isa-mariana holds the emission of the original tree, and whose headers/
    // holds the dropped tree: `plan` compares, reports, and marks the crate stale.
    let d = dropped();
    let scratch = Scratch::new("drop-report");
    let tree = copy_tree(&real_tree("mariana"), &scratch.path().join("headers"), TREE);
    drop_into(&tree);
    let krate = scratch.path().join("isa-mariana");
    std::fs::create_dir_all(&krate).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"isa-mariana\"\n",
    )
    .unwrap();
    for (path, text) in &d.old.files {
        let target = krate.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, text).unwrap();
    }
    let run = isa_codegen::workspace::plan(
        scratch.path(),
        &scratch.path().join("headers"),
        &[],
        &isa_codegen::Options::STRICT,
    )
    .expect("the dropped tree plans");
    let plan = &run.plans[0];
    assert_eq!(plan.changes.as_deref(), Some(&expected_changes()[..]));
    let report = plan.report(true);
    for line in [
        "ISA changes (4):",
        "+ opcode RAND_SKIP = 0x75",
        "+ field NEURON_ISA_TPB_S1_RAND_STRUCT.state_tag (uint8_t, bytes 25..26)",
        "~ field NEURON_ISA_TPB_S1_RAND_STRUCT.reserved: byte 25 -> 26",
        "~ field NEURON_ISA_TPB_S1_RAND_STRUCT.reserved: uint8_t[7] -> uint8_t[6]",
        "160 opcodes",
    ] {
        assert!(
            report.contains(line),
            "`{line}` not in the report:\n{report}"
        );
    }
    // Every generated file changes with the fingerprint; nothing becomes obsolete.
    assert!(plan.obsolete.is_empty(), "{:?}", plan.obsolete);
    let stale: BTreeSet<&str> = plan.stale.iter().map(String::as_str).collect();
    for must in [
        "src/generated/opcode.rs",
        "src/generated/raw.rs",
        "src/generated/inst.rs",
        "src/generated/headers.lock",
        "src/generated/isa.json",
    ] {
        assert!(stale.contains(must), "{must} not stale: {stale:?}");
    }
}

#[test]
fn the_emitted_files_change_only_where_the_drop_is() {
    let d = dropped();
    let old_paths: BTreeSet<&String> = d.old.files.keys().collect();
    let new_paths: BTreeSet<&String> = d.new.files.keys().collect();
    assert_eq!(old_paths, new_paths, "the drop adds or removes no file");

    let tree_fp = (
        d.old.model.fingerprint.tree_hex(),
        d.new.model.fingerprint.tree_hex(),
    );
    assert_ne!(tree_fp.0, tree_fp.1);
    let mut report = String::new();
    let mut hunks_seen = 0;
    for (path, text) in &d.new.files {
        let old = &d.old.files[path];
        if path == isa_codegen::emit::FORMAT_LOCK {
            // Digests: exactly the lines of the files that changed change.
            let o: BTreeSet<&str> = old.lines().collect();
            let n: BTreeSet<&str> = text.lines().collect();
            let named: BTreeSet<&str> = o
                .symmetric_difference(&n)
                .map(|l| l.split_whitespace().last().unwrap_or(""))
                .collect();
            let changed: BTreeSet<&str> = d
                .new
                .files
                .iter()
                .filter(|(p, t)| p.ends_with(".rs") && d.old.files[*p] != **t)
                .map(|(p, _)| p.as_str())
                .collect();
            assert!(!changed.is_empty());
            assert_eq!(named, changed, "{path}: the lines that changed");
            continue;
        }
        if path.ends_with("headers.lock") {
            // Exactly the tree line and the two edited files change.
            let o: BTreeSet<&str> = old.lines().collect();
            let n: BTreeSet<&str> = text.lines().collect();
            let gone: Vec<&str> = o.difference(&n).copied().collect();
            let came: Vec<&str> = n.difference(&o).copied().collect();
            let named = |lines: &[&str]| -> BTreeSet<String> {
                lines
                    .iter()
                    .map(|l| l.split_whitespace().last().unwrap_or("").to_string())
                    .collect()
            };
            let expect = |tree: &str| -> BTreeSet<String> {
                [
                    tree.to_string(),
                    format!("tpb/{COMMON}"),
                    format!("tpb/{S1_RAND}"),
                ]
                .into()
            };
            assert_eq!(named(&gone), expect(&tree_fp.0), "{path}: removed {gone:?}");
            assert_eq!(named(&came), expect(&tree_fp.1), "{path}: added {came:?}");
            continue;
        }
        // Header line references after an inserted line point one line further down.
        let old = shift_refs(&shift_refs(old, COMMON, d.op_line), S1_RAND, d.field_line);
        let ol: Vec<&str> = old.lines().collect();
        let nl: Vec<&str> = text.lines().collect();
        let hunks = line_diff(&ol, &nl);
        hunks_seen += hunks.len();
        for h in unexplained(&hunks, &nl, std::slice::from_ref(&tree_fp)) {
            report.push_str(&format!(
                "== {path}: old line {}, new line {}\n",
                h.a + 1,
                h.b + 1
            ));
            for r in &h.removed {
                report.push_str(&format!("- {r}\n"));
            }
            for a in &h.added {
                report.push_str(&format!("+ {a}\n"));
            }
        }
    }
    assert!(hunks_seen > 0);
    // The check catches a change the drop does not explain (a control, on the new opcode module).
    let opcode = &d.new.files["src/generated/opcode.rs"];
    let tampered = opcode.replacen("=> \"MATMUL\"", "=> \"MATMUL_X\"", 1);
    assert_ne!(&tampered, opcode);
    let (t, n): (Vec<&str>, Vec<&str>) = (tampered.lines().collect(), opcode.lines().collect());
    assert_eq!(unexplained(&line_diff(&n, &t), &t, &[]).len(), 1);
    assert!(
        report.is_empty(),
        "changes the drop does not explain:\n{report}"
    );

    // And the places themselves: the new variant, the new field in raw and typed form.
    let file = |p: &str| d.new.files[&format!("src/generated/{p}")].as_str();
    assert!(file("opcode.rs").contains("RandSkip = 0x75,"));
    assert!(file("opcode.rs").contains("pub const COUNT: usize = 160;"));
    assert!(file("raw.rs").contains("pub state_tag: u8,"));
    assert!(file("raw.rs").contains("pub reserved: [u8; 6],"));
    assert!(file("inst.rs").contains("F::at(\"state_tag\", 25, 1, K::Unsigned)"));
    assert!(
        !file("inst.rs").contains("RandSkip"),
        "RAND_SKIP is unmapped: no typed instruction"
    );
}

#[test]
fn shift_refs_moves_only_later_lines() {
    let t = "a.h:3 a.h:4 b.h:9 a.h:x a.h:10";
    assert_eq!(shift_refs(t, "a.h", 4), "a.h:3 a.h:5 b.h:9 a.h:x a.h:11");
    let hunks = line_diff(&["a", "b", "c", "d"], &["a", "x", "c", "d", "e"]);
    assert_eq!(hunks.len(), 2, "{hunks:?}");
    assert_eq!((hunks[0].a, hunks[0].b), (1, 1));
    assert_eq!(
        (&hunks[0].removed[..], &hunks[0].added[..]),
        (&["b".to_string()][..], &["x".to_string()][..])
    );
    assert_eq!((hunks[1].a, hunks[1].b, hunks[1].added.len()), (4, 4, 1));
    assert!(line_diff(&["same"], &["same"]).is_empty());
}

/// The slow one: it builds isa-codegen and bindgen for the build script once (in the nested target
/// directory, see `common::nested_cargo`) and then runs in well under a minute on a warm cache.
#[test]
fn the_build_script_refuses_a_stale_crate_and_regenerates_with_the_feature() {
    let scratch = Scratch::new("drop-build");
    let headers = scratch.path().join("headers");
    let tree = copy_tree(&real_tree("mariana"), &headers, TREE);
    drop_into(&tree);
    let target = nested_target_dir();
    let build = |features: &[&str]| {
        let started = Instant::now();
        let out = nested_cargo()
            .args(["build", "--offline", "-p", "isa-mariana"])
            .args(features)
            .env("NEURON_ISA_HEADERS", &headers)
            .output()
            .expect("cargo runs");
        let seconds = started.elapsed().as_secs_f64();
        (out, seconds)
    };

    let (out, seconds) = build(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("cargo build -p isa-mariana (stale, no feature): {seconds:.1} s");
    assert!(
        !out.status.success(),
        "a stale crate must not build:\n{stderr}"
    );
    for must in [
        "isa-mariana: the header tree",
        &format!("modified tpb/{COMMON}"),
        &format!("modified tpb/{S1_RAND}"),
        "cargo run -p isa-codegen",
        "--features isa-mariana/regenerate",
    ] {
        assert!(stderr.contains(must), "`{must}` not in:\n{stderr}");
    }
    assert!(
        !stderr.contains("aws_neuron_isa_tpb_d3_rand.h"),
        "only the changed files are named:\n{stderr}"
    );

    let (out, seconds) = build(&["--features", "isa-mariana/regenerate"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("cargo build -p isa-mariana --features isa-mariana/regenerate: {seconds:.1} s");
    assert!(
        out.status.success(),
        "the regenerate build failed:\n{stderr}"
    );
    // The count is that of the files differing from the committed headers.lock: the two the drop
    // edited (plus any the working tree changed since the crate was last generated).
    let lock =
        std::fs::read_to_string(workspace_root().join("isa-mariana/src/generated/headers.lock"))
            .unwrap();
    let recorded = isa_core::fingerprint::TreeFingerprint::from_manifest(&lock).unwrap();
    let current = isa_core::fingerprint::TreeFingerprint::of_dir(&tree).unwrap();
    let changed = recorded.changes_to(&current).len();
    assert!(changed >= 2);
    assert!(
        stderr.contains(&format!(
            "compiled from headers regenerated into OUT_DIR ({changed} changed file(s))"
        )),
        "{stderr}"
    );
    // The code it compiled: the regenerated opcode module in OUT_DIR has the new opcode.
    let regenerated = std::fs::read_dir(target.join("debug/build"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("out/generated/opcode.rs"))
        .filter(|p| p.is_file())
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .any(|text| text.contains("RandSkip = 0x75,"));
    assert!(
        regenerated,
        "no OUT_DIR opcode.rs with RAND_SKIP under {}",
        target.display()
    );
}
