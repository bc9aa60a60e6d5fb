//! Helpers shared by the fixture tests: scratch directories, tree copies and one-place edits.
#![allow(dead_code)]

use isa_codegen::diag::Diagnostic;
use isa_codegen::model::Model;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("isa-codegen sits in the workspace")
        .to_path_buf()
}

/// The small fixture tree.
pub fn tiny_tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/neuron_tiny_arch_isa")
}

/// The fixture tree with one of each vendor quirk.
pub fn quirks_tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/neuron_quirks_arch_isa")
}

/// `gcc -std=c11` with the include directories of the header tree `tree` (its root, `tpb/` and
/// `common/`), as the vendor's headers expect them.
pub fn gcc_for_tree(tree: &Path) -> Command {
    let mut gcc = Command::new("gcc");
    gcc.arg("-std=c11");
    for dir in ["", "tpb", "common"] {
        gcc.arg(format!("-I{}", tree.join(dir).display()));
    }
    gcc
}

/// A real tree under `headers/` (`"mariana"` → `headers/neuron_mariana_arch_isa`).
pub fn real_tree(gen: &str) -> PathBuf {
    workspace_root().join(format!("headers/neuron_{gen}_arch_isa"))
}

/// A fresh, empty scratch directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("isa-codegen-test-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Copies the directory `from` to `to` (created), recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Copies `tree` into `dir` under the name `name` and returns the copy.
pub fn copy_tree(tree: &Path, dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    copy_dir(tree, &to);
    to
}

/// Replaces the one occurrence of `old` in `file` with `new` (panics unless there is exactly one).
pub fn edit(file: &Path, old: &str, new: &str) {
    let text = fs::read_to_string(file).unwrap();
    assert_eq!(
        text.matches(old).count(),
        1,
        "`{old}` must occur exactly once in {}",
        file.display()
    );
    fs::write(file, text.replacen(old, new, 1)).unwrap();
}

/// The 1-based line of the one line of `file` containing `needle`.
pub fn line_of(file: &Path, needle: &str) -> u32 {
    let text = fs::read_to_string(file).unwrap();
    let hits: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(k, _)| k + 1)
        .collect();
    assert_eq!(hits.len(), 1, "`{needle}` in {}: {hits:?}", file.display());
    hits[0] as u32
}

/// Every file under `dir` with its bytes, by path relative to `dir`, sorted.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let mut entries: Vec<_> = fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            if p.is_symlink() {
                // A link by its target: reading through it may fail (a test links /proc/self/mem).
                let target = fs::read_link(&p).unwrap();
                out.push((
                    p.strip_prefix(base).unwrap().to_path_buf(),
                    target.to_string_lossy().as_bytes().to_vec(),
                ));
            } else if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.push((
                    p.strip_prefix(base).unwrap().to_path_buf(),
                    fs::read(&p).unwrap(),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

/// On the one line of `file` containing `needle`, replaces `old` (once) with `new`; returns the line.
pub fn edit_line(file: &Path, needle: &str, old: &str, new: &str) -> u32 {
    let line = line_of(file, needle);
    let text = fs::read_to_string(file).unwrap();
    let mut out = String::new();
    for (k, l) in text.split_inclusive('\n').enumerate() {
        if k + 1 == line as usize {
            assert!(l.contains(old), "`{old}` not on line {line}: {l}");
            out.push_str(&l.replacen(old, new, 1));
        } else {
            out.push_str(l);
        }
    }
    fs::write(file, out).unwrap();
    line
}

/// The target directory this test binary was built in (`<target>/debug/deps/<test>-*`).
pub fn target_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.ancestors().nth(3).map(Path::to_path_buf))
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// The target directory of [`nested_cargo`].
pub fn nested_target_dir() -> PathBuf {
    target_dir().join("nested")
}

/// `cargo` for a build of this workspace nested in a test (`header_drop`, `features`): offline, in
/// `<target>/nested`, which they share. It cannot be the outer target directory: a `-p` build
/// resolves features differently from `cargo test --workspace`, so nothing would be reused and
/// the outer artifacts would be replaced. What runs there is a build script and a few small
/// tests, so it is compiled for build time: opt-level 0 and no debug info for every crate, also
/// those the workspace's dev profile builds at opt-level 1 (the generator and its hot
/// dependencies, each a `[profile.dev.package.<name>]` table of the workspace manifest).
pub fn nested_cargo() -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    for setting in [
        "profile.dev.debug=false",
        "profile.dev.build-override.debug=false",
    ] {
        command.args(["--config", setting]);
    }
    let manifest = fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
    for line in manifest.lines() {
        if let Some(name) = line
            .strip_prefix("[profile.dev.package.")
            .and_then(|rest| rest.strip_suffix(']'))
        {
            command.args([
                "--config",
                &format!("profile.dev.package.{name}.opt-level=0"),
            ]);
        }
    }
    command
        .current_dir(workspace_root())
        .env("CARGO_TARGET_DIR", nested_target_dir())
        .env_remove("RUSTC_WORKSPACE_WRAPPER");
    command
}

