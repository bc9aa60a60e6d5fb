//! Checks of the four vendor-format header trees under `headers/` (issue 2).
//!
//! * every tree compiles as C11 and as C++17 with warnings as errors, and the offsets and sizes in
//!   `headers/probe/expected_layout.txt` (typed from the reference facts) hold;
//! * the opcode enum has the documented number of enumerators, on the documented lines;
//! * the generation-specific members are there or absent as documented;
//! * every name in `instruction_mapping.json` exists in its tree;
//! * every `// fn` spec block is well formed (balanced braces, one `fn`), so the generator can parse it;
//! * the engine placement of `aws_neuron_isa_tpb_instr_assert.h`, read here from its C and from the
//!   compiled function, is the table of `headers/PROVENANCE.md`, and agrees with the validators;
//! * every firmware entry of `rng-runtime.json` has one of the evidence levels observed / inferred /
//!   assumed, and the levels are those PROVENANCE.md documents.
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

const ALL_GEN_SHAPES: [&str; 5] = [
    "s1_rand",
    "d4_rand",
    "s3d3_dropout",
    "pseudo_set_rng_seed",
    "d4_mr",
];
const V4_SHAPES: [&str; 7] = [
    "s1_rand",
    "d4_rand",
    "s3d3_dropout",
    "pseudo_set_rng_seed",
    "d4_mr",
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
        want.insert(INSTR_ASSERT.into());
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
    Num(u64),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// A JSON reader for the subset the trees use: objects, arrays, strings and unsigned integers.
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
            Some(b'0'..=b'9') => {
                let start = self.k;
                while self.k < self.s.len() && self.s[self.k].is_ascii_digit() {
                    self.k += 1;
                }
                let text =
                    std::str::from_utf8(&self.s[start..self.k]).map_err(|e| e.to_string())?;
                text.parse()
                    .map(Json::Num)
                    .map_err(|e| format!("number at byte {start}: {e}"))
            }
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

// ---------------------------------------------------------------------------------------------
// 6. engine placement: aws_neuron_isa_tpb_instr_assert.h
// ---------------------------------------------------------------------------------------------

const INSTR_ASSERT: &str = "aws_neuron_isa_tpb_instr_assert.h";
const ENGINE_PREFIX: &str = "NEURON_ISA_TPB_NEURON_ENGINE_";
const OPCODE_PREFIX: &str = "NEURON_ISA_TPB_OPCODE_";

/// opcode short name -> engine short names.
type Placement = BTreeMap<String, BTreeSet<String>>;

/// Tokens of the C subset the placement file is written in: identifiers, numbers, and the
/// punctuation `( ) { } ; , == ||`. Line comments are dropped. Anything else is an error.
fn c_tokens(code: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (k, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        let b = line.as_bytes();
        let mut j = 0;
        while j < b.len() {
            let c = b[j];
            if c.is_ascii_whitespace() {
                j += 1;
            } else if c.is_ascii_alphanumeric() || c == b'_' {
                let start = j;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                out.push(line[start..j].to_string());
            } else if b[j..].starts_with(b"==") || b[j..].starts_with(b"||") {
                out.push(line[j..j + 2].to_string());
                j += 2;
            } else if b"(){};,".contains(&c) {
                out.push((c as char).to_string());
                j += 1;
            } else {
                return Err(format!(
                    "line {}: `{}` is outside the placement subset",
                    k + 1,
                    c as char
                ));
            }
        }
    }
    Ok(out)
}

/// A cursor over the tokens with strict expectations.
struct Toks<'a> {
    t: &'a [String],
    k: usize,
}

