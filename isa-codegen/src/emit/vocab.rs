//! Conversions between a generation's enums and the shared vocabulary's (`isa_core::vocab`),
//! by member name: the generated enum and the vocabulary enum that mirror the same vendor C enum
//! convert into each other, infallibly where every member has a counterpart.

use super::ident;
use crate::model::{EnumId, Model};
use isa_core::vocab::VendorNames;
use proc_macro2::TokenStream;
use quote::quote;

/// Whether every member of the vocabulary enum `V` has a member of the same name in `enum_id`.
pub(crate) fn complete<V: VendorNames>(model: &Model, enum_id: EnumId) -> bool {
    let en = &model.enums[enum_id];
    V::MEMBERS
        .iter()
        .all(|v| en.distinct().any(|m| m.short == v.name()))
}

/// `From` (when [`complete`]) or `TryFrom` from `V` to the generated enum `enum_id`, and
/// `TryFrom` back; a member without a counterpart is an `isa_core::vocab::NoCounterpart` naming it.
pub(crate) fn conversions<V: VendorNames>(model: &Model, enum_id: EnumId) -> TokenStream {
    let en = &model.enums[enum_id];
    let et = ident(&en.rust);
    let vt = ident(V::TYPE_NAME);
    let vocab_name = V::TYPE_NAME;
    let gen = &model.generation;
    let c_name = &en.c_name;
    let missing = |member: &str, missing_in: &str| {
        quote! {
            isa_core::vocab::NoCounterpart {
                generation: #gen, vendor_enum: #c_name, member: #member, missing_in: #missing_in,
            }
        }
    };
    let to_vocab = en.distinct().map(|m| {
        let v = ident(&m.rust);
        match V::from_name(&m.short) {
            Some(w) => {
                let w = ident(w.rust_name());
                quote!(crate::#et::#v => Ok(isa_core::vocab::#vt::#w),)
            }
            None => {
                let err = missing(&m.short, vocab_name);
                quote!(crate::#et::#v => Err(#err),)
            }
        }
    });
    let counterpart = |w: &V| en.distinct().find(|m| m.short == w.name());
    let from_vocab = if complete::<V>(model, enum_id) {
        let arms = V::MEMBERS.iter().map(|w| {
            let v = ident(&counterpart(w).expect("complete").rust);
            let w = ident(w.rust_name());
            quote!(isa_core::vocab::#vt::#w => crate::#et::#v,)
        });
        quote! {
            impl From<isa_core::vocab::#vt> for crate::#et {
                /// The member of the same name.
                fn from(v: isa_core::vocab::#vt) -> Self { match v { #(#arms)* } }
            }
        }
    } else {
        let arms = V::MEMBERS.iter().map(|w| {
            let wi = ident(w.rust_name());
            match counterpart(w) {
                Some(m) => {
                    let v = ident(&m.rust);
                    quote!(isa_core::vocab::#vt::#wi => Ok(crate::#et::#v),)
                }
                None => {
                    let err = missing(w.name(), gen);
                    quote!(isa_core::vocab::#vt::#wi => Err(#err),)
                }
            }
        });
        quote! {
            impl TryFrom<isa_core::vocab::#vt> for crate::#et {
                type Error = isa_core::vocab::NoCounterpart;
                /// The member of the same name, when this generation has it.
                fn try_from(v: isa_core::vocab::#vt) -> Result<Self, Self::Error> { match v { #(#arms)* } }
            }
        }
    };
    quote! {
        #from_vocab
        impl TryFrom<crate::#et> for isa_core::vocab::#vt {
            type Error = isa_core::vocab::NoCounterpart;
            /// The vocabulary's member of the same name.
            fn try_from(v: crate::#et) -> Result<Self, Self::Error> { match v { #(#to_vocab)* } }
        }
    }
}
