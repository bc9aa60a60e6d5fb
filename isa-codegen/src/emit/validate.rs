//! The `validate` module: `validate(engine)` on every typed instruction that has a
//! spec validator, and the explain pass that turns a `false` into a [`Violation`].
//!
//! The explain pass shares the structure of the translated spec: one explain function per
//! boolean spec function a validator can descend into, emitted once however many opcodes use
//! it. It takes the spec function's own arguments plus a *frame* (`&'static [Reported]`, the
//! names and sources of every value its subtree may report), re-evaluates the top-level
//! conjuncts in order and returns the same `bool` as the spec function; at the first false
//! conjunct it either descends into the callee's explain function (a conjunct that is a call,
//! passing the slice of its frame that belongs to the callee) or records the failing predicate
//! and the fields it reads (indices into its frame). The path is built on the way out (see
//! `isa_core::explain`).
//!
//! A frame's layout is fixed per function: the values its own predicates read (named relative
//! to its parameters), then one sub-frame per descended call. The frame `validate` passes is
//! that layout with every parameter bound: a static table of names relative to the operand
//! struct (`src_mem_pattern.num_elem[0]`, however many parameters the field went through) and
//! where each value sits in the word, shared by every validator with the same table.
//!
//! A [`Violation`] keeps only the rejected word and the engine, and runs the explain walk when
//! it is inspected, so it stays small.
//!
//! [`Violation`]: isa_core::Violation

use super::spec::{Code, Translator};
use super::{banner, ident, lit, Source};
use crate::model::eval::Step;
use crate::model::spec::{conjuncts, Expr, ExprKind, InstRoot, SpecFn, SpecTy};
use crate::model::EnumId;
use crate::model::{Model, RecordId, Ty, Validator};
use crate::model::{OpcodeId, ShapeId};
use crate::model::{Prim, RecordKind};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;

/// A value an explain function may report, relative to that function's parameters.
#[derive(Clone, Debug, PartialEq)]
enum Site {
    /// A field of the instruction: its access root and the steps below it, and its type.
    Inst(InstRoot, Vec<Step>, SpecTy),
    /// Parameter `p`, then `steps` into it; the type of what is read.
    Param(usize, Vec<Step>, SpecTy),
    /// Nothing to report (a parameter bound to a constant or to a computed value).
    None,
}

/// A spec expression as an access path: its root (instruction or parameter) and steps.
enum Access {
    Inst(InstRoot, Vec<Step>),
    Param(usize, Vec<Step>),
}

fn access(e: &Expr) -> Option<Access> {
    match &e.kind {
        ExprKind::Inst(_, root) => Some(Access::Inst(*root, Vec::new())),
        ExprKind::Param(k) => Some(Access::Param(*k, Vec::new())),
        ExprKind::Field(b, r, k) => {
            let mut a = access(b)?;
            match &mut a {
                Access::Inst(_, s) | Access::Param(_, s) => s.push(Step::Field(*r, *k)),
            }
            Some(a)
        }
        ExprKind::Index(b, i) => {
            let mut a = access(b)?;
            match &mut a {
                Access::Inst(_, s) | Access::Param(_, s) => s.push(Step::Index(*i)),
            }
            Some(a)
        }
        _ => None,
    }
}

/// True when a value of this type is reported (integers, booleans, floats by their bits, enums,
/// unions of at most 8 bytes read whole), as the explain pass always has.
fn readable(model: &Model, t: &SpecTy) -> bool {
    match t {
        SpecTy::Bool | SpecTy::Enum(_) => true,
        SpecTy::Int(p) => p.is_int() || *p == Prim::F32,
        SpecTy::Record(r) => {
            model.records[*r].kind == RecordKind::Union && model.records[*r].size <= 8
        }
        _ => false,
    }
}

/// One explained function: its frame layout and, per leaf predicate, the frame entries it reads.
struct Plan {
    /// The frame: direct reads first, then each descended call's frame, mapped.
    frame: Vec<Site>,
    /// Per conjunct index (or `usize::MAX` for the whole body): the range of `frame` it reads.
    leaves: BTreeMap<usize, (usize, usize)>,
    /// Per conjunct index of a descended call: the range of `frame` passed to it.
    calls: BTreeMap<usize, (usize, usize)>,
    /// The functions it descends into.
    callees: Vec<usize>,
}

