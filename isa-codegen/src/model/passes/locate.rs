//! Where each declaration sits: the read stage's line index of every header, asked by name.
//! bindgen gives declarations without lines; every pass that reports a declaration takes its
//! `file:line` from here.

use crate::diag::Loc;
use crate::read::source::{LineIndex, SourceFile};
use std::collections::BTreeMap;

/// The line index of every header of a tree.
pub(super) struct Locator<'a> {
    indexes: BTreeMap<&'a str, LineIndex>,
}

impl<'a> Locator<'a> {
    /// Indexes `headers`.
    pub(super) fn new(headers: &'a [SourceFile]) -> Self {
        Locator {
            indexes: headers
                .iter()
                .map(|h| (h.rel.as_str(), LineIndex::new(h)))
                .collect(),
        }
    }

    /// The declaration of `name` in `file` (line 0 when the index does not find it).
    pub(super) fn decl(&self, file: &str, name: &str) -> Loc {
        self.indexes
            .get(file)
            .map(|ix| ix.loc(ix.decl_line(name).unwrap_or(0)))
            .unwrap_or_else(|| Loc::new(file, 0))
    }

    /// Where what `file` lacks is reported: its last line (the file alone when it is not a
    /// header of the tree).
    pub(super) fn end_of(&self, file: &str) -> Loc {
        self.indexes
            .get(file)
            .map_or_else(|| Loc::whole(file), LineIndex::end_loc)
    }

    /// Member `name` of the declaration at `anchor` in `file` (the anchor when not found).
    pub(super) fn member(&self, file: &str, anchor: &Loc, name: &str) -> Loc {
        self.indexes
            .get(file)
            .map(|ix| ix.loc(ix.member_line(anchor.line, name).unwrap_or(anchor.line)))
            .unwrap_or_else(|| anchor.clone())
    }
}
