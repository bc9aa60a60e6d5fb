//! The `raw` module: every C enum, struct, union, typedef and constant under its
//! vendor name, with the exact C layout asserted at compile time.
//!
//! Enums are integer aliases plus constants (a C enum field may hold any byte);
//! unions are byte arrays with an accessor per member (reading a Rust union needs
//! `unsafe`, which the crates forbid); bit-fields are storage units with accessors.

use super::ty::{le_fns, mark_records, prim, raw as raw_ty};
use super::{banner, doc, hex, ident, index_var, item_var, lit, plus, plus_elem_at, Source};
use crate::model::RecordId;
use crate::model::ShapeId;
use crate::model::{Field, Model, Record, Ty};
use crate::model::{Prim, RecordKind};
use proc_macro2::TokenStream;
use quote::quote;

pub fn emit(model: &Model) -> Source {
    let mut items = Vec::new();
    for t in &model.typedefs {
        let name = ident(&t.c_name);
        let target = raw_ty(model, &t.c_type, &t.target);
        let docs = doc::with_comment(t.doc.as_deref(), &format!("`typedef` at {}.", t.loc));
        items.push(quote! { #docs pub type #name = #target; });
    }
    for e in &model.enums {
        let name = ident(&e.c_name);
        let repr = prim(e.repr);
        let docs = doc::with_comment(
            e.doc.as_deref(),
            &format!(
                "C enum `{}` ({} bytes), declared at {}.",
                e.c_name,
                e.repr.size(),
                e.loc
            ),
        );
        items.push(quote! { #docs pub type #name = #repr; });
        for m in &e.members {
            let mname = ident(&m.c_name);
            let v = if e.c_name == crate::vendor::OPCODE_ENUM {
                hex(m.value, 2)
            } else {
                lit(m.value)
            };
            let mdoc =
                doc::with_comment(m.comment.as_deref(), &format!("Member of `{}`.", e.c_name));
            items.push(quote! { #mdoc pub const #mname: #name = #v; });
        }
    }
    for c in &model.constants {
        let name = ident(&c.c_name);
        let t = prim(c.ty);
        let v = lit(c.value);
        let docs = doc::with_comment(
            c.doc.as_deref(),
            &format!("Constant declared at {}.", c.loc),
        );
        items.push(quote! { #docs pub const #name: #t = #v; });
    }
    let in_packed = inside_packed(model);
    for (k, r) in model.record_entries() {
        items.push(super::with_cfg(
            &shape_cfg(model, k),
            record(model, r, in_packed[k.index()]),
        ));
    }
    Source::items(
        &banner(model, "the vendor declarations, by their C names."),
        quote!(#(#items)*),
    )
}

/// The feature attribute of record `r` when it is an operand struct (empty otherwise).
fn shape_cfg(model: &Model, r: RecordId) -> TokenStream {
    match model
        .shapes
        .iter()
        .position(|s| s.record == r)
        .map(ShapeId::new)
    {
        Some(s) => super::cfg_for_shape(model, s),
        None => quote!(),
    }
}

/// Per record: whether a packed record contains it (transitively). Rust forbids a
/// `#[repr(align)]` type inside a `#[repr(packed)]` one (E0588), so such a union takes its
/// alignment from a zero-length array field instead.
fn inside_packed(model: &Model) -> Vec<bool> {
    let mut out = vec![false; model.records.len()];
    for r in model.records.iter().filter(|r| r.packed) {
        for f in &r.fields {
            mark_records(model, &f.ty, &mut out);
        }
    }
    out
}

/// The bit-field storage units of a record: (unit name, offset, size, member fields).
pub(crate) fn bitfield_units(r: &Record) -> Vec<(String, u64, u64, Vec<&Field>)> {
    let mut units: Vec<(String, u64, u64, Vec<&Field>)> = Vec::new();
    for f in r.fields.iter().filter(|f| f.bits.is_some()) {
        match units.last_mut() {
            Some(u) if u.1 == f.offset => u.3.push(f),
            _ => {
                let name = format!("_bitfield_{}", units.len() + 1);
                units.push((name, f.offset, f.size, vec![f]));
            }
        }
    }
    units
}

/// Expression reading a scalar of `p` from `b` at `at` (little-endian; `bool` as a nonzero byte).
/// A byte is indexed directly: the same code optimised, and no call for a debug build to lower.
pub(crate) fn read_prim(p: Prim, at: TokenStream) -> TokenStream {
    let (get, _) = le_fns(p);
    match p {
        Prim::U8 => quote!(b[#at]),
        Prim::Bool => quote!(b[#at] != 0),
        Prim::F64 => quote!(f64::from_bits(#get(b, #at))),
        _ => quote!(#get(b, #at)),
    }
}

/// Statement writing the scalar `v` of `p` into `b` at `at` (the inverse of [`read_prim`]).
pub(crate) fn write_prim(p: Prim, at: TokenStream, v: TokenStream) -> TokenStream {
    let (_, put) = le_fns(p);
    match p {
        Prim::U8 => quote!(b[#at] = #v),
        Prim::Bool => quote!(b[#at] = u8::from(#v)),
        Prim::F64 => quote!(#put(b, #at, (#v).to_bits())),
        _ => quote!(#put(b, #at, #v)),
    }
}

/// Expression reading a value of model type `t` (raw spelling) at `at`.
pub(crate) fn read_raw(model: &Model, t: &Ty, at: TokenStream) -> TokenStream {
    read_raw_at(model, t, at, 0)
}

/// [`read_raw`] inside `depth` enclosing arrays (each dimension has its own index).
fn read_raw_at(model: &Model, t: &Ty, at: TokenStream, depth: usize) -> TokenStream {
    match t {
        Ty::Prim(p) => read_prim(*p, at),
        Ty::Enum(e) => read_prim(model.enums[*e].repr, at),
        Ty::Record(r) => {
            let name = ident(&model.records[*r].c_name);
            quote!(#name::read_at(b, #at))
        }
        Ty::Array(inner, _) => match super::ty::int_elem(model, inner, true) {
            // Integer elements: one shared helper per width, not a closure per field.
            Some(p) => {
                let get = ident(&format!("get_{}s", p.rust()));
                quote!(isa_core::le::#get(b, #at))
            }
            None => {
                let k = index_var(depth);
                let elem = read_raw_at(
                    model,
                    inner,
                    plus_elem_at(&at, model.size_of(inner), depth),
                    depth + 1,
                );
                quote!(core::array::from_fn(|#k| #elem))
            }
        },
    }
}

/// Statement writing `v` (raw spelling of model type `t`) at `at`.
pub(crate) fn write_raw(model: &Model, t: &Ty, at: TokenStream, v: TokenStream) -> TokenStream {
    write_raw_at(model, t, at, v, 0)
}

/// [`write_raw`] inside `depth` enclosing arrays (each dimension has its own index).
fn write_raw_at(
    model: &Model,
    t: &Ty,
    at: TokenStream,
    v: TokenStream,
    depth: usize,
) -> TokenStream {
    match t {
        Ty::Prim(p) => write_prim(*p, at, v),
        Ty::Enum(e) => write_prim(model.enums[*e].repr, at, v),
        Ty::Record(_) => quote!((#v).write_at(b, #at)),
        Ty::Array(inner, _) => match super::ty::int_elem(model, inner, true) {
            Some(p) => {
                let v_ref = super::borrow(&v);
                let put = ident(&format!("put_{}s", p.rust()));
                quote!(isa_core::le::#put(b, #at, #v_ref))
            }
            None => {
                let (k, item) = (index_var(depth), item_var(depth));
                let elem = write_raw_at(
                    model,
                    inner,
                    plus_elem_at(&at, model.size_of(inner), depth),
                    quote!(*#item),
                    depth + 1,
                );
                quote!(for (#k, #item) in (#v).iter().enumerate() { #elem; })
            }
        },
    }
}

/// A bit-field storage unit `(name, offset, size, members)` of a raw struct: its field, its
/// read and write in the codec, and the accessors of its members.
fn bitfield_unit(
    model: &Model,
    (uname, uoff, usize_, members): &(String, u64, u64, Vec<&Field>),
) -> (TokenStream, TokenStream, TokenStream, Vec<TokenStream>) {
    let uid = ident(uname);
    let n = lit(*usize_);
    let udoc = format!(
        " Storage of the bit-fields {} (bytes {}..{}).",
        members
            .iter()
            .map(|m| format!("`{}`", m.name))
            .collect::<Vec<_>>()
            .join(", "),
        uoff,
        uoff + usize_
    );
    let field = quote! { #[doc = #udoc] pub #uid: [u8; #n], };
    let uat = plus(&quote!(at), *uoff);
    let read = quote! { #uid: isa_core::le::get_bytes::<#n>(b, #uat), };
    let write = quote! { isa_core::le::put_bytes::<#n>(b, #uat, &self.#uid); };
    let mut accessors = Vec::new();
    for m in members {
        let bits = m.bits.expect("bit-field");
        let getter = ident(&crate::model::names::rust_field(&m.name));
        let setter = ident(&format!("set_{}", m.name));
        let t = raw_ty(model, &m.c_type, &m.ty);
        let first = lit(bits.offset);
        let width = lit(bits.width);
        let from = match &m.ty {
            Ty::Prim(Prim::Bool) => quote!(v != 0),
            _ => quote!(v as #t),
        };
        let gdoc = format!(
            " Bit-field `{}`: bits {}..{} of `{}`.",
            m.name,
            bits.offset,
            bits.offset + bits.width,
            uname
        );
        accessors.push(quote! {
            #[doc = #gdoc]
            pub fn #getter(&self) -> #t {
                let v = isa_core::le::extract_bits(isa_core::le::get_uint(&self.#uid), #first, #width);
                #from
            }
            #[doc = #gdoc]
            pub fn #setter(&mut self, value: #t) {
                let unit = isa_core::le::insert_bits(isa_core::le::get_uint(&self.#uid), #first, #width, value as u64);
                isa_core::le::put_uint(&mut self.#uid, unit);
            }
        });
    }
    (field, read, write, accessors)
}

fn record(model: &Model, r: &Record, in_packed: bool) -> TokenStream {
    let name = ident(&r.c_name);
    let size = lit(r.size);
    let align = lit(r.align);
    let kind = if r.kind == RecordKind::Union {
        "union"
    } else {
        "struct"
    };
    let float =
        r.fields.iter().any(|f| super::ty::has_float(model, &f.ty)) && r.kind == RecordKind::Struct;
    let derives = if float {
        quote!(#[derive(Clone, Copy, Debug, PartialEq)])
    } else {
        quote!(#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)])
    };
    // An operand struct's description is on its typed form, not repeated here.
    let shape = model
        .shapes
        .iter()
        .find(|s| model.records[s.record].c_name == r.c_name);
    let docs = doc::with_comment(
        if shape.is_some() {
            None
        } else {
            r.doc.as_deref()
        },
        &format!(
            "C {kind} `{}`: {} bytes, alignment {}{}, declared at {}.{}",
            r.c_name,
            r.size,
            r.align,
            if r.packed { ", packed" } else { "" },
            r.loc,
            match shape {
                Some(s) => format!(" The format is described on [`crate::{}`].", s.rust),
                None => String::new(),
            }
        ),
    );
    if r.kind == RecordKind::Union {
        return union(model, r, &name, &size, &align, docs, in_packed);
    }
    let repr = if r.packed {
        quote!(#[repr(C, packed)])
    } else {
        quote!(#[repr(C)])
    };
    let units = bitfield_units(r);
    let mut fields = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut asserts = Vec::new();
    let mut accessors = Vec::new();
    let mut unit_done = Vec::new();
    for f in &r.fields {
        let off = lit(f.offset);
        if f.bits.is_some() {
            let Some(unit) = units.iter().find(|u| u.1 == f.offset) else {
                continue;
            };
            if unit_done.contains(&unit.0) {
                continue;
            }
            unit_done.push(unit.0.clone());
            let (field, read, write, access) = bitfield_unit(model, unit);
            fields.push(field);
            reads.push(read);
            writes.push(write);
            accessors.extend(access);
            continue;
        }
        let fname = ident(&crate::model::names::rust_field(&f.name));
        let t = raw_ty(model, &f.c_type, &f.ty);
        let fdoc = doc::field(
            f.doc.as_deref(),
            &format!("Bytes {}..{} (`{}`)", f.offset, f.offset + f.size, f.name),
        );
        fields.push(quote! { #fdoc pub #fname: #t, });
        let rd = read_raw(model, &f.ty, plus(&quote!(at), f.offset));
        reads.push(quote! { #fname: #rd, });
        if r.packed && matches!(f.ty, Ty::Record(_) | Ty::Array(..)) {
            // A field of a packed struct may be unaligned: copy it out, never borrow it (E0793).
            let wr = write_raw(model, &f.ty, plus(&quote!(at), f.offset), quote!(v));
            writes.push(quote! { { let v = self.#fname; #wr; } });
        } else {
            let wr = write_raw(
                model,
                &f.ty,
                plus(&quote!(at), f.offset),
                quote!(self.#fname),
            );
            writes.push(quote! { #wr; });
        }
        asserts.push(quote! { assert!(core::mem::offset_of!(#name, #fname) == #off); });
    }
    quote! {
        #docs
        #repr
        #derives
        pub struct #name { #(#fields)* }
        const _: () = {
            assert!(core::mem::size_of::<#name>() == #size);
            assert!(core::mem::align_of::<#name>() == #align);
            #(#asserts)*
        };
        isa_core::raw_struct_codec!(#name, #size);
        impl #name {
            #[allow(dead_code)]
            pub(crate) fn read_at(b: &[u8], at: usize) -> Self { Self { #(#reads)* } }
            #[allow(dead_code)]
            pub(crate) fn write_at(&self, b: &mut [u8], at: usize) { #(#writes)* }
            #(#accessors)*
        }
    }
}

fn union(
    model: &Model,
    r: &Record,
    name: &proc_macro2::Ident,
    size: &TokenStream,
    align: &TokenStream,
    docs: TokenStream,
    in_packed: bool,
) -> TokenStream {
    // The union's alignment: `repr(align)`, or, inside a packed record (where Rust forbids
    // `repr(align)`), a zero-length array of an integer of that alignment.
    let align_int = match r.align {
        2 => Some(quote!(u16)),
        4 => Some(quote!(u32)),
        8 => Some(quote!(u64)),
        16 => Some(quote!(u128)),
        _ => None,
    };
    let (repr, align_field, align_init) = match (in_packed, r.align, align_int) {
        (true, 1, _) => (quote!(#[repr(C)]), quote!(), quote!()),
        (true, _, Some(t)) => (
            quote!(#[repr(C)]),
            quote! {
                /// Gives the union its C alignment (a packed record may contain it).
                _align: [#t; 0],
            },
            quote!(_align: [],),
        ),
        _ => (quote!(#[repr(C, align(#align))]), quote!(), quote!()),
    };
    let mut accessors = Vec::new();
    for f in &r.fields {
        let getter = ident(&crate::model::names::rust_field(&f.name));
        let setter = ident(&format!("set_{}", f.name));
        let t = raw_ty(model, &f.c_type, &f.ty);
        let rd = read_raw(model, &f.ty, quote!(0));
        let wr = write_raw(model, &f.ty, quote!(0), quote!(value));
        let gdoc = doc::with_comment(
            f.doc.as_deref(),
            &format!("Reads the union as its `{}` member.", f.name),
        );
        let sdoc = format!(" Overwrites the union with its `{}` member.", f.name);
        let cfg = match f.ty {
            Ty::Record(m) => shape_cfg(model, m),
            _ => quote!(),
        };
        accessors.push(quote! {
            #gdoc
            #cfg
            pub fn #getter(&self) -> #t { let b = &self.bytes[..]; #rd }
            #[doc = #sdoc]
            #cfg
            pub fn #setter(&mut self, value: #t) { let b = &mut self.bytes[..]; #wr; }
        });
    }
    quote! {
        #docs
        #repr
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct #name {
            /// The union's bytes; read them through a member accessor.
            pub bytes: [u8; #size],
            #align_field
        }
        const _: () = {
            assert!(core::mem::size_of::<#name>() == #size);
            assert!(core::mem::align_of::<#name>() == #align);
        };
        impl #name {
            /// Size in bytes.
            pub const SIZE: usize = #size;
            /// The union holding `bytes`.
            pub const fn from_bytes(bytes: &[u8; #size]) -> Self { Self { bytes: *bytes, #align_init } }
            /// The union's bytes.
            pub const fn to_bytes(&self) -> [u8; #size] { self.bytes }
            #[allow(dead_code)]
            pub(crate) fn read_at(b: &[u8], at: usize) -> Self { Self { bytes: isa_core::le::get_bytes::<#size>(b, at), #align_init } }
            #[allow(dead_code)]
            pub(crate) fn write_at(&self, b: &mut [u8], at: usize) { isa_core::le::put_bytes::<#size>(b, at, &self.bytes); }
            #(#accessors)*
        }
        impl Default for #name {
            fn default() -> Self { Self { bytes: [0u8; #size], #align_init } }
        }
    }
}
