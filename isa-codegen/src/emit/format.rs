//! Formatting the generated files with the pinned toolchain's rustfmt, so that they are exactly
//! what `cargo fmt` would leave, and reusing rustfmt's earlier results where it would give the
//! same bytes again.
//!
//! Printing and formatting (syn and prettyplease, then rustfmt) are most of a regeneration's CPU
//! when nothing changed. A formatted file is a function of its [`Source`](super::Source) and of
//! the printers' versions, so [`FORMAT_LOCK`] records, per `.rs` file, a digest of its source and
//! of the text that came out, under the printers that produced it. A later run whose source for
//! a file has the same digest, under the same printers, and finds the committed file still
//! hashing to the recorded output, takes the committed file instead of printing it. A file edited by hand, a new toolchain
//! pin or printer version, or `$RUSTFMT` set is printed and formatted again.

use super::{Files, Sources};
use isa_core::fingerprint::file_fingerprint;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Path (inside a crate) of the record of rustfmt's results on the crate's generated files.
pub const FORMAT_LOCK: &str = "src/generated/rustfmt.lock";

/// What prints a file, so what a recorded result holds for: the workspace's pinned toolchain
/// (its rustfmt), and the crates that turn items into text, as this build resolved them
/// (`build.rs`).
fn printers() -> String {
    env!("ISA_CODEGEN_PRINTERS").to_string()
}

/// What [`FORMAT_LOCK`] says: the toolchain, and per path the digests of rustfmt's input and
/// output.
#[derive(Debug, Default, PartialEq, Eq)]
struct FormatLock {
    printers: String,
    digests: BTreeMap<String, (u64, u64)>,
}

const LOCK_HEAD: &str = "# rustfmt's results on this crate's generated files, recorded by isa-codegen: a file whose\n# source and committed copy are as recorded is not printed again. Do not edit.\n";

impl FormatLock {
    /// The lock's text (one `input output path` line per file, in path order).
    fn to_text(&self) -> String {
        let mut out = format!("{LOCK_HEAD}printers {}\n", self.printers);
        for (path, (input, output)) in &self.digests {
            out.push_str(&format!("{input:016x} {output:016x} {path}\n"));
        }
        out
    }

    /// The lock in `text`; `None` when it is not one (it is then ignored: every file is
    /// formatted, and the lock written again).
    fn parse(text: &str) -> Option<FormatLock> {
        let mut lock = FormatLock::default();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            if let Some(printers) = line.strip_prefix("printers ") {
                lock.printers = printers.to_string();
                continue;
            }
            let mut parts = line.splitn(3, ' ');
            let mut digest = || u64::from_str_radix(parts.next()?, 16).ok();
            let (input, output) = (digest()?, digest()?);
            lock.digests
                .insert(parts.next()?.to_string(), (input, output));
        }
        Some(lock)
    }
}

/// Prints every file of `sources` and formats its `.rs` files with `formatter` (in the
/// regeneration: [`rustfmt_all`], one process for all the files it gets); the files, with
/// [`FORMAT_LOCK`] added.
///
/// With `previous` (the crate directory the files are generated for), a `.rs` file whose
/// source has the digest [`FORMAT_LOCK`] records there, under the same printers, and whose
/// committed copy has the recorded output digest, is that committed copy: it is neither printed
/// nor formatted. Without `$RUSTFMT` set only (another binary's results are not the pin's).
pub fn format_sources(
    sources: Sources,
    previous: Option<&Path>,
    formatter: impl for<'a> FnOnce(Vec<(&'a str, &'a mut String)>) -> Result<(), String>,
) -> Result<Files, String> {
    let printers = printers();
    let recorded = previous
        .filter(|_| std::env::var_os("RUSTFMT").is_none())
        .and_then(|dir| std::fs::read_to_string(dir.join(FORMAT_LOCK)).ok())
        .and_then(|text| FormatLock::parse(&text))
        .filter(|lock| lock.printers == printers)
        .unwrap_or_default();
    let reused = |path: &str, digest: u64| -> Option<String> {
        let &(was, output) = recorded.digests.get(path)?;
        if was != digest {
            return None;
        }
        let committed = std::fs::read_to_string(previous?.join(path)).ok()?;
        (file_fingerprint(committed.as_bytes()) == output).then_some(committed)
    };
    let mut digests = BTreeMap::new();
    let mut files = Files::new();
    let mut fresh = BTreeSet::new();
    for (path, source) in sources {
        if !path.ends_with(".rs") {
            files.insert(path, source.print());
            continue;
        }
        let digest = source.digest();
        let text = reused(&path, digest).unwrap_or_else(|| {
            fresh.insert(path.clone());
            source.print()
        });
        files.insert(path.clone(), text);
        digests.insert(path, digest);
    }
    formatter(
        files
            .iter_mut()
            .filter(|(path, _)| fresh.contains(*path))
            .map(|(path, text)| (path.as_str(), text))
            .collect(),
    )?;
    let digests = digests
        .into_iter()
        .map(|(path, digest)| {
            let output = file_fingerprint(files[&path].as_bytes());
            (path, (digest, output))
        })
        .collect();
    let lock = FormatLock { printers, digests };
    files.insert(FORMAT_LOCK.to_string(), lock.to_text());
    Ok(files)
}

