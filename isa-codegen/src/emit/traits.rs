//! The trait derives and impls of the typed layer, emitted beside the types the other emitters
//! write:
//!
//! * `Eq` and `Hash` everywhere: derived, or, for a record holding a float (which cannot derive
//!   them), written to compare and hash the float fields by their bits — two values are equal
//!   exactly when they encode to the same bytes;
//! * the one-line disassembly (`Display` on the typed instructions and `Instruction`), through
//!   `isa_core::disasm` (the format is documented there);
//! * the slice and stream codecs (`encode_into`, `from_slice`/`decode_slice`, `TryFrom<&[u8]>`,
//!   `Instruction::iter_words`) over `isa_core`'s word helpers;
//! * the optional `serde` feature: derives through `isa_core::serde`, enums by vendor member
//!   name, arrays through `isa_core::serde_support::array`, `Instruction` externally tagged by
//!   the vendor opcode name (`{"RAND_SET_STATE": {...}}`, which needs no allocation to
//!   deserialize, unlike internal tagging).

use super::ident;
use super::ty::{has_float, typed_fields};
use crate::model::names::rust_field;
use crate::model::shown;
use crate::model::Prim;
use crate::model::{Model, RecordId, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The serde derive of a generated type, behind the crate's `serde` feature.
fn serde_derive(extra: TokenStream) -> TokenStream {
    quote! {
        #[cfg_attr(
            feature = "serde",
            derive(isa_core::serde::Serialize, isa_core::serde::Deserialize),
            serde(crate = "isa_core::serde" #extra)
        )]
    }
}

/// Derives (and the equality note) of the typed struct of record `r`.
pub fn struct_derives(model: &Model, r: RecordId) -> TokenStream {
    let serde = serde_derive(quote!(, deny_unknown_fields));
    if holds_float(model, r) {
        quote! {
            ///
            /// Compared and hashed by bits: two values are equal exactly when they encode to the same
            /// bytes (a NaN equals itself, `0.0` differs from `-0.0`).
            #[derive(Clone, Copy, Debug)]
            #serde
        }
    } else {
        quote! {
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            #serde
        }
    }
}

/// Derives of a union view (its bytes compare and hash as they are).
pub fn union_derives() -> TokenStream {
    let serde = serde_derive(quote!(, deny_unknown_fields));
    quote! {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #serde
    }
}

/// Derives of a typed instruction (a newtype over its operand struct).
pub fn instruction_derives() -> TokenStream {
    let serde = serde_derive(quote!(, transparent));
    quote! {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #serde
    }
}