impl Toks<'_> {
    fn peek(&self) -> Option<&str> {
        self.t.get(self.k).map(String::as_str)
    }
    fn eat(&mut self, want: &str) -> Result<(), String> {
        match self.peek() {
            Some(got) if got == want => {
                self.k += 1;
                Ok(())
            }
            got => Err(format!(
                "token {}: expected `{want}`, found `{}`",
                self.k,
                got.unwrap_or("end of input")
            )),
        }
    }
    fn ident_with(&mut self, prefix: &str) -> Result<String, String> {
        match self.peek() {
            Some(got) if got.starts_with(prefix) && got.len() > prefix.len() => {
                let name = got[prefix.len()..].to_string();
                self.k += 1;
                Ok(name)
            }
            got => Err(format!(
                "token {}: expected a {prefix}* name, found `{}`",
                self.k,
                got.unwrap_or("end of input")
            )),
        }
    }
    /// `( <var> == NEURON_ISA_TPB_OPCODE_X ) || ...` up to the closing `)` of `return(`.
    fn opcode_tests(&mut self, var: &str) -> Result<Vec<String>, String> {
        let mut ops = Vec::new();
        loop {
            self.eat("(")?;
            self.eat(var)?;
            self.eat("==")?;
            ops.push(self.ident_with(OPCODE_PREFIX)?);
            self.eat(")")?;
            if self.peek() == Some("||") {
                self.k += 1;
            } else {
                return Ok(ops);
            }
        }
    }
}

/// Tokens of the body of `STATIC inline bool <name>(<params>) { ... }`, braces excluded, after
/// checking the signature. Only the function's own lines are tokenized (the rest of the file is
/// ordinary C: banner, guards, includes).
fn c_function_body(code: &str, name: &str, params: &[(&str, &str)]) -> Result<Vec<String>, String> {
    let lines: Vec<&str> = code
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect();
    let first = lines
        .iter()
        .position(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w.len() >= 4
                && w[..3] == ["STATIC", "inline", "bool"]
                && (w[3] == name || w[3].starts_with(&format!("{name}(")))
        })
        .ok_or_else(|| format!("no `STATIC inline bool {name}(`"))?;
    let mut depth = 0i64;
    let mut opened = false;
    let mut last = first;
    for (k, l) in lines.iter().enumerate().skip(first) {
        for c in l.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        last = k;
        if opened && depth == 0 {
            break;
        }
    }
    if !(opened && depth == 0) {
        return Err(format!("{name}: the body does not close"));
    }
    let toks = c_tokens(&lines[first..=last].join("\n"))?;
    let mut t = Toks { t: &toks, k: 0 };
    for w in ["STATIC", "inline", "bool", name, "("] {
        t.eat(w)?;
    }
    for (n, (ty, var)) in params.iter().enumerate() {
        if n > 0 {
            t.eat(",")?;
        }
        t.eat(ty)?;
        t.eat(var)?;
    }
    t.eat(")")?;
    t.eat("{")?;
    if toks.last().map(String::as_str) != Some("}") {
        return Err(format!("{name}: text after the closing brace"));
    }
    Ok(toks[t.k..toks.len() - 1].to_vec())
}

/// Reads `neuron_isa_check_opcode_on_engine` in the form the generator's reader accepts: engine
/// blocks `if (engine == E) { return( (opcode == A) || ... ); }`, then `return false;`.
fn placement_from_c(code: &str) -> Result<Placement, String> {
    let body = c_function_body(
        code,
        "neuron_isa_check_opcode_on_engine",
        &[
            ("NEURON_ISA_TPB_OPCODE", "opcode"),
            ("NEURON_ISA_TPB_NEURON_ENGINE", "engine"),
        ],
    )?;
    let mut t = Toks { t: &body, k: 0 };
    let mut out = Placement::new();
    let mut seen = BTreeSet::new();
    while t.peek() == Some("if") {
        t.eat("if")?;
        t.eat("(")?;
        t.eat("engine")?;
        t.eat("==")?;
        let engine = t.ident_with(ENGINE_PREFIX)?;
        if !seen.insert(engine.clone()) {
            return Err(format!("two blocks for engine {engine}"));
        }
        t.eat(")")?;
        t.eat("{")?;
        t.eat("return")?;
        t.eat("(")?;
        for op in t.opcode_tests("opcode")? {
            if !out.entry(op.clone()).or_default().insert(engine.clone()) {
                return Err(format!("{op} listed twice for {engine}"));
            }
        }
        t.eat(")")?;
        t.eat(";")?;
        t.eat("}")?;
    }
    t.eat("return")?;
    t.eat("false")?;
    t.eat(";")?;
    if t.k != body.len() {
        return Err(format!("token {}: text after `return false;`", t.k));
    }
    Ok(out)
}

