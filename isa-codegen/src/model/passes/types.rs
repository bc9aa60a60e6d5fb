//! The C types of a tree, resolved to model types: typedef chains followed, enums and records
//! named by index. The records and typedefs passes share it.

use super::decls::TypedefTable;
use crate::ctype::{CType, Prim};
use crate::model::{Enum, EnumId, RecordId, Ty};
use crate::read::cdecl::CRecord;
use std::collections::BTreeMap;

/// Typedef chains longer than this are rejected (a typedef of itself would never end).
const MAX_TYPEDEF_CHAIN: usize = 32;

/// Resolves C types against the tree's enums, records and typedefs.
pub(super) struct TypeResolver<'a> {
    enum_ix: BTreeMap<&'a str, EnumId>,
    record_ix: BTreeMap<&'a str, RecordId>,
    typedefs: &'a TypedefTable<'a>,
}

impl<'a> TypeResolver<'a> {
    /// The resolver of a tree whose enums are `enums` and whose records will be built from
    /// `records`, in that order.
    pub(super) fn new(
        enums: &'a [Enum],
        records: &[(&'a CRecord, &'a str)],
        typedefs: &'a TypedefTable<'a>,
    ) -> Self {
        TypeResolver {
            enum_ix: enums
                .iter()
                .enumerate()
                .map(|(k, e)| (e.c_name.as_str(), EnumId::new(k)))
                .collect(),
            record_ix: records
                .iter()
                .enumerate()
                .map(|(k, (r, _))| (r.name.as_str(), RecordId::new(k)))
                .collect(),
            typedefs,
        }
    }

    /// The enum named `c_name`.
    pub(super) fn enum_id(&self, c_name: &str) -> Option<EnumId> {
        self.enum_ix.get(c_name).copied()
    }

    /// The record named `c_name`.
    pub(super) fn record_id(&self, c_name: &str) -> Option<RecordId> {
        self.record_ix.get(c_name).copied()
    }

    /// The model type of a C type, or why it has none.
    pub(super) fn resolve(&self, ty: &CType) -> Result<Ty, String> {
        self.resolve_with(ty, 0)
    }

    fn resolve_with(&self, ty: &CType, depth: usize) -> Result<Ty, String> {
        if depth > MAX_TYPEDEF_CHAIN {
            return Err("typedef chain too deep".into());
        }
        Ok(match ty {
            CType::Prim(p) => Ty::Prim(*p),
            CType::Enum(name) => {
                Ty::Enum(self.enum_id(name).ok_or(format!("unknown enum `{name}`"))?)
            }
            CType::Named(name) => {
                if let Some(r) = self.record_id(name) {
                    Ty::Record(r)
                } else if let Some(e) = self.enum_id(name) {
                    Ty::Enum(e)
                } else if let Some(t) = self.typedefs.get(name.as_str()) {
                    self.resolve_with(t.ty, depth + 1)?
                } else {
                    return Err(format!("unknown type `{name}`"));
                }
            }
            CType::Array(inner, n) => Ty::Array(Box::new(self.resolve_with(inner, depth + 1)?), *n),
            CType::BitfieldUnit(n) => Ty::Array(Box::new(Ty::Prim(Prim::U8)), *n),
            CType::Unsupported(text) => return Err(format!("C type `{text}` has no ISA meaning")),
        })
    }

    /// The records a type contains (whose layout must be known before its own).
    pub(super) fn deps(&self, ty: &CType, out: &mut Vec<RecordId>) {
        if let Ok(t) = self.resolve(ty) {
            collect_records(&t, out);
        }
    }
}

fn collect_records(ty: &Ty, out: &mut Vec<RecordId>) {
    match ty {
        Ty::Record(r) => out.push(*r),
        Ty::Array(t, _) => collect_records(t, out),
        _ => {}
    }
}
