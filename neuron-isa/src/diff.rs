//! `diff`: the semantic ISA difference between two header trees, in the form
//! of the generator's report (`isa_codegen::report::Change` lines).

use crate::fail::{one_line, Failure, Outcome};
use crate::out::Out;
use isa_codegen::report::{diff as changes, Summary};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The tree's directory with `.`, `..` and symbolic links resolved (the generator takes the
/// tree's name from the last component, which `.` or a trailing `..` would hide), after
/// checking that its name is `neuron_<gen>_arch_isa`.
pub fn resolve(tree: &Path) -> Result<PathBuf, Failure> {
    let shown = tree.display();
    let dir =
        std::fs::canonicalize(tree).map_err(|e| Failure::usage(format!("diff: {shown}: {e}")))?;
    if !dir.is_dir() {
        return Err(Failure::usage(format!(
            "diff: {shown}: not a directory (expected a neuron_<gen>_arch_isa header tree)"
        )));
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name_problem(&name) {
        None => Ok(dir),
        Some(problem) => {
            let resolved = if dir.as_path() == tree {
                String::new()
            } else {
                format!(" (resolved to {})", dir.display())
            };
            Err(Failure::usage(format!(
                "diff: {shown}{resolved}: directory name `{name}` is not of the form neuron_<gen>_arch_isa: {problem}"
            )))
        }
    }
}

/// Which part of a tree directory name is not `neuron_<gen>_arch_isa` (`<gen>`: lower-case
/// letters, digits and `_`, as the generator reads it), or `None` when it is.
pub fn name_problem(name: &str) -> Option<String> {
    let Some(rest) = name.strip_prefix("neuron_") else {
        return Some("it does not start with `neuron_`".into());
    };
    let Some(gen) = rest.strip_suffix("_arch_isa") else {
        return Some("it does not end with `_arch_isa`".into());
    };
    if gen.is_empty() {
        return Some("the generation part between them is empty".into());
    }
    gen.chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_'))
        .map(|c| {
            format!("the generation part `{gen}` has `{c}`; it takes lower-case letters, digits and `_`")
        })
}

/// The ISA summary of the tree at `tree` (`isa_codegen::summarize`: read and model, nothing emitted).
pub fn summary(tree: &Path) -> Result<Summary, Failure> {
    let tree = resolve(tree)?;
    isa_codegen::summarize(&tree, &isa_codegen::Options::default()).map_err(|e| {
        let more = e.diagnostics.len().saturating_sub(1);
        let shown = e.to_string();
        let first = one_line(shown.lines().next().unwrap_or(""));
        Failure::usage(if more > 0 {
            format!("diff: {first} (and {more} more problems)")
        } else {
            format!("diff: {first}")
        })
    })
}

/// Prints the changes from the tree `from` to the tree `to`.
pub fn diff<W: Write>(from: &Path, to: &Path, out: &mut Out<W>) -> Outcome {
    let old = summary(from)?;
    let new = summary(to)?;
    let list = changes(&old, &new);
    let _ = writeln!(
        out,
        "{} (NC-v{}, {}) -> {} (NC-v{}, {})",
        old.generation,
        old.nc_version,
        from.display(),
        new.generation,
        new.nc_version,
        to.display()
    );
    if list.is_empty() {
        let _ = writeln!(out, "    ISA changes: none");
    } else {
        let _ = writeln!(out, "    ISA changes ({}):", list.len());
        for change in &list {
            let _ = writeln!(out, "      {change}");
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_which_part_is_wrong_and_agree_with_the_generator() {
        let cases = [
            ("neuron_mariana_arch_isa", None),
            ("neuron_nc_6_arch_isa", None),
            ("headers", Some("does not start with `neuron_`")),
            ("neuron_mariana", Some("does not end with `_arch_isa`")),
            (
                "neuron__arch_isa",
                Some("generation part between them is empty"),
            ),
            ("neuron_Mariana_arch_isa", Some("has `M`")),
            ("neuron_mari-ana_arch_isa", Some("has `-`")),
        ];
        for (name, problem) in cases {
            let found = name_problem(name);
            match problem {
                None => assert_eq!(found, None, "{name}"),
                Some(p) => assert!(
                    found.as_deref().is_some_and(|f| f.contains(p)),
                    "{name}: {found:?}"
                ),
            }
            // The generator reads exactly the names this accepts.
            assert_eq!(
                found.is_none(),
                isa_codegen::read::generation_of(name).is_some(),
                "{name}"
            );
        }
    }
}
