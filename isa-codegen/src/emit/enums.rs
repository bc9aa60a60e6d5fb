//! Typed enums (one Rust enum per C enum), the `Opcode` enum, and constants.

use super::ty::prim;
use super::{banner, doc, hex, ident, lit, Source};
use crate::model::{Enum, Model, Opcode, Status};
use proc_macro2::TokenStream;
use quote::quote;

fn value_lit(e: &Enum, v: i128) -> TokenStream {
    if e.c_name == crate::vendor::OPCODE_ENUM {
        hex(v, 2)
    } else {
        lit(v)
    }
}

/// The associated constant an alias member of a typed enum becomes (`Self::N16X16`).
pub(crate) fn alias_const_name(m: &crate::model::Member) -> String {
    let upper = m.short.to_ascii_uppercase();
    if upper.starts_with(|c: char| c.is_ascii_digit()) {
        format!("N{upper}")
    } else {
        upper
    }
}

/// One C enum as a Rust enum with `TryFrom` its integer type.
pub fn typed_enum(e: &Enum) -> TokenStream {
    let name = ident(&e.rust);
    let c_name = &e.c_name;
    let repr = prim(e.repr);
    let variants = e.distinct().map(|m| {
        let v = ident(&m.rust);
        let val = value_lit(e, m.value);
        let d = doc::with_comment(
            m.comment.as_deref(),
            &format!("`{}` = {}.", m.c_name, m.value),
        );
        quote! { #d #v = #val, }
    });
    let all = e.distinct().map(|m| ident(&m.rust));
    let names = e.distinct().map(|m| {
        let v = ident(&m.rust);
        let s = &m.short;
        quote! { Self::#v => #s, }
    });
    let from = e.distinct().map(|m| {
        let v = ident(&m.rust);
        let val = value_lit(e, m.value);
        quote! { #val => Some(Self::#v), }
    });
    let aliases = e.members.iter().filter_map(|m| {
        let target = &e.members[m.alias_of?];
        let a = ident(&alias_const_name(m));
        let t = ident(&target.rust);
        let d = format!(
            " `{}` = {}: the same value as `{}`.",
            m.c_name, m.value, target.c_name
        );
        Some(quote! { #[doc = #d] pub const #a: Self = Self::#t; })
    });
    // `from_checked`'s value for what the decoders never pass (a C enum has at least one member).
    let first = e.distinct().next().map(|m| ident(&m.rust));
    let default = e.by_value(0).map(|m| {
        let v = ident(&m.rust);
        quote! {
            impl Default for #name {
                /// The member with value 0 (what an all-zero word holds).
                fn default() -> Self { Self::#v }
            }
        }
    });
    let docs = doc::with_comment(
        e.doc.as_deref(),
        &format!(
            "C enum `{c_name}` ({} members), declared at {}.",
            e.members.len(),
            e.loc
        ),
    );
    let by_name = e.members.iter().map(|m| {
        let s = &m.short;
        let v = ident(&e.members[m.alias_of.unwrap_or(0)].rust);
        let v = if m.alias_of.is_some() {
            v
        } else {
            ident(&m.rust)
        };
        quote! { #s => Some(Self::#v), }
    });
    let serde = super::traits::enum_serde(&name);
    quote! {
        #docs
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(#repr)]
        pub enum #name { #(#variants)* }
        impl #name {
            /// Vendor name of the C enum.
            pub const C_NAME: &'static str = #c_name;
            /// Every member, in header order (aliases excluded).
            pub const ALL: &'static [Self] = &[#(Self::#all),*];
            #(#aliases)*
            /// The member's vendor name without the enum prefix (`"XORWOW"`).
            pub const fn vendor_name(self) -> &'static str { match self { #(#names)* } }
            /// The member's value.
            pub const fn value(self) -> #repr { self as #repr }
            /// The member with this value, if any.
            #[inline]
            pub const fn from_value(value: #repr) -> Option<Self> { match value { #(#from)* _ => None } }
            /// The member with this vendor name (without prefix), if any.
            pub fn from_vendor_name(name: &str) -> Option<Self> { match name { #(#by_name)* _ => None } }
            /// The vendor name of the member with this value, if any (for tables of raw values).
            pub fn vendor_name_of(value: u64) -> Option<&'static str> {
                <#repr>::try_from(value).ok().and_then(Self::from_value).map(Self::vendor_name)
            }
        }
        #default
        impl TryFrom<#repr> for #name {
            type Error = isa_core::InvalidEnumValue;
            #[inline]
            fn try_from(value: #repr) -> Result<Self, Self::Error> {
                Self::from_value(value).ok_or(isa_core::InvalidEnumValue { enum_name: #c_name, value: value as u64 })
            }
        }
        impl #name {
            /// Decodes the value of field `field` at byte `offset` (the decoders' one error path).
            #[allow(dead_code)]
            #[inline]
            pub(crate) fn decode_field(value: #repr, field: &'static str, offset: usize) -> Result<Self, isa_core::DecodeError> {
                Self::try_from(value).map_err(|e| e.at(field, offset))
            }
            /// The member with `value`, which `decode_field` has accepted (the decoders check every
            /// field before building; any other value would give the first member).
            #[allow(dead_code)]
            #[inline]
            pub(crate) const fn from_checked(value: #repr) -> Self {
                match Self::from_value(value) { Some(member) => member, None => Self::#first }
            }
        }
        impl From<#name> for #repr {
            fn from(v: #name) -> #repr { v as #repr }
        }
        impl core::fmt::Display for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result { f.write_str(self.vendor_name()) }
        }
        #serde
        impl isa_core::VendorEnum for #name {
            const C_NAME: &'static str = #c_name;
            fn all() -> &'static [Self] { Self::ALL }
            fn vendor_name(self) -> &'static str { #name::vendor_name(self) }
            fn from_vendor_name(name: &str) -> Option<Self> { #name::from_vendor_name(name) }
            fn value_u64(self) -> u64 { self as u64 }
        }
    }
}

/// The `Opcode` enum of the generation.
pub fn emit_opcode(model: &Model) -> Source {
    let e = &model.enums[model.opcode_enum];
    let name = ident(&e.rust);
    let variants = model.opcodes.iter().map(|o| opcode_variant(model, o));
    let all = model.opcodes.iter().map(|o| ident(&o.rust));
    let names = model.opcodes.iter().map(|o| {
        let v = ident(&o.rust);
        let s = &o.short;
        quote! { Self::#v => #s, }
    });
    let statuses = model
        .opcodes
        .iter()
        .filter(|o| o.status != Status::Unflagged)
        .map(|o| {
            let v = ident(&o.rust);
            match &o.status {
                Status::Maintained => quote! { Self::#v => isa_core::OpcodeStatus::Maintained, },
                Status::Dormant(r) => {
                    quote! { Self::#v => isa_core::OpcodeStatus::Dormant { reason: #r }, }
                }
                Status::Unflagged => unreachable!("filtered"),
            }
        });
    let pseudo: Vec<_> = model
        .opcodes
        .iter()
        .filter(|o| o.pseudo)
        .map(|o| ident(&o.rust))
        .collect();
    let pseudo_body = if pseudo.is_empty() {
        quote!(false)
    } else {
        quote!(matches!(self, #(Self::#pseudo)|*))
    };
    let structs = model.opcodes.iter().filter_map(|o| {
        let s = o.shape?;
        let v = ident(&o.rust);
        let c = &model.records[model.shapes[s].record].c_name;
        Some(quote! { Self::#v => Some(#c), })
    });
    let from = model.opcodes.iter().map(|o| {
        let v = ident(&o.rust);
        let val = hex(i128::from(o.value), 2);
        quote! { #val => Some(Self::#v), }
    });
    let by_name = model.opcodes.iter().map(|o| {
        let v = ident(&o.rust);
        let s = &o.short;
        quote! { #s => Some(Self::#v), }
    });
    let count = lit(model.opcodes.len() as i128);
    let docs = doc::with_comment(
        e.doc.as_deref(),
        &format!(
            "Every opcode of {} (`{}`, {} enumerators, declared at {}). An opcode absent from this generation has no variant.",
            model.generation,
            e.c_name,
            model.opcodes.len(),
            e.loc
        ),
    );
    let serde = super::traits::enum_serde(&name);
    let placement = placement_fns(model);
    let impls = opcode_trait_impls(&name, &e.c_name, serde);
    let tokens = quote! {
        #docs
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum #name { #(#variants)* }
        impl #name {
            /// Number of opcodes.
            pub const COUNT: usize = #count;
            /// Every opcode, in header order.
            pub const ALL: &'static [Self; #count] = &[#(Self::#all),*];
            /// The opcode byte.
            pub const fn value(self) -> u8 { self as u8 }
            /// Vendor name without the `NEURON_ISA_TPB_OPCODE_` prefix (`"RAND_SET_STATE"`).
            pub const fn name(self) -> &'static str { match self { #(#names)* } }
            /// Maintenance flag from the header comment.
            pub const fn status(self) -> isa_core::OpcodeStatus {
                #[allow(unreachable_patterns)]
                match self { #(#statuses)* _ => isa_core::OpcodeStatus::Unflagged }
            }
            /// True for a pseudo opcode (compiler-generated, lowered into real instructions by the runtime).
            pub const fn is_pseudo(self) -> bool { #pseudo_body }
            /// The operand struct instruction_mapping.json binds it to, by vendor name.
            pub const fn operand_struct(self) -> Option<&'static str> {
                #[allow(unreachable_patterns)]
                match self { #(#structs)* _ => None }
            }
            /// The opcode with this byte, if the generation has one.
            #[inline]
            pub const fn from_value(value: u8) -> Option<Self> { match value { #(#from)* _ => None } }
            /// The opcode with this vendor name (without prefix), if any.
            pub fn from_name(name: &str) -> Option<Self> { match name { #(#by_name)* _ => None } }
            /// The vendor name of the opcode with this byte, if any (for tables of raw values).
            pub fn vendor_name_of(value: u64) -> Option<&'static str> {
                u8::try_from(value).ok().and_then(Self::from_value).map(Self::name)
            }
            #placement
        }
        #impls
    };
    Source::items(&banner(model, "the opcode enum."), tokens)
}

/// The variant of opcode `o`, documented with its value, maintenance flag and operand struct.
fn opcode_variant(model: &Model, o: &Opcode) -> TokenStream {
    let v = ident(&o.rust);
    let val = hex(i128::from(o.value), 2);
    let status = match &o.status {
        Status::Maintained => "maintained (`// Y`)".to_string(),
        Status::Dormant(r) if r.is_empty() => "dormant (`// n`)".to_string(),
        Status::Dormant(r) => format!("dormant (`// n`: {})", doc::doc_text(r)),
        Status::Unflagged => "no maintenance flag".to_string(),
    };
    let binding = match o.shape {
        Some(s) => format!(
            "operand struct `{}`",
            model.records[model.shapes[s].record].c_name
        ),
        None => "no operand struct in instruction_mapping.json".to_string(),
    };
    let d = format!(
        " `{}` = {:#04x}{}: {status}; {binding}. Declared at {}.",
        o.c_name,
        o.value,
        if o.pseudo {
            ", pseudo (lowered by the runtime)"
        } else {
            ""
        },
        o.loc
    );
    quote! { #[doc = #d] #v = #val, }
}

/// The trait impls of the `Opcode` enum `name` (conversions, `Display`, `VendorEnum`, serde
/// through `serde`, `OpcodeInfo`).
fn opcode_trait_impls(name: &proc_macro2::Ident, c_name: &str, serde: TokenStream) -> TokenStream {
    quote! {
        impl TryFrom<u8> for #name {
            type Error = isa_core::InvalidEnumValue;
            fn try_from(value: u8) -> Result<Self, Self::Error> {
                Self::from_value(value).ok_or(isa_core::InvalidEnumValue { enum_name: #c_name, value: value as u64 })
            }
    }
    impl From<#name> for u8 {
        fn from(op: #name) -> u8 { op as u8 }
    }
    impl core::fmt::Display for #name {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result { f.write_str(self.name()) }
    }
    impl isa_core::VendorEnum for #name {
        const C_NAME: &'static str = #c_name;
        fn all() -> &'static [Self] { Self::ALL }
        fn vendor_name(self) -> &'static str { self.name() }
        fn from_vendor_name(name: &str) -> Option<Self> { Self::from_name(name) }
        fn value_u64(self) -> u64 { self as u64 }
    }
    #serde
    impl isa_core::OpcodeInfo for #name {
        fn byte(self) -> u8 { self as u8 }
        fn status(self) -> isa_core::OpcodeStatus { #name::status(self) }
        fn is_pseudo(self) -> bool { #name::is_pseudo(self) }
        fn operand_struct(self) -> Option<&'static str> { #name::operand_struct(self) }
    }
    }
}

/// `Opcode::engines` and `Opcode::runs_on`, from the tree's engine placement
/// (`neuron_isa_check_opcode_on_engine`); nothing for a tree without one.
fn placement_fns(model: &Model) -> TokenStream {
    let (Some(p), Some(engine)) = (&model.placement, model.engine_enum) else {
        return quote!();
    };
    let e = &model.enums[engine];
    let et = ident(&e.rust);
    let arms = model.opcode_entries().filter_map(|(k, o)| {
        let engines = p.engines.get(k).filter(|e| !e.is_empty())?;
        let v = ident(&o.rust);
        let members = engines.iter().map(|m| ident(&e.members[*m].rust));
        Some(quote! { Self::#v => &[#(crate::#et::#members),*], })
    });
    let doc = format!(
        " The engines that run this opcode, in engine order, as the tree's engine placement says (`{}`, {}). Empty for an opcode the placement puts on no engine: the tree does not place it, and `validate` does not check its engine.\n\n# Evidence\n\nHow each placement is known, from the note of the line that places it ([`Self::placement_evidence`]; `headers/PROVENANCE.md` defines the levels and the numbered entries; a line without an entry is documented, `observed`):\n\n{}",
        crate::vendor::PLACEMENT_FN,
        p.loc,
        evidence_table(model, p, e)
    );
    let et_ref = &et;
    let evidence_arms = model.opcode_entries().flat_map(|(k, o)| {
        let v = ident(&o.rust);
        let et = et_ref;
        let engines = p.engines.get(k).cloned().unwrap_or_default();
        engines.into_iter().filter_map(move |m| {
            let basis = p.evidence_of(k, m)?;
            let member = ident(&e.members[m].rust);
            let level = ident(isa_core::vocab::Vocabulary::rust_name(basis.evidence));
            let refs = basis.references.iter().map(|r| match r {
                isa_core::Reference::Assumption(n) => quote!(isa_core::Reference::Assumption(#n)),
                isa_core::Reference::Conflict(n) => quote!(isa_core::Reference::Conflict(#n)),
            });
            Some(quote! {
                (Self::#v, crate::#et::#member) => Some(isa_core::Basis { evidence: isa_core::Evidence::#level, references: &[#(#refs),*] }),
            })
        })
    });
    quote! {
        #[doc = #doc]
        #[inline]
        pub const fn engines(self) -> &'static [crate::#et] {
            #[allow(unreachable_patterns)]
            match self { #(#arms)* _ => &[] }
        }
        /// How the placement of this opcode on `engine` is known: the evidence level and the
        /// `headers/PROVENANCE.md` entries of the placing line's note (see [`Self::engines`]);
        /// `None` when the placement does not put it on `engine`.
        pub const fn placement_evidence(self, engine: crate::#et) -> Option<isa_core::Basis> {
            #[allow(unreachable_patterns)]
            match (self, engine) { #(#evidence_arms)* _ => None }
        }
        /// Whether `engine` runs this opcode: `Some(true)` or `Some(false)` for an opcode the
        /// placement puts on some engine, `None` for one it does not place (see [`Self::engines`]).
        #[inline]
        pub fn runs_on(self, engine: crate::#et) -> Option<bool> {
            let engines = self.engines();
            (!engines.is_empty()).then(|| engines.contains(&engine))
        }
    }
}

/// The rustdoc table of the placements' evidence: opcode, engine, level with its entries, line.
fn evidence_table(
    model: &Model,
    p: &crate::model::placement::Placement,
    e: &crate::model::Enum,
) -> String {
    let mut t = String::from("| opcode | engine | evidence | placed at |\n|---|---|---|---|\n");
    for (k, o) in model.opcode_entries() {
        for &m in p.engines.get(k).map_or(&[][..], Vec::as_slice) {
            let Some(basis) = p.evidence_of(k, m) else {
                continue;
            };
            let refs: Vec<String> = basis.references.iter().map(ToString::to_string).collect();
            let evidence = match refs.is_empty() {
                true => basis.evidence.to_string(),
                false => format!("{} ({})", basis.evidence, refs.join(", ")),
            };
            t.push_str(&format!(
                "| `{}` | `{}` | {evidence} | {} |\n",
                o.short, e.members[m].short, basis.loc
            ));
        }
    }
    t
}

/// The constants under their short names.
pub fn emit_consts(model: &Model) -> Source {
    let items = model.constants.iter().map(|c| {
        let name = ident(&c.short);
        let allow = super::allow_vendor_const_case(&c.short);
        let t = prim(c.ty);
        let v = lit(c.value);
        let d = doc::with_comment(
            c.doc.as_deref(),
            &format!("`{}`, declared at {}.", c.c_name, c.loc),
        );
        quote! { #d #allow pub const #name: #t = #v; }
    });
    Source::items(&banner(model, "the header constants."), quote!(#(#items)*))
}
