//! Translation of one spec block: its signature and body, every name resolved against the model
//! (fields, members of anonymous members, enum members, constants, other spec functions) into a
//! typed [`Expr`]; a problem is a diagnostic at its line, and the block is not translated.

use super::{BinOp, Expr, ExprKind, InstKind, InstRoot, SpecTy};
use crate::ctype::{Prim, RecordKind};
use crate::diag::{Diagnostic, Loc};
use crate::model::names::spec_key;
use crate::model::ShapeId;
use crate::model::{EnumId, Model, RecordId, Ty};
use crate::read::cdecl::{path_idents, path_last};
use crate::read::spec::{SpecBlock, Unparsed};
use std::collections::BTreeMap;

/// A block's parameters and return type, when its signature translates.
pub(super) type Sig = Option<(Vec<(String, SpecTy)>, SpecTy)>;

/// Translates the blocks of one tree, one at a time.
pub(super) struct Resolver<'a> {
    /// The model the names resolve into.
    pub(super) model: &'a Model,
    /// Every block's index, by name.
    pub(super) names: &'a BTreeMap<String, usize>,
    /// Enums, records and typedefs by the key of their spec name ([`declaration_index`]).
    pub(super) decls: &'a BTreeMap<String, Vec<(String, Decl)>>,
    /// Blocks the read stage could not parse, by name.
    pub(super) unparsed: &'a BTreeMap<String, &'a Unparsed>,
    /// Problems of the block being resolved.
    pub(super) errors: Vec<Diagnostic>,
    /// Callees of the block being resolved that have no translation (its body fails on them).
    pub(super) missing: Vec<String>,
    /// Each block's signature, in block order (calls are checked against them).
    pub(super) sigs: Vec<Sig>,
}

/// The block being translated and its parameters.
pub(super) struct Scope<'a> {
    /// The block.
    pub(super) block: &'a SpecBlock,
    /// Its parameters.
    pub(super) params: &'a [(String, SpecTy)],
}

impl Scope<'_> {
    fn loc(&self, span: proc_macro2::Span) -> Loc {
        self.block.loc_of(span)
    }
}

fn span_of<T: syn::spanned::Spanned>(t: &T) -> proc_macro2::Span {
    t.span()
}

