//! The `construct` module of a generated crate: the typed constructors of the instructions the
//! tree places on an engine (derived in [`crate::model::construct`]), their operands
//! (`TensorAddress`, `Tensor<n>d::contiguous` / `with_steps`, the `Immediate` conversion), the
//! `Default` of every typed instruction (what its validator pins whatever the other fields
//! hold), and the generation's `isa_core::construct::Construct` dispatch.
//!
//! Names the emitter assumes, each checked against the model (an item whose facts are missing
//! is left out): the address-map constants `STATE_BUF_OFFSET`, `STATE_BUF_PARTITION_SIZE`,
//! `PSUM_BUF_OFFSET`, `PSUM_BUF_PARTITION_SIZE`, `NUM_PARTITIONS`, `NUM_ADDR_REGISTERS` and
//! `ADDR4_MARKER_ADDR_REG`; the `ADDR4` union's `addr_immediate` (u32) and `addr_reg` (`regnum`,
//! `marker`) members; the parameter conventions of the model.

use super::{ident, lit, Source};
use crate::model::construct::{
    immediate_forms, tensor_record, Construction, Ctor, ImmediateForms, ParamKind,
};
use crate::model::eval::{Path, Step, Sym};
use crate::model::spec::BinOp;
use crate::model::{Model, RecordId, Ty};
use crate::read::cdecl::Prim;
use proc_macro2::TokenStream;
use quote::quote;

/// The `ADDR4` union of the tensor records and what `TensorAddress` can do with it.
pub(crate) struct AddressForms {
    /// The union.
    pub union: RecordId,
    /// SBUF helpers (`sbuf`): the constants exist.
    pub sbuf: bool,
    /// PSUM helpers (`psum`).
    pub psum: bool,
    /// The register form: (byte of `regnum`, byte of `marker`) when `register` exists.
    pub register: Option<(u64, u64)>,
}

fn u32_const(model: &Model, name: &str) -> Option<i128> {
    model
        .constant(name)
        .filter(|c| c.ty == Prim::U32)
        .map(|c| c.value)
}

/// The address forms, when the tensor records' start address is a 4-byte union with a u32
/// `addr_immediate` member.
pub(crate) fn address_forms(model: &Model) -> Option<AddressForms> {
    let union = model.records.iter().enumerate().find_map(|(r, _)| {
        let (rec, _) = tensor_record(model, &Ty::Record(r))?;
        let start = model.records[rec]
            .fields
            .iter()
            .find(|f| f.name == "start_addr")?;
        match start.ty {
            Ty::Record(a) => Some(a),
            _ => None,
        }
    })?;
    let u = &model.records[union];
    if !u
        .fields
        .iter()
        .any(|f| f.name == "addr_immediate" && f.ty == Ty::Prim(Prim::U32) && f.offset == 0)
    {
        return None;
    }
    let has = |names: &[&str]| names.iter().all(|n| u32_const(model, n).is_some());
    let sbuf = has(&[
        "STATE_BUF_OFFSET",
        "STATE_BUF_PARTITION_SIZE",
        "NUM_PARTITIONS",
    ]);
    // A generation that sizes PSUM out (partition size 0) has no `psum`.
    let psum = has(&[
        "PSUM_BUF_OFFSET",
        "PSUM_BUF_PARTITION_SIZE",
        "NUM_PARTITIONS",
    ]) && u32_const(model, "PSUM_BUF_PARTITION_SIZE") != Some(0);
    let register = u
        .fields
        .iter()
        .find(|f| f.name == "addr_reg")
        .and_then(|f| match f.ty {
            Ty::Record(r) => Some((f.offset, r)),
            _ => None,
        })
        .and_then(|(base, r)| {
            let byte = |n: &str| {
                model.records[r]
                    .fields
                    .iter()
                    .find(|f| f.name == n && f.ty == Ty::Prim(Prim::U8))
                    .map(|f| base + f.offset)
            };
            Some((byte("regnum")?, byte("marker")?))
        })
        .filter(|_| has(&["ADDR4_MARKER_ADDR_REG", "NUM_ADDR_REGISTERS"]));
    Some(AddressForms {
        union,
        sbuf,
        psum,
        register,
    })
}

