//! `isa-codegen`: generates the `isa-<generation>` crates from vendor-format
//! Neuron TPB ISA header trees.
//!
//! The data flows one way, one stage per module:
//! [`read`] (bindgen, syn, serde_json) → [`model`] (the generator's own IR) →
//! [`emit`] (quote + prettyplease) → files; [`report`] summarises and compares
//! models; [`workspace`] runs all of it over `headers/` and the crates.
//!
//! Two leaf modules, which import nothing, give every stage its shared words: [`vendor`]
//! names every file, C identifier and member of the vendor's trees the generator assumes, and
//! [`ctype`] is the C type vocabulary. The later stages see `ctype`'s
//! types through the model, which re-exports them.

pub mod ctype;
pub mod diag;
pub mod emit;
pub mod model;
pub mod read;
pub mod report;
pub mod vendor;
pub mod workspace;

use std::path::Path;

/// One tree, generated in memory.
#[derive(Debug)]
pub struct Generated {
    /// The model the files were emitted from.
    pub model: model::Model,
    /// The crate's generated files (paths relative to the crate directory).
    pub files: emit::Files,
    /// The ISA summary (also among `files` as `src/generated/isa.json`).
    pub summary: report::Summary,
    /// The public API listing (also among `files` as [`report::api::API_FILE`]).
    pub api: report::api::Listing,
    /// What could not be emitted, with the reason (reported, never silent).
    pub notes: Vec<String>,
}

/// Path (inside a crate) of the committed ISA summary.
pub const SUMMARY_FILE: &str = "src/generated/isa.json";

/// How strictly a tree is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Every warning is an error (`--strict`): a tree generates only when it produces none,
    /// and nothing the generator could not represent is left out silently or loudly.
    pub strict: bool,
}

impl Options {
    /// Strict options (`--strict`).
    pub const STRICT: Options = Options { strict: true };

    /// Under `strict`, the model's warnings (and the items it could not translate) as an error.
    pub fn check(&self, model: &model::Model) -> Result<(), diag::Error> {
        if !self.strict {
            return Ok(());
        }
        let all: Vec<diag::Diagnostic> = model
            .warnings
            .iter()
            .chain(&model.untranslated)
            .cloned()
            .collect();
        if all.is_empty() {
            Ok(())
        } else {
            Err(diag::Error::from_warnings(model.tree_name.clone(), &all))
        }
    }
}

/// Stack of the thread the generator runs a tree on. Its walks over spec expressions recurse
/// (syn, the evaluator, the emitters, prettyplease); [`read::spec::MAX_SPEC_DEPTH`] bounds
/// their depth before any of them runs, and this stack holds that depth in an unoptimised
/// build with a wide margin (docs/spec-language.md, "Limits"), whatever stack the caller has
/// (test threads get 2 MiB). Only the pages a run touches are committed.
pub const STACK_BYTES: usize = 256 << 20;

/// Runs `work` on a thread with [`STACK_BYTES`] of stack; a panic there is resumed here.
fn on_generator_stack<T: Send>(
    tree: &Path,
    work: impl FnOnce() -> Result<T, diag::Error> + Send,
) -> Result<T, diag::Error> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("isa-codegen".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, work)
            .map_err(|e| {
                diag::Error::single(
                    "",
                    diag::Loc::new(tree.display().to_string(), 0),
                    format!("cannot start the generator's thread: {e}"),
                )
            })?;
        handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// `f` of every item, in order, computed on one thread per core (each with [`STACK_BYTES`] of
/// stack): for the independent pieces of one tree's work (its header parses, its examples'
/// searches), so that regenerating a single tree uses the whole machine. A thread that cannot
/// be started leaves its share to the others, or to the calling thread.
pub(crate) fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if workers <= 1 {
        return items.iter().map(&f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done: Vec<(usize, R)> = Vec::new();
        loop {
            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(k) else {
                return done;
            };
            done.push((k, f(item)));
        }
    };
    let mut slots: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("isa-codegen-worker".into())
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, work)
                    .ok()
            })
            .collect();
        let mut finished = Vec::new();
        if handles.is_empty() {
            finished.push(work());
        }
        for h in handles {
            finished.push(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        for (k, r) in finished.into_iter().flatten() {
            slots[k] = Some(r);
        }
    });
    // Every index below `items.len()` was taken by exactly one worker, and every worker ran
    // to the end (a panic is resumed above).
    slots
        .into_iter()
        .map(|r| r.expect("every item computed"))
        .collect()
}

