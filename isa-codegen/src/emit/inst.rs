//! The `inst` module: per operand struct its typed field set (`S1Rand`), per
//! mapped opcode a typed instruction (`RandSetState`), and `Instruction`, which
//! decodes any 64-byte word by its opcode byte.

use super::records::typed_struct;
use super::{banner, doc, ident, lit, Source};
use crate::model::{IdVec, OpcodeId, ShapeId};
use crate::model::{Model, Opcode, RecordId, Shape, Status, Ty};
use crate::model::{Prim, RecordKind};
use proc_macro2::TokenStream;
use quote::quote;

/// Name of the `FIELDS` constant of a shape.
fn fields_const(shape: &Shape) -> proc_macro2::Ident {
    ident(&format!("{}_FIELDS", shape.code))
}

pub fn emit(
    model: &Model,
    firmware: &dyn Fn(&crate::model::legality::Table, usize) -> isa_core::Firmware,
) -> Source {
    let names = &model.instruction_names;
    let mut items = Vec::new();
    // The kinds the `FIELDS` tables name, once each, compiled with the shapes that use them.
    let mut kinds: Vec<(String, TokenStream, Vec<ShapeId>)> = Vec::new();
    for (k, shape) in model.shape_entries() {
        let mut leaf_types = Vec::new();
        leaf_kinds(model, &Ty::Record(shape.record), &mut leaf_types);
        for t in leaf_types {
            if let Some((name, value)) = kind_const(model, &t) {
                match kinds.iter_mut().find(|(n, ..)| *n == name) {
                    Some((_, _, users)) if !users.contains(&k) => users.push(k),
                    Some(_) => {}
                    None => kinds.push((name, value, vec![k])),
                }
            }
        }
    }
    items.push(quote! {
        #[allow(unused_imports)]
        use isa_core::{FieldInfo as F, FieldKind as K};
    });
    for (name, value, users) in &kinds {
        let cfg = super::cfg_for_users(model, users);
        let id = ident(name);
        items.push(quote! { #cfg const #id: K = #value; });
    }
    for (k, shape) in model.shape_entries() {
        let cfg = super::cfg_for_shape(model, k);
        items.push(super::with_cfg(&cfg, shape_items(model, shape)));
    }
    // Each example may search for a valid instance with the evaluator: most of this file's time
    // on a vendor tree, and independent per opcode.
    let typed: Vec<(OpcodeId, &str)> = names
        .entries()
        .filter(|(k, _)| model.opcodes[*k].shape.is_some())
        .filter_map(|(k, name)| Some((k, name.as_deref()?)))
        .collect();
    let mut examples = crate::parallel_map(&typed, |&(k, name)| {
        super::examples::instruction_example(model, k, name)
    })
    .into_iter();
    for (k, o) in model.opcode_entries() {
        if let (Some(name), Some(s)) = (&names[k], o.shape) {
            let cfg = super::cfg_for_shape(model, s);
            let example = examples.next().unwrap_or_default();
            let item = instruction(model, k, o, name, &model.shapes[s], firmware, &example);
            items.push(super::with_cfg(&cfg, item));
        }
    }
    items.push(instruction_enum(model, names));
    Source::items(
        &banner(model, "operand structs and typed instructions."),
        quote!(#(#items)*),
    )
}

fn shape_items(model: &Model, shape: &Shape) -> TokenStream {
    let rec = &model.records[shape.record];
    let users: Vec<String> = shape
        .opcodes
        .iter()
        .map(|&k| {
            format!(
                "`{}` ({:#04x})",
                model.opcodes[k].short, model.opcodes[k].value
            )
        })
        .collect();
    let extra = format!(
        "Operand fields of the {} format, used by {} (instruction_mapping.json, line {}).",
        shape.code,
        users.join(", "),
        shape.loc.line
    );
    let strukt = typed_struct(model, shape.record, &shape.rust, Some(&extra));
    let id = ident(&shape.rust);
    let mut leaves = Vec::new();
    field_infos(model, &Ty::Record(shape.record), 0, "", &mut leaves);
    let fc = fields_const(shape);
    let fc_doc = format!(
        " Every leaf field of `{}`, in byte order, for tools.",
        rec.c_name
    );
    let padding = padding_checks(model, shape.record);
    // Only a shape with padding bytes gets a check (`instruction_impls!` calls it when named).
    let padding_check = if padding.is_empty() {
        quote!()
    } else {
        quote! {
            impl #id {
                /// Rejects a word whose padding bytes (covered by no field) are not zero.
                #[inline]
                pub(crate) fn check_padding(b: &[u8; 64]) -> Result<(), isa_core::DecodeError> {
                    #(#padding)*
                    Ok(())
                }
            }
        }
    };
    quote! {
        #strukt
        #[doc = #fc_doc]
        pub const #fc: &[F] = &[#(#leaves),*];
        #padding_check
        const _: () = assert!(#id::SIZE == 64);
    }
}

/// The `FieldKind` constant of an enum or union (`KIND_WAIT_MODE`), shared by every `FIELDS`.
fn kind_const(model: &Model, t: &Ty) -> Option<(String, TokenStream)> {
    match t {
        Ty::Enum(e) => {
            let en = &model.enums[*e];
            let (name, id) = (&en.c_name, ident(&en.rust));
            Some((
                format!("KIND_{}", crate::model::names::short(name)),
                quote!(isa_core::FieldKind::Enum {
                    name: #name,
                    member: #id::vendor_name_of,
                    value_of: isa_core::asm::member_value::<#id>,
                    member_at: isa_core::asm::member_at::<#id>,
                }),
            ))
        }
        Ty::Record(r) => {
            let name = &model.records[*r].c_name;
            // An anonymous record's name ends in its field's spelling (`..._STRUCT_anon1`).
            Some((
                format!(
                    "KIND_{}",
                    crate::model::names::short(name).to_ascii_uppercase()
                ),
                {
                    let shown = super::shown_tokens(crate::model::shown::of_union(model, *r));
                    quote!(isa_core::FieldKind::Union { name: #name, shown: #shown })
                },
            ))
        }
        _ => None,
    }
}

/// `isa_core::FieldInfo` entries (one line each) for every leaf under `t` at `offset`.
fn field_infos(model: &Model, t: &Ty, offset: u64, path: &str, out: &mut Vec<TokenStream>) {
    let info = |path: &str, offset: u64, size: u64, bits: Option<(u32, u32)>, kind: TokenStream| {
        let off = lit(offset);
        let size = lit(size);
        let at = quote!(F::at(#path, #off, #size, #kind));
        match bits {
            Some((a, b)) => {
                let (a, b) = (lit(a), lit(b));
                quote!(#at.bits(#a, #b))
            }
            None => at,
        }
    };
    let kind_of = |t: &Ty| -> TokenStream {
        match t {
            Ty::Prim(Prim::F32 | Prim::F64) => quote!(K::Float),
            Ty::Prim(p) if p.is_signed() => quote!(K::Signed),
            Ty::Prim(_) => quote!(K::Unsigned),
            Ty::Array(..) => quote!(K::Bytes),
            other => {
                let (name, _) = kind_const(model, other).expect("an enum or union");
                let id = ident(&name);
                quote!(#id)
            }
        }
    };
    match t {
        Ty::Record(r) if model.records[*r].kind == RecordKind::Struct => {
            for f in &model.records[*r].fields {
                let sub = if path.is_empty() {
                    f.name.clone()
                } else {
                    format!("{path}.{}", f.name)
                };
                match f.bits {
                    Some(b) => out.push(info(
                        &sub,
                        offset + f.offset,
                        f.size,
                        Some((b.offset, b.width)),
                        kind_of(&f.ty),
                    )),
                    None => field_infos(model, &f.ty, offset + f.offset, &sub, out),
                }
            }
        }
        Ty::Array(inner, n) if matches!(**inner, Ty::Prim(Prim::U8 | Prim::I8)) && *n > 4 => {
            out.push(info(path, offset, *n, None, kind_of(t)));
        }
        Ty::Array(inner, n) => {
            let size = model.size_of(inner);
            for k in 0..*n {
                field_infos(
                    model,
                    inner,
                    offset + k * size,
                    &format!("{path}[{k}]"),
                    out,
                );
            }
        }
        other => out.push(info(
            path,
            offset,
            model.size_of(other),
            None,
            kind_of(other),
        )),
    }
}

/// The enum and union types among the leaves `field_infos` lists under `t`.
fn leaf_kinds(model: &Model, t: &Ty, out: &mut Vec<Ty>) {
    match t {
        Ty::Record(r) if model.records[*r].kind == RecordKind::Struct => {
            for f in &model.records[*r].fields {
                leaf_kinds(model, &f.ty, out);
            }
        }
        Ty::Array(inner, n) if matches!(**inner, Ty::Prim(Prim::U8 | Prim::I8)) && *n > 4 => {}
        Ty::Array(inner, _) => leaf_kinds(model, inner, out),
        Ty::Enum(_) | Ty::Record(_) => {
            if !out.contains(t) {
                out.push(t.clone());
            }
        }
        Ty::Prim(_) => {}
    }
}

/// Byte coverage of a record: `used[k]` is a mask of the bits of byte `k` some field covers.
fn coverage(model: &Model, r: RecordId, base: u64, used: &mut [u8]) {
    let rec = &model.records[r];
    if rec.kind == RecordKind::Union {
        for b in &mut used[base as usize..(base + rec.size) as usize] {
            *b = 0xff;
        }
        return;
    }
    for f in &rec.fields {
        match (f.bits, &f.ty) {
            (Some(bits), _) => {
                for bit in bits.offset..bits.offset + bits.width {
                    let byte = (base + f.offset) as usize + (bit / 8) as usize;
                    used[byte] |= 1 << (bit % 8);
                }
            }
            (None, ty) => cover_ty(model, ty, base + f.offset, used),
        }
    }
}

fn cover_ty(model: &Model, t: &Ty, at: u64, used: &mut [u8]) {
    match t {
        Ty::Record(r) => coverage(model, *r, at, used),
        Ty::Array(inner, n) => {
            let size = model.size_of(inner);
            for k in 0..*n {
                cover_ty(model, inner, at + k * size, used);
            }
        }
        other => {
            for b in &mut used[at as usize..(at + model.size_of(other)) as usize] {
                *b = 0xff;
            }
        }
    }
}

fn padding_checks(model: &Model, r: RecordId) -> Vec<TokenStream> {
    let size = model.records[r].size as usize;
    let mut used = vec![0u8; size];
    coverage(model, r, 0, &mut used);
    let mut out = Vec::new();
    for (k, mask) in used.iter().enumerate() {
        if *mask == 0xff {
            continue;
        }
        let free = !*mask;
        let kk = lit(k as u64);
        let fl = lit(free);
        let before = model.records[r]
            .fields
            .iter()
            .rfind(|f| f.offset as usize <= k)
            .map_or("start", |f| f.name.as_str())
            .to_string();
        out.push(quote! {
            if b[#kk] & #fl != 0 {
                return Err(isa_core::DecodeError { field: #before, offset: #kk, value: b[#kk] as u64, kind: isa_core::DecodeErrorKind::NonZeroPadding });
            }
        });
    }
    out
}

fn instruction(
    model: &Model,
    op_index: OpcodeId,
    o: &Opcode,
    name: &str,
    shape: &Shape,
    firmware: &dyn Fn(&crate::model::legality::Table, usize) -> isa_core::Firmware,
    example: &str,
) -> TokenStream {
    let id = ident(name);
    let sid = ident(&shape.rust);
    let op = ident(&o.rust);
    let opname = &o.short;
    let value = super::hex(i128::from(o.value), 2);
    let rec = &model.records[shape.record];
    let status = match &o.status {
        Status::Maintained => "Maintained (`// Y`).".to_string(),
        Status::Dormant(r) => format!(
            "Dormant (`// n`{}).",
            if r.is_empty() {
                String::new()
            } else {
                format!(": {}", doc::doc_text(r))
            }
        ),
        Status::Unflagged => "No maintenance flag.".to_string(),
    };
    let facts = format!(
        "`{}` ({:#04x}): the typed instruction, operand struct `{}` ([`{}`], which describes the format).\n\n{status}{}",
        o.short,
        o.value,
        rec.c_name,
        shape.rust,
        if o.pseudo {
            " A pseudo opcode: the compiler emits it and the runtime lowers it."
        } else {
            ""
        }
    );
    let mut facts = facts;
    if let Some(t) = model.table(op_index) {
        facts.push_str(&format!(
            "\n\n# Legal arms on {}\n\nDerived from `{}` ({}); `words` is the state width per partition. Validator-legal is not firmware-wired: the last column says whether the firmware ships a body, and how strongly that is known (`headers/PROVENANCE.md` defines the evidence levels).\n\n{}",
            model.generation,
            model.specs[t.func].name,
            model.specs[t.func].loc,
            super::legality::markdown(model, t, firmware)
        ));
    }
    facts.push_str(example);
    let docs = doc::with_comment(None, &facts);
    let fc = fields_const(shape);
    let disc_path = model.opcode_field.path.join(".");
    // A shape without enum fields decodes infallibly (`decode_at`).
    let decoder = if super::ty::fallible(model, &Ty::Record(shape.record)) {
        ident("checked")
    } else {
        ident("decode_at")
    };
    let padding = if padding_checks(model, shape.record).is_empty() {
        quote!()
    } else {
        quote!(, check_padding)
    };
    let derives = super::traits::instruction_derives();
    quote! {
        #docs
        #derives
        pub struct #id(pub #sid);
        isa_core::instruction_impls!(#id(#sid), Opcode::#op = #value, #opname, #fc, #disc_path, #decoder #padding);
    }
}

fn instruction_enum(model: &Model, names: &IdVec<OpcodeId, Option<String>>) -> TokenStream {
    // Every item of a shape is compiled only with the shape's feature.
    let mapped: Vec<(&Opcode, proc_macro2::Ident, proc_macro2::Ident, TokenStream)> = model
        .opcodes
        .iter()
        .zip(names.iter())
        .filter_map(|(o, n)| {
            let shape = &model.shapes[o.shape?];
            let cfg = super::cfg_for_shape(model, o.shape?);
            Some((o, ident(n.as_ref()?), fields_const(shape), cfg))
        })
        .collect();
    let variants = mapped.iter().map(|(o, id, _, cfg)| {
        let d = format!(" `{}` ({:#04x}).", o.short, o.value);
        let attrs = super::traits::instruction_variant_attrs(&o.short);
        quote! { #[doc = #d] #cfg #attrs #id(#id), }
    });
    // Not `from_bytes(bytes).map(Self::X)`: built inside the `Ok` after the checks, the
    // instruction goes straight into the `Instruction` (the mapped form copied it out of a
    // `Result` first: 23 against 19 ms per million words).
    let decodes = mapped.iter().map(|(o, id, _, cfg)| {
        let op = ident(&o.rust);
        quote! { #cfg crate::Opcode::#op => { isa_core::or_return!(#id::check_bytes(bytes)); Ok(Self::#id(#id::from_checked_bytes(bytes))) } }
    });
    // Opcodes whose shape is compiled out: an error naming the feature.
    let absent = ShapeId::all(model.shapes.len()).filter_map(|s| {
        let ops: Vec<TokenStream> = mapped
            .iter()
            .filter(|(o, ..)| o.shape == Some(s))
            .map(|(o, ..)| {
                let op = ident(&o.rust);
                quote!(crate::Opcode::#op)
            })
            .collect();
        if ops.is_empty() {
            return None;
        }
        let feature = super::shape_feature(model, s);
        Some(quote! {
            #[cfg(not(feature = #feature))]
            #(#ops)|* => Err(not_compiled(bytes[0], #feature)),
        })
    });
    let opcodes = mapped
        .iter()
        .map(|(_, id, _, cfg)| quote! { #cfg Self::#id(_) => #id::OPCODE, });
    let encodes = mapped
        .iter()
        .map(|(_, id, _, cfg)| quote! { #cfg Self::#id(i) => i.to_bytes(), });
    let fields = mapped.iter().map(|(o, _, fc, cfg)| {
        let op = ident(&o.rust);
        quote! { #cfg crate::Opcode::#op => Some(#fc), }
    });
    let disc_path = model.opcode_field.path.join(".");
    let count = mapped.len();
    let doc = format!(
        " Any instruction of {} that has a typed form ({count} of {} opcodes: those bound to an operand struct).",
        model.generation,
        model.opcodes.len()
    );
    let derives = super::traits::instruction_enum_derives();
    let ids: Vec<(proc_macro2::Ident, TokenStream)> = mapped
        .iter()
        .map(|(_, id, _, cfg)| (id.clone(), cfg.clone()))
        .collect();
    let extras = super::traits::instruction_enum_impls(&ids);
    quote! {
        #[doc = #doc]
        #derives
        pub enum Instruction { #(#variants)* }
        #extras
        impl Instruction {
            /// Decodes a word by its opcode byte. An unknown byte and an opcode without an operand struct
            /// are errors, never panics.
            #[inline]
            pub fn decode(bytes: &[u8; 64]) -> Result<Self, isa_core::DecodeError> {
                let op = crate::Opcode::from_value(bytes[0]).ok_or(isa_core::DecodeError {
                    field: #disc_path,
                    offset: 0,
                    value: bytes[0] as u64,
                    kind: isa_core::DecodeErrorKind::UnknownOpcode,
                })?;
                #[allow(unreachable_patterns)]
                match op {
                    #(#decodes)*
                    #(#absent)*
                    _ => Err(isa_core::DecodeError {
                        field: #disc_path,
                        offset: 0,
                        value: bytes[0] as u64,
                        kind: isa_core::DecodeErrorKind::UnmappedOpcode,
                    }),
                }
            }
            /// The opcode.
            pub const fn opcode(&self) -> crate::Opcode { match *self { #(#opcodes)* } }
            /// The 64 bytes the hardware reads.
            pub fn to_bytes(&self) -> [u8; 64] { match *self { #(#encodes)* } }
            /// The leaf fields of this instruction's operand struct.
            pub fn fields(&self) -> &'static [isa_core::FieldInfo] {
                fields_of(self.opcode()).unwrap_or(&[])
            }
        }
        /// The leaf fields of an opcode's operand struct, when it has one (and it is compiled in).
        pub const fn fields_of(op: crate::Opcode) -> Option<&'static [isa_core::FieldInfo]> {
            #[allow(unreachable_patterns)]
            match op { #(#fields)* _ => None }
        }
        /// The error of a word whose opcode's operand struct is compiled out.
        #[allow(dead_code)]
        const fn not_compiled(byte: u8, feature: &'static str) -> isa_core::DecodeError {
            isa_core::DecodeError {
                field: #disc_path,
                offset: 0,
                value: byte as u64,
                kind: isa_core::DecodeErrorKind::ShapeNotCompiled { feature },
            }
        }
    }
}