const WHOLE: usize = usize::MAX;

struct Planner<'a> {
    model: &'a Model,
    /// Reads of each spec function's whole body, relative to its parameters (memo).
    reads: Vec<Option<Vec<Site>>>,
    plans: Vec<Option<Plan>>,
}

/// What an explain function does with a conjunct (or its whole body).
enum Part<'e> {
    /// Always true once decoded (`is_valid_enum` of an enum-typed value): skipped.
    Skip,
    /// A call of a boolean spec function: descend.
    Descend(usize, &'e [Expr]),
    /// A predicate of its own.
    Leaf,
}

fn part<'e>(model: &Model, e: &'e Expr) -> Part<'e> {
    match &e.kind {
        ExprKind::IsValidEnum(en, arg) if arg.ty == SpecTy::Enum(*en) => Part::Skip,
        ExprKind::Call(f, args) if model.specs[*f].ret == SpecTy::Bool => Part::Descend(*f, args),
        _ => Part::Leaf,
    }
}

/// The conjuncts an explain function walks: the top-level `&&` operands, or the whole body.
fn parts(body: &Expr) -> Vec<(usize, &Expr)> {
    let cs = conjuncts(body);
    if cs.len() == 1 {
        vec![(WHOLE, cs[0])]
    } else {
        cs.into_iter().enumerate().collect()
    }
}

fn push_unique(out: &mut Vec<Site>, s: Site) {
    if s != Site::None && !out.contains(&s) {
        out.push(s);
    }
}

impl Plan {
    /// True when the function's whole body is one predicate: its callers test it in place
    /// (`x.predicate(name, spec::f(..), frame, reads)`) instead of calling an explain function.
    fn is_predicate(&self) -> bool {
        self.leaves.contains_key(&WHOLE)
    }
}

impl<'a> Planner<'a> {
    fn new(model: &'a Model) -> Self {
        Planner {
            model,
            reads: vec![None; model.specs.len()],
            plans: (0..model.specs.len()).map(|_| None).collect(),
        }
    }

    /// What `e` (in function `f`) reads, in order, each value once: instruction fields and
    /// parameters, through the bodies of the functions it calls.
    fn reads_in(&mut self, f: &SpecFn, e: &Expr, out: &mut Vec<Site>, depth: usize) {
        if depth > 64 {
            return;
        }
        match &e.kind {
            ExprKind::Field(..) | ExprKind::Index(..) if readable(self.model, &e.ty) => {
                match access(e) {
                    Some(Access::Inst(root, steps)) => {
                        return push_unique(out, Site::Inst(root, steps, e.ty.clone()))
                    }
                    Some(Access::Param(p, steps)) => {
                        return push_unique(out, Site::Param(p, steps, e.ty.clone()))
                    }
                    None => {}
                }
            }
            ExprKind::Param(k) => {
                if readable(self.model, &f.params[*k].1) {
                    push_unique(out, Site::Param(*k, Vec::new(), f.params[*k].1.clone()));
                }
                return;
            }
            ExprKind::Call(g, args) => {
                for s in self.fn_reads(*g) {
                    match bind(&s, args) {
                        Bound::Site(s) => push_unique(out, s),
                        Bound::Expr(a) => self.reads_in(f, a, out, depth + 1),
                    }
                }
                return;
            }
            _ => {}
        }
        for c in crate::model::spec::children(e) {
            self.reads_in(f, c, out, depth + 1);
        }
    }

    fn fn_reads(&mut self, g: usize) -> Vec<Site> {
        if let Some(r) = &self.reads[g] {
            return r.clone();
        }
        self.reads[g] = Some(Vec::new()); // no recursion in the spec language; a cycle reads nothing
        let f = &self.model.specs[g];
        let mut out = Vec::new();
        self.reads_in(f, &f.body, &mut out, 0);
        self.reads[g] = Some(out.clone());
        out
    }

    /// The plan of the explain function of `g` (and of every function it descends into).
    /// Marks `g` and every function it descends into as used by operand shape `shape`.
    fn mark(&self, g: usize, shape: ShapeId, users: &mut [Vec<ShapeId>]) {
        if users[g].contains(&shape) {
            return;
        }
        users[g].push(shape);
        if let Some(p) = &self.plans[g] {
            for &h in &p.callees {
                self.mark(h, shape, users);
            }
        }
    }

