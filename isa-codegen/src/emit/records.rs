//! The `types` module: typed enums and the typed form of every record an
//! operand struct reaches (unions as byte views with a typed accessor per
//! member), plus the encode/decode code shared with the instructions.

use super::raw::bitfield_units;
use super::ty::{fallible, mark_records, typed, typed_fields, zero_decodable};
use super::{banner, doc, ident, index_var, item_var, lit, plus, plus_elem_at, Source};
use crate::model::names::rust_field;
use crate::model::{Model, Record, RecordId, Ty};
use crate::model::{Prim, RecordKind};
use proc_macro2::TokenStream;
use quote::quote;

/// Records reachable from the operand structs (their typed forms are emitted), in model order.
pub fn reachable(model: &Model) -> Vec<RecordId> {
    let mut seen = vec![false; model.records.len()];
    for s in &model.shapes {
        for f in &model.records[s.record].fields {
            mark_records(model, &f.ty, &mut seen);
        }
    }
    // Records spec functions take as parameters need a typed form too.
    for f in &model.specs {
        for (_, t) in &f.params {
            if let crate::model::spec::SpecTy::Record(r) = t {
                mark_records(model, &Ty::Record(*r), &mut seen);
            }
        }
    }
    let shape_records: Vec<RecordId> = model.shapes.iter().map(|s| s.record).collect();
    RecordId::all(model.records.len())
        .filter(|r| seen[r.index()] && !shape_records.contains(r))
        .collect()
}

