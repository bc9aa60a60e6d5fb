//! The generation's implementations of `isa_core::generic`: the typed layer for code generic
//! over the generation. `Typed` maps the generic operand types to this crate's, and each trait
//! of `isa_core::generic::GENERIC_CONSTRUCTORS` is implemented when the tree's constructor of
//! that instruction and name has exactly the trait's parameters (a generation without it fails
//! the bound, with the trait's message naming the generation). The checkpoint arms' blanket
//! impls are the legality module's (`emit::legality`).

use super::constructors::param_type;
use super::emitted::names;
use super::operands::tensor_records;
use crate::emit::vocab::{complete, conversions};
use crate::emit::{ident, legality};
use crate::model::construct::{Construction, Ctor, ParamKind};
use crate::model::legality::Table;
use crate::model::{EnumId, Model, OpcodeId, RecordId, ShapeId};
use isa_core::construct::ParamKind as CoreKind;
use isa_core::generic::{GenericConstructor, GENERIC_CONSTRUCTORS};
use isa_core::vocab::{Dtype, Engine, ThresholdType, VendorNames};
use proc_macro2::TokenStream;
use quote::quote;

/// What the `Typed` impl maps: the tensor records of rank 2, 3 and 4, the element-type enum, and
/// the checkpoint tables (each with its typed constructor).
pub(crate) struct TypedFacts<'a> {
    tensors: [RecordId; 3],
    dtype: EnumId,
    set: &'a Table,
    get: &'a Table,
}

/// The facts of the `Typed` impl, when the tree has them all: the address forms with `sbuf`,
/// tensors of rank 2 to 4, every vocabulary engine, a DTYPE enum, and both checkpoint
/// instructions with a `restore` and a `save`.
pub(crate) fn typed_facts(model: &Model) -> Option<TypedFacts<'_>> {
    let forms = model.address_forms.as_ref()?;
    if !forms.sbuf || !complete::<Engine>(model, model.engine_enum?) {
        return None;
    }
    let records = tensor_records(model);
    let rank = |r: u64| records.iter().find(|(_, k)| *k == r).map(|(rec, _)| *rec);
    let tensors = [rank(2)?, rank(3)?, rank(4)?];
    let dtype = model.enum_named(Dtype::VENDOR_ENUM)?;
    let (set, get) = crate::emit::generation::checkpoint_tables(model)?;
    let has = |t: &Table, c: legality::Ctor| {
        model.instruction_names[t.opcode].is_some() && legality::ctors(model, t).contains(&c)
    };
    if !has(set, legality::Ctor::Restore) || !has(get, legality::Ctor::Save) {
        return None;
    }
    Some(TypedFacts {
        tensors,
        dtype,
        set,
        get,
    })
}

/// The attribute of every item of the generic layer: both checkpoint shapes compiled, and
/// `extra` (the shape of a draw instruction).
pub(crate) fn generic_cfg(
    model: &Model,
    facts: &TypedFacts<'_>,
    extra: Option<ShapeId>,
) -> TokenStream {
    let mut shapes = vec![facts.set.shape, facts.get.shape];
    shapes.extend(extra);
    crate::emit::cfg_all_shapes(model, &shapes)
}

