//! The `spec` module: every `// fn` spec block translated into a Rust function of
//! the same name, over the typed instructions. Names were resolved by the model;
//! here they only become Rust paths.

use super::{banner, doc, ident, lit, Source};
use crate::model::names::rust_field;
use crate::model::spec::{children, BinOp, Expr, ExprKind, InstKind, InstRoot, SpecFn, SpecTy};
use crate::model::EnumId;
use crate::model::ShapeId;
use crate::model::{Model, RecordId, Ty};
use crate::model::{Prim, RecordKind};
use proc_macro2::TokenStream;
use quote::quote;

/// Spec blocks up to this many lines are copied into the function's documentation.
const SOURCE_DOC_LINES: usize = 8;

/// How a translated expression is represented in Rust.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Repr {
    /// `bool`.
    Bool,
    /// A value of this Rust integer type.
    Prim(Prim),
    /// An `i128` (spec arithmetic).
    Wide,
    /// An integer literal (fits wherever its value fits).
    Literal(i128),
    /// A typed enum.
    Enum(EnumId),
    /// A struct, union or array value.
    Value,
}

/// A translated expression.
#[derive(Clone, Debug)]
pub(crate) struct Code {
    pub tokens: TokenStream,
    pub repr: Repr,
    /// True for operator expressions (parenthesised when they become operands).
    pub compound: bool,
}

impl Code {
    fn atom(tokens: TokenStream, repr: Repr) -> Code {
        Code {
            tokens,
            repr,
            compound: false,
        }
    }