pub fn emit(model: &Model) -> Source {
    let mut items = Vec::new();
    for (k, e) in model.enum_entries() {
        if k != model.opcode_enum {
            items.push(super::enums::typed_enum(e));
        }
    }
    for r in reachable(model) {
        let rec = &model.records[r];
        items.push(match rec.kind {
            RecordKind::Union => union_view(model, r),
            RecordKind::Struct => typed_struct(model, r, &rec.rust, None),
        });
    }
    Source::items(
        &banner(model, "typed enums and records."),
        quote!(#(#items)*),
    )
}

/// A decoder in two phases: `checks`, statements that return the `DecodeError` of the first
/// field holding no member of its enum (with `isa_core::check_enum!`: the enclosing fn returns
/// `Result<_, DecodeError>`), then `value`, an expression that cannot fail. The value is built
/// only after every check passed, in one piece: built between `?` exits, it was assembled in a
/// temporary and copied out of each `Result` layer, with stalls on every copy.
struct TwoPhase {
    checks: Vec<TokenStream>,
    value: TokenStream,
}

/// Decodes a typed value of `t` at `at`; `path` and `offset` (static, relative to the decoded
/// root) name a field in a `DecodeError`.
fn decode_value(model: &Model, t: &Ty, at: TokenStream, path: &str, offset: u64) -> TwoPhase {
    let mut checks = Vec::new();
    let value = decode_value_at(model, t, at, path, offset, 0, &mut checks);
    TwoPhase { checks, value }
}

/// An enum read from `raw` (a field's bits or bytes): its check, and the value once checked.
fn checked_enum(
    model: &Model,
    e: crate::model::EnumId,
    raw: TokenStream,
    path: &str,
    offset: u64,
    checks: &mut Vec<TokenStream>,
) -> TokenStream {
    let name = ident(&model.enums[e].rust);
    let off = lit(offset);
    checks.push(quote!(isa_core::check_enum!(#name, #raw, #path, #off);));
    quote!(#name::from_checked(#raw))
}

/// [`decode_value`] inside `depth` enclosing `from_fn` arrays (each dimension has its own index).
fn decode_value_at(
    model: &Model,
    t: &Ty,
    at: TokenStream,
    path: &str,
    offset: u64,
    depth: usize,
    checks: &mut Vec<TokenStream>,
) -> TokenStream {
    match t {
        Ty::Prim(p) => super::raw::read_prim(*p, at),
        Ty::Enum(e) => {
            let raw = super::raw::read_prim(model.enums[*e].repr, at);
            checked_enum(model, *e, raw, path, offset, checks)
        }
        Ty::Record(r) if !fallible(model, t) => {
            let name = ident(&model.records[*r].rust);
            quote!(#name::decode_at(b, #at))
        }
        Ty::Record(r) => {
            // The checks name each field by its whole path from the decoded root, so they are
            // spelled out here; the value, built once they passed, is the record's own decoder.
            let name = ident(&model.records[*r].rust);
            struct_field_decoders(model, *r, &at, path, offset, checks);
            quote!(#name::decode_checked_at(b, #at))
        }
        Ty::Array(inner, n) if fallible(model, inner) => {
            let size = model.size_of(inner);
            let elems = (0..*n).map(|k| {
                let sub = format!("{path}[{k}]");
                decode_value_at(
                    model,
                    inner,
                    plus(&at, k * size),
                    &sub,
                    offset + k * size,
                    depth,
                    checks,
                )
            });
            let elems: Vec<TokenStream> = elems.collect();
            quote!([#(#elems),*])
        }
        Ty::Array(inner, _) => match super::ty::int_elem(model, inner, false) {
            // Integer elements: one shared helper per width, not a closure per field.
            Some(p) => {
                let get = ident(&format!("get_{}s", p.rust()));
                quote!(isa_core::le::#get(b, #at))
            }
            None => {
                let kv = index_var(depth);
                let elem = decode_value_at(
                    model,
                    inner,
                    plus_elem_at(&at, model.size_of(inner), depth),
                    path,
                    offset,
                    depth + 1,
                    // Not fallible (fallible arrays are unrolled above): nothing to check.
                    &mut Vec::new(),
                );
                quote!(core::array::from_fn(|#kv| #elem))
            }
        },
    }
}

fn struct_field_decoders(
    model: &Model,
    r: RecordId,
    at: &TokenStream,
    path: &str,
    offset: u64,
    checks: &mut Vec<TokenStream>,
) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for (_, f) in typed_fields(model, r) {
        let fname = ident(&rust_field(&f.name));
        let sub = if path.is_empty() {
            f.name.clone()
        } else {
            format!("{path}.{}", f.name)
        };
        let fat = plus(at, f.offset);
        let value = match f.bits {
            Some(bits) => {
                let first = lit(bits.offset);
                let width = lit(bits.width);
                let end = plus(&fat, f.size);
                let raw = quote!(isa_core::le::extract_bits(isa_core::le::get_uint(&b[#fat..#end]), #first, #width));
                match &f.ty {
                    Ty::Enum(e) => {
                        let repr = super::ty::prim(model.enums[*e].repr);
                        let raw = quote!(#raw as #repr);
                        checked_enum(model, *e, raw, &sub, offset + f.offset, checks)
                    }
                    Ty::Prim(Prim::Bool) => quote!(#raw != 0),
                    Ty::Prim(p) => {
                        let t = super::ty::prim(*p);
                        if p.is_signed() {
                            let shift = lit(64 - bits.width);
                            quote!((((#raw << #shift) as i64) >> #shift) as #t)
                        } else {
                            quote!(#raw as #t)
                        }
                    }
                    _ => quote!(compile_error!("bit-field of unsupported type")),
                }
            }
            None => decode_value_at(
                model,
                &f.ty,
                fat.clone(),
                &sub,
                offset + f.offset,
                0,
                checks,
            ),
        };
        out.push(quote! { #fname: #value, });
    }
    out
}

/// Statements encoding typed value `v` of `t` at `at`.
pub fn encode_value(model: &Model, t: &Ty, at: TokenStream, v: TokenStream) -> TokenStream {
    encode_value_at(model, t, at, v, 0)
}

/// [`encode_value`] inside `depth` enclosing array loops (each dimension has its own index).
fn encode_value_at(
    model: &Model,
    t: &Ty,
    at: TokenStream,
    v: TokenStream,
    depth: usize,
) -> TokenStream {
    match t {
        Ty::Prim(p) => {
            let w = super::raw::write_prim(*p, at, v);
            quote!(#w;)
        }
        Ty::Enum(e) => {
            let repr = super::ty::prim(model.enums[*e].repr);
            let w = super::raw::write_prim(model.enums[*e].repr, at, quote!((#v) as #repr));
            quote!(#w;)
        }
        Ty::Record(_) => quote!((#v).encode_at(b, #at);),
        Ty::Array(inner, _) => match super::ty::int_elem(model, inner, false) {
            Some(p) => {
                let v_ref = super::borrow(&v);
                let put = ident(&format!("put_{}s", p.rust()));
                quote!(isa_core::le::#put(b, #at, #v_ref);)
            }
            None => {
                let (kv, item) = (index_var(depth), item_var(depth));
                let elem = encode_value_at(
                    model,
                    inner,
                    plus_elem_at(&at, model.size_of(inner), depth),
                    quote!(*#item),
                    depth + 1,
                );
                quote!(for (#kv, #item) in (#v).iter().enumerate() { #elem })
            }
        },
    }
}

/// Statements encoding every typed field of record `r` from `src` (an expression of the typed struct).
pub fn encode_fields(model: &Model, r: RecordId, src: TokenStream) -> Vec<TokenStream> {
    let rec = &model.records[r];
    let mut out = Vec::new();
    for (_, uoff, usize_, members) in bitfield_units(rec) {
        let uat = plus(&quote!(at), uoff);
        let uend = plus(&quote!(at), uoff + usize_);
        let inserts = members.iter().map(|m| {
            let bits = m.bits.expect("bit-field");
            let fname = ident(&rust_field(&m.name));
            let first = lit(bits.offset);
            let width = lit(bits.width);
            let value = match &m.ty {
                Ty::Enum(_) | Ty::Prim(Prim::Bool) => quote!(#src.#fname as u64),
                _ => quote!(#src.#fname as u64),
            };
            quote! { unit = isa_core::le::insert_bits(unit, #first, #width, #value); }
        });
        out.push(quote! {
            {
                let mut unit = 0u64;
                #(#inserts)*
                isa_core::le::put_uint(&mut b[#uat..#uend], unit);
            }
        });
    }
    for (_, f) in typed_fields(model, r) {
        if f.bits.is_some() {
            continue;
        }
        let fname = ident(&rust_field(&f.name));
        out.push(encode_value(
            model,
            &f.ty,
            plus(&quote!(at), f.offset),
            quote!(#src.#fname),
        ));
    }
    out
}

/// A typed struct for record `r` named `name`; `extra_doc` prepends text.
pub fn typed_struct(
    model: &Model,
    r: RecordId,
    name: &str,
    extra_doc: Option<&str>,
) -> TokenStream {
    let rec = &model.records[r];
    let id = ident(name);
    let derives = super::traits::struct_derives(model, r);
    let mut facts = String::new();
    if let Some(extra) = extra_doc {
        facts.push_str(extra);
        facts.push_str("\n\n");
    }
    facts.push_str(&format!(
        "Typed form of `{}` ({} bytes, declared at {}).",
        rec.c_name, rec.size, rec.loc
    ));
    if typed_fields(model, r).count() != rec.fields.len() {
        facts.push_str(" The opcode field is left out: the instruction type supplies it.");
    }
    let docs = doc::with_comment(rec.doc.as_deref(), &facts);
    let fields = typed_fields(model, r).map(|(_, f)| {
        let fname = ident(&rust_field(&f.name));
        let t = typed(model, &f.ty);
        let place = match f.bits {
            Some(b) => format!(
                "Bits {}..{} of bytes {}..{}",
                b.offset,
                b.offset + b.width,
                f.offset,
                f.offset + f.size
            ),
            None => format!("Bytes {}..{}", f.offset, f.offset + f.size),
        };
        let d = doc::field(f.doc.as_deref(), &format!("{place} (`{}`)", f.name));
        let attrs = super::traits::field_attrs(&f.ty, &f.name);
        quote! { #d #attrs pub #fname: #t, }
    });
    let size = lit(rec.size);
    let encodes = encode_fields(model, r, quote!(self));
    let decode = if fallible(model, &Ty::Record(r)) {
        let mut checks = Vec::new();
        let fields = struct_field_decoders(model, r, &quote!(at), "", 0, &mut checks);
        quote! {
            /// Checks that the bytes at `at` in `b` decode: the error names the first field holding no
            /// member of its enum (its path and offset relative to this record).
            #[allow(dead_code)]
            #[inline]
            pub(crate) fn check_at(b: &[u8], at: usize) -> Result<(), isa_core::DecodeError> {
                #(#checks)*
                Ok(())
            }
            /// Decodes from `b` at byte `at`, bytes that [`Self::check_at`] accepted.
            #[allow(dead_code)]
            #[inline]
            pub(crate) fn decode_checked_at(b: &[u8], at: usize) -> Self { Self { #(#fields)* } }
        }
    } else {
        let fields = struct_field_decoders(model, r, &quote!(at), "", 0, &mut Vec::new());
        quote! {
            #[allow(dead_code)]
            #[inline]
            pub(crate) fn decode_at(b: &[u8], at: usize) -> Self { Self { #(#fields)* } }
        }
    };
    let zeroed = if zero_decodable(model, &Ty::Record(r)) {
        let zero_fields = typed_fields(model, r).map(|(_, f)| {
            let fname = ident(&rust_field(&f.name));
            let v = zero_value(model, &f.ty);
            quote! { #fname: #v, }
        });
        quote! {
            /// The value an all-zero encoding decodes to.
            pub const ZEROED: Self = Self { #(#zero_fields)* };
        }
    } else {
        quote!()
    };
    let default = if zero_decodable(model, &Ty::Record(r)) {
        quote! { impl Default for #id { fn default() -> Self { Self::ZEROED } } }
    } else {
        quote!()
    };
    let equality = super::traits::bitwise_eq(model, r, name);
    let disasm = super::traits::struct_disasm(model, r, name);
    quote! {
        #docs
        #derives
        #[repr(C)]
        pub struct #id { #(#fields)* }
        impl #id {
            /// Encoded size in bytes.
            pub const SIZE: usize = #size;
            #zeroed
            #[allow(dead_code)]
            pub(crate) fn encode_at(&self, b: &mut [u8], at: usize) { #(#encodes)* }
            #decode
        }
        #default
        #equality
        #disasm
    }
}

/// Constant expression of the all-zero value of `t`.
pub fn zero_value(model: &Model, t: &Ty) -> TokenStream {
    match t {
        Ty::Prim(Prim::Bool) => quote!(false),
        Ty::Prim(Prim::F32) | Ty::Prim(Prim::F64) => quote!(0.0),
        Ty::Prim(_) => quote!(0),
        Ty::Enum(e) => {
            let en = &model.enums[*e];
            let name = ident(&en.rust);
            let v = ident(&en.by_value(0).expect("zero-decodable").rust);
            quote!(#name::#v)
        }
        Ty::Record(r) => {
            let name = ident(&model.records[*r].rust);
            quote!(#name::ZEROED)
        }
        Ty::Array(inner, n) => {
            let v = zero_value(model, inner);
            let n = lit(*n);
            quote!([#v; #n])
        }
    }
}

fn union_view(model: &Model, r: RecordId) -> TokenStream {
    let rec: &Record = &model.records[r];
    let id = ident(&rec.rust);
    let size = lit(rec.size);
    let docs = doc::with_comment(
        rec.doc.as_deref(),
        &format!(
            "Typed view of the C union `{}` ({} bytes, declared at {}): the bytes, read through one member at a time.",
            rec.c_name, rec.size, rec.loc
        ),
    );
    let mut accessors = Vec::new();
    for f in &rec.fields {
        let getter = ident(&rust_field(&f.name));
        let ctor = ident(&format!("from_{}", f.name));
        let t = typed(model, &f.ty);
        let d = doc::with_comment(
            f.doc.as_deref(),
            &format!("The union read as its `{}` member.", f.name),
        );
        let cd = format!(
            " A union holding `value` as its `{}` member (remaining bytes zero).",
            f.name
        );
        let enc = encode_value(model, &f.ty, quote!(0), quote!(value));
        let TwoPhase { checks, value } = decode_value(model, &f.ty, quote!(0), &f.name, 0);
        if fallible(model, &f.ty) {
            accessors.push(quote! {
                #d
                pub fn #getter(&self) -> Result<#t, isa_core::DecodeError> { let b = &self.bytes[..]; #(#checks)* Ok(#value) }
            });
        } else {
            accessors.push(quote! {
                #d
                pub fn #getter(&self) -> #t { let b = &self.bytes[..]; #value }
            });
        }
        accessors.push(quote! {
            #[doc = #cd]
            pub fn #ctor(value: #t) -> Self { let mut bytes = [0u8; #size]; { let b = &mut bytes[..]; #enc } Self { bytes } }
        });
    }
    let derives = super::traits::union_derives();
    let bytes_attrs = super::traits::array_attr();
    let disasm = super::traits::union_disasm(&rec.rust);
    quote! {
        #docs
        #derives
        pub struct #id {
            /// The union's bytes, little-endian.
            #bytes_attrs
            pub bytes: [u8; #size],
        }
        impl #id {
            /// Encoded size in bytes.
            pub const SIZE: usize = #size;
            /// The all-zero union.
            pub const ZEROED: Self = Self { bytes: [0u8; #size] };
            /// The union holding `bytes`.
            pub const fn from_bytes(bytes: [u8; #size]) -> Self { Self { bytes } }
            #(#accessors)*
            #[allow(dead_code)]
            pub(crate) fn encode_at(&self, b: &mut [u8], at: usize) { isa_core::le::put_bytes::<#size>(b, at, &self.bytes); }
            #[allow(dead_code)]
            #[inline]
            pub(crate) fn decode_at(b: &[u8], at: usize) -> Self { Self { bytes: isa_core::le::get_bytes::<#size>(b, at) } }
        }
        impl Default for #id {
            fn default() -> Self { Self::ZEROED }
        }
        #disasm
    }
}
