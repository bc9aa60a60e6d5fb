//! The generation's `isa_core::construct::Construct` impl: every typed constructor callable by
//! the instruction's vendor name and the function's name, with generation-independent
//! arguments.

use super::emitted::{cfg_of_opcode, names};
use crate::emit::{ident, lit};
use crate::model::construct::{Construction, Ctor, Param, ParamKind};
use crate::model::{Model, RecordId, ShapeId, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// A parameter's kind as `isa_core::construct::ParamKind`.
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

/// The name of the `const` parameter list of constructor `ctor`.
fn params_const(model: &Model, c: &Construction, ctor: &Ctor) -> proc_macro2::Ident {
    ident(&format!(
        "{}_{}_PARAMS",
        model.opcodes[c.opcode].short,
        ctor.name.to_ascii_uppercase()
    ))
}

/// The argument helpers the dispatch arms call, with the operand shapes that use each (their
/// `#[cfg]`): one per tensor record and rank, and the enum-argument helper.
#[derive(Default)]
struct ArgHelpers {
    /// Per tensor helper: its record and rank, and its users.
    tensors: Vec<((RecordId, u64), Vec<ShapeId>)>,
    /// The users of `member`.
    member_users: Vec<ShapeId>,
}

impl ArgHelpers {
    /// The expression reading argument `p` of a constructor of operand shape `shape`, noting the
    /// helper it calls.
    fn arg(&mut self, model: &Model, p: &Param, shape: Option<ShapeId>) -> TokenStream {
        let n = &p.name;
        match &p.kind {
            ParamKind::Tensor { record, rank, .. } => {
                let at = match self
                    .tensors
                    .iter()
                    .position(|(t, _)| *t == (*record, *rank))
                {
                    Some(at) => at,
                    None => {
                        self.tensors.push(((*record, *rank), Vec::new()));
                        self.tensors.len() - 1
                    }
                };
                self.tensors[at].1.extend(shape);
                let r = lit(*rank);
                let f = ident(&format!(
                    "arg_{}",
                    model.records[*record].rust.to_ascii_lowercase()
                ));
                quote!(#f(a.tensor::<#r>(#n)?))
            }
            ParamKind::Lanes { .. } => quote!(a.lanes(#n)?),
            ParamKind::Dtype { enum_id, .. } | ParamKind::Enum { enum_id, .. } => {
                self.member_users.extend(shape);
                let t = ident(&model.enums[*enum_id].rust);
                quote!(member::<crate::#t>(a.member(#n)?, #n)?)
            }
            ParamKind::Immediate { .. } => quote!(a.immediate(#n)?),
            ParamKind::Fp32 { .. } => quote!(a.fp32(#n)?),
        }
    }

    /// The tensor helpers, and `member` when some constructor of `emitted` takes an enum.
    fn items(&self, model: &Model, emitted: &[(&Construction, Vec<&Ctor>)]) -> TokenStream {
        let tensor_fns = self.tensors.iter().map(|((r, rank), users)| {
            let cfg = crate::emit::cfg_for_users(model, users);
            let t = ident(&model.records[*r].rust);
            let f = ident(&format!("arg_{}", model.records[*r].rust.to_ascii_lowercase()));
            let n = lit(*rank);
            let rest = if model.records[*r].fields.len() == 3 {
                quote!()
            } else {
                quote!(..crate::#t::ZEROED)
            };
            let addr = match &model.records[*r]
                .fields
                .iter()
                .find(|f| f.name == crate::vendor::START_ADDR)
                .map(|f| f.ty.clone())
            {
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
            let cfg = crate::emit::cfg_for_users(model, &self.member_users);
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
        quote! {
            #(#tensor_fns)*
            #member_fn
        }
    }
}

/// The `Construct` impl of the generation, over the constructors of `emitted`: per constructor
/// its parameter list, its `ConstructorInfo` and its arm.
pub(crate) fn dispatch(model: &Model, emitted: &[(&Construction, Vec<&Ctor>)]) -> TokenStream {
    let marker = ident(&crate::model::names::camel(&model.generation));
    let mut consts = Vec::new();
    let mut infos = Vec::new();
    let mut arms = Vec::new();
    let mut helpers = ArgHelpers::default();
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
            let args: Vec<TokenStream> = ctor
                .params
                .iter()
                .map(|p| helpers.arg(model, p, shape))
                .collect();
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
    let helper_items = helpers.items(model, emitted);
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
        #helper_items
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