/// Reads, models and emits the tree at `tree`. Nothing is written.
pub fn generate(tree: &Path, options: &Options) -> Result<Generated, diag::Error> {
    generate_reusing(tree, options, None)
}

/// [`generate`] for the crate at `crate_dir`: where the crate's committed files are what rustfmt
/// would make of this run's printed sources, they are taken as they are, without printing or
/// formatting them again ([`emit::format_sources`]). The files are the same bytes either way.
pub fn generate_reusing(
    tree: &Path,
    options: &Options,
    crate_dir: Option<&Path>,
) -> Result<Generated, diag::Error> {
    on_generator_stack(tree, || generate_here(tree, options, crate_dir))
}

/// [`generate_reusing`] on the calling thread, which must have [`STACK_BYTES`] of stack.
pub(crate) fn generate_here(
    tree: &Path,
    options: &Options,
    crate_dir: Option<&Path>,
) -> Result<Generated, diag::Error> {
    let input = read::read_tree(tree)?;
    let model = model::build(&input)?;
    options.check(&model)?;
    let (sources, notes) = emit::emit(&model);
    let mut files = emit::format_sources(sources, crate_dir, |files| emit::rustfmt_all(files))
        .map_err(|e| diag::Error::single(input.tree_name.clone(), diag::Loc::new(".", 0), e))?;
    let summary = report::Summary::of(&model, spec_names(&model));
    files.insert(SUMMARY_FILE.into(), summary.to_json());
    let api = report::api::Listing::of(&model);
    files.insert(report::api::API_FILE.into(), api.to_text(&model));
    Ok(Generated {
        model,
        files,
        summary,
        api,
        notes,
    })
}

/// The ISA summary of the tree at `tree` (read and model only: nothing is emitted or formatted).
/// This is what `neuron-isa diff` compares.
pub fn summarize(tree: &Path, options: &Options) -> Result<report::Summary, diag::Error> {
    on_generator_stack(tree, || summarize_here(tree, options))
}

fn summarize_here(tree: &Path, options: &Options) -> Result<report::Summary, diag::Error> {
    let input = read::read_tree(tree)?;
    let model = model::build(&input)?;
    options.check(&model)?;
    Ok(report::Summary::of(&model, spec_names(&model)))
}

/// The names of the spec functions the model translated, in source order.
fn spec_names(model: &model::Model) -> Vec<String> {
    model.specs.iter().map(|s| s.name.clone()).collect()
}

/// Build-script entry point (`regenerate` feature): generates `tree` and writes the
/// modules into `out_dir/generated/`. Each warning is printed as a `cargo::warning`.
pub fn regenerate_into(tree: &Path, out_dir: &Path, options: &Options) -> Result<(), String> {
    let generated = generate(tree, options).map_err(|e| e.to_string())?;
    for w in &generated.model.warnings {
        let line = format!("{}/{w}", generated.model.tree_name).replace('\n', " ");
        println!("cargo::warning={line}");
    }
    for (path, text) in &generated.files {
        let Some(rel) = path.strip_prefix("src/") else {
            continue;
        };
        if !rel.starts_with("generated/") {
            continue;
        }
        let target = out_dir.join(rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&target, text).map_err(|e| format!("{}: {e}", target.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parallel_map;

    /// The results come back in the items' order, each computed once, whichever worker took it
    /// and however long it took (the uneven sleeps make workers finish out of order).
    #[test]
    fn parallel_map_keeps_the_order_and_computes_each_item_once() {
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let items: Vec<u64> = (0..200).collect();
        let out = parallel_map(&items, |&x| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            std::thread::sleep(std::time::Duration::from_micros((x * 37) % 500));
            x * x
        });
        assert_eq!(calls.into_inner(), items.len());
        let expected: Vec<u64> = items.iter().map(|x| x * x).collect();
        assert_eq!(out, expected);
        assert!(parallel_map(&[] as &[u8], |_| 0).is_empty());
    }
}
