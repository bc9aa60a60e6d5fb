//! bindgen's Rust text of one header, walked with syn: one walker per kind of item bindgen emits
//! (enums as modules of constants, records and their layout assertions, bit-field accessors,
//! typedefs as `type` or `use`, constants, extern blocks), and a last pass that gives each
//! record the layout and bit-fields read from the items after it.

use super::decl::{CBitfield, CDecl, CEnum, CEnumMember, CField, CRecord, FileDecls};
use super::syntax::{
    c_name_of, ctype, doc_of, is_bindgen_helper, lit_i128, lit_u64, path_last, repr_has,
};
use crate::ctype::{CType, RecordKind};
use std::collections::BTreeMap;

/// The prefix of bindgen's names for an anonymous enum at the top level (`_bindgen_ty_1`).
const BINDGEN_ANON_ENUM: &str = "_bindgen_ty_";

/// The declarations of the header `rel` in bindgen's text `file`.
pub(super) fn walk(rel: &str, file: &syn::File) -> FileDecls {
    let mut walk = Walk::default();
    for item in &file.items {
        match item {
            syn::Item::Mod(m) => walk.enum_module(m),
            syn::Item::Struct(s) => walk.struct_record(s),
            syn::Item::Union(u) => walk.union_record(u),
            syn::Item::Type(t) => walk.decls.push(CDecl::Typedef {
                name: t.ident.to_string(),
                ty: ctype(&t.ty),
                doc: doc_of(&t.attrs),
            }),
            syn::Item::Const(c) if c.ident == "_" => collect_layout(&c.expr, &mut walk.layouts),
            syn::Item::Const(c) => walk.constant(c),
            syn::Item::Impl(imp) => walk.bitfield_impl(imp),
            syn::Item::ForeignMod(f) => walk.extern_block(f),
            syn::Item::Use(u) => walk.use_item(u),
            other => walk.not_understood(other, "item kind not understood"),
        }
    }
    walk.finish(rel)
}

/// What the walk has read so far: declarations in bindgen's order, and the facts bindgen states
/// after a record (its layout assertions, its bit-field accessors), attached to it at the end.
#[derive(Default)]
struct Walk {
    decls: Vec<CDecl>,
    untranslatable: Vec<(String, String)>,
    /// (label, value) of every layout assertion (`"Size of X"`, `"Offset of field: X::f"`).
    layouts: Vec<(String, u64)>,
    /// Bit-fields by the record whose accessors they are.
    bitfields: BTreeMap<String, Vec<CBitfield>>,
}

impl Walk {
    /// `pub mod E { pub type Type = u8; pub const E_A: Type = 0; ... }`: an enum, bindgen's
    /// module-of-constants form, or the constants of an anonymous enum.
    fn enum_module(&mut self, m: &syn::ItemMod) {
        let name = m.ident.to_string();
        let Some((_, items)) = &m.content else {
            return;
        };
        let mut underlying = None;
        let mut members = Vec::new();
        for inner in items {
            match inner {
                syn::Item::Type(t) if t.ident == "Type" => {
                    if let CType::Prim(p) = ctype(&t.ty) {
                        underlying = Some(p);
                    }
                }
                syn::Item::Const(c) => match lit_i128(&c.expr) {
                    Some(value) => members.push(CEnumMember {
                        name: c.ident.to_string(),
                        value,
                        doc: doc_of(&c.attrs),
                    }),
                    None => self.untranslatable.push((
                        c.ident.to_string(),
                        "enumerator value is not a literal".to_string(),
                    )),
                },
                _ => {}
            }
        }
        match underlying {
            // `enum { A = 1 };` declares constants and no type (bindgen names it `_bindgen_ty_N`).
            Some(underlying) if name.starts_with(BINDGEN_ANON_ENUM) => {
                self.decls.extend(members.into_iter().map(|m| CDecl::Const {
                    name: m.name,
                    ty: underlying,
                    value: m.value,
                    doc: m.doc,
                }))
            }
            Some(underlying) => self.decls.push(CDecl::Enum(CEnum {
                doc: doc_of(&m.attrs).or_else(|| {
                    items.iter().find_map(|i| match i {
                        syn::Item::Type(t) => doc_of(&t.attrs),
                        _ => None,
                    })
                }),
                name,
                underlying,
                members,
            })),
            None => self
                .untranslatable
                .push((name, "enum without an integer type".into())),
        }
    }

