//! The build-script side of "regenerate on header drop".
//!
//! Each generated crate's `build.rs` calls [`check_headers`]. It compares the
//! fingerprints recorded next to the committed code (`src/generated/headers.lock`)
//! with the header tree on disk. Equal: nothing to do. Different: with a
//! regenerator (the crate's `regenerate` feature) the modules are regenerated
//! into `OUT_DIR` and compiled instead of the committed ones; without one the
//! build fails, naming the changed files and the command that regenerates.

use crate::fingerprint::{FileChange, TreeFingerprint};
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;
use std::{env, eprintln, format, fs, println};

/// Regenerates the modules of a crate from `tree` into `out_dir/generated/`.
pub type Regenerate = fn(tree: &Path, out_dir: &Path) -> Result<(), String>;

/// Environment variable naming the directory that holds the `neuron_<gen>_arch_isa` trees
/// (default: `headers/` next to the crate).
pub const HEADERS_ENV: &str = "NEURON_ISA_HEADERS";

/// What the check found.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No tree on disk to compare with (a packaged crate): the committed code is used.
    NoTree,
    /// The tree matches the committed code.
    Fresh,
    /// The tree changed; the modules were regenerated into `OUT_DIR`.
    Regenerated(Vec<FileChange>),
}

/// Runs the check for the crate being built (see the module docs). On a stale crate
/// without a regenerator this prints the reason and exits the build script with failure.
pub fn check_headers(regenerate: Option<Regenerate>) {
    println!("cargo::rustc-check-cfg=cfg(isa_regenerated)");
    println!("cargo::rerun-if-env-changed={HEADERS_ENV}");
    println!("cargo::rerun-if-changed=src/generated/headers.lock");
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let package = env::var("CARGO_PKG_NAME").unwrap_or_default();
    let headers = env::var_os(HEADERS_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir.join("../headers"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap_or_default());
    match run(&manifest_dir, &package, &headers, &out_dir, regenerate) {
        Ok(Outcome::Regenerated(changes)) => {
            println!("cargo::rustc-cfg=isa_regenerated");
            println!(
                "cargo::warning={package}: compiled from headers regenerated into OUT_DIR ({} changed file(s)); run `cargo run -p isa-codegen` to update the committed code",
                changes.len()
            );
        }
        Ok(_) => {}
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(1);
        }
    }
}

/// The header tree directory of a crate named `isa-<gen>`.
pub fn tree_name(package: &str) -> Option<String> {
    let gen = package.strip_prefix("isa-")?;
    Some(format!("neuron_{}_arch_isa", gen.replace('-', "_")))
}

/// The check itself, free of process-global effects (testable).
pub fn run(
    manifest_dir: &Path,
    package: &str,
    headers: &Path,
    out_dir: &Path,
    regenerate: Option<Regenerate>,
) -> Result<Outcome, String> {
    let tree_name = tree_name(package)
        .ok_or_else(|| format!("{package}: a generated crate must be named isa-<generation>"))?;
    let tree = headers.join(&tree_name);
    if !tree.is_dir() {
        return Ok(Outcome::NoTree);
    }
    println!("cargo::rerun-if-changed={}", tree.display());
    let lock = manifest_dir.join("src/generated/headers.lock");
    let recorded = fs::read_to_string(&lock)
        .map_err(|e| format!("{package}: cannot read {}: {e}", lock.display()))
        .and_then(|text| {
            TreeFingerprint::from_manifest(&text)
                .map_err(|e| format!("{package}: {}: {e}", lock.display()))
        })?;
    let current = TreeFingerprint::of_dir(&tree)
        .map_err(|e| format!("{package}: cannot read {}: {e}", tree.display()))?;
    let changes = recorded.changes_to(&current);
    if changes.is_empty() {
        return Ok(Outcome::Fresh);
    }
    match regenerate {
        Some(regen) => {
            regen(&tree, out_dir)
                .map_err(|e| format!("{package}: regenerating from {}: {e}", tree.display()))?;
            Ok(Outcome::Regenerated(changes))
        }
        None => {
            let mut message = format!(
                "{package}: the header tree {} changed since this crate was generated:\n",
                tree.display()
            );
            for c in &changes {
                message.push_str(&format!("    {c}\n"));
            }
            message.push_str("Regenerate the committed code with:\n    cargo run -p isa-codegen\n");
            message.push_str(&format!(
                "(or build with `--features {package}/regenerate` to compile code regenerated into OUT_DIR)."
            ));
            Err(message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    fn scratch(name: &str) -> PathBuf {
        let dir = env::temp_dir().join(format!("isa-core-build-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn setup(name: &str) -> (PathBuf, PathBuf) {
        let root = scratch(name);
        let tree = root.join("headers/neuron_demo_arch_isa/tpb");
        fs::create_dir_all(&tree).unwrap();
        fs::write(tree.join("a.h"), "int a;\n").unwrap();
        let krate = root.join("isa-demo");
        fs::create_dir_all(krate.join("src/generated")).unwrap();
        let fp = TreeFingerprint::of_dir(&root.join("headers/neuron_demo_arch_isa")).unwrap();
        fs::write(krate.join("src/generated/headers.lock"), fp.to_manifest()).unwrap();
        (root, krate)
    }

    fn regen_ok(_tree: &Path, out: &Path) -> Result<(), String> {
        fs::create_dir_all(out.join("generated")).map_err(|e| e.to_string())
    }

    #[test]
    fn fresh_stale_and_regenerated() {
        let (root, krate) = setup("states");
        let headers = root.join("headers");
        let out = root.join("out");
        assert_eq!(
            run(&krate, "isa-demo", &headers, &out, None),
            Ok(Outcome::Fresh)
        );
        fs::write(headers.join("neuron_demo_arch_isa/tpb/a.h"), "int b;\n").unwrap();
        fs::write(headers.join("neuron_demo_arch_isa/tpb/new.h"), "int c;\n").unwrap();
        let err = run(&krate, "isa-demo", &headers, &out, None).unwrap_err();
        assert!(err.contains("modified tpb/a.h"), "{err}");
        assert!(err.contains("added    tpb/new.h"), "{err}");
        assert!(err.contains("cargo run -p isa-codegen"), "{err}");
        match run(&krate, "isa-demo", &headers, &out, Some(regen_ok)) {
            Ok(Outcome::Regenerated(changes)) => assert_eq!(changes.len(), 2),
            other => panic!("{other:?}"),
        }
        assert!(out.join("generated").is_dir());
    }

    #[test]
    fn missing_tree_is_not_an_error() {
        let (root, krate) = setup("missing");
        assert_eq!(
            run(&krate, "isa-demo", &root.join("elsewhere"), &root, None),
            Ok(Outcome::NoTree)
        );
        assert!(run(&krate, "demo", &root.join("headers"), &root, None).is_err());
    }
}
