//! Checks of the four vendor-format header trees under `headers/` (issue 2).
//!
//! * every tree compiles as C11 and as C++17 with warnings as errors, and the offsets and sizes in
//!   `headers/probe/expected_layout.txt` (typed from the reference facts) hold;
//! * the opcode enum has the documented number of enumerators, on the documented lines;
//! * the generation-specific members are there or absent as documented;
//! * every name in `instruction_mapping.json` exists in its tree;
//! * every `// fn` spec block is well formed (balanced braces, one `fn`), so the generator can parse it.
//!
//! Only the standard library is used; the C compilers are `gcc` and `g++` from `PATH`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the reference pages fix for one generation.
struct Gen {
    name: &'static str,
    nc: u8,
    /// Line of `typedef enum NEURON_ISA_TPB_OPCODE {` and of its closing line.
    opcode_open: usize,
    opcode_close: usize,
    /// Enumerators of the opcode enum, INVALID included.
    opcode_count: usize,
    /// Lines of RAND_GET_STATE and RAND_SET_STATE.
    get_line: usize,
    set_line: usize,
    /// Arms of rand_set_state_legal_combinations / rand_get_state_legal_combinations.
    set_arms: usize,
    get_arms: usize,
    /// Shape headers of the tree.
    shapes: &'static [&'static str],
}

const ALL_GEN_SHAPES: [&str; 4] = ["s1_rand", "d4_rand", "s3d3_dropout", "pseudo_set_rng_seed"];
const V4_SHAPES: [&str; 6] = [
    "s1_rand",
    "d4_rand",
    "s3d3_dropout",
    "pseudo_set_rng_seed",
    "d3_rand",
    "s2s1d2_pe_seed",
];

const GENS: [Gen; 4] = [
    Gen {
        name: "sunda",
        nc: 2,
        opcode_open: 153,
        opcode_close: 299,
        opcode_count: 145,
        get_line: 207,
        set_line: 208,
        set_arms: 2,
        get_arms: 1,
        shapes: &ALL_GEN_SHAPES,
    },
    Gen {
        name: "cayman",
        nc: 3,
        opcode_open: 154,
        opcode_close: 305,
        opcode_count: 150,
        get_line: 210,
        set_line: 211,
        set_arms: 3,
        get_arms: 2,
        shapes: &ALL_GEN_SHAPES,
    },
    Gen {
        name: "mariana",
        nc: 4,
        opcode_open: 155,
        opcode_close: 315,
        opcode_count: 159,
        get_line: 215,
        set_line: 216,
        set_arms: 8,
        get_arms: 7,
        shapes: &V4_SHAPES,
    },
    Gen {
        name: "maverick",
        nc: 5,
        opcode_open: 157,
        opcode_close: 323,
        opcode_count: 165,
        get_line: 218,
        set_line: 219,
        set_arms: 7,
        get_arms: 6,
        shapes: &V4_SHAPES,
    },
];

fn headers_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("headers")
}

fn tpb(gen: &Gen) -> PathBuf {
    headers_root()
        .join(format!("neuron_{}_arch_isa", gen.name))
        .join("tpb")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The `.h` files of a tree, sorted by name.
fn header_files(gen: &Gen) -> Vec<(String, String)> {
    let dir = tpb(gen);
    let mut out = Vec::new();
    for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
    {
        let path = entry.expect("directory entry").path();
        if path.extension().and_then(|e| e.to_str()) == Some("h") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((name, read(&path)));
        }
    }
    out.sort();
    out
}

fn header<'a>(files: &'a [(String, String)], name: &str) -> &'a str {
    &files
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("missing header {name}"))
        .1
}

// ---------------------------------------------------------------------------------------------
// 1. layout probe
// ---------------------------------------------------------------------------------------------

/// One line of expected_layout.txt.
#[derive(Clone, Debug)]
struct LayoutRow {
    line: usize,
    ty: String,
    field: Option<String>,
    offset: usize,
    size: usize,
    gens: Option<Vec<String>>,
}

