//! Determinism (issue 3: "byte-identical output on every run and machine") and freshness of the
//! committed crates (what `cargo run -p isa-codegen -- --check` checks in CI).

use crate::common;

use common::{copy_tree, real_tree, tiny_tree, workspace_root, Scratch};
use std::path::Path;
use std::sync::OnceLock;

const GENERATIONS: [&str; 4] = ["sunda", "cayman", "mariana", "maverick"];

fn generate(tree: &Path) -> isa_codegen::Generated {
    isa_codegen::generate(tree, &Default::default())
        .unwrap_or_else(|e| panic!("{}: {e}", tree.display()))
}

/// The same files, byte for byte; on a difference, the first differing line of the first file.
fn assert_same_files(a: &isa_codegen::emit::Files, b: &isa_codegen::emit::Files, what: &str) {
    let names_a: Vec<&String> = a.keys().collect();
    let names_b: Vec<&String> = b.keys().collect();
    assert_eq!(names_a, names_b, "{what}: different file sets");
    for (path, text) in a {
        let other = &b[path];
        if text != other {
            let line = text
                .lines()
                .zip(other.lines())
                .position(|(x, y)| x != y)
                .map_or(0, |k| k + 1);
            panic!("{what}: {path} differs (first at line {line})");
        }
    }
}

/// Each real tree generated once in place, shared by the tests of this file.
fn in_place() -> &'static [isa_codegen::Generated] {
    static GENERATED: OnceLock<Vec<isa_codegen::Generated>> = OnceLock::new();
    GENERATED.get_or_init(|| {
        std::thread::scope(|s| {
            let runs: Vec<_> = GENERATIONS
                .map(|gen| s.spawn(move || generate(&real_tree(gen))))
                .into_iter()
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        })
    })
}

#[test]
fn every_tree_generates_byte_identically_again_from_another_path() {
    // A second run, from a copy of the tree at another absolute path: the same bytes.
    let scratch = Scratch::new("determinism");
    std::thread::scope(|s| {
        for (gen, first) in GENERATIONS.into_iter().zip(in_place()) {
            let scratch = scratch.path();
            s.spawn(move || {
                let tree = real_tree(gen);
                let name = tree.file_name().unwrap().to_str().unwrap();
                let elsewhere = copy_tree(&tree, &scratch.join(gen).join("deeper"), name);
                let moved = generate(&elsewhere);
                assert_same_files(&first.files, &moved.files, &format!("{gen}, moved"));
                assert_eq!(first.summary, moved.summary);
            });
        }
    });
    let tiny = generate(&tiny_tree());
    assert_same_files(
        &tiny.files,
        &generate(&tiny_tree()).files,
        "tiny, run twice",
    );
}

/// Where a generated text mentions an absolute path or a time of day or date, if anywhere.
fn leaks(text: &str) -> Option<String> {
    let root = workspace_root().display().to_string();
    let temp = std::env::temp_dir().display().to_string();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/nonexistent-home".into());
    for (k, line) in text.lines().enumerate() {
        let at = |why: &str| Some(format!("line {}: {why}: {line}", k + 1));
        for needle in [root.as_str(), temp.as_str(), home.as_str()] {
            if needle.len() > 1 && line.contains(needle) {
                return at("absolute path");
            }
        }
        for prefix in [
            "/work/", "/tmp/", "/home/", "/root/", "/usr/", "C:\\", "file://",
        ] {
            if line.contains(prefix) {
                return at("absolute path");
            }
        }
        let b = line.as_bytes();
        let digit = |i: usize| b.get(i).is_some_and(|c| c.is_ascii_digit());
        for i in 0..b.len() {
            // 2026-12-01 (an ISO date) or 20:47:41 (a time of day).
            let date = (0..4).all(|j| digit(i + j))
                && b.get(i + 4) == Some(&b'-')
                && digit(i + 5)
                && digit(i + 6)
                && b.get(i + 7) == Some(&b'-')
                && digit(i + 8)
                && digit(i + 9);
            let time = digit(i)
                && digit(i + 1)
                && b.get(i + 2) == Some(&b':')
                && digit(i + 3)
                && digit(i + 4)
                && b.get(i + 5) == Some(&b':')
                && digit(i + 6)
                && digit(i + 7);
            if date || time {
                return at("timestamp");
            }
        }
        if line.contains("UTC") || line.contains("GMT") {
            return at("time zone");
        }
    }
    None
}

#[test]
fn generated_text_has_no_absolute_path_and_no_timestamp() {
    // The probe finds what it is meant to find.
    assert!(leaks("// generated 2026-12-01").is_some());
    assert!(leaks("// at 20:47:41").is_some());
    assert!(leaks("include!(\"/work/x/raw.rs\")").is_some());
    assert!(leaks("/// offset 0x10 (16 - 23), opcode 0x78").is_none());
    for (gen, g) in GENERATIONS.into_iter().zip(in_place()) {
        for (path, text) in &g.files {
            if let Some(why) = leaks(text) {
                panic!("{gen}: {path}: {why}");
            }
        }
    }
}

#[test]
fn a_generation_that_reuses_nothing_is_the_committed_crates() {
    // `in_place` prints and formats every file (no crate directory to reuse): byte for byte
    // what is committed, so the committed rustfmt.lock, which lets `--check` skip printing,
    // cannot hide a stale file.
    let root = workspace_root();
    for (gen, g) in GENERATIONS.into_iter().zip(in_place()) {
        let mut committed = isa_codegen::emit::Files::new();
        for path in g.files.keys() {
            let text = std::fs::read_to_string(root.join(format!("isa-{gen}")).join(path))
                .unwrap_or_else(|e| panic!("{gen}: {path}: {e}"));
            committed.insert(path.clone(), text);
        }
        assert_same_files(&g.files, &committed, &format!("{gen}, printed afresh"));
    }
}

#[test]
fn the_committed_crates_are_fresh() {
    // `plan` on the repository is what `--check` runs; every crate must match its tree.
    let root = workspace_root();
    let run = isa_codegen::workspace::plan(&root, &root.join("headers"), &[], &Default::default())
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        run.missing.is_empty(),
        "trees without a crate: {:?}",
        run.missing
    );
    let names: Vec<&str> = run.plans.iter().map(|p| p.tree_name.as_str()).collect();
    let mut expected = GENERATIONS.map(|g| format!("neuron_{g}_arch_isa"));
    expected.sort();
    assert_eq!(names, expected, "one plan per tree, in name order");
    let mut stale = String::new();
    for plan in &run.plans {
        print!("{}", plan.report(true));
        if !plan.is_fresh() {
            stale.push_str(&plan.report(true));
        }
        assert_eq!(
            plan.changes.as_deref(),
            Some(&[][..]),
            "{}: the committed isa.json differs from the headers",
            plan.tree_name
        );
    }
    assert!(
        stale.is_empty(),
        "stale crates (run `cargo run -p isa-codegen`):\n{stale}"
    );
}