fn tensor_address(model: &Model, a: &AddressForms) -> TokenStream {
    let addr4 = ident(&model.records[a.union].rust);
    let consts = |n: &str| {
        let i = ident(n);
        quote!(crate::consts::#i)
    };
    let memory_fn = |name: &str, memory: TokenStream, base: &str, size: &str, what: &str| {
        let f = ident(name);
        let (base, size, parts) = (consts(base), consts(size), consts("NUM_PARTITIONS"));
        let d = format!(
            " Byte `byte_offset` of {what} partition `partition`: the immediate address `{}_OFFSET + partition * {}_PARTITION_SIZE + byte_offset`. A partition past `NUM_PARTITIONS` or an offset past the partition size is an error (this generation's constants, `consts`).",
            if what == "SBUF" { "STATE_BUF" } else { "PSUM_BUF" },
            if what == "SBUF" { "STATE_BUF" } else { "PSUM_BUF" },
        );
        quote! {
            #[doc = #d]
            pub const fn #f(partition: u32, byte_offset: u32) -> Result<Self, isa_core::AddressError> {
                if partition >= #parts {
                    return Err(isa_core::AddressError::Partition { memory: #memory, partition, partitions: #parts });
                }
                if byte_offset >= #size {
                    return Err(isa_core::AddressError::Offset { memory: #memory, byte_offset, partition_bytes: #size });
                }
                Ok(Self::immediate(#base.wrapping_add(partition.wrapping_mul(#size)).wrapping_add(byte_offset)))
            }
        }
    };
    let sbuf = if a.sbuf {
        memory_fn(
            "sbuf",
            quote!(isa_core::Memory::Sbuf),
            "STATE_BUF_OFFSET",
            "STATE_BUF_PARTITION_SIZE",
            "SBUF",
        )
    } else {
        quote!()
    };
    let psum = if a.psum {
        memory_fn(
            "psum",
            quote!(isa_core::Memory::Psum),
            "PSUM_BUF_OFFSET",
            "PSUM_BUF_PARTITION_SIZE",
            "PSUM",
        )
    } else {
        quote!()
    };
    let (register, pointer) = match a.register {
        Some((regnum, marker)) => {
            let (rn, mk) = (lit(regnum), lit(marker));
            let (regs, mark) = (
                consts("NUM_ADDR_REGISTERS"),
                consts("ADDR4_MARKER_ADDR_REG"),
            );
            (
                quote! {
                    /// Address register `regnum` (`addr_reg` with marker `ADDR4_MARKER_ADDR_REG`),
                    /// resolved at run time; a register past `NUM_ADDR_REGISTERS` is an error.
                    pub const fn register(regnum: u8) -> Result<Self, isa_core::AddressError> {
                        if regnum as u32 >= #regs {
                            return Err(isa_core::AddressError::Register { regnum, registers: #regs });
                        }
                        let mut bytes = [0u8; 4];
                        bytes[#rn] = regnum;
                        bytes[#mk] = #mark as u8;
                        Ok(Self(crate::#addr4::from_bytes(bytes)))
                    }
                    /// The operand whose value lives at this address: a pointer immediate, or
                    /// (register form) the register holding the address.
                    pub const fn pointer(self) -> isa_core::Immediate {
                        if self.0.bytes[#mk] as u32 == #mark {
                            isa_core::Immediate::Register(self.0.bytes[#rn])
                        } else {
                            isa_core::Immediate::Pointer(self.raw())
                        }
                    }
                },
                quote!(),
            )
        }
        None => (
            quote!(),
            quote! {
                /// The operand whose value lives at this address: a pointer immediate.
                pub const fn pointer(self) -> isa_core::Immediate {
                    isa_core::Immediate::Pointer(self.raw())
                }
            },
        ),
    };
    let mut doc = format!(
        " A tensor's start address on {}: the `{}` union, built from a memory, a partition and a byte offset with this generation's address map (or from an address register).",
        model.generation, model.records[a.union].c_name
    );
    if !a.psum && u32_const(model, "PSUM_BUF_PARTITION_SIZE") == Some(0) {
        doc.push_str(
            " There is no `psum`: this generation sizes PSUM out (`PSUM_BUF_PARTITION_SIZE` is 0).",
        );
    }
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct TensorAddress(crate::#addr4);
        impl TensorAddress {
            #sbuf
            #psum
            #register
            /// An immediate address as it is (no check: the validator judges it).
            pub const fn immediate(addr: u32) -> Self {
                Self(crate::#addr4::from_bytes(addr.to_le_bytes()))
            }
            /// The union.
            pub const fn addr4(self) -> crate::#addr4 {
                self.0
            }
            /// The union's 4 bytes as a little-endian word.
            pub const fn raw(self) -> u32 {
                u32::from_le_bytes(self.0.bytes)
            }
            #pointer
        }
        impl From<TensorAddress> for crate::#addr4 {
            fn from(a: TensorAddress) -> Self {
                a.0
            }
        }
        impl From<TensorAddress> for isa_core::Immediate {
            /// [`TensorAddress::pointer`].
            fn from(a: TensorAddress) -> Self {
                a.pointer()
            }
        }
    }
}

/// Every tensor record of the model.
fn tensor_records(model: &Model) -> Vec<(RecordId, u64)> {
    (0..model.records.len())
        .filter_map(|r| tensor_record(model, &Ty::Record(r)))
        .collect()
}

fn tensor_helpers(model: &Model) -> TokenStream {
    let items = tensor_records(model).into_iter().map(|(r, rank)| {
        let t = ident(&model.records[r].rust);
        let n = lit(rank);
        let rest = if model.records[r].fields.len() == 3 {
            quote!()
        } else {
            quote!(..Self::ZEROED)
        };
        quote! {
            impl crate::#t {
                /// `num_elem` elements laid out contiguously from `start`, innermost dimension
                /// first: dimension `k` steps over the elements of the dimensions inside it, a
                /// dimension of count 1 gets stride 1 (as the headers fill unused dimensions).
                /// A count of 0, or a stride past `i16`, is an error.
                pub fn contiguous(start: TensorAddress, num_elem: [u16; #n]) -> Result<Self, isa_core::TensorError> {
                    Ok(Self {
                        start_addr: start.addr4(),
                        step_elem: isa_core::construct::contiguous_steps(num_elem)?,
                        num_elem,
                        #rest
                    })
                }
                /// The access pattern with these strides and counts (in elements, innermost first), as given.
                pub const fn with_steps(start: TensorAddress, step_elem: [i16; #n], num_elem: [u16; #n]) -> Self {
                    Self { start_addr: start.addr4(), step_elem, num_elem, #rest }
                }
            }
        }
    });
    quote!(#(#items)*)
}

fn immediate_fn(model: &Model, forms: &ImmediateForms, cfg: &TokenStream) -> TokenStream {
    let e = &model.enums[forms.src_enum];
    let et = ident(&e.rust);
    let [v, p, r] = forms.members.map(|m| ident(&e.members[m].rust));
    let ut = ident(&model.records[forms.union].rust);
    let rn = lit(forms.regnum_offset);
    quote! {
        /// The source and the 4 bytes of an immediate operand.
        #cfg
        fn immediate(x: isa_core::Immediate) -> (crate::#et, crate::#ut) {
            match x {
                isa_core::Immediate::Value(bits) => (crate::#et::#v, crate::#ut::from_bytes(bits.to_le_bytes())),
                isa_core::Immediate::Pointer(addr) => (crate::#et::#p, crate::#ut::from_bytes(addr.to_le_bytes())),
                isa_core::Immediate::Register(regnum) => {
                    let mut bytes = [0u8; 4];
                    bytes[#rn] = regnum;
                    (crate::#et::#r, crate::#ut::from_bytes(bytes))
                }
            }
        }
    }
}

/// The Rust type of a parameter.
fn param_type(model: &Model, kind: &ParamKind) -> TokenStream {
    match kind {
        ParamKind::Tensor { record, .. } => {
            let t = ident(&model.records[*record].rust);
            quote!(crate::#t)
        }
        ParamKind::Lanes { .. } => quote!(u8),
        ParamKind::Dtype { enum_id, .. } | ParamKind::Enum { enum_id, .. } => {
            let t = ident(&model.enums[*enum_id].rust);
            quote!(crate::#t)
        }
        ParamKind::Immediate { .. } => quote!(isa_core::Immediate),
        ParamKind::Fp32 { .. } => quote!(f32),
    }
}

fn field_place(model: &Model, shape_record: usize, k: usize) -> TokenStream {
    let f = ident(&crate::model::names::rust_field(
        &model.records[shape_record].fields[k].name,
    ));
    quote!(f.#f)
}

/// `i128` value of a field read in a computed expression (`None`: not a plain field).
fn read_expr(model: &Model, shape_record: usize, p: &Path) -> Option<TokenStream> {
    let (place, union) = super::legality::place(model, shape_record, p);
    if union.is_some() {
        return None;
    }
    Some(match p.ty(model, shape_record) {
        Ty::Enum(e) => {
            let repr = super::ty::prim(model.enums[e].repr);
            quote!(i128::from(#repr::from(#place)))
        }
        Ty::Prim(Prim::F32 | Prim::F64) => return None,
        Ty::Prim(_) => quote!(i128::from(#place)),
        _ => return None,
    })
}

fn sym_expr(model: &Model, shape_record: usize, s: &Sym) -> Option<TokenStream> {
    Some(match s {
        Sym::Int(v) => {
            let l = proc_macro2::Literal::i128_suffixed(*v);
            quote!(#l)
        }
        Sym::Read(p) => read_expr(model, shape_record, p)?,
        Sym::Neg(a) => {
            let a = sym_expr(model, shape_record, a)?;
            quote!((#a).saturating_neg())
        }
        Sym::Bin(op, a, b) => {
            let (a, b) = (
                sym_expr(model, shape_record, a)?,
                sym_expr(model, shape_record, b)?,
            );
            match op {
                BinOp::Add => quote!((#a).saturating_add(#b)),
                BinOp::Sub => quote!((#a).saturating_sub(#b)),
                BinOp::Mul => quote!((#a).saturating_mul(#b)),
                BinOp::Div => quote!(isa_core::spec::div(#a, #b)),
                BinOp::Rem => quote!(isa_core::spec::rem(#a, #b)),
                BinOp::BitAnd => quote!((#a & #b)),
                BinOp::BitOr => quote!((#a | #b)),
                BinOp::BitXor => quote!((#a ^ #b)),
                BinOp::Shl => quote!(isa_core::spec::shl(#a, #b)),
                BinOp::Shr => quote!(isa_core::spec::shr(#a, #b)),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// The statement computing a field, or `None` when it cannot be written.
fn computed_stmt(model: &Model, shape_record: usize, p: &Path, e: &Sym) -> Option<TokenStream> {
    let (place, union) = super::legality::place(model, shape_record, p);
    if union.is_some() {
        return None;
    }
    match p.ty(model, shape_record) {
        Ty::Enum(_) => {
            let Sym::Read(q) = e else { return None };
            let (from, union) = super::legality::place(model, shape_record, q);
            union.is_none().then(|| quote!(#place = #from;))
        }
        Ty::Prim(prim) => {
            let narrow = ident(&format!("to_{}", prim.rust()));
            let v = sym_expr(model, shape_record, e)?;
            Some(quote!(#place = isa_core::spec::#narrow(#v);))
        }
        _ => None,
    }
}

/// The name the instruction of opcode `op` has, and its operand struct.
fn names(model: &Model, op: usize) -> Option<(String, usize, String)> {
    let name = super::inst::instruction_names(model)[op].clone()?;
    let shape = &model.shapes[model.opcodes[op].shape?];
    Some((name, shape.record, shape.rust.clone()))
}

/// Whether the emitter can write every part of a constructor (pins, parameters, computed
/// fields); `Err` says what it cannot.
pub(crate) fn writable(model: &Model, c: &Construction, ctor: &Ctor) -> Result<(), String> {
    let (_, shape_record, _) = names(model, c.opcode).ok_or("no typed instruction")?;
    if !super::ty::zero_decodable(model, &Ty::Record(shape_record)) {
        return Err("its operand struct has no all-zero value to start from".into());
    }
    for (p, v) in &ctor.pins {
        if *v != 0
            && super::legality::assign_in(model, shape_record, p, *v, &quote!(crate)).is_none()
        {
            return Err(format!(
                "the pin `{}` cannot be written",
                p.name(model, shape_record)
            ));
        }
    }
    for (p, e) in &ctor.computed {
        computed_stmt(model, shape_record, p, e).ok_or(format!(
            "`{}` cannot be computed",
            p.name(model, shape_record)
        ))?;
    }
    for p in &ctor.params {
        if matches!(p.kind, ParamKind::Immediate { .. }) && immediate_forms(model).is_none() {
            return Err("the immediate forms are missing".into());
        }
    }
    Ok(())
}

/// The constructors of a construction that the emitter writes (the others get a note).
pub(crate) fn emitted<'a>(model: &Model, c: &'a Construction) -> Vec<&'a Ctor> {
    c.ctors
        .iter()
        .filter(|k| writable(model, c, k).is_ok())
        .collect()
}

fn field_list(model: &Model, shape_record: usize, fields: &[usize]) -> String {
    fields
        .iter()
        .map(|k| format!("`{}`", model.records[shape_record].fields[*k].name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn value_text(model: &Model, shape_record: usize, p: &Path, v: i128) -> String {
    match p.ty(model, shape_record) {
        Ty::Enum(e) => model.enums[e]
            .by_value(v)
            .map_or(v.to_string(), |m| m.short.clone()),
        _ if v >= 0x100 => format!("{v:#x}"),
        _ => v.to_string(),
    }
}

fn ctor_doc(model: &Model, c: &Construction, ctor: &Ctor) -> String {
    let o = &model.opcodes[c.opcode];
    let shape_record = model.shapes[o.shape.unwrap_or_default()].record;
    let gen = &model.generation;
    let (vname, vloc) = model
        .validator(c.opcode)
        .map(|v| {
            (
                model.specs[v.func].name.clone(),
                model.specs[v.func].loc.to_string(),
            )
        })
        .unwrap_or_default();
    let fields = &model.records[shape_record].fields;
    let mut d = match ctor.chosen.as_slice() {
        [] => format!("A legal `{}` on {gen}.", o.short),
        chosen => format!(
            "A legal `{}` on {gen} with {}.",
            o.short,
            chosen
                .iter()
                .filter_map(|(k, m)| match fields[*k].ty {
                    Ty::Enum(e) => Some(format!(
                        "`{} = {}`",
                        fields[*k].name, model.enums[e].members[*m].short
                    )),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if let Some(choice) = c.choices.first() {
        let e = &model.enums[choice.enum_id];
        let names = |ms: &[usize]| {
            ms.iter()
                .map(|m| format!("`{}`", e.members[*m].short))
                .collect::<Vec<_>>()
                .join(", ")
        };
        d.push_str(&format!(
            " The validator admits {} for `{}` and rejects {} whatever the other fields hold, so only the admitted members have a constructor.",
            names(&choice.legal),
            fields[choice.field].name,
            names(&choice.illegal)
        ));
    }
    let pins: Vec<String> = ctor
        .pins
        .iter()
        .filter(|(p, v)| {
            *v != 0 && !matches!(p.steps.first(), Some(Step::Field(_, k)) if ctor.chosen.iter().any(|(c, _)| c == k))
        })
        .map(|(p, v)| format!("`{} = {}`", p.name(model, shape_record), value_text(model, shape_record, p, *v)))
        .collect();
    d.push_str(&format!(
        "\n\nFixed by the header's validator `{vname}` ({vloc}), found by evaluating it with the opcode fixed and the other fields open: {}; every reserved byte it checks is zero.",
        if pins.is_empty() { "nothing but zeros".to_string() } else { pins.join(", ") }
    ));
    if !ctor.computed.is_empty() {
        d.push_str(&format!(
            " Computed from the parameters, as the validator requires: {}.",
            ctor.computed
                .iter()
                .map(|(p, e)| format!(
                    "`{} = {}`",
                    p.name(model, shape_record),
                    crate::model::eval::sym_text(model, shape_record, e)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    d.push_str("\n\nParameters, by convention (`ARCHITECTURE.md`):");
    // A field with the header's comment on it: `name` (comment).
    let named = |k: usize| {
        let f = &fields[k];
        let comment = f
            .doc
            .as_deref()
            .and_then(|d| d.lines().next())
            .map(|c| super::doc::strip_layout_note(c).trim());
        match comment {
            Some(c) if !c.is_empty() => format!("`{}` ({})", f.name, super::doc::doc_text(c)),
            _ => format!("`{}`", f.name),
        }
    };
    for p in &ctor.params {
        let what = match &p.kind {
            ParamKind::Tensor { field, rank, .. } => format!(
                "{}, a {rank}-D access pattern (`Tensor{rank}d::contiguous`, `with_steps`)",
                named(*field)
            ),
            ParamKind::Lanes { field } => named(*field),
            ParamKind::Dtype { field, .. } => named(*field),
            ParamKind::Immediate { src, value } => format!(
                "{} with its source `{}`: a value in the instruction, a pointer or a register",
                named(*value),
                fields[*src].name
            ),
            ParamKind::Enum { field, .. } => named(*field),
            ParamKind::Fp32 { field, index, .. } => format!(
                "`{}[{index}]` as fp32: the header documents the bounds of `UNIFORM_IN_RANGE` there, though the validator does not read them",
                fields[*field].name
            ),
        };
        d.push_str(&format!("\n* `{}`: {what}.", p.name));
    }
    if !ctor.unread.is_empty() {
        d.push_str(&format!(
            "\n\nLeft zero, because the validator does not read them under this choice: {}.",
            field_list(model, shape_record, &ctor.unread)
        ));
    }
    if !ctor.prefix_zero.is_empty() {
        d.push_str(if ctor.unread.is_empty() { "\n\n" } else { " " });
        d.push_str(&format!(
            "Left zero though the validator reads them: {} (no semaphore wait or update); set them on the result.",
            field_list(model, shape_record, &ctor.prefix_zero)
        ));
    }
    d.push_str("\n\nWhat the validator asks of the parameters' values (lane counts, addresses, element types and counts, distinct bounds, the executing engine) is checked by `validate`, not by the types.");
    d
}

/// A Rust literal of a float as an example shows it (`1.0`, `-0.5`).
fn float_text(v: f32) -> String {
    format!("{v:?}")
}

/// The example's value of the 4 bytes of union field `k` (every member path under it).
fn union_bytes(model: &Model, shape_record: usize, ctor: &Ctor, prefix: &[Step]) -> u32 {
    let mut bytes = [0u8; 4];
    for (p, v) in &ctor.example.fields {
        if p.steps.len() <= prefix.len() || p.steps[..prefix.len()] != *prefix {
            continue;
        }
        let mut off = 0u64;
        let mut ty = p.steps[..prefix.len()]
            .last()
            .map(|s| match s {
                Step::Field(r, k) => model.records[*r].fields[*k].ty.clone(),
                Step::Index(_) => Ty::Prim(Prim::U8),
            })
            .unwrap_or(Ty::Record(shape_record));
        for s in &p.steps[prefix.len()..] {
            match (s, &ty) {
                (Step::Field(r, k), _) => {
                    off += model.records[*r].fields[*k].offset;
                    ty = model.records[*r].fields[*k].ty.clone();
                }
                (Step::Index(i), Ty::Array(inner, _)) => {
                    off += i * model.size_of(inner);
                    ty = inner.as_ref().clone();
                }
                _ => {}
            }
        }
        let size = model.size_of(&ty);
        for k in 0..size {
            if let Some(b) = bytes.get_mut((off + k) as usize) {
                *b = (*v >> (8 * k)) as u8;
            }
        }
    }
    u32::from_le_bytes(bytes)
}

/// How an example spells an address.
fn address_text(model: &Model, forms: Option<&AddressForms>, raw: u32) -> String {
    let c = |n: &str| u32_const(model, n).unwrap_or(0);
    if let Some(a) = forms {
        if let Some((rn, mk)) = a.register {
            let b = raw.to_le_bytes();
            if i128::from(b[mk as usize]) == c("ADDR4_MARKER_ADDR_REG") {
                return format!("TensorAddress::register({})?", b[rn as usize]);
            }
        }
        let raw = i128::from(raw);
        let parts = c("NUM_PARTITIONS");
        for (ok, f, base, size) in [
            (
                a.sbuf,
                "sbuf",
                c("STATE_BUF_OFFSET"),
                c("STATE_BUF_PARTITION_SIZE"),
            ),
            (
                a.psum,
                "psum",
                c("PSUM_BUF_OFFSET"),
                c("PSUM_BUF_PARTITION_SIZE"),
            ),
        ] {
            if ok && size > 0 && raw >= base && raw < base + parts * size {
                let (p, off) = ((raw - base) / size, (raw - base) % size);
                return format!("TensorAddress::{f}({p}, {off:#x})?");
            }
        }
        return format!("TensorAddress::immediate({raw:#x})");
    }
    format!("{raw:#x}")
}

/// One rendered argument: the Rust expression, the names it uses, and the
/// generation-independent `isa_core::construct::Arg` expression for the dispatch check.
struct ArgText {
    rust: String,
    uses: Vec<String>,
    arg: String,
}

fn arg_text(model: &Model, c: &Construction, ctor: &Ctor, k: usize) -> ArgText {
    let shape_record = model.shapes[model.opcodes[c.opcode].shape.unwrap_or_default()].record;
    let p = &ctor.params[k];
    let fields = &model.records[shape_record].fields;
    let path = |steps: Vec<Step>| Path {
        root: crate::model::eval::Root::Shape,
        steps,
    };
    match &p.kind {
        ParamKind::Tensor {
            field,
            record,
            rank,
        } => {
            let rec = &model.records[*record];
            let sub = |n: &str| rec.fields.iter().position(|f| f.name == n).unwrap_or(0);
            let (start, step, num) = (sub("start_addr"), sub("step_elem"), sub("num_elem"));
            let raw = union_bytes(
                model,
                shape_record,
                ctor,
                &[
                    Step::Field(shape_record, *field),
                    Step::Field(*record, start),
                ],
            );
            let leaf = |j: usize, i: u64| {
                ctor.example.value(&path(vec![
                    Step::Field(shape_record, *field),
                    Step::Field(*record, j),
                    Step::Index(i),
                ]))
            };
            let nums: Vec<i128> = (0..*rank).map(|i| leaf(num, i)).collect();
            let steps: Vec<i128> = (0..*rank).map(|i| leaf(step, i)).collect();
            let step_given = ctor.example.fields.iter().any(|(q, _)| {
                q.steps.len() == 3
                    && q.steps[..2]
                        == [
                            Step::Field(shape_record, *field),
                            Step::Field(*record, step),
                        ]
            });
            let forms = address_forms(model);
            let addr = address_text(model, forms.as_ref(), raw);
            let list = |v: &[i128]| {
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let t = &rec.rust;
            let contiguous = !step_given && nums.iter().all(|n| *n > 0);
            let rust = if contiguous {
                format!("{t}::contiguous({addr}, [{}])?", list(&nums))
            } else {
                format!(
                    "{t}::with_steps({addr}, [{}], [{}])",
                    list(&steps),
                    list(&nums)
                )
            };
            let pad = |v: &[i128], fill: i128| {
                let mut v = v.to_vec();
                v.resize(4, fill);
                list(&v)
            };
            let arg = if contiguous {
                format!(
                    "Arg::Tensor(TensorArg::contiguous({raw:#x}, [{}])?)",
                    pad(&nums, 1)
                )
            } else {
                format!(
                    "Arg::Tensor(TensorArg {{ start_addr: {raw:#x}, step_elem: [{}], num_elem: [{}] }})",
                    pad(&steps, 1),
                    pad(&nums, 1)
                )
            };
            ArgText {
                rust,
                uses: vec![t.clone(), "TensorAddress".into()],
                arg,
            }
        }
        ParamKind::Lanes { field } => {
            let v = ctor
                .example
                .value(&path(vec![Step::Field(shape_record, *field)]));
            ArgText {
                rust: v.to_string(),
                uses: vec![],
                arg: format!("Arg::Lanes({v})"),
            }
        }
        ParamKind::Dtype { field, enum_id } | ParamKind::Enum { field, enum_id } => {
            let v = ctor
                .example
                .value(&path(vec![Step::Field(shape_record, *field)]));
            let e = &model.enums[*enum_id];
            let m = e.by_value(v).or_else(|| e.distinct().next());
            let (rust, short) = m.map_or((String::new(), String::new()), |m| {
                (m.rust.clone(), m.short.clone())
            });
            ArgText {
                rust: format!("{}::{rust}", e.rust),
                uses: vec![e.rust.clone()],
                arg: format!("Arg::Member(\"{short}\")"),
            }
        }
        ParamKind::Immediate { src, value } => {
            let s = ctor
                .example
                .value(&path(vec![Step::Field(shape_record, *src)]));
            let bits = union_bytes(
                model,
                shape_record,
                ctor,
                &[Step::Field(shape_record, *value)],
            );
            let forms = immediate_forms(model);
            let form = forms.as_ref().and_then(|f| {
                f.members
                    .iter()
                    .position(|m| model.enums[f.src_enum].members[*m].value == s)
            });
            let text = match form {
                Some(1) => format!("Immediate::Pointer({bits:#x})"),
                Some(2) => format!(
                    "Immediate::Register({})",
                    bits.to_le_bytes()[forms.as_ref().map_or(0, |f| f.regnum_offset as usize)]
                ),
                _ => {
                    let f = f32::from_bits(bits);
                    if bits != 0 && f.is_finite() && float_text(f).len() <= 8 {
                        format!("Immediate::fp32({})", float_text(f))
                    } else {
                        format!("Immediate::Value({bits})")
                    }
                }
            };
            let _ = fields;
            ArgText {
                rust: text.clone(),
                uses: vec!["Immediate".into()],
                arg: format!("Arg::Immediate({text})"),
            }
        }
        ParamKind::Fp32 { index, .. } => {
            let v = if *index == 0 { "0.0" } else { "1.0" };
            ArgText {
                rust: v.into(),
                uses: vec![],
                arg: format!("Arg::Fp32({v})"),
            }
        }
    }
}

/// A call of the constructor with its example arguments: the lines of `let inst = ...;`, the
/// names to import, and the named `Arg`s of the dispatch call.
pub(crate) fn example_call(
    model: &Model,
    c: &Construction,
    ctor: &Ctor,
    var: &str,
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let Some((name, _, _)) = names(model, c.opcode) else {
        return (Vec::new(), Vec::new(), Vec::new());
    };
    let mut uses = vec![name.clone()];
    let args: Vec<ArgText> = (0..ctor.params.len())
        .map(|k| arg_text(model, c, ctor, k))
        .collect();
    let mut lines = Vec::new();
    let one_line = format!(
        "let {var} = {name}::{}({});",
        ctor.name,
        args.iter()
            .map(|a| a.rust.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if one_line.len() <= 90 {
        lines.push(one_line);
    } else {
        lines.push(format!("let {var} = {name}::{}(", ctor.name));
        for a in &args {
            lines.push(format!("    {},", a.rust));
        }
        lines.push(");".into());
    }
    for a in &args {
        uses.extend(a.uses.iter().cloned());
    }
    uses.sort();
    uses.dedup();
    let named = ctor
        .params
        .iter()
        .zip(&args)
        .map(|(p, a)| format!("(\"{}\", {})", p.name, a.arg))
        .collect();
    (lines, uses, named)
}

/// The engine members the example was checked for, as `NeuronEngine::X` texts.
pub(crate) fn engine_texts(model: &Model, ctor: &Ctor) -> Vec<String> {
    let Some(e) = model.engine_enum else {
        return Vec::new();
    };
    let en = &model.enums[e];
    ctor.example
        .engines
        .iter()
        .map(|m| format!("{}::{}", en.rust, en.members[*m].rust))
        .collect()
}

fn ctor_example(model: &Model, c: &Construction, ctor: &Ctor) -> String {
    let krate = format!("isa_{}", model.generation.to_ascii_lowercase());
    let Some((name, _, _)) = names(model, c.opcode) else {
        return String::new();
    };
    let (lines, mut uses, _) = example_call(model, c, ctor, "inst");
    let engines = engine_texts(model, ctor);
    if let Some(e) = model.engine_enum {
        uses.push(model.enums[e].rust.clone());
    }
    uses.sort();
    uses.dedup();
    let mut out = format!(
        "\n\n# Example\n\n```rust\nuse {krate}::{{{}}};\n\n",
        uses.join(", ")
    );
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    let engine = engines
        .first()
        .cloned()
        .unwrap_or_else(|| "Default::default()".into());
    out.push_str(&format!(
        "// Legal as the header's validator says, on {} (an engine that runs `{}`).\ninst.validate({engine})?;\nassert_eq!({name}::from_bytes(&inst.to_bytes())?, inst);\n# Ok::<(), Box<dyn std::error::Error>>(())\n```",
        engine.rsplit("::").next().unwrap_or_default().to_ascii_uppercase(),
        model.opcodes[c.opcode].short
    ));
    out
}

fn constructor_fn(model: &Model, c: &Construction, ctor: &Ctor) -> TokenStream {
    let Some((_, shape_record, shape_rust)) = names(model, c.opcode) else {
        return quote!();
    };
    let sid = ident(&shape_rust);
    let fname = ident(&ctor.name);
    let params: Vec<TokenStream> = ctor
        .params
        .iter()
        .map(|p| {
            let n = ident(&p.name);
            let t = param_type(model, &p.kind);
            quote!(#n: #t)
        })
        .collect();
    let sets: Vec<TokenStream> = ctor
        .params
        .iter()
        .map(|p| {
            let n = ident(&p.name);
            match &p.kind {
                ParamKind::Tensor { field, .. }
                | ParamKind::Lanes { field }
                | ParamKind::Dtype { field, .. }
                | ParamKind::Enum { field, .. } => {
                    let place = field_place(model, shape_record, *field);
                    quote!(#place = #n;)
                }
                ParamKind::Immediate { src, value } => {
                    let (s, v) = (
                        field_place(model, shape_record, *src),
                        field_place(model, shape_record, *value),
                    );
                    quote!((#s, #v) = immediate(#n);)
                }
                ParamKind::Fp32 {
                    field,
                    index,
                    union,
                } => {
                    let place = field_place(model, shape_record, *field);
                    let i = lit(*index);
                    let ut = ident(&model.records[union.0].rust);
                    let ctor = ident(&format!(
                        "from_{}",
                        model.records[union.0].fields[union.1].name
                    ));
                    quote!(#place[#i] = crate::#ut::#ctor(#n);)
                }
            }
        })
        .collect();
    let pins: Vec<TokenStream> = ctor
        .pins
        .iter()
        .filter(|(_, v)| *v != 0)
        .filter_map(|(p, v)| super::legality::assign_in(model, shape_record, p, *v, &quote!(crate)))
        .collect();
    let computed: Vec<TokenStream> = ctor
        .computed
        .iter()
        .filter_map(|(p, e)| computed_stmt(model, shape_record, p, e))
        .collect();
    let doc = ctor_doc(model, c, ctor) + &ctor_example(model, c, ctor);
    let docs = super::doc::attrs(&doc);
    let many = if ctor.params.len() > 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        quote!()
    };
    let body_mut = if sets.is_empty() && pins.is_empty() && computed.is_empty() {
        quote!(let f = crate::inst::#sid::ZEROED;)
    } else {
        quote!(let mut f = crate::inst::#sid::ZEROED;)
    };
    quote! {
        #docs
        #many
        pub fn #fname(#(#params),*) -> Self {
            #body_mut
            #(#sets)*
            #(#pins)*
            #(#computed)*
            Self(f)
        }
    }
}

/// Whether the typed instruction over operand struct `shape_record` gets `Default`: its all-zero
/// value must decode (an enum without a zero member, like EVENT_SEMAPHORE's, has none).
fn has_default(model: &Model, shape_record: RecordId) -> bool {
    super::ty::zero_decodable(model, &Ty::Record(shape_record))
}

fn default_impl(model: &Model, op: usize) -> TokenStream {
    let Some((name, shape_record, shape_rust)) = names(model, op) else {
        return quote!();
    };
    if !has_default(model, shape_record) {
        return quote!();
    }
    let inst = ident(&name);
    let sid = ident(&shape_rust);
    let o = &model.opcodes[op];
    let pins = model.constructions.default_pins(op);
    let stmts: Option<Vec<TokenStream>> = pins.map(|pins| {
        pins.iter()
            .filter(|(_, v)| *v != 0)
            .filter_map(|(p, v)| {
                super::legality::assign_in(model, shape_record, p, *v, &quote!(crate))
            })
            .collect()
    });
    let complete = pins.is_some_and(|p| {
        p.iter().filter(|(_, v)| *v != 0).count() == stmts.as_ref().map_or(0, Vec::len)
    });
    let (doc, stmts) = match (pins, stmts, complete) {
        (Some(p), Some(stmts), true) => {
            let listed: Vec<String> = p
                .iter()
                .filter(|(_, v)| *v != 0)
                .map(|(q, v)| {
                    format!(
                        "`{} = {}`",
                        q.name(model, shape_record),
                        value_text(model, shape_record, q, *v)
                    )
                })
                .collect();
            (
                format!(
                    " What the validator of `{}` pins whatever the other fields hold ({}), every other field zero: not a valid instruction by itself (its operands are empty). The typed constructors build valid ones; this is the base for building one field by field.",
                    o.short,
                    if listed.is_empty() { "nothing but zeros".to_string() } else { listed.join(", ") }
                ),
                stmts,
            )
        }
        _ => (
            format!(
                " Every field zero: `{}` has no validator whose pins the generator could derive.",
                o.short
            ),
            Vec::new(),
        ),
    };
    let binding = if stmts.is_empty() {
        quote!(let f = crate::inst::#sid::ZEROED;)
    } else {
        quote!(let mut f = crate::inst::#sid::ZEROED;)
    };
    quote! {
        impl Default for crate::inst::#inst {
            #[doc = #doc]
            fn default() -> Self {
                #binding
                #(#stmts)*
                Self(f)
            }
        }
    }
}

fn param_kind_tokens(model: &Model, kind: &ParamKind) -> TokenStream {
    match kind {
        ParamKind::Tensor { rank, .. } => {
            let r = lit(*rank);
            quote!(isa_core::construct::ParamKind::Tensor { rank: #r })
        }
        ParamKind::Lanes { .. } => quote!(isa_core::construct::ParamKind::Lanes),
        ParamKind::Dtype { .. } => quote!(isa_core::construct::ParamKind::Dtype),
        ParamKind::Immediate { .. } => quote!(isa_core::construct::ParamKind::Immediate),
        ParamKind::Enum { enum_id, .. } => {
            let n = &model.enums[*enum_id].c_name;
            quote!(isa_core::construct::ParamKind::Enum { name: #n })
        }
        ParamKind::Fp32 { .. } => quote!(isa_core::construct::ParamKind::Fp32),
    }
}

/// The `#[cfg]` of the items of opcode `op`: its operand shape's feature (nothing for an opcode
/// without a shape).
fn cfg_of_opcode(model: &Model, op: usize) -> TokenStream {
    model.opcodes[op]
        .shape
        .map(|s| super::cfg_for_shape(model, s))
        .unwrap_or_default()
}

fn params_const(model: &Model, c: &Construction, ctor: &Ctor) -> proc_macro2::Ident {
    ident(&format!(
        "{}_{}_PARAMS",
        model.opcodes[c.opcode].short,
        ctor.name.to_ascii_uppercase()
    ))
}

fn dispatch(model: &Model, emitted: &[(&Construction, Vec<&Ctor>)]) -> TokenStream {
    let marker = ident(&crate::model::names::camel(&model.generation));
    let mut consts = Vec::new();
    let mut infos = Vec::new();
    let mut arms = Vec::new();
    let mut tensor_ranks: Vec<(RecordId, u64)> = Vec::new();
    // The operand shapes that use each tensor argument helper, and the enum-argument helper.
    let mut tensor_users: Vec<Vec<usize>> = Vec::new();
    let mut member_users: Vec<usize> = Vec::new();
    for (c, ctors) in emitted {
        let Some((name, _, _)) = names(model, c.opcode) else {
            continue;
        };
        let inst = ident(&name);
        let cfg = cfg_of_opcode(model, c.opcode);
        let shape = model.opcodes[c.opcode].shape;
        let short = &model.opcodes[c.opcode].short;
        for ctor in ctors {
            let konst = params_const(model, c, ctor);
            let fname = &ctor.name;
            let fid = ident(fname);
            let ps = ctor.params.iter().map(|p| {
                let n = &p.name;
                let k = param_kind_tokens(model, &p.kind);
                quote!(isa_core::construct::Param { name: #n, kind: #k })
            });
            let d = format!(" Parameters of `{name}::{fname}`.");
            consts.push(quote! {
                #[doc = #d]
                #cfg
                const #konst: &[isa_core::construct::Param] = &[#(#ps),*];
            });
            infos.push(quote! {
                #cfg isa_core::construct::ConstructorInfo { instruction: #short, function: #fname, params: #konst }
            });
            let args = ctor.params.iter().map(|p| {
                let n = &p.name;
                match &p.kind {
                    ParamKind::Tensor { record, rank, .. } => {
                        let at = match tensor_ranks.iter().position(|t| *t == (*record, *rank)) {
                            Some(at) => at,
                            None => {
                                tensor_ranks.push((*record, *rank));
                                tensor_users.push(Vec::new());
                                tensor_ranks.len() - 1
                            }
                        };
                        tensor_users[at].extend(shape);
                        let r = lit(*rank);
                        let f = ident(&format!(
                            "arg_{}",
                            model.records[*record].rust.to_ascii_lowercase()
                        ));
                        quote!(#f(a.tensor::<#r>(#n)?))
                    }
                    ParamKind::Lanes { .. } => quote!(a.lanes(#n)?),
                    ParamKind::Dtype { enum_id, .. } | ParamKind::Enum { enum_id, .. } => {
                        member_users.extend(shape);
                        let t = ident(&model.enums[*enum_id].rust);
                        quote!(member::<crate::#t>(a.member(#n)?, #n)?)
                    }
                    ParamKind::Immediate { .. } => quote!(a.immediate(#n)?),
                    ParamKind::Fp32 { .. } => quote!(a.fp32(#n)?),
                }
            });
            // Without parameters the arguments are still checked (none may be given).
            let checked = if ctor.params.is_empty() {
                quote!(isa_core::construct::Args::new(args, #konst)?;)
            } else {
                quote!(let a = isa_core::construct::Args::new(args, #konst)?;)
            };
            arms.push(quote! {
                #cfg
                (#short, #fname) => {
                    #checked
                    Ok(crate::inst::#inst::#fid(#(#args),*).to_bytes())
                }
            });
        }
    }
    let tensor_fns = tensor_ranks.iter().zip(&tensor_users).map(|((r, rank), users)| {
        let cfg = super::cfg_for_users(model, users);
        let t = ident(&model.records[*r].rust);
        let f = ident(&format!("arg_{}", model.records[*r].rust.to_ascii_lowercase()));
        let n = lit(*rank);
        let rest = if model.records[*r].fields.len() == 3 {
            quote!()
        } else {
            quote!(..crate::#t::ZEROED)
        };
        let addr = match &model.records[*r].fields.iter().find(|f| f.name == "start_addr").map(|f| f.ty.clone()) {
            Some(Ty::Record(a)) => ident(&model.records[*a].rust),
            _ => ident("Addr4"),
        };
        quote! {
            /// A tensor argument as the record.
            #cfg
            fn #f((start, step_elem, num_elem): (u32, [i16; #n], [u16; #n])) -> crate::#t {
                crate::#t { start_addr: crate::#addr::from_bytes(start.to_le_bytes()), step_elem, num_elem, #rest }
            }
        }
    });
    let member_fn = if emitted
        .iter()
        .flat_map(|(_, cs)| cs.iter())
        .flat_map(|c| c.params.iter())
        .any(|p| matches!(p.kind, ParamKind::Dtype { .. } | ParamKind::Enum { .. }))
    {
        let cfg = super::cfg_for_users(model, &member_users);
        quote! {
            /// An enum argument by vendor member name.
            #cfg
            fn member<E: isa_core::VendorEnum>(name: &str, param: &'static str) -> Result<E, isa_core::construct::ConstructError> {
                E::from_vendor_name(name).ok_or(isa_core::construct::ConstructError::Member { param })
            }
        }
    } else {
        quote!()
    };
    let body = if arms.is_empty() {
        quote! {
            let _ = (instruction, function, args);
            Err(isa_core::construct::ConstructError::NoConstructor)
        }
    } else {
        quote! {
            // With every operand shape compiled out only the last arm remains.
            let _ = &args;
            match (instruction, function) {
                #(#arms)*
                _ => Err(isa_core::construct::ConstructError::NoConstructor),
            }
        }
    };
    let doc = format!(
        " The typed constructors of {}, callable by the instruction's vendor name and the function's name (each call goes to the typed constructor).",
        model.generation
    );
    quote! {
        #(#consts)*
        #(#tensor_fns)*
        #member_fn
        #[doc = #doc]
        impl isa_core::construct::Construct for crate::#marker {
            const CONSTRUCTORS: &'static [isa_core::construct::ConstructorInfo] = &[#(#infos),*];
            fn construct(
                instruction: &str,
                function: &str,
                args: &[(&str, isa_core::construct::Arg<'_>)],
            ) -> Result<[u8; 64], isa_core::construct::ConstructError> {
                #body
            }
        }
    }
}

/// `tests/constructors.rs`: every emitted constructor, with the generator's valid arguments,
/// validates on every engine the tree places its opcode on, decodes back to itself (as its type
/// and as any instruction), and is what the generation's `Construct` dispatch builds from the
/// same arguments; each typed instruction's `Default` carries its validator's pins.
pub fn test_file(model: &Model) -> Option<String> {
    let emitted = emitted_constructions(model);
    if emitted.is_empty() {
        return None;
    }
    let krate = format!("isa_{}", model.generation.to_ascii_lowercase());
    let marker = crate::model::names::camel(&model.generation);
    let mut uses: Vec<String> = vec!["Instruction".into(), marker.clone()];
    let mut tests = String::new();
    for (c, ctors) in &emitted {
        let Some((name, _, _)) = names(model, c.opcode) else {
            continue;
        };
        let short = &model.opcodes[c.opcode].short;
        for ctor in ctors {
            let (call, names, named) = example_call(model, c, ctor, "inst");
            uses.extend(names);
            let engines = engine_texts(model, ctor);
            if let Some(e) = model.engine_enum {
                uses.push(model.enums[e].rust.clone());
            }
            let placed = engines
                .iter()
                .map(|e| {
                    e.rsplit("::")
                        .next()
                        .unwrap_or_default()
                        .to_ascii_uppercase()
                })
                .collect::<Vec<_>>()
                .join(", ");
            tests.push_str(&format!(
                "\n#[test]\nfn {}_{}() -> Result<(), Box<dyn std::error::Error>> {{\n",
                short.to_ascii_lowercase(),
                ctor.name
            ));
            for l in &call {
                tests.push_str(&format!("    {l}\n"));
            }
            tests.push_str(&format!(
                "    // Valid on every engine that runs {short} ({placed}: instr_assert.h).\n"
            ));
            for e in &engines {
                tests.push_str(&format!("    inst.validate({e})?;\n"));
            }
            tests.push_str(&format!(
                "    let word = inst.to_bytes();\n    assert_eq!(word[0], {:#04x});\n    assert_eq!({name}::from_bytes(&word)?, inst);\n    assert_eq!(Instruction::decode(&word)?, Instruction::{name}(inst));\n",
                model.opcodes[c.opcode].value
            ));
            tests.push_str(&format!(
                "    // The generation-independent dispatch builds the same word from the same arguments.\n    let args = [{}];\n    assert_eq!({marker}::construct(\"{short}\", \"{}\", &args)?, word);\n    Ok(())\n}}\n",
                named.join(", "),
                ctor.name
            ));
        }
    }
    // Default carries the validator's pins (the fields that hold whatever the others do).
    let mut defaults = String::new();
    for (op, pins) in &model.constructions.defaults {
        let Some((name, shape_record, _)) = names(model, *op) else {
            continue;
        };
        if !has_default(model, shape_record) {
            continue;
        }
        let checks: Vec<String> = pins
            .iter()
            .filter(|(_, v)| *v != 0)
            .filter_map(|(p, v)| {
                let (place, union) = super::legality::place(model, shape_record, p);
                if union.is_some() {
                    return None;
                }
                let place = place.to_string().replace(' ', "").replacen('f', "d.0", 1);
                Some(match p.ty(model, shape_record) {
                    Ty::Enum(e) => {
                        let en = &model.enums[e];
                        let m = en.by_value(*v)?;
                        uses.push(en.rust.clone());
                        format!("    assert_eq!({place}, {}::{});\n", en.rust, m.rust)
                    }
                    Ty::Prim(_) => format!("    assert_eq!({place}, {v});\n"),
                    _ => return None,
                })
            })
            .collect();
        if checks.is_empty() {
            continue;
        }
        defaults.push_str(&format!("    let d = {name}::default();\n"));
        for ch in checks {
            defaults.push_str(&ch);
        }
        uses.push(name);
    }
    uses.sort();
    uses.dedup();
    let mut out = format!(
        "// @generated by isa-codegen from headers/{} (fingerprint {}). Do not edit.\n// Regenerate with `cargo run -p isa-codegen`.\n\n",
        model.tree_name,
        model.fingerprint.tree_hex()
    );
    out.push_str(&format!(
        "//! The typed constructors of {} (issue 10): each one, with arguments the generator found\n//! valid, builds an instruction the header's validator accepts on every engine the tree places\n//! its opcode on (`aws_neuron_isa_tpb_instr_assert.h`), that decodes back to itself, and that\n//! the generation's `Construct` dispatch builds from the same arguments. `Default` carries what\n//! each validator pins whatever the other fields hold.\n\n",
        model.generation
    ));
    // The test needs every operand shape it builds an instruction of.
    let mut features: Vec<String> = emitted
        .iter()
        .map(|(c, _)| c.opcode)
        .chain(model.constructions.defaults.iter().map(|(op, _)| *op))
        .filter_map(|op| model.opcodes[op].shape)
        .map(|s| format!("feature = \"{}\"", super::shape_feature(model, s)))
        .collect();
    features.sort();
    features.dedup();
    if !features.is_empty() {
        out.push_str(&format!("#![cfg(all({}))]\n\n", features.join(", ")));
    }
    out.push_str("use isa_core::construct::{Arg, Construct, TensorArg};\n");
    out.push_str(&format!("use {krate}::{{{}}};\n", uses.join(", ")));
    out.push_str(&tests);
    if !defaults.is_empty() {
        out.push_str(&format!(
            "\n#[test]\nfn default_carries_the_validator_pins() {{\n{defaults}}}\n"
        ));
    }
    Some(out)
}

/// The constructions the emitter writes, each with its writable constructors.
pub(crate) fn emitted_constructions(model: &Model) -> Vec<(&Construction, Vec<&Ctor>)> {
    model
        .constructions
        .list
        .iter()
        .filter(|c| names(model, c.opcode).is_some())
        .map(|c| (c, emitted(model, c)))
        .filter(|(_, k)| !k.is_empty())
        .collect()
}

/// Why instructions of the family have no constructor (or lack one), for the report.
pub fn notes(model: &Model) -> Vec<String> {
    let mut out = Vec::new();
    for (op, why) in &model.constructions.missing {
        out.push(format!(
            "no typed constructor for {}: {why}",
            model.opcodes[*op].short
        ));
    }
    for c in &model.constructions.list {
        for why in &c.notes {
            out.push(format!("{}: {why}", model.opcodes[c.opcode].short));
        }
        for k in &c.ctors {
            if let Err(why) = writable(model, c, k) {
                out.push(format!(
                    "{}: no `{}`: {why}",
                    model.opcodes[c.opcode].short, k.name
                ));
            }
        }
    }
    if model.placement.is_none() {
        out.push("no typed constructors for the draw family: the tree has no engine placement (`neuron_isa_check_opcode_on_engine`) to say which instructions it models".into());
    }
    out
}

/// The `construct.rs` file.
pub fn emit(model: &Model) -> Source {
    let forms = address_forms(model);
    let address = forms
        .as_ref()
        .map(|a| tensor_address(model, a))
        .unwrap_or_default();
    let helpers = if forms.is_some() {
        tensor_helpers(model)
    } else {
        quote!()
    };
    let emitted = emitted_constructions(model);
    // The operand shapes whose constructors take an immediate.
    let immediate_users: Vec<usize> = emitted
        .iter()
        .filter(|(_, k)| {
            k.iter()
                .flat_map(|k| k.params.iter())
                .any(|p| matches!(p.kind, ParamKind::Immediate { .. }))
        })
        .filter_map(|(c, _)| model.opcodes[c.opcode].shape)
        .collect();
    let imm = match immediate_forms(model) {
        Some(f) if !immediate_users.is_empty() => {
            immediate_fn(model, &f, &super::cfg_for_users(model, &immediate_users))
        }
        _ => quote!(),
    };
    let defaults = model
        .validators
        .iter()
        .map(|(op, _)| *op)
        .chain(model.unvalidated.iter().map(|(op, _)| *op))
        .map(|op| super::with_cfg(&cfg_of_opcode(model, op), default_impl(model, op)));
    let ctors = emitted.iter().map(|(c, ks)| {
        let Some((name, _, _)) = names(model, c.opcode) else {
            return quote!();
        };
        let inst = ident(&name);
        let fns = ks.iter().map(|k| constructor_fn(model, c, k));
        let cfg = cfg_of_opcode(model, c.opcode);
        quote! {
            #cfg
            impl crate::inst::#inst {
                #(#fns)*
            }
        }
    });
    let dispatch = dispatch(model, &emitted);
    Source::items(
        &super::banner(model, "typed constructors, their operands, and Default."),
        quote! {
            pub use isa_core::{AddressError, Immediate, TensorError};
            #address
            #helpers
            #imm
            #(#defaults)*
            #(#ctors)*
            #dispatch
        },
    )
}
