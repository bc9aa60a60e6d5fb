//! The `// fn` spec blocks of the tree and their C twins for `aws_neuron_isa_tpb_assert.h`.
//!
//! Blocks are cut out of the finished header texts by the rules of docs/spec-language.md and parsed
//! with `syn`. The translation covers the spec language of that page (literals, parameters,
//! constants, enum members, field and literal-index access, calls, unary and binary operators,
//! parentheses, `if`/`else`) plus the vendor's `is_valid_enum(DataSrc, x)` spelling. A block beyond it
//! (the tree has a few on purpose: `match`, method calls, `let`, casts) gets no C twin, nor does any
//! block that calls one; the list of those is part of the program's output.
//!
//! C semantics differ from the spec's mathematical integers: every operand of an arithmetic or
//! comparison operator is widened to `int64_t`, which is exact for the field widths of the tree but
//! not a proof of equivalence; `/`, `%`, `<<` and `>>` go through helpers that give the spec's 0 for a
//! zero divisor or an out-of-range shift. The twins exist to give the fixture the vendor's
//! generated-C shape.

use std::collections::{BTreeMap, BTreeSet};

use syn::{BinOp, Expr, FnArg, Lit, Pat, ReturnType, Type, UnOp};

/// One `// fn` block.
#[derive(Clone, Debug)]
pub struct Block {
    /// File the block sits in (name only).
    pub file: String,
    /// 1-based first line.
    pub line: usize,
    pub name: String,
    /// The block's code, `//` prefixes and nested comments removed.
    pub code: String,
}

fn comment_text(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("//")
}

/// The spec blocks of one file.
pub fn blocks(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let starts = comment_text(lines[k]).is_some_and(|t| t.trim_start().starts_with("fn "));
        if !starts {
            k += 1;
            continue;
        }
        let start = k;
        let mut depth = 0i64;
        let mut opened = false;
        let mut code = String::new();
        loop {
            let t = lines
                .get(k)
                .and_then(|l| comment_text(l))
                .ok_or_else(|| format!("{file}:{}: unbalanced spec block", start + 1))?;
            let c = t.split("//").next().unwrap_or("");
            for ch in c.chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            code.push_str(c);
            code.push('\n');
            k += 1;
            if opened && depth == 0 {
                break;
            }
        }
        let name: String = code
            .trim_start()
            .trim_start_matches("fn")
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        out.push(Block {
            file: file.to_string(),
            line: start + 1,
            name,
            code,
        });
    }
    Ok(out)
}

fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The C declarations of the tree the translation resolves spec names against.
#[derive(Debug, Default)]
pub struct Registry {
    /// Enum name (without NEURON_ISA_TPB_) -> members (suffix after the enum prefix) and values.
    pub enums: BTreeMap<String, Vec<(String, i64)>>,
    /// Struct, union and typedef names (without the prefix).
    pub types: BTreeSet<String>,
    /// Typedef aliases of enums: alias -> enum.
    pub enum_aliases: BTreeMap<String, String>,
    /// `static const` names (without the prefix).
    pub consts: BTreeSet<String>,
}

fn parse_int(v: &str) -> Option<i64> {
    let v = v.trim().trim_end_matches('U');
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => v.parse().ok(),
    }
}

