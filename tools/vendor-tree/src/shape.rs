//! One operand header `aws_neuron_isa_tpb_<shape>.h`: banner, guard, includes, doc-block, the
//! 64-byte struct with vendor field comments, the size assert, and its spec blocks.

use std::collections::BTreeSet;

use crate::data::{LayoutKind, Opcode, Shape, Validator};
use crate::layout::{self, Member, Offsets, Types};

pub const NC: &str = "NC-v5";

/// Banner lines 1 - 4 (line 3 is the documented one).
pub fn banner(what: &str) -> String {
    format!(
        "/*\n * {what}: the neuron-isa project's vendor-scale test tree, not vendor text.\n * ISA header for {NC}\n */\n"
    )
}

pub fn guard(file: &str) -> String {
    let stem = file.trim_end_matches(".h").to_ascii_uppercase();
    format!("{stem}_H")
}

/// The shape code's tensors: (is_src, dims, is_mx).
fn code_tensors(name: &str) -> Vec<(bool, u8, bool)> {
    let code = name.split('_').next().unwrap_or("");
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut k = 0;
    while k < b.len() {
        let src = match b[k] {
            b's' => true,
            b'd' => false,
            _ => return Vec::new(),
        };
        k += 1;
        let mx = code[k..].starts_with("mx");
        if mx {
            k += 2;
        }
        match b.get(k) {
            Some(d @ b'1'..=b'4') => out.push((src, d - b'0', mx)),
            _ => return Vec::new(),
        }
        k += 1;
    }
    out
}

/// Placeholder layout derived from the shape code: header, events, the source tensors, the 4-byte
/// extras, the data types, the lane count, the 1-byte extras, reserved bytes, the destination
/// tensors. The rule is the project's; only the naming of the parts follows the references.
pub fn derived_fields(shape: &Shape, types: &Types) -> Result<String, String> {
    let tensors = code_tensors(&shape.name);
    let name_of = |src: bool, mx: bool, k: usize, n: usize| {
        let dir = if src { "src" } else { "dst" };
        let kind = if mx { "mx_pattern" } else { "mem_pattern" };
        if n == 1 {
            format!("{dir}_{kind}")
        } else {
            format!("{dir}{k}_{kind}")
        }
    };
    let line = |src: bool, d: u8, mx: bool, name: String| {
        let ty = if mx {
            "MXTENSOR_V2".to_string()
        } else {
            format!("TENSOR{d}D")
        };
        let role = if src { "input" } else { "output" };
        format!("{ty} {name} // {role}")
    };
    let nsrc = tensors.iter().filter(|t| t.0).count();
    let ndst = tensors.len() - nsrc;
    let mut lines = vec!["HEADER header".to_string(), "EVENTS events".to_string()];
    let mut used = 12usize;
    for (k, &(src, d, mx)) in tensors.iter().filter(|t| t.0).enumerate() {
        lines.push(line(src, d, mx, name_of(true, mx, k, nsrc)));
    }
    let size_of = |l: &str| -> Result<(usize, usize), String> {
        let m = layout::parse_fields(l)?;
        let Member::Field { ty, dims, .. } = &m[0] else {
            return Err("anonymous member in extra".into());
        };
        let (s, a) = types.get(ty).ok_or_else(|| format!("unknown type {ty}"))?;
        Ok((s * dims.iter().product::<usize>(), a))
    };
    for l in lines.iter().skip(2) {
        used += size_of(l)?.0;
    }
    let mut wide = Vec::new();
    let mut narrow = Vec::new();
    for e in &shape.extra {
        let (s, a) = size_of(e)?;
        if a > 1 {
            wide.push((e.clone(), s));
        } else {
            narrow.push((e.clone(), s));
        }
    }
    for (e, s) in wide {
        lines.push(e);
        used += s;
    }
    if nsrc > 0 && ndst > 0 {
        lines.push("DTYPE in_dtype // input element type".into());
        lines.push("DTYPE out_dtype // output element type".into());
        used += 2;
    } else if ndst > 0 {
        lines.push("DTYPE dtype // output element type".into());
        used += 1;
    } else if nsrc > 0 {
        lines.push("DTYPE in_dtype // input element type".into());
        used += 1;
    }
    if !tensors.is_empty() {
        lines.push("uint8_t num_active_channels // lanes used".into());
        used += 1;
    }
    for (e, s) in narrow {
        lines.push(e);
        used += s;
    }
    let mut dst_lines = Vec::new();
    for (k, &(src, d, mx)) in tensors.iter().filter(|t| !t.0).enumerate() {
        let l = line(src, d, mx, name_of(false, mx, k, ndst));
        used += size_of(&l)?.0;
        dst_lines.push(l);
    }
    if used > 64 {
        return Err(format!("{}: derived layout needs {used} bytes", shape.name));
    }
    if used < 64 {
        let n = lines.iter().filter(|l| l.contains(" reserved")).count();
        lines.push(format!("uint8_t reserved{n}[{}] // zero", 64 - used));
    }
    lines.extend(dst_lines);
    Ok(lines.join("\n"))
}

