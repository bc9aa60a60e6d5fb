//! Runs the generator over every tree under `headers/` and the crates beside it:
//! plan (generate everything in memory, compare with disk), then write. A failure
//! in any tree writes nothing at all.

use crate::diag::Error;
use crate::report::api::{Listing, API_FILE};
use crate::report::semver::{api_diff, next_version, ApiChange, Verdict};
use crate::report::{diff, Change, Summary};
use crate::{Generated, Options, SUMMARY_FILE};
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
    /// The committed API listing and the changes from it to the new one (the reason when there
    /// is none to compare with, or it does not parse).
    pub api_changes: Result<(Listing, Vec<ApiChange>), String>,
    /// The crates' version (the workspace's `[workspace.package] version`), when it can be read.
    pub version: Option<String>,
}

/// The version every generated crate has: `[workspace.package] version` of `root/Cargo.toml`
/// (the generated manifests say `version.workspace = true`).
pub fn workspace_version(root: &Path) -> Option<String> {
    let text = std::fs::read_to_string(root.join("Cargo.toml")).ok()?;
    let table: toml::Table = text.parse().ok()?;
    let version = table.get("workspace")?.get("package")?.get("version")?;
    version.as_str().map(str::to_string)
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
    let mut wanted = Vec::new();
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
        wanted.push((tree, tree_name, crate_dir));
    }
    let generated = generate_each(
        wanted
            .iter()
            .map(|(tree, _, crate_dir)| (tree.as_path(), crate_dir.as_path())),
        options,
    );
    for ((_, tree_name, crate_dir), generated) in wanted.into_iter().zip(generated) {
        match generated {
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

/// [`crate::generate_reusing`] for each `(tree, crate directory)`, the trees side by side on their own
/// threads (the trees are independent, and most of a tree's time is one thread's), each with the
/// generator's stack ([`crate::STACK_BYTES`]); the results in the trees' order.
fn generate_each<'a>(
    trees: impl Iterator<Item = (&'a Path, &'a Path)>,
    options: &Options,
) -> Vec<Result<Generated, Error>> {
    let failed = |tree: &Path, what: String| {
        Err(Error::single(
            "",
            crate::diag::Loc::new(tree.display().to_string(), 0),
            what,
        ))
    };
    std::thread::scope(|scope| {
        let running: Vec<_> = trees
            .map(|(tree, crate_dir)| {
                let thread = std::thread::Builder::new()
                    .name("isa-codegen".into())
                    .stack_size(crate::STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        crate::generate_here(tree, options, Some(crate_dir))
                    });
                (tree, thread)
            })
            .collect();
        running
            .into_iter()
            .map(|(tree, thread)| match thread {
                Ok(thread) => thread.join().unwrap_or_else(|_| {
                    failed(
                        tree,
                        "the generator panicked on this tree (a bug: please report it)".into(),
                    )
                }),
                Err(e) => failed(tree, format!("cannot start the generator's thread: {e}")),
            })
            .collect()
    })
}

/// Regenerating from an installed vendor package (`--vendor-root`): the plans, and for each
/// planned generation the `headers/` tree it replaces.
#[derive(Debug, Default)]
pub struct VendorRun {
    /// The plans (generated from staging copies) and the trees without a crate.
    pub run: Run,
    /// Per plan (same order): the staging tree it was generated from and `headers/<tree>`,
    /// which [`VendorRun::write`] makes a copy of it.
    pub replacements: Vec<Replacement>,
    /// Generations that have a crate and a `headers/` tree but no tree in the vendor root.
    pub untouched: Vec<String>,
    /// The staging directory (removed when the run is dropped).
    staging: Option<PathBuf>,
}

/// One `headers/` tree to be replaced by its vendor copy.
#[derive(Debug)]
pub struct Replacement {
    /// The staging copy: the vendor tree plus the project's `rng-runtime.json`.
    pub staged: PathBuf,
    /// `headers/neuron_<gen>_arch_isa`.
    pub headers_tree: PathBuf,
    /// What replacing it changes (empty when `headers/` already holds exactly the vendor tree).
    pub changes: Vec<isa_core::fingerprint::FileChange>,
}

/// The project's own data file kept beside a vendor tree.
pub const PROJECT_FILES: [&str; 1] = [crate::read::runtime::RUNTIME_FILE];

