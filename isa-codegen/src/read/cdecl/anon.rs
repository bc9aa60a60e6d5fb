//! Stable names for bindgen's anonymous records (`P__bindgen_ty_N`), derived from where they sit.

use super::decl::{CDecl, FileDecls};
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
    let mut taken: BTreeSet<String> = files
        .iter()
        .flat_map(|f| f.decls.iter().map(|d| d.name().to_string()))
        .collect();
    let fresh = |base: String, taken: &mut BTreeSet<String>| {
        let mut name = base.clone();
        let mut n = 2;
        while taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        taken.insert(name.clone());
        name
    };
    // (original name, new name, parent's new name, field C name) of each anonymous record.
    let mut renames: BTreeMap<String, (String, String, Option<String>)> = BTreeMap::new();
    // Parents to visit: (original name, new name), named records first.
    let mut queue: Vec<(String, String)> = files
        .iter()
        .flat_map(|f| f.decls.iter())
        .filter_map(|d| match d {
            CDecl::Record(r) if !r.name.contains(BINDGEN_ANON_TYPE) => {
                Some((r.name.clone(), r.name.clone()))
            }
            _ => None,
        })
        .collect();
    let mut field_renames: BTreeMap<(String, String), String> = BTreeMap::new();
    while let Some((orig, new)) = queue.pop() {
        let Some(rec) = files
            .iter()
            .flat_map(|f| f.decls.iter())
            .find_map(|d| match d {
                CDecl::Record(r) if r.name == orig => Some(r),
                _ => None,
            })
        else {
            continue;
        };
        let prefix = format!("{orig}{BINDGEN_ANON_TYPE}");
        let mut k = 0;
        let mut field_names: Vec<String> = rec.fields.iter().map(|f| f.name.clone()).collect();
        for f in &rec.fields {
            let Some(child) = named_in(&f.ty).filter(|n| n.starts_with(&prefix)) else {
                continue;
            };
            if renames.contains_key(child) {
                continue;
            }
            let (child_new, field) = if f.name.starts_with(BINDGEN_ANON_MEMBER) {
                k += 1;
                let mut fname = format!("anon{k}");
                while field_names.contains(&fname) {
                    fname.push('_');
                }
                field_names.push(fname.clone());
                field_renames.insert((orig.clone(), f.name.clone()), fname.clone());
                (fresh(format!("{new}_{fname}"), &mut taken), None)
            } else {
                (
                    fresh(format!("{new}_{}", f.name), &mut taken),
                    Some(f.name.clone()),
                )
            };
            renames.insert(child.to_string(), (child_new.clone(), new.clone(), field));
            queue.push((child.to_string(), child_new));
        }
    }
    for file in files.iter_mut() {
        for decl in &mut file.decls {
            match decl {
                CDecl::Record(r) => {
                    let orig = r.name.clone();
                    for f in &mut r.fields {
                        if let Some(n) = field_renames.get(&(orig.clone(), f.name.clone())) {
                            f.name = n.clone();
                            f.anonymous = true;
                        }
                        rename_type(&mut f.ty, &renames);
                    }
                    for bf in &mut r.bitfields {
                        rename_type(&mut bf.ty, &renames);
                    }
                    if let Some((new, parent, field)) = renames.get(&orig) {
                        r.name = new.clone();
                        r.anonymous_in = Some((parent.clone(), field.clone()));
                    }
                }
                CDecl::Typedef { ty, .. } => rename_type(ty, &renames),
                _ => {}
            }
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

fn rename_type(ty: &mut CType, renames: &BTreeMap<String, (String, String, Option<String>)>) {
    match ty {
        CType::Named(n) => {
            if let Some((new, _, _)) = renames.get(n.as_str()) {
                *n = new.clone();
            }
        }
        CType::Array(inner, _) => rename_type(inner, renames),
        _ => {}
    }
}
