//! Diagnostics: every problem the generator finds names a file, the line it concerns, and what
//! is wrong. Only a place that has no lines (a directory, a missing or unreadable file, the
//! libclang library) is named without one ([`Loc::whole`]).

use std::fmt;

/// A place in a header tree: a path relative to the tree root and a 1-based line.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Loc {
    /// Path relative to the tree directory (`tpb/aws_neuron_isa_tpb_s1_rand.h`).
    pub file: String,
    /// 1-based line; 0 for a place without lines ([`Loc::whole`]).
    pub line: u32,
}

impl Loc {
    /// A location at `line` (1-based) of `file`.
    pub fn new(file: impl Into<String>, line: u32) -> Self {
        Loc {
            file: file.into(),
            line,
        }
    }

    /// A place that has no line to name: a directory, a file that is missing or cannot be read,
    /// or what is not a file of the tree (`(libclang)`). Printed as the path alone.
    pub fn whole(file: impl Into<String>) -> Self {
        Loc::new(file, 0)
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.file)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

/// One problem: where and what.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// Where, relative to the tree (the tree's own name is prefixed when printed by [`Error`]).
    pub loc: Loc,
    /// What is wrong, in one sentence.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at `loc`.
    pub fn new(loc: Loc, message: impl Into<String>) -> Self {
        Diagnostic {
            loc,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.loc, self.message)
    }
}

/// Why a tree could not be generated: one or more diagnostics, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Display name of the tree (`neuron_mariana_arch_isa`), prefixed to every location.
    pub tree: String,
    /// The problems.
    pub diagnostics: Vec<Diagnostic>,
}

impl Error {
    /// An error with a single diagnostic.
    pub fn single(tree: impl Into<String>, loc: Loc, message: impl Into<String>) -> Self {
        Error {
            tree: tree.into(),
            diagnostics: vec![Diagnostic::new(loc, message)],
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, d) in self.diagnostics.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            if self.tree.is_empty() {
                write!(f, "{d}")?;
            } else {
                write!(f, "{}/{d}", self.tree)?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Suffix of a warning that `--strict` turned into an error.
pub const STRICT_SUFFIX: &str = " [a warning; an error under --strict]";

impl Error {
    /// The error a strict run makes of a tree's warnings (each one a diagnostic, marked as such).
    pub fn from_warnings(tree: impl Into<String>, warnings: &[Diagnostic]) -> Self {
        let mut diagnostics: Vec<Diagnostic> = warnings
            .iter()
            .map(|w| Diagnostic::new(w.loc.clone(), format!("{}{STRICT_SUFFIX}", w.message)))
            .collect();
        diagnostics.sort();
        diagnostics.dedup();
        Error {
            tree: tree.into(),
            diagnostics,
        }
    }
}

/// Sorts diagnostics by place and drops exact repeats (a header that several others include
/// yields one diagnostic, not one per includer).
pub fn normalize(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort();
    diagnostics.dedup();
}

/// Collects diagnostics while a stage runs, so one run reports every problem it can see.
///
/// An error stops the tree (nothing is written); a warning is a problem the generator worked
/// around (a stale mapping entry skipped, a spec block it could not translate dropped, a clang
/// warning). Warnings travel with the model ([`crate::model::Model::warnings`]) into the report;
/// `--strict` makes each one an error.
#[derive(Debug, Default)]
pub struct Sink {
    diagnostics: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

impl Sink {
    /// Records a problem.
    pub fn push(&mut self, loc: Loc, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::new(loc, message));
    }

    /// Records a warning: a problem the generator worked around.
    pub fn warn(&mut self, loc: Loc, message: impl Into<String>) {
        self.warnings.push(Diagnostic::new(loc, message));
    }

    /// The warnings recorded so far, sorted and without repeats (the sink keeps none).
    pub fn take_warnings(&mut self) -> Vec<Diagnostic> {
        let mut w = std::mem::take(&mut self.warnings);
        normalize(&mut w);
        w
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// `Ok(value)` when nothing was recorded, otherwise the sorted diagnostics.
    pub fn finish<T>(mut self, tree: &str, value: T) -> Result<T, Error> {
        if self.diagnostics.is_empty() {
            Ok(value)
        } else {
            self.diagnostics.sort();
            self.diagnostics.dedup();
            Err(Error {
                tree: tree.to_string(),
                diagnostics: self.diagnostics,
            })
        }
    }
}
