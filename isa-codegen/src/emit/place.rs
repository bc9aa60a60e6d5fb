//! The Rust spelling of the model's places and writes ([`crate::model::place`]): a field path as
//! a place on a typed value, a write as a statement.

use super::{ident, lit};
use crate::model::eval::FieldPath;
use crate::model::place::{assignment, Place, PlaceStep, Written};
use crate::model::Model;
use crate::model::RecordId;
use proc_macro2::TokenStream;
use quote::quote;

/// Rust place of a shape field path on a typed value `f`, and the union-member step if it ends in one.
pub(crate) fn place(
    model: &Model,
    shape_record: RecordId,
    p: &FieldPath,
) -> (TokenStream, Option<(RecordId, usize)>) {
    place_from(model, shape_record, p, quote!(f))
}

/// [`place`] on the typed value `root`.
pub(crate) fn place_from(
    model: &Model,
    _shape_record: RecordId,
    p: &FieldPath,
    root: TokenStream,
) -> (TokenStream, Option<(RecordId, usize)>) {
    let place = crate::model::place::place(model, p);
    (tokens(&place, root), place.union_member)
}

fn tokens(place: &Place, root: TokenStream) -> TokenStream {
    let mut toks = root;
    for s in &place.steps {
        match s {
            PlaceStep::Field(name) => {
                let id = ident(name);
                toks = quote!(#toks.#id);
            }
            PlaceStep::Index(i) => {
                let i = lit(*i);
                toks = quote!(#toks[#i]);
            }
        }
    }
    toks
}

/// Statement assigning `value` to the field at `p` of the typed shape `f`.
pub(crate) fn assign(
    model: &Model,
    shape_record: RecordId,
    p: &FieldPath,
    value: i128,
) -> Option<TokenStream> {
    assign_in(model, shape_record, p, value, &quote!(crate))
}

/// [`assign`], naming the generated crate's types through `krate` (`crate`, or the crate's
/// name in a doc example).
pub(crate) fn assign_in(
    model: &Model,
    shape_record: RecordId,
    p: &FieldPath,
    value: i128,
    krate: &TokenStream,
) -> Option<TokenStream> {
    let a = assignment(model, shape_record, p, value)?;
    let place = tokens(&a.place, quote!(f));
    Some(match a.value {
        Written::Union {
            union,
            member,
            prim,
            value,
        } => {
            let un = ident(&model.records[union].rust);
            let ctor = ident(&format!(
                "from_{}",
                model.records[union].fields[member].name
            ));
            let v = typed_lit(value, prim)?;
            quote!(#place = #krate::#un::#ctor(#v);)
        }
        Written::Enum { enum_id, member } => {
            let en = &model.enums[enum_id];
            let t = ident(&en.rust);
            let v = ident(&en.members[member].rust);
            quote!(#place = #krate::#t::#v;)
        }
        Written::Bool(b) => quote!(#place = #b;),
        Written::Int(v) => {
            let v = lit(v);
            quote!(#place = #v;)
        }
    })
}

/// A literal of Rust type `p`.
fn typed_lit(v: i128, p: crate::ctype::Prim) -> Option<TokenStream> {
    use crate::ctype::Prim;
    use proc_macro2::Literal;
    let l = match p {
        Prim::U8 => Literal::u8_suffixed(u8::try_from(v).ok()?),
        Prim::U16 => Literal::u16_suffixed(u16::try_from(v).ok()?),
        Prim::U32 => Literal::u32_suffixed(u32::try_from(v).ok()?),
        Prim::U64 => Literal::u64_suffixed(u64::try_from(v).ok()?),
        Prim::I8 => Literal::i8_suffixed(i8::try_from(v).ok()?),
        Prim::I16 => Literal::i16_suffixed(i16::try_from(v).ok()?),
        Prim::I32 => Literal::i32_suffixed(i32::try_from(v).ok()?),
        Prim::I64 => Literal::i64_suffixed(i64::try_from(v).ok()?),
        _ => return None,
    };
    Some(quote!(#l))
}
