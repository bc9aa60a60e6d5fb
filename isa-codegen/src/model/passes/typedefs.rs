//! Pass: the typedefs of scalars, enums and records under other names.
//!
//! Input: the typedef table and the type resolver. Output:
//! [`Model::typedefs`](crate::model::Model::typedefs), in source order; a typedef of a type the
//! model cannot represent joins [`Model::untranslated`](crate::model::Model::untranslated).

use super::decls::TypedefTable;
use super::locate::Locator;
use super::types::TypeResolver;
use crate::diag::Diagnostic;
use crate::model::Typedef;

/// The typedefs of `table`, sorted by place; the untranslatable ones are appended to
/// `untranslated`.
pub(super) fn build(
    table: &TypedefTable<'_>,
    types: &TypeResolver<'_>,
    locator: &Locator<'_>,
    untranslated: &mut Vec<Diagnostic>,
) -> Vec<Typedef> {
    let mut typedefs = Vec::new();
    for (name, t) in table {
        let loc = locator.decl(t.file, name);
        match types.resolve(t.ty) {
            Ok(target) => typedefs.push(Typedef {
                c_name: name.to_string(),
                target,
                c_type: t.ty.clone(),
                doc: t.doc.clone(),
                loc,
            }),
            Err(why) => untranslated.push(Diagnostic::new(
                loc,
                format!("typedef `{name}` is not translated: {why}"),
            )),
        }
    }
    typedefs.sort_by(|a, b| a.loc.cmp(&b.loc));
    typedefs
}