impl Registry {
    /// Reads the declarations of the given texts (they are this program's own output, whose line
    /// forms are fixed).
    pub fn scan<'a>(texts: impl IntoIterator<Item = &'a str>) -> Result<Registry, String> {
        let mut r = Registry::default();
        for text in texts {
            let mut current: Option<String> = None;
            for line in text.lines() {
                let code = line.split("//").next().unwrap_or("").trim();
                if let Some(e) = &current {
                    if code.starts_with('}') {
                        current = None;
                    } else if let Some((n, v)) = code.trim_end_matches(',').split_once('=') {
                        let n = n.trim();
                        let prefix = format!("NEURON_ISA_TPB_{e}_");
                        let m = n
                            .strip_prefix(&prefix)
                            .ok_or_else(|| format!("enumerator `{n}` outside the prefix of {e}"))?;
                        let v = parse_int(v).ok_or_else(|| format!("enumerator `{n}`: value"))?;
                        r.enums.get_mut(e).unwrap().push((m.to_string(), v));
                    }
                    continue;
                }
                let words: Vec<&str> = code.split_whitespace().collect();
                match words.as_slice() {
                    ["typedef", "enum", n, "{"] => {
                        let n = n.trim_start_matches("NEURON_ISA_TPB_").to_string();
                        r.enums.insert(n.clone(), Vec::new());
                        current = Some(n);
                    }
                    ["typedef", "struct" | "union", n, "{"] => {
                        r.types
                            .insert(n.trim_start_matches("NEURON_ISA_TPB_").to_string());
                    }
                    ["typedef", a, b] if b.ends_with(';') => {
                        let b = b
                            .trim_end_matches(';')
                            .trim_start_matches("NEURON_ISA_TPB_");
                        r.types.insert(b.to_string());
                        if let Some(a) = a.strip_prefix("NEURON_ISA_TPB_") {
                            r.enum_aliases.insert(b.to_string(), a.to_string());
                        }
                    }
                    ["static", "const", _, n, "=", ..] => {
                        if let Some(n) = n.strip_prefix("NEURON_ISA_TPB_") {
                            r.consts.insert(n.to_string());
                        }
                    }
                    _ => {}
                }
            }
        }
        // aliases of non-enums are plain types
        let enums: BTreeSet<String> = r.enums.keys().cloned().collect();
        r.enum_aliases.retain(|_, v| enums.contains(v));
        Ok(r)
    }

    pub fn find_enum(&self, spec: &str) -> Option<&str> {
        let n = norm(spec);
        self.enums.keys().find(|k| norm(k) == n).map(|k| k.as_str())
    }

    fn find_type(&self, spec: &str) -> Option<&str> {
        let n = norm(spec);
        self.enums
            .keys()
            .chain(self.types.iter())
            .find(|k| norm(k) == n)
            .map(|k| k.as_str())
    }

    fn member(&self, e: &str, m: &str) -> Option<String> {
        let n = norm(m);
        self.enums[e]
            .iter()
            .find(|(k, _)| norm(k) == n)
            .map(|(k, _)| format!("NEURON_ISA_TPB_{e}_{k}"))
    }
}

/// The C function that checks membership of enum `e` (defined in enums.h).
pub fn enum_check_fn(e: &str) -> String {
    format!("is_valid_enum_{}", e.to_ascii_lowercase())
}

/// A block with its C twin, or the reason it has none.
#[derive(Debug)]
pub struct Translated {
    pub block: Block,
    pub params: Vec<(String, String)>,
    /// C declarations of the parameters (empty when there is no twin).
    pub params_c: Vec<String>,
    /// Spec return type.
    pub ret: String,
    /// Functions of the tree it calls.
    pub calls: BTreeSet<String>,
    pub c: Result<String, String>,
}

struct Cx<'a> {
    reg: &'a Registry,
    params: BTreeSet<String>,
    calls: BTreeSet<String>,
    used: BTreeSet<String>,
}

fn c_scalar(t: &str) -> Option<&'static str> {
    Some(match t {
        "bool" => "bool",
        "u8" => "uint8_t",
        "u16" => "uint16_t",
        "u32" => "uint32_t",
        "u64" => "uint64_t",
        "i8" => "int8_t",
        "i16" => "int16_t",
        "i32" => "int32_t",
        "i64" => "int64_t",
        _ => return None,
    })
}

fn c_param_type(reg: &Registry, t: &str) -> Result<String, String> {
    if t == "Inst" {
        return Ok("NEURON_ISA_TPB_INST_UNION".into());
    }
    if let Some(s) = c_scalar(t) {
        return Ok(s.into());
    }
    reg.find_type(t)
        .map(|n| format!("NEURON_ISA_TPB_{n}"))
        .ok_or_else(|| format!("unknown type `{t}`"))
}

