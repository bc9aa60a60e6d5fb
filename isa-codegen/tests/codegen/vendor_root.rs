//! `cargo run -p isa-codegen -- --vendor-root DIR` (issue 9, item 4): regenerate every crate
//! whose generation an installed vendor package has a tree for, keep the project's
//! `rng-runtime.json`, make `headers/` hold the vendor trees, and write nothing on any error.
//!
//! Each test works on a scratch workspace: copies of `headers/` and of the four crates, and a
//! vendor include root holding copies of the four trees without `rng-runtime.json`.

use crate::common;

use common::{copy_dir, edit, line_of, snapshot, workspace_root, Scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GENS: [&str; 4] = ["sunda", "cayman", "mariana", "maverick"];

struct Setup {
    scratch: Scratch,
}

impl Setup {
    fn new(tag: &str) -> Setup {
        let scratch = Scratch::new(&format!("vendor-root-{tag}"));
        let root = workspace_root();
        for gen in GENS {
            let tree = format!("neuron_{gen}_arch_isa");
            copy_dir(
                &root.join("headers").join(&tree),
                &scratch.path().join("ws/headers").join(&tree),
            );
            copy_dir(
                &root.join(format!("isa-{gen}")),
                &scratch.path().join(format!("ws/isa-{gen}")),
            );
            let vendor = scratch.path().join("vendor").join(&tree);
            copy_dir(&root.join("headers").join(&tree), &vendor);
            std::fs::remove_file(vendor.join("rng-runtime.json")).unwrap();
        }
        Setup { scratch }
    }

    fn ws(&self) -> PathBuf {
        self.scratch.path().join("ws")
    }

    fn vendor(&self, rel: &str) -> PathBuf {
        self.scratch.path().join("vendor").join(rel)
    }

    fn run(&self, extra: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
            .arg("--root")
            .arg(self.ws())
            .arg("--vendor-root")
            .arg(self.scratch.path().join("vendor"))
            .args(extra)
            .output()
            .unwrap()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn the_committed_trees_as_a_vendor_root_change_nothing() {
    let s = Setup::new("same");
    let before = snapshot(&s.ws());
    let out = s.run(&["--strict"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        stdout.matches("    ISA changes: none\n").count(),
        4,
        "{stdout}"
    );
    for gen in GENS {
        assert!(
            stdout.contains(&format!(
                "    headers/neuron_{gen}_arch_isa: already the vendor tree"
            )),
            "{stdout}"
        );
    }
    assert!(!stdout.contains("written:"), "{stdout}");
    assert!(before == snapshot(&s.ws()), "the workspace changed");
}

#[test]
fn a_broken_vendor_header_writes_nothing_and_exits_2() {
    let s = Setup::new("broken");
    let rel = "neuron_mariana_arch_isa/tpb/aws_neuron_isa_tpb_d3_rand.h";
    let f = s.vendor(rel);
    let line = line_of(&f, "min_src;");
    edit(&f, "min_src;", "min_src");
    // A changed header in another tree, which would be written if anything were.
    let other = s.vendor("neuron_sunda_arch_isa/tpb/aws_neuron_isa_tpb_d4_rand.h");
    let mut t = std::fs::read_to_string(&other).unwrap();
    t.push_str("// a later vendor note\n");
    std::fs::write(&other, t).unwrap();
    let before = snapshot(&s.ws());
    let out = s.run(&[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // clang reports a missing `;` at the end of its line or at the next token.
    assert!(
        [line, line + 1].iter().any(|l| stderr.contains(&format!(
            "neuron_mariana_arch_isa/tpb/aws_neuron_isa_tpb_d3_rand.h:{l}: C error:"
        ))),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(
        before == snapshot(&s.ws()),
        "a failed run wrote into the workspace"
    );
}

#[test]
fn a_vendor_drop_replaces_headers_so_check_and_the_build_script_agree() {
    let s = Setup::new("drop");
    let rel = "neuron_mariana_arch_isa/tpb/aws_neuron_isa_tpb_d3_rand.h";
    let mut t = std::fs::read_to_string(s.vendor(rel)).unwrap();
    t.push_str("// a later vendor note\n");
    std::fs::write(s.vendor(rel), &t).unwrap();
    // A stale mapping token: a warning, so --strict refuses the drop and writes nothing.
    let mapping = s.vendor("neuron_mariana_arch_isa/tpb/instruction_mapping.json");
    edit(
        &mapping,
        "\"NEURON_ISA_TPB_OPCODE_RAND2\"",
        "\"NEURON_ISA_TPB_OPCODE_RAND2\", \"NEURON_ISA_TPB_OPCODE_RAND3\"",
    );
    let before = snapshot(&s.ws());
    let out = s.run(&["--strict", "mariana"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("stale entry skipped"));
    assert!(before == snapshot(&s.ws()));
    // --check reports what would change and exits 1, writing nothing.
    let out = s.run(&["--check", "mariana"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("    headers/neuron_mariana_arch_isa: would replace 2 file(s)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("    warning: tpb/instruction_mapping.json:"),
        "{stdout}"
    );
    assert!(before == snapshot(&s.ws()));
    // Without --strict the drop lands: the crate is written and headers/ holds the vendor tree
    // plus the project's rng-runtime.json, so --check and the build script see a fresh crate.
    let out = s.run(&["mariana"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("    headers/neuron_mariana_arch_isa: replaced 2 file(s) from the vendor root (rng-runtime.json kept):"),
        "{stdout}"
    );
    assert!(stdout.contains("written: isa-mariana/src/generated/headers.lock"));
    let tree = s.ws().join("headers/neuron_mariana_arch_isa");
    assert_eq!(
        std::fs::read_to_string(tree.join(rel.split_once('/').unwrap().1)).unwrap(),
        t
    );
    assert!(tree.join("rng-runtime.json").is_file());
    let mut vendor_files: Vec<PathBuf> = snapshot(&s.vendor("neuron_mariana_arch_isa"))
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    vendor_files.push(PathBuf::from("rng-runtime.json"));
    vendor_files.sort();
    let ours: Vec<PathBuf> = snapshot(&tree).into_iter().map(|(p, _)| p).collect();
    assert_eq!(ours, vendor_files);
    let check = Command::new(env!("CARGO_BIN_EXE_isa-codegen"))
        .arg("--root")
        .arg(s.ws())
        .args(["--check", "mariana"])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    let krate = s.ws().join("isa-mariana");
    let outcome = isa_core::build::run(
        &krate,
        "isa-mariana",
        &s.ws().join("headers"),
        Path::new("/nonexistent-out-dir"),
        None,
    );
    assert_eq!(outcome, Ok(isa_core::build::Outcome::Fresh));
    // The other crates are left as they were.
    assert_eq!(
        snapshot(&s.ws().join("isa-sunda")),
        snapshot(&workspace_root().join("isa-sunda"))
    );
}
