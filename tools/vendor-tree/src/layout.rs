//! Field lists of operand structs: parsing the data form, computing offsets with the C rules for
//! x86_64 (natural alignment; packed types have alignment 1), and printing the vendor field lines
//! `<type> <name>;   // <size> (<first> - <last>) <comment>`.
//!
//! Data form, one member per line:
//!
//! ```text
//! TYPE name[d0][d1] // comment      a field; TYPE in upper case gets the NEURON_ISA_TPB_ prefix
//! union {  /  struct {               opens an anonymous member (C11); an anonymous struct is
//!                                    written `__extension__ struct` so g++ -pedantic accepts it
//! }                                  closes it
//! } name // comment                  closes it as a named field whose type is the anonymous type
//! ```
//!
//! The program refuses implicit padding: every byte of an operand struct belongs to a named field.

use std::collections::BTreeMap;

/// Size and alignment of the types a field may have.
#[derive(Clone, Debug, Default)]
pub struct Types {
    map: BTreeMap<String, (usize, usize)>,
}

/// The building blocks of the spine, with their size and alignment on x86_64. The compile probe of
/// the tests asserts every size, so a wrong row here cannot go unnoticed.
pub const BLOCKS: &[(&str, usize, usize)] = &[
    ("NEURON_ISA_TPB_HEADER", 4, 1),
    ("NEURON_ISA_TPB_EVENTS", 8, 4),
    ("NEURON_ISA_TPB_EVENTS_EXTENDED", 12, 4),
    ("NEURON_ISA_TPB_PARTITION_OFFSET", 4, 4),
    ("NEURON_ISA_TPB_ADDR_REG4", 4, 1),
    ("NEURON_ISA_TPB_ADDR4", 4, 4),
    ("NEURON_ISA_TPB_ADDR8", 8, 8),
    ("NEURON_ISA_TPB_IMM_REG", 4, 1),
    ("NEURON_ISA_TPB_TENSOR1D", 8, 4),
    ("NEURON_ISA_TPB_TENSOR2D", 12, 4),
    ("NEURON_ISA_TPB_TENSOR3D", 16, 4),
    ("NEURON_ISA_TPB_TENSOR4D", 20, 4),
    ("NEURON_ISA_TPB_INDIRECT12B", 12, 4),
    ("NEURON_ISA_TPB_INDIRECT16B", 16, 4),
    ("NEURON_ISA_TPB_INDIRECT20B", 20, 4),
    ("NEURON_ISA_TPB_MXTENSOR_V2", 16, 4),
    ("NEURON_ISA_TPB_MEM_PATTERN2D", 12, 4),
    ("NEURON_ISA_TPB_MEM_PATTERN3D", 16, 4),
    ("NEURON_ISA_TPB_MEM_PATTERN4D", 20, 4),
    ("NEURON_ISA_TPB_IMM_VAL_INST_FIELD", 4, 4),
    ("NEURON_ISA_TPB_RAND_PARAM", 4, 4),
    ("NEURON_ISA_TPB_DTYPE_PAIR", 1, 1),
    ("NEURON_ISA_TPB_BOUND_CHECK_REG", 1, 1),
    ("NEURON_ISA_TPB_DMA_INDIRECT_FLAGS", 1, 1),
    ("NEURON_ISA_TPB_MEM2D_DATA", 32, 4),
    ("NEURON_ISA_TPB_MOVE_IMMEDIATE", 32, 4),
    ("NEURON_ISA_TPB_DMA_CONFIGS", 1, 1),
    ("NEURON_ISA_TPB_DMA_FLAGS", 1, 1),
    ("NEURON_ISA_TPB_DMA_QUEUE_REF", 5, 1),
    ("NEURON_ISA_TPB_EXT_COMPLETION_INFO", 8, 4),
    ("NEURON_ISA_TPB_REG_NUM", 1, 1),
];

