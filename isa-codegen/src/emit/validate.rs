//! The `validate` module: `validate(engine)` on every typed instruction that has a
//! spec validator, and the explain pass that turns a `false` into a [`Violation`]
//! path. The explain code is the validator's call tree inlined at generation
//! time, so every field it reports is named and read relative to the instruction.
//!
//! [`Violation`]: isa_core::Violation

use super::spec::{Code, Repr, Translator};
use super::{banner, ident, render};
use crate::model::spec::{conjuncts, Expr, ExprKind, InstRoot, SpecTy};
use crate::model::{Model, Validator};
use proc_macro2::TokenStream;
use quote::quote;

/// `e` with the parameters of the function it comes from replaced by `args`.
fn subst(e: &Expr, args: &[Expr]) -> Expr {
    let kind = match &e.kind {
        ExprKind::Param(k) => return args[*k].clone(),
        ExprKind::Inst(k, root) => match args[*k].kind {
            ExprKind::Param(j) => ExprKind::Inst(j, *root),
            _ => e.kind.clone(),
        },
        ExprKind::Opcode(k) => match args[*k].kind {
            ExprKind::Param(j) => ExprKind::Opcode(j),
            _ => e.kind.clone(),
        },
        ExprKind::Field(b, r, f) => ExprKind::Field(Box::new(subst(b, args)), *r, *f),
        ExprKind::Index(b, i) => ExprKind::Index(Box::new(subst(b, args)), *i),
        ExprKind::Call(f, a) => ExprKind::Call(*f, a.iter().map(|x| subst(x, args)).collect()),
        ExprKind::IsValidEnum(en, a) => ExprKind::IsValidEnum(*en, Box::new(subst(a, args))),
        ExprKind::Not(a) => ExprKind::Not(Box::new(subst(a, args))),
        ExprKind::Neg(a) => ExprKind::Neg(Box::new(subst(a, args))),
        ExprKind::Binary(op, l, r) => {
            ExprKind::Binary(*op, Box::new(subst(l, args)), Box::new(subst(r, args)))
        }
        ExprKind::If(c, a, b) => ExprKind::If(
            Box::new(subst(c, args)),
            Box::new(subst(a, args)),
            Box::new(subst(b, args)),
        ),
        other => other.clone(),
    };
    Expr {
        kind,
        ty: e.ty.clone(),
        text: e.text.clone(),
        line: e.line,
    }
}

/// A field (or engine) the failing predicate read: its name and how to get its value.
struct Read {
    name: String,
    value: TokenStream,
    member_fn: TokenStream,
}

struct Explainer<'a> {
    model: &'a Model,
    tr: Translator<'a>,
}

