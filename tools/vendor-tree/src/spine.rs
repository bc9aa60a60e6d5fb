//! The spine of the tree: common.h with the opcode enum, the common/ headers, util.h (the union),
//! enums.h, assert.h, debug_assert.h, instr_assert.h, extended.h, extended_utils.h and
//! instruction_mapping.json.

use std::collections::BTreeMap;

use crate::data::Opcode;
use crate::shape::{banner, guard};
use crate::spec::{enum_check_fn, Registry, Translated};

const COMMON_HEAD: &str = include_str!("../templates/common_head.h");
const COMMON_TAIL: &str = include_str!("../templates/common_tail.h");
const COMMON_TYPES: &str = include_str!("../templates/common_types.h");
const DMA_TYPES: &str = include_str!("../templates/dma_types.h");
const XT_LOCAL_REG: &str = include_str!("../templates/xt_local_reg.h");
const EXTENDED: &str = include_str!("../templates/extended.h");
const EXTENDED_UTILS: &str = include_str!("../templates/extended_utils.h");

/// `aws_neuron_isa_tpb_common.h`: the project's text with the opcode enum generated from the data.
pub fn common_h(opcodes: &[Opcode]) -> String {
    let width = opcodes
        .iter()
        .map(|o| "NEURON_ISA_TPB_OPCODE_".len() + o.name.len())
        .max()
        .unwrap_or(0);
    let mut s = String::from(COMMON_HEAD);
    s.push_str("typedef enum NEURON_ISA_TPB_OPCODE {\n");
    for o in opcodes {
        let n = format!("NEURON_ISA_TPB_OPCODE_{}", o.name);
        let line = format!("    {n:<width$} = 0x{:02x},", o.value);
        if o.comment.is_empty() {
            s.push_str(&line);
        } else {
            s.push_str(&format!("{line} {}", o.comment));
        }
        s.push('\n');
    }
    s.push_str("} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;\n");
    s.push_str(COMMON_TAIL);
    s
}

/// The three common/ headers: (file name, text).
pub fn common_dir() -> Vec<(&'static str, String)> {
    vec![
        (
            "aws_neuron_isa_common_types.h",
            banner("Types shared by the engine trees") + COMMON_TYPES,
        ),
        (
            "aws_neuron_isa_dma_types.h",
            banner("DMA building blocks") + DMA_TYPES,
        ),
        (
            "aws_neuron_isa_xt_general_local_reg_defines.h",
            banner("Xtensa local-register defines") + XT_LOCAL_REG,
        ),
    ]
}

pub fn extended_h() -> String {
    banner("Extended instruction format") + EXTENDED
}

pub fn extended_utils_h() -> String {
    banner("Extended instruction helpers") + EXTENDED_UTILS
}

/// `aws_neuron_isa_tpb_util.h`: the instruction union, one member per operand struct.
pub fn util_h(shapes: &[String]) -> String {
    let file = "aws_neuron_isa_tpb_util.h";
    let g = guard(file);
    let mut s = banner("Neuron TPB instruction union");
    s.push_str(&format!(
        "\n#ifndef {g}\n#define {g}\n\n#include \"aws_neuron_isa_tpb_common.h\"\n"
    ));
    for n in shapes {
        s.push_str(&format!("#include \"aws_neuron_isa_tpb_{n}.h\"\n"));
    }
    s.push_str("#include \"aws_neuron_isa_tpb_extended.h\"\n\n");
    s.push_str(
        "// The part every operand format shares: header and events, then the format-specific bytes.
// (DMA_COPY2D is the exception: it has wait_sema_value where the events start.)
typedef struct NEURON_ISA_TPB_INST_COMMON {
    NEURON_ISA_TPB_HEADER header;       //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS events;       //  8 ( 4 - 11)
    uint8_t               payload[52];  // 52 (12 - 63) format specific
} NEURON_ISA_TPB_INST_COMMON;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INST_COMMON) == 64, \"Error: NEURON_ISA_TPB_INST_COMMON is NOT 64B.\");

// The instruction as plain bytes.
typedef struct NEURON_ISA_TPB_INST_RAW {
    uint8_t bytes[64];  // 64 ( 0 - 63)
} NEURON_ISA_TPB_INST_RAW;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INST_RAW) == 64, \"Error: NEURON_ISA_TPB_INST_RAW is NOT 64B.\");