const BUILTINS: &[(&str, usize, usize)] = &[
    ("uint8_t", 1, 1),
    ("int8_t", 1, 1),
    ("char", 1, 1),
    ("bool", 1, 1),
    ("uint16_t", 2, 2),
    ("int16_t", 2, 2),
    ("uint32_t", 4, 4),
    ("int32_t", 4, 4),
    ("float", 4, 4),
    ("uint64_t", 8, 8),
    ("int64_t", 8, 8),
];

impl Types {
    /// Builtins, building blocks and the given one-byte enums (and typedefs of them).
    pub fn new<'a>(enums: impl IntoIterator<Item = &'a str>) -> Types {
        let mut map = BTreeMap::new();
        for (n, s, a) in BUILTINS.iter().chain(BLOCKS) {
            map.insert(n.to_string(), (*s, *a));
        }
        for e in enums {
            map.insert(e.to_string(), (1, 1));
        }
        Types { map }
    }

    pub fn get(&self, c_type: &str) -> Option<(usize, usize)> {
        self.map.get(c_type).copied()
    }
}

/// A C type name as written in a field line: upper-case names are vendor types.
pub fn c_type(t: &str) -> String {
    if BUILTINS.iter().any(|(n, _, _)| *n == t) || t.starts_with("NEURON_ISA_TPB_") {
        t.to_string()
    } else {
        format!("NEURON_ISA_TPB_{t}")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    Struct,
    Union,
}

#[derive(Clone, Debug)]
pub enum Member {
    Field {
        ty: String,
        name: String,
        dims: Vec<usize>,
        comment: String,
    },
    Anon {
        kind: Aggregate,
        members: Vec<Member>,
        /// `Some` for a named field of anonymous type.
        name: Option<String>,
        comment: String,
    },
}

impl Member {
    pub fn name(&self) -> Option<&str> {
        match self {
            Member::Field { name, .. } => Some(name),
            Member::Anon { name, .. } => name.as_deref(),
        }
    }
}

fn split_comment(line: &str) -> (&str, String) {
    match line.find("//") {
        Some(k) => (line[..k].trim(), line[k + 2..].trim().to_string()),
        None => (line.trim(), String::new()),
    }
}

/// Parses the data form of a field list.
pub fn parse_fields(text: &str) -> Result<Vec<Member>, String> {
    let mut stack: Vec<(Aggregate, Vec<Member>)> = vec![(Aggregate::Struct, Vec::new())];
    for raw in text.lines() {
        let (code, comment) = split_comment(raw);
        if code.is_empty() {
            continue;
        }
        if code == "union {" || code == "struct {" {
            let kind = if code.starts_with("union") {
                Aggregate::Union
            } else {
                Aggregate::Struct
            };
            stack.push((kind, Vec::new()));
            continue;
        }
        if let Some(rest) = code.strip_prefix('}') {
            if stack.len() < 2 {
                return Err(format!("`{raw}`: `}}` without an open member"));
            }
            let (kind, members) = stack.pop().unwrap();
            let rest = rest.trim();
            let name = if rest.is_empty() {
                None
            } else {
                Some(rest.to_string())
            };
            stack.last_mut().unwrap().1.push(Member::Anon {
                kind,
                members,
                name,
                comment,
            });
            continue;
        }
        let mut words = code.split_whitespace();
        let (Some(ty), Some(decl), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!("`{raw}`: want `TYPE name[dims]`"));
        };
        let (name, dims) = match decl.find('[') {
            None => (decl.to_string(), Vec::new()),
            Some(k) => {
                let mut dims = Vec::new();
                for d in decl[k..].split(']').filter(|d| !d.is_empty()) {
                    let d = d
                        .strip_prefix('[')
                        .ok_or_else(|| format!("`{raw}`: bad array bound"))?;
                    dims.push(d.parse::<usize>().map_err(|e| format!("`{raw}`: {e}"))?);
                }
                (decl[..k].to_string(), dims)
            }
        };
        if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!("`{raw}`: bad field name `{name}`"));
        }
        stack.last_mut().unwrap().1.push(Member::Field {
            ty: c_type(ty),
            name,
            dims,
            comment,
        });
    }
    if stack.len() != 1 {
        return Err("unclosed anonymous member".into());
    }
    Ok(stack.pop().unwrap().1)
}