/// Reads `is_pseudo_op`: `return( (opcode == A) || ... );`.
fn pseudo_ops_from_c(code: &str) -> Result<Vec<String>, String> {
    let body = c_function_body(code, "is_pseudo_op", &[("NEURON_ISA_TPB_OPCODE", "opcode")])?;
    let mut t = Toks { t: &body, k: 0 };
    t.eat("return")?;
    t.eat("(")?;
    let ops = t.opcode_tests("opcode")?;
    t.eat(")")?;
    t.eat(";")?;
    if t.k != body.len() {
        return Err(format!("token {}: text after the return", t.k));
    }
    Ok(ops)
}

/// The placement table of headers/PROVENANCE.md: per generation, opcode -> engines, and the
/// opcodes marked `-` (absent from that generation).
fn placement_from_provenance(text: &str) -> BTreeMap<&'static str, (Placement, BTreeSet<String>)> {
    let head = "| opcode | sunda | cayman | mariana | maverick |";
    let mut lines = text.lines().skip_while(|l| !l.starts_with(head));
    assert!(
        lines.next().is_some(),
        "PROVENANCE.md has no placement table (a row starting `{head}`)"
    );
    let sep = lines.next().unwrap_or("");
    assert!(sep.starts_with("|---"), "placement table: `{sep}`");
    let mut out: BTreeMap<&'static str, (Placement, BTreeSet<String>)> = BTreeMap::new();
    let mut rows = 0;
    for line in lines.take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert!(cells.len() >= 5, "placement table row `{line}`");
        let op = cells[0].trim_matches('`').to_string();
        assert!(
            !op.is_empty()
                && op
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'),
            "placement table: opcode cell `{}`",
            cells[0]
        );
        for (gen, cell) in GENS.iter().zip(&cells[1..5]) {
            let entry = out.entry(gen.name).or_default();
            if *cell == "-" {
                entry.1.insert(op.clone());
                continue;
            }
            let engines: BTreeSet<String> = cell.split(',').map(|e| e.trim().to_string()).collect();
            for e in &engines {
                assert!(
                    ["PE", "ACT", "POOL", "DVE", "TPB_SP", "TOP_SP"].contains(&e.as_str()),
                    "placement table: engine `{e}` in `{line}`"
                );
            }
            assert!(entry.0.insert(op.clone(), engines).is_none(), "{op} twice");
        }
        rows += 1;
    }
    assert!(rows > 0, "the placement table has no rows");
    out
}

/// Values of an enum of common.h, `NEURON_ISA_TPB_<ENUM>_<MEMBER> = v,` -> (MEMBER, v).
fn enum_members(common: &str, enum_name: &str) -> BTreeMap<String, u8> {
    let open = format!("typedef enum NEURON_ISA_TPB_{enum_name} {{");
    let prefix = format!("NEURON_ISA_TPB_{enum_name}_");
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in common.lines() {
        let code = line.split("//").next().unwrap().trim();
        if code == open {
            inside = true;
        } else if inside && code.starts_with('}') {
            break;
        } else if inside {
            let (n, v) = code
                .trim_end_matches(',')
                .split_once('=')
                .expect("enumerator");
            let v = v.trim();
            let v = match v.strip_prefix("0x") {
                Some(h) => u8::from_str_radix(h, 16),
                None => v.parse(),
            }
            .expect("enumerator value");
            out.insert(n.trim().trim_start_matches(&prefix).to_string(), v);
        }
    }
    assert!(!out.is_empty(), "no enum {enum_name}");
    out
}