// One 64-byte instruction, viewed through any of its formats (the spec language calls it Inst).
// Members are named after the shape in lower case.
typedef union NEURON_ISA_TPB_INST_UNION {
",
    );
    let mut rows: Vec<(String, String, String)> = vec![
        (
            "NEURON_ISA_TPB_HEADER".into(),
            "header;".into(),
            " 4 ( 0 -  3) opcode and length".into(),
        ),
        (
            "NEURON_ISA_TPB_INST_COMMON".into(),
            "common;".into(),
            "64 ( 0 - 63) header and events".into(),
        ),
    ];
    for n in shapes {
        rows.push((
            format!("NEURON_ISA_TPB_{}_STRUCT", n.to_ascii_uppercase()),
            format!("{n};"),
            "64 ( 0 - 63)".into(),
        ));
    }
    rows.push((
        "NEURON_ISA_TPB_EXTENDED_STRUCT".into(),
        "extended;".into(),
        "64 ( 0 - 63) escape to an extended instruction".into(),
    ));
    rows.push((
        "NEURON_ISA_TPB_INST_RAW".into(),
        "raw;".into(),
        "64 ( 0 - 63) bytes".into(),
    ));
    let tw = rows.iter().map(|r| r.0.len()).max().unwrap();
    let nw = rows.iter().map(|r| r.1.len()).max().unwrap();
    for (t, n, c) in rows {
        s.push_str(&format!("    {t:<tw$} {n:<nw$} // {c}\n"));
    }
    s.push_str("} NEURON_ISA_TPB_INST_UNION;\nISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INST_UNION) == 64, \"Error: NEURON_ISA_TPB_INST_UNION is NOT 64B.\");\n");
    s.push_str(&format!("\n#endif // {g}\n"));
    s
}

/// `instruction_mapping.json`, as Python's `json.dumps(obj, indent=4, sort_keys=True)` prints it,
/// plus a final newline.
pub fn mapping_json(
    struct2opcode: &BTreeMap<String, Vec<String>>,
    struct2pseudo: &BTreeMap<String, Vec<String>>,
) -> Result<String, String> {
    let mut top = BTreeMap::new();
    top.insert("struct2opcode", struct2opcode);
    top.insert("struct2pseudo_opcode", struct2pseudo);
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    serde::Serialize::serialize(&top, &mut ser).map_err(|e| e.to_string())?;
    let mut s = String::from_utf8(buf).map_err(|e| e.to_string())?;
    s.push('\n');
    Ok(s)
}

/// `aws_neuron_isa_tpb_enums.h`: one validity check per enum of the tree.
pub fn enums_h(reg: &Registry) -> String {
    let file = "aws_neuron_isa_tpb_enums.h";
    let g = guard(file);
    let mut s = banner("Enum validity tables");
    s.push_str(&format!(
        "\n#ifndef {g}\n#define {g}\n\n#include \"aws_neuron_isa_tpb_util.h\"\n\n"
    ));
    s.push_str(
        "// One check per enum of the tree: is_valid_enum_<enum>(v) is true when v is the value of a member.
// An enum whose members are 0 .. N-1 gets NEURON_ISA_TPB_<ENUM>_MAX_PLUS_ONE = N and a range check;
// any other enum a list of its members. DGE_COMPUTE_OP also has the `_n_` constants the vendor file
// is documented to carry. (The forms are this tree's choice: the pages quote names, not text.)
",
    );
    for (e, members) in &reg.enums {
        let dense = members.iter().enumerate().all(|(k, (_, v))| *v == k as i64);
        let f = enum_check_fn(e);
        s.push('\n');
        if e == "DGE_COMPUTE_OP" {
            for (m, v) in members {
                s.push_str(&format!(
                    "static const uint32_t NEURON_ISA_TPB_DGE_COMPUTE_OP_n_{m} = {v}U;\n"
                ));
            }
            s.push_str(&format!(
                "static const uint32_t NEURON_ISA_TPB_DGE_COMPUTE_OP_n_MAX_PLUS_ONE = {}U;\n",
                members.len()
            ));
        }
        if dense {
            s.push_str(&format!(
                "static const uint32_t NEURON_ISA_TPB_{e}_MAX_PLUS_ONE = {}U;\n",
                members.len()
            ));
            s.push_str(&format!(
                "STATIC inline bool {f}(uint32_t v) {{\n    return(v < NEURON_ISA_TPB_{e}_MAX_PLUS_ONE);\n}}\n"
            ));
        } else {
            s.push_str(&format!("STATIC inline bool {f}(uint32_t v) {{\n"));
            for (k, (m, _)) in members.iter().enumerate() {
                let lead = if k == 0 {
                    "    return(   "
                } else {
                    "           || "
                };
                s.push_str(&format!("{lead}(v == (uint32_t)NEURON_ISA_TPB_{e}_{m})"));
                s.push_str(if k + 1 == members.len() { ");\n" } else { "\n" });
            }
            s.push_str("}\n");
        }
    }
    s.push_str(&format!("\n#endif // {g}\n"));
    s
}