fn path_text(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

fn wide(s: String) -> String {
    format!("(int64_t)({s})")
}

impl Cx<'_> {
    fn expr(&mut self, e: &Expr) -> Result<String, String> {
        Ok(match e {
            Expr::Lit(l) => match &l.lit {
                Lit::Int(i) => {
                    if !i.suffix().is_empty() {
                        return Err(format!("literal `{i}` with a suffix"));
                    }
                    i.to_string()
                }
                Lit::Bool(b) => b.value.to_string(),
                _ => return Err("non-integer literal".into()),
            },
            // binary and unary operators and `if` parenthesise themselves
            Expr::Paren(p) => match &*p.expr {
                Expr::Binary(_) | Expr::Unary(_) | Expr::If(_) | Expr::Paren(_) => {
                    self.expr(&p.expr)?
                }
                e => format!("({})", self.expr(e)?),
            },
            Expr::Group(g) => self.expr(&g.expr)?,
            Expr::Path(p) => {
                let segs = path_text(&p.path);
                match segs.as_slice() {
                    [one] if self.params.contains(one) => {
                        self.used.insert(one.clone());
                        one.clone()
                    }
                    [one] if self.reg.consts.contains(one) => format!("NEURON_ISA_TPB_{one}"),
                    [e, m] => {
                        let en = self
                            .reg
                            .find_enum(e)
                            .ok_or_else(|| format!("unknown enum `{e}`"))?;
                        self.reg
                            .member(en, m)
                            .ok_or_else(|| format!("unknown member `{e}::{m}`"))?
                    }
                    _ => return Err(format!("unknown name `{}`", segs.join("::"))),
                }
            }
            Expr::Field(f) => {
                let base = self.expr(&f.base)?;
                let member = match &f.member {
                    syn::Member::Named(n) => n.to_string().trim_start_matches("r#").to_string(),
                    syn::Member::Unnamed(_) => return Err("tuple field".into()),
                };
                format!("{base}.{member}")
            }
            Expr::Index(x) => {
                let base = self.expr(&x.expr)?;
                match &*x.index {
                    Expr::Lit(l) if matches!(l.lit, Lit::Int(_)) => {
                        format!("{base}[{}]", self.expr(&x.index)?)
                    }
                    _ => return Err("non-literal index".into()),
                }
            }
            Expr::Unary(u) => {
                let inner = self.expr(&u.expr)?;
                match u.op {
                    UnOp::Not(_) => format!("(!{inner})"),
                    UnOp::Neg(_) => format!("(-{})", wide(inner)),
                    _ => return Err("dereference".into()),
                }
            }
            Expr::Binary(b) => {
                let l = self.expr(&b.left)?;
                let r = self.expr(&b.right)?;
                let op = match b.op {
                    BinOp::And(_) => return Ok(format!("({l} && {r})")),
                    BinOp::Or(_) => return Ok(format!("({l} || {r})")),
                    BinOp::Eq(_) => "==",
                    BinOp::Ne(_) => "!=",
                    BinOp::Lt(_) => "<",
                    BinOp::Le(_) => "<=",
                    BinOp::Gt(_) => ">",
                    BinOp::Ge(_) => ">=",
                    BinOp::Add(_) => "+",
                    BinOp::Sub(_) => "-",
                    BinOp::Mul(_) => "*",
                    BinOp::Div(_) => {
                        return Ok(format!("neuron_isa_tpb_spec_div({}, {})", wide(l), wide(r)))
                    }
                    BinOp::Rem(_) => {
                        return Ok(format!("neuron_isa_tpb_spec_rem({}, {})", wide(l), wide(r)))
                    }
                    BinOp::BitAnd(_) => "&",
                    BinOp::BitOr(_) => "|",
                    BinOp::BitXor(_) => "^",
                    BinOp::Shl(_) => {
                        return Ok(format!("neuron_isa_tpb_spec_shl({}, {})", wide(l), wide(r)))
                    }
                    BinOp::Shr(_) => {
                        return Ok(format!("neuron_isa_tpb_spec_shr({}, {})", wide(l), wide(r)))
                    }
                    _ => return Err("compound assignment".into()),
                };
                format!("({} {op} {})", wide(l), wide(r))
            }
            Expr::If(i) => {
                let c = self.expr(&i.cond)?;
                let a = self.block_expr(&i.then_branch)?;
                let b = match &i.else_branch {
                    Some((_, e)) => self.expr(e)?,
                    None => return Err("`if` without `else`".into()),
                };
                format!("({c} ? {a} : {b})")
            }
            Expr::Block(b) => self.block_expr(&b.block)?,
            Expr::Call(c) => {
                let Expr::Path(f) = &*c.func else {
                    return Err("call of a non-name".into());
                };
                let f = path_text(&f.path).join("::");
                if f == "is_valid_enum" {
                    if c.args.len() != 2 {
                        return Err("is_valid_enum takes two arguments".into());
                    }
                    let Expr::Path(p) = &c.args[0] else {
                        return Err("is_valid_enum: first argument is not an enum name".into());
                    };
                    let segs = path_text(&p.path);
                    let e = match segs.as_slice() {
                        [l, e] if l == "EnumList" => e.clone(),
                        [e] => e.clone(),
                        _ => return Err("is_valid_enum: bad enum list".into()),
                    };
                    let en = self
                        .reg
                        .find_enum(&e)
                        .ok_or_else(|| format!("is_valid_enum: unknown enum `{e}`"))?;
                    let v = self.expr(&c.args[1])?;
                    return Ok(format!("{}({v})", enum_check_fn(en)));
                }
                let mut args = Vec::new();
                for a in &c.args {
                    args.push(self.expr(a)?);
                }
                self.calls.insert(f.clone());
                format!("{f}({})", args.join(", "))
            }
            Expr::Match(_) => return Err("`match` is beyond the spec language".into()),
            Expr::MethodCall(m) => {
                return Err(format!(
                    "method call `.{}()` is beyond the spec language",
                    m.method
                ))
            }
            Expr::Cast(_) => return Err("`as` cast is beyond the spec language".into()),
            _ => return Err("expression form beyond the spec language".into()),
        })
    }

    fn block_expr(&mut self, b: &syn::Block) -> Result<String, String> {
        match b.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => self.expr(e),
            _ if b.stmts.iter().any(|s| matches!(s, syn::Stmt::Local(_))) => {
                Err("`let` is beyond the spec language".into())
            }
            _ => Err("a block of more than one expression".into()),
        }
    }
}

