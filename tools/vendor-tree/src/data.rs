//! The facts the program works from, embedded at compile time, and their parsed forms.
//!
//! * `data/opcodes.tsv`: the MAVERICK opcode enum (one row per enumerator, header order).
//! * `data/shapes.toml`: one entry per operand header: the §2 group it belongs to, the source of its
//!   layout, the documented struct -> opcode binding, fields, and spec blocks.
//! * `templates/`: the project's own C text the spine is assembled from.
//!
//! Every entry carries its provenance (a file and section of `shared/reference`); the README of the
//! fixture repeats them.

use serde::Deserialize;

pub const OPCODES_TSV: &str = include_str!("../data/opcodes.tsv");
pub const SHAPES_TOML: &str = include_str!("../data/shapes.toml");

/// One enumerator of `NEURON_ISA_TPB_OPCODE`.
#[derive(Clone, Debug)]
pub struct Opcode {
    pub value: u8,
    /// Name without `NEURON_ISA_TPB_OPCODE_`.
    pub name: String,
    /// The engine column of opcodes.tsv, as written there.
    pub engine: String,
    /// The trailing comment of the enumerator line (`// Y`, `// n, ...`), empty for none.
    pub comment: String,
    pub source: String,
}

impl Opcode {
    pub fn is_pseudo(&self) -> bool {
        self.engine.starts_with("PSEUDO")
    }
}

pub fn opcodes() -> Result<Vec<Opcode>, String> {
    let mut out = Vec::new();
    let mut header_seen = false;
    for (k, line) in OPCODES_TSV.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if !header_seen {
            if cols != ["value", "name", "engine", "struct", "comment", "source"] {
                return Err(format!("data/opcodes.tsv:{}: unexpected header", k + 1));
            }
            header_seen = true;
            continue;
        }
        if cols.len() != 6 {
            return Err(format!(
                "data/opcodes.tsv:{}: {} columns, want 6",
                k + 1,
                cols.len()
            ));
        }
        let value = u8::from_str_radix(cols[0].trim_start_matches("0x"), 16)
            .map_err(|e| format!("data/opcodes.tsv:{}: value: {e}", k + 1))?;
        out.push(Opcode {
            value,
            name: cols[1].to_string(),
            engine: cols[2].to_string(),
            comment: cols[4].to_string(),
            source: cols[5].to_string(),
        });
    }
    Ok(out)
}

/// How much of a struct layout the references give.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum LayoutKind {
    /// Every field (name, type, offset) is quoted by a page.
    Documented,
    /// Some fields are documented (named in a quoted validator, a layout table or a field map); the
    /// rest is the project's placeholder.
    Partial,
    /// Only the 12-byte preamble is documented; the rest is the project's plausible layout.
    Placeholder,
    /// Byte copy of the project's own RNG-family header in `headers/neuron_maverick_arch_isa/tpb/`.
    Copied,
}

/// Which top-level validator the shape header carries.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Validator {
    /// None: the header has no spec blocks of its own (its assert.h section stays empty).
    #[default]
    None,
    /// `is_valid_<shape>` assembled by the program from the field roles (see `shape::auto_validator`).
    Auto,
    /// Only the hand-written blocks of `spec`.
    Hand,
}

/// One operand header, as `data/shapes.toml` describes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    /// Lower-case shape code: the header is `aws_neuron_isa_tpb_<name>.h`.
    pub name: String,
    /// The header-conventions.md §2 row (or other reference) that names this header for MAVERICK.
    pub group: String,
    pub layout: LayoutKind,
    /// Where the layout facts come from (file and section of shared/reference).
    pub source: String,
    /// Text after `Neuron '<SHAPE>' Format: ` (the operands in words).
    #[serde(default)]
    pub format: String,
    /// `Use for:` list.
    #[serde(default)]
    pub use_for: String,
    /// Replaces the standard `Neuron '<SHAPE>' Format` lines for the documented odd doc-blocks.
    #[serde(default)]
    pub doc: Option<String>,
    /// More doc-block lines, after the standard ones.
    #[serde(default)]
    pub notes: Option<String>,
    /// struct2opcode tokens (without `NEURON_ISA_TPB_OPCODE_`), in the documented order.
    #[serde(default)]
    pub opcodes: Vec<String>,
    /// Source of the binding.
    #[serde(default)]
    pub mapping_source: Option<String>,
    /// The key belongs to struct2pseudo_opcode instead of struct2opcode.
    #[serde(default)]
    pub pseudo_mapping: bool,
    /// Extra `#include` lines (file names relative to tpb/).
    #[serde(default)]
    pub includes: Vec<String>,
    /// C text before the doc-block (enums defined in the shape header).
    #[serde(default)]
    pub pre: Option<String>,
    /// C text between the struct and its size assert.
    #[serde(default)]
    pub post_struct: Option<String>,
    /// Explicit field lines (see `layout::parse_fields`). Empty: derived from the shape code.
    #[serde(default)]
    pub fields: Option<String>,
    /// Fields added to a derived placeholder layout, after the source tensors.
    #[serde(default)]
    pub extra: Vec<String>,
    /// Use the two-line form of the size assert (as the S1D2_SORT quote shows it).
    #[serde(default)]
    pub two_line_assert: bool,
    #[serde(default)]
    pub validator: Validator,
    /// More conjuncts of the auto validator, appended in order.
    #[serde(default)]
    pub auto_extra: Vec<String>,
    /// Generation gate of the auto validator: it then takes `nc: NeuronCoreVersion` and calls this
    /// predicate on it first.
    #[serde(default)]
    pub auto_nc: Option<String>,
    /// Hand-written spec blocks, without the `// ` prefix, separated by blank lines.
    #[serde(default)]
    pub spec: Option<String>,
    /// Opcode -> validator bindings for validators named neither `is_valid_<op>` nor `is_valid_<shape>`
    /// (they reach the generator through debug_assert.h's switch).
    #[serde(default)]
    pub bind: Vec<[String; 2]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShapesFile {
    shape: Vec<Shape>,
}

pub fn shapes() -> Result<Vec<Shape>, String> {
    let file: ShapesFile =
        toml::from_str(SHAPES_TOML).map_err(|e| format!("data/shapes.toml: {e}"))?;
    let mut seen = std::collections::BTreeSet::new();
    for s in &file.shape {
        if !seen.insert(s.name.clone()) {
            return Err(format!("data/shapes.toml: shape {} twice", s.name));
        }
    }
    Ok(file.shape)
}