    /// A struct, or a union bindgen could not emit natively: that arrives as a struct of
    /// `__BindgenUnionField`s plus a `bindgen_union_field` storage array.
    fn struct_record(&mut self, s: &syn::ItemStruct) {
        let name = s.ident.to_string();
        if is_bindgen_helper(&name) {
            return;
        }
        let (fields, emulated_union) = match &s.fields {
            syn::Fields::Named(f) => {
                let storage =
                    |f: &syn::Field| f.ident.as_ref().is_some_and(|i| i == "bindgen_union_field");
                (
                    f.named.iter().filter(|f| !storage(f)).map(field).collect(),
                    f.named.iter().any(storage),
                )
            }
            syn::Fields::Unit => (Vec::new(), false),
            syn::Fields::Unnamed(_) => {
                self.untranslatable
                    .push((name, "tuple struct from bindgen".into()));
                return;
            }
        };
        let kind = if emulated_union {
            RecordKind::Union
        } else {
            RecordKind::Struct
        };
        self.decls
            .push(CDecl::Record(record(name, kind, &s.attrs, fields)));
    }

    /// A union.
    fn union_record(&mut self, u: &syn::ItemUnion) {
        let fields = u.fields.named.iter().map(field).collect();
        self.decls.push(CDecl::Record(record(
            u.ident.to_string(),
            RecordKind::Union,
            &u.attrs,
            fields,
        )));
    }

    /// `pub const NAME: T = v;`: a `static const` or a numeric `#define`.
    fn constant(&mut self, c: &syn::ItemConst) {
        let ty = match ctype(&c.ty) {
            CType::Prim(p) => p,
            other => {
                self.untranslatable
                    .push((c.ident.to_string(), format!("constant of type {other:?}")));
                return;
            }
        };
        match lit_i128(&c.expr) {
            Some(value) => self.decls.push(CDecl::Const {
                name: c.ident.to_string(),
                ty,
                value,
                doc: doc_of(&c.attrs),
            }),
            None => self.untranslatable.push((
                c.ident.to_string(),
                "constant initializer is not an integer literal".into(),
            )),
        }
    }

    /// `impl R { ... }`: the bit-field accessors of record `R`.
    fn bitfield_impl(&mut self, imp: &syn::ItemImpl) {
        let syn::Type::Path(p) = &*imp.self_ty else {
            return;
        };
        let owner = path_last(&p.path);
        if is_bindgen_helper(&owner) {
            return;
        }
        for bf in bitfield_accessors(imp) {
            self.bitfields.entry(owner.clone()).or_default().push(bf);
        }
    }

    /// `extern "C" { ... }`: functions and variables, which the ISA model has no place for.
    fn extern_block(&mut self, f: &syn::ItemForeignMod) {
        for it in &f.items {
            let name = match it {
                syn::ForeignItem::Fn(func) => func.sig.ident.to_string(),
                syn::ForeignItem::Static(s) => s.ident.to_string(),
                _ => "extern item".to_string(),
            };
            self.untranslatable.push((
                name,
                "functions and extern variables are not part of the ISA model".into(),
            ));
        }
    }

    /// `pub use ...;`: bindgen's form of a typedef of an enum, or of a typedef of one.
    fn use_item(&mut self, u: &syn::ItemUse) {
        match typedef_use(&u.tree) {
            Some((name, ty)) => self.decls.push(CDecl::Typedef {
                name,
                ty,
                doc: doc_of(&u.attrs),
            }),
            None => self.not_understood(&syn::Item::Use(u.clone()), "`use` item not understood"),
        }
    }