/// One section of assert.h: the marker name and the translated blocks of that header.
pub struct Section<'a> {
    pub marker: String,
    pub fns: Vec<&'a Translated>,
}

/// Arguments a top-level validator is called with, from the switch's own parameters.
pub fn call_args(t: &Translated) -> Option<String> {
    let mut args = Vec::new();
    for (_, ty) in &t.params {
        args.push(match ty.as_str() {
            "Inst" => "i",
            "NeuronEngine" => "engine",
            "NeuronCoreVersion" => "nc",
            _ => return None,
        });
    }
    Some(args.join(", "))
}

/// `aws_neuron_isa_tpb_assert.h`: the generated C twins, in per-header sections.
pub fn assert_h(sections: &[Section], dbg: &[&Translated]) -> String {
    let file = "aws_neuron_isa_tpb_assert.h";
    let g = guard(file);
    let mut s = banner("Validators in C, generated from the spec blocks");
    s.push_str(&format!(
        "\n#ifndef {g}\n#define {g}\n\n#include \"aws_neuron_isa_tpb_util.h\"\n#include \"aws_neuron_isa_tpb_enums.h\"\n\n"
    ));
    s.push_str(
        "// C twins of the `// fn` spec blocks of this tree, one section per header, each opened by a
// `//* <header>_assert.h` marker; a header without spec blocks leaves its section empty. Blocks
// beyond the spec language, and blocks that call them, have no twin. Top-level validators that
// debug_assert.h dispatches to get a dbg_ twin returning NEURON_ISA_TPB_DEBUG_BOOL.
// Arithmetic and comparisons are done in int64_t.

// Result of a debug validator: the verdict and up to 16 messages of 80 characters.
typedef struct NEURON_ISA_TPB_DEBUG_BOOL {
    bool result;             //    1 (   0       )
    char err_msg[16][80];    // 1280 (   1 - 1280)
} NEURON_ISA_TPB_DEBUG_BOOL;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DEBUG_BOOL) == 1281, \"Error: NEURON_ISA_TPB_DEBUG_BOOL is NOT 1281B.\");

STATIC inline NEURON_ISA_TPB_DEBUG_BOOL neuron_isa_tpb_new_dbg_bool(bool result, const char *name) {
    NEURON_ISA_TPB_DEBUG_BOOL b;
    uint32_t row;
    uint32_t col;
    b.result = result;
    for (row = 0; row < 16; row++) {
        for (col = 0; col < 80; col++) {
            b.err_msg[row][col] = '\\0';
        }
    }
    if (!result) {
        for (col = 0; (col < 79) && (name[col] != '\\0'); col++) {
            b.err_msg[0][col] = name[col];
        }
    }
    return b;
}

STATIC inline NEURON_ISA_TPB_DEBUG_BOOL neuron_isa_tpb_merge_dbg_bool(NEURON_ISA_TPB_DEBUG_BOOL a,
                                                                      NEURON_ISA_TPB_DEBUG_BOOL b) {
    uint32_t row;
    uint32_t free_row = 0;
    while ((free_row < 16) && (a.err_msg[free_row][0] != '\\0')) {
        free_row++;
    }
    for (row = 0; (row < 16) && (free_row < 16); row++) {
        if (b.err_msg[row][0] != '\\0') {
            uint32_t col;
            for (col = 0; col < 80; col++) {
                a.err_msg[free_row][col] = b.err_msg[row][col];
            }
            free_row++;
        }
    }
    a.result = a.result && b.result;
    return a;
}

// Division, remainder and shifts with the spec language's meaning: 0 for a zero divisor or a shift
// that is negative or overflows.
STATIC inline int64_t neuron_isa_tpb_spec_div(int64_t a, int64_t b) {
    return (b == 0) ? 0 : (a / b);
}

STATIC inline int64_t neuron_isa_tpb_spec_rem(int64_t a, int64_t b) {
    return (b == 0) ? 0 : (a % b);
}

STATIC inline int64_t neuron_isa_tpb_spec_shl(int64_t a, int64_t n) {
    return ((n < 0) || (n > 62) || (a < 0) || (a > (INT64_MAX >> n))) ? 0 : (a << n);
}

STATIC inline int64_t neuron_isa_tpb_spec_shr(int64_t a, int64_t n) {
    return ((n < 0) || (n > 63)) ? 0 : (a >> n);
}

// ---- prototypes (the sections below define the functions in any order) ----
",
    );
    for sec in sections {
        for t in &sec.fns {
            if let Some(p) = crate::spec::prototype(t) {
                s.push_str(&p);
                s.push('\n');
            }
        }
    }
    for sec in sections {
        s.push_str(&format!("\n//* {}_assert.h\n", sec.marker));
        for t in &sec.fns {
            let Ok(c) = &t.c else { continue };
            s.push('\n');
            s.push_str(c);
            if dbg.iter().any(|d| d.block.name == t.block.name) {
                let args = &t.params_c;
                let names: Vec<&str> = t.params.iter().map(|(n, _)| n.as_str()).collect();
                let head = format!(
                    "STATIC inline NEURON_ISA_TPB_DEBUG_BOOL dbg_{}(",
                    t.block.name
                );
                let pad = " ".repeat(head.len());
                s.push_str(&format!(
                    "\n{head}{}) {{\n    return neuron_isa_tpb_new_dbg_bool({}({}), \"{}\");\n}}\n",
                    args.join(&format!(",\n{pad}")),
                    t.block.name,
                    names.join(", "),
                    t.block.name
                ));
            }
        }
    }
    s.push_str(&format!("\n#endif // {g}\n"));
    s
}

