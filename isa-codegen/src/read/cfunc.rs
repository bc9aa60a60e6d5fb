//! The vendor's generated C functions, read lexically: `STATIC inline bool NAME(<C params>)
//! { BODY }` (the validators of `aws_neuron_isa_tpb_assert.h`, `is_pseudo_op` and
//! `neuron_isa_check_opcode_on_engine` of `aws_neuron_isa_tpb_instr_assert.h`), and the
//! opcode → debug-validator switch of `aws_neuron_isa_tpb_debug_assert.h`.
//!
//! Reading costs a scan of the text: a body is parsed (as a Rust block, with `syn`) only when
//! the model asks for it ([`CFunction::parse_body`]). The C these files use for bodies
//! (`if (c) { ... } else ...`, `return( ... );`, `return false;`, `==`, `!=`, `&&`, `||`, `!`,
//! parentheses, integer literals, names, calls) is Rust syntax too.

use super::source::{code_lines, function_definitions, has_ident, SourceFile};
use crate::diag::{Diagnostic, Loc};

/// Tree-relative path of the debug-validator switch.
pub const DEBUG_ASSERT: &str = "tpb/aws_neuron_isa_tpb_debug_assert.h";

/// One `STATIC inline bool` function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CFunction {
    /// Its name.
    pub name: String,
    /// Parameters: (C type as written, name).
    pub params: Vec<(String, String)>,
    /// Where the definition starts (its head).
    pub loc: Loc,
    /// 1-based line of the body's `{`.
    pub body_line: u32,
    /// The body from `{` to `}` inclusive, comments blanked, lines kept (line 1 is `body_line`).
    pub body: String,
    /// The trailing `//` comment of each body line that has code before it: (file line, the
    /// comment's text after `//`), in line order. The notes placement lines carry.
    pub notes: Vec<(u32, String)>,
}

impl CFunction {
    /// The body parsed as a Rust block; a body outside the syntax is a diagnostic at its line.
    pub fn parse_body(&self) -> Result<syn::Block, Diagnostic> {
        syn::parse_str::<syn::Block>(&self.body).map_err(|e| {
            Diagnostic::new(
                self.loc_of(e.span()),
                format!(
                    "C function `{}`: its body is outside the C subset the generator reads ({e})",
                    self.name
                ),
            )
        })
    }

    /// The trailing comment of file line `line`, if the body has one there.
    pub fn note_at(&self, line: u32) -> Option<&str> {
        self.notes
            .iter()
            .find(|(l, _)| *l == line)
            .map(|(_, n)| n.as_str())
    }

    /// The file location of a span of the parsed body.
    pub fn loc_of(&self, span: proc_macro2::Span) -> Loc {
        let line = span.start().line as u32;
        Loc::new(
            self.loc.file.clone(),
            self.body_line + line.saturating_sub(1),
        )
    }
}

/// The `STATIC inline bool` (or `static inline bool`) functions of a header.
pub fn bool_functions(file: &SourceFile) -> Vec<CFunction> {
    let code = code_lines(&file.text);
    let raw: Vec<&str> = file.text.lines().collect();
    let mut out = Vec::new();
    for def in function_definitions(&code) {
        let Some(open) = def.head.find('(') else {
            continue;
        };
        let words: Vec<&str> = def.head[..open].split_whitespace().collect();
        let [qualifiers @ .., ret, name] = words.as_slice() else {
            continue;
        };
        let is_static = qualifiers.iter().any(|q| *q == "STATIC" || *q == "static");
        if *ret != "bool" || !is_static || !qualifiers.contains(&"inline") {
            continue;
        }
        let Some(close) = def.head.rfind(')') else {
            continue;
        };
        let params_text = def.head[open + 1..close].trim();
        let mut params = Vec::new();
        if !params_text.is_empty() && params_text != "void" {
            for p in params_text.split(',') {
                let p = p.trim();
                let cut = p
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(0, |k| k + 1);
                params.push((p[..cut].trim().to_string(), p[cut..].to_string()));
            }
        }
        let mut body = String::new();
        for (ln, line) in code
            .iter()
            .enumerate()
            .take(def.close.0 + 1)
            .skip(def.open.0)
        {
            let from = if ln == def.open.0 { def.open.1 } else { 0 };
            let to = if ln == def.close.0 {
                def.close.1 + 1
            } else {
                line.len()
            };
            body.push_str(line.get(from..to).unwrap_or(""));
            if ln != def.close.0 {
                body.push('\n');
            }
        }
        let notes = (def.open.0..=def.close.0)
            .filter(|&ln| code.get(ln).is_some_and(|c| !c.trim().is_empty()))
            .filter_map(|ln| {
                let line = raw.get(ln)?;
                let note = &line[line.find("//")? + 2..];
                Some((ln as u32 + 1, note.to_string()))
            })
            .collect();
        out.push(CFunction {
            name: name.to_string(),
            params,
            loc: Loc::new(file.rel.clone(), def.head_line),
            body_line: def.open.0 as u32 + 1,
            body,
            notes,
        });
    }
    out
}

/// One arm of the debug switch: `case <opcodes>: check = dbg_<validator>(i[, nc]);`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DebugCase {
    /// The opcode enumerators of the arm's `case` labels, each with its line.
    pub opcodes: Vec<(String, Loc)>,
    /// The validator, without `dbg_` (`is_valid_s1d2_sort`).
    pub validator: String,
    /// The line of the call.
    pub loc: Loc,
}