/// A printed line of a struct body, before column alignment.
struct Row {
    depth: usize,
    /// `type` column (or the opening / closing text of an anonymous member).
    left: String,
    /// `name;` column, empty for an opening line.
    name: String,
    /// `// ...` text, empty for an opening line.
    comment: String,
}

/// Offsets of the named top-level fields, for the layout probe.
pub type Offsets = Vec<(String, usize, usize)>;

fn range(size: usize, first: usize) -> String {
    if size == 1 {
        format!("{size:>2} ({first:>2}     )")
    } else {
        format!("{size:>2} ({first:>2} - {:>2})", first + size - 1)
    }
}

fn with_comment(r: String, c: &str) -> String {
    // `@(a - b) text`: print the range as given (the vendor's own off-by-one doc comments)
    if let Some(rest) = c.strip_prefix('@') {
        if let Some(end) = rest.find(')') {
            let size = r.split('(').next().unwrap_or("");
            let text = rest[end + 1..].trim();
            let shown = format!("{size}{}", &rest[..=end]);
            return if text.is_empty() {
                shown
            } else {
                format!("{shown} {text}")
            };
        }
    }
    if c.is_empty() {
        r
    } else {
        format!("{r} {c}")
    }
}

struct Laid {
    size: usize,
    align: usize,
}

/// Lays out aggregates, collecting the printed rows.
struct Layouter<'a> {
    types: &'a Types,
    rows: Vec<Row>,
}

impl Layouter<'_> {
    /// Lays out `members` of an aggregate of `kind` starting at absolute offset `base`; named
    /// top-level fields go to `top`.
    fn lay(
        &mut self,
        kind: Aggregate,
        members: &[Member],
        base: usize,
        depth: usize,
        mut top: Option<&mut Offsets>,
    ) -> Result<Laid, String> {
        let mut off = 0usize;
        let mut size = 0usize;
        let mut align = 1usize;
        for m in members {
            let here = if kind == Aggregate::Struct { off } else { 0 };
            let (msize, malign) = match m {
                Member::Field {
                    ty,
                    name,
                    dims,
                    comment,
                } => {
                    let (s, a) = self
                        .types
                        .get(ty)
                        .ok_or_else(|| format!("field `{name}`: unknown type `{ty}`"))?;
                    let msize = s * dims.iter().product::<usize>();
                    if here % a != 0 {
                        return Err(format!(
                            "field `{name}` at offset {} is not aligned to {a}: add an explicit reserved field",
                            base + here
                        ));
                    }
                    let decl: String = std::iter::once(name.clone())
                        .chain(dims.iter().map(|d| format!("[{d}]")))
                        .collect();
                    self.rows.push(Row {
                        depth,
                        left: ty.clone(),
                        name: format!("{decl};"),
                        comment: with_comment(range(msize, base + here), comment),
                    });
                    if let (Some(t), 0) = (top.as_deref_mut(), depth) {
                        t.push((name.clone(), base + here, msize));
                    }
                    (msize, a)
                }
                Member::Anon {
                    kind: k,
                    members: inner,
                    name,
                    comment,
                } => {
                    let (opening, what) = if *k == Aggregate::Union {
                        ("union {", "anonymous union")
                    } else {
                        ("__extension__ struct {", "anonymous struct")
                    };
                    self.rows.push(Row {
                        depth,
                        left: opening.into(),
                        name: String::new(),
                        comment: String::new(),
                    });
                    let laid = self.lay(*k, inner, base + here, depth + 1, None)?;
                    if here % laid.align != 0 {
                        return Err(format!(
                            "{what} at offset {} is not aligned to {}",
                            base + here,
                            laid.align
                        ));
                    }
                    let note = if comment.is_empty() { what } else { comment };
                    self.rows.push(Row {
                        depth,
                        left: "}".into(),
                        name: match name {
                            Some(n) => format!("{n};"),
                            None => ";".into(),
                        },
                        comment: with_comment(range(laid.size, base + here), note),
                    });
                    if let (Some(t), 0, Some(n)) = (top.as_deref_mut(), depth, name) {
                        t.push((n.clone(), base + here, laid.size));
                    }
                    (laid.size, laid.align)
                }
            };
            align = align.max(malign);
            if kind == Aggregate::Struct {
                off += msize;
            }
            size = size.max(here + msize);
        }
        // tail padding of an aggregate
        let rounded = size.div_ceil(align) * align;
        if rounded != size {
            return Err(format!(
                "aggregate of {size} bytes gets {} bytes of tail padding",
                rounded - size
            ));
        }
        Ok(Laid { size, align })
    }
}