/// `a && b && ...`, `true` for none.
fn all(parts: Vec<TokenStream>) -> TokenStream {
    if parts.is_empty() {
        quote!(true)
    } else {
        quote!(#(#parts)&&*)
    }
}

fn holds_float(model: &Model, r: RecordId) -> bool {
    typed_fields(model, r).any(|(_, f)| has_float(model, &f.ty))
}

/// Field attributes: the vendor name as the serde key (for a field renamed off a Rust keyword),
/// and arrays (of any length) through the isa-core helper.
pub fn field_attrs(ty: &Ty, c_name: &str) -> TokenStream {
    let rename = if rust_field(c_name) != c_name {
        quote!(#[cfg_attr(feature = "serde", serde(rename = #c_name))])
    } else {
        quote!()
    };
    let with = if matches!(ty, Ty::Array(..)) {
        array_attr()
    } else {
        quote!()
    };
    quote!(#rename #with)
}

/// An array field serialized through the isa-core helper (serde's own stop at 32 elements).
pub fn array_attr() -> TokenStream {
    quote!(#[cfg_attr(feature = "serde", serde(with = "isa_core::serde_support::array"))])
}

/// `e` (a value of `t`) as something with derived `Eq`/`Hash`: floats by their bits.
fn by_bits(model: &Model, t: &Ty, e: TokenStream) -> TokenStream {
    match t {
        Ty::Prim(Prim::F32 | Prim::F64) => quote!(#e.to_bits()),
        Ty::Array(inner, _) if has_float(model, inner) => {
            let inner = by_bits(model, inner, quote!(x));
            quote!(#e.map(|x| #inner))
        }
        // Records holding floats compare by bits themselves.
        _ => e,
    }
}

/// Bitwise `PartialEq`/`Eq`/`Hash` of a record holding a float; nothing for the others.
pub fn bitwise_eq(model: &Model, r: RecordId, name: &str) -> TokenStream {
    if !holds_float(model, r) {
        return quote!();
    }
    let id = ident(name);
    let fields: Vec<(Ident, &Ty)> = typed_fields(model, r)
        .map(|(_, f)| (ident(&rust_field(&f.name)), &f.ty))
        .collect();
    let eqs = all(fields
        .iter()
        .map(|(f, t)| {
            let a = by_bits(model, t, quote!(self.#f));
            let b = by_bits(model, t, quote!(other.#f));
            quote!(#a == #b)
        })
        .collect());
    let hashes = fields.iter().map(|(f, t)| {
        let a = by_bits(model, t, quote!(self.#f));
        quote!(core::hash::Hash::hash(&#a, state);)
    });
    quote! {
        impl PartialEq for #id {
            fn eq(&self, other: &Self) -> bool { #eqs }
        }
        impl Eq for #id {}
        impl core::hash::Hash for #id {
            fn hash<H: core::hash::Hasher>(&self, state: &mut H) { #(#hashes)* }
        }
    }
}

/// The disassembly of the typed struct of record `r`: one `isa_core::record_disasm!` invocation
/// listing its fields (the macro writes its `DisasmFields` and `Disasm` impls).
pub fn struct_disasm(model: &Model, r: RecordId, name: &str) -> TokenStream {
    let id = ident(name);
    let fields = typed_fields(model, r).map(|(_, f)| {
        let rust = rust_field(&f.name);
        let field = ident(&rust);
        if rust == f.name {
            quote!(#field)
        } else {
            let vendor = &f.name;
            quote!(#field = #vendor)
        }
    });
    quote! { isa_core::record_disasm!(#id { #(#fields),* }); }
}

/// The disassembly of a union view (`model::shown`): an fp32 immediate as its float, any other
/// union as its bytes read as one little-endian hexadecimal number; the address union is shown
/// even when zero (a start address of 0 is an address, not an unused field).
pub fn union_disasm(model: &Model, r: RecordId) -> TokenStream {
    let id = ident(&model.records[r].rust);
    let write = match shown::of_union(model, r) {
        shown::Shown::Fp32 if model.records[r].size == 4 => {
            quote!(isa_core::disasm::le_fp32(out, &self.bytes))
        }
        _ => quote!(isa_core::disasm::le_hex(out, &self.bytes)),
    };
    let always = if shown::is_address_union(model, r) {
        quote!(
            const ALWAYS_SHOWN: bool = true;
        )
    } else {
        quote!()
    };
    quote! {
        impl isa_core::disasm::Disasm for #id {
            #always
            fn is_zero(&self) -> bool { self.bytes.iter().all(|b| *b == 0) }
            fn disasm(&self, out: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                #write
            }
        }
    }
}

/// Serde impls of a typed enum (or `Opcode`): by vendor member name.
pub fn enum_serde(name: &Ident) -> TokenStream {
    quote! {
        #[cfg(feature = "serde")]
        impl isa_core::serde::Serialize for #name {
            fn serialize<S: isa_core::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                isa_core::serde_support::serialize_enum(self, s)
            }
        }
        #[cfg(feature = "serde")]
        impl<'de> isa_core::serde::Deserialize<'de> for #name {
            fn deserialize<D: isa_core::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                isa_core::serde_support::deserialize_enum(d)
            }
        }
    }
}

/// Attributes of a variant of `Instruction`: serialized under the vendor opcode name.
pub fn instruction_variant_attrs(short: &str) -> TokenStream {
    quote!(#[cfg_attr(feature = "serde", serde(rename = #short))])
}

/// Derives of `Instruction`.
pub fn instruction_enum_derives() -> TokenStream {
    let serde = serde_derive(quote!());
    quote! {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #serde
    }
}

/// `Display`, the slice and stream codecs and `TryFrom<&[u8]>` of `Instruction`.
pub fn instruction_enum_impls(variants: &[(Ident, TokenStream)]) -> TokenStream {
    // Each arm is compiled with its variant (the shape's feature); the last arm covers an enum
    // whose every shape is compiled out.
    let shows = variants
        .iter()
        .map(|(v, cfg)| quote!(#cfg Self::#v(i) => core::fmt::Display::fmt(i, f),));
    quote! {
        impl Instruction {
            /// Writes the 64 bytes into the start of `out` (the rest is left as it is); a shorter
            /// `out` is an error naming both sizes, and nothing is written.
            pub fn encode_into(&self, out: &mut [u8]) -> Result<(), isa_core::EncodeError> {
                isa_core::write_word(out, &self.to_bytes())
            }
            /// Decodes `bytes`, which must be exactly one 64-byte word: another length is a
            /// `WrongLength` error naming it; otherwise as [`Self::decode`].
            pub fn decode_slice(bytes: &[u8]) -> Result<Self, isa_core::DecodeError> {
                Self::decode(isa_core::word(bytes)?)
            }
            /// Decodes a byte stream word by word: `(byte offset, instruction)` per word, an `Err`
            /// item for a word that does not decode (the stream goes on), and a last `WrongLength`
            /// item naming the length of a trailing partial word.
            pub fn iter_words(bytes: &[u8]) -> isa_core::DecodeWords<'_, Self> {
                isa_core::DecodeWords::new(bytes, Self::decode)
            }
        }
        impl TryFrom<&[u8]> for Instruction {
            type Error = isa_core::DecodeError;
            fn try_from(bytes: &[u8]) -> Result<Self, Self::Error> { Self::decode_slice(bytes) }
        }
        impl core::fmt::Display for Instruction {
            /// The one-line disassembly of the instruction ([`isa_core::disasm`]).
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                #[allow(unreachable_patterns)]
                match self {
                    #(#shows)*
                    // Reached only by an enum whose every shape is compiled out: uninhabited.
                    _ => { let _ = f; Ok(()) }
                }
            }
        }
        impl core::str::FromStr for Instruction {
            type Err = isa_core::asm::AsmError;
            /// Reads the one-line disassembly back ([`isa_core::asm`]).
            fn from_str(line: &str) -> Result<Self, isa_core::asm::AsmError> {
                isa_core::asm::parse_with(line, crate::GENERATION.name, crate::inst::fields_of, Self::decode)
            }
        }
    }
}