/// What the header needs from the rest of the tree.
pub struct Ctx<'a> {
    pub opcodes: &'a [Opcode],
    pub types: &'a Types,
    /// Spec functions defined anywhere else in the tree (hand-written or copied).
    pub defined_elsewhere: &'a BTreeSet<String>,
}

/// The enum name a mapping token stands for: the token itself, or the enumerator that spells the
/// same letters without underscores (DMA_MEMCPY -> DMAMEMCPY, PSEUDO_DMA_BARRIER -> PSEUDO_DMABARRIER).
/// `None` for a stale token with no enumerator.
pub fn resolve_token<'a>(opcodes: &'a [Opcode], token: &str) -> Option<&'a Opcode> {
    opcodes.iter().find(|o| o.name == token).or_else(|| {
        let t: String = token.chars().filter(|c| *c != '_').collect();
        opcodes
            .iter()
            .find(|o| o.name.chars().filter(|c| *c != '_').collect::<String>() == t)
    })
}

pub struct Built {
    pub file: String,
    pub text: String,
    pub members: Vec<Member>,
    pub offsets: Offsets,
}

fn lanes_const(engine: &str) -> &'static str {
    if engine.starts_with("DVE") {
        "DVE_NUM_CHANNELS"
    } else if engine.starts_with("ACT") {
        "ACTIVATION_NUM_CHANNELS"
    } else {
        "POOLING_NUM_CHANNELS"
    }
}