/// Writes `files` as a standalone crate `isa-tiny` under `dir` with `tests/<name>.rs` = `test`,
/// runs `cargo test` on it with `features` (own target dir, offline) and returns
/// (success, stdout + stderr). The crate declares the generated crates' features (`regenerate`,
/// `serde`) and has serde_json as a dev-dependency.
pub fn run_generated_crate(
    dir: &Path,
    files: &isa_codegen::emit::Files,
    name: &str,
    test: &str,
    features: &[&str],
) -> (bool, String) {
    run_named_generated_crate(dir, "isa-tiny", files, name, test, features)
}

/// [`run_generated_crate`] for a crate named `crate_name` (its tests `use` that name).
pub fn run_named_generated_crate(
    dir: &Path,
    crate_name: &str,
    files: &isa_codegen::emit::Files,
    name: &str,
    test: &str,
    features: &[&str],
) -> (bool, String) {
    let krate = dir.join(crate_name);
    for (path, text) in files {
        let target = krate.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, text).unwrap();
    }
    let root = workspace_root();
    let path_of = |name: &str| root.join(name).display().to_string();
    // The generated crate's features (one per operand shape, all on by default, and serde),
    // without the regenerate dependency this standalone crate does not have.
    let generated: String = files
        .get("Cargo.toml")
        .map(|c| {
            c.lines()
                .skip_while(|l| *l != "[features]")
                .skip(1)
                .take_while(|l| !l.starts_with('['))
                .filter(|l| !l.starts_with("regenerate") && !l.trim().is_empty())
                .map(|l| format!("{l}\n"))
                .collect()
        })
        .unwrap_or_default();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{crate_name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\nbuild = \"build.rs\"\n\n\
             [workspace]\n\n[features]\n{generated}regenerate = []\n\n\
             [dependencies]\nisa-core = {{ path = \"{core}\" }}\nrng-core = {{ path = \"{rng}\" }}\n\n\
             [build-dependencies]\nisa-core = {{ path = \"{core}\", features = [\"std\"] }}\n\n\
             [dev-dependencies]\nserde_json = \"1\"\n\n\
             [lints.rust]\nunexpected_cfgs = {{ level = \"warn\", check-cfg = ['cfg(isa_regenerated)'] }}\n",
            core = path_of("isa-core"),
            rng = path_of("rng-core"),
        ),
    )
    .unwrap();
    std::fs::copy(root.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();
    std::fs::create_dir_all(krate.join("tests")).unwrap();
    std::fs::write(krate.join(format!("tests/{name}.rs")), test).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // No header tree next to the crate: its build script keeps the generated code as it is.
    let out = Command::new(cargo)
        .current_dir(&krate)
        // Built to be run once: no debug info (the fixture workspace has cargo's default, full).
        .args(["--config", "profile.dev.debug=false"])
        .args(["test", "--offline", "--test", name])
        .args(features.iter().flat_map(|f| ["--features", f]))
        .env("CARGO_TARGET_DIR", target_dir().join("padding-fixture"))
        .env("NEURON_ISA_HEADERS", dir.join("no-headers"))
        .output()
        .unwrap();
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// The one warning at `file:line` mentioning every one of `words`.
#[track_caller]
pub fn warning<'m>(model: &'m Model, file: &str, line: u32, words: &[&str]) -> &'m Diagnostic {
    let hits: Vec<&Diagnostic> = model
        .warnings
        .iter()
        .filter(|d| {
            d.loc.file == file && d.loc.line == line && words.iter().all(|w| d.message.contains(w))
        })
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "expected one warning at {file}:{line} mentioning {words:?}; warnings:\n{:#?}",
        model.warnings
    );
    hits[0]
}

/// Under `--strict` the error holds the warning, at its place, marked as a warning.
#[track_caller]
pub fn strict_reports(err: &isa_codegen::diag::Error, file: &str, line: u32, words: &[&str]) {
    assert!(
        err.diagnostics.iter().any(|d| d.loc.file == file
            && d.loc.line == line
            && d.message.contains("--strict")
            && words.iter().all(|w| d.message.contains(w))),
        "no --strict error at {file}:{line} mentioning {words:?}:\n{err}"
    );
}
