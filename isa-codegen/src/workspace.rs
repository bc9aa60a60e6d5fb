//! Runs the generator over every tree under `headers/` and the crates beside it:
//! plan (generate everything in memory, compare with disk), then write. A failure
//! in any tree writes nothing at all.

use crate::diag::Error;
use crate::report::{diff, Change, Summary};
use crate::{generate, Generated, Options, SUMMARY_FILE};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What regenerating one tree would do.
#[derive(Debug)]
pub struct Plan {
    /// Tree directory name.
    pub tree_name: String,
    /// The crate directory (`isa-<gen>`).
    pub crate_dir: PathBuf,
    /// The generation, in memory.
    pub generated: Generated,
    /// Generated files whose committed copy differs or is missing (crate-relative paths).
    pub stale: Vec<String>,
    /// Files under `src/generated/` that generation no longer produces.
    pub obsolete: Vec<String>,
    /// ISA changes against the committed summary (`None` when there is none yet).
    pub changes: Option<Vec<Change>>,
}

/// A tree with no crate to generate into.
#[derive(Debug)]
pub struct MissingCrate {
    /// Tree directory name.
    pub tree_name: String,
    /// The crate directory that should exist.
    pub crate_dir: PathBuf,
}

/// Everything found under a workspace.
#[derive(Debug, Default)]
pub struct Run {
    /// Trees that have a crate.
    pub plans: Vec<Plan>,
    /// Trees that do not.
    pub missing: Vec<MissingCrate>,
}