fn spec_block(code: &str) -> String {
    code.trim()
        .lines()
        .map(|l| {
            if l.is_empty() {
                "//".to_string()
            } else {
                format!("// {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Names the hand-written spec of a shape defines.
pub fn hand_names(shape: &Shape) -> Vec<String> {
    let Some(spec) = &shape.spec else {
        return Vec::new();
    };
    spec.lines()
        .filter_map(|l| l.strip_prefix("fn "))
        .map(|l| {
            l.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// Generated helper blocks and the auto validator of a shape.
fn generated_spec(shape: &Shape, ctx: &Ctx, members: &[Member]) -> Vec<String> {
    let s = &shape.name;
    let mut out = Vec::new();
    if shape.validator == Validator::None {
        return out;
    }
    let mut defined: BTreeSet<String> = ctx.defined_elsewhere.clone();
    defined.extend(hand_names(shape));
    let ops: Vec<&Opcode> = shape
        .opcodes
        .iter()
        .filter_map(|t| resolve_token(ctx.opcodes, t))
        .collect();
    // has_<op>_opcode per bound opcode
    for o in &ops {
        let f = format!("has_{}_opcode", o.name.to_ascii_lowercase());
        if defined.insert(f.clone()) {
            out.push(format!(
                "fn {f}(i: Inst) -> bool {{\n    i.header.opcode == Opcode::{}\n}}",
                o.name
            ));
        }
    }
    let shape_opcode = format!("has_{s}_opcode");
    if ops.len() > 1 && defined.insert(shape_opcode.clone()) {
        let mut body = String::new();
        for (k, o) in ops.iter().enumerate() {
            let lead = if k == 0 { "      " } else { "   || " };
            body.push_str(&format!(
                "{lead}has_{}_opcode(i)\n",
                o.name.to_ascii_lowercase()
            ));
        }
        out.push(format!("fn {shape_opcode}(i: Inst) -> bool {{\n{body}}}"));
    }
    // <shape>_reserved_zero over every reserved byte
    let reserved: Vec<(String, usize)> = members
        .iter()
        .filter_map(|m| match m {
            Member::Field { name, dims, .. } if name.starts_with("reserved") => {
                Some((name.clone(), dims.iter().product::<usize>().max(1)))
            }
            _ => None,
        })
        .collect();
    let reserved_fn = format!("{s}_reserved_zero");
    if !reserved.is_empty() && defined.insert(reserved_fn.clone()) {
        let mut terms = Vec::new();
        for (name, n) in &reserved {
            let is_array = members.iter().any(|m| matches!(m, Member::Field { name: f, dims, .. } if f == name && !dims.is_empty()));
            if is_array {
                for j in 0..*n {
                    terms.push(format!("(i.{s}.{name}[{j}] == 0)"));
                }
            } else {
                terms.push(format!("(i.{s}.{name} == 0)"));
            }
        }
        let mut body = String::new();
        for (k, chunk) in terms.chunks(3).enumerate() {
            let lead = if k == 0 { "      " } else { "   && " };
            body.push_str(&format!("{lead}{}\n", chunk.join(" && ")));
        }
        out.push(format!("fn {reserved_fn}(i: Inst) -> bool {{\n{body}}}"));
    }
    if shape.validator != Validator::Auto {
        return out;
    }
    // is_valid_<shape> from the field roles
    let field = |n: &str| {
        members.iter().find_map(|m| match m {
            Member::Field { name, ty, dims, .. } if name == n && dims.is_empty() => {
                Some(ty.clone())
            }
            _ => None,
        })
    };
    let mut terms = vec!["has_valid_neuron_header(i)".to_string()];
    if members.iter().any(|m| m.name() == Some("events")) {
        terms.push("has_valid_neuron_events(i)".into());
    }
    if ops.len() > 1 {
        terms.push(format!("{shape_opcode}(i)"));
    } else if let Some(o) = ops.first() {
        terms.push(format!("has_{}_opcode(i)", o.name.to_ascii_lowercase()));
    }
    if !reserved.is_empty() {
        terms.push(format!("{reserved_fn}(i)"));
    }
    for m in members {
        if let Member::Field { name, ty, dims, .. } = m {
            if ty == "NEURON_ISA_TPB_DTYPE" && dims.is_empty() && name.ends_with("dtype") {
                let allow = if name.starts_with("in") {
                    "False"
                } else {
                    "True"
                };
                terms.push(format!(
                    "is_valid_dtype(i.{s}.{name}, DtypeAllowFP32R::{allow})"
                ));
            }
        }
    }
    let lanes = ops
        .first()
        .map(|o| lanes_const(&o.engine))
        .unwrap_or("POOLING_NUM_CHANNELS");
    let has_lanes = field("num_active_channels").is_some();
    if has_lanes {
        terms.push(format!(
            "has_valid_active_channel_range_with_tile(i.{s}.num_active_channels, {lanes}, i.header.inst_flags)"
        ));
    }
    for m in members {
        let Member::Field { name, ty, dims, .. } = m else {
            continue;
        };
        if !dims.is_empty() {
            continue;
        }
        let (check, addr) = match ty.as_str() {
            "NEURON_ISA_TPB_TENSOR1D" => ("tensor1d_valid", "start_addr"),
            "NEURON_ISA_TPB_TENSOR2D" => ("tensor2d_valid", "start_addr"),
            "NEURON_ISA_TPB_TENSOR3D" => ("tensor3d_valid", "start_addr"),
            "NEURON_ISA_TPB_TENSOR4D" => ("tensor4d_valid", "start_addr"),
            "NEURON_ISA_TPB_MEM_PATTERN2D" => ("mem2d_valid", "t.start_addr"),
            "NEURON_ISA_TPB_MEM_PATTERN3D" => ("mem3d_valid", "t.start_addr"),
            "NEURON_ISA_TPB_MEM_PATTERN4D" => ("mem4d_valid", "t.start_addr"),
            _ => continue,
        };
        let src = name.starts_with("src");
        let dtype = if src {
            ["in_dtype", "dtype"]
                .into_iter()
                .find(|d| field(d).is_some())
        } else {
            ["out_dtype", "dtype"]
                .into_iter()
                .find(|d| field(d).is_some())
        };
        let dtype = match dtype {
            Some(d) => format!("i.{s}.{d}"),
            None => "Dtype::FP32".into(),
        };
        if has_lanes {
            terms.push(format!(
                "start_addr_active_channels(i.{s}.{name}.{addr}, i.{s}.num_active_channels)"
            ));
        }
        let write = if src { "False" } else { "True" };
        terms.push(format!(
            "{check}(i.{s}.{name}, {dtype},\n{:w$}WriteTensor::{write}, AllowedInPSUM::True, AllowedInSBUF::True)",
            "",
            w = 6 + check.len() + 1
        ));
    }
    terms.extend(shape.auto_extra.iter().cloned());
    let mut sig = "i: Inst".to_string();
    if let Some(gate) = &shape.auto_nc {
        terms.insert(2, format!("{gate}(nc)"));
        sig.push_str(", nc: NeuronCoreVersion");
    }
    let mut body = String::new();
    for (k, t) in terms.iter().enumerate() {
        let lead = if k == 0 { "      " } else { "   && " };
        body.push_str(&format!("{lead}{t}\n"));
    }
    out.push(format!("fn is_valid_{s}({sig}) -> bool {{\n{body}}}"));
    out
}

pub fn build(shape: &Shape, ctx: &Ctx) -> Result<Built, String> {
    let file = format!("aws_neuron_isa_tpb_{}.h", shape.name);
    let upper = shape.name.to_ascii_uppercase();
    let st = format!("NEURON_ISA_TPB_{upper}_STRUCT");
    let fields = match &shape.fields {
        Some(f) => f.clone(),
        None => derived_fields(shape, ctx.types)?,
    };
    let members = layout::parse_fields(&fields).map_err(|e| format!("{}: {e}", shape.name))?;
    let (body, offsets) =
        layout::render(ctx.types, &members, 64).map_err(|e| format!("{}: {e}", shape.name))?;

    let mut t = banner(&format!("{upper} operand format"));
    t.push('\n');
    let g = guard(&file);
    t.push_str(&format!(
        "#ifndef {g}\n#define {g}\n\n#include \"aws_neuron_isa_tpb_common.h\"\n"
    ));
    for inc in &shape.includes {
        t.push_str(&format!("#include \"{inc}\"\n"));
    }
    t.push('\n');
    if let Some(pre) = &shape.pre {
        t.push_str(pre.trim_end());
        t.push_str("\n\n");
    }
    match &shape.doc {
        Some(doc) => {
            for l in doc.trim_end().lines() {
                t.push_str(&comment_line(l));
            }
        }
        None => {
            t.push_str(&format!("// Neuron '{upper}' Format: {}.\n", shape.format));
            t.push_str(&format!("// Use for: {}\n", shape.use_for));
        }
    }
    t.push_str("//\n");
    let kind = match shape.layout {
        LayoutKind::Documented => "Layout: documented field by field".to_string(),
        LayoutKind::Partial => {
            "Layout: partly documented; the fields the references do not name are a \
placeholder of this project"
                .to_string()
        }
        LayoutKind::Placeholder => {
            "Layout: placeholder. Only header and events are documented; the other \
fields are this project's plausible layout, not vendor fact"
                .to_string()
        }
        LayoutKind::Copied => unreachable!("copied headers are not built"),
    };
    for l in wrap(&format!("{kind} (source: {}).", shape.source), 100) {
        t.push_str(&comment_line(&l));
    }
    if let Some(n) = &shape.notes {
        for l in n.trim_end().lines() {
            t.push_str(&comment_line(l));
        }
    }
    t.push_str(&format!("typedef struct {st} {{\n"));
    for l in &body {
        t.push_str(l);
        t.push('\n');
    }
    t.push_str(&format!("}} {st};\n\n"));
    if let Some(p) = &shape.post_struct {
        t.push_str(p.trim_end());
        t.push('\n');
    }
    if shape.two_line_assert {
        t.push_str(&format!(
            "ISA_STATIC_ASSERT(sizeof({st}) == 64,\n                  \"Error: {st} is NOT 64B.\");\n"
        ));
    } else {
        t.push_str(&format!(
            "ISA_STATIC_ASSERT(sizeof({st}) == 64, \"Error: {st} is NOT 64B.\");\n"
        ));
    }
    let mut blocks = Vec::new();
    if let Some(spec) = &shape.spec {
        for b in spec.trim().split("\n\n") {
            blocks.push(b.to_string());
        }
    }
    blocks.extend(generated_spec(shape, ctx, &members));
    for b in blocks {
        t.push('\n');
        t.push_str(&spec_block(&b));
        t.push('\n');
    }
    t.push_str(&format!("\n#endif // {g}\n"));
    Ok(Built {
        file,
        text: t,
        members,
        offsets,
    })
}

fn comment_line(l: &str) -> String {
    if l.is_empty() {
        "//\n".into()
    } else {
        format!("// {l}\n")
    }
}

/// Greedy word wrap.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for w in text.split_whitespace() {
        if !cur.is_empty() && cur.len() + 1 + w.len() > width {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_codes() {
        assert_eq!(
            code_tensors("s3d3_ts"),
            [(true, 3, false), (false, 3, false)]
        );
        assert_eq!(
            code_tensors("s3dmx1_quant"),
            [(true, 3, false), (false, 1, true)]
        );
        assert_eq!(
            code_tensors("s2s2d2d2_tt"),
            [
                (true, 2, false),
                (true, 2, false),
                (false, 2, false),
                (false, 2, false)
            ]
        );
        assert!(code_tensors("ctrl_mv").is_empty());
        assert!(code_tensors("mem_2d").is_empty());
    }

    #[test]
    fn mapping_tokens_resolve_like_the_vendor_spellings() {
        let ops = crate::data::opcodes().unwrap();
        assert_eq!(resolve_token(&ops, "DMA_MEMCPY").unwrap().name, "DMAMEMCPY");
        assert_eq!(
            resolve_token(&ops, "PSEUDO_DMA_BARRIER").unwrap().name,
            "PSEUDO_DMABARRIER"
        );
        assert_eq!(resolve_token(&ops, "COPY").unwrap().value, 0x46);
        assert!(resolve_token(&ops, "TENSOR_SCALAR_PTR_MULTI_DUAL_ARITH").is_none());
    }

    #[test]
    fn wraps_words() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
    }
}