/// Splits a top-level `a && b && c` into its conjuncts.
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Binary(b) if matches!(b.op, BinOp::And(_)) => {
            let mut v = conjuncts(&b.left);
            v.push(&b.right);
            v
        }
        _ => vec![e],
    }
}

/// Field names that are Rust keywords (`i.x.type`, `i.x.ref`) become raw identifiers so that `syn`
/// reads the block; the C twin uses the plain name.
fn raw_keyword_fields(code: &str) -> String {
    const KW: &[&str] = &[
        "type", "ref", "in", "match", "loop", "move", "use", "where", "impl", "static", "const",
        "let", "as", "fn", "mod", "box", "dyn", "mut", "pub", "return", "struct", "enum", "trait",
        "unsafe", "while", "for", "if", "else", "break", "continue", "extern", "async", "await",
    ];
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(k) = rest.find('.') {
        out.push_str(&rest[..=k]);
        rest = &rest[k + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if KW.contains(&&rest[..end]) {
            out.push_str("r#");
        }
    }
    out.push_str(rest);
    out
}

/// Translates one block (without checking that its callees exist; see `translate_all`).
fn translate(reg: &Registry, block: &Block) -> Translated {
    let mut t = Translated {
        block: block.clone(),
        params: Vec::new(),
        params_c: Vec::new(),
        ret: String::new(),
        calls: BTreeSet::new(),
        c: Err(String::new()),
    };
    let item: syn::ItemFn = match syn::parse_str(&raw_keyword_fields(&block.code)) {
        Ok(f) => f,
        Err(e) => {
            t.c = Err(format!("does not parse: {e}"));
            return t;
        }
    };
    for a in &item.sig.inputs {
        let FnArg::Typed(pt) = a else {
            t.c = Err("self parameter".into());
            return t;
        };
        let (Pat::Ident(n), Type::Path(ty)) = (&*pt.pat, &*pt.ty) else {
            t.c = Err("parameter form".into());
            return t;
        };
        t.params
            .push((n.ident.to_string(), path_text(&ty.path).join("::")));
    }
    t.ret = match &item.sig.output {
        ReturnType::Type(_, ty) => match &**ty {
            Type::Path(p) => path_text(&p.path).join("::"),
            _ => String::new(),
        },
        ReturnType::Default => String::new(),
    };
    let mut cx = Cx {
        reg,
        params: t.params.iter().map(|(n, _)| n.clone()).collect(),
        calls: BTreeSet::new(),
        used: BTreeSet::new(),
    };
    let mut params_c = Vec::new();
    let result = (|| -> Result<String, String> {
        let ret_c = c_scalar(&t.ret).ok_or_else(|| format!("return type `{}`", t.ret))?;
        for (n, ty) in &t.params {
            params_c.push(format!("{} {n}", c_param_type(reg, ty)?));
        }
        let body = match item.block.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => e,
            _ if item
                .block
                .stmts
                .iter()
                .any(|s| matches!(s, syn::Stmt::Local(_))) =>
            {
                return Err("`let` is beyond the spec language".into())
            }
            _ => return Err("body is not one expression".into()),
        };
        let parts: Vec<String> = conjuncts(body)
            .into_iter()
            .map(|c| cx.expr(c))
            .collect::<Result<_, _>>()?;
        let head = format!("STATIC inline {ret_c} {}(", block.name);
        let pad = " ".repeat(head.len());
        let mut s = format!("{head}{}) {{\n", params_c.join(&format!(",\n{pad}")));
        for (n, _) in &t.params {
            if !cx.used.contains(n) {
                s.push_str(&format!("    (void){n};\n"));
            }
        }
        if ret_c == "bool" {
            s.push_str(&format!("    return(   {}", parts[0]));
            for p in &parts[1..] {
                s.push_str(&format!("\n           && {p}"));
            }
            s.push_str(");\n}\n");
        } else {
            let joined = parts.join(" && ");
            s.push_str(&format!("    return ({ret_c})({joined});\n}}\n"));
        }
        Ok(s)
    })();
    t.calls = cx.calls;
    if result.is_ok() {
        t.params_c = params_c;
    }
    t.c = result;
    t
}