/// The printed body (lines between `{` and `}`) of a struct and its named top-level offsets.
pub fn render(
    types: &Types,
    members: &[Member],
    want_size: usize,
) -> Result<(Vec<String>, Offsets), String> {
    let mut offsets = Offsets::new();
    let mut layouter = Layouter {
        types,
        rows: Vec::new(),
    };
    let laid = layouter.lay(Aggregate::Struct, members, 0, 0, Some(&mut offsets))?;
    let rows = layouter.rows;
    if laid.size != want_size {
        return Err(format!("struct is {} bytes, want {want_size}", laid.size));
    }
    let left_w = rows
        .iter()
        .filter(|r| !r.name.is_empty() && r.left != "}")
        .map(|r| 4 * r.depth + r.left.len())
        .max()
        .unwrap_or(0);
    let name_w = rows
        .iter()
        .filter(|r| r.left != "}")
        .map(|r| r.name.len())
        .max()
        .unwrap_or(0);
    let mut lines = Vec::new();
    for r in &rows {
        let indent = " ".repeat(4 + 4 * r.depth);
        if r.name.is_empty() {
            lines.push(format!("{indent}{}", r.left));
        } else if r.left == "}" {
            let text = if r.name == ";" {
                format!("{indent}}};")
            } else {
                format!("{indent}}} {}", r.name)
            };
            let col = 4 + left_w + 1 + name_w;
            lines.push(format!("{text:<col$} // {}", r.comment));
        } else {
            let left = format!("{indent}{:<w$}", r.left, w = left_w - 4 * r.depth);
            lines.push(format!("{left} {:<name_w$} // {}", r.name, r.comment));
        }
    }
    Ok((lines, offsets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_comments() {
        let types = Types::new(["NEURON_ISA_TPB_DTYPE"]);
        let m = parse_fields(
            "HEADER header\nEVENTS events\nDTYPE in_dtype // input\nuint8_t pad[3]\nunion {\nuint32_t a\nuint8_t b[4]\n}\nstruct {\nuint16_t lo\nuint16_t hi\n} range\nuint8_t grid[2][20]\n",
        )
        .unwrap();
        let (lines, offs) = render(&types, &m, 64).unwrap();
        assert!(lines[2].ends_with("//  1 (12     ) input"), "{}", lines[2]);
        assert!(
            lines
                .iter()
                .any(|l| l.contains("grid[2][20];") && l.ends_with("// 40 (24 - 63)")),
            "{lines:#?}"
        );
        assert_eq!(
            offs.iter()
                .map(|(n, o, _)| (n.as_str(), *o))
                .collect::<Vec<_>>(),
            [
                ("header", 0),
                ("events", 4),
                ("in_dtype", 12),
                ("pad", 13),
                ("range", 20),
                ("grid", 24)
            ]
        );
    }

    #[test]
    fn refuses_padding_and_wrong_sizes() {
        let types = Types::new([]);
        let m = parse_fields("uint8_t a\nuint32_t b\n").unwrap();
        assert!(render(&types, &m, 8).unwrap_err().contains("not aligned"));
        let m = parse_fields("uint32_t b\n").unwrap();
        assert!(render(&types, &m, 8).unwrap_err().contains("want 8"));
        let m = parse_fields("FOO x\n").unwrap();
        assert!(render(&types, &m, 1).unwrap_err().contains("unknown type"));
    }
}
