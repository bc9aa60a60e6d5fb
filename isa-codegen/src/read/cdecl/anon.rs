//! Stable names for bindgen's anonymous records (`P__bindgen_ty_N`), derived from where they sit.

use super::decl::{CDecl, CRecord, FileDecls};
use crate::ctype::CType;
use std::collections::{BTreeMap, BTreeSet};

/// Marker of bindgen's names for anonymous records (`PARENT__bindgen_ty_N`).
const BINDGEN_ANON_TYPE: &str = "__bindgen_ty_";
/// Marker of bindgen's names for anonymous members (`__bindgen_anon_N`).
const BINDGEN_ANON_MEMBER: &str = "__bindgen_anon_";

/// Gives bindgen's anonymous records stable names derived from where they sit: the type of a
/// named field `f` of record `P` becomes `P_f`; the k-th anonymous member of `P` becomes field
/// `anon<k>` of type `P_anon<k>` (a name already taken gets `_2`, `_3`, ...). Nested anonymous
/// records are named from their renamed parent. Nothing named `__bindgen_*` survives.
pub(super) fn name_anonymous_records(files: &mut [FileDecls]) {
    let renames = plan_renames(files);
    apply_renames(files, &renames);
}

/// Where an anonymous record sits, under the names it gets.
struct Placed {
    /// Its new name.
    name: String,
    /// The (renamed) record it sits in.
    parent: String,
    /// The C name of the field it types; `None` for an anonymous member.
    field: Option<String>,
}

/// The new names of a tree's anonymous records and anonymous members.
#[derive(Default)]
struct Renames {
    /// By bindgen's name of each anonymous record.
    records: BTreeMap<String, Placed>,
    /// By (bindgen's name of the enclosing record, bindgen's member name): `anon<k>`.
    members: BTreeMap<(String, String), String>,
}

/// The names every anonymous record and member gets, from the named records down.
fn plan_renames(files: &[FileDecls]) -> Renames {
    let records: Vec<&CRecord> = files
        .iter()
        .flat_map(|f| f.decls.iter())
        .filter_map(|d| match d {
            CDecl::Record(r) => Some(r),
            _ => None,
        })
        .collect();
    let mut taken: BTreeSet<String> = files
        .iter()
        .flat_map(|f| f.decls.iter().map(|d| d.name().to_string()))
        .collect();
    let mut fresh = |base: String| {
        let mut name = base.clone();
        let mut n = 2;
        while taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        taken.insert(name.clone());
        name
    };
    let mut renames = Renames::default();
    // Parents to visit: (bindgen's name, new name), named records first.
    let mut queue: Vec<(String, String)> = records
        .iter()
        .filter(|r| !r.name.contains(BINDGEN_ANON_TYPE))
        .map(|r| (r.name.clone(), r.name.clone()))
        .collect();
    while let Some((orig, new)) = queue.pop() {
        let Some(rec) = records.iter().find(|r| r.name == orig) else {
            continue;
        };
        let prefix = format!("{orig}{BINDGEN_ANON_TYPE}");
        let mut k = 0;
        let mut field_names: Vec<String> = rec.fields.iter().map(|f| f.name.clone()).collect();
        for f in &rec.fields {
            let Some(child) = named_in(&f.ty).filter(|n| n.starts_with(&prefix)) else {
                continue;
            };
            if renames.records.contains_key(child) {
                continue;
            }
            let (child_new, field) = if f.name.starts_with(BINDGEN_ANON_MEMBER) {
                k += 1;
                let mut member = format!("anon{k}");
                while field_names.contains(&member) {
                    member.push('_');
                }
                field_names.push(member.clone());
                renames
                    .members
                    .insert((orig.clone(), f.name.clone()), member.clone());
                (fresh(format!("{new}_{member}")), None)
            } else {
                (fresh(format!("{new}_{}", f.name)), Some(f.name.clone()))
            };
            renames.records.insert(
                child.to_string(),
                Placed {
                    name: child_new.clone(),
                    parent: new.clone(),
                    field,
                },
            );
            queue.push((child.to_string(), child_new));
        }
    }
    renames
}

/// Renames the anonymous records, the members and every type that names one.
fn apply_renames(files: &mut [FileDecls], renames: &Renames) {
    for decl in files.iter_mut().flat_map(|f| f.decls.iter_mut()) {
        match decl {
            CDecl::Record(r) => {
                let orig = r.name.clone();
                for f in &mut r.fields {
                    if let Some(n) = renames.members.get(&(orig.clone(), f.name.clone())) {
                        f.name = n.clone();
                        f.anonymous = true;
                    }
                    rename_type(&mut f.ty, renames);
                }
                for bf in &mut r.bitfields {
                    rename_type(&mut bf.ty, renames);
                }
                if let Some(placed) = renames.records.get(&orig) {
                    r.name = placed.name.clone();
                    r.anonymous_in = Some((placed.parent.clone(), placed.field.clone()));
                }
            }
            CDecl::Typedef { ty, .. } => rename_type(ty, renames),
            _ => {}
        }
    }
}

/// The record or typedef name a type names (through arrays).
fn named_in(ty: &CType) -> Option<&str> {
    match ty {
        CType::Named(n) => Some(n),
        CType::Array(inner, _) => named_in(inner),
        _ => None,
    }
}

/// `ty` with an anonymous record's name replaced by its new one (through arrays).
fn rename_type(ty: &mut CType, renames: &Renames) {
    match ty {
        CType::Named(n) => {
            if let Some(placed) = renames.records.get(n.as_str()) {
                *n = placed.name.clone();
            }
        }
        CType::Array(inner, _) => rename_type(inner, renames),
        _ => {}
    }
}