impl Explainer<'_> {
    /// Name of an instruction field chain relative to the operand struct, if `e` is one.
    fn field_name(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Inst(_, root) => Some(match root {
                InstRoot::Shape(_) | InstRoot::Common => String::new(),
                InstRoot::Header => self.model.discriminator.path[0].clone(),
            }),
            ExprKind::Field(b, r, k) => {
                let base = self.field_name(b)?;
                let f = &self.model.records[*r].fields[*k].name;
                Some(if base.is_empty() {
                    f.clone()
                } else {
                    format!("{base}.{f}")
                })
            }
            ExprKind::Index(b, i) => Some(format!("{}[{i}]", self.field_name(b)?)),
            _ => None,
        }
    }

    /// Every field and enum parameter `e` reads, its calls inlined.
    fn reads(&self, e: &Expr, out: &mut Vec<Read>, depth: usize) {
        if depth > 64 {
            return;
        }
        match &e.kind {
            ExprKind::Field(..) | ExprKind::Index(..) => {
                if let Some(name) = self.field_name(e) {
                    if let Some(r) = self.read(e, name) {
                        if !out.iter().any(|x| x.name == r.name) {
                            out.push(r);
                        }
                        return;
                    }
                }
            }
            ExprKind::Param(k) => {
                if let SpecTy::Enum(_) | SpecTy::Int(_) | SpecTy::Bool = self.tr.params[*k].1 {
                    let name = self.tr.params[*k].0.clone();
                    let name = match self.tr.params[*k].1 {
                        SpecTy::Enum(en) if Some(en) == self.model.engine_enum => {
                            "engine".to_string()
                        }
                        _ => name,
                    };
                    if let Some(r) = self.read(e, name) {
                        if !out.iter().any(|x| x.name == r.name) {
                            out.push(r);
                        }
                    }
                }
                return;
            }
            ExprKind::Call(f, args) => {
                let inlined = subst(&self.model.specs[*f].body, args);
                self.reads(&inlined, out, depth + 1);
                return;
            }
            _ => {}
        }
        for c in crate::model::spec::children(e) {
            self.reads(c, out, depth + 1);
        }
    }

    fn read(&self, e: &Expr, name: String) -> Option<Read> {
        let c: Code = self.tr.expr(e);
        let t = c.operand();
        let (value, member) = match c.repr {
            Repr::Prim(crate::read::cdecl::Prim::U64) => (quote!(#t as i64), quote!(None)),
            Repr::Prim(p) if p.is_int() => (quote!(i64::from(#t)), quote!(None)),
            Repr::Prim(crate::read::cdecl::Prim::F32) => {
                (quote!(i64::from(#t.to_bits())), quote!(None))
            }
            Repr::Prim(_) => return None,
            Repr::Bool => (quote!(i64::from(#t)), quote!(None)),
            Repr::Enum(en) => {
                let ty = ident(&self.model.enums[en].rust);
                (
                    quote!(i64::from(#t.value())),
                    quote!(Some(#ty::vendor_name_of)),
                )
            }
            Repr::Value => match &e.ty {
                SpecTy::Record(r)
                    if self.model.records[*r].size <= 8
                        && self.model.records[*r].kind == crate::read::cdecl::RecordKind::Union =>
                {
                    (
                        quote!(isa_core::le::get_uint(&#t.bytes) as i64),
                        quote!(None),
                    )
                }
                _ => return None,
            },
            Repr::Wide | Repr::Literal(_) => return None,
        };
        Some(Read {
            name,
            value,
            member_fn: member,
        })
    }

    /// `return` of the violation for a failure at `path` reading the fields of `e`.
    fn leaf(&self, path: &[String], e: &Expr) -> TokenStream {
        let mut reads = Vec::new();
        self.reads(e, &mut reads, 0);
        let specs = reads.iter().map(|r| {
            let n = &r.name;
            let m = &r.member_fn;
            quote! { isa_core::FieldSpec { name: #n, member: #m } }
        });
        let mut values: Vec<TokenStream> = reads
            .iter()
            .take(isa_core::MAX_FIELDS)
            .map(|r| r.value.clone())
            .collect();
        while values.len() < isa_core::MAX_FIELDS {
            values.push(quote!(0));
        }
        quote! {
            {
                const PATH: &[&str] = &[#(#path),*];
                const FIELDS: &[isa_core::FieldSpec] = &[#(#specs),*];
                return isa_core::Violation::new(PATH, FIELDS, [#(#values),*]);
            }
        }
    }

    /// Statements that, given that `body` is false, return the violation of the failing predicate.
    fn explain(&self, body: &Expr, path: &[String], depth: usize) -> TokenStream {
        let parts = conjuncts(body);
        if depth > 32 {
            return self.leaf(path, body);
        }
        let descend = |c: &Expr| -> Option<TokenStream> {
            let ExprKind::Call(f, args) = &c.kind else {
                return None;
            };
            let callee = &self.model.specs[*f];
            if callee.ret != SpecTy::Bool {
                return None;
            }
            let mut deeper = path.to_vec();
            deeper.push(callee.name.clone());
            Some(self.explain(&subst(&callee.body, args), &deeper, depth + 1))
        };
        if parts.len() == 1 {
            // A single call: descend into it; anything else is the failing predicate itself.
            return descend(parts[0]).unwrap_or_else(|| self.leaf(path, body));
        }
        let mut out = Vec::new();
        for c in parts {
            if matches!(&c.kind, ExprKind::IsValidEnum(en, arg) if arg.ty == SpecTy::Enum(*en)) {
                continue; // decoding already guarantees it
            }
            // After inlining, a conjunct may be constant (`NeuronEngine::Pool == NeuronEngine::Pool`).
            let shape_record = self.model.shapes.first().map_or(0, |s| s.record);
            let mut ev =
                crate::model::eval::Evaluator::new(self.model, &self.model.specs, shape_record);
            match ev.constant_bool(c) {
                Some(true) => continue,
                Some(false) => {
                    let mut here = path.to_vec();
                    here.push(c.text.clone());
                    out.push(self.leaf(&here, c));
                    break;
                }
                None => {}
            }
            let test = self.tr.expr(c).tokens;
            let inner = descend(c).unwrap_or_else(|| {
                let mut here = path.to_vec();
                here.push(c.text.clone());
                self.leaf(&here, c)
            });
            out.push(quote! { if !(#test) { #inner } });
        }
        let fallback = self.leaf(path, body);
        quote! { #(#out)* #fallback }
    }
}

/// Arguments a validator's parameters receive inside `validate`.
fn validator_args(model: &Model, v: &Validator) -> Vec<TokenStream> {
    let f = &model.specs[v.func];
    let mut out = Vec::new();
    for (_, t) in &f.params {
        match t {
            SpecTy::Inst(_) => {
                out.push(quote!(Self::OPCODE));
                out.push(quote!(&self.0));
            }
            SpecTy::Enum(e) if Some(*e) == model.engine_enum => out.push(quote!(engine)),
            SpecTy::Enum(e) if Some(*e) == model.version_enum => {
                let en = &model.enums[*e];
                let t = ident(&en.rust);
                match en.by_value(i128::from(model.nc_version)) {
                    Some(m) => {
                        let v = ident(&m.rust);
                        out.push(quote!(#t::#v));
                    }
                    None => out.push(quote!(compile_error!(
                        "the core-version enum has no member for this generation"
                    ))),
                }
            }
            _ => out.push(quote!(compile_error!(
                "validator parameter without a source"
            ))),
        }
    }
    out
}

pub fn emit(model: &Model) -> String {
    let names = super::inst::instruction_names(model);
    let engine_ty = model.engine_enum.map(|e| ident(&model.enums[e].rust));
    let engine_param = match &engine_ty {
        Some(t) => quote!(engine: #t),
        None => quote!(engine: ()),
    };
    let mut items = Vec::new();
    let mut arms = Vec::new();
    for (k, o) in model.opcodes.iter().enumerate() {
        let (Some(name), Some(_)) = (&names[k], o.shape) else {
            continue;
        };
        let id = ident(name);
        let Some(v) = model.validator(k) else {
            let msg = match model.unvalidated.iter().find(|(op, _)| *op == k) {
                Some((_, why)) => format!("no spec validator for {}: {why}", o.short),
                None => format!("no spec validator for {}", o.short),
            };
            arms.push(quote! { Self::#id(_) => Err(isa_core::Violation::new(&[#msg], &[], [0; isa_core::MAX_FIELDS])), });
            continue;
        };
        arms.push(quote! { Self::#id(inst) => inst.validate(engine), });
        let f = &model.specs[v.func];
        let fname = ident(&f.name);
        let root = &f.name;
        let args = validator_args(model, v);
        let explain_name = ident(&format!(
            "explain_{}_{}",
            f.name,
            o.short.to_ascii_lowercase()
        ));
        // The explain pass runs in a function with the validator's own parameters.
        let mut sig = Vec::new();
        for (pname, t) in &f.params {
            match t {
                SpecTy::Inst(_) => {
                    let s = ident(&model.shapes[o.shape.expect("mapped")].rust);
                    sig.push(quote!(op: crate::Opcode));
                    sig.push(quote!(i: &crate::inst::#s));
                }
                other => {
                    let p = ident(pname);
                    let ty = super::spec::param_type(model, other);
                    sig.push(quote!(#p: #ty));
                }
            }
        }
        let ex = Explainer {
            model,
            tr: Translator {
                model,
                params: f.params.clone(),
                op_name: quote!(op),
                inst_name: quote!(i),
                concrete: true,
            },
        };
        let body = ex.explain(&f.body, std::slice::from_ref(&f.name), 0);
        items.push(quote! {
            #[allow(unused_variables, unreachable_code, clippy::needless_return)]
            fn #explain_name(#(#sig),*) -> isa_core::Violation {
                #body
            }
        });
        let engine_gate = match (v.implied_engine, model.engine_enum) {
            (Some(m), Some(en)) => {
                let e = &model.enums[en];
                let t = ident(&e.rust);
                let mv = ident(&e.members[m].rust);
                let pred = format!("engine == NeuronEngine::{}", e.members[m].short);
                quote! {
                    if engine != #t::#mv {
                        const PATH: &[&str] = &[#root, #pred];
                        const FIELDS: &[isa_core::FieldSpec] =
                            &[isa_core::FieldSpec { name: "engine", member: Some(#t::vendor_name_of) }];
                        return Err(isa_core::Violation::new(PATH, FIELDS, [i64::from(engine.value()), 0, 0, 0, 0, 0, 0, 0, 0, 0]));
                    }
                }
            }
            _ => quote!(let _ = engine;),
        };
        let engine_used = f
            .params
            .iter()
            .any(|(_, t)| Some(t) == model.engine_enum.map(SpecTy::Enum).as_ref());
        let engine_gate = if engine_used && v.implied_engine.is_none() {
            quote!()
        } else {
            engine_gate
        };
        let doc = format!(
            " Runs the header's validator `{}` ({}) on this instruction as executed by `engine`.{}\n\n On failure the [`isa_core::Violation`] names the predicate chain from `{}` down to the check that failed, with the fields it read.",
            f.name,
            f.loc,
            match v.implied_engine {
                Some(m) => format!(
                    " This generation's validator is written for one engine (it passes `NeuronEngine::{}`); any other engine is rejected.",
                    model.enums[model.engine_enum.expect("engine enum")].members[m].short
                ),
                None => String::new(),
            },
            f.name
        );
        items.push(quote! {
            impl crate::inst::#id {
                #[doc = #doc]
                pub fn validate(&self, #engine_param) -> Result<(), isa_core::Violation> {
                    #engine_gate
                    if crate::spec::#fname(#(#args),*) {
                        Ok(())
                    } else {
                        Err(#explain_name(#(#args),*))
                    }
                }
            }
        });
    }
    items.push(quote! {
        impl crate::inst::Instruction {
            /// Validates the instruction with its opcode's spec validator, as executed by `engine`.
            pub fn validate(&self, #engine_param) -> Result<(), isa_core::Violation> {
                let _ = &engine;
                #[allow(unreachable_patterns)]
                match self { #(#arms)* }
            }
        }
    });
    render(
        &banner(model, "validate() and the explain pass."),
        quote!(#(#items)*),
    )
}