/// Builds and runs a C program that calls both functions for every opcode byte and every engine
/// value; returns what the compiled C says, as (placement, pseudo opcodes).
fn placement_by_running_c(gen: &Gen, files: &[(String, String)]) -> (Placement, BTreeSet<String>) {
    let common = header(files, "aws_neuron_isa_tpb_common.h");
    let engines = enum_members(common, "NEURON_ENGINE");
    let opcodes: BTreeMap<u8, String> = opcode_values(common)
        .into_iter()
        .map(|(n, v)| (v, n.trim_start_matches(OPCODE_PREFIX).to_string()))
        .collect();
    let src = format!(
        "#include <stdio.h>\n#include \"aws_neuron_isa_tpb_util.h\"\n#include \"{INSTR_ASSERT}\"\n\
         int main(void) {{\n\
         \x20   for (int o = 0; o < 256; o++) {{\n\
         \x20       if (is_pseudo_op((NEURON_ISA_TPB_OPCODE)o)) printf(\"pseudo %d\\n\", o);\n\
         \x20       for (int e = 0; e < 256; e++)\n\
         \x20           if (neuron_isa_check_opcode_on_engine((NEURON_ISA_TPB_OPCODE)o, (NEURON_ISA_TPB_NEURON_ENGINE)e))\n\
         \x20               printf(\"on %d %d\\n\", o, e);\n\
         \x20   }}\n\
         \x20   return 0;\n}}\n"
    );
    let dir = scratch_dir("placement");
    let c = dir.join(format!("placement_{}.c", gen.name));
    let exe = dir.join(format!("placement_{}", gen.name));
    fs::write(&c, src).expect("write placement probe");
    let out = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
        .arg(tpb(gen))
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("cannot run gcc");
    assert!(
        out.status.success(),
        "{}: the placement probe does not build:\n{}",
        gen.name,
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe)
        .output()
        .expect("run the placement probe");
    let _ = fs::remove_dir_all(&dir);
    assert!(
        run.status.success(),
        "{}: the placement probe failed",
        gen.name
    );
    let mut placement = Placement::new();
    let mut pseudo = BTreeSet::new();
    let name_of = |v: &str| -> String {
        let v: u8 = v.parse().unwrap();
        opcodes
            .get(&v)
            .unwrap_or_else(|| {
                panic!(
                    "{}: byte {v:#04x} is no opcode of the tree, yet placed",
                    gen.name
                )
            })
            .clone()
    };
    for line in String::from_utf8_lossy(&run.stdout).lines() {
        let w: Vec<&str> = line.split(' ').collect();
        match w.as_slice() {
            ["pseudo", o] => {
                pseudo.insert(name_of(o));
            }
            ["on", o, e] => {
                let e: u8 = e.parse().unwrap();
                let engine = engines
                    .iter()
                    .find(|(_, v)| **v == e)
                    .unwrap_or_else(|| panic!("{}: engine value {e} is no member", gen.name))
                    .0;
                placement
                    .entry(name_of(o))
                    .or_default()
                    .insert(engine.clone());
            }
            _ => panic!("unexpected probe output `{line}`"),
        }
    }
    (placement, pseudo)
}

/// `NeuronEngine::X` spellings in the spec blocks of a file, as C member names.
fn engines_named_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let Some(c) = comment_text(line) else {
            continue;
        };
        let mut rest = c;
        while let Some(k) = rest.find("NeuronEngine::") {
            rest = &rest[k + "NeuronEngine::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.insert(name.to_ascii_uppercase());
        }
    }
    out
}