    /// An item none of the walkers reads, under the name it declares (which the line index finds
    /// in the header), its text in the reason.
    fn not_understood(&mut self, item: &syn::Item, what: &str) {
        let text: String = quote::quote!(#item).to_string().chars().take(60).collect();
        match declared_name(item) {
            Some(name) => self
                .untranslatable
                .push((name, format!("{what} (`{text}`)"))),
            None => self.untranslatable.push((text, what.to_string())),
        }
    }

    /// The declarations, each record with its bit-fields and the layout bindgen asserted for it.
    fn finish(mut self, rel: &str) -> FileDecls {
        for decl in &mut self.decls {
            if let CDecl::Record(r) = decl {
                if let Some(bfs) = self.bitfields.remove(&r.name) {
                    r.bitfields = bfs;
                }
                apply_layout(r, &self.layouts);
            }
        }
        FileDecls {
            file: rel.to_string(),
            decls: self.decls,
            untranslatable: self.untranslatable,
        }
    }
}

/// The name an item declares: its identifier, or the last name a `use` brings in.
fn declared_name(item: &syn::Item) -> Option<String> {
    fn use_name(tree: &syn::UseTree) -> Option<String> {
        match tree {
            syn::UseTree::Path(p) => use_name(&p.tree),
            syn::UseTree::Name(n) => Some(n.ident.to_string()),
            syn::UseTree::Rename(r) => Some(r.rename.to_string()),
            syn::UseTree::Glob(_) | syn::UseTree::Group(_) => None,
        }
    }
    let ident = match item {
        syn::Item::Use(u) => return use_name(&u.tree),
        syn::Item::Fn(f) => &f.sig.ident,
        syn::Item::Static(s) => &s.ident,
        syn::Item::Enum(e) => &e.ident,
        syn::Item::Trait(t) => &t.ident,
        syn::Item::Macro(m) => m.ident.as_ref()?,
        syn::Item::ExternCrate(e) => &e.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// A named field as bindgen emits it (bindgen's keyword escapes undone).
fn field(f: &syn::Field) -> CField {
    CField {
        name: c_name_of(&f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default()),
        ty: ctype(&f.ty),
        doc: doc_of(&f.attrs),
        anonymous: false,
    }
}

/// A record with its fields; its layout and bit-fields come later ([`Walk::finish`]).
fn record(
    name: String,
    kind: RecordKind,
    attrs: &[syn::Attribute],
    fields: Vec<CField>,
) -> CRecord {
    CRecord {
        packed: repr_has(attrs, "packed"),
        kind,
        doc: doc_of(attrs),
        name,
        fields,
        bitfields: Vec::new(),
        size: None,
        align: None,
        offsets: BTreeMap::new(),
        anonymous_in: None,
    }
}

/// The size, alignment and field offsets the layout assertions `layouts` state for `r`.
fn apply_layout(r: &mut CRecord, layouts: &[(String, u64)]) {
    for (label, value) in layouts {
        if let Some(rest) = label.strip_prefix("Size of ") {
            if rest == r.name {
                r.size = Some(*value);
            }
        } else if let Some(rest) = label.strip_prefix("Alignment of ") {
            if rest == r.name {
                r.align = Some(*value);
            }
        } else if let Some(rest) = label.strip_prefix("Offset of field: ") {
            if let Some((owner, field)) = rest.split_once("::") {
                if owner == r.name {
                    r.offsets.insert(c_name_of(field), *value);
                }
            }
        }
    }
}

/// bindgen's `use` forms of a typedef, as `(name, aliased type)`: `use self::X::Type as Y;` for
/// `typedef X Y;` of an enum X (enums are modules of constants), and `use self::X as Y;` for a
/// typedef of such a typedef (X names the typedef, which the model resolves).
fn typedef_use(tree: &syn::UseTree) -> Option<(String, CType)> {
    let syn::UseTree::Path(s) = tree else {
        return None;
    };
    if s.ident != "self" {
        return None;
    }
    match &*s.tree {
        syn::UseTree::Rename(r) => Some((r.rename.to_string(), CType::Named(r.ident.to_string()))),
        syn::UseTree::Path(e) => match &*e.tree {
            syn::UseTree::Rename(r) if r.ident == "Type" => {
                Some((r.rename.to_string(), CType::Enum(e.ident.to_string())))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `["label"][<expr> - 64usize];` statements of bindgen's layout tests.
fn collect_layout(expr: &syn::Expr, out: &mut Vec<(String, u64)>) {
    let syn::Expr::Block(block) = expr else {
        return;
    };
    for stmt in &block.block.stmts {
        let syn::Stmt::Expr(syn::Expr::Index(index), _) = stmt else {
            continue;
        };
        let syn::Expr::Array(label) = &*index.expr else {
            continue;
        };
        let Some(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(label),
            ..
        })) = label.elems.first()
        else {
            continue;
        };
        if let syn::Expr::Binary(b) = &*index.index {
            if let Some(v) = lit_u64(&b.right) {
                out.push((label.value(), v));
            }
        }
    }
}

/// Bit-field getters: `pub fn name(&self) -> T { ... self._bitfield_1.get(OFF, W) ... }`.
fn bitfield_accessors(imp: &syn::ItemImpl) -> Vec<CBitfield> {
    struct Finder {
        found: Option<(String, u32, u32)>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
            if call.method == "get" && call.args.len() == 2 {
                if let syn::Expr::Field(f) = &*call.receiver {
                    if let syn::Member::Named(unit) = &f.member {
                        let unit = unit.to_string();
                        if unit.starts_with("_bitfield_") {
                            if let (Some(off), Some(w)) =
                                (lit_u64(&call.args[0]), lit_u64(&call.args[1]))
                            {
                                self.found = Some((unit, off as u32, w as u32));
                            }
                        }
                    }
                }
            }
            syn::visit::visit_expr_method_call(self, call);
        }
    }
    let mut out = Vec::new();
    for item in &imp.items {
        let syn::ImplItem::Fn(f) = item else { continue };
        let name = f.sig.ident.to_string();
        let is_getter = f.sig.inputs.len() == 1
            && matches!(f.sig.inputs.first(), Some(syn::FnArg::Receiver(r)) if r.mutability.is_none())
            && f.sig.unsafety.is_none();
        if !is_getter || name.starts_with("set_") {
            continue;
        }
        let syn::ReturnType::Type(_, ret) = &f.sig.output else {
            continue;
        };
        let mut finder = Finder { found: None };
        syn::visit::Visit::visit_block(&mut finder, &f.block);
        if let Some((unit, bit_offset, width)) = finder.found {
            out.push(CBitfield {
                unit,
                name: c_name_of(&name),
                bit_offset,
                width,
                ty: ctype(ret),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typedef_of(text: &str) -> Option<(String, CType)> {
        typedef_use(&syn::parse_str::<syn::ItemUse>(text).unwrap().tree)
    }

    #[test]
    fn items_not_understood_are_named_by_what_they_declare() {
        let file: syn::File = syn::parse_str(concat!(
            "pub use self::NEURON_ISA_TPB_X::Other as NEURON_ISA_TPB_Y;\n",
            "pub fn neuron_isa_tpb_f() {}\n",
            "pub use self::{A, B};\n",
        ))
        .unwrap();
        let decls = walk("tpb/x.h", &file);
        let names: Vec<&str> = decls
            .untranslatable
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        assert_eq!(names[..2], ["NEURON_ISA_TPB_Y", "neuron_isa_tpb_f"]);
        let (_, why) = &decls.untranslatable[0];
        assert!(
            why.starts_with("`use` item not understood (`pub use self"),
            "{why}"
        );
        // A `use` of several names declares none of them alone: named by its text.
        assert!(names[2].starts_with("pub use self"), "{names:?}");
    }

    #[test]
    fn typedefs_of_enums_and_of_their_typedefs_are_read_from_uses() {
        assert_eq!(
            typedef_of("pub use self::NEURON_ISA_TPB_X::Type as NEURON_ISA_TPB_Y;"),
            Some((
                "NEURON_ISA_TPB_Y".into(),
                CType::Enum("NEURON_ISA_TPB_X".into())
            ))
        );
        assert_eq!(
            typedef_of("pub use self::NEURON_ISA_TPB_Y as NEURON_ISA_TPB_Z;"),
            Some((
                "NEURON_ISA_TPB_Z".into(),
                CType::Named("NEURON_ISA_TPB_Y".into())
            ))
        );
        assert_eq!(
            typedef_of("pub use self::NEURON_ISA_TPB_X::Other as Y;"),
            None
        );
        assert_eq!(typedef_of("pub use core::ffi::c_int as Y;"), None);
        assert_eq!(typedef_of("pub use self::NEURON_ISA_TPB_X;"), None);
    }
}