    pub(crate) fn operand(&self) -> TokenStream {
        let t = &self.tokens;
        if self.compound {
            quote!((#t))
        } else {
            t.clone()
        }
    }
}

fn prim_fits(p: Prim, v: i128) -> bool {
    p.is_int() && p.holds(v)
}

/// Translation of the expressions of one function (or of an inlined chain rooted at one).
pub(crate) struct Translator<'a> {
    pub model: &'a Model,
    /// Rust names of the parameters of the function whose body is translated.
    pub params: Vec<(String, SpecTy)>,
    /// Inst parameters are spelled `op` / `i` in the function the tokens end up in.
    pub op_name: TokenStream,
    pub inst_name: TokenStream,
    /// The instruction parameter is a concrete shape (`&S1Rand`) rather than generic.
    pub concrete: bool,
}

impl Translator<'_> {
    pub(crate) fn wide(&self, c: &Code) -> TokenStream {
        match &c.repr {
            Repr::Wide => c.tokens.clone(),
            Repr::Literal(v) => {
                let l = lit(*v);
                quote!(#l)
            }
            Repr::Prim(_) => {
                let t = &c.tokens;
                quote!(i128::from(#t))
            }
            Repr::Enum(_) => {
                let t = c.operand();
                quote!(i128::from(#t.value()))
            }
            Repr::Bool => {
                let t = &c.tokens;
                quote!(i128::from(#t))
            }
            Repr::Value => c.tokens.clone(),
        }
    }

    fn to_prim(&self, c: &Code, p: Prim) -> TokenStream {
        match &c.repr {
            Repr::Prim(q) if *q == p => c.tokens.clone(),
            Repr::Literal(v) if prim_fits(p, *v) => lit(*v),
            _ => {
                let f = ident(&format!("to_{}", p.rust()));
                let w = self.wide(c);
                quote!(isa_core::spec::#f(#w))
            }
        }
    }

    /// Converts an argument to the representation parameter type `t` expects.
    pub(crate) fn arg(&self, c: &Code, t: &SpecTy) -> TokenStream {
        match t {
            SpecTy::Int(p) => self.to_prim(c, *p),
            _ => c.tokens.clone(),
        }
    }

    pub(crate) fn expr(&self, e: &Expr) -> Code {
        let m = self.model;
        match &e.kind {
            ExprKind::Bool(b) => Code::atom(quote!(#b), Repr::Bool),
            ExprKind::Int(v) => Code::atom(lit(*v), Repr::Literal(*v)),
            ExprKind::Param(k) => {
                let (name, ty) = &self.params[*k];
                let id = ident(name);
                let repr = match ty {
                    SpecTy::Bool => Repr::Bool,
                    SpecTy::Int(p) => Repr::Prim(*p),
                    SpecTy::Enum(e) => Repr::Enum(*e),
                    _ => Repr::Value,
                };
                Code::atom(quote!(#id), repr)
            }
            ExprKind::Const(k) => {
                let c = &m.constants[*k];
                let id = ident(&c.short);
                Code::atom(quote!(crate::consts::#id), Repr::Prim(c.ty))
            }
            ExprKind::Member(en, mk) => {
                let e = &m.enums[*en];
                let t = ident(&e.rust);
                let v = ident(&e.members[*mk].rust);
                Code::atom(quote!(#t::#v), Repr::Enum(*en))
            }
            ExprKind::Opcode(_) => {
                let op = &self.op_name;
                Code::atom(quote!(#op), Repr::Enum(m.opcode_enum))
            }
            ExprKind::Inst(..) => {
                let i = &self.inst_name;
                Code::atom(quote!(#i), Repr::Value)
            }
            ExprKind::Field(base, r, k) => self.field(base, *r, *k, &e.ty),
            ExprKind::Index(base, k) => {
                let b = self.expr(base);
                let bt = b.operand();
                let k = lit(*k);
                Code::atom(quote!(#bt[#k]), repr_of(&e.ty))
            }
            ExprKind::Call(f, args) => {
                let callee = &m.specs[*f];
                let name = ident(&callee.name);
                let mut toks = Vec::new();
                for (a, (_, pt)) in args.iter().zip(&callee.params) {
                    if let SpecTy::Inst(_) = pt {
                        let (op, i) = (&self.op_name, &self.inst_name);
                        toks.push(quote!(#op));
                        toks.push(quote!(#i));
                    } else {
                        let c = self.expr(a);
                        toks.push(self.arg(&c, pt));
                    }
                }
                Code::atom(quote!(#name(#(#toks),*)), repr_of(&callee.ret))
            }
            ExprKind::IsValidEnum(en, arg) => {
                if arg.ty == SpecTy::Enum(*en) {
                    // A decoded enum field always holds a member of its enum.
                    Code::atom(quote!(true), Repr::Bool)
                } else {
                    let c = self.expr(arg);
                    let e = &m.enums[*en];
                    let t = ident(&e.rust);
                    let repr = e.repr;
                    let f = ident(&format!("to_{}", repr.rust()));
                    let w = self.wide(&c);
                    let rt = super::ty::prim(repr);
                    Code::atom(
                        quote!((#w >= i128::from(#rt::MIN) && #w <= i128::from(#rt::MAX) && #t::from_value(isa_core::spec::#f(#w)).is_some())),
                        Repr::Bool,
                    )
                }
            }
            ExprKind::Not(a) => {
                let c = self.expr(a);
                let t = c.operand();
                Code {
                    tokens: quote!(!#t),
                    repr: Repr::Bool,
                    compound: true,
                }
            }
            ExprKind::Neg(a) => {
                let c = self.expr(a);
                let w = self.wide(&c);
                Code::atom(quote!(#w.saturating_neg()), Repr::Wide)
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r),
            ExprKind::If(c, a, b) => {
                let cond = self.expr(c).tokens;
                let (x, y) = (self.expr(a), self.expr(b));
                let (xt, yt, repr) = match (&x.repr, &y.repr) {
                    (Repr::Bool, _) => (x.tokens.clone(), y.tokens.clone(), Repr::Bool),
                    (Repr::Prim(p), Repr::Prim(q)) if p == q => {
                        (x.tokens.clone(), y.tokens.clone(), Repr::Prim(*p))
                    }
                    _ => (self.wide(&x), self.wide(&y), Repr::Wide),
                };
                Code {
                    tokens: quote!(if #cond { #xt } else { #yt }),
                    repr,
                    compound: true,
                }
            }
        }
    }

    fn field(&self, base: &Expr, r: RecordId, k: usize, ty: &SpecTy) -> Code {
        let m = self.model;
        let rec = &m.records[r];
        let fname = ident(&rust_field(&rec.fields[k].name));
        let repr = repr_of(ty);
        if let ExprKind::Inst(_, root) = base.kind {
            let i = &self.inst_name;
            let tokens = match (root, self.concrete) {
                (InstRoot::Shape(_), _) => quote!(#i.#fname),
                (InstRoot::Header, true) => {
                    let h = ident(&m.opcode_field.path[0]);
                    quote!(#i.#h.#fname)
                }
                (InstRoot::Header, false) => {
                    let h = ident(&m.opcode_field.path[0]);
                    quote!(#i.#h().#fname)
                }
                (InstRoot::Common, true) => quote!(#i.#fname),
                // Accessors return references; a scalar is read by value.
                (InstRoot::Common, false)
                    if matches!(rec.fields[k].ty, Ty::Prim(_) | Ty::Enum(_)) =>
                {
                    quote!(*#i.#fname())
                }
                (InstRoot::Common, false) => quote!(#i.#fname()),
            };
            return Code::atom(tokens, repr);
        }
        let b = self.expr(base);
        let bt = b.operand();
        if rec.kind == RecordKind::Union {
            Code::atom(quote!(#bt.#fname()), repr)
        } else {
            Code::atom(quote!(#bt.#fname), repr)
        }
    }

    fn binary(&self, op: BinOp, l: &Expr, r: &Expr) -> Code {
        match op {
            BinOp::And | BinOp::Or => {
                // Flatten chains of the same operator: `a && b && c`.
                let mut parts = Vec::new();
                flatten(op, l, &mut parts);
                flatten(op, r, &mut parts);
                let toks: Vec<TokenStream> = if op == BinOp::And {
                    self.conjuncts(&parts)
                } else {
                    parts.iter().map(|p| self.expr(p).operand()).collect()
                };
                let tokens = if op == BinOp::And {
                    quote!(#(#toks)&&*)
                } else {
                    quote!(#(#toks)||*)
                };
                Code {
                    tokens,
                    repr: Repr::Bool,
                    compound: true,
                }
            }
            op if op.is_comparison() => {
                let (a, b) = (self.expr(l), self.expr(r));
                let sym: TokenStream = op.symbol().parse().expect("operator token");
                let direct = match (&a.repr, &b.repr) {
                    (Repr::Prim(p), Repr::Prim(q)) if p == q => true,
                    (Repr::Prim(p), Repr::Literal(v)) | (Repr::Literal(v), Repr::Prim(p)) => {
                        prim_fits(*p, *v)
                    }
                    (Repr::Enum(x), Repr::Enum(y)) => x == y && matches!(op, BinOp::Eq | BinOp::Ne),
                    (Repr::Bool, Repr::Bool) => true,
                    _ => false,
                };
                let tokens = if direct {
                    let (x, y) = (a.operand(), b.operand());
                    quote!(#x #sym #y)
                } else {
                    let (x, y) = (self.wide(&a), self.wide(&b));
                    quote!(#x #sym #y)
                };
                Code {
                    tokens,
                    repr: Repr::Bool,
                    compound: true,
                }
            }
            op => {
                let (a, b) = (self.expr(l), self.expr(r));
                let (x, y) = (self.wide(&a), self.wide(&b));
                let x = if a.compound || matches!(a.repr, Repr::Literal(_)) {
                    quote!((#x))
                } else {
                    x
                };
                let x = match a.repr {
                    Repr::Literal(v) => {
                        let l = lit(v);
                        quote!(#l as i128)
                    }
                    _ => x,
                };
                let tokens = match op {
                    BinOp::Add => quote!(#x.saturating_add(#y)),
                    BinOp::Sub => quote!(#x.saturating_sub(#y)),
                    BinOp::Mul => quote!(#x.saturating_mul(#y)),
                    BinOp::Div => quote!(isa_core::spec::div(#x, #y)),
                    BinOp::Rem => quote!(isa_core::spec::rem(#x, #y)),
                    BinOp::Shl => quote!(isa_core::spec::shl(#x, #y)),
                    BinOp::Shr => quote!(isa_core::spec::shr(#x, #y)),
                    BinOp::BitAnd => quote!((#x & #y)),
                    BinOp::BitOr => quote!((#x | #y)),
                    BinOp::BitXor => quote!((#x ^ #y)),
                    _ => unreachable!("handled above"),
                };
                Code::atom(tokens, Repr::Wide)
            }
        }
    }
}

impl Translator<'_> {
    /// The operands of a flattened `&&` chain. A run `a[0] == 0 && .. && a[N - 1] == 0` over a
    /// whole integer array (a reserved-zero check) becomes one `(a == [0; N])`: the same verdict,
    /// one comparison of the array instead of `N` of its elements.
    fn conjuncts(&self, parts: &[&Expr]) -> Vec<TokenStream> {
        let mut toks = Vec::new();
        let mut k = 0;
        while k < parts.len() {
            if let Some((base, n)) = zero_array(&parts[k..]) {
                let bt = self.expr(base).operand();
                let len = lit(n as i128);
                toks.push(quote!((#bt == [0; #len])));
                k += n;
            } else {
                toks.push(self.expr(parts[k]).operand());
                k += 1;
            }
        }
        toks
    }
}

/// When `parts` starts with `a[0] == 0 && .. && a[N - 1] == 0` for an integer array `a` of
/// `N > 1` elements: `a` and `N`.
fn zero_array<'e>(parts: &[&'e Expr]) -> Option<(&'e Expr, usize)> {
    let (base, 0) = zero_element(parts.first()?)? else {
        return None;
    };
    let SpecTy::Array(elem, n) = &base.ty else {
        return None;
    };
    let n = usize::try_from(*n).ok()?;
    let whole = matches!(**elem, SpecTy::Int(_))
        && n > 1
        && parts.len() >= n
        && (0..n)
            .all(|j| zero_element(parts[j]).is_some_and(|(b, i)| same(b, base) && i == j as u64));
    whole.then_some((base, n))
}

/// The same value: equal expressions, wherever the spec writes them (`line` differs).
fn same(a: &Expr, b: &Expr) -> bool {
    a.text == b.text && a.ty == b.ty
}

/// `a[k] == 0`: the array `a` and `k`.
fn zero_element(e: &Expr) -> Option<(&Expr, u64)> {
    match &e.kind {
        ExprKind::Binary(BinOp::Eq, l, r) => match (&l.kind, &r.kind) {
            (ExprKind::Index(base, k), ExprKind::Int(0)) => Some((base, *k)),
            _ => None,
        },
        _ => None,
    }
}

fn flatten<'e>(op: BinOp, e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(o, l, r) if *o == op => {
            flatten(op, l, out);
            flatten(op, r, out);
        }
        _ => out.push(e),
    }
}

pub(crate) fn repr_of(t: &SpecTy) -> Repr {
    match t {
        SpecTy::Bool => Repr::Bool,
        SpecTy::Int(p) => Repr::Prim(*p),
        SpecTy::Wide => Repr::Wide,
        SpecTy::Enum(e) => Repr::Enum(*e),
        _ => Repr::Value,
    }
}

/// Rust type of a spec parameter (the instruction expands to two parameters elsewhere).
pub(crate) fn param_type(model: &Model, t: &SpecTy) -> TokenStream {
    match t {
        SpecTy::Bool => quote!(bool),
        SpecTy::Int(p) => super::ty::prim(*p),
        SpecTy::Wide => quote!(i128),
        SpecTy::Enum(e) => {
            let i = ident(&model.enums[*e].rust);
            quote!(#i)
        }
        SpecTy::Record(r) => {
            let i = ident(&model.records[*r].rust);
            quote!(#i)
        }
        SpecTy::Array(inner, n) => {
            let t = param_type(model, inner);
            let n = lit(*n);
            quote!([#t; #n])
        }
        SpecTy::Inst(_) => quote!(()),
    }
}

/// True when evaluating `e` (or a function it calls with the instruction) reads the opcode.
fn reads_opcode(model: &Model, e: &Expr, memo: &mut Vec<Option<bool>>) -> bool {
    if let ExprKind::Opcode(_) = e.kind {
        return true;
    }
    if is_trivially_valid_enum(e) {
        return false;
    }
    if let ExprKind::Call(f, args) = &e.kind {
        if args.iter().any(|a| matches!(a.ty, SpecTy::Inst(_))) && fn_reads_opcode(model, *f, memo)
        {
            return true;
        }
    }
    children(e)
        .into_iter()
        .any(|c| reads_opcode(model, c, memo))
}

pub(crate) fn fn_reads_opcode(model: &Model, f: usize, memo: &mut Vec<Option<bool>>) -> bool {
    if let Some(v) = memo[f] {
        return v;
    }
    memo[f] = Some(false);
    let v = reads_opcode(model, &model.specs[f].body, memo);
    memo[f] = Some(v);
    v
}

/// `is_valid_enum` of an enum-typed value: translated as `true`, its argument unread.
fn is_trivially_valid_enum(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::IsValidEnum(en, arg) if arg.ty == SpecTy::Enum(*en))
}

/// True when the translation of `e` mentions parameter `k` (the opcode of an instruction
/// parameter is its own Rust parameter, `op`).
fn uses_param(e: &Expr, k: usize) -> bool {
    match &e.kind {
        ExprKind::Param(j) | ExprKind::Inst(j, _) => *j == k,
        ExprKind::Opcode(_) => false,
        _ if is_trivially_valid_enum(e) => false,
        _ => children(e).into_iter().any(|c| uses_param(c, k)),
    }
}

/// A field of the common prefix (`NEURON_ISA_TPB_INST_COMMON`) that shape-generic spec
/// functions read through an accessor: `header()`, `events()`.
pub(crate) struct PrefixField {
    /// The field's name (the accessor's, as a Rust field name).
    pub name: String,
    /// Its type.
    pub ty: crate::model::Ty,
    /// The shapes whose operand struct has it (indices into [`Model::shapes`]).
    pub shapes: Vec<ShapeId>,
    /// Its index among `NEURON_ISA_TPB_INST_COMMON`'s fields (`None`: a tree without that
    /// record, whose prefix is the header alone).
    pub common_field: Option<usize>,
}

impl PrefixField {
    /// True when every operand struct has the field: its accessor is a method of `InstFields`.
    fn everywhere(&self, model: &Model) -> bool {
        self.shapes.len() == model.shapes.len()
    }
}

/// The common-prefix fields at least one operand struct has, in declaration order. Without
/// `NEURON_ISA_TPB_INST_COMMON` the prefix is the header alone (the field holding the opcode),
/// when every operand struct begins with it.
pub(crate) fn prefix_fields(model: &Model) -> Vec<PrefixField> {
    match model.record_named(crate::vendor::INST_COMMON) {
        Some(common) => model.records[common]
            .fields
            .iter()
            .enumerate()
            .filter_map(|(j, f)| {
                let shapes: Vec<ShapeId> = ShapeId::all(model.shapes.len())
                    .filter(|&s| model.shape_carries_common(s, common, j))
                    .collect();
                (!shapes.is_empty()).then(|| PrefixField {
                    name: f.name.clone(),
                    ty: f.ty.clone(),
                    shapes,
                    common_field: Some(j),
                })
            })
            .collect(),
        None => {
            let first = model
                .shapes
                .first()
                .and_then(|s| model.records[s.record].fields.first());
            let Some(h) = first else {
                return Vec::new();
            };
            let everywhere = model.shapes.iter().all(|s| {
                model.records[s.record]
                    .fields
                    .iter()
                    .any(|g| g.name == h.name && g.offset == h.offset && g.ty == h.ty)
            });
            if !everywhere || !matches!(h.ty, crate::model::Ty::Record(_)) {
                return Vec::new();
            }
            vec![PrefixField {
                name: h.name.clone(),
                ty: h.ty.clone(),
                shapes: ShapeId::all(model.shapes.len()).collect(),
                common_field: None,
            }]
        }
    }
}

/// The trait a shape-generic spec function takes its instruction as (`&dyn #trait`): the
/// prefix fields it reads that only some operand structs have decide it. None of them:
/// `InstFields`; one: its own trait (`InstEvents`); several: the trait joining theirs.
fn inst_trait(model: &Model, prefix: &[PrefixField], f: &SpecFn) -> String {
    let partial = partial_reads(model, prefix, f);
    if partial.is_empty() {
        "InstFields".to_string()
    } else {
        joined_trait(&partial)
    }
}

/// The prefix fields `f` reads (itself or through a callee) that only some operand structs have.
fn partial_reads<'p>(model: &Model, prefix: &'p [PrefixField], f: &SpecFn) -> Vec<&'p PrefixField> {
    prefix
        .iter()
        .filter(|p| {
            !p.everywhere(model) && p.common_field.is_some_and(|j| f.common_reads.contains(&j))
        })
        .collect()
}

/// The trait of prefix fields only some operand structs have: `Inst` followed by each field's
/// name in CamelCase (`InstEvents` for one, `InstEventsQueue` joining two).
fn joined_trait(fields: &[&PrefixField]) -> String {
    let mut name = "Inst".to_string();
    for p in fields {
        name.push_str(&crate::model::names::camel(&p.name));
    }
    name
}

/// The prefix traits: `InstFields` (the fields every operand struct has), one trait per field
/// only some have (implemented by those, with `InstFields` as supertrait), and a trait joining
/// several of those for each set a spec function reads together (implemented by whatever has
/// them all). Trait objects of one upcast to the others a callee takes.
fn prefix_traits(model: &Model, prefix: &[PrefixField]) -> TokenStream {
    let accessor = |p: &PrefixField| {
        let id = ident(&rust_field(&p.name));
        let t = super::ty::typed(model, &p.ty);
        (id, t)
    };
    let methods = prefix.iter().filter(|p| p.everywhere(model)).map(|p| {
        let (id, t) = accessor(p);
        let d = format!(" The `{}` every operand struct begins with.", p.name);
        quote! { #[doc = #d] fn #id(&self) -> &#t; }
    });
    let impls = model.shape_entries().map(|(k, s)| {
        let cfg = super::cfg_for_shape(model, k);
        let st = ident(&s.rust);
        let ms = prefix.iter().filter(|p| p.everywhere(model)).map(|p| {
            let (id, t) = accessor(p);
            quote! { fn #id(&self) -> &#t { &self.#id } }
        });
        quote! { #cfg impl InstFields for crate::inst::#st { #(#ms)* } }
    });
    let mut items = vec![quote! {
        /// The operand fields every instruction shares (`NEURON_ISA_TPB_INST_COMMON` without its
        /// payload and opcode): what spec functions that read only `i.header` / `i.common` see.
        pub trait InstFields { #(#methods)* }
        #(#impls)*
    }];
    for p in prefix.iter().filter(|p| !p.everywhere(model)) {
        let (id, t) = accessor(p);
        let tr = ident(&joined_trait(&[p]));
        let d = format!(
            " The operand structs with the common `{}` (not every one has it): what spec functions that read `i.common.{}` take.",
            p.name, p.name
        );
        let md = format!(" The `{}` of the common prefix.", p.name);
        let impls = p.shapes.iter().map(|&k| {
            let cfg = super::cfg_for_shape(model, k);
            let st = ident(&model.shapes[k].rust);
            quote! { #cfg impl #tr for crate::inst::#st { fn #id(&self) -> &#t { &self.#id } } }
        });
        items.push(quote! {
            #[doc = #d]
            pub trait #tr: InstFields { #[doc = #md] fn #id(&self) -> &#t; }
            #(#impls)*
        });
    }
    // Joined traits, once per set of two or more partial fields some function reads.
    let mut joined: Vec<String> = Vec::new();
    for f in &model.specs {
        let parts = partial_reads(model, prefix, f);
        let name = joined_trait(&parts);
        if parts.len() < 2 || joined.contains(&name) {
            continue;
        }
        let tr = ident(&name);
        let supers: Vec<_> = parts.iter().map(|p| ident(&joined_trait(&[p]))).collect();
        let names: Vec<String> = parts.iter().map(|p| format!("`{}`", p.name)).collect();
        let d = format!(
            " The operand structs with the common {} together.",
            names.join(", ")
        );
        items.push(quote! {
            #[doc = #d]
            pub trait #tr: #(#supers)+* {}
            impl<T: #(#supers)+* + ?Sized> #tr for T {}
        });
        joined.push(name);
    }
    quote!(#(#items)*)
}

/// The Rust names `signature` gives the parameters of spec function `f` (the instruction as its
/// two, `op` and `i`), in order: what a call forwarding them passes.
pub(crate) fn param_names(
    model: &Model,
    f: &SpecFn,
    memo: &mut Vec<Option<bool>>,
    fk: usize,
) -> Vec<TokenStream> {
    let mut out = Vec::new();
    for (k, (name, t)) in f.params.iter().enumerate() {
        let used = uses_param(&f.body, k);
        match t {
            SpecTy::Inst(_) => {
                out.push(if fn_reads_opcode(model, fk, memo) {
                    quote!(op)
                } else {
                    quote!(_op)
                });
                out.push(if used { quote!(i) } else { quote!(_i) });
            }
            _ => {
                let id = if used {
                    ident(name)
                } else {
                    ident(&format!("_{name}"))
                };
                out.push(quote!(#id));
            }
        }
    }
    out
}

/// Rust signature parts of spec function `f`: generics and parameter list.
pub(crate) fn signature(
    model: &Model,
    f: &SpecFn,
    memo: &mut Vec<Option<bool>>,
    fk: usize,
) -> (TokenStream, Vec<TokenStream>) {
    let generics = quote!();
    let mut params = Vec::new();
    for (k, (name, t)) in f.params.iter().enumerate() {
        match t {
            SpecTy::Inst(kind) => {
                let op = if fn_reads_opcode(model, fk, memo) {
                    ident("op")
                } else {
                    ident("_op")
                };
                let i = if uses_param(&f.body, k) {
                    ident("i")
                } else {
                    ident("_i")
                };
                match kind {
                    InstKind::Shape(s) => {
                        let st = ident(&model.shapes[*s].rust);
                        params.push(quote!(#op: crate::Opcode));
                        params.push(quote!(#i: &crate::inst::#st));
                    }
                    InstKind::Any => {
                        // Not generic: one body for every shape, not one per shape.
                        let tr = ident(&inst_trait(model, &prefix_fields(model), f));
                        params.push(quote!(#op: crate::Opcode));
                        params.push(quote!(#i: &dyn #tr));
                    }
                }
            }
            other => {
                let id = if uses_param(&f.body, k) {
                    ident(name)
                } else {
                    ident(&format!("_{name}"))
                };
                let ty = param_type(model, other);
                params.push(quote!(#id: #ty));
            }
        }
    }
    (generics, params)
}

pub fn emit(model: &Model) -> Source {
    let mut items = Vec::new();
    // The traits generic helpers read the common prefix through.
    items.push(prefix_traits(model, &prefix_fields(model)));
    let mut memo = vec![None; model.specs.len()];
    for (fk, f) in model.specs.iter().enumerate() {
        let (generics, params) = signature(model, f, &mut memo, fk);
        let name = ident(&f.name);
        let op_name = if fn_reads_opcode(model, fk, &mut memo) {
            quote!(op)
        } else {
            quote!(_op)
        };
        let tr = Translator {
            model,
            params: f.params.clone(),
            op_name,
            inst_name: quote!(i),
            concrete: matches!(f.inst_kind(), Some(InstKind::Shape(_))),
        };
        let body = tr.expr(&f.body);
        let (ret, body) = match &f.ret {
            SpecTy::Int(p) => (super::ty::prim(*p), tr.to_prim(&body, *p)),
            _ => (quote!(bool), body.tokens),
        };
        // A short block is shown as written; a long one (a validator's list of checks, a
        // legality function) is referenced, not copied: the translation below keeps its
        // expressions, and a legality function's table is documented where it is derived.
        let lines = f.source.lines().count();
        let mut text = if lines <= SOURCE_DOC_LINES {
            let mut t = format!("Spec function `{}`, {}:\n\n```text\n", f.name, f.loc);
            for line in f.source.lines() {
                t.push_str(line.strip_prefix(' ').unwrap_or(line));
                t.push('\n');
            }
            t.push_str("```");
            t
        } else {
            format!(
                "Spec function `{}` ({lines} lines at {}), translated expression for expression.",
                f.name, f.loc
            )
        };
        if let Some(t) = model.tables.iter().find(|t| t.func == fk) {
            text.push_str(&format!(
                " The legality table derived from it is [`crate::legality::{}`].",
                super::legality::table_const(model, t)
            ));
        }
        let docs = doc::attrs(&text);
        // A function of one shape's instruction is compiled with that shape.
        let cfg = match f.inst_kind() {
            Some(InstKind::Shape(s)) => super::cfg_for_shape(model, s),
            _ => quote!(),
        };
        let allow = super::allow_vendor_fn_case(&f.name);
        items.push(quote! {
            #docs
            #cfg
            #allow
            pub fn #name #generics (#(#params),*) -> #ret { #body }
        });
    }
    Source::items(
        &banner(model, "the header's validator spec, translated."),
        quote!(#(#items)*),
    )
}