/// `aws_neuron_isa_tpb_debug_assert.h`: opcode -> debug validator.
pub fn debug_assert_h(cases: &[(String, &Translated)]) -> String {
    let file = "aws_neuron_isa_tpb_debug_assert.h";
    let g = guard(file);
    let mut s = banner("Debug validator dispatch");
    s.push_str(&format!(
        "\n#ifndef {g}\n#define {g}\n\n#include \"aws_neuron_isa_tpb_assert.h\"\n\n"
    ));
    s.push_str(
        "// Runs the debug validator of an instruction's opcode. Validators take the instruction and, where
// their rules depend on them, the core version (nc) or the executing engine. An opcode without a
// case has no validator in this tree.
STATIC inline NEURON_ISA_TPB_DEBUG_BOOL neuron_isa_tpb_dbg_check_inst(NEURON_ISA_TPB_INST_UNION i,
                                                                      NEURON_ISA_TPB_NEURON_CORE_VERSION nc,
                                                                      NEURON_ISA_TPB_NEURON_ENGINE engine) {
    NEURON_ISA_TPB_DEBUG_BOOL check = neuron_isa_tpb_new_dbg_bool(true, \"\");
    (void)nc;
    (void)engine;
    switch (i.header.opcode) {
",
    );
    for (op, t) in cases {
        let args = call_args(t).expect("bound validators have switch arguments");
        s.push_str(&format!(
            "    case NEURON_ISA_TPB_OPCODE_{op}:\n        check = dbg_{}({args});\n        break;\n",
            t.block.name
        ));
    }
    s.push_str("    default:\n        break;\n    }\n    return check;\n}\n");
    s.push_str(&format!("\n#endif // {g}\n"));
    s
}

/// The engines an opcode runs on, from the engine column of opcodes.tsv. Where the column names an
/// engine, that engine (both for POOL/DVE and DVE/POOL); NX and NX/DMA (sequencer and DMA queue
/// instructions) on every engine with a sequencer: PE, ACT, POOL, DVE and the TPB sync processor
/// (this tree's choice); pseudo opcodes and INVALID on none.
pub fn engines_of(engine: &str) -> Vec<&'static str> {
    let e = engine.split_whitespace().next().unwrap_or("");
    match e {
        "PE" => vec!["PE"],
        "ACT" => vec!["ACT"],
        "POOL" => vec!["POOL"],
        "DVE" => vec!["DVE"],
        "POOL/DVE" | "DVE/POOL" => vec!["POOL", "DVE"],
        "NX" | "NX/DMA" => vec!["PE", "ACT", "POOL", "DVE", "TPB_SP"],
        _ => vec![],
    }
}

/// `aws_neuron_isa_tpb_instr_assert.h`: pseudo-op list and the per-engine opcode check.
pub fn instr_assert_h(opcodes: &[Opcode]) -> String {
    let file = "aws_neuron_isa_tpb_instr_assert.h";
    let g = guard(file);
    let mut s = banner("Instruction-level checks");
    s.push_str(&format!(
        "\n#ifndef {g}\n#define {g}\n\n#include \"aws_neuron_isa_tpb_common.h\"\n\n"
    ));
    // is_pseudo_op: the trigger opcodes first (as the vendor list starts), then the others
    let first = [
        "PSEUDO_DMATRIGGER",
        "PSEUDO_TRIGGER_ALL_REDUCE",
        "PSEUDO_TRIGGER_COLLECTIVE",
        "PSEUDO_TRIGGER_COLLECTIVE2",
    ];
    let mut pseudo: Vec<&str> = first.to_vec();
    for o in opcodes.iter().filter(|o| o.is_pseudo()) {
        if !first.contains(&o.name.as_str()) {
            pseudo.push(&o.name);
        }
    }
    s.push_str("// The opcodes the compiler emits and the runtime lowers before execution.\n");
    s.push_str("STATIC inline bool is_pseudo_op(NEURON_ISA_TPB_OPCODE opcode) {\n");
    for (k, p) in pseudo.iter().enumerate() {
        let lead = if k == 0 {
            "    return(   "
        } else {
            "           || "
        };
        let end = if k + 1 == pseudo.len() { ");\n" } else { "\n" };
        s.push_str(&format!("{lead}(opcode == NEURON_ISA_TPB_OPCODE_{p}){end}"));
    }
    s.push_str("}\n\n");
    s.push_str(
        "// Whether an engine executes an opcode. Membership follows the engine column of the opcode
// table: an opcode of one engine, of POOL and DVE, or of the sequencers (NX, NX/DMA: every engine
// with a sequencer, PE, ACT, POOL, DVE and TPB_SP). Pseudo opcodes run on none.
STATIC inline bool neuron_isa_check_opcode_on_engine(NEURON_ISA_TPB_OPCODE opcode,
                                                     NEURON_ISA_TPB_NEURON_ENGINE engine) {
",
    );
    for engine in ["POOL", "DVE", "ACT", "PE", "TPB_SP"] {
        let mut list: Vec<&str> = Vec::new();
        if engine == "POOL" {
            list.extend([
                "SB2SB_COLLECTIVE",
                "COPY",
                "CAST",
                "GATHER",
                "TENSOR_TENSOR_ARITH_OP",
            ]);
        }
        for o in opcodes {
            if engines_of(&o.engine).contains(&engine) && !list.contains(&o.name.as_str()) {
                list.push(&o.name);
            }
        }
        s.push_str(&format!(
            "    if (engine == NEURON_ISA_TPB_NEURON_ENGINE_{engine}) {{\n"
        ));
        for (k, n) in list.iter().enumerate() {
            let lead = if k == 0 {
                "        return(   "
            } else {
                "               || "
            };
            let end = if k + 1 == list.len() { ");\n" } else { "\n" };
            s.push_str(&format!("{lead}(opcode == NEURON_ISA_TPB_OPCODE_{n}){end}"));
        }
        s.push_str("    }\n");
    }
    s.push_str("    return false;\n}\n");
    s.push_str(&format!("\n#endif // {g}\n"));
    s
}