impl Drop for VendorRun {
    fn drop(&mut self) {
        if let Some(dir) = &self.staging {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Copies the regular, non-hidden files under `from` to `to` (the files a fingerprint covers).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let mut entries: Vec<_> = std::fs::read_dir(from)?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        if e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let kind = e.file_type()?;
        let target = to.join(e.file_name());
        if kind.is_dir() {
            copy_tree(&e.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(e.path(), &target)?;
        }
    }
    Ok(())
}

/// Generates every crate whose generation the vendor include root `vendor_root` has a
/// `neuron_<gen>_arch_isa` tree for (or only `only`), in memory, from a staging copy of that tree
/// with the project's `rng-runtime.json` (from `headers/<tree>/`) beside it. Nothing is written.
pub fn plan_vendor(
    root: &Path,
    headers: &Path,
    vendor_root: &Path,
    only: &[String],
    options: &Options,
) -> Result<VendorRun, Vec<Error>> {
    let loc = |p: &Path| crate::diag::Loc::new(p.display().to_string(), 0);
    let vendor_trees =
        trees(vendor_root).map_err(|e| vec![Error::single("", loc(vendor_root), e)])?;
    let staging = std::env::temp_dir().join(format!(
        "isa-codegen-vendor-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let mut out = VendorRun {
        run: Run::default(),
        replacements: Vec::new(),
        untouched: Vec::new(),
        staging: Some(staging.clone()),
    };
    let mut errors = Vec::new();
    let mut names = Vec::new();
    let mut staged_trees = Vec::new();
    for tree in vendor_trees {
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
        names.push(tree_name.clone());
        let crate_dir = root.join(format!("isa-{gen}"));
        if !crate_dir.join("Cargo.toml").is_file() {
            out.run.missing.push(MissingCrate {
                tree_name,
                crate_dir,
            });
            continue;
        }
        let staged = staging.join(&tree_name);
        let headers_tree = headers.join(&tree_name);
        let staged_ok = copy_tree(&tree, &staged).and_then(|()| {
            for f in PROJECT_FILES {
                let ours = headers_tree.join(f);
                if ours.is_file() {
                    std::fs::copy(&ours, staged.join(f))?;
                }
            }
            Ok(())
        });
        if let Err(e) = staged_ok {
            errors.push(Error::single(
                tree_name.clone(),
                loc(&tree),
                format!("cannot stage the vendor tree: {e}"),
            ));
            continue;
        }
        staged_trees.push((tree_name, crate_dir, staged, headers_tree));
    }
    let generated = generate_each(
        staged_trees
            .iter()
            .map(|(_, crate_dir, staged, _)| (staged.as_path(), crate_dir.as_path())),
        options,
    );
    for ((tree_name, crate_dir, staged, headers_tree), generated) in
        staged_trees.into_iter().zip(generated)
    {
        match generated {
            Ok(generated) => {
                let current = isa_core::fingerprint::TreeFingerprint::of_dir(&headers_tree)
                    .unwrap_or_default();
                let changes = current.changes_to(&generated.model.fingerprint);
                out.run.plans.push(compare(tree_name, crate_dir, generated));
                out.replacements.push(Replacement {
                    staged,
                    headers_tree,
                    changes,
                });
            }
            Err(e) => errors.push(e),
        }
    }
    if let Ok(ours) = trees(headers) {
        for t in ours {
            let name = t
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let gen = crate::read::generation_of(&name)
                .unwrap_or_default()
                .to_ascii_lowercase();
            let wanted = only.is_empty() || only.contains(&gen);
            if wanted
                && !names.contains(&name)
                && root.join(format!("isa-{gen}/Cargo.toml")).is_file()
            {
                out.untouched.push(name);
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

impl VendorRun {
    /// True when every crate is fresh and every `headers/` tree already is its vendor copy.
    pub fn is_fresh(&self) -> bool {
        self.run.plans.iter().all(Plan::is_fresh)
            && self.replacements.iter().all(|r| r.changes.is_empty())
    }

    /// Writes the stale crate files, then makes each `headers/<tree>` the vendor tree plus the
    /// project's files ([`PROJECT_FILES`]), so the crates' recorded fingerprints describe it.
    pub fn write(&self) -> std::io::Result<()> {
        for plan in &self.run.plans {
            plan.write()?;
        }
        for r in self.replacements.iter().filter(|r| !r.changes.is_empty()) {
            if r.headers_tree.is_dir() {
                for e in std::fs::read_dir(&r.headers_tree)?.flatten() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    if name.starts_with('.') || PROJECT_FILES.contains(&name.as_str()) {
                        continue;
                    }
                    if e.file_type()?.is_dir() {
                        std::fs::remove_dir_all(e.path())?;
                    } else {
                        std::fs::remove_file(e.path())?;
                    }
                }
            }
            copy_tree(&r.staged, &r.headers_tree)?;
        }
        Ok(())
    }

    /// The report of the run: per tree the plan's paragraph and what happens to `headers/`.
    pub fn report(&self, checking: bool) -> String {
        let mut out = String::new();
        for (plan, r) in self.run.plans.iter().zip(&self.replacements) {
            out.push_str(&plan.report(checking));
            if r.changes.is_empty() {
                let _ = writeln!(
                    out,
                    "    headers/{}: already the vendor tree",
                    plan.tree_name
                );
            } else {
                let _ =
                    writeln!(
                    out,
                    "    headers/{}: {} {} file(s) from the vendor root (rng-runtime.json kept):",
                    plan.tree_name,
                    if checking { "would replace" } else { "replaced" },
                    r.changes.len()
                );
                for c in &r.changes {
                    let _ = writeln!(out, "      {c}");
                }
            }
        }
        for m in &self.run.missing {
            out.push_str(&m.report());
        }
        if let Some(line) = release_line(&self.run.plans) {
            out.push_str(&line);
        }
        for t in &self.untouched {
            let _ = writeln!(
                out,
                "headers/{t}: not in the vendor root; its crate is left as it is"
            );
        }
        out
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
    let api_changes = match std::fs::read_to_string(crate_dir.join(API_FILE)) {
        Ok(text) => Listing::parse(&text)
            .map(|old| {
                let changes = api_diff(&old, &generated.api);
                (old, changes)
            })
            .map_err(|e| format!("{API_FILE}: {e}")),
        Err(_) => Err(format!("no committed {API_FILE} to compare with")),
    };
    let version = crate_dir.parent().and_then(workspace_version);
    Plan {
        tree_name,
        crate_dir,
        generated,
        stale,
        obsolete,
        changes,
        api_changes,
        version,
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
        self.report_api(&mut out);
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

impl Plan {
    /// The semver verdict of this regeneration: `None` when nothing of the crate changes, or
    /// when there is no committed listing to compare with.
    pub fn verdict(&self) -> Option<Verdict> {
        if self.is_fresh() {
            return None;
        }
        let (old, changes) = self.api_changes.as_ref().ok()?;
        Some(Verdict::of(old, changes))
    }

    /// The report's API paragraph: the changed items, and the verdict with the version it
    /// moves the crates to.
    fn report_api(&self, out: &mut String) {
        let changes = match &self.api_changes {
            Err(why) => {
                let _ = writeln!(out, "    API changes: {why}");
                return;
            }
            Ok((_, c)) => c,
        };
        if changes.is_empty() {
            let _ = writeln!(out, "    API changes: none");
        } else {
            let _ = writeln!(out, "    API changes ({}):", changes.len());
            for c in changes {
                let _ = writeln!(out, "      {c}");
            }
        }
        let Some(verdict) = self.verdict() else {
            return;
        };
        let to = match &self.version {
            Some(v) => match next_version(v, verdict.bump) {
                Ok(next) => format!(" ({v} -> {next})"),
                Err(e) => format!(" (workspace version: {e})"),
            },
            None => String::new(),
        };
        let _ = writeln!(out, "    semver: {}", with_version(&verdict, &to));
    }
}

/// The verdict's text with the version move after its bump word.
fn with_version(verdict: &Verdict, to: &str) -> String {
    let text = verdict.to_string();
    match text.split_once(':') {
        Some((bump, rest)) if !to.is_empty() => format!("{bump}{to}:{rest}"),
        _ => text,
    }
}

/// The line that closes a report whose crates change: the strongest bump over the generations
/// and the version it moves them to (the generated crates share the workspace's version, so a
/// header drop moves them together).
pub fn release_line(plans: &[Plan]) -> Option<String> {
    let bump = plans
        .iter()
        .filter_map(|p| p.verdict())
        .map(|v| v.bump)
        .max()?;
    let to = plans
        .iter()
        .find_map(|p| p.version.as_deref())
        .and_then(|v| Some(format!(": {v} -> {}", next_version(v, bump).ok()?)))
        .unwrap_or_default();
    Some(format!(
        "semver of the generated crates (one shared version): {bump}{to}\n"
    ))
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
