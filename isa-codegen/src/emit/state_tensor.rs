//! `StateTensor<N, S>`, the checkpoint instructions' state operand, for the `legality` module:
//! its helpers, the memory its validator allows it (`Model::operand_spaces`), and the trait that
//! keeps an SBUF-only state tensor out of PSUM at compile time.

use super::ident;
use crate::model::eval::{FieldPath, Root, Term};
use crate::model::legality::Table;
use crate::model::{Model, RecordId, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// Which helpers `StateTensor` has: `at(addr)` (its start address is a union with a `u32`
/// `addr_immediate` member) and `sbuf(partition, byte_offset)` (also the SBUF constants).
pub(crate) fn state_tensor_helpers(model: &Model) -> (bool, bool) {
    let at = state_tensor_addr(model).is_some_and(|addr| {
        model.records[addr].fields.iter().any(|f| {
            f.name == crate::vendor::ADDR_IMMEDIATE && f.ty == Ty::Prim(crate::model::Prim::U32)
        })
    });
    let consts = model.constant(crate::vendor::STATE_BUF_OFFSET).is_some()
        && model
            .constant(crate::vendor::STATE_BUF_PARTITION_SIZE)
            .is_some();
    let checked = model
        .address_forms
        .as_ref()
        .is_some_and(|a| a.sbuf && state_tensor_addr(model) == Some(a.union));
    (at, at && consts && checked)
}

/// The address record of `StateTensor<N>`'s `start_addr`: the `start_addr` of the tensor the
/// first table that binds one binds (no `StateTensor` without it).
pub(crate) fn state_tensor_addr(model: &Model) -> Option<RecordId> {
    let (t, b) = model
        .tables
        .iter()
        .find_map(|t| tensor_binding(model, t).map(|b| (t, b)))?;
    let Ty::Record(r) = b.tensor.ty(model, model.shapes[t.shape].record) else {
        return None;
    };
    let start = model.records[r]
        .fields
        .iter()
        .find(|f| f.name == crate::vendor::START_ADDR)?;
    match start.ty {
        Ty::Record(addr) => Some(addr),
        _ => None,
    }
}

/// The `StateTensor<N, S>` argument of the typed constructors, when a table binds a tensor.
pub(crate) fn state_tensor(model: &Model) -> TokenStream {
    let Some(addr) = state_tensor_addr(model) else {
        return quote!();
    };
    let addr_ty = ident(&model.records[addr].rust);
    let (has_imm, has_sbuf) = state_tensor_helpers(model);
    let at = if has_imm {
        quote! {
            impl<const N: usize> StateTensor<N, isa_core::space::AnySpace> {
                /// The tensor at immediate address `addr`, words contiguous (`step` 1). A raw
                /// address proves no memory, so the tensor is `AnySpace`: an operand the
                /// validator allows in SBUF only does not take it (a raw word for one goes
                /// through the instruction's fields, `from_fields` or `from_bytes`, where
                /// `validate` judges the address).
                pub fn at(addr: u32) -> Self {
                    Self { start_addr: crate::#addr_ty::from_addr_immediate(addr), step: 1, space: core::marker::PhantomData }
                }
            }
        }
    } else {
        quote!()
    };
    let checked = matches!(&model.address_forms, Some(a) if a.union == addr);
    let sbuf = if has_sbuf {
        quote! {
            impl<const N: usize> StateTensor<N, isa_core::space::Sbuf> {
                /// The tensor starting at SBUF partition `partition`, byte `byte_offset` of it,
                /// words contiguous, checked as `TensorAddress::sbuf` checks (one error type,
                /// `AddressError`).
                pub fn sbuf(partition: u32, byte_offset: u32) -> Result<Self, isa_core::AddressError> {
                    Ok(Self::from(crate::TensorAddress::sbuf(partition, byte_offset)?))
                }
            }
            impl<const N: usize> From<crate::SbufAddress> for StateTensor<N, isa_core::space::Sbuf> {
                /// The state tensor at a checked SBUF address, words contiguous.
                fn from(a: crate::SbufAddress) -> Self {
                    Self { start_addr: a.address().addr4(), step: 1, space: core::marker::PhantomData }
                }
            }
            impl<const N: usize> From<StateTensor<N, isa_core::space::Sbuf>> for StateTensor<N, isa_core::space::AnySpace> {
                /// The same tensor, no longer claiming SBUF.
                fn from(t: StateTensor<N, isa_core::space::Sbuf>) -> Self {
                    Self { start_addr: t.start_addr, step: t.step, space: core::marker::PhantomData }
                }
            }
        }
    } else {
        quote!()
    };
    let from_address = if checked {
        quote! {
            impl<const N: usize> From<crate::TensorAddress> for StateTensor<N, isa_core::space::AnySpace> {
                /// The state tensor at an address in either memory, words contiguous.
                fn from(a: crate::TensorAddress) -> Self {
                    Self { start_addr: a.addr4(), step: 1, space: core::marker::PhantomData }
                }
            }
        }
    } else {
        quote!()
    };
    let doc = format!(
        " Where a checkpoint instruction reads or writes its state: per partition, `N` u32 words starting at `start_addr`, `step` elements apart. The partition count is the instruction's `num_active_channels`; `N` is checked against the arm at compile time. `S` is what the tensor proves about its memory (`isa_core::space`): `Sbuf` from `StateTensor::sbuf` or an `SbufAddress`, `AnySpace` from a `TensorAddress` or a raw address.{}",
        state_space_doc(model)
    );
    quote! {
        #from_address
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct StateTensor<const N: usize, S = isa_core::space::Sbuf> {
            /// Start address (partition and byte offset, or an address register).
            pub start_addr: crate::#addr_ty,
            /// Element stride between state words.
            pub step: i16,
            space: core::marker::PhantomData<S>,
        }
        impl<const N: usize, S> StateTensor<N, S> {
            /// State words per partition.
            pub const WORDS: usize = N;
            /// The same tensor with another element stride.
            pub fn with_step(self, step: i16) -> Self { Self { step, ..self } }
        }
        #at
        #sbuf
    }
}

/// The memories the validator allows table `t`'s state tensor (from [`Model::operand_space`]).
pub(crate) fn state_space(model: &Model, t: &Table) -> Option<isa_core::Spaces> {
    let b = tensor_binding(model, t)?;
    let Some(crate::model::eval::Step::Field(_, field)) = b.tensor.steps.first() else {
        return None;
    };
    model.operand_space(t.opcode, *field)
}

/// The state tensor's field name of table `t` (`src_mem_pattern`).
fn state_field_name(model: &Model, t: &Table) -> Option<String> {
    let b = tensor_binding(model, t)?;
    Some(b.tensor.name(model, model.shapes[t.shape].record))
}

/// The sentences of `StateTensor`'s rustdoc naming, per checkpoint instruction, the memories
/// its validator allows the state tensor.
fn state_space_doc(model: &Model) -> String {
    model
        .tables
        .iter()
        .filter_map(|t| {
            let spaces = state_space(model, t)?;
            let field = state_field_name(model, t)?;
            Some(format!(
                " On {}, `{}`'s `{field}` is {spaces}{}.",
                model.generation,
                model.opcodes[t.opcode].short,
                if spaces.psum {
                    ""
                } else {
                    ": the tensor must be in SBUF (`StateTensor<N, Sbuf>`)"
                },
            ))
        })
        .collect()
}

/// The trait a state tensor's space must implement where table `t`'s validator allows the
/// tensor SBUF only: its name and its item (a `#[diagnostic::on_unimplemented]` message naming
/// the generation, the instruction and the operand, implemented for `isa_core::space::Sbuf`
/// alone). `None` where the validator allows PSUM too.
pub(crate) fn sbuf_only_trait(
    model: &Model,
    t: &Table,
) -> Option<(proc_macro2::Ident, TokenStream)> {
    let spaces = state_space(model, t)?;
    if spaces.psum || !spaces.sbuf {
        return None;
    }
    let inst = model.instruction_names[t.opcode].as_deref()?;
    let field = state_field_name(model, t)?;
    let short = &model.opcodes[t.opcode].short;
    let gen = &model.generation;
    let operand = field
        .strip_suffix(crate::vendor::TENSOR_SUFFIX)
        .unwrap_or(&field);
    let name = ident(&format!(
        "{inst}{}InSbuf",
        crate::model::names::camel(operand)
    ));
    let message = format!(
        "{short}'s `{field}` on {gen} is SBUF only: a `StateTensor<N, {{Self}}>` may lie in PSUM"
    );
    let label = format!("SBUF only on {gen}");
    let note = format!(
        "the validator of {short} passes `{field}` AllowedInSBUF::True, AllowedInPSUM::False; build the tensor with `StateTensor::sbuf(partition, byte_offset)?` or from an `SbufAddress`"
    );
    let doc = format!(
        " The state tensors {short} on {gen} takes as `{field}`: SBUF only, so `isa_core::space::Sbuf` alone."
    );
    let cfg = super::cfg_for_shape(model, t.shape);
    Some((
        name.clone(),
        quote! {
            #cfg
            #[doc = #doc]
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            pub trait #name: isa_core::space::Space {}
            #cfg
            impl #name for isa_core::space::Sbuf {}
        },
    ))
}

/// The bound of the space of table `t`'s state tensor argument ([`sbuf_only_trait`] where the
/// validator allows it SBUF only, any `isa_core::space::Space` otherwise) and the paragraph
/// the constructor's rustdoc gives it.
pub(crate) fn state_space_bound(model: &Model, t: &Table) -> (TokenStream, String) {
    let field = state_field_name(model, t).unwrap_or_default();
    match (sbuf_only_trait(model, t), state_space(model, t)) {
        (Some((name, _)), _) => (
            quote!(crate::legality::#name),
            format!("\n\n The state tensor must be in SBUF: the validator allows `{field}` SBUF only, so it takes a `StateTensor<N, Sbuf>` (`StateTensor::sbuf`, or `StateTensor::from` an `SbufAddress`), and one that may lie in PSUM does not compile (`{name}`)."),
        ),
        (None, Some(spaces)) => (
            quote!(isa_core::space::Space),
            format!("\n\n The validator allows `{field}` {spaces}, so the state tensor may be of either space; conjuncts of the validator that depend on the engine, not on the tensor's type, are checked at run time, by `validate()`."),
        ),
        (None, None) => (quote!(isa_core::space::Space), String::new()),
    }
}

/// The state tensor a table's element count constrains, and the paths of its counts.
pub(crate) struct TensorBinding {
    /// FieldPath to the tensor record.
    pub(crate) tensor: FieldPath,
    /// Rank of the descriptor.
    pub(crate) rank: u64,
}

fn count_reads(s: &Term, out: &mut Vec<FieldPath>) {
    match s {
        Term::Read(p) => out.push(p.clone()),
        Term::Bin(_, a, b) => {
            count_reads(a, out);
            count_reads(b, out);
        }
        _ => {}
    }
}

pub(crate) fn tensor_binding(model: &Model, t: &Table) -> Option<TensorBinding> {
    let arm = t.arms.first()?;
    let mut reads = Vec::new();
    count_reads(&arm.count, &mut reads);
    let first = reads.first()?;
    // `<tensor>.num_elem[k]`: drop the index and the field.
    if first.steps.len() < 3 {
        return None;
    }
    let tensor = FieldPath {
        root: Root::Shape,
        steps: first.steps[..first.steps.len() - 2].to_vec(),
    };
    let shape_record = model.shapes[t.shape].record;
    let Ty::Record(r) = tensor.ty(model, shape_record) else {
        return None;
    };
    let rec = &model.records[r];
    let field = |n: &str| rec.fields.iter().find(|f| f.name == n);
    // The constructors write the start address too.
    field(crate::vendor::START_ADDR)?;
    let (step, num) = (
        field(crate::vendor::STEP_ELEM)?,
        field(crate::vendor::NUM_ELEM)?,
    );
    let rank = match (&step.ty, &num.ty) {
        (Ty::Array(_, a), Ty::Array(_, b)) if a == b => *a,
        _ => return None,
    };
    // Every count read must be a num_elem of that tensor.
    if !reads.iter().all(|p| {
        p.steps.len() == tensor.steps.len() + 2 && p.steps[..tensor.steps.len()] == tensor.steps[..]
    }) {
        return None;
    }
    Some(TensorBinding { tensor, rank })
}
