//! `diff`: the semantic ISA difference between two header trees, in the form
//! of the generator's report (`isa_codegen::report::Change` lines).

use crate::fail::{one_line, Failure, Outcome};
use crate::out::Out;
use isa_codegen::report::{diff as changes, Summary};
use std::fmt::Write as _;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::Mutex;

/// The ISA summary of the tree at `tree`: read (bindgen) and model, as `isa_codegen::generate`
/// does, without emitting and formatting the crate's files.
pub fn summary(tree: &Path) -> Result<Summary, Failure> {
    let built = quietly(|| {
        let input = isa_codegen::read::read_tree(tree)?;
        let model = isa_codegen::model::build::build(&input)?;
        let specs = input.specs.iter().map(|s| s.name()).collect();
        Ok::<_, isa_codegen::diag::Error>(Summary::of(&model, specs))
    });
    match built {
        Ok(Ok(s)) => Ok(s),
        Ok(Err(e)) => {
            let more = e.diagnostics.len().saturating_sub(1);
            let first = e.to_string();
            let first = first.lines().next().unwrap_or("");
            Err(Failure::usage(if more > 0 {
                format!("diff: {first} (and {more} more problems)")
            } else {
                format!("diff: {first}")
            }))
        }
        Err(message) if message.to_ascii_lowercase().contains("libclang") => Err(Failure::usage(format!(
            "diff needs libclang at run time and could not load it ({}); install it with `apt-get install -y libclang-dev` or point LIBCLANG_PATH at it",
            one_line(&message)
        ))),
        Err(message) => Err(Failure::usage(format!(
            "diff: reading {} failed: {}",
            tree.display(),
            one_line(&message)
        ))),
    }
}

/// Runs `f`, turning a panic (bindgen's "Unable to find libclang") into its message, printed nowhere.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static MESSAGE: Mutex<Option<String>> = Mutex::new(None);
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        let text = match info.payload().downcast_ref::<&str>() {
            Some(s) => (*s).to_string(),
            None => info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "panic".into()),
        };
        if let Ok(mut m) = MESSAGE.lock() {
            *m = Some(text);
        }
    }));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(previous);
    result.map_err(|_| {
        MESSAGE
            .lock()
            .ok()
            .and_then(|mut m| m.take())
            .unwrap_or_else(|| "panic".into())
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