/// Formats each `(name, text)` in place with one rustfmt process (`$RUSTFMT` overrides the
/// binary): a process, and the toolchain proxy in front of it, per file was half of a
/// regeneration's CPU. The sources go through a scratch directory holding a `rustfmt.toml` of
/// the defaults, so no configuration around them applies; rustfmt still runs in the caller's
/// directory, where the toolchain proxy finds the pinned toolchain. An error names the source
/// by `name`.
pub fn rustfmt_all<'a>(
    sources: impl IntoIterator<Item = (&'a str, &'a mut String)>,
) -> Result<(), String> {
    let mut sources: Vec<(&str, &mut String)> = sources.into_iter().collect();
    if sources.is_empty() {
        return Ok(());
    }
    let scratch =
        Scratch::new().map_err(|e| format!("rustfmt: cannot make a scratch directory: {e}"))?;
    let dir = scratch.0.as_path();
    let io =
        |what: &str, e: std::io::Error| format!("rustfmt: cannot {what} in {}: {e}", dir.display());
    std::fs::write(dir.join("rustfmt.toml"), "edition = \"2021\"\n")
        .map_err(|e| io("write rustfmt.toml", e))?;
    let file_of = |k: usize| dir.join(format!("f{k}.rs"));
    for (k, (_, text)) in sources.iter().enumerate() {
        std::fs::write(file_of(k), text.as_bytes()).map_err(|e| io("write a source", e))?;
    }
    let binary = std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".to_string());
    let output = std::process::Command::new(&binary)
        .args(["--edition", "2021", "--quiet"])
        .args((0..sources.len()).map(file_of))
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            format!("cannot run `{binary}` ({e}); install it with `rustup component add rustfmt`")
        })?;
    if !output.status.success() {
        // rustfmt names the scratch files: put the sources' own names back.
        let mut message = String::from_utf8_lossy(&output.stderr).trim().to_string();
        for k in (0..sources.len()).rev() {
            message = message.replace(&file_of(k).display().to_string(), sources[k].0);
        }
        return Err(format!("rustfmt failed: {message}"));
    }
    for (k, (name, text)) in sources.iter_mut().enumerate() {
        **text = std::fs::read_to_string(file_of(k))
            .map_err(|e| format!("{name}: rustfmt output: {e}"))?;
    }
    Ok(())
}