/// The arms of the opcode switch of `aws_neuron_isa_tpb_debug_assert.h` (read lexically):
/// consecutive `case NEURON_ISA_TPB_OPCODE_X:` labels followed by `check = dbg_NAME(...)`.
pub fn debug_switch(file: &SourceFile) -> Vec<DebugCase> {
    let code = code_lines(&file.text);
    let mut out = Vec::new();
    let mut pending: Vec<(String, Loc)> = Vec::new();
    for (ln, line) in code.iter().enumerate() {
        let loc = Loc::new(file.rel.clone(), ln as u32 + 1);
        let mut rest = line.as_str();
        while !rest.trim().is_empty() {
            let t = rest.trim_start();
            if let Some(after) = t.strip_prefix("case").filter(|a| {
                a.starts_with(|c: char| c.is_whitespace() || c == '(') && has_ident(t, "case")
            }) {
                let (label, tail) = after.split_once(':').unwrap_or((after, ""));
                let label = label.trim().trim_matches(|c| c == '(' || c == ')').trim();
                if label.starts_with("NEURON_ISA_TPB_OPCODE_") {
                    pending.push((label.to_string(), loc.clone()));
                }
                rest = tail;
                continue;
            }
            if let Some(at) = t.find("dbg_") {
                let name: String = t[at + 4..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let called = t[at + 4 + name.len()..].trim_start().starts_with('(');
                if called && !name.is_empty() && !pending.is_empty() {
                    out.push(DebugCase {
                        opcodes: std::mem::take(&mut pending),
                        validator: name,
                        loc: loc.clone(),
                    });
                }
                break;
            }
            if has_ident(t, "break") || has_ident(t, "default") {
                pending.clear();
            }
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("tpb/x.h", text)
    }

    #[test]
    fn bool_functions_with_their_parameters_and_body_lines() {
        let f = file(concat!(
            "#define STATIC static\n",
            "STATIC inline bool is_pseudo_op(NEURON_ISA_TPB_OPCODE opcode) {\n",
            "    return((opcode == NEURON_ISA_TPB_OPCODE_X)); // note\n",
            "}\n",
            "STATIC inline NEURON_ISA_TPB_DEBUG_BOOL dbg_f(NEURON_ISA_TPB_INST_UNION i) { return r; }\n",
            "static inline bool on(NEURON_ISA_TPB_OPCODE op,\n",
            "                      NEURON_ISA_TPB_NEURON_ENGINE engine)\n",
            "{\n",
            "    if (engine == 2) { return true; }\n",
            "    return false;\n",
            "}\n",
        ));
        let fns = bool_functions(&f);
        assert_eq!(fns.len(), 2, "{fns:?}");
        assert_eq!(fns[0].name, "is_pseudo_op");
        assert_eq!(
            fns[0].params,
            [("NEURON_ISA_TPB_OPCODE".to_string(), "opcode".to_string())]
        );
        assert_eq!((fns[0].loc.line, fns[0].body_line), (2, 2));
        assert_eq!(fns[0].notes, [(3, " note".to_string())]);
        assert_eq!(fns[0].note_at(3), Some(" note"));
        assert!(fns[1].notes.is_empty());
        assert!(fns[0].parse_body().is_ok());
        assert_eq!(fns[1].name, "on");
        assert_eq!(fns[1].params[1].1, "engine");
        assert_eq!((fns[1].loc.line, fns[1].body_line), (6, 8));
        let block = fns[1].parse_body().unwrap();
        assert_eq!(block.stmts.len(), 2);
        let if_line = syn::spanned::Spanned::span(&block.stmts[0]);
        assert_eq!(fns[1].loc_of(if_line).line, 9);
    }

    #[test]
    fn a_body_outside_the_subset_names_its_line() {
        let f =
            file("STATIC inline bool f(int x) {\n    int y = 2;\n    return (uint8_t)x == y;\n}\n");
        let err = bool_functions(&f)[0].parse_body().unwrap_err();
        assert_eq!(err.loc.line, 2, "{err}");
        assert!(err.message.contains("outside the C subset"), "{err}");
    }

    #[test]
    fn the_debug_switch_maps_opcodes_to_validators() {
        let f = file(concat!(
            "switch (opcode) {\n",
            "    case NEURON_ISA_TPB_OPCODE_SORT:\n",
            "        check = dbg_is_valid_s1d2_sort(i);\n",
            "        break;\n",
            "    case NEURON_ISA_TPB_OPCODE_A: // first\n",
            "    case NEURON_ISA_TPB_OPCODE_B: check = dbg_is_valid_ab(i,nc); break;\n",
            "    case NEURON_ISA_TPB_OPCODE_NONE:\n",
            "        break;\n",
            "    default:\n",
            "        check = dbg_fallback(i);\n",
            "}\n",
        ));
        let cases = debug_switch(&f);
        assert_eq!(cases.len(), 2, "{cases:?}");
        assert_eq!(cases[0].validator, "is_valid_s1d2_sort");
        assert_eq!(cases[0].opcodes[0].0, "NEURON_ISA_TPB_OPCODE_SORT");
        assert_eq!(cases[0].opcodes[0].1.line, 2);
        assert_eq!(cases[1].validator, "is_valid_ab");
        let ab: Vec<&str> = cases[1].opcodes.iter().map(|o| o.0.as_str()).collect();
        assert_eq!(ab, ["NEURON_ISA_TPB_OPCODE_A", "NEURON_ISA_TPB_OPCODE_B"]);
        assert_eq!(cases[1].loc.line, 6);
    }
}