/// Lists the `neuron_<gen>_arch_isa` trees under `headers`, sorted.
pub fn trees(headers: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(headers).map_err(|e| format!("{}: {e}", headers.display()))?;
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_dir()
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| crate::read::generation_of(n).is_some())
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Generates every tree (or only `only`, by generation name in lower case) in memory.
pub fn plan(
    root: &Path,
    headers: &Path,
    only: &[String],
    options: &Options,
) -> Result<Run, Vec<Error>> {
    let mut run = Run::default();
    let mut errors = Vec::new();
    let trees = trees(headers).map_err(|e| {
        vec![Error::single(
            "",
            crate::diag::Loc::new(headers.display().to_string(), 0),
            e,
        )]
    })?;
    for tree in trees {
        let tree_name = tree
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let gen = crate::read::generation_of(&tree_name)
            .unwrap_or_default()
            .to_ascii_lowercase();
        if !only.is_empty() && !only.contains(&gen) {
            continue;
        }
        let crate_dir = root.join(format!("isa-{gen}"));
        if !crate_dir.join("Cargo.toml").is_file() {
            run.missing.push(MissingCrate {
                tree_name,
                crate_dir,
            });
            continue;
        }
        match generate(&tree, options) {
            Ok(generated) => run.plans.push(compare(tree_name, crate_dir, generated)),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(run)
    } else {
        Err(errors)
    }
}

fn compare(tree_name: String, crate_dir: PathBuf, generated: Generated) -> Plan {
    let mut stale = Vec::new();
    for (path, text) in &generated.files {
        match std::fs::read_to_string(crate_dir.join(path)) {
            Ok(old) if old == *text => {}
            _ => stale.push(path.clone()),
        }
    }
    let mut obsolete = Vec::new();
    if let Ok(entries) = std::fs::read_dir(crate_dir.join(crate::emit::GENERATED_DIR)) {
        for e in entries.flatten() {
            let rel = format!(
                "{}/{}",
                crate::emit::GENERATED_DIR,
                e.file_name().to_string_lossy()
            );
            if e.path().is_file() && !generated.files.contains_key(&rel) {
                obsolete.push(rel);
            }
        }
    }
    obsolete.sort();
    let changes = std::fs::read_to_string(crate_dir.join(SUMMARY_FILE))
        .ok()
        .and_then(|t| Summary::from_json(&t).ok())
        .map(|old| diff(&old, &generated.summary));
    Plan {
        tree_name,
        crate_dir,
        generated,
        stale,
        obsolete,
        changes,
    }
}

impl Plan {
    /// True when the committed crate already matches the headers.
    pub fn is_fresh(&self) -> bool {
        self.stale.is_empty() && self.obsolete.is_empty()
    }

    /// Writes the stale files and removes obsolete ones.
    pub fn write(&self) -> std::io::Result<()> {
        for path in &self.stale {
            let target = self.crate_dir.join(path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&target, &self.generated.files[path])?;
        }
        for path in &self.obsolete {
            std::fs::remove_file(self.crate_dir.join(path))?;
        }
        Ok(())
    }

    /// Lines of generated Rust.
    pub fn generated_lines(&self) -> usize {
        self.generated
            .files
            .iter()
            .filter(|(p, _)| p.ends_with(".rs"))
            .map(|(_, t)| t.lines().count())
            .sum()
    }

    /// The report paragraph for this tree.
    pub fn report(&self, checking: bool) -> String {
        let m = &self.generated.model;
        let mut out = String::new();
        let crate_name = self
            .crate_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let typed = m.opcodes.iter().filter(|o| o.shape.is_some()).count();
        let _ = writeln!(
            out,
            "{} (headers/{}, NC-v{}) -> {crate_name}: {} opcodes, {} enums, {} structs/unions, {} typed instructions, {} spec validators; {} generated lines",
            m.generation,
            self.tree_name,
            m.nc_version,
            m.opcodes.len(),
            m.enums.len() - 1,
            m.records.len(),
            typed,
            self.generated.summary.spec_functions.len(),
            self.generated_lines(),
        );
        if self.is_fresh() {
            let _ = writeln!(
                out,
                "    up to date (tree fingerprint {})",
                m.fingerprint.tree_hex()
            );
        } else {
            let verb = if checking { "stale" } else { "written" };
            for p in &self.stale {
                let _ = writeln!(out, "    {verb}: {crate_name}/{p}");
            }
            for p in &self.obsolete {
                let _ = writeln!(
                    out,
                    "    {}: {crate_name}/{p}",
                    if checking { "obsolete" } else { "removed" }
                );
            }
        }
        match &self.changes {
            None => {
                let _ = writeln!(
                    out,
                    "    ISA changes: no committed summary to compare with (first generation)"
                );
            }
            Some(c) if c.is_empty() => {
                let _ = writeln!(out, "    ISA changes: none");
            }
            Some(c) => {
                let _ = writeln!(out, "    ISA changes ({}):", c.len());
                for change in c {
                    let _ = writeln!(out, "      {change}");
                }
            }
        }
        for note in &self.generated.notes {
            let _ = writeln!(out, "    not emitted: {note}");
        }
        if m.runtime.is_none() {
            let _ = writeln!(
                out,
                "    note: headers/{}/rng-runtime.json is absent: no firmware-wired set, rng-core's default model",
                self.tree_name
            );
        }
        for note in &m.untranslated {
            let _ = writeln!(out, "    not translated: {}/{note}", self.tree_name);
        }
        if let Some(p) = &m.placement {
            let _ = writeln!(
                out,
                "    engine placement: {} opcodes placed ({})",
                p.placed(),
                p.loc
            );
        }
        for n in &m.notes {
            let _ = writeln!(out, "    note: {n}");
        }
        for w in &m.warnings {
            let _ = writeln!(out, "    warning: {w}");
        }
        if !m.warnings.is_empty() {
            let _ = writeln!(
                out,
                "    {} warning(s) in {} (`--strict` makes them errors)",
                m.warnings.len(),
                self.tree_name
            );
        }
        out
    }
}

impl MissingCrate {
    /// How to add the crate.
    pub fn report(&self) -> String {
        let dir = self.crate_dir.display();
        let name = self
            .crate_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!(
            "headers/{} has no crate: create {dir}/Cargo.toml (copy isa-mariana/Cargo.toml and set `name = \"{name}\"`), add \"{name}\" to the workspace members in Cargo.toml, then run `cargo run -p isa-codegen` again\n",
            self.tree_name
        )
    }
}