#[test]
fn placement_matches_the_provenance_table() {
    let provenance = read(&headers_root().join("PROVENANCE.md"));
    let table = placement_from_provenance(&provenance);
    for gen in &GENS {
        let files = header_files(gen);
        let text = header(&files, INSTR_ASSERT);
        let from_text =
            placement_from_c(text).unwrap_or_else(|e| panic!("{}: {INSTR_ASSERT}: {e}", gen.name));
        let (want, absent) = &table[gen.name];
        assert_eq!(
            &from_text, want,
            "{}: {INSTR_ASSERT} against PROVENANCE.md",
            gen.name
        );

        // `-` in the table: the opcode is not in this generation; any engine list: it is
        let common = header(&files, "aws_neuron_isa_tpb_common.h");
        let opcodes = opcode_values(common);
        for op in absent {
            assert!(
                !opcodes.contains_key(&format!("{OPCODE_PREFIX}{op}")),
                "{}: {op} is marked absent but is in the enum",
                gen.name
            );
        }
        for op in want.keys() {
            assert!(
                opcodes.contains_key(&format!("{OPCODE_PREFIX}{op}")),
                "{}: {op} is placed but is not in the enum",
                gen.name
            );
        }

        // the compiled function says the same as the text
        let (ran, pseudo_ran) = placement_by_running_c(gen, &files);
        assert_eq!(ran, from_text, "{}: compiled placement", gen.name);

        // is_pseudo_op lists exactly the PSEUDO_ members of the enum, all in 0xc0..=0xdf
        let listed = pseudo_ops_from_c(text).unwrap_or_else(|e| panic!("{}: {e}", gen.name));
        let listed_set: BTreeSet<String> = listed.iter().cloned().collect();
        assert_eq!(
            listed.len(),
            listed_set.len(),
            "{}: is_pseudo_op repeats an opcode",
            gen.name
        );
        let enum_pseudo: BTreeSet<String> = opcodes
            .keys()
            .map(|n| n.trim_start_matches(OPCODE_PREFIX).to_string())
            .filter(|n| n.starts_with("PSEUDO_"))
            .collect();
        assert_eq!(listed_set, enum_pseudo, "{}: is_pseudo_op", gen.name);
        assert_eq!(
            pseudo_ran, enum_pseudo,
            "{}: compiled is_pseudo_op",
            gen.name
        );
        for op in &enum_pseudo {
            let v = opcodes[&format!("{OPCODE_PREFIX}{op}")];
            assert!((0xc0..=0xdf).contains(&v), "{}: {op} = {v:#04x}", gen.name);
        }
    }
}

#[test]
fn placement_agrees_with_the_validators() {
    // The engines the validators of a shape name are engines the opcode is placed on (an arm on
    // an engine that cannot run the opcode would be dead); for the checkpoint pair the legality
    // arms name exactly the placed engines.
    for gen in &GENS {
        let files = header_files(gen);
        let placement = placement_from_c(header(&files, INSTR_ASSERT)).expect("placement");
        let placed = |op: &str| placement.get(op).cloned().unwrap_or_default();
        let checks: [(&str, &str, bool); 4] = [
            ("aws_neuron_isa_tpb_s1_rand.h", "RAND_SET_STATE", true),
            ("aws_neuron_isa_tpb_d4_rand.h", "RAND_GET_STATE", true),
            (
                "aws_neuron_isa_tpb_pseudo_set_rng_seed.h",
                "PSEUDO_SET_RNG_SEED",
                false,
            ),
            ("aws_neuron_isa_tpb_d4_mr.h", "RNG", false),
        ];
        for (file, op, exact) in checks {
            let Some((_, text)) = files.iter().find(|(n, _)| n == file) else {
                continue;
            };
            let named = engines_named_in(text);
            assert!(!named.is_empty(), "{}: {file} names no engine", gen.name);
            if exact {
                assert_eq!(
                    named,
                    placed(op),
                    "{}: engines of {file} against the placement of {op}",
                    gen.name
                );
            } else {
                assert!(
                    named.is_subset(&placed(op)),
                    "{}: {file} names {named:?}, {op} is placed on {:?}",
                    gen.name,
                    placed(op)
                );
            }
        }
    }
}