/// The `Typed` impl, the vocabulary conversions it and the draw traits use, and the draw
/// traits' impls.
pub(crate) fn emit(model: &Model, emitted: &[(&Construction, Vec<&Ctor>)]) -> TokenStream {
    let Some(facts) = typed_facts(model) else {
        return quote!();
    };
    let marker = ident(&crate::model::names::camel(&model.generation));
    let [t2, t3, t4] = facts.tensors.map(|r| ident(&model.records[r].rust));
    let dt = ident(&model.enums[facts.dtype].rust);
    let name_of = |t: &Table| ident(model.instruction_names[t.opcode].as_deref().unwrap_or(""));
    let (set, get) = (name_of(facts.set), name_of(facts.get));
    let dtype_fn = if complete::<Dtype>(model, facts.dtype) {
        quote!(Ok(d.into()))
    } else {
        quote!(crate::#dt::try_from(d))
    };
    let cfg = generic_cfg(model, &facts, None);
    let doc = format!(
        " {}'s typed layer for code generic over the generation: the operand types, and the checkpoint arms through `RestoreArm`, `SeedArm` and `SaveArm`.",
        model.generation
    );
    let threshold = model
        .enum_named(ThresholdType::VENDOR_ENUM)
        .map(|e| conversions::<ThresholdType>(model, e));
    let mut any_absent = false;
    let draws: Vec<TokenStream> = GENERIC_CONSTRUCTORS
        .iter()
        .map(|g| {
            draw_impl(model, &facts, emitted, g).unwrap_or_else(|| {
                any_absent = true;
                absent_impl(model, &facts, g, &absent_reason(model, g))
            })
        })
        .collect();
    let absent_word = if any_absent {
        quote! {
            #cfg
            impl From<isa_core::generic::Absent> for crate::Instruction {
                /// Never called: no `Absent` value exists.
                fn from(a: isa_core::generic::Absent) -> Self { match a {} }
            }
        }
    } else {
        quote!()
    };
    let dtypes = conversions::<Dtype>(model, facts.dtype);
    quote! {
        #dtypes
        #threshold
        #(#draws)*
        #absent_word
        #cfg
        #[doc = #doc]
        impl isa_core::generic::Typed for crate::#marker {
            type Address = crate::TensorAddress;
            type SbufAddress = crate::SbufAddress;
            type StateTensor<const N: usize, S: isa_core::space::Space> = crate::StateTensor<N, S>;
            type Tensor2d = crate::#t2;
            type Tensor3d = crate::#t3;
            type Tensor4d = crate::#t4;
            type Dtype = crate::#dt;
            type RandSetState = crate::inst::#set;
            type RandGetState = crate::inst::#get;
            fn sbuf(partition: u32, byte_offset: u32) -> Result<crate::SbufAddress, isa_core::AddressError> {
                crate::SbufAddress::new(partition, byte_offset)
            }
            fn state_tensor<const N: usize>(start: crate::SbufAddress) -> crate::StateTensor<N, isa_core::space::Sbuf> {
                start.into()
            }
            fn state_tensor_at<const N: usize>(start: crate::TensorAddress) -> crate::StateTensor<N, isa_core::space::AnySpace> {
                start.into()
            }
            fn address_word(address: impl Into<crate::TensorAddress>) -> u32 {
                address.into().raw()
            }
            fn tensor2d(start: impl Into<crate::TensorAddress>, num_elem: [u16; 2]) -> Result<crate::#t2, isa_core::TensorError> {
                crate::#t2::contiguous(start, num_elem)
            }
            fn tensor3d(start: impl Into<crate::TensorAddress>, num_elem: [u16; 3]) -> Result<crate::#t3, isa_core::TensorError> {
                crate::#t3::contiguous(start, num_elem)
            }
            fn tensor4d(start: impl Into<crate::TensorAddress>, num_elem: [u16; 4]) -> Result<crate::#t4, isa_core::TensorError> {
                crate::#t4::contiguous(start, num_elem)
            }
            fn dtype(d: isa_core::vocab::Dtype) -> Result<crate::#dt, isa_core::vocab::NoCounterpart> {
                #dtype_fn
            }
            fn engine(e: isa_core::vocab::Engine) -> <Self as isa_core::Isa>::Engine {
                e.into()
            }
        }
    }
}