/// The C prototype line of a translated function.
pub fn prototype(t: &Translated) -> Option<String> {
    let c = t.c.as_ref().ok()?;
    let head = c.split(") {").next()?;
    Some(format!(
        "{});",
        head.replace('\n', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    ))
}

/// Translates every block; a block whose callees (transitively) lack a twin loses its own.
pub fn translate_all(reg: &Registry, blocks: &[Block]) -> Result<Vec<Translated>, String> {
    let mut seen = BTreeMap::new();
    for b in blocks {
        if let Some(prev) = seen.insert(b.name.clone(), format!("{}:{}", b.file, b.line)) {
            return Err(format!(
                "spec function `{}` defined twice: {prev} and {}:{}",
                b.name, b.file, b.line
            ));
        }
    }
    let mut out: Vec<Translated> = blocks.iter().map(|b| translate(reg, b)).collect();
    loop {
        let ok: BTreeSet<String> = out
            .iter()
            .filter(|t| t.c.is_ok())
            .map(|t| t.block.name.clone())
            .collect();
        let mut changed = false;
        for t in &mut out {
            if t.c.is_ok() {
                if let Some(bad) = t.calls.iter().find(|c| !ok.contains(*c)) {
                    let why = if seen.contains_key(bad) {
                        format!("calls `{bad}`, which has no C twin")
                    } else {
                        format!("calls `{bad}`, which the tree does not define")
                    };
                    t.c = Err(why);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg() -> Registry {
        Registry::scan([
            "typedef enum NEURON_ISA_TPB_DTYPE {\n    NEURON_ISA_TPB_DTYPE_FP32 = 0xA,\n} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE;\nstatic const uint32_t NEURON_ISA_TPB_POOLING_NUM_CHANNELS = 128U;\n",
        ])
        .unwrap()
    }

    #[test]
    fn translates_the_contract() {
        let text = "// fn f(i: Inst, d: Dtype) -> bool {\n//       (d == Dtype::FP32)   // note\n//    && (i.x.n[0] <= POOLING_NUM_CHANNELS)\n//    && if true { g(d) } else { false }\n// }\n// fn g(d: Dtype) -> bool { is_valid_enum(Dtype, d) }\n";
        let b = blocks("x.h", text).unwrap();
        assert_eq!(
            b.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
            ["f", "g"]
        );
        let t = translate_all(&reg(), &b).unwrap();
        let f = t[0].c.as_ref().unwrap();
        assert!(
            f.contains("((int64_t)(d) == (int64_t)(NEURON_ISA_TPB_DTYPE_FP32))"),
            "{f}"
        );
        assert!(
            f.contains(
                "&& ((int64_t)(i.x.n[0]) <= (int64_t)(NEURON_ISA_TPB_POOLING_NUM_CHANNELS))"
            ),
            "{f}"
        );
        assert!(f.contains("(true ? g(d) : false)"), "{f}");
        assert!(t[1].c.as_ref().unwrap().contains("is_valid_enum_dtype(d)"));
    }

    #[test]
    fn out_of_contract_blocks_and_their_callers_have_no_twin() {
        let text = "// fn a(i: Inst) -> u32 {\n//     match i.x.q { 0 => 0, _ => 1 }\n// }\n// fn b(i: Inst) -> bool { a(i) == 0 }\n// fn c(i: Inst) -> bool { i.x.n.min(3) == 3 }\n// fn d(i: Inst) -> bool {\n//     let t = i.x.n; t == 1\n// }\n// fn e(i: Inst) -> bool { (i.x.n as u32) == 1 }\n";
        let t = translate_all(&reg(), &blocks("x.h", text).unwrap()).unwrap();
        let why: Vec<String> = t.iter().map(|t| t.c.clone().unwrap_err()).collect();
        assert!(why[0].contains("match"));
        assert!(why[1].contains("calls `a`"));
        assert!(why[2].contains("method call"));
        assert!(why[3].contains("let"));
        assert!(why[4].contains("cast"));
    }

    #[test]
    fn duplicate_names_are_an_error() {
        let text = "// fn a(i: Inst) -> bool { true }\n// fn a(i: Inst) -> bool { false }\n";
        assert!(translate_all(&reg(), &blocks("x.h", text).unwrap())
            .unwrap_err()
            .contains("defined twice"));
    }
}