#[test]
fn the_placement_reader_rejects_other_forms() {
    let sig = "STATIC inline bool neuron_isa_check_opcode_on_engine(NEURON_ISA_TPB_OPCODE opcode,\n    NEURON_ISA_TPB_NEURON_ENGINE engine) {\n";
    let good = format!(
        "{sig}    if (engine == NEURON_ISA_TPB_NEURON_ENGINE_POOL) {{\n        return(   (opcode == NEURON_ISA_TPB_OPCODE_RNG)  // note\n               || (opcode == NEURON_ISA_TPB_OPCODE_RAND));\n    }}\n    return false;\n}}\n"
    );
    let p = placement_from_c(&good).expect("the documented form");
    assert_eq!(p.len(), 2);
    assert_eq!(p["RNG"], BTreeSet::from(["POOL".to_string()]));
    let bad = [
        (
            good.replace("return false;", "return true;"),
            "expected `false`",
        ),
        (
            good.replace(
                "opcode == NEURON_ISA_TPB_OPCODE_RAND)",
                "opcode != NEURON_ISA_TPB_OPCODE_RAND)",
            ),
            "outside the placement subset",
        ),
        (
            good.replace("|| (opcode", "&& (opcode"),
            "outside the placement subset",
        ),
        (
            good.replace("engine == NEURON_ISA_TPB_NEURON_ENGINE_POOL", "engine == 2"),
            "NEURON_ISA_TPB_NEURON_ENGINE_* name",
        ),
        (
            good.replace(
                "(opcode == NEURON_ISA_TPB_OPCODE_RNG)",
                "(opcode == NEURON_ISA_TPB_OPCODE_RNG) || (opcode == NEURON_ISA_TPB_OPCODE_RNG)",
            ),
            "listed twice",
        ),
        (good.replace("    return false;\n", ""), "expected `return`"),
        (
            good.replace("STATIC inline", "static inline"),
            "no `STATIC inline bool",
        ),
    ];
    for (text, want) in bad {
        let err = placement_from_c(&text).expect_err(&text);
        assert!(err.contains(want), "`{err}` does not mention `{want}`");
    }
    // and the table check fails on a disagreement: one engine more in the C than in a table row
    let table = "| opcode | sunda | cayman | mariana | maverick | basis |\n|---|---|---|---|---|---|\n| `RNG` | POOL | POOL | POOL | POOL | x |\n";
    let t = placement_from_provenance(table);
    let mut extra = p.clone();
    extra.remove("RAND");
    assert_eq!(extra, t["sunda"].0);
    extra.get_mut("RNG").unwrap().insert("DVE".into());
    assert_ne!(extra, t["sunda"].0);
}

// ---------------------------------------------------------------------------------------------
// 7. evidence levels of rng-runtime.json
// ---------------------------------------------------------------------------------------------

/// (generation, instruction, engine, algorithm, evidence level), sorted.
type Evidence = Vec<(String, String, String, String, String)>;

/// The entries of every tree's `rng-runtime.json` list `key` (`firmware` or `not_wired`).
fn evidence_from_runtime_files(key: &str) -> Evidence {
    let mut out = Vec::new();
    for gen in &GENS {
        let path = tpb(gen).parent().unwrap().join("rng-runtime.json");
        let text = read(&path);
        let json = parse_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let firmware = object(&json)
            .iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("{}: no {key} list", path.display()));
        let Json::Arr(entries) = &firmware.1 else {
            panic!("{}: {key} is not a list", path.display())
        };
        for e in entries {
            let field = |name: &str| -> String {
                match object(e).iter().find(|(k, _)| k == name) {
                    Some((_, Json::Str(v))) => v.clone(),
                    other => panic!("{}: firmware entry field {name}: {other:?}", path.display()),
                }
            };
            let level = field("evidence");
            if level == "assumed" {
                // an assumption carries its number
                assert!(
                    field("source").contains("PROVENANCE A"),
                    "{}: assumed entry without an assumption number: {}",
                    gen.name,
                    field("source")
                );
            }
            out.push((
                gen.name.to_string(),
                field("instruction"),
                field("engine"),
                field("algorithm"),
                level,
            ));
        }
    }
    out.sort();
    out
}