/// The blanket impls of `isa_core::generic::{RestoreArm, SeedArm, SaveArm}` for the generation
/// over table `t`'s legality trait: `G: RestoreArm<(E, Gn, Al), N>` holds exactly when
/// `(E, Gn, Al, SrcTensor): LegalRandSetState<N>` does, so a generic kernel's bound that fails
/// reports that obligation with this crate's message. Only for an arm of (engine, generator,
/// algorithm), as the generic trait names it.
pub(crate) fn arms(model: &Model, t: &Table, key: &[usize]) -> TokenStream {
    let Some(facts) = typed_facts(model) else {
        return quote!();
    };
    // Only the two checkpoint instructions `Typed` names: another table with the same columns
    // (a tree with more legality tables) would implement the same traits again.
    if t.opcode != facts.set.opcode && t.opcode != facts.get.opcode {
        return quote!();
    }
    let update_col = legality::update_column(model, t, key);
    let cols: Vec<usize> = key
        .iter()
        .copied()
        .filter(|k| Some(*k) != update_col)
        .collect();
    let (Some(inst), [engine, _, _]) = (&model.instruction_names[t.opcode], cols.as_slice()) else {
        return quote!();
    };
    if Some(t.columns[*engine].enum_id) != model.engine_enum {
        return quote!();
    }
    let inst = ident(inst);
    let marker = ident(&crate::model::names::camel(&model.generation));
    let trait_id = ident(&legality::trait_name(model, t));
    let (ids, bounds): (Vec<_>, Vec<_>) = cols
        .iter()
        .map(|k| legality::type_param(model, t, *k))
        .unzip();
    let e = &ids[0];
    let (_, clashes) = legality::marker_enums(model);
    let update_marker = |short: &str| {
        let uc = update_col?;
        let m = legality::update_member(model, t, uc, short)?;
        let n = ident(&legality::marker_name(
            model,
            t.columns[uc].enum_id,
            m,
            &clashes,
        ));
        Some(quote!(crate::arm::#n))
    };
    let cfg = generic_cfg(model, &facts, None);
    let (space_bound, _) = crate::emit::state_tensor::state_space_bound(model, t);
    let impls = legality::ctors(model, t).into_iter().filter_map(|c| {
        let (tr, method, ctor, arg, arg_ty, fixed) = match c {
            legality::Ctor::Restore => ("RestoreArm", "restore_arm", "restore", "src", quote!(crate::StateTensor<N, S>), update_marker(crate::vendor::SRC_TENSOR)?),
            legality::Ctor::SeedImmediate => ("SeedArm", "seed_arm", "seed_immediate", "state", quote!([u32; N]), update_marker(crate::vendor::IMM_SINGLE)?),
            legality::Ctor::Save if update_col.is_none() => ("SaveArm", "save_arm", "save", "dst", quote!(crate::StateTensor<N, S>), quote!()),
            legality::Ctor::Save => return None,
        };
        // The tensor arms carry the state tensor's space, bounded as the constructor bounds it.
        let (space_param, space_arg, space_where) = if matches!(c, legality::Ctor::SeedImmediate) {
            (quote!(), quote!(), quote!())
        } else {
            (
                quote!(S: isa_core::space::Space,),
                quote!(, S),
                quote!(S: #space_bound,),
            )
        };
        let (tr, method, ctor, arg) = (ident(tr), ident(method), ident(ctor), ident(arg));
        let tuple = if fixed.is_empty() {
            quote!((#(#ids,)*))
        } else {
            quote!((#(#ids,)* #fixed))
        };
        Some(quote! {
            #cfg
            impl<#(#bounds,)* #space_param const N: usize> isa_core::generic::#tr<(#(#ids,)*), N #space_arg> for crate::#marker
            where #tuple: crate::legality::#trait_id<N>, #space_where
            {
                fn #method(#arg: #arg_ty, num_active_channels: u8) -> isa_core::OnEngine<crate::inst::#inst, #e> {
                    crate::inst::#inst::#ctor::<#(#ids,)* N>(#arg, num_active_channels)
                }
            }
        })
    });
    quote!(#(#impls)*)
}

/// Whether parameter `kind` of the tree is what the generic trait's `want` takes (a tensor of
/// the rank `Typed` maps, the lane count, the DTYPE enum, an immediate, or an enum the
/// vocabulary mirrors completely).
fn same_kind(model: &Model, facts: &TypedFacts<'_>, kind: &ParamKind, want: &CoreKind) -> bool {
    match (kind, want) {
        (ParamKind::Tensor { record, rank, .. }, CoreKind::Tensor { rank: r }) => {
            u64::from(*r) == *rank
                && (2..=4).contains(rank)
                && facts.tensors[(*rank - 2) as usize] == *record
        }
        (ParamKind::Lanes { .. }, CoreKind::Lanes) => true,
        (ParamKind::Dtype { enum_id, .. }, CoreKind::Dtype) => *enum_id == facts.dtype,
        (ParamKind::Immediate { .. }, CoreKind::Immediate) => true,
        (ParamKind::Fp32 { .. }, CoreKind::Fp32) => true,
        (ParamKind::Enum { enum_id, .. }, CoreKind::Enum { name }) => {
            model.enums[*enum_id].c_name == *name
                && *name == ThresholdType::VENDOR_ENUM
                && complete::<ThresholdType>(model, *enum_id)
        }
        _ => false,
    }
}

/// The impl of generic trait `g` for this generation, when its constructor has `g`'s parameters.
fn draw_impl(
    model: &Model,
    facts: &TypedFacts<'_>,
    emitted: &[(&Construction, Vec<&Ctor>)],
    g: &GenericConstructor,
) -> Option<TokenStream> {
    let (c, ctor) = emitted.iter().find_map(|(c, ks)| {
        (model.opcodes[c.opcode].short == g.instruction)
            .then(|| ks.iter().find(|k| k.name == g.function).map(|k| (*c, *k)))
            .flatten()
    })?;
    let same = ctor.params.len() == g.params.len()
        && ctor
            .params
            .iter()
            .zip(g.params)
            .all(|(p, w)| p.name == w.name && same_kind(model, facts, &p.kind, &w.kind));
    if !same {
        return None;
    }
    let (name, _, _) = names(model, c.opcode)?;
    let inst = ident(&name);
    let marker = ident(&crate::model::names::camel(&model.generation));
    let tr = ident(g.trait_name);
    let f = ident(g.function);
    let method = ident(g.method);
    let params = ctor.params.iter().map(|p| {
        let n = ident(&p.name);
        let ty = match p.kind {
            ParamKind::Enum { .. } => quote!(isa_core::vocab::ThresholdType),
            _ => param_type(model, &p.kind),
        };
        quote!(#n: #ty)
    });
    let args = ctor.params.iter().map(|p| {
        let n = ident(&p.name);
        match p.kind {
            ParamKind::Enum { .. } => quote!(#n.into()),
            _ => quote!(#n),
        }
    });
    // Compiled with both checkpoint shapes (the `Typed` impl) and the draw instruction's own.
    let cfg = generic_cfg(model, facts, model.opcodes[c.opcode].shape);
    Some(quote! {
        #cfg
        impl isa_core::generic::#tr for crate::#marker {
            type Word = crate::inst::#inst;
            fn #method(#(#params),*) -> crate::inst::#inst {
                crate::inst::#inst::#f(#(#args),*)
            }
        }
    })
}

/// Why the generation has no constructor of generic trait `g`, from the model: no such opcode,
/// no typed instruction, no construction, the construction's own note on that form, or the
/// reason the emitter could not write it.
fn absent_reason(model: &Model, g: &GenericConstructor) -> String {
    let Some(op) = model
        .opcode_entries()
        .find(|(_, o)| o.short == g.instruction)
        .map(|(id, _)| id)
    else {
        return format!("its header tree has no {} opcode", g.instruction);
    };
    if model.instruction_names[op].is_none() {
        return format!("its tree binds no operand struct to {}", g.instruction);
    }
    if let Some((_, why)) = model.constructions.missing.iter().find(|(o, _)| *o == op) {
        return format!("no typed constructor: {why}");
    }
    let Some(c) = model.constructions.list.iter().find(|c| c.opcode == op) else {
        return "no typed constructor".into();
    };
    if let Some(k) = c.ctors.iter().find(|k| k.name == g.function) {
        return match super::emitted::writable(model, c, k) {
            Err(why) => why,
            Ok(()) => format!(
                "its `{}` takes other parameters than `isa_core::generic::{}`",
                g.function, g.trait_name
            ),
        };
    }
    let tag = format!("no `{}`: ", g.function);
    c.notes
        .iter()
        .find_map(|n| n.strip_prefix(&tag))
        .map(str::to_string)
        .unwrap_or_else(|| format!("its validator admits no `{}` form", g.function))
}

/// The crate traits implemented by nothing that `emit` writes for the generic constructors this
/// generation lacks (`NoRand2Uniform`), in `GENERIC_CONSTRUCTORS` order.
pub(crate) fn absent_trait_names(model: &Model) -> Vec<String> {
    absent_constructors(model)
        .map(|g| format!("No{}", g.trait_name))
        .collect()
}

/// The constructors this generation lacks on an instruction it has (`PeManageSeed::save_seed`
/// on MAVERICK), which `emit` writes under the never-true bound, with the shape feature of
/// their instruction.
pub(crate) fn absent_inherent_names(model: &Model) -> Vec<(String, ShapeId)> {
    absent_constructors(model)
        .filter_map(|g| {
            let (_, shape, inst) = absent_inherent_target(model, g)?;
            Some((format!("{inst}::{}", g.function), shape))
        })
        .collect()
}

/// The generic constructors this generation lacks, in `GENERIC_CONSTRUCTORS` order.
fn absent_constructors(model: &Model) -> impl Iterator<Item = &'static GenericConstructor> + '_ {
    let facts = typed_facts(model);
    let emitted = super::emitted::emitted_constructions(model);
    GENERIC_CONSTRUCTORS.iter().filter(move |g| {
        facts
            .as_ref()
            .is_some_and(|f| draw_impl(model, f, &emitted, g).is_none())
    })
}

/// The instruction a lacking constructor `g` would belong to, when this generation has it:
/// its opcode, shape and type name.
fn absent_inherent_target(
    model: &Model,
    g: &GenericConstructor,
) -> Option<(OpcodeId, ShapeId, String)> {
    let (op, shape) = model
        .opcode_entries()
        .find(|(_, o)| o.short == g.instruction)
        .and_then(|(id, o)| Some((id, o.shape?)))?;
    let (name, _, _) = names(model, op)?;
    Some((op, shape, name))
}

/// The impl of generic trait `g` for a generation without its constructor: under a where clause
/// naming a trait of this crate that nothing implements, whose message says why, so a kernel
/// bounded by `g` fails with it; the word is `isa_core::generic::Absent`, which has no value.
fn absent_impl(
    model: &Model,
    facts: &TypedFacts<'_>,
    g: &GenericConstructor,
    reason: &str,
) -> TokenStream {
    let gen = &model.generation;
    let marker = ident(&crate::model::names::camel(gen));
    let tr = ident(g.trait_name);
    let never = ident(&format!("No{}", g.trait_name)); // as absent_trait_names spells it
    let method = ident(g.method);
    let message = format!("{gen} has no {} `{}`: {reason}", g.instruction, g.function);
    let label = format!("{gen} cannot build {} with `{}`", g.instruction, g.function);
    let doc = format!(
        " Implemented by nothing: why {gen} has no `isa_core::generic::{}` ({} `{}`), said where a kernel bounded by it is instantiated for {gen}.",
        g.trait_name, g.instruction, g.function
    );
    let params = g.params.iter().map(|p| {
        let n = ident(&format!("_{}", p.name));
        let ty = core_param_type(p.kind, &quote!(Self));
        quote!(#n: #ty)
    });
    let cfg = generic_cfg(model, facts, None);
    let inherent = absent_inherent(model, facts, g, &never, &message);
    let never_trait = never_trait(&never, &doc, &message, &label);
    // The bound names a lifetime of the impl, so it is not a trivially false bound (an error
    // where it is written) and rustc reports it, with its message, where it is used (a
    // higher-ranked bound would be reported without the message).
    quote! {
        #inherent
        #never_trait
        #cfg
        impl<'a> isa_core::generic::#tr for crate::#marker
        where
            &'a crate::#marker: #never,
        {
            type Word = isa_core::generic::Absent;
            fn #method(#(#params),*) -> isa_core::generic::Absent {
                <&'a crate::#marker as #never>::ABSENT
            }
        }
    }
}

/// Where the generation has the instruction but not this constructor (MAVERICK's PE_MANAGE_SEED
/// without `save_seed`), the constructor's name on the instruction under the same never-true
/// bound: `PeManageSeed::save_seed(..)` then fails with the reason, not with rustc's bare
/// "no function or associated item". Its parameters are the generic trait's.
fn absent_inherent(
    model: &Model,
    facts: &TypedFacts<'_>,
    g: &GenericConstructor,
    never: &proc_macro2::Ident,
    message: &str,
) -> TokenStream {
    let Some((_, shape, name)) = absent_inherent_target(model, g) else {
        return quote!();
    };
    let inst = ident(&name);
    let marker = ident(&crate::model::names::camel(&model.generation));
    let f = ident(g.function);
    let params = g.params.iter().map(|p| {
        let n = ident(&format!("_{}", p.name));
        let ty = core_param_type(p.kind, &quote!(crate::#marker));
        quote!(#n: #ty)
    });
    let doc = format!(" {message}. A call does not compile: rustc reports this reason.");
    let cfg = generic_cfg(model, facts, Some(shape));
    quote! {
        #cfg
        impl crate::inst::#inst {
            #[doc = #doc]
            pub fn #f<'a>(#(#params),*) -> isa_core::generic::Absent
            where
                &'a crate::#marker: #never,
            {
                <&'a crate::#marker as #never>::ABSENT
            }
        }
    }
}

/// The Rust type of a generic constructor's parameter, the generation's own types read through
/// `generation`'s `Typed` impl.
fn core_param_type(kind: CoreKind, generation: &TokenStream) -> TokenStream {
    match kind {
        CoreKind::Tensor { rank } => {
            let t = ident(&format!("Tensor{rank}d"));
            quote!(<#generation as isa_core::generic::Typed>::#t)
        }
        CoreKind::Lanes => quote!(u8),
        CoreKind::Dtype => quote!(<#generation as isa_core::generic::Typed>::Dtype),
        CoreKind::Immediate => quote!(isa_core::Immediate),
        CoreKind::Enum { .. } => quote!(isa_core::vocab::ThresholdType),
        CoreKind::Fp32 => quote!(f32),
    }
}

/// A crate trait nothing implements, whose `on_unimplemented` message says why something this
/// generation lacks is absent: an item bounded by `&'a Marker: Trait` (a lifetime of the item,
/// so the bound is not trivially false where it is written) compiles, and fails with the message
/// where it is used. Its `ABSENT` constant, of the valueless `Absent`, is what such an item
/// returns.
pub(crate) fn never_trait(
    name: &proc_macro2::Ident,
    doc: &str,
    message: &str,
    label: &str,
) -> TokenStream {
    quote! {
        #[doc = #doc]
        #[diagnostic::on_unimplemented(message = #message, label = #label)]
        pub trait #name {
            /// No value: nothing implements the trait.
            const ABSENT: isa_core::generic::Absent;
        }
    }
}
