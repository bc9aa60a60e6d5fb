//! Which constructions and constructors the emitter writes (a constructor whose pins, parameters
//! or computed fields cannot be written gets a note instead), and what every writer of them
//! shares: the instruction's names, its `#[cfg]`, the statements of computed fields.

use crate::ctype::Prim;
use crate::emit::ident;
use crate::model::construct::{immediate_forms, Construction, Ctor, ParamKind};
use crate::model::eval::{FieldPath, Term};
use crate::model::spec::BinOp;
use crate::model::OpcodeId;
use crate::model::{Model, RecordId, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// The name the instruction of opcode `op` has, and its operand struct.
pub(crate) fn names(model: &Model, op: OpcodeId) -> Option<(String, RecordId, String)> {
    let name = model.instruction_names[op].clone()?;
    let shape = &model.shapes[model.opcodes[op].shape?];
    Some((name, shape.record, shape.rust.clone()))
}

/// Whether the emitter can write every part of a constructor (pins, parameters, computed
/// fields); `Err` says what it cannot.
pub(crate) fn writable(model: &Model, c: &Construction, ctor: &Ctor) -> Result<(), String> {
    let (_, shape_record, _) = names(model, c.opcode).ok_or("no typed instruction")?;
    if !crate::emit::ty::zero_decodable(model, &Ty::Record(shape_record)) {
        return Err("its operand struct has no all-zero value to start from".into());
    }
    for (p, v) in &ctor.pins {
        if *v != 0
            && crate::emit::place::assign_in(model, shape_record, p, *v, &quote!(crate)).is_none()
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

/// `i128` value of a field read in a computed expression (`None`: not a plain field).
fn read_expr(model: &Model, shape_record: RecordId, p: &FieldPath) -> Option<TokenStream> {
    let (place, union) = crate::emit::place::place(model, shape_record, p);
    if union.is_some() {
        return None;
    }
    Some(match p.ty(model, shape_record) {
        Ty::Enum(e) => {
            let repr = crate::emit::ty::prim(model.enums[e].repr);
            quote!(i128::from(#repr::from(#place)))
        }
        Ty::Prim(Prim::F32 | Prim::F64) => return None,
        Ty::Prim(_) => quote!(i128::from(#place)),
        _ => return None,
    })
}

fn sym_expr(model: &Model, shape_record: RecordId, s: &Term) -> Option<TokenStream> {
    Some(match s {
        Term::Int(v) => {
            let l = proc_macro2::Literal::i128_suffixed(*v);
            quote!(#l)
        }
        Term::Read(p) => read_expr(model, shape_record, p)?,
        Term::Neg(a) => {
            let a = sym_expr(model, shape_record, a)?;
            quote!((#a).saturating_neg())
        }
        Term::Bin(op, a, b) => {
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
pub(crate) fn computed_stmt(
    model: &Model,
    shape_record: RecordId,
    p: &FieldPath,
    e: &Term,
) -> Option<TokenStream> {
    let (place, union) = crate::emit::place::place(model, shape_record, p);
    if union.is_some() {
        return None;
    }
    match p.ty(model, shape_record) {
        Ty::Enum(_) => {
            let Term::Read(q) = e else { return None };
            let (from, union) = crate::emit::place::place(model, shape_record, q);
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

/// Whether the typed instruction over operand struct `shape_record` gets `Default`: its all-zero
/// value must decode (an enum without a zero member, like EVENT_SEMAPHORE's, has none).
pub(crate) fn has_default(model: &Model, shape_record: RecordId) -> bool {
    crate::emit::ty::zero_decodable(model, &Ty::Record(shape_record))
}

/// The `#[cfg]` of the items of opcode `op`: its operand shape's feature (nothing for an opcode
/// without a shape).
pub(crate) fn cfg_of_opcode(model: &Model, op: OpcodeId) -> TokenStream {
    model.opcodes[op]
        .shape
        .map(|s| crate::emit::cfg_for_shape(model, s))
        .unwrap_or_default()
}
