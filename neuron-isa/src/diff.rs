//! `diff`: the semantic ISA difference between two header trees, in the form
//! of the generator's report (`isa_codegen::report::Change` lines).

use crate::fail::{one_line, Failure, Outcome};
use crate::out::Out;
use isa_codegen::report::{diff as changes, Summary};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// The ISA summary of the tree at `tree` (`isa_codegen::summarize`: read and model, nothing emitted).
pub fn summary(tree: &Path) -> Result<Summary, Failure> {
    isa_codegen::summarize(tree, &isa_codegen::Options::default()).map_err(|e| {
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