/// The PROVENANCE.md table whose header row starts with `| <first> |`.
fn evidence_from_provenance(text: &str, first: &str) -> Evidence {
    let head = format!("| {first} | instruction | engine | algorithm | level |");
    let head = head.as_str();
    let mut lines = text.lines().skip_while(|l| !l.starts_with(head));
    assert!(
        lines.next().is_some(),
        "PROVENANCE.md has no evidence table (`{head}`)"
    );
    assert!(
        lines.next().unwrap_or("").starts_with("|---"),
        "evidence table separator"
    );
    let mut out: Evidence = lines
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let c: Vec<String> = l
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect();
            assert_eq!(c.len(), 5, "evidence table row `{l}`");
            (
                c[0].clone(),
                c[1].clone(),
                c[2].clone(),
                c[3].clone(),
                c[4].clone(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn firmware_evidence_levels_are_normalised_and_documented() {
    let files = evidence_from_runtime_files("firmware");
    assert!(!files.is_empty());
    for (gen, instruction, engine, algorithm, level) in &files {
        assert!(
            ["observed", "inferred", "assumed"].contains(&level.as_str()),
            "{gen} {instruction} {engine} {algorithm}: evidence `{level}`"
        );
        // rng-facts 6 item 15: every NC-v5 firmware body is known from strings only
        assert!(
            !(gen == "maverick" && level == "observed"),
            "maverick {instruction} {engine} {algorithm} claims an observed body"
        );
    }
    // rng-facts 4.10: SUNDA ships no checkpoint body
    assert!(
        files.iter().all(|e| e.0 != "sunda"),
        "sunda lists a wired body"
    );
    let provenance = read(&headers_root().join("PROVENANCE.md"));
    let documented = evidence_from_provenance(&provenance, "evidence of");
    assert_eq!(
        files, documented,
        "rng-runtime.json against the evidence table of PROVENANCE.md"
    );
    let mut unique = files.clone();
    unique.dedup();
    assert_eq!(unique.len(), files.len(), "an entry is listed twice");
    // The recorded absences, against their own table; none is also wired.
    let absent = evidence_from_runtime_files("not_wired");
    assert_eq!(
        absent,
        evidence_from_provenance(&provenance, "not wired on"),
        "rng-runtime.json not_wired against PROVENANCE.md"
    );
    for (gen, instruction, engine, algorithm, level) in &absent {
        assert!(
            ["observed", "inferred", "assumed"].contains(&level.as_str()),
            "{gen} {instruction} {engine} {algorithm}: evidence `{level}`"
        );
        assert!(
            !files
                .iter()
                .any(|w| (&w.0, &w.1, &w.2, &w.3) == (gen, instruction, engine, algorithm)),
            "{gen} {instruction} {engine} {algorithm} is both wired and not wired"
        );
    }
}

#[test]
fn the_json_reader_takes_numbers_and_rejects_other_values() {
    assert_eq!(
        parse_json("{\"v\": [1, 23]}"),
        Ok(Json::Obj(vec![(
            "v".into(),
            Json::Arr(vec![Json::Num(1), Json::Num(23)])
        )]))
    );
    for bad in ["{\"v\": -1}", "{\"v\": true}", "{\"v\": 1.5}"] {
        assert!(parse_json(bad).is_err(), "{bad}");
    }
}