fn parse_layout(text: &str) -> Vec<LayoutRow> {
    let mut rows = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert!(
            cols.len() == 4 || cols.len() == 5,
            "expected_layout.txt:{}: want STRUCT FIELD OFFSET SIZE [GENS], got `{line}`",
            k + 1
        );
        let num = |s: &str| -> usize {
            s.parse()
                .unwrap_or_else(|_| panic!("expected_layout.txt:{}: `{s}` is not a number", k + 1))
        };
        let gens = cols
            .get(4)
            .map(|g| g.split(',').map(str::to_string).collect::<Vec<_>>());
        if let Some(gs) = &gens {
            for g in gs {
                assert!(
                    GENS.iter().any(|x| x.name == g),
                    "expected_layout.txt:{}: unknown generation `{g}`",
                    k + 1
                );
            }
        }
        rows.push(LayoutRow {
            line: k + 1,
            ty: cols[0].to_string(),
            field: (cols[1] != "*").then(|| cols[1].to_string()),
            offset: num(cols[2]),
            size: num(cols[3]),
            gens,
        });
    }
    rows
}

fn layout_rows() -> Vec<LayoutRow> {
    parse_layout(&read(
        &headers_root().join("probe").join("expected_layout.txt"),
    ))
}

fn rows_for<'a>(rows: &'a [LayoutRow], gen: &Gen) -> Vec<&'a LayoutRow> {
    rows.iter()
        .filter(|r| {
            r.gens
                .as_ref()
                .is_none_or(|g| g.iter().any(|x| x == gen.name))
        })
        .collect()
}

/// The probe source: every header of the tree, then one static assert per expectation.
fn probe_source(files: &[(String, String)], rows: &[&LayoutRow]) -> String {
    let mut s =
        String::from("/* generated by isa-codegen/tests/header_trees.rs */\n#include <stddef.h>\n");
    for (name, _) in files {
        s.push_str(&format!("#include \"{name}\"\n"));
    }
    s.push('\n');
    for r in rows {
        let ty = format!("NEURON_ISA_TPB_{}", r.ty);
        match &r.field {
            None => s.push_str(&format!(
                "ISA_STATIC_ASSERT(sizeof({ty}) == {}, \"expected_layout.txt:{}: sizeof({ty}) != {}\");\n",
                r.size, r.line, r.size
            )),
            Some(f) => {
                s.push_str(&format!(
                    "ISA_STATIC_ASSERT(offsetof({ty}, {f}) == {}, \"expected_layout.txt:{}: offsetof({ty}, {f}) != {}\");\n",
                    r.offset, r.line, r.offset
                ));
                s.push_str(&format!(
                    "ISA_STATIC_ASSERT(sizeof((({ty} *)0)->{f}) == {}, \"expected_layout.txt:{}: sizeof {ty}.{f} != {}\");\n",
                    r.size, r.line, r.size
                ));
            }
        }
    }
    s.push_str("\nint main(void) { return 0; }\n");
    s
}

fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("isa_header_trees_{}_{tag}", std::process::id()));
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Compiles `src` as C11 and as C++17 against the tree; Err carries the compiler output.
fn compile_probe(gen: &Gen, src: &str, tag: &str) -> Result<(), String> {
    let dir = scratch_dir(tag);
    let c = dir.join(format!("probe_{}.c", gen.name));
    let cpp = dir.join(format!("probe_{}.cpp", gen.name));
    fs::write(&c, src).expect("write probe.c");
    fs::write(&cpp, src).expect("write probe.cpp");
    let include = tpb(gen);
    let runs: [(&str, &[&str], &Path); 2] = [
        (
            "gcc",
            &[
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pedantic",
                "-fsyntax-only",
            ],
            &c,
        ),
        (
            "g++",
            &["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"],
            &cpp,
        ),
    ];
    let mut failures = String::new();
    for (cc, flags, file) in runs {
        let out = Command::new(cc)
            .args(flags)
            .arg("-I")
            .arg(&include)
            .arg(file)
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run {cc} (the header checks need gcc and g++): {e}")
            });
        if !out.status.success() {
            failures.push_str(&format!(
                "{cc} {} {} failed:\n{}{}\n",
                flags.join(" "),
                file.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let _ = fs::remove_dir_all(&dir);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// `typedef struct|union NAME {` declarations of a file.
fn aggregate_names(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let rest = l
                .strip_prefix("typedef struct ")
                .or_else(|| l.strip_prefix("typedef union "))?;
            let name = rest.split_whitespace().next()?;
            Some(name.to_string())
        })
        .collect()
}

#[test]
fn probe_compiles_and_layout_matches_the_reference() {
    let rows = layout_rows();
    for gen in &GENS {
        let files = header_files(gen);
        let mine = rows_for(&rows, gen);
        // every operand struct of the tree has a size expectation, and every expectation names a
        // declaration of the tree (the compiler would catch the latter too, less readably)
        let declared: BTreeSet<String> =
            files.iter().flat_map(|(_, t)| aggregate_names(t)).collect();
        for name in declared.iter().filter(|n| n.ends_with("_STRUCT")) {
            let short = name.trim_start_matches("NEURON_ISA_TPB_");
            assert!(
                mine.iter()
                    .any(|r| r.ty == short && r.field.is_none() && r.size == 64),
                "{}: no `{short} * 0 64` row in expected_layout.txt",
                gen.name
            );
        }
        let src = probe_source(&files, &mine);
        if let Err(out) = compile_probe(gen, &src, "layout") {
            panic!("{}: the layout probe does not compile:\n{out}", gen.name);
        }
    }
}

#[test]
fn probe_rejects_a_wrong_layout() {
    // the probe must be able to fail: move one field and expect both compilers to refuse
    let gen = &GENS[2];
    let files = header_files(gen);
    let wrong = LayoutRow {
        line: 0,
        ty: "S1_RAND_STRUCT".into(),
        field: Some("rand_generator".into()),
        offset: 25,
        size: 1,
        gens: None,
    };
    let src = probe_source(&files, &[&wrong]);
    let err = compile_probe(gen, &src, "wrong").expect_err("a wrong offset must not compile");
    assert!(
        err.contains("gcc") && err.contains("g++"),
        "both compilers must reject it:\n{err}"
    );
    assert!(
        err.contains("offsetof(NEURON_ISA_TPB_S1_RAND_STRUCT, rand_generator)"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// 2. opcode enum
// ---------------------------------------------------------------------------------------------

#[test]
fn opcode_enum_has_the_documented_lines() {
    for gen in &GENS {
        let files = header_files(gen);
        let common = header(&files, "aws_neuron_isa_tpb_common.h");
        let lines: Vec<&str> = common.lines().collect();
        let open = lines
            .iter()
            .position(|l| l.trim() == "typedef enum NEURON_ISA_TPB_OPCODE {")
            .unwrap_or_else(|| panic!("{}: no opcode enum", gen.name))
            + 1;
        let close = open
            + lines[open..]
                .iter()
                .position(|l| l.trim_start().starts_with('}'))
                .expect("opcode enum closes")
            + 1;
        assert_eq!(
            open, gen.opcode_open,
            "{}: typedef line of the opcode enum",
            gen.name
        );
        assert_eq!(
            close, gen.opcode_close,
            "{}: closing line of the opcode enum",
            gen.name
        );
        assert_eq!(
            lines[close - 1].trim(),
            "} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;"
        );
        let mut names = BTreeMap::new();
        let mut values = BTreeSet::new();
        for (k, line) in lines.iter().enumerate().take(close - 1).skip(open) {
            let lineno = k + 1;
            let code = line.split("//").next().unwrap().trim();
            let (name, value) = code
                .strip_suffix(',')
                .and_then(|c| c.split_once('='))
                .unwrap_or_else(|| {
                    panic!(
                        "{}: common.h:{lineno}: not an enumerator line: `{line}`",
                        gen.name
                    )
                });
            let name = name.trim();
            let value = value.trim();
            assert!(
                name.starts_with("NEURON_ISA_TPB_OPCODE_"),
                "{}: common.h:{lineno}",
                gen.name
            );
            assert!(
                value.len() == 4
                    && value.starts_with("0x")
                    && value[2..]
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
                "{}: common.h:{lineno}: value `{value}` is not two lower-case hex digits",
                gen.name
            );
            assert!(
                values.insert(value.to_string()),
                "{}: duplicate value {value}",
                gen.name
            );
            names.insert(name.to_string(), lineno);
        }
        assert_eq!(
            names.len(),
            gen.opcode_count,
            "{}: opcode enumerators",
            gen.name
        );
        assert_eq!(
            names.get("NEURON_ISA_TPB_OPCODE_RAND_GET_STATE"),
            Some(&gen.get_line),
            "{}",
            gen.name
        );
        assert_eq!(
            names.get("NEURON_ISA_TPB_OPCODE_RAND_SET_STATE"),
            Some(&gen.set_line),
            "{}",
            gen.name
        );
        assert!(
            names.contains_key("NEURON_ISA_TPB_OPCODE_INVALID"),
            "{}: INVALID",
            gen.name
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 3. generation-specific content
// ---------------------------------------------------------------------------------------------

/// Lines of the spec block that defines `name`.
fn block_of<'a>(text: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let blocks = spec_blocks("", text).ok()?;
    blocks
        .into_iter()
        .find(|b| b.name == name)
        .map(|b| text.lines().skip(b.line - 1).take(b.len).collect())
}

#[test]
fn generation_specific_members() {
    for gen in &GENS {
        let files = header_files(gen);
        let names: BTreeSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        let mut want: BTreeSet<String> = gen
            .shapes
            .iter()
            .map(|s| format!("aws_neuron_isa_tpb_{s}.h"))
            .collect();
        want.insert("aws_neuron_isa_tpb_common.h".into());
        want.insert("aws_neuron_isa_tpb_util.h".into());
        let want: BTreeSet<&str> = want.iter().map(String::as_str).collect();
        assert_eq!(names, want, "{}: header files", gen.name);

        for (name, text) in &files {
            let line3 = text.lines().nth(2).unwrap_or("");
            assert!(
                line3.contains(&format!("ISA header for NC-v{}", gen.nc)),
                "{}: {name}: banner line 3 is `{line3}`",
                gen.name
            );
        }

        let all: String = files.iter().map(|(_, t)| t.as_str()).collect();
        let has_xorwow = all.contains("NEURON_ISA_TPB_RAND_ALGORITHM_XORWOW");
        assert_eq!(
            has_xorwow,
            gen.name != "sunda",
            "{}: RAND_ALGORITHM_XORWOW",
            gen.name
        );
        let has_v = |v: u8| all.contains(&format!("NEURON_ISA_TPB_NEURON_CORE_VERSION_V{v} "));
        for v in 2..=5 {
            assert_eq!(
                has_v(v),
                v <= gen.nc,
                "{}: NEURON_CORE_VERSION_V{v}",
                gen.name
            );
        }

        let s1 = header(&files, "aws_neuron_isa_tpb_s1_rand.h");
        let d4 = header(&files, "aws_neuron_isa_tpb_d4_rand.h");
        if gen.name == "maverick" {
            for (n, t) in [("s1_rand.h", s1), ("d4_rand.h", d4)] {
                let lower = t.to_ascii_lowercase();
                assert!(
                    !lower.contains("neuronengine::act") && !lower.contains("neuron_engine_act"),
                    "maverick {n} mentions the Act engine"
                );
            }
        }
        let arms = |text: &str, f: &str| -> usize {
            let block =
                block_of(text, f).unwrap_or_else(|| panic!("{}: no spec block `{f}`", gen.name));
            block
                .iter()
                .filter(|l| l.contains("(e == NeuronEngine::"))
                .count()
        };
        assert_eq!(
            arms(s1, "rand_set_state_legal_combinations"),
            gen.set_arms,
            "{}: SET arms",
            gen.name
        );
        assert_eq!(
            arms(d4, "rand_get_state_legal_combinations"),
            gen.get_arms,
            "{}: GET arms",
            gen.name
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 4. instruction_mapping.json
// ---------------------------------------------------------------------------------------------

#[derive(Debug, PartialEq)]
enum Json {
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// A JSON reader for the subset the mapping uses: objects, arrays and strings.
struct JsonReader<'a> {
    s: &'a [u8],
    k: usize,
}

impl JsonReader<'_> {
    fn ws(&mut self) {
        while self.k < self.s.len() && self.s[self.k].is_ascii_whitespace() {
            self.k += 1;
        }
    }

    fn expect(&mut self, b: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.k) == Some(&b) {
            self.k += 1;
            Ok(())
        } else {
            Err(format!("expected `{}` at byte {}", b as char, self.k))
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let start = self.k;
        while self.k < self.s.len() && self.s[self.k] != b'"' {
            if self.s[self.k] == b'\\' {
                return Err(format!(
                    "escape at byte {} (not used by the mapping)",
                    self.k
                ));
            }
            self.k += 1;
        }
        let text = String::from_utf8(self.s[start..self.k].to_vec()).map_err(|e| e.to_string())?;
        self.expect(b'"')?;
        Ok(text)
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.k) {
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b'[') => {
                self.k += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.k) == Some(&b']') {
                    self.k += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.s.get(self.k) {
                        Some(b',') => self.k += 1,
                        Some(b']') => {
                            self.k += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err(format!("bad array at byte {}", self.k)),
                    }
                }
            }
            Some(b'{') => {
                self.k += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.k) == Some(&b'}') {
                    self.k += 1;
                    return Ok(Json::Obj(items));
                }
                loop {
                    let key = self.string()?;
                    self.expect(b':')?;
                    items.push((key, self.value()?));
                    self.ws();
                    match self.s.get(self.k) {
                        Some(b',') => self.k += 1,
                        Some(b'}') => {
                            self.k += 1;
                            return Ok(Json::Obj(items));
                        }
                        _ => return Err(format!("bad object at byte {}", self.k)),
                    }
                }
            }
            _ => Err(format!("unexpected value at byte {}", self.k)),
        }
    }
}

fn parse_json(text: &str) -> Result<Json, String> {
    let mut r = JsonReader {
        s: text.as_bytes(),
        k: 0,
    };
    let v = r.value()?;
    r.ws();
    if r.k != r.s.len() {
        return Err(format!("trailing bytes at {}", r.k));
    }
    Ok(v)
}

fn object(v: &Json) -> &[(String, Json)] {
    match v {
        Json::Obj(items) => items,
        other => panic!("expected an object, got {other:?}"),
    }
}

/// Enumerators of the opcode enum with their values.
fn opcode_values(common: &str) -> BTreeMap<String, u8> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in common.lines() {
        let code = line.split("//").next().unwrap().trim();
        if code == "typedef enum NEURON_ISA_TPB_OPCODE {" {
            inside = true;
        } else if inside && code.starts_with('}') {
            break;
        } else if inside {
            if let Some((n, v)) = code.trim_end_matches(',').split_once('=') {
                let v =
                    u8::from_str_radix(v.trim().trim_start_matches("0x"), 16).expect("hex opcode");
                out.insert(n.trim().to_string(), v);
            }
        }
    }
    out
}

#[test]
fn mapping_names_exist_in_the_tree() {
    for gen in &GENS {
        let files = header_files(gen);
        let path = tpb(gen).join("instruction_mapping.json");
        let text = read(&path);
        let json = parse_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let top = object(&json);
        let keys: Vec<&str> = top.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["struct2opcode", "struct2pseudo_opcode"],
            "{}: top-level keys",
            gen.name
        );
        assert_eq!(
            object(&top[1].1).len(),
            0,
            "{}: struct2pseudo_opcode is empty here",
            gen.name
        );
        let opcodes = opcode_values(header(&files, "aws_neuron_isa_tpb_common.h"));
        let structs: BTreeSet<String> =
            files.iter().flat_map(|(_, t)| aggregate_names(t)).collect();
        let closes = |name: &str| {
            files
                .iter()
                .any(|(_, t)| t.lines().any(|l| l.trim() == format!("}} {name};")))
        };
        let entries = object(&top[0].1);
        let mut previous = String::new();
        for (key, ops) in entries {
            assert!(
                *key > previous,
                "{}: struct2opcode keys are not in ASCII order at {key}",
                gen.name
            );
            previous = key.clone();
            assert!(
                structs.contains(key) && closes(key),
                "{}: struct {key} is not declared",
                gen.name
            );
            let Json::Arr(ops) = ops else {
                panic!("{}: {key} does not map to an array", gen.name)
            };
            assert!(!ops.is_empty(), "{}: {key} maps to no opcode", gen.name);
            let mut last = None;
            for op in ops {
                let Json::Str(op) = op else {
                    panic!("{}: {key}: non-string opcode", gen.name)
                };
                let value = *opcodes.get(op).unwrap_or_else(|| {
                    panic!("{}: {key}: opcode {op} is not an enumerator", gen.name)
                });
                assert!(
                    last < Some(value),
                    "{}: {key}: opcodes not in value order",
                    gen.name
                );
                last = Some(value);
            }
        }
        let mapped: BTreeSet<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        for s in gen.shapes {
            let key = format!("NEURON_ISA_TPB_{}_STRUCT", s.to_ascii_uppercase());
            assert!(
                mapped.contains(key.as_str()),
                "{}: {key} is not mapped",
                gen.name
            );
        }
        assert_eq!(
            mapped.len(),
            gen.shapes.len(),
            "{}: mapped structs",
            gen.name
        );
        assert!(
            text.ends_with("}\n"),
            "{}: the mapping ends with one newline",
            gen.name
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 5. spec blocks
// ---------------------------------------------------------------------------------------------

/// One `// fn` block: where it starts, how many lines it spans, the name it defines.
#[derive(Debug)]
struct Block {
    line: usize,
    len: usize,
    name: String,
}

/// The text of a whole-line `//` comment, or None for any other line.
fn comment_text(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("//")
}

/// Whole-word occurrences of `fn` in code (text before a nested `//`).
fn fn_keywords(code: &str) -> usize {
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    (0..b.len().saturating_sub(1))
        .filter(|&k| {
            &b[k..k + 2] == b"fn"
                && (k == 0 || !ident(b[k - 1]))
                && (k + 2 == b.len() || !ident(b[k + 2]))
        })
        .count()
}

/// Finds the spec blocks of a file by the rules of docs/spec-language.md.
fn spec_blocks(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
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
        let mut fns = 0;
        let mut code_all = String::new();
        loop {
            let Some(t) = lines.get(k) else {
                return Err(format!(
                    "{file}:{}: spec block runs to the end of the file unbalanced",
                    start + 1
                ));
            };
            let Some(t) = comment_text(t) else {
                return Err(format!(
                    "{file}:{}: spec block reaches the non-comment line {} unbalanced",
                    start + 1,
                    k + 1
                ));
            };
            let code = t.split("//").next().unwrap_or("");
            fns += fn_keywords(code);
            for c in code.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth < 0 {
                    return Err(format!("{file}:{}: `}}` before `{{` in spec block", k + 1));
                }
            }
            code_all.push_str(code);
            code_all.push('\n');
            k += 1;
            if opened && depth == 0 {
                break;
            }
        }
        if fns != 1 {
            return Err(format!(
                "{file}:{}: spec block holds {fns} `fn`, want one",
                start + 1
            ));
        }
        let head = code_all
            .trim_start()
            .strip_prefix("fn ")
            .unwrap_or("")
            .trim_start();
        let name: String = head
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let after = head[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('(') || !code_all.contains("->") {
            return Err(format!(
                "{file}:{}: spec block does not open with `fn name(...) -> T`",
                start + 1
            ));
        }
        if !code_all.trim_end().ends_with('}') {
            return Err(format!(
                "{file}:{}: text after the closing brace of the spec block",
                start + 1
            ));
        }
        blocks.push(Block {
            line: start + 1,
            len: k - start,
            name,
        });
    }
    Ok(blocks)
}

#[test]
fn spec_blocks_are_well_formed() {
    for gen in &GENS {
        let files = header_files(gen);
        let mut defined: BTreeMap<String, String> = BTreeMap::new();
        for (name, text) in &files {
            let blocks = spec_blocks(name, text).unwrap_or_else(|e| panic!("{}: {e}", gen.name));
            for b in blocks {
                let here = format!("{name}:{}", b.line);
                if let Some(prev) = defined.insert(b.name.clone(), here.clone()) {
                    panic!(
                        "{}: `{}` defined twice: {prev} and {here}",
                        gen.name, b.name
                    );
                }
            }
        }
        // the top-level validators the generator looks for
        let mut want = vec![
            "has_valid_neuron_header",
            "has_valid_neuron_events",
            "is_valid_s1_rand",
            "is_valid_rand",
            "is_valid_rand_get_state",
            "is_valid_d4_rand",
            "is_valid_s3d3_dropout",
            "is_valid_pseudo_set_rng_seed",
            "rand_set_state_legal_combinations",
            "rand_get_state_legal_combinations",
        ];
        if gen.shapes.contains(&"d3_rand") {
            want.extend(["is_valid_d3_rand", "is_valid_s2s1d2_pe_seed"]);
        }
        for f in want {
            assert!(
                defined.contains_key(f),
                "{}: no spec block defines `{f}`",
                gen.name
            );
        }
    }
}

#[test]
fn the_block_scanner_rejects_malformed_blocks() {
    let ok = "// fn a(i: Inst) -> bool {\n//     i.header.opcode == Opcode::RAND  // note {\n// }\nint x;\n";
    let blocks = spec_blocks("ok.h", ok).expect("well-formed block");
    assert_eq!(blocks.len(), 1);
    assert_eq!(
        (blocks[0].line, blocks[0].len, blocks[0].name.as_str()),
        (1, 3, "a")
    );
    let cases = [
        ("// fn a(i: Inst) -> bool {\n//     true\nint x;\n", "non-comment line"),
        ("// fn a(i: Inst) -> bool {\n//     true\n", "end of the file"),
        ("// fn a(i: Inst) -> bool { true }\n// fn b(i: Inst) -> bool { true } fn c() -> bool { true }\n", "2 `fn`"),
        ("// fn a(i: Inst) -> bool {\n//     { true }\n// }} \n", "before"),
    ];
    for (text, want) in cases {
        let err = spec_blocks("bad.h", text).expect_err(text);
        assert!(err.contains(want), "`{err}` does not mention `{want}`");
    }
}