/// A fresh directory under the system's temporary directory, removed on drop.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "isa-codegen-rustfmt-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        // A leftover of a killed run with the same pid would hold stale files.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::{format_sources, printers, rustfmt_all, FormatLock, Scratch, FORMAT_LOCK};
    use crate::emit::{Files, Source, Sources};
    use std::path::Path;

    /// Stands in for rustfmt: marks each text, and records which it got.
    fn marking(
        got: &mut Vec<String>,
    ) -> impl FnOnce(Vec<(&str, &mut String)>) -> Result<(), String> + '_ {
        move |sources| {
            for (name, text) in sources {
                got.push(name.to_string());
                text.push_str("// formatted\n");
            }
            Ok(())
        }
    }

    /// A crate of three files: `a.rs` from items, `b.rs` from text `b`, and a `Cargo.toml`.
    fn sources(b: &str) -> Sources {
        let mut out = Sources::new();
        out.insert(
            "src/generated/a.rs".into(),
            Source::items(
                "// a\n",
                quote::quote!(
                    fn a() {}
                ),
            ),
        );
        out.insert("src/generated/b.rs".into(), Source::Text(b.into()));
        out.insert("Cargo.toml".into(), Source::Text("[package]\n".into()));
        out
    }

    /// The files of `sources` reusing `dir`, and the names the formatter got.
    fn format_in(dir: &Path, sources: Sources) -> (Files, Vec<String>) {
        let mut got = Vec::new();
        let files = format_sources(sources, Some(dir), marking(&mut got)).unwrap();
        (files, got)
    }

    fn write_all(dir: &Path, files: &Files) {
        for (path, text) in files {
            let target = dir.join(path);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, text).unwrap();
        }
    }

    #[test]
    fn a_file_from_the_recorded_source_is_the_committed_copy() {
        let scratch = Scratch::new().unwrap();
        let dir = scratch.0.as_path();
        let (first, got) = format_in(dir, sources("fn b(){}\n"));
        assert_eq!(got, ["src/generated/a.rs", "src/generated/b.rs"]);
        assert_eq!(
            first["src/generated/a.rs"],
            "// a\nfn a() {}\n// formatted\n"
        );
        assert_eq!(
            first["Cargo.toml"], "[package]\n",
            "only .rs files are formatted"
        );
        write_all(dir, &first);

        let (again, got) = format_in(dir, sources("fn b(){}\n"));
        assert!(
            got.is_empty(),
            "nothing changed, nothing formatted: {got:?}"
        );
        assert_eq!(again, first, "the same bytes, lock included");

        let (changed, got) = format_in(dir, sources("fn b(){ 1 }\n"));
        assert_eq!(got, ["src/generated/b.rs"]);
        assert_eq!(changed["src/generated/b.rs"], "fn b(){ 1 }\n// formatted\n");
        assert_eq!(changed["src/generated/a.rs"], first["src/generated/a.rs"]);
        assert_ne!(changed[FORMAT_LOCK], first[FORMAT_LOCK]);
    }

    #[test]
    fn an_edited_file_other_printers_or_a_broken_lock_is_formatted_again() {
        let scratch = Scratch::new().unwrap();
        let dir = scratch.0.as_path();
        let (first, _) = format_in(dir, sources("fn b(){}\n"));
        write_all(dir, &first);
        let lock = first[FORMAT_LOCK].clone();

        std::fs::write(dir.join("src/generated/a.rs"), "fn a() {} // edited\n").unwrap();
        let (edited, got) = format_in(dir, sources("fn b(){}\n"));
        assert_eq!(got, ["src/generated/a.rs"]);
        assert_eq!(edited, first, "the edit is undone");
        write_all(dir, &first);

        let other = lock.replace("\nprinters rustfmt ", "\nprinters rustfmt 0.0.1-");
        assert_ne!(other, lock);
        std::fs::write(dir.join(FORMAT_LOCK), other).unwrap();
        let (files, got) = format_in(dir, sources("fn b(){}\n"));
        assert_eq!(got.len(), 2, "another rustfmt's results");
        assert_eq!(files, first);

        std::fs::write(dir.join(FORMAT_LOCK), lock.replace(" src/", "? src/")).unwrap();
        let (files, got) = format_in(dir, sources("fn b(){}\n"));
        assert_eq!(got.len(), 2, "a lock that does not parse");
        assert_eq!(files, first);
    }

    #[test]
    fn the_printers_name_the_pinned_rustfmt_and_the_printing_crates() {
        let printers = printers();
        assert!(printers.starts_with("rustfmt 1."), "{printers}");
        for krate in ["proc-macro2 1.", "syn 2.", "prettyplease 0."] {
            assert!(printers.contains(krate), "{printers}");
        }
    }

    #[test]
    fn the_lock_reads_back_what_it_wrote() {
        let lock = FormatLock {
            printers: "rustfmt 1.95.0".into(),
            digests: [("src/x y.rs".to_string(), (1, u64::MAX))]
                .into_iter()
                .collect(),
        };
        assert_eq!(FormatLock::parse(&lock.to_text()), Some(lock));
        assert_eq!(FormatLock::parse("0123 zz src/a.rs\n"), None);
    }

    #[test]
    fn one_rustfmt_run_formats_every_source() {
        let mut first = "fn a(){let x=1;}".to_string();
        let mut second = "pub   struct   S;".to_string();
        rustfmt_all([("a.rs", &mut first), ("b.rs", &mut second)]).unwrap();
        assert_eq!(first, "fn a() {\n    let x = 1;\n}\n");
        assert_eq!(second, "pub struct S;\n");
    }

    #[test]
    fn a_rustfmt_error_names_the_source_and_changes_nothing() {
        let mut good = "fn a(){}".to_string();
        let mut bad = "fn b( {".to_string();
        let error =
            rustfmt_all([("src/good.rs", &mut good), ("src/bad.rs", &mut bad)]).unwrap_err();
        assert!(error.contains("src/bad.rs"), "{error}");
        assert!(!error.contains("f1.rs"), "{error}");
        assert_eq!((good.as_str(), bad.as_str()), ("fn a(){}", "fn b( {"));
    }
}