    fn plan(&mut self, g: usize, depth: usize) {
        if self.plans[g].is_some() || depth > 64 {
            return;
        }
        let f = &self.model.specs[g];
        let mut frame = Vec::new();
        let mut leaves = BTreeMap::new();
        let mut descents = Vec::new();
        for (k, c) in parts(&f.body) {
            match part(self.model, c) {
                Part::Skip => {}
                Part::Descend(h, args) => descents.push((k, h, args)),
                Part::Leaf => {
                    // Each predicate's reads are a contiguous range of the frame (a value two
                    // predicates read appears twice), so a predicate reports a slice of it.
                    let mut reads = Vec::new();
                    self.reads_in(f, c, &mut reads, 0);
                    let start = frame.len();
                    frame.extend(reads);
                    leaves.insert(k, (start, frame.len()));
                }
            }
        }
        let mut calls = BTreeMap::new();
        let callees = descents.iter().map(|(_, h, _)| *h).collect();
        for (k, h, args) in descents {
            self.plan(h, depth + 1);
            let sub: Vec<Site> = self.plans[h]
                .as_ref()
                .map(|p| p.frame.clone())
                .unwrap_or_default();
            let start = frame.len();
            for s in sub {
                frame.push(match bind(&s, args) {
                    Bound::Site(s) => s,
                    // One entry names one value: a parameter bound to a computed value is not named.
                    Bound::Expr(_) => Site::None,
                });
            }
            calls.insert(k, (start, frame.len()));
        }
        self.plans[g] = Some(Plan {
            frame,
            leaves,
            calls,
            callees,
        });
    }
}

enum Bound<'e> {
    Site(Site),
    /// A parameter bound to an expression that is not an access path.
    Expr(&'e Expr),
}

/// A callee's site, seen from the caller that passes `args`.
fn bind<'e>(s: &Site, args: &'e [Expr]) -> Bound<'e> {
    match s {
        Site::Inst(..) | Site::None => Bound::Site(s.clone()),
        Site::Param(q, steps, ty) => {
            let Some(a) = args.get(*q) else {
                return Bound::Site(Site::None);
            };
            match access(a) {
                Some(Access::Inst(root, mut base)) => {
                    base.extend(steps.iter().cloned());
                    Bound::Site(Site::Inst(root, base, ty.clone()))
                }
                Some(Access::Param(p, mut base)) => {
                    base.extend(steps.iter().cloned());
                    Bound::Site(Site::Param(p, base, ty.clone()))
                }
                None if steps.is_empty() => Bound::Expr(a),
                None => Bound::Site(Site::None),
            }
        }
    }
}

