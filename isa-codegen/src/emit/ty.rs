//! Rust spellings of model types, in the raw and the typed layer, and the facts about them the
//! emitters share (which fields a typed form has, what holds a float, what decodes from zeros).

use super::ident;
use crate::model::{CType, Prim};
use crate::model::{Field, Model, RecordId, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// The integer primitive of an array element the `isa_core::le::get_*s` / `put_*s` helpers read
/// and write whole: an integer, or (in the raw layer, `raw_enums`) an enum by its repr.
pub fn int_elem(model: &Model, elem: &Ty, raw_enums: bool) -> Option<Prim> {
    let p = match elem {
        Ty::Prim(p) => *p,
        Ty::Enum(e) if raw_enums => model.enums[*e].repr,
        _ => return None,
    };
    (p.is_int() && p != Prim::Bool).then_some(p)
}

/// A primitive's Rust type.
pub fn prim(p: Prim) -> TokenStream {
    let i = ident(p.rust());
    quote!(#i)
}

/// The raw layer's spelling of a field's C type (typedef and enum names kept).
pub fn raw(model: &Model, c: &CType, resolved: &Ty) -> TokenStream {
    match c {
        CType::Prim(p) => prim(*p),
        CType::Named(n) | CType::Enum(n) => {
            let i = ident(n);
            quote!(#i)
        }
        CType::Array(inner, n) => {
            let inner_resolved = match resolved {
                Ty::Array(t, _) => t.as_ref().clone(),
                other => other.clone(),
            };
            let t = raw(model, inner, &inner_resolved);
            let n = super::lit(*n);
            quote!([#t; #n])
        }
        CType::BitfieldUnit(n) => {
            let n = super::lit(*n);
            quote!([u8; #n])
        }
        CType::Unsupported(_) => typed(model, resolved),
    }
}

/// The typed layer's spelling of a model type.
pub fn typed(model: &Model, t: &Ty) -> TokenStream {
    match t {
        Ty::Prim(p) => prim(*p),
        Ty::Enum(e) => {
            let i = ident(&model.enums[*e].rust);
            quote!(#i)
        }
        Ty::Record(r) => {
            let i = ident(&model.records[*r].rust);
            quote!(#i)
        }
        Ty::Array(inner, n) => {
            let t = typed(model, inner);
            let n = super::lit(*n);
            quote!([#t; #n])
        }
    }
}

/// True when a value of `t` holds a float (no `Eq`/`Hash`).
pub fn has_float(model: &Model, t: &Ty) -> bool {
    match t {
        Ty::Prim(p) => matches!(p, Prim::F32 | Prim::F64),
        Ty::Enum(_) => false,
        Ty::Record(r) => {
            let rec = &model.records[*r];
            rec.kind == crate::model::RecordKind::Struct
                && rec.fields.iter().any(|f| has_float(model, &f.ty))
        }
        Ty::Array(inner, _) => has_float(model, inner),
    }
}

/// True when decoding `t` can fail (it holds an enum outside a union).
pub fn fallible(model: &Model, t: &Ty) -> bool {
    match t {
        Ty::Prim(_) => false,
        Ty::Enum(_) => true,
        Ty::Record(r) => {
            let rec = &model.records[*r];
            rec.kind == crate::model::RecordKind::Struct
                && rec
                    .fields
                    .iter()
                    .enumerate()
                    .any(|(k, f)| !model.is_opcode_field(*r, k) && fallible(model, &f.ty))
        }
        Ty::Array(inner, _) => fallible(model, inner),
    }
}

/// True when every value of `t` can be produced from all-zero bytes.
pub fn zero_decodable(model: &Model, t: &Ty) -> bool {
    match t {
        Ty::Prim(_) => true,
        Ty::Enum(e) => model.enums[*e].by_value(0).is_some(),
        Ty::Record(r) => {
            let rec = &model.records[*r];
            rec.kind == crate::model::RecordKind::Union
                || rec
                    .fields
                    .iter()
                    .enumerate()
                    .all(|(k, f)| model.is_opcode_field(*r, k) || zero_decodable(model, &f.ty))
        }
        Ty::Array(inner, _) => zero_decodable(model, inner),
    }
}

/// Fields of a record in its typed form (the opcode field is implied by the instruction type).
pub fn typed_fields(model: &Model, r: RecordId) -> impl Iterator<Item = (usize, &Field)> {
    model.records[r]
        .fields
        .iter()
        .enumerate()
        .filter(move |(k, _)| !model.is_opcode_field(r, *k))
}

/// Marks in `seen` (indexed by record) every record a value of `t` holds, `t`'s own included,
/// without descending again into a record already marked.
pub fn mark_records(model: &Model, t: &Ty, seen: &mut [bool]) {
    match t {
        Ty::Record(r) if !seen[r.index()] => {
            seen[r.index()] = true;
            for f in &model.records[*r].fields {
                mark_records(model, &f.ty, seen);
            }
        }
        Ty::Array(inner, _) => mark_records(model, inner, seen),
        _ => {}
    }
}

/// The little-endian getter/putter names of `isa_core::le` for a primitive.
pub fn le_fns(p: Prim) -> (TokenStream, TokenStream) {
    let (g, s) = match p {
        Prim::Bool | Prim::U8 => ("get_u8", "put_u8"),
        Prim::I8 => ("get_i8", "put_i8"),
        Prim::U16 => ("get_u16", "put_u16"),
        Prim::I16 => ("get_i16", "put_i16"),
        Prim::U32 => ("get_u32", "put_u32"),
        Prim::I32 => ("get_i32", "put_i32"),
        Prim::U64 => ("get_u64", "put_u64"),
        Prim::I64 => ("get_i64", "put_i64"),
        Prim::F32 => ("get_f32", "put_f32"),
        Prim::F64 => ("get_u64", "put_u64"),
    };
    let (g, s) = (ident(g), ident(s));
    (quote!(isa_core::le::#g), quote!(isa_core::le::#s))
}
