//! Pass: the tree's names.
//!
//! Input: bindgen's declarations, per header. Output: the typedef table (enums, records and
//! constants are read in file order by their own passes) and the items bindgen could not
//! translate ([`Model::untranslated`](crate::model::Model::untranslated)). A name declared twice
//! is an error at its second declaration.

use super::locate::Locator;
use crate::ctype::CType;
use crate::diag::{Diagnostic, Loc, Sink};
use crate::read::cdecl::CDecl;
use crate::read::TreeInput;
use std::collections::BTreeMap;

/// A `typedef` as declared.
pub(super) struct TypedefDecl<'a> {
    /// The aliased C type.
    pub ty: &'a CType,
    /// Its comment.
    pub doc: &'a Option<String>,
    /// The header declaring it.
    pub file: &'a str,
}

/// Every typedef of the tree by name.
pub(super) type TypedefTable<'a> = BTreeMap<&'a str, TypedefDecl<'a>>;

/// The typedef table and the untranslatable items, each at its declaration.
pub(super) fn collect<'a>(
    input: &'a TreeInput,
    locator: &Locator<'_>,
    sink: &mut Sink,
) -> (TypedefTable<'a>, Vec<Diagnostic>) {
    let mut typedefs = TypedefTable::new();
    let mut seen: BTreeMap<&str, Loc> = BTreeMap::new();
    let mut untranslated = Vec::new();
    for file in &input.decls {
        for (name, why) in &file.untranslatable {
            untranslated.push(Diagnostic::new(
                locator.decl(&file.file, name),
                format!("`{name}` is not translated: {why}"),
            ));
        }
        for decl in &file.decls {
            let loc = locator.decl(&file.file, decl.name());
            if let Some(prev) = seen.get(decl.name()) {
                sink.push(
                    loc,
                    format!("`{}` is declared again (first at {prev})", decl.name()),
                );
                continue;
            }
            seen.insert(decl.name(), loc);
            if let CDecl::Typedef { name, ty, doc } = decl {
                typedefs.insert(
                    name,
                    TypedefDecl {
                        ty,
                        doc,
                        file: &file.file,
                    },
                );
            }
        }
    }
    (typedefs, untranslated)
}