/// Name of an instruction field relative to the operand struct (`src_mem_pattern.num_elem[0]`).
fn inst_name(model: &Model, root: InstRoot, steps: &[Step]) -> String {
    let mut out = match root {
        InstRoot::Shape(_) | InstRoot::Common => String::new(),
        InstRoot::Header => model.opcode_field.path[0].clone(),
    };
    for s in steps {
        match s {
            Step::Field(r, k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&model.records[*r].fields[*k].name);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The `isa_core::Reported` entry for an instruction field of the operand struct `shape_record`.
fn word_entry(
    model: &Model,
    shape_record: RecordId,
    root: InstRoot,
    steps: &[Step],
    ty: &SpecTy,
) -> TokenStream {
    let name = inst_name(model, root, steps);
    let mut offset = match root {
        InstRoot::Header => model.records[shape_record]
            .fields
            .first()
            .map_or(0, |f| f.offset),
        _ => 0,
    };
    let mut size = 0;
    let mut bits = None;
    let mut cur: Option<Ty> = None;
    for s in steps {
        match s {
            Step::Field(r, k) => {
                let f = &model.records[*r].fields[*k];
                offset += f.offset;
                size = f.size;
                bits = f.bits;
                cur = Some(f.ty.clone());
            }
            Step::Index(i) => {
                if let Some(Ty::Array(inner, _)) = &cur {
                    let elem = model.size_of(inner);
                    offset += i * elem;
                    size = elem;
                    bits = None;
                    cur = Some(inner.as_ref().clone());
                }
            }
        }
    }
    let name_lit = name.as_str();
    let (o, z) = (lit(offset), lit(size));
    let mut t = quote!(R::word(#name_lit, #o, #z));
    if let Some(b) = bits {
        let (a, w) = (lit(b.offset), lit(b.width));
        t = quote!(#t.bits(#a, #w));
    }
    t = with_kind(model, t, ty);
    t
}

fn with_kind(model: &Model, t: TokenStream, ty: &SpecTy) -> TokenStream {
    match ty {
        SpecTy::Int(p) if p.is_signed() => quote!(#t.signed()),
        SpecTy::Enum(e) => {
            let en = &model.enums[*e];
            let id = ident(&en.rust);
            let t = if en.repr.is_signed() {
                quote!(#t.signed())
            } else {
                t
            };
            quote!(#t.member(#id::vendor_name_of))
        }
        _ => t,
    }
}

/// How an explain function tests a callee whose whole body is one predicate (see `Plan::is_predicate`).
const PREDICATE_MACRO: &str =
    "/// Tests spec function `$f` in place (its whole body is one predicate): on `false`, reports
/// `$frame[$reads]` (its slice of the frame) and adds its name to the path.
#[allow(unused_macros)]
macro_rules! predicate {
    ($x:ident, $frame:ident[$reads:expr], $f:ident($($arg:expr),* $(,)?)) => {
        $x.predicate(stringify!($f), $f($($arg),*), $frame, $reads)
    };
}
";

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
            SpecTy::Enum(e) if Some(*e) == model.version_enum => out.push(version(model, *e)),
            _ => out.push(quote!(compile_error!(
                "validator parameter without a source"
            ))),
        }
    }
    out
}

fn version(model: &Model, e: EnumId) -> TokenStream {
    let en = &model.enums[e];
    let t = ident(&en.rust);
    match en.by_value(i128::from(model.nc_version)) {
        Some(m) => {
            let v = ident(&m.rust);
            quote!(#t::#v)
        }
        None => quote!(compile_error!(
            "the core-version enum has no member for this generation"
        )),
    }
}

struct Emitter<'a> {
    model: &'a Model,
    planner: Planner<'a>,
    memo: Vec<Option<bool>>,
}

impl Emitter<'_> {
    /// The explain function of spec function `g`.
    fn explain_fn(&mut self, g: usize) -> TokenStream {
        let model = self.model;
        let f = &model.specs[g];
        let plan = self.planner.plans[g].as_ref().expect("planned");
        let op_name = if super::spec::fn_reads_opcode(model, g, &mut self.memo) {
            quote!(op)
        } else {
            quote!(_op)
        };
        let tr = Translator {
            model,
            params: f.params.clone(),
            op_name: op_name.clone(),
            inst_name: quote!(i),
            concrete: matches!(f.inst_kind(), Some(crate::model::spec::InstKind::Shape(_))),
        };
        // The walk state and the frame, under names no spec parameter has.
        let fresh = |base: &str| {
            let mut name = base.to_string();
            while f.params.iter().any(|(p, _)| *p == name) {
                name.push('_');
            }
            ident(&name)
        };
        let (x, n) = (fresh("x"), fresh("n"));
        // A callee's frame: its slice of this function's.
        let range = |a: usize, b: usize| -> TokenStream {
            if a == b {
                quote!(&[])
            } else {
                let (a, b) = (lit(a as u64), lit(b as u64));
                quote!(&#n[#a..#b])
            }
        };
        // What a check or a predicate reads: the frame and a constant range, sliced by the walk
        // (a call with constant arguments; see `isa_core::Explain::check`).
        let reads_of = |a: usize, b: usize| -> TokenStream {
            let (a, b) = (lit(a as u64), lit(b as u64));
            quote!(#n, #a..#b)
        };
        // Source texts of the predicates, when there are several: a table keeps each check on
        // one line. A `static`, so that each use reads the table instead of copying a constant.
        let texts: Vec<&str> = parts(&f.body)
            .into_iter()
            .filter(|(k, c)| *k != WHOLE && matches!(part(model, c), Part::Leaf))
            .map(|(_, c)| c.text.as_str())
            .collect();
        let text_table = fresh("TEXT");
        let mut text_k = 0usize;
        let mut chain = Vec::new();
        for (k, c) in parts(&f.body) {
            match part(model, c) {
                Part::Skip => {}
                Part::Descend(h, args) => {
                    let callee = &model.specs[h];
                    let (a, b) = plan.calls[&k];
                    let sub = self.planner.plans[h].as_ref().expect("planned");
                    if sub.is_predicate() {
                        // One predicate: tested here, through the spec function.
                        let call = tr.expr(c).tokens;
                        let (a, b) = (lit(a as u64), lit(b as u64));
                        chain.push(quote!(predicate!(#x, #n[#a..#b], #call)));
                        continue;
                    }
                    let frame = range(a, b);
                    let name = ident(&format!("explain_{}", callee.name));
                    let mut toks = Vec::new();
                    for (a, (_, pt)) in args.iter().zip(&callee.params) {
                        if let SpecTy::Inst(_) = pt {
                            toks.push(op_name.clone());
                            toks.push(quote!(i));
                        } else {
                            let code: Code = tr.expr(a);
                            toks.push(tr.arg(&code, pt));
                        }
                    }
                    chain.push(quote!(#name(#x, #frame #(, #toks)*)));
                }
                Part::Leaf => {
                    let (a, b) = plan.leaves[&k];
                    let reads = reads_of(a, b);
                    // A conjunct that reads nothing and is constant needs no evaluation.
                    let mut ev = crate::model::eval::Evaluator::new(
                        model,
                        &model.specs,
                        model
                            .shapes
                            .first()
                            .map_or(RecordId::default(), |s| s.record),
                    );
                    let constant = ev.constant_bool(c);
                    if k == WHOLE {
                        // The function is one predicate (only a validator gets an explain function then).
                        let test = match constant {
                            Some(b) => quote!(#b),
                            None => {
                                let args = super::spec::param_names(model, f, &mut self.memo, g);
                                let fname = ident(&f.name);
                                quote!(crate::spec::#fname(#(#args),*))
                            }
                        };
                        let fname = &f.name;
                        return self.finish(g, quote!(#x.predicate(#fname, #test, #reads)), &x, &n);
                    }
                    let test = match constant {
                        Some(true) => {
                            text_k += 1;
                            continue;
                        }
                        Some(false) => quote!(false),
                        None => tr.expr(c).tokens,
                    };
                    let text = if texts.len() > 1 {
                        let i = lit(text_k as u64);
                        quote!(#text_table[#i])
                    } else {
                        let t = &c.text;
                        quote!(#t)
                    };
                    text_k += 1;
                    chain.push(quote!(#x.check(#test, #reads, #text)));
                }
            }
        }
        let table = if texts.len() > 1 {
            let count = lit(texts.len() as u64);
            quote! { static #text_table: [&str; #count] = [#(#texts),*]; }
        } else {
            quote!()
        };
        let fname = &f.name;
        let body = if chain.is_empty() {
            quote!(true)
        } else {
            quote!(#(#chain)&&*)
        };
        self.finish(
            g,
            quote! {
                #table
                let ok = #body;
                #x.leave(#fname, ok)
            },
            &x,
            &n,
        )
    }

    /// The explain function of `g` with body `body`.
    fn finish(
        &mut self,
        g: usize,
        body: TokenStream,
        x: &proc_macro2::Ident,
        n: &proc_macro2::Ident,
    ) -> TokenStream {
        let model = self.model;
        let f = &model.specs[g];
        let (generics, params) = super::spec::signature(model, f, &mut self.memo, g);
        let name = ident(&format!("explain_{}", f.name));
        let allow = super::allow_vendor_fn_case(&f.name);
        quote! {
            #allow
            fn #name #generics (#x: &mut isa_core::Explain, #n: &'static [R], #(#params),*) -> bool {
                #body
            }
        }
    }

    /// The frame `validate` passes to validator `v` of an instruction of shape `shape_record`.
    fn frame_table(&self, v: &Validator, shape_record: RecordId) -> Vec<TokenStream> {
        let model = self.model;
        let f = &model.specs[v.func];
        let plan = self.planner.plans[v.func].as_ref().expect("planned");
        // Arguments besides the instruction, in parameter order.
        let arg_of = |p: usize| -> Option<u8> {
            let k = f.params[..p]
                .iter()
                .filter(|(_, t)| !matches!(t, SpecTy::Inst(_)))
                .count();
            u8::try_from(k).ok()
        };
        plan.frame
            .iter()
            .map(|s| match s {
                Site::Inst(root, steps, ty) => word_entry(model, shape_record, *root, steps, ty),
                Site::Param(p, steps, ty) if steps.is_empty() => {
                    let (pname, pty) = &f.params[*p];
                    let name = match pty {
                        SpecTy::Enum(e) if Some(*e) == model.engine_enum => "engine".to_string(),
                        _ => pname.clone(),
                    };
                    match arg_of(*p) {
                        Some(k) => {
                            let k = lit(k);
                            with_kind(model, quote!(R::arg(#name, #k)), ty)
                        }
                        None => quote!(R::NONE),
                    }
                }
                _ => quote!(R::NONE),
            })
            .collect()
    }
}

/// `if <rejects> { return Err(..) }`: a static [`isa_core::Violation`] with the path
/// `[function, predicate]` that reports the engine (type `engine_ty`) by its vendor name.
fn engine_rejected(
    rejects: TokenStream,
    engine_ty: &proc_macro2::Ident,
    function: &str,
    predicate: &str,
) -> TokenStream {
    quote! {
        if #rejects {
            const PATH: &[&str] = &[#function, #predicate];
            const FIELDS: &[isa_core::FieldSpec] =
                &[isa_core::FieldSpec { name: "engine", member: Some(#engine_ty::vendor_name_of) }];
            return Err(isa_core::Violation::new(PATH, FIELDS, [i64::from(engine.value()), 0, 0, 0, 0, 0, 0, 0, 0, 0]));
        }
    }
}

/// The engine-placement check of opcode `op` (`validate` runs it first): an engine the tree's
/// placement does not run the opcode on is a [`isa_core::Violation`] naming the rule and the
/// engine. Nothing for an opcode the placement puts on no engine (not placed, not checked).
fn placement_gate(model: &Model, op: OpcodeId) -> TokenStream {
    let (Some(p), Some(en)) = (&model.placement, model.engine_enum) else {
        return quote!();
    };
    let Some(engines) = p.engines.get(op).filter(|e| !e.is_empty()) else {
        return quote!();
    };
    let e = &model.enums[en];
    let t = ident(&e.rust);
    let o = &model.opcodes[op];
    let v = ident(&o.rust);
    let rule = crate::vendor::PLACEMENT_FN;
    let names: Vec<&str> = engines
        .iter()
        .map(|m| e.members[*m].short.as_str())
        .collect();
    let pred = format!("{} runs on {}", o.short, names.join(", "));
    engine_rejected(
        quote!(crate::Opcode::#v.runs_on(engine) == Some(false)),
        &t,
        rule,
        &pred,
    )
}

pub fn emit(model: &Model) -> Source {
    let names = &model.instruction_names;
    let engine_ty = model.engine_enum.map(|e| ident(&model.enums[e].rust));
    let engine_param = match &engine_ty {
        Some(t) => quote!(engine: #t),
        None => quote!(engine: ()),
    };
    let mut em = Emitter {
        model,
        planner: Planner::new(model),
        memo: vec![None; model.specs.len()],
    };
    for (_, v) in &model.validators {
        em.planner.plan(v.func, 0);
    }
    // The operand shapes that reach each explain function (its feature attribute).
    let mut users: Vec<Vec<ShapeId>> = vec![Vec::new(); model.specs.len()];
    for (op, v) in &model.validators {
        if let (Some(s), Some(_)) = (model.opcodes[*op].shape, &names[*op]) {
            em.planner.mark(v.func, s, &mut users);
        }
    }
    let mut items = Vec::new();
    let mut frames = Frames::default();
    let mut arms = Vec::new();
    for (k, o) in model.opcode_entries() {
        let (Some(name), Some(shape)) = (&names[k], o.shape) else {
            continue;
        };
        let id = ident(name);
        let cfg = super::cfg_for_shape(model, shape);
        let Some(v) = model.validator(k) else {
            let msg = match model.unvalidated.iter().find(|(op, _)| *op == k) {
                Some((_, why)) => format!("no spec validator for {}: {why}", o.short),
                None => format!("no spec validator for {}", o.short),
            };
            let gate = placement_gate(model, k);
            arms.push(quote! { #cfg Self::#id(_) => { #gate Err(isa_core::Violation::new(&[#msg], &[], [0; isa_core::MAX_FIELDS])) } });
            continue;
        };
        arms.push(quote! { #cfg Self::#id(ref inst) => inst.validate(engine), });
        let entries = em.frame_table(v, model.shapes[shape].record);
        let table = frames.name_of(model, entries, v, k, shape);
        let (trace, kept, trace_item) = trace_fn(model, v, k, &id, &cfg, &table);
        items.push(trace_item);
        items.push(validate_fn(
            model,
            v,
            k,
            &id,
            &cfg,
            &engine_param,
            &trace,
            &kept,
        ));
    }
    // Explain functions, once each, in spec order.
    let mut fns = Vec::new();
    let validator_fns: Vec<usize> = model.validators.iter().map(|(_, v)| v.func).collect();
    for (g, used_by) in users.iter().enumerate() {
        let Some(plan) = &em.planner.plans[g] else {
            continue;
        };
        if !used_by.is_empty() && (!plan.is_predicate() || validator_fns.contains(&g)) {
            let cfg = super::cfg_for_users(model, used_by);
            let f = em.explain_fn(g);
            fns.push(quote!(#cfg #f));
        }
    }
    let table_items = frames.statics(model);
    items.push(quote! {
        impl crate::inst::Instruction {
            /// Validates the instruction with its opcode's spec validator, as executed by `engine`.
            #[inline]
            pub fn validate(&self, #engine_param) -> Result<(), isa_core::Violation> {
                let _ = &engine;
                #[allow(unreachable_patterns)]
                match *self { #(#arms)* }
            }
        }
    });
    Source::items(
        &format!(
            "{}{PREDICATE_MACRO}",
            banner(model, "validate() and the explain pass.")
        ),
        quote! {
            #[allow(unused_imports)]
            use isa_core::Reported as R;
            #(#table_items)*
            #(#items)*
            #(#fns)*
        },
    )
}

/// The frames `validate` passes to the explain pass, one `static` per distinct table, shared by
/// every validator with the same one.
#[derive(Default)]
struct Frames {
    /// Per frame: its entries' text, its name, and the operand shapes whose validators pass it.
    tables: Vec<(Vec<String>, String, Vec<ShapeId>)>,
    /// Per frame, in the same order: its `static`.
    items: Vec<TokenStream>,
}

impl Frames {
    /// The name of the frame holding `entries` for validator `v` of opcode `op` (operand shape
    /// `shape`): an existing frame with the same entries, or a new one.
    fn name_of(
        &mut self,
        model: &Model,
        entries: Vec<TokenStream>,
        v: &Validator,
        op: OpcodeId,
        shape: ShapeId,
    ) -> proc_macro2::Ident {
        let f = &model.specs[v.func];
        let key: Vec<String> = entries.iter().map(|t| t.to_string()).collect();
        if let Some((_, name, users)) = self.tables.iter_mut().find(|(k, ..)| *k == key) {
            users.push(shape);
            return ident(name);
        }
        let mut name = format!("FRAME_{}", f.name.to_ascii_uppercase());
        if self.tables.iter().any(|(_, n, _)| *n == name) {
            name = format!("{name}_{}", model.opcodes[op].short);
        }
        let id = ident(&name);
        let n = lit(entries.len() as u64);
        let d = format!(
            " What `{}` (and every validator with the same table) may report: names relative to the operand struct, and where each value is.",
            f.name
        );
        self.items.push(quote! {
            #[doc = #d]
            static #id: [R; #n] = [#(#entries),*];
        });
        self.tables.push((key, name, vec![shape]));
        id
    }

    /// The `static`s, each compiled with the operand shapes that pass it.
    fn statics(self, model: &Model) -> Vec<TokenStream> {
        self.items
            .into_iter()
            .zip(&self.tables)
            .map(|(t, (_, _, users))| {
                let cfg = super::cfg_for_users(model, users);
                quote!(#cfg #t)
            })
            .collect()
    }
}

/// The trace function of validator `v` of opcode `op` (typed instruction `id`): it decodes the
/// rejected word and the arguments the violation kept, and runs the explain function with the
/// frame `table`. Returns its name, the kept arguments (as `validate` stores them), and the item.
fn trace_fn(
    model: &Model,
    v: &Validator,
    op: OpcodeId,
    id: &proc_macro2::Ident,
    cfg: &TokenStream,
    table: &proc_macro2::Ident,
) -> (proc_macro2::Ident, Vec<TokenStream>, TokenStream) {
    let o = &model.opcodes[op];
    let f = &model.specs[v.func];
    // The arguments besides the instruction, as the violation keeps them, and back.
    let mut kept = Vec::new();
    let mut back = Vec::new();
    let mut bindings = Vec::new();
    for (pname, t) in &f.params {
        match t {
            SpecTy::Inst(_) => {
                let op = ident(&o.rust);
                bindings.push(quote!(crate::Opcode::#op));
                bindings.push(quote!(&inst.0));
            }
            SpecTy::Enum(e) => {
                let en = &model.enums[*e];
                let ty = ident(&en.rust);
                let repr = super::ty::prim(en.repr);
                let p = ident(pname);
                let k = kept.len();
                if Some(*e) == model.engine_enum {
                    kept.push(quote!(engine.value() as i64));
                    let k = lit(k as u64);
                    back.push(quote!(#ty::from_value(x.arg(#k) as #repr)));
                } else {
                    let v = version(model, *e);
                    kept.push(quote!(#v.value() as i64));
                    back.push(quote!(Some(#v)));
                }
                bindings.push(quote!(#p));
            }
            _ => bindings.push(quote!(compile_error!(
                "validator parameter without a source"
            ))),
        }
    }
    let enum_params: Vec<proc_macro2::Ident> = f
        .params
        .iter()
        .filter(|(_, t)| matches!(t, SpecTy::Enum(_)))
        .map(|(n, _)| ident(n))
        .collect();
    let explain = ident(&format!("explain_{}", f.name));
    let trace = ident(&format!("trace_{}", o.short.to_ascii_lowercase()));
    let item = quote! {
        #cfg
        fn #trace(x: &mut isa_core::Explain) {
            if let (Ok(inst), #(Some(#enum_params),)*) = (crate::inst::#id::from_bytes(x.word()), #(#back,)*) {
                #explain(x, &#table, #(#bindings),*);
            }
        }
    };
    (trace, kept, item)
}

/// `validate(engine)` on the typed instruction `id` of opcode `op`: the placement and engine
/// gates, then validator `v`; a failure keeps the word and the arguments `kept` for `trace`.
#[allow(clippy::too_many_arguments)]
fn validate_fn(
    model: &Model,
    v: &Validator,
    op: OpcodeId,
    id: &proc_macro2::Ident,
    cfg: &TokenStream,
    engine_param: &TokenStream,
    trace: &proc_macro2::Ident,
    kept: &[TokenStream],
) -> TokenStream {
    let o = &model.opcodes[op];
    let f = &model.specs[v.func];
    let fname = ident(&f.name);
    let root = &f.name;
    let args = validator_args(model, v);
    let engine_gate = match (v.implied_engine, model.engine_enum) {
        (Some(m), Some(en)) => {
            let e = &model.enums[en];
            let t = ident(&e.rust);
            let mv = ident(&e.members[m].rust);
            let pred = format!("engine == NeuronEngine::{}", e.members[m].short);
            engine_rejected(quote!(engine != #t::#mv), &t, root, &pred)
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
    let placed = placement_gate(model, op);
    let placed_doc = match (&model.placement, model.engine_enum) {
        (Some(p), Some(_)) if !placed.is_empty() => format!(
            " An engine that the tree's placement (`{}`, {}) does not run {} on is rejected first.",
            crate::vendor::PLACEMENT_FN,
            p.loc,
            o.short
        ),
        _ => String::new(),
    };
    let doc = format!(
        " Runs the header's validator `{}` ({}) on this instruction as executed by `engine`.{}{placed_doc}\n\n On failure the [`isa_core::Violation`] names the predicate chain from `{}` down to the check that failed, with the fields it read.",
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
    quote! {
        #cfg
        impl crate::inst::#id {
            #[doc = #doc]
            #[inline]
            pub fn validate(&self, #engine_param) -> Result<(), isa_core::Violation> {
                #placed
                #engine_gate
                if crate::spec::#fname(#(#args),*) {
                    Ok(())
                } else {
                    Err(isa_core::Violation::traced(self.to_bytes(), &[#(#kept),*], #trace))
                }
            }
        }
    }
}