impl Resolver<'_> {
    fn err(&mut self, loc: Loc, msg: impl Into<String>) {
        self.errors.push(Diagnostic::new(loc, msg));
    }

    /// A spec type name: a scalar, `Inst`, or a declaration of the tree.
    fn type_named(&mut self, block: &SpecBlock, ty: &syn::Type) -> Option<SpecTy> {
        let loc = block.loc_of(span_of(ty));
        let syn::Type::Path(p) = ty else {
            self.err(loc, "a spec parameter type must be a name");
            return None;
        };
        let name = path_last(&p.path);
        let scalar = match name.as_str() {
            "bool" => Some(SpecTy::Bool),
            "u8" => Some(SpecTy::Int(Prim::U8)),
            "u16" => Some(SpecTy::Int(Prim::U16)),
            "u32" => Some(SpecTy::Int(Prim::U32)),
            "u64" => Some(SpecTy::Int(Prim::U64)),
            "i8" => Some(SpecTy::Int(Prim::I8)),
            "i16" => Some(SpecTy::Int(Prim::I16)),
            "i32" => Some(SpecTy::Int(Prim::I32)),
            "i64" => Some(SpecTy::Int(Prim::I64)),
            "Inst" => Some(SpecTy::Inst(InstKind::Any)),
            _ => None,
        };
        if scalar.is_some() {
            return scalar;
        }
        match self.declaration(&name) {
            Ok(Decl::Enum(e)) => Some(SpecTy::Enum(e)),
            Ok(Decl::Record(r)) => Some(SpecTy::Record(r)),
            Ok(Decl::Alias(t)) => Some(SpecTy::of(&t)),
            Err(msg) => {
                self.err(loc, msg);
                None
            }
        }
    }

    /// Resolves a spec name to an enum, record or typedef of the tree.
    fn declaration(&self, spec_name: &str) -> Result<Decl, String> {
        let hits: &[(String, Decl)] = self
            .decls
            .get(&spec_key(spec_name))
            .map_or(&[], Vec::as_slice);
        match hits.len() {
            0 => Err(format!(
                "`{spec_name}` names no enum, struct, union or typedef of this tree"
            )),
            1 => Ok(hits[0].1.clone()),
            _ => Err(format!(
                "`{spec_name}` is ambiguous: it names {}",
                hits.iter()
                    .map(|h| h.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    pub(super) fn signature(&mut self, b: &SpecBlock) -> Sig {
        let sig = &b.item.sig;
        let mut ok = true;
        if !sig.generics.params.is_empty() || sig.asyncness.is_some() || sig.unsafety.is_some() {
            self.err(
                b.loc.clone(),
                "a spec function has no generics or qualifiers",
            );
            ok = false;
        }
        let mut params = Vec::new();
        for input in &sig.inputs {
            let syn::FnArg::Typed(pt) = input else {
                self.err(b.loc.clone(), "a spec function takes no `self`");
                ok = false;
                continue;
            };
            let syn::Pat::Ident(name) = &*pt.pat else {
                self.err(
                    b.loc_of(span_of(&pt.pat)),
                    "a spec parameter must be a plain name",
                );
                ok = false;
                continue;
            };
            match self.type_named(b, &pt.ty) {
                Some(t) => params.push((name.ident.to_string(), t)),
                None => ok = false,
            }
        }
        let ret = match &sig.output {
            syn::ReturnType::Default => {
                self.err(
                    b.loc.clone(),
                    "a spec function must declare `-> bool` or an integer return type",
                );
                None
            }
            syn::ReturnType::Type(_, t) => match self.type_named(b, t) {
                Some(r @ (SpecTy::Bool | SpecTy::Int(_))) => Some(r),
                Some(_) => {
                    self.err(
                        b.loc_of(span_of(t)),
                        "a spec function returns `bool` or an integer",
                    );
                    None
                }
                None => None,
            },
        };
        if params
            .iter()
            .filter(|(_, t)| matches!(t, SpecTy::Inst(_)))
            .count()
            > 1
        {
            self.err(b.loc.clone(), "a spec function takes at most one `Inst`");
            ok = false;
        }
        match (ok, ret) {
            (true, Some(ret)) => Some((params, ret)),
            _ => None,
        }
    }

    pub(super) fn block_body(
        &mut self,
        scope: &Scope<'_>,
        block: &syn::Block,
        ret: &SpecTy,
    ) -> Option<Expr> {
        let loc = scope.loc(span_of(block));
        let [syn::Stmt::Expr(e, None)] = block.stmts.as_slice() else {
            self.err(
                loc,
                "a spec body is exactly one expression (no `let`, no `;`)",
            );
            return None;
        };
        let body = self.expr(scope, e)?;
        let fits = match (ret, &body.ty) {
            (SpecTy::Bool, SpecTy::Bool) => true,
            (SpecTy::Int(_), t) => t.is_int(),
            _ => false,
        };
        if !fits {
            self.err(
                scope.loc(span_of(e)),
                format!(
                    "the body has type {}, the function returns {}",
                    self.ty_name(&body.ty),
                    self.ty_name(ret)
                ),
            );
            return None;
        }
        Some(body)
    }

    fn ty_name(&self, t: &SpecTy) -> String {
        match t {
            SpecTy::Bool => "bool".into(),
            SpecTy::Int(p) => p.rust().into(),
            SpecTy::Wide => "integer".into(),
            SpecTy::Enum(e) => self.model.enums[*e].c_name.clone(),
            SpecTy::Record(r) => self.model.records[*r].c_name.clone(),
            SpecTy::Array(t, n) => format!("[{}; {n}]", self.ty_name(t)),
            SpecTy::Inst(_) => "Inst".into(),
        }
    }

    fn expr(&mut self, scope: &Scope<'_>, e: &syn::Expr) -> Option<Expr> {
        let line = scope.loc(span_of(e)).line;
        let mut out = self.expr_at(scope, e)?;
        out.line = line;
        Some(out)
    }

    fn expr_at(&mut self, scope: &Scope<'_>, e: &syn::Expr) -> Option<Expr> {
        let loc = scope.loc(span_of(e));
        match e {
            syn::Expr::Paren(p) => {
                let inner = self.expr(scope, &p.expr)?;
                Some(Expr {
                    line: 0,
                    text: format!("({})", inner.text),
                    ..inner
                })
            }
            syn::Expr::Group(g) => self.expr(scope, &g.expr),
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(i) => {
                    if !i.suffix().is_empty() {
                        self.err(
                            loc,
                            format!("integer literal `{i}`: no suffix in the spec language"),
                        );
                        return None;
                    }
                    match i.base10_parse::<i128>() {
                        Ok(v) => Some(Expr {
                            line: 0,
                            kind: ExprKind::Int(v),
                            ty: SpecTy::Wide,
                            text: i.to_string(),
                        }),
                        Err(_) => {
                            self.err(loc, format!("integer literal `{i}` is out of range"));
                            None
                        }
                    }
                }
                syn::Lit::Bool(b) => Some(Expr {
                    line: 0,
                    kind: ExprKind::Bool(b.value),
                    ty: SpecTy::Bool,
                    text: b.value.to_string(),
                }),
                _ => {
                    self.err(
                        loc,
                        "only integer and boolean literals exist in the spec language",
                    );
                    None
                }
            },
            syn::Expr::Path(p) => self.path(scope, &p.path, loc),
            syn::Expr::Field(f) => self.field(scope, f, loc),
            syn::Expr::Index(ix) => {
                let base = self.expr(scope, &ix.expr)?;
                let SpecTy::Array(elem, len) = base.ty.clone() else {
                    self.err(loc, format!("`{}` is not an array", base.text));
                    return None;
                };
                let index = match &*ix.index {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(i),
                        ..
                    }) => i.base10_parse::<u64>().ok(),
                    _ => None,
                };
                let Some(index) = index else {
                    self.err(loc, "an array index must be an integer literal");
                    return None;
                };
                if index >= len {
                    self.err(
                        loc,
                        format!(
                            "index {index} is out of bounds of `{}` ({len} elements)",
                            base.text
                        ),
                    );
                    return None;
                }
                let text = format!("{}[{index}]", base.text);
                Some(Expr {
                    line: 0,
                    kind: ExprKind::Index(Box::new(base), index),
                    ty: *elem,
                    text,
                })
            }
            syn::Expr::Call(c) => self.call(scope, c, loc),
            syn::Expr::Unary(u) => {
                let arg = self.expr(scope, &u.expr)?;
                match u.op {
                    syn::UnOp::Not(_) if arg.ty == SpecTy::Bool => Some(Expr {
                        line: 0,
                        text: format!("!{}", arg.text),
                        kind: ExprKind::Not(Box::new(arg)),
                        ty: SpecTy::Bool,
                    }),
                    // `-7` is the literal -7 (its translation stays a typed-free literal).
                    syn::UnOp::Neg(_) if matches!(arg.kind, ExprKind::Int(_)) => {
                        let ExprKind::Int(v) = arg.kind else {
                            unreachable!("matched above")
                        };
                        Some(Expr {
                            line: 0,
                            text: format!("-{}", arg.text),
                            kind: ExprKind::Int(-v),
                            ty: SpecTy::Wide,
                        })
                    }
                    syn::UnOp::Neg(_) if arg.ty.is_int() => Some(Expr {
                        line: 0,
                        text: format!("-{}", arg.text),
                        kind: ExprKind::Neg(Box::new(arg)),
                        ty: SpecTy::Wide,
                    }),
                    _ => {
                        self.err(loc, format!("operator not applicable to `{}`", arg.text));
                        None
                    }
                }
            }
            syn::Expr::Binary(b) => self.binary(scope, b, loc),
            syn::Expr::If(i) => self.if_expr(scope, i, loc),
            syn::Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
                syn::Stmt::Expr(inner, None) => self.expr(scope, inner),
                _ => {
                    self.err(loc, "a block holds exactly one expression");
                    None
                }
            },
            other => {
                let what = match other {
                    syn::Expr::MethodCall(_) => "method calls",
                    syn::Expr::Cast(_) => "casts",
                    syn::Expr::Match(_) => "`match`",
                    syn::Expr::Closure(_) => "closures",
                    syn::Expr::Let(_) => "`let`",
                    syn::Expr::ForLoop(_) | syn::Expr::While(_) | syn::Expr::Loop(_) => "loops",
                    _ => "this expression form",
                };
                self.err(loc, format!("the spec language has no {what}"));
                None
            }
        }
    }

    fn path(&mut self, scope: &Scope<'_>, path: &syn::Path, loc: Loc) -> Option<Expr> {
        let segs = path_idents(path);
        match segs.as_slice() {
            [name] => {
                if let Some(k) = scope.params.iter().position(|(p, _)| p == name) {
                    return Some(Expr {
                        line: 0,
                        kind: ExprKind::Param(k),
                        ty: scope.params[k].1.clone(),
                        text: name.clone(),
                    });
                }
                match self
                    .model
                    .constants
                    .iter()
                    .position(|c| c.short == *name || c.c_name == *name)
                {
                    Some(k) => Some(Expr {
                        line: 0,
                        kind: ExprKind::Const(k),
                        ty: SpecTy::Int(self.model.constants[k].ty),
                        text: name.clone(),
                    }),
                    None => {
                        self.err(
                            loc,
                            format!(
                                "`{name}` is neither a parameter nor a constant ({}{name})",
                                crate::vendor::VENDOR_PREFIX
                            ),
                        );
                        None
                    }
                }
            }
            [ty, member] => {
                if ty == "EnumList" {
                    self.err(
                        loc,
                        "`EnumList::…` appears only as the first argument of `is_valid_enum`",
                    );
                    return None;
                }
                let e = match self.enum_named(ty) {
                    Ok(e) => e,
                    Err(msg) => {
                        self.err(loc, msg);
                        return None;
                    }
                };
                match self.member(e, member) {
                    Ok(m) => Some(Expr {
                        line: 0,
                        kind: ExprKind::Member(e, m),
                        ty: SpecTy::Enum(e),
                        text: format!("{ty}::{member}"),
                    }),
                    Err(msg) => {
                        self.err(loc, msg);
                        None
                    }
                }
            }
            _ => {
                self.err(
                    loc,
                    format!("`{}` is not a name of the spec language", segs.join("::")),
                );
                None
            }
        }
    }

    /// The enum a spec name names: an enum, or a typedef of one (`typedef X Y;`).
    fn enum_named(&self, spec_name: &str) -> Result<EnumId, String> {
        match self.declaration(spec_name)? {
            Decl::Enum(e) | Decl::Alias(Ty::Enum(e)) => Ok(e),
            _ => Err(format!("`{spec_name}` is not an enum")),
        }
    }

    fn member(&self, e: EnumId, name: &str) -> Result<usize, String> {
        let en = &self.model.enums[e];
        let key = spec_key(name);
        let hits: Vec<usize> = en
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| spec_key(&m.short) == key)
            .map(|(k, _)| k)
            .collect();
        match hits.as_slice() {
            [k] => Ok(en.members[*k].alias_of.unwrap_or(*k)),
            [] => Err(format!("`{name}` is not a member of {}", en.c_name)),
            _ => Err(format!("`{name}` matches several members of {}", en.c_name)),
        }
    }

    fn field(&mut self, scope: &Scope<'_>, f: &syn::ExprField, loc: Loc) -> Option<Expr> {
        let syn::Member::Named(name) = &f.member else {
            self.err(loc, "tuple fields are not part of the spec language");
            return None;
        };
        // A keyword-named C field arrives as a raw identifier (`r#type`, see read::spec).
        let name = syn::ext::IdentExt::unraw(name).to_string();
        let base = self.expr(scope, &f.base)?;
        match &base.ty {
            SpecTy::Inst(_) => {
                let ExprKind::Param(param) = base.kind else {
                    self.err(loc, "an instruction is read through its parameter");
                    return None;
                };
                let text = format!("{}.{name}", base.text);
                if name == crate::vendor::HEADER_MEMBER {
                    let Some(r) = self.model.record_named(crate::vendor::HEADER) else {
                        self.err(loc, format!("`i.header` needs {}", crate::vendor::HEADER));
                        return None;
                    };
                    return Some(Expr {
                        line: 0,
                        kind: ExprKind::Inst(param, InstRoot::Header),
                        ty: SpecTy::Record(r),
                        text,
                    });
                }
                if name == crate::vendor::COMMON_MEMBER {
                    let Some(r) = self.model.record_named(crate::vendor::INST_COMMON) else {
                        self.err(
                            loc,
                            format!("`i.common` needs {} in util.h", crate::vendor::INST_COMMON),
                        );
                        return None;
                    };
                    return Some(Expr {
                        line: 0,
                        kind: ExprKind::Inst(param, InstRoot::Common),
                        ty: SpecTy::Record(r),
                        text,
                    });
                }
                match self
                    .model
                    .shapes
                    .iter()
                    .position(|s| s.member == name)
                    .map(ShapeId::new)
                {
                    Some(s) => Some(Expr {
                        line: 0,
                        kind: ExprKind::Inst(param, InstRoot::Shape(s)),
                        ty: SpecTy::Record(self.model.shapes[s].record),
                        text,
                    }),
                    None => {
                        self.err(
                            loc,
                            format!(
                                "`{name}` is not a member of {} bound to an operand struct",
                                crate::vendor::INST_UNION
                            ),
                        );
                        None
                    }
                }
            }
            SpecTy::Record(r) => {
                let r = *r;
                let rec = &self.model.records[r];
                let Some(k) = rec.fields.iter().position(|fl| fl.name == name) else {
                    // A member of an anonymous member is read as a member of this record.
                    if let Some(path) = self.through_anonymous(r, &name) {
                        let text = format!("{}.{name}", base.text);
                        let mut e = base;
                        for (rr, kk) in path {
                            let ty = SpecTy::of(&self.model.records[rr].fields[kk].ty);
                            e = Expr {
                                line: 0,
                                kind: ExprKind::Field(Box::new(e), rr, kk),
                                ty,
                                text: text.clone(),
                            };
                        }
                        return Some(e);
                    }
                    let what = if rec.kind == RecordKind::Union {
                        "member"
                    } else {
                        "field"
                    };
                    self.err(loc, format!("{} has no {what} `{name}`", rec.c_name));
                    return None;
                };
                // `i.header.opcode` is the instruction's opcode.
                if let ExprKind::Inst(param, InstRoot::Header | InstRoot::Common) = base.kind {
                    if self.model.is_opcode_field(r, k) {
                        return Some(Expr {
                            line: 0,
                            kind: ExprKind::Opcode(param),
                            ty: SpecTy::Enum(self.model.opcode_enum),
                            text: format!("{}.{name}", base.text),
                        });
                    }
                }
                let ty = SpecTy::of(&rec.fields[k].ty);
                let text = format!("{}.{name}", base.text);
                Some(Expr {
                    line: 0,
                    kind: ExprKind::Field(Box::new(base), r, k),
                    ty,
                    text,
                })
            }
            _ => {
                self.err(loc, format!("`{}` has no fields", base.text));
                None
            }
        }
    }

    /// The field chain from record `r` through its anonymous members to a field `name` of one
    /// of them: `[(r, anon k), (anonymous record, name)]`, when exactly one such chain exists.
    fn through_anonymous(&self, r: RecordId, name: &str) -> Option<Vec<(RecordId, usize)>> {
        let mut found = Vec::new();
        let mut todo = vec![(r, Vec::new())];
        while let Some((rec, path)) = todo.pop() {
            for (k, f) in self.model.records[rec].fields.iter().enumerate() {
                let (true, Ty::Record(inner)) = (f.anonymous, &f.ty) else {
                    continue;
                };
                let mut here: Vec<(RecordId, usize)> = path.clone();
                here.push((rec, k));
                let inner_rec = &self.model.records[*inner];
                match inner_rec.fields.iter().position(|g| g.name == name) {
                    Some(j) => {
                        here.push((*inner, j));
                        found.push(here);
                    }
                    None if here.len() < 8 => todo.push((*inner, here)),
                    None => {}
                }
            }
        }
        (found.len() == 1).then(|| found.pop().expect("one chain"))
    }

    fn call(&mut self, scope: &Scope<'_>, c: &syn::ExprCall, loc: Loc) -> Option<Expr> {
        let syn::Expr::Path(p) = &*c.func else {
            self.err(loc, "only named functions can be called");
            return None;
        };
        let name = path_idents(&p.path).join("::");
        if name == "is_valid_enum" {
            return self.is_valid_enum(scope, c, loc);
        }
        let Some(&k) = self.names.get(&name) else {
            if self.unparsed.contains_key(&name) {
                self.missing.push(name);
                return None; // the block does not parse: reported by the read stage
            }
            self.err(
                loc,
                format!("`{name}` is not a spec function of this tree (nor a builtin)"),
            );
            return None;
        };
        let Some((params, ret)) = self.sigs[k].clone() else {
            self.missing.push(name);
            return None; // its signature was already reported
        };
        if params.len() != c.args.len() {
            self.err(
                loc,
                format!(
                    "`{name}` takes {} arguments, given {}",
                    params.len(),
                    c.args.len()
                ),
            );
            return None;
        }
        let mut args = Vec::new();
        let mut ok = true;
        for (arg, (pname, pty)) in c.args.iter().zip(&params) {
            let aloc = scope.loc(span_of(arg));
            let Some(a) = self.expr(scope, arg) else {
                ok = false;
                continue;
            };
            let fits = match (pty, &a.ty) {
                (SpecTy::Inst(_), SpecTy::Inst(_)) => matches!(a.kind, ExprKind::Param(_)),
                (SpecTy::Int(_), t) => t.is_int(),
                (p, t) => p == t,
            };
            if !fits {
                self.err(
                    aloc,
                    format!(
                        "argument `{pname}` of `{name}` is {}, given `{}` of type {}",
                        self.ty_name(pty),
                        a.text,
                        self.ty_name(&a.ty)
                    ),
                );
                ok = false;
            }
            args.push(a);
        }
        if !ok {
            return None;
        }
        let text = format!(
            "{name}({})",
            args.iter()
                .map(|a| a.text.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        Some(Expr {
            line: 0,
            kind: ExprKind::Call(k, args),
            ty: ret,
            text,
        })
    }

    fn is_valid_enum(&mut self, scope: &Scope<'_>, c: &syn::ExprCall, loc: Loc) -> Option<Expr> {
        if c.args.len() != 2 {
            self.err(loc, "`is_valid_enum` takes `EnumList::<Enum>` and a value");
            return None;
        }
        // `EnumList::DataSrc`, or the vendor's shorter `DataSrc` (an enum name alone).
        let list = match &c.args[0] {
            syn::Expr::Path(p) => {
                let segs = path_idents(&p.path);
                match segs.as_slice() {
                    [l, e] if l == "EnumList" => Some((e.clone(), true)),
                    [e] if !scope.params.iter().any(|(n, _)| n == e)
                        && self.enum_named(e).is_ok() =>
                    {
                        Some((e.clone(), false))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let Some((list, _)) = list else {
            self.err(
                loc,
                "the first argument of `is_valid_enum` is `EnumList::<Enum>` (or an enum name)",
            );
            return None;
        };
        let e = match self.enum_named(&list) {
            Ok(e) => e,
            Err(msg) => {
                self.err(loc, format!("`EnumList::{list}`: {msg}"));
                return None;
            }
        };
        let arg = self.expr(scope, &c.args[1])?;
        if !(arg.ty == SpecTy::Enum(e) || arg.ty.is_int()) {
            self.err(
                loc,
                format!(
                    "`is_valid_enum(EnumList::{list}, …)` needs a {} or an integer",
                    self.model.enums[e].c_name
                ),
            );
            return None;
        }
        let text = format!("is_valid_enum(EnumList::{list}, {})", arg.text);
        Some(Expr {
            line: 0,
            kind: ExprKind::IsValidEnum(e, Box::new(arg)),
            ty: SpecTy::Bool,
            text,
        })
    }

    fn binary(&mut self, scope: &Scope<'_>, b: &syn::ExprBinary, loc: Loc) -> Option<Expr> {
        let op = match b.op {
            syn::BinOp::And(_) => BinOp::And,
            syn::BinOp::Or(_) => BinOp::Or,
            syn::BinOp::Eq(_) => BinOp::Eq,
            syn::BinOp::Ne(_) => BinOp::Ne,
            syn::BinOp::Lt(_) => BinOp::Lt,
            syn::BinOp::Le(_) => BinOp::Le,
            syn::BinOp::Gt(_) => BinOp::Gt,
            syn::BinOp::Ge(_) => BinOp::Ge,
            syn::BinOp::Add(_) => BinOp::Add,
            syn::BinOp::Sub(_) => BinOp::Sub,
            syn::BinOp::Mul(_) => BinOp::Mul,
            syn::BinOp::Div(_) => BinOp::Div,
            syn::BinOp::Rem(_) => BinOp::Rem,
            syn::BinOp::BitAnd(_) => BinOp::BitAnd,
            syn::BinOp::BitOr(_) => BinOp::BitOr,
            syn::BinOp::BitXor(_) => BinOp::BitXor,
            syn::BinOp::Shl(_) => BinOp::Shl,
            syn::BinOp::Shr(_) => BinOp::Shr,
            _ => {
                self.err(loc, "compound assignment is not part of the spec language");
                return None;
            }
        };
        let l = self.expr(scope, &b.left);
        let r = self.expr(scope, &b.right);
        let (l, r) = (l?, r?);
        let ty = match op {
            BinOp::And | BinOp::Or => {
                if l.ty != SpecTy::Bool || r.ty != SpecTy::Bool {
                    self.err(loc, format!("`{}` needs two booleans", op.symbol()));
                    return None;
                }
                SpecTy::Bool
            }
            op if op.is_comparison() => {
                let ok = match (&l.ty, &r.ty) {
                    (a, b) if a.is_int() && b.is_int() => true,
                    (SpecTy::Enum(a), SpecTy::Enum(b)) => a == b,
                    (SpecTy::Enum(_), b) | (b, SpecTy::Enum(_)) => b.is_int(),
                    (SpecTy::Bool, SpecTy::Bool) => matches!(op, BinOp::Eq | BinOp::Ne),
                    _ => false,
                };
                if !ok {
                    self.err(
                        loc,
                        format!(
                            "cannot compare `{}` ({}) with `{}` ({})",
                            l.text,
                            self.ty_name(&l.ty),
                            r.text,
                            self.ty_name(&r.ty)
                        ),
                    );
                    return None;
                }
                SpecTy::Bool
            }
            _ => {
                if !l.ty.is_int() || !r.ty.is_int() {
                    self.err(loc, format!("`{}` needs two integers", op.symbol()));
                    return None;
                }
                SpecTy::Wide
            }
        };
        let text = format!("{} {} {}", l.text, op.symbol(), r.text);
        Some(Expr {
            line: 0,
            kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
            ty,
            text,
        })
    }

    fn if_expr(&mut self, scope: &Scope<'_>, i: &syn::ExprIf, loc: Loc) -> Option<Expr> {
        let cond = self.expr(scope, &i.cond)?;
        if cond.ty != SpecTy::Bool {
            self.err(loc, "an `if` condition is a boolean");
            return None;
        }
        let then = self.block_expr(scope, &i.then_branch)?;
        let Some((_, els)) = &i.else_branch else {
            self.err(loc, "an `if` needs an `else` (it is an expression)");
            return None;
        };
        let els = self.expr(scope, els)?;
        let ty = match (&then.ty, &els.ty) {
            (SpecTy::Bool, SpecTy::Bool) => SpecTy::Bool,
            (a, b) if a.is_int() && b.is_int() => {
                if a == b {
                    a.clone()
                } else {
                    SpecTy::Wide
                }
            }
            _ => {
                self.err(loc, "both arms of an `if` have the same type");
                return None;
            }
        };
        let text = format!(
            "if {} {{ {} }} else {{ {} }}",
            cond.text, then.text, els.text
        );
        Some(Expr {
            line: 0,
            kind: ExprKind::If(Box::new(cond), Box::new(then), Box::new(els)),
            ty,
            text,
        })
    }

    fn block_expr(&mut self, scope: &Scope<'_>, block: &syn::Block) -> Option<Expr> {
        match block.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => self.expr(scope, e),
            _ => {
                self.err(
                    scope.loc(span_of(block)),
                    "a block holds exactly one expression",
                );
                None
            }
        }
    }
}

#[derive(Clone)]
pub(super) enum Decl {
    Enum(EnumId),
    Record(RecordId),
    Alias(Ty),
}

/// Every enum, record and typedef under the key of each spec name it answers to (enums, then
/// records, then typedefs, each in model order), so resolving a name does not scan the model.
pub(super) fn declaration_index(model: &Model) -> BTreeMap<String, Vec<(String, Decl)>> {
    let mut index: BTreeMap<String, Vec<(String, Decl)>> = BTreeMap::new();
    for (k, e) in model.enum_entries() {
        index
            .entry(spec_key(crate::model::names::short(&e.c_name)))
            .or_default()
            .push((e.c_name.clone(), Decl::Enum(k)));
    }
    for (k, r) in model.record_entries() {
        let s = crate::model::names::short(&r.c_name);
        let (full, bare) = (
            spec_key(s),
            spec_key(s.strip_suffix(crate::vendor::STRUCT_SUFFIX).unwrap_or(s)),
        );
        index
            .entry(full.clone())
            .or_default()
            .push((r.c_name.clone(), Decl::Record(k)));
        if bare != full {
            index
                .entry(bare)
                .or_default()
                .push((r.c_name.clone(), Decl::Record(k)));
        }
    }
    for t in &model.typedefs {
        index
            .entry(spec_key(crate::model::names::short(&t.c_name)))
            .or_default()
            .push((t.c_name.clone(), Decl::Alias(t.target.clone())));
    }
    index
}
