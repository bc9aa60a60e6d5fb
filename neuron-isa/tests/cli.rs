//! End-to-end tests of the `neuron-isa` binary: every subcommand, run as a process.
//!
//! Expected values come from facts typed here (rng-facts §3.4 arm counts), the
//! rng-core known-answer files (read, not retyped), the committed ISA summaries,
//! or from the tool's own other subcommands (round trips).

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_neuron-isa"));
    c.args(args).env("RUST_BACKTRACE", "1").current_dir(root());
    c
}

fn run(args: &[&str]) -> Output {
    command(args).output().expect("the binary runs")
}

fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// Runs and requires exit 0; returns stdout.
fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    assert!(
        o.stderr.is_empty(),
        "{args:?} wrote to stderr: {}",
        stderr(&o)
    );
    stdout(&o)
}

/// Requires exit `code` and exactly one line on stderr, without a panic or backtrace; returns it.
fn fails(o: &Output, code: i32, what: &str) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{what}: stderr {err:?}");
    assert_eq!(
        err.lines().count(),
        1,
        "{what}: one line on stderr, got {err:?}"
    );
    assert!(err.ends_with('\n'), "{what}: {err:?}");
    assert!(err.starts_with("neuron-isa: "), "{what}: {err:?}");
    for bad in ["panicked", "backtrace", "RUST_BACKTRACE", "internal error"] {
        assert!(!err.contains(bad), "{what}: {err:?}");
    }
    err
}

/// The CLI spelling of a vendor member name.
fn spell(name: &str) -> String {
    name.to_ascii_lowercase().replace('_', "-")
}

fn matrix_rows(args: &[&str]) -> Vec<Value> {
    let text = ok(args);
    match serde_json::from_str(&text).expect("matrix --json is JSON") {
        Value::Array(rows) => rows,
        other => panic!("not an array: {other}"),
    }
}

fn field<'a>(decoded: &'a Value, name: &str) -> &'a Value {
    decoded["fields"]
        .as_array()
        .expect("fields")
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no field {name} in {decoded}"))
}

/// `encode` arguments for a matrix row.
fn encode_args(row: &Value) -> Vec<String> {
    let gen = row["generation"].as_str().unwrap();
    let mut args: Vec<String> = vec!["encode".into(), "--gen".into(), gen.into()];
    let s = |k: &str| spell(row[k].as_str().unwrap());
    match row["instruction"].as_str().unwrap() {
        "RAND_SET_STATE" => {
            args.extend([
                "rand-set-state".into(),
                "--update".into(),
                s("update_state"),
            ]);
            args.extend(["--src".into(), "0x1000".into()]);
        }
        "RAND_GET_STATE" => args.extend(["rand-get-state".into(), "--dst".into(), "4096".into()]),
        other => panic!("instruction {other}"),
    }
    for k in ["engine", "generator", "algorithm"] {
        args.extend([format!("--{k}"), s(k)]);
    }
    args
}

/// A command line split on white space.
fn sh(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn matrix_json_has_the_documented_arm_counts() {
    // rng-facts §3.4: legal RAND_SET_STATE / RAND_GET_STATE arms per generation.
    const FACTS: [(&str, usize, usize); 4] = [
        ("sunda", 2, 1),
        ("cayman", 3, 2),
        ("mariana", 8, 7),
        ("maverick", 7, 6),
    ];
    let all = matrix_rows(&["matrix", "--json"]);
    assert_eq!(all.len(), FACTS.iter().map(|f| f.1 + f.2).sum::<usize>());
    for (gen, set, get) in FACTS {
        let count = |inst: &str| {
            all.iter()
                .filter(|r| r["generation"] == gen && r["instruction"] == inst)
                .count()
        };
        assert_eq!(
            (count("RAND_SET_STATE"), count("RAND_GET_STATE")),
            (set, get),
            "{gen}"
        );
        let one = matrix_rows(&["matrix", "--gen", gen, "--json"]);
        assert_eq!(one.len(), set + get, "{gen}");
        assert!(one.iter().all(|r| r["generation"] == gen));
    }
    let keys = [
        "generation",
        "instruction",
        "engine",
        "generator",
        "algorithm",
        "update_state",
        "words",
        "firmware_wired",
        "firmware_evidence",
        "arm_evidence",
        "placement_evidence",
    ];
    // Keys in the issue's order, on every object line of the text.
    let text = ok(&["matrix", "--json"]);
    for line in text.lines().filter(|l| l.contains('{')) {
        let at: Vec<usize> = keys
            .iter()
            .map(|k| {
                line.find(&format!("\"{k}\": "))
                    .unwrap_or_else(|| panic!("{k} in {line}"))
            })
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{line}");
    }
    for row in &all {
        let obj = row.as_object().unwrap();
        assert_eq!(obj.len(), keys.len(), "{row}");
        let get = row["instruction"] == "RAND_GET_STATE";
        assert_eq!(row["update_state"].is_null(), get, "{row}");
        assert!(row["words"].as_u64().unwrap() >= 1);
        assert!(row["firmware_wired"].is_boolean());
        // A wired body carries its evidence level, an unwired one the level of its absence:
        // every legal arm of these trees is recorded one way or the other.
        assert!(row["firmware_evidence"].is_string(), "{row}");
        for k in ["engine", "generator", "algorithm"] {
            assert!(!row[k].as_str().unwrap().contains("NEURON_ISA"), "{row}");
        }
        // The POOL firmware wires only LFSR and XORWOW bodies (rng-core README, Gate::Firmware).
        if row["engine"] == "POOL" {
            let wired = row["firmware_wired"].as_bool().unwrap();
            assert_eq!(wired, row["algorithm"] != "PHILOX", "{row}");
        }
    }
    // The issue's example row, exactly.
    assert!(all.iter().any(|r| *r
        == serde_json::json!({"generation": "mariana", "instruction": "RAND_SET_STATE", "engine": "POOL",
            "generator": "RNG_XORWOW", "algorithm": "XORWOW", "update_state": "SRC_TENSOR",
            "words": 6, "firmware_wired": true, "firmware_evidence": "observed",
            "arm_evidence": null, "placement_evidence": "conflict (C13)"})));
}

/// The evidence column is each tree's `rng-runtime.json`, entry by entry: every row has the level
/// its entry states (`firmware` for a wired row, `not_wired` for the others), and every entry of
/// a legal arm shows up.
#[test]
fn matrix_evidence_is_the_runtime_data() {
    let rows = matrix_rows(&["matrix", "--json"]);
    for gen in ["sunda", "cayman", "mariana", "maverick"] {
        let path = format!(
            "{}/../headers/neuron_{gen}_arch_isa/rng-runtime.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let data: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let list = |key: &str| data[key].as_array().unwrap().clone();
        let (wired, not_wired) = (list("firmware"), list("not_wired"));
        let entries: Vec<Value> = wired.iter().chain(&not_wired).cloned().collect();
        for row in rows.iter().filter(|r| r["generation"] == gen) {
            let find = |list: &[Value]| {
                list.iter()
                    .find(|e| {
                        e["instruction"] == row["instruction"]
                            && e["engine"] == row["engine"]
                            && e["algorithm"] == row["algorithm"]
                    })
                    .cloned()
            };
            let entry = find(&wired).or_else(|| find(&not_wired));
            let entry = entry.unwrap_or_else(|| panic!("{gen}: {row} is not recorded"));
            assert_eq!(row["firmware_evidence"], entry["evidence"], "{row}");
            assert_eq!(
                row["firmware_wired"].as_bool(),
                Some(find(&wired).is_some()),
                "{row}"
            );
        }
        for e in entries {
            let shown = rows.iter().any(|r| {
                r["generation"] == gen
                    && r["instruction"] == e["instruction"]
                    && r["engine"] == e["engine"]
                    && r["algorithm"] == e["algorithm"]
            });
            assert!(shown, "{gen}: {e} has no legal arm in the matrix");
        }
    }
    let text = ok(&["matrix", "--gen", "mariana"]);
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with("FIRMWARE_WIRED  EVIDENCE  ARM_EVIDENCE  PLACEMENT"),
        "{text}"
    );
    assert!(text
        .lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>()
            == [
                "mariana",
                "RAND_SET_STATE",
                "DVE",
                "RNG_LFSR",
                "LFSR",
                "SRC_TENSOR",
                "4",
                "yes",
                "assumed",
                "-",
                "observed"
            ]));
    // Its save is unwired by the project's choice (A68), and the matrix says so.
    assert!(text
        .lines()
        .any(|l| l.split_whitespace().collect::<Vec<_>>()
            == [
                "mariana",
                "RAND_GET_STATE",
                "DVE",
                "RNG_LFSR",
                "LFSR",
                "-",
                "4",
                "no",
                "assumed",
                "-",
                "observed"
            ]));
    // CAYMAN's arms are inferred (only their number is documented: A27, C4), and the matrix
    // says so in the arm's own column, apart from the firmware's evidence.
    let cayman = ok(&["matrix", "--gen", "cayman"]);
    let rows: Vec<Vec<&str>> = cayman
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 5, "{cayman}");
    assert!(
        rows.iter().all(|r| r.get(9) == Some(&"inferred")),
        "{cayman}"
    );
    assert!(rows.contains(&vec![
        "cayman",
        "RAND_SET_STATE",
        "POOL",
        "RNG_XORWOW",
        "XORWOW",
        "SRC_TENSOR",
        "6",
        "yes",
        "observed",
        "inferred",
        "conflict(C13)"
    ]));
    for row in matrix_rows(&["matrix", "--json"]) {
        let inferred = row["generation"] == "cayman";
        assert_eq!(
            row["arm_evidence"],
            if inferred {
                Value::from("inferred")
            } else {
                Value::Null
            },
            "{row}"
        );
    }
}

/// The placement column is each tree's placement note: every legal arm's engine is placed (the
/// arms name exactly the placed engines), and the checkpoint pair's placements that rest on a
/// conflict say which (`instr_assert.h`: MARIANA's ACT lines cite C11, SUNDA's POOL lines C12,
/// POOL elsewhere C13; the DVE lines of MARIANA and MAVERICK cite nothing).
#[test]
fn matrix_placement_is_the_header_note() {
    for row in matrix_rows(&["matrix", "--json"]) {
        let expected = match (row["generation"].as_str(), row["engine"].as_str()) {
            (Some("mariana"), Some("ACT")) => "conflict (C11)",
            (Some("sunda"), Some("POOL")) => "conflict (C12)",
            (_, Some("POOL")) => "conflict (C13)",
            (_, Some("DVE")) => "observed",
            _ => panic!("an arm on an engine the trees do not place the pair on: {row}"),
        };
        assert_eq!(row["placement_evidence"], Value::from(expected), "{row}");
    }
}

#[test]
fn matrix_table_lists_every_arm() {
    let table = ok(&["matrix"]);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("GENERATION"), "{table}");
    assert_eq!(lines.len() - 1, matrix_rows(&["matrix", "--json"]).len());
    assert!(lines
        .iter()
        .any(|l| l.split_whitespace().collect::<Vec<_>>()
            == [
                "mariana",
                "RAND_GET_STATE",
                "DVE",
                "RNG_XORWOW",
                "XORWOW",
                "-",
                "24",
                "yes",
                "inferred",
                "-",
                "observed"
            ]));
}

#[test]
fn every_arm_encodes_decodes_and_validates() {
    for row in matrix_rows(&["matrix", "--json"]) {
        let gen = row["generation"].as_str().unwrap();
        let engine = spell(row["engine"].as_str().unwrap());
        let args = encode_args(&row);
        let hex = ok(&strs(&args));
        let hex = hex.trim_end();
        assert_eq!(hex.len(), 128, "{row}: {hex}");
        assert!(hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));

        let decoded: Value =
            serde_json::from_str(&ok(&["decode", "--gen", gen, "--json", hex])).unwrap();
        let word = &decoded[0];
        assert_eq!(word["name"], row["instruction"], "{row}");
        assert!(word["error"].is_null());
        assert_eq!(field(word, "rand_generator")["member"], row["generator"]);
        assert_eq!(field(word, "rand_algorithm")["member"], row["algorithm"]);
        assert_eq!(field(word, "num_active_channels")["value"], 128);
        let (count, addr) = match row["instruction"].as_str().unwrap() {
            "RAND_SET_STATE" => {
                assert_eq!(field(word, "update_state")["member"], row["update_state"]);
                ("src_mem_pattern.num_elem[0]", "src_mem_pattern.start_addr")
            }
            _ => ("dst_mem_pattern.num_elem[0]", "dst_mem_pattern.start_addr"),
        };
        assert_eq!(field(word, count)["value"], row["words"], "{row}");
        assert_eq!(field(word, addr)["value"], 0x1000, "{row}");

        let report = ok(&["validate", "--gen", gen, "--engine", &engine, hex]);
        assert!(
            report.contains("1 word: 1 valid, 0 invalid"),
            "{row}: {report}"
        );
        let firmware = run(&[
            "validate",
            "--gen",
            gen,
            "--engine",
            &engine,
            "--firmware",
            hex,
        ]);
        if row["firmware_wired"].as_bool().unwrap() {
            assert_eq!(
                firmware.status.code(),
                Some(0),
                "{row}: {}",
                stdout(&firmware)
            );
        } else {
            fails(&firmware, 1, "firmware gate");
            let out = stdout(&firmware);
            assert!(
                out.contains("not currently supported on POOL")
                    || out.contains("has no firmware body"),
                "{row}: {out}"
            );
        }
    }
}

#[test]
fn encode_takes_decimal_and_hex_and_immediates() {
    let base = sh("encode --gen mariana rand-set-state --engine pool --generator rng-philox --algorithm philox --update imm-single");
    let with = |extra: &[&str]| ok(&[&base[..], extra].concat());
    let a = with(&["--imm", "1,2,3,4,5,6,0x7", "--channels", "0x10"]);
    let b = with(&["--imm", "0x1,2,3,4,5,6,7", "--channels", "16"]);
    assert_eq!(a, b);
    let decoded: Value =
        serde_json::from_str(&ok(&["decode", "--gen", "mariana", "--json", a.trim()])).unwrap();
    for k in 0..7 {
        assert_eq!(
            field(&decoded[0], &format!("imm_state[{k}]"))["value"],
            k + 1
        );
    }
    assert_eq!(field(&decoded[0], "imm_state[7]")["value"], 0);
    assert_eq!(field(&decoded[0], "num_active_channels")["value"], 16);
    ok(&["validate", "--gen", "mariana", "--engine", "pool", a.trim()]);
}

#[test]
fn validate_follows_the_engine_placement() {
    // RAND2 is placed on DVE alone (instr_assert.h): POOL rejects the word, naming the rule.
    let word = ok(&sh(
        "encode --gen mariana rand2 --dst 0 --channels 2 --elems 4 --min 0 --max 1",
    ));
    let o = run(&[
        "validate",
        "--gen",
        "mariana",
        "--engine",
        "pool",
        word.trim(),
    ]);
    let err = fails(&o, 1, "RAND2 on POOL");
    assert!(err.contains("1 of 1 words"), "{err}");
    let out = stdout(&o);
    assert!(
        out.starts_with("word 0 @ 0x0: inst failed assertion check: 'RAND2 runs on DVE' (neuron_isa_check_opcode_on_engine -> RAND2 runs on DVE); engine = 2 (POOL)"),
        "{out}"
    );
    ok(&[
        "validate",
        "--gen",
        "mariana",
        "--engine",
        "dve",
        word.trim(),
    ]);
}

#[test]
fn an_invalid_word_exits_1_and_names_the_predicate() {
    // DVE's XORWOW state is 24 words; 6 is POOL's width: a word the validator must reject.
    let hex = ok(&sh("encode --gen mariana rand-set-state --engine dve --generator rng-xorwow --algorithm xorwow --update src-tensor --src 0 --words 6"));
    let good = ok(&sh("encode --gen mariana rand-set-state --engine dve --generator rng-xorwow --algorithm xorwow --update src-tensor --src 0"));
    let o = run(&[
        "validate",
        "--gen",
        "mariana",
        "--engine",
        "dve",
        good.trim(),
        hex.trim(),
    ]);
    let err = fails(&o, 1, "invalid word");
    assert!(err.contains("1 of 2 words"), "{err}");
    let out = stdout(&o);
    let line = out.lines().next().unwrap();
    assert!(
        line.starts_with("word 1 @ 0x40: inst failed assertion check: '"),
        "{out}"
    );
    assert!(line.contains("rand_set_state_legal_combinations"), "{out}");
    assert!(line.contains("src_mem_pattern.num_elem[0] = 6"), "{out}");
    assert!(out.contains("2 words: 1 valid, 1 invalid"), "{out}");

    // A word that does not decode: exit 1 for validate and decode alike.
    let junk = "ff".repeat(64);
    let o = run(&["validate", "--gen", "mariana", "--engine", "pool", &junk]);
    fails(&o, 1, "junk validate");
    assert!(stdout(&o).contains("does not decode"), "{}", stdout(&o));
    let o = run(&["decode", "--gen", "mariana", &junk]);
    fails(&o, 1, "junk decode");
    assert!(
        stdout(&o).contains("error: does not decode"),
        "{}",
        stdout(&o)
    );
}

/// The first line `validate` prints for one word, which must be invalid (exit 1).
fn invalid_line(gen: &str, engine: &str, encode: &str) -> String {
    let hex = ok(&sh(&format!("encode --gen {gen} {encode}")));
    let o = run(&["validate", "--gen", gen, "--engine", engine, hex.trim()]);
    fails(&o, 1, encode);
    stdout(&o).lines().next().unwrap().to_string()
}

#[test]
fn violations_read_as_numbers_addresses_floats_and_bounds() {
    // A lane count is a count: decimal, with the bound it broke (the predicate's `max`).
    let line = invalid_line(
        "mariana",
        "dve",
        "rand2 --dst 0 --channels 129 --elems 8 --min -1 --max 1",
    );
    assert!(
        line.ends_with("num_active_channels = 129, at most 128"),
        "{line}"
    );
    // A state source in PSUM, where the validator allows SBUF only: the address in hex and the
    // memories by name.
    let line = invalid_line(
        "mariana",
        "dve",
        "rand-set-state --engine dve --generator rng-xorwow --algorithm xorwow --update src-tensor --src 0x2000000",
    );
    assert!(line.contains("tensor_start_addr_valid"), "{line}");
    assert!(
        line.ends_with("SBUF only: start address 0x2000000 is in PSUM"),
        "{line}"
    );
    assert!(
        line.contains("src_mem_pattern.start_addr.addr_immediate = 0x2000000"),
        "{line}"
    );
    // Two equal fp32 immediates, compared as floats (`min < max`): shown as the floats.
    let line = invalid_line(
        "mariana",
        "dve",
        "rand2 --dst 0 --channels 4 --elems 8 --min 0.1 --max 0.1",
    );
    assert!(
        line.ends_with("min.imm_arith_fp32 = 0.1, max.imm_arith_fp32 = 0.1"),
        "{line}"
    );
}

#[test]
fn decode_shows_fp32_immediates_as_floats_and_a_zero_start_address() {
    let hex = ok(&sh(
        "encode --gen mariana rand2 --dst 0 --channels 4 --elems 8 --min -1 --max 1",
    ));
    let short = ok(&["decode", "--gen", "mariana", "--short", hex.trim()]);
    assert!(short.contains(" min=-1.0 max=1.0 "), "{short}");
    assert!(
        short.contains("dst_mem_pattern={start_addr=0x0 step_elem=[1,1,1] num_elem=[8,1,1]}"),
        "{short}"
    );
    let long = ok(&["decode", "--gen", "mariana", hex.trim()]);
    assert!(long.contains("\n  min = -1.0\n  max = 1.0\n"), "{long}");
    let hex = ok(&sh(
        "encode --gen mariana dropout --src 0x100 --dst 0x400 --elems 8 --prob 0.1",
    ));
    let short = ok(&["decode", "--gen", "mariana", "--short", hex.trim()]);
    assert!(short.contains(" threshold=0.1 "), "{short}");
}

#[test]
fn bad_usage_exits_2_with_one_line_and_no_backtrace() {
    let word = "0".repeat(128);
    let cases: Vec<Vec<&str>> = vec![
        vec![],
        vec!["frobnicate"],
        vec!["matrix", "--gen", "gen9"],
        vec!["encode", "--gen", "mariana"],
        vec!["decode", "--gen", "mariana"],
        vec!["decode", "--gen", "mariana", "--file", "x", &word],
        vec!["decode", "--gen", "mariana", "abc"],
        sh("decode --gen mariana --file /nonexistent/words.bin"),
        vec!["validate", "--gen", "mariana", "--engine", "pe", &word],
        vec!["rng"],
        vec!["rng", "xorwow", "--state", "1,2,3", "--count", "1"],
        vec!["rng", "lfsr", "--state", "0x1g", "--count", "1"],
        vec!["rng", "lfsr", "--state", "0x100000000", "--count", "1"],
        vec!["rng", "pcg32", "--state", "1", "--inc", "2", "--count", "1"],
        sh("encode --gen mariana rand-set-state --engine pool --generator rng-lfsr --algorithm lfsr --update src-tensor --src 0"),
        sh("encode --gen mariana rand-set-state --engine pool --generator rng-xorwow --algorithm xorwow --update src-tensor"),
        sh("encode --gen mariana rand-get-state --engine pool --generator rng-xorwow --algorithm xorwow --dst 0 --channels 256"),
        sh("checkpoint --gen mariana --engine pool --generator rng-xorwow --algorithm xorwow --draws 0"),
        sh("diff /nonexistent/neuron_x_arch_isa headers/neuron_mariana_arch_isa"),
    ];
    for args in &cases {
        let o = run(args);
        fails(&o, 2, &format!("{args:?}"));
        assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    }
    // Help is not an error.
    assert!(ok(&["--help"]).contains("matrix"));
    assert!(ok(&["rng", "philox", "--help"]).contains("--counter"));
}

#[test]
fn a_partial_trailing_word_is_an_error_naming_its_offset() {
    let hex = ok(&sh("encode --gen cayman rand-get-state --engine pool --generator rng-xorwow --algorithm xorwow --dst 0"));
    let word: Vec<u8> = (0..64)
        .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).unwrap())
        .collect();
    let mut data = [word.as_slice(); 3].concat();
    data.extend_from_slice(&[0x77, 1, 2, 3, 4]);
    let dir = std::env::temp_dir().join(format!("neuron-isa-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("partial.bin");
    std::fs::write(&path, &data).unwrap();
    let file = path.to_str().unwrap();
    for args in [
        vec!["decode", "--gen", "cayman", "--file", file],
        vec![
            "validate", "--gen", "cayman", "--engine", "pool", "--file", file,
        ],
    ] {
        let o = run(&args);
        let err = fails(&o, 2, "partial word");
        assert!(err.contains("partial word at byte offset 192"), "{err}");
        assert!(err.contains("5 of 64 bytes"), "{err}");
        assert!(o.stdout.is_empty(), "refused before any output");
    }
    // Through a pipe the whole words come first, then the error.
    let o = run_with_stdin(
        &[
            "validate", "--gen", "cayman", "--engine", "pool", "--file", "-",
        ],
        &data,
    );
    let err = fails(&o, 2, "partial word on stdin");
    assert!(
        err.contains("standard input: partial word at byte offset 192"),
        "{err}"
    );
    // The whole words alone are fine, from the file and from stdin.
    std::fs::write(&path, &data[..192]).unwrap();
    let report = ok(&[
        "validate", "--gen", "cayman", "--engine", "pool", "--file", file,
    ]);
    assert!(report.contains("3 words: 3 valid, 0 invalid"), "{report}");
    let o = run_with_stdin(
        &["decode", "--gen", "cayman", "--json", "--file", "-"],
        &data[..192],
    );
    assert_eq!(o.status.code(), Some(0));
    let decoded: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(decoded.as_array().unwrap().len(), 3);
    assert_eq!(decoded[2]["offset"], 128);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the binary through `sh` with `redirect` applied to its streams (`>&-`, `>/dev/full`, `<&-`).
fn run_redirected(args: &[&str], redirect: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(env!("CARGO_BIN_EXE_neuron-isa"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .current_dir(root())
        .output()
        .expect("sh runs")
}

// `>&-` is told from `>/dev/null` only on Linux (see `neuron-isa/src/stdio.rs`).
#[cfg(target_os = "linux")]
#[test]
fn a_closed_or_failing_standard_output_is_an_error_naming_it() {
    let word = ok(&sh("encode --gen mariana rand-set-state --engine pool --generator rng-xorwow --algorithm xorwow --update src-tensor --src 0x100"));
    let word = word.trim();
    let dir = std::env::temp_dir().join(format!("neuron-isa-stdout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("program.bin");
    std::fs::write(&program, hex_word(word)).unwrap();
    let program = program.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["matrix"],
        vec!["matrix", "--gen", "cayman", "--json"],
        sh("encode --gen mariana rand2 --dst 0x400 --channels 4 --elems 8 --min -1 --max 1"),
        vec!["decode", "--gen", "mariana", word],
        vec!["decode", "--gen", "mariana", "--short", word],
        vec!["validate", "--gen", "mariana", "--engine", "pool", word],
        sh("rng xorwow --state 1,2,3,4,5,6 --count 3"),
        sh("checkpoint --gen mariana --engine pool --generator rng-xorwow --algorithm xorwow --draws 2 --channels 2"),
        vec!["run", "--gen", "mariana", "--file", program, "--dump", "0x100:1:2"],
        vec!["--help"],
    ];
    for args in &commands {
        // Closed, full, and open for reading only (EBADF on write, which std's stdout hides).
        for redirect in [">&-", ">/dev/full", "1</dev/null"] {
            let o = run_redirected(args, redirect);
            let err = fails(&o, 2, &format!("{args:?} {redirect}"));
            assert!(
                err.starts_with("neuron-isa: standard output: "),
                "{args:?} {redirect}: {err}"
            );
        }
        // /dev/null is a working output, not a closed one.
        let o = run_redirected(args, ">/dev/null");
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?} >/dev/null: {}",
            stderr(&o)
        );
    }
    // The lost output is the failure even where the words were invalid (exit 1 without it).
    let o = run_redirected(
        &["validate", "--gen", "mariana", "--engine", "dve", word],
        ">&-",
    );
    let err = fails(&o, 2, "invalid word, closed output");
    assert!(err.contains("standard output"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_or_unreadable_standard_input_is_an_error_naming_it() {
    let commands = [
        sh("validate --gen mariana --engine pool --file -"),
        sh("decode --gen mariana --file -"),
        sh("run --gen mariana --file - --dump 0:1:1"),
    ];
    for args in &commands {
        for (redirect, what) in [
            ("<&-", "closed (bad file descriptor)"),
            ("<.", "Is a directory"),
            // Open for writing only: EBADF on read, which std's stdin reads as the end.
            ("0>/dev/null", "Bad file descriptor"),
        ] {
            let o = run_redirected(args, redirect);
            let err = fails(&o, 2, &format!("{args:?} {redirect}"));
            assert!(err.starts_with("neuron-isa: standard input: "), "{err}");
            assert!(err.contains(what), "{args:?} {redirect}: {err}");
            assert!(o.stdout.is_empty(), "{args:?} {redirect}");
        }
    }
    // An empty input is not a closed one.
    let o = run_redirected(&commands[0], "</dev/null");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("0 words: 0 valid"));
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly_with_the_sigpipe_status() {
    let mut child = command(&sh("rng xorwow --state 1,2,3,4,5,6 --count 10000000"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before (or while) the tool writes: its next write gets EPIPE.
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

// Symbolic links are made with the Unix API.
#[cfg(unix)]
#[test]
fn diff_takes_any_path_to_a_tree() {
    let tree = root().join("headers/neuron_sunda_arch_isa");
    let dir = std::env::temp_dir().join(format!("neuron-isa-diff-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("neuron__arch_isa")).unwrap();
    let link = dir.join("link");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&tree, &link).unwrap();
    let link = link.to_str().unwrap();
    // `.`, a trailing slash, `..` components and a symbolic link all name the SUNDA tree.
    let o = command(&[
        "diff",
        ".",
        "../neuron_cayman_arch_isa/../neuron_sunda_arch_isa/",
    ])
    .current_dir(&tree)
    .output()
    .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("    ISA changes: none\n"),
        "{}",
        stdout(&o)
    );
    let out = ok(&["diff", link, "headers/neuron_sunda_arch_isa/"]);
    assert!(
        out.starts_with(&format!("SUNDA (NC-v2, {link}) -> SUNDA")),
        "{out}"
    );
    assert!(out.ends_with("    ISA changes: none\n"), "{out}");
    // A name that is still wrong says which part is.
    let empty = dir.join("neuron__arch_isa");
    let cases = [
        (
            vec!["diff", ".", "headers/neuron_sunda_arch_isa"],
            "does not start with `neuron_`",
        ),
        (
            vec![
                "diff",
                "headers/neuron_sunda_arch_isa/tpb/..",
                "headers/neuron_sunda_arch_isa/tpb",
            ],
            "directory name `tpb`",
        ),
        (
            vec![
                "diff",
                empty.to_str().unwrap(),
                "headers/neuron_sunda_arch_isa",
            ],
            "the generation part between them is empty",
        ),
        (
            vec![
                "diff",
                "headers/neuron_sunda_arch_isa/rng-runtime.json",
                "headers/neuron_sunda_arch_isa",
            ],
            "not a directory",
        ),
    ];
    for (args, what) in &cases {
        let o = run(args);
        let err = fails(&o, 2, &format!("{args:?}"));
        assert!(err.contains(what), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let err = fails(&run(&cases[0].0), 2, "diff .");
    assert!(
        err.contains(&format!(
            "(resolved to {})",
            std::fs::canonicalize(root()).unwrap().display()
        )),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn decode_text_names_every_field_with_its_member() {
    let hex = ok(&sh("encode --gen maverick rand-get-state --engine dve --generator output-cvt-lfsr --algorithm lfsr --dst 0x80"));
    let text = ok(&["decode", "--gen", "maverick", hex.trim(), hex.trim()]);
    let json: Value =
        serde_json::from_str(&ok(&["decode", "--gen", "maverick", "--json", hex.trim()])).unwrap();
    let fields = json[0]["fields"].as_array().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "word 0 @ 0x0: RAND_GET_STATE (0x77)");
    assert_eq!(lines.len(), 2 * (1 + fields.len()), "{text}");
    assert_eq!(
        lines[1 + fields.len()],
        "word 1 @ 0x40: RAND_GET_STATE (0x77)"
    );
    for (line, f) in lines[1..].iter().zip(fields) {
        let name = f["name"].as_str().unwrap();
        assert!(line.starts_with(&format!("  {name} = ")), "{line} vs {f}");
        if let Some(member) = f["member"].as_str() {
            assert!(line.ends_with(&format!(" ({member})")), "{line}");
        }
    }
    assert!(
        text.contains("  rand_generator = 3 (OUTPUT_CVT_LFSR)\n"),
        "{text}"
    );
    assert!(
        text.contains("  dst_mem_pattern.start_addr = 0x00000080\n"),
        "{text}"
    );
}

/// Non-comment rows of a known-answer file, split on white space.
#[path = "../../rng-core/tests/kat/read.rs"]
mod read;

fn kat(name: &str) -> Vec<Vec<String>> {
    read::fields(&root().join("rng-core/tests/kat"), name)
}

use read::hex as hex_u32;

/// The tool's output lines as numbers (decimal, or `0x%08x` with `--hex`).
fn numbers(out: &str, hex: bool) -> Vec<u32> {
    out.lines()
        .map(|l| {
            if hex {
                assert!(l.len() == 10 && l.starts_with("0x"), "{l}");
                hex_u32(l)
            } else {
                l.parse().unwrap()
            }
        })
        .collect()
}

#[test]
fn rng_xorwow_matches_marsaglia() {
    let rows = kat("xorwow_marsaglia.txt");
    assert_eq!(rows[0][0], "state");
    let state = rows[0][1..].join(",");
    let expected: Vec<u32> = rows[1..]
        .iter()
        .flat_map(|r| r[1..].iter().map(|s| s.parse().unwrap()))
        .collect();
    assert_eq!(expected.len(), 20);
    let out = ok(&["rng", "xorwow", "--state", &state, "--count", "20"]);
    assert_eq!(numbers(&out, false), expected);
    let out = ok(&[
        "rng", "xorwow", "--state", &state, "--count", "0x14", "--hex",
    ]);
    assert_eq!(numbers(&out, true), expected);
}

#[test]
fn rng_philox_matches_random123_and_the_counter_step() {
    // `rng philox` for hex words from a data file, printing `count` outputs.
    let philox = |counter: &[String], key: &[String], count: usize, hex: bool| {
        let list = |w: &[String]| {
            w.iter()
                .map(|s| format!("0x{s}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let line = format!(
            "rng philox --counter {} --key {} --count {count}",
            list(counter),
            list(key)
        );
        numbers(
            &ok(&sh(&format!("{line}{}", if hex { " --hex" } else { "" }))),
            hex,
        )
    };
    let mut checked = 0;
    for row in kat("philox4x32.txt").iter().filter(|r| r[1] == "10") {
        let expected: Vec<u32> = row[8..12].iter().map(|s| hex_u32(s)).collect();
        assert_eq!(philox(&row[2..6], &row[6..8], 4, true), expected, "{row:?}");
        checked += 1;
    }
    assert_eq!(checked, 3);
    let rows = kat("philox4x32_stream.txt");
    let expected: Vec<u32> = rows[2][1..].iter().map(|s| hex_u32(s)).collect();
    assert_eq!(philox(&rows[0][1..], &rows[1][1..], 8, false), expected);
}

#[test]
fn rng_pcg32_matches_pcg_c_round_1() {
    let rows = kat("pcg32_demo.txt");
    assert_eq!(rows[1][0], "32bit:");
    let expected: Vec<u32> = rows[1][1..].iter().map(|s| hex_u32(s)).collect();
    assert_eq!(rows[3][0], "seeded_state");
    assert_eq!(rows[4][0], "seeded_inc");
    let (state, inc) = (&rows[3][1], &rows[4][1]);
    let out = ok(&sh(&format!(
        "rng pcg32 --state {state} --inc {inc} --count 6 --hex"
    )));
    assert_eq!(numbers(&out, true), expected);
    // The default increment is not pcg-c's 0x6d: the stream differs.
    let out = ok(&sh(&format!("rng pcg32 --state {state} --count 6 --hex")));
    assert_ne!(numbers(&out, true), expected);
}

#[test]
fn rng_lfsr_matches_the_derived_sequences() {
    let rows = kat("lfsr_fibonacci.txt");
    let mut checked = 0;
    for pair in rows.chunks(2) {
        assert_eq!(pair[0][0], "seed");
        let seed = format!("0x{}", pair[0][1]);
        match pair[1][0].as_str() {
            "output" => {
                let expected: Vec<u32> = pair[1][1..].iter().map(|s| hex_u32(s)).collect();
                let n = expected.len().to_string();
                let out = ok(&["rng", "lfsr", "--state", &seed, "--count", &n, "--hex"]);
                assert_eq!(numbers(&out, true), expected, "seed {seed}");
            }
            "after" => {
                let out = ok(&[
                    "rng",
                    "lfsr",
                    "--state",
                    &seed,
                    "--count",
                    &pair[1][1],
                    "--hex",
                ]);
                let last = out.lines().last().unwrap();
                assert_eq!(hex_u32(last), hex_u32(&pair[1][2]), "seed {seed}");
                assert_eq!(out.lines().count().to_string(), pair[1][1]);
            }
            other => panic!("row {other}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 7);
}

#[test]
fn checkpoint_round_trips_every_legal_arm() {
    let rows = matrix_rows(&["matrix", "--json"]);
    let mut ran = 0;
    for get in rows.iter().filter(|r| r["instruction"] == "RAND_GET_STATE") {
        let same = |r: &&Value| {
            ["generation", "engine", "generator", "algorithm"]
                .iter()
                .all(|k| r[*k] == get[*k])
        };
        let restorable = rows
            .iter()
            .filter(same)
            .any(|r| r["update_state"] == "SRC_TENSOR");
        let s = |k: &str| spell(get[k].as_str().unwrap());
        let args = [
            "checkpoint",
            "--gen",
            get["generation"].as_str().unwrap(),
            "--engine",
            &s("engine"),
            "--generator",
            &s("generator"),
            "--algorithm",
            &s("algorithm"),
            "--seed",
            "0x5eed",
            "--draws",
            "10",
        ];
        let o = run(&args);
        if !restorable {
            fails(&o, 1, "no SRC_TENSOR restore");
            continue;
        }
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        let seq = |label: &str| -> Vec<String> {
            let line = out
                .lines()
                .find(|l| l.starts_with(label))
                .unwrap_or_else(|| panic!("{out}"));
            line.split(':')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        let (first, second) = (seq("after get-state"), seq("after set-state"));
        assert_eq!(first.len(), 10, "{out}");
        assert_eq!(first, second, "{out}");
        assert!(
            first.iter().any(|w| w != "0x00000000"),
            "seeded lanes draw something: {out}"
        );
        assert!(out.contains("identical: yes (all 128 lanes)"), "{out}");
        // The printed words are the tool's own encodings, and they validate.
        for (inst, line) in out
            .lines()
            .filter_map(|l| l.split_once(' '))
            .filter(|(i, _)| i.starts_with("RAND_"))
        {
            let decoded: Value =
                serde_json::from_str(&ok(&["decode", "--gen", args[2], "--json", line])).unwrap();
            assert_eq!(decoded[0]["name"], inst);
            ok(&["validate", "--gen", args[2], "--engine", args[4], line]);
        }
        ran += 1;
    }
    assert_eq!(ran, 1 + 2 + 7 + 6, "every GET arm has a SRC_TENSOR restore");
    // Another seed gives another stream.
    let a = ok(&sh(
        "checkpoint --gen mariana --engine pool --generator rng-xorwow --algorithm xorwow --seed 1",
    ));
    let b = ok(&sh(
        "checkpoint --gen mariana --engine pool --generator rng-xorwow --algorithm xorwow --seed 2",
    ));
    assert_ne!(a.lines().nth(3), b.lines().nth(3));
    // An arm the generation does not have is an invalid instruction.
    let o = run(&sh(
        "checkpoint --gen sunda --engine pool --generator rng-xorwow --algorithm xorwow",
    ));
    let err = fails(&o, 1, "illegal arm");
    assert!(err.contains("not a legal arm of SUNDA"), "{err}");
}

/// Opcode names of a committed ISA summary.
fn opcodes(krate: &str) -> Vec<(String, u64)> {
    let path = root().join(krate).join("src/generated/isa.json");
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    summary["opcodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["name"].as_str().unwrap().to_string(),
                o["value"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn diff_of_mariana_and_maverick_lists_the_added_opcodes() {
    let old = opcodes("isa-mariana");
    let new = opcodes("isa-maverick");
    let added: Vec<&(String, u64)> = new
        .iter()
        .filter(|o| !old.iter().any(|p| p.0 == o.0))
        .collect();
    assert!(!added.is_empty());
    let out = ok(&sh(
        "diff headers/neuron_mariana_arch_isa headers/neuron_maverick_arch_isa",
    ));
    assert!(
        out.starts_with("MARIANA (NC-v4, headers/neuron_mariana_arch_isa) -> MAVERICK (NC-v5,"),
        "{out}"
    );
    for (name, value) in added {
        let line = format!("      + opcode {name} = {value:#04x}\n");
        assert!(out.contains(&line), "{line:?} missing from {out}");
    }
    let same = ok(&sh(
        "diff headers/neuron_sunda_arch_isa headers/neuron_sunda_arch_isa",
    ));
    assert!(same.ends_with("    ISA changes: none\n"), "{same}");
}

#[test]
fn diff_without_libclang_says_so_in_one_line() {
    let o = command(&sh(
        "diff headers/neuron_sunda_arch_isa headers/neuron_cayman_arch_isa",
    ))
    .env("LIBCLANG_PATH", "/nonexistent-libclang-dir")
    .output()
    .unwrap();
    let err = fails(&o, 2, "no libclang");
    assert!(err.contains("libclang"), "{err}");
    assert!(err.contains("apt-get install -y libclang-dev"), "{err}");
}

#[test]
fn a_stream_reads_exactly_like_its_words_one_by_one() {
    // Distinct words, some valid and some not on DVE, in an order that repeats and alternates
    // them (the stream paths reuse renderings of repeated fields and rejections).
    let encode = |extra: &str| {
        let line = format!(
            "encode --gen mariana rand-set-state --engine dve --generator rng-xorwow --algorithm xorwow --update src-tensor {extra}"
        );
        ok(&sh(&line)).trim().to_string()
    };
    let words = [
        encode("--src 0"),
        encode("--src 0 --words 6"),
        encode("--src 0x40 --words 7 --channels 3"),
        encode("--src 0x80 --words 6"),
        encode("--src 0x80 --channels 2"),
    ];
    let order = [0, 1, 1, 2, 0, 3, 1, 4, 2, 2, 3, 0, 1];
    let bytes: Vec<u8> = order
        .iter()
        .flat_map(|&k| {
            let hex = &words[k];
            (0..64).map(move |b| u8::from_str_radix(&hex[2 * b..2 * b + 2], 16).unwrap())
        })
        .collect();
    let validate = |input: &[u8], args: &[&str]| {
        let o = run_with_stdin(&[args, &["--file", "-"]].concat(), input);
        stdout(&o)
    };
    let val_args = sh("validate --gen mariana --engine dve");
    let stream = validate(&bytes, &val_args);
    let mut expected = String::new();
    let mut invalid = 0;
    for (index, &k) in order.iter().enumerate() {
        let alone = validate(&bytes[64 * index..64 * index + 64], &val_args);
        if let Some(line) = alone
            .lines()
            .next()
            .filter(|l| l.starts_with("word 0 @ 0x0: "))
        {
            let why = &line["word 0 @ 0x0: ".len()..];
            expected.push_str(&format!("word {index} @ {:#x}: {why}\n", 64 * index));
            invalid += 1;
        } else {
            assert!(k == 0 || k == 4, "word {k} is valid: {alone}");
        }
    }
    assert!(invalid >= 5, "{stream}");
    expected.push_str(&format!(
        "{} words: {} valid, {invalid} invalid (MARIANA, engine DVE)\n",
        order.len(),
        order.len() - invalid
    ));
    assert_eq!(stream, expected);

    for json in [false, true] {
        let mut args = sh("decode --gen mariana");
        if json {
            args.push("--json");
        }
        let stream = validate(&bytes, &args);
        let alone: Vec<String> = (0..order.len())
            .map(|i| validate(&bytes[64 * i..64 * i + 64], &args))
            .collect();
        if json {
            let stream: Value = serde_json::from_str(&stream).unwrap();
            for (i, one) in alone.iter().enumerate() {
                let mut one: Value = serde_json::from_str(one).unwrap();
                one[0]["index"] = i.into();
                one[0]["offset"] = (64 * i).into();
                assert_eq!(stream[i], one[0], "word {i}");
            }
        } else {
            let mut expected = String::new();
            for (i, one) in alone.iter().enumerate() {
                let rest = one.split_once(':').unwrap().1;
                expected.push_str(&format!("word {i} @ {:#x}:{rest}", 64 * i));
            }
            assert_eq!(stream, expected);
        }
    }
}

/// The README shows the whole `matrix` table; it must be exactly what the tool prints.
#[test]
fn readme_matrix_is_the_tools_output() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_neuron-isa"))
        .arg("matrix")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).expect("utf-8");
    let start = readme
        .find("GENERATION  INSTRUCTION")
        .expect("README has the matrix");
    let block = &readme[start..];
    let block = &block[..block.find("```").expect("closing fence")];
    assert_eq!(
        block.trim_end(),
        table.trim_end(),
        "README matrix is stale: paste `neuron-isa matrix`"
    );
}

// ------------------------------------------------------------------ run

/// Program words built by filling the generated operand structs (typed constructors for RAND2 and
/// PSEUDO_SET_RNG_SEED do not exist yet; swap these helpers for them when they do).
macro_rules! program_words {
    ($module:ident, $krate:ident) => {
        mod $module {
            use k::arm::{Dve, RngXorwow, Xorwow};
            use k::{Immediate, TensorAddress};
            use $krate as k;

            pub fn set_rng_seed(seed: u32) -> [u8; 64] {
                k::PseudoSetRngSeed::new(Immediate::Value(seed)).to_bytes()
            }

            /// RAND2, fp32 immediates, fp32 output, `n` contiguous elements at `dst` (a raw address).
            pub fn rand2(channels: u8, min: f32, max: f32, dst: u32, n: u16) -> [u8; 64] {
                let dst = k::Tensor3d::with_steps(TensorAddress::immediate(dst), [1; 3], [n, 1, 1]);
                k::Rand2::new(
                    dst,
                    channels,
                    k::Dtype::Fp32,
                    Immediate::fp32(min),
                    Immediate::fp32(max),
                )
                .to_bytes()
            }

            pub fn get(at: u32, channels: u8) -> [u8; 64] {
                k::RandGetState::save::<Dve, RngXorwow, Xorwow, 24>(
                    k::StateTensor::sbuf(0, at).expect("an SBUF address"),
                    channels,
                )
                .to_bytes()
            }

            pub fn set(at: u32, channels: u8) -> [u8; 64] {
                k::RandSetState::restore::<Dve, RngXorwow, Xorwow, 24>(
                    k::StateTensor::sbuf(0, at).expect("an SBUF address"),
                    channels,
                )
                .to_bytes()
            }
        }
    };
}

program_words!(mariana_words, isa_mariana);
program_words!(maverick_words, isa_maverick);

fn program_file(name: &str, words: &[[u8; 64]]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("neuron-isa-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, words.concat()).unwrap();
    path
}

fn dump_lines(out: &str) -> Vec<Vec<u32>> {
    out.lines()
        .map(|l| {
            l.split(' ')
                .map(|w| {
                    assert!(w.len() == 10 && w.starts_with("0x"), "`{w}` is not 0x%08x");
                    u32::from_str_radix(&w[2..], 16).unwrap()
                })
                .collect()
        })
        .collect()
}

type Words = (
    fn(u32) -> [u8; 64],
    fn(u8, f32, f32, u32, u16) -> [u8; 64],
    fn(u32, u8) -> [u8; 64],
    fn(u32, u8) -> [u8; 64],
);

#[test]
fn run_seed_rand2_get_rand2_set_rand2_repeats_b_in_c() {
    let seeded = kat("seed_mt19937_64.txt");
    let words: [(&str, Words); 2] = [
        (
            "mariana",
            (
                mariana_words::set_rng_seed,
                mariana_words::rand2,
                mariana_words::get,
                mariana_words::set,
            ),
        ),
        (
            "maverick",
            (
                maverick_words::set_rng_seed,
                maverick_words::rand2,
                maverick_words::get,
                maverick_words::set,
            ),
        ),
    ];
    for (gen, (seed, rand2, get, set)) in words {
        let program = [
            seed(0x1234_5678),
            rand2(8, -1.0, 1.0, 0x000, 8),
            get(0x1000, 8),
            rand2(8, -1.0, 1.0, 0x400, 8),
            set(0x1000, 8),
            rand2(8, -1.0, 1.0, 0x800, 8),
        ];
        let file = program_file(&format!("{gen}.bin"), &program);
        let file = file.to_str().unwrap();
        // No --engine: DVE is the one engine that runs every word (the seed is DVE-only).
        let dump = |at: &str| dump_lines(&ok(&["run", "--gen", gen, "--file", file, "--dump", at]));
        let (a, b, c) = (dump("0:8:8"), dump("0x400:8:8"), dump("0x800:8:8"));
        assert_eq!(b.len(), 8);
        assert_eq!(b, c, "{gen}: B != C");
        assert_ne!(a, b, "{gen}: A == B");
        // A is the derived stream after the seed (lanes 0 and 5).
        for row in seeded
            .iter()
            .filter(|r| r[0] == "rand2" && r[1] == "12345678")
        {
            let lane: usize = row[5].parse().unwrap();
            let want: Vec<u32> = row[6..].iter().map(|s| hex_u32(s)).collect();
            assert_eq!(a[lane], want, "{gen} lane {lane}");
        }
        // The same through standard input and --json.
        let bytes = std::fs::read(file).unwrap();
        let o = run_with_stdin(
            &[
                "run",
                "--gen",
                gen,
                "--file",
                "-",
                "--dump",
                "0x800:8:8",
                "--json",
            ],
            &bytes,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(doc["format"], "neuron-isa-run");
        assert_eq!(doc["version"], 1);
        assert_eq!(doc["generation"], gen.to_ascii_uppercase());
        assert_eq!(doc["engine"], "DVE");
        assert_eq!(
            (doc["words"].clone(), doc["executed"].clone()),
            (6.into(), 6.into())
        );
        assert!(doc["error"].is_null());
        assert_eq!(doc["dump"]["space"], "SBUF");
        let partitions: Vec<Vec<u32>> = serde_json::from_value(doc["partitions"].clone()).unwrap();
        assert_eq!(partitions, c);
    }
}

#[test]
fn run_stops_at_a_refused_word_with_its_index_offset_and_reason() {
    use mariana_words::*;
    let program = [
        set_rng_seed(7),
        rand2(1, 0.0, 1.0, 0x0, 2),
        rand2(1, 0.0, 1.0, 0x40000 - 8, 4), // element 3 leaves partition 0
        rand2(1, 0.0, 1.0, 0x10, 2),
    ];
    let file = program_file("refused.bin", &program);
    let file = file.to_str().unwrap();
    let o = run(&["run", "--gen", "mariana", "--file", file, "--dump", "0:1:6"]);
    let err = fails(&o, 1, "refused word");
    assert_eq!(
        err,
        "neuron-isa: run: word 2 @ 0x80 (RAND2): dst_mem_pattern: element 3 at byte offset 262148 leaves its partition (0..262144)\n"
    );
    // The dump is the memory before the refused word: word 1's two elements, nothing of word 3.
    let dump = dump_lines(&stdout(&o));
    assert_eq!(dump.len(), 1);
    assert!(dump[0][0] != 0 && dump[0][1] != 0);
    assert_eq!(dump[0][2..], [0, 0, 0, 0]);
    // The refusal changed nothing: the same program without words 2 and 3 leaves the same memory.
    let prefix = program_file("prefix.bin", &program[..2]);
    let before = ok(&[
        "run",
        "--gen",
        "mariana",
        "--file",
        prefix.to_str().unwrap(),
        "--dump",
        "0:1:6",
    ]);
    assert_eq!(dump_lines(&before), dump);
    let o = run(&[
        "run", "--gen", "mariana", "--file", file, "--dump", "0:1:6", "--json",
    ]);
    fails(&o, 1, "refused word, json");
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["executed"], 2);
    assert_eq!(doc["error"]["word"], 2);
    assert_eq!(doc["error"]["offset"], 128);
    assert_eq!(doc["error"]["opcode"], 0xe2);
    assert_eq!(doc["error"]["instruction"], "RAND2");
    assert_eq!(
        doc["error"]["message"],
        "dst_mem_pattern: element 3 at byte offset 262148 leaves its partition (0..262144)"
    );
}

#[test]
fn run_chooses_the_only_engine_or_asks_for_one() {
    use mariana_words::*;
    // RAND2 is placed on DVE alone (instr_assert.h): run picks DVE without --engine ...
    let rand2_only = program_file("rand2.bin", &[rand2(2, 0.0, 1.0, 0, 4)]);
    let rand2_only = rand2_only.to_str().unwrap();
    let chosen = dump_lines(&ok(&[
        "run", "--gen", "mariana", "--file", rand2_only, "--dump", "0:2:4",
    ]));
    let dve = dump_lines(&ok(&[
        "run", "--gen", "mariana", "--file", rand2_only, "--engine", "dve", "--dump", "0:2:4",
    ]));
    assert_eq!(chosen, dve);
    assert_ne!(dve, vec![vec![0u32; 4]; 2], "RAND2 wrote its draws");
    // ... and refuses it on POOL, naming the placement rule, before anything is written.
    let o = run(&[
        "run", "--gen", "mariana", "--file", rand2_only, "--engine", "pool", "--dump", "0:2:4",
    ]);
    let err = fails(&o, 1, "RAND2 on POOL");
    assert!(
        err.starts_with("neuron-isa: run: word 0 @ 0x0 (RAND2): ")
            && err.contains("neuron_isa_check_opcode_on_engine")
            && err.contains("RAND2 runs on DVE"),
        "{err}"
    );
    // A POOL-only save after the DVE-only seed: no engine runs both.
    let pool_get = isa_mariana::RandGetState::save::<
        isa_mariana::arm::Pool,
        isa_mariana::arm::RngXorwow,
        isa_mariana::arm::Xorwow,
        6,
    >(
        isa_mariana::StateTensor::sbuf(0, 0x100).expect("an SBUF address"),
        1,
    )
    .to_bytes();
    let none = program_file("none.bin", &[set_rng_seed(1), pool_get]);
    let none = none.to_str().unwrap();
    let o = run(&["run", "--gen", "mariana", "--file", none, "--dump", "0:1:1"]);
    assert_eq!(
        fails(&o, 2, "no engine"),
        "neuron-isa: run: no engine runs every word of the program (POOL at word 0 (PSEUDO_SET_RNG_SEED), DVE at word 1 (RAND_GET_STATE), ACT at word 0 (PSEUDO_SET_RNG_SEED)); give --engine to run up to the word it refuses\n"
    );
    // With --engine the run goes up to the refused word and says why.
    let o = run(&[
        "run", "--gen", "mariana", "--file", none, "--engine", "dve", "--dump", "0:1:1",
    ]);
    let err = fails(&o, 1, "refused on DVE");
    assert!(
        err.starts_with("neuron-isa: run: word 1 @ 0x40 (RAND_GET_STATE): "),
        "{err}"
    );
    // An empty program needs no engine: the dump of zeroed memory.
    let empty = program_file("empty.bin", &[]);
    assert_eq!(
        ok(&[
            "run",
            "--gen",
            "sunda",
            "--file",
            empty.to_str().unwrap(),
            "--dump",
            "0x2000000:2:3"
        ]),
        "0x00000000 0x00000000 0x00000000\n0x00000000 0x00000000 0x00000000\n"
    );
}

#[test]
fn run_restores_an_engine_state_file_before_the_program() {
    // DVE XORWOW lanes 0 and 1 in the derived `dve` case's state; RAND2 over range 1 in fp32.
    let d = kat("rand2_xorwow.txt");
    let record = read::rand2_state_record(&d, "dve");
    let range = d.iter().find(|r| r[0] == "range" && r[1] == "1").unwrap();
    let (min, max) = read::rand2_range(range);
    let want: Vec<u32> = d
        .iter()
        .find(|r| {
            r[0] == "out"
                && r[1] == "dve"
                && r[2] == "1"
                && r[3] == "separate"
                && r[4] == "rne"
                && r[5] == "FP32"
        })
        .unwrap()[6..]
        .iter()
        .map(|s| hex_u32(s))
        .collect();
    let lane = format!(
        "[{}]",
        record
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let state = format!(
        "{{\"format\": \"neuron-rng-checkpoint\", \"version\": 1, \"generation\": \"MARIANA\", \"engine\": \"DVE\", \
         \"generator\": \"RNG_XORWOW\", \"algorithm\": \"XORWOW\", \"update\": null, \"channels\": 2, \
         \"words_per_lane\": 24, \"lanes\": [{lane}, {lane}]}}"
    );
    let dir = std::env::temp_dir().join(format!("neuron-isa-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state_file = dir.join("dve.json");
    std::fs::write(&state_file, state).unwrap();
    let program = program_file(
        "from-state.bin",
        &[mariana_words::rand2(2, min, max, 0x40, want.len() as u16)],
    );
    let args = [
        "run",
        "--gen",
        "mariana",
        "--file",
        program.to_str().unwrap(),
        "--engine",
        "dve",
        "--engine-state",
        state_file.to_str().unwrap(),
        "--dump",
    ];
    let dump = dump_lines(&ok(
        &[&args[..], &[&format!("0x40:2:{}", want.len())]].concat()
    ));
    assert_eq!(dump, [want.clone(), want.clone()]);
    // `default` is the power-on state: another stream.
    let mut default = args.to_vec();
    default[8] = "default";
    let other = dump_lines(&ok(
        &[&default[..], &[&format!("0x40:2:{}", want.len())]].concat()
    ));
    assert_ne!(other[0], want);
    // A bad state file is bad input.
    std::fs::write(&state_file, "{\"format\": \"x\"}").unwrap();
    let o = run(&[&args[..], &["0x40:1:1"]].concat());
    let err = fails(&o, 2, "bad state file");
    assert!(err.contains("run --engine-state"), "{err}");
}

#[test]
fn run_refuses_an_engine_state_larger_than_any_checkpoint_unparsed() {
    let bound = rng_core::file::max_json_bytes();
    let state = "{\"format\": \"neuron-rng-checkpoint\", \"version\": 1, \"generation\": \"MARIANA\", \
                 \"engine\": \"POOL\", \"generator\": \"RNG_XORWOW\", \"algorithm\": \"XORWOW\", \
                 \"update\": null, \"channels\": 1, \"words_per_lane\": 6, \"lanes\": [[1, 2, 3, 4, 5, 6]]}";
    let dir = std::env::temp_dir().join(format!("neuron-isa-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state_file = dir.join("padded.json");
    let program = program_file("state-bound.bin", &[]);
    let run_with = |state: &str| {
        let line = format!(
            "run --gen mariana --file {} --engine pool --engine-state {state} --dump 0:1:1",
            program.display()
        );
        run(&sh(&line))
    };
    // Valid JSON at the bound is read; one byte more (white space) is refused by its size.
    std::fs::write(
        &state_file,
        format!("{state}{}", " ".repeat(bound - state.len())),
    )
    .unwrap();
    let o = run_with(state_file.to_str().unwrap());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(
        &state_file,
        format!("{state}{}", " ".repeat(bound + 1 - state.len())),
    )
    .unwrap();
    let err = fails(&run_with(state_file.to_str().unwrap()), 2, "padded state");
    assert!(
        err.ends_with(&format!(
            ": {} bytes: larger than any legal checkpoint file ({bound} bytes at most)\n",
            bound + 1
        )),
        "{err}"
    );
    // A stream without end is read one byte past the bound, then refused.
    let err = fails(&run_with("/dev/zero"), 2, "endless state");
    assert!(err.contains(&format!("more than {bound} bytes")), "{err}");
    let err = fails(&run_with(dir.to_str().unwrap()), 2, "a directory");
    assert!(err.contains("is a directory"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_usage_errors_exit_2_with_one_line() {
    let empty = program_file("usage.bin", &[]);
    let file = empty.to_str().unwrap();
    for (dump, why) in [
        ("0x7:1:1", "run --dump 0x7:1:1: address 0x7 is not 4-byte aligned"),
        ("0:129:1", "run --dump 0x0:129:1: CHANNELS must be in 1..=128 (partitions from 0 on)"),
        ("0x3fff8:1:3", "run --dump 0x3fff8:1:3: WORDS must be in 1..=2 (the rest of the partition from offset 0x3fff8)"),
        ("0x80000000:1:1", "run --dump 0x80000000:1:1: start_addr 0x80000000: register or indirect address form (marker 0x80) is not modelled"),
    ] {
        let o = run(&["run", "--gen", "mariana", "--file", file, "--dump", dump]);
        assert_eq!(fails(&o, 2, dump), format!("neuron-isa: {why}\n"));
    }
    // MAVERICK has no PSUM: the address after its 128 SBUF partitions of 1 MiB is unmapped.
    let o = run(&[
        "run",
        "--gen",
        "maverick",
        "--file",
        file,
        "--dump",
        "0x8000000:1:1",
    ]);
    assert_eq!(
        fails(&o, 2, "maverick psum"),
        "neuron-isa: run --dump 0x8000000:1:1: address 0x8000000 is in neither SBUF nor PSUM\n"
    );
    fails(
        &run(&["run", "--gen", "mariana", "--file", file, "--dump", "1:2"]),
        2,
        "dump shape",
    );
    fails(
        &run(&[
            "run",
            "--gen",
            "mariana",
            "--file",
            "/nonexistent/p.bin",
            "--dump",
            "0:1:1",
        ]),
        2,
        "missing file",
    );
    let partial = program_file("partial.bin", &[]);
    std::fs::write(&partial, [0u8; 65]).unwrap();
    let o = run(&[
        "run",
        "--gen",
        "mariana",
        "--file",
        partial.to_str().unwrap(),
        "--dump",
        "0:1:1",
    ]);
    assert!(fails(&o, 2, "partial word").contains("partial word at byte offset 64"));
}

/// `decode --short` prints, per word, exactly the generated crate's `Display` of the decoded
/// instruction, at the offsets `Instruction::iter_words` gives the same bytes.
#[test]
fn decode_short_is_the_crates_display_line_by_line() {
    let hex_of = |line: &str| ok(&sh(line)).trim().to_string();
    let words = [
        hex_of("encode --gen mariana rand-set-state --engine dve --generator rng-xorwow --algorithm xorwow --update src-tensor --src 0x100"),
        hex_of("encode --gen mariana rand-get-state --engine pool --generator rng-philox --algorithm philox --dst 0x80 --channels 3"),
    ];
    let bytes_of = |hex: &str| -> Vec<u8> {
        (0..64)
            .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).unwrap())
            .collect()
    };
    // Two valid words, one whose enum byte is out of range, the first again, the bad one again
    // (repeated words are printed from the tool's cache of recent texts, and still counted).
    let mut bad = bytes_of(&words[0]);
    bad[12] = 0xee; // rand_algorithm
    let stream: Vec<u8> = [
        bytes_of(&words[0]),
        bytes_of(&words[1]),
        bad.clone(),
        bytes_of(&words[0]),
        bad.clone(),
    ]
    .concat();

    let expected: String = isa_mariana::Instruction::iter_words(&stream)
        .enumerate()
        .map(|(k, (offset, inst))| {
            let text = match inst {
                Ok(inst) => inst.to_string(),
                Err(e) => format!("error: does not decode: {e}"),
            };
            format!("word {k} @ {offset:#x}: {text}\n")
        })
        .collect();
    assert!(
        expected.contains("word 0 @ 0x0: RAND_SET_STATE "),
        "{expected}"
    );
    assert!(expected.contains("rand_generator=RNG_XORWOW"), "{expected}");
    assert!(
        expected.contains("word 1 @ 0x40: RAND_GET_STATE ")
            && expected.contains("num_active_channels=3"),
        "{expected}"
    );
    assert!(
        expected.contains("word 2 @ 0x80: error: does not decode: field `rand_algorithm`"),
        "{expected}"
    );

    let o = run_with_stdin(&sh("decode --gen mariana --short --file -"), &stream);
    let err = fails(&o, 1, "a word that does not decode");
    assert!(err.contains("2 of 5 words do not decode"), "{err}");
    assert_eq!(stdout(&o), expected);

    // From the command line, the valid words alone: exit 0, the same lines.
    let args = [
        "decode", "--gen", "mariana", "--short", &words[0], &words[1],
    ];
    let lines: Vec<&str> = expected.lines().take(2).collect();
    assert_eq!(ok(&args), format!("{}\n{}\n", lines[0], lines[1]));
    // --short and --json do not mix.
    fails(
        &run(&["decode", "--gen", "mariana", "--short", "--json", &words[0]]),
        2,
        "--short --json",
    );
}

// ------------------------------------------------------------------ encode: the draw family

fn hex_word(hex: &str) -> Vec<u8> {
    let hex = hex.trim_end();
    assert_eq!(hex.len(), 128, "{hex}");
    (0..64)
        .map(|k| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).unwrap())
        .collect()
}

/// Every draw instruction encodes through the generation's typed constructor: the word is the
/// one the constructor builds in Rust, it validates on an engine that runs the opcode, and
/// `encode --raw` writes the same 64 bytes.
#[test]
fn encode_builds_the_draw_family_through_the_typed_constructors() {
    use isa_mariana as m;
    use m::{Dtype, Immediate, TensorAddress};
    let t3 =
        |at: u32, n: u16| m::Tensor3d::contiguous(TensorAddress::immediate(at), [n, 1, 1]).unwrap();
    let t4 = |at: u32, n: u16| {
        m::Tensor4d::contiguous(TensorAddress::immediate(at), [n, 1, 1, 1]).unwrap()
    };
    let cases: Vec<(&str, [u8; 64], &str)> = vec![
        (
            "rand2 --dst 0x100 --channels 4 --elems 8 --min -1 --max 1",
            m::Rand2::new(t3(0x100, 8), 4, Dtype::Fp32, Immediate::fp32(-1.0), Immediate::fp32(1.0))
                .to_bytes(),
            "dve",
        ),
        (
            "rand2 --dst 0x100 --elems 2 --min 0 --max 100 --dtype int8",
            m::Rand2::new(t3(0x100, 2), 128, Dtype::Int8, Immediate::fp32(0.0), Immediate::fp32(100.0))
                .to_bytes(),
            "dve",
        ),
        (
            "rand --dst 0x100 --channels 2 --elems 4",
            m::Rand::raw_u32(t4(0x100, 4), 2, Dtype::Uint32).to_bytes(),
            "dve",
        ),
        (
            "rand --post-process uniform-in-range --dst 0x100 --channels 2 --elems 4 --min 0.5 --max 2",
            m::Rand::uniform_in_range(t4(0x100, 4), 2, Dtype::Fp32, 0.5, 2.0).to_bytes(),
            "dve",
        ),
        (
            "rng --dst 0x100 --channels 2 --elems 4 --dtype int16",
            m::Rng::new(t4(0x100, 4), 2, Dtype::Int16).to_bytes(),
            "pool",
        ),
        (
            "dropout --src 0x200 --dst 0x100 --channels 2 --elems 4 --prob 0.25",
            m::Dropout::new(
                t3(0x200, 4),
                t3(0x100, 4),
                2,
                Dtype::Fp32,
                Dtype::Fp32,
                Immediate::fp32(0.25),
                m::DropoutThresholdType::DropRate,
            )
            .to_bytes(),
            "dve",
        ),
        (
            "dropout --src 0x200 --dst 0x100 --elems 4 --prob 0.75 --keep-rate --dtype bfloat16",
            m::Dropout::new(
                t3(0x200, 4),
                t3(0x100, 4),
                128,
                Dtype::Bfloat16,
                Dtype::Fp32,
                Immediate::fp32(0.75),
                m::DropoutThresholdType::KeepRate,
            )
            .to_bytes(),
            "dve",
        ),
        (
            "set-rng-seed --src 0x40",
            m::PseudoSetRngSeed::new(Immediate::Pointer(0x40)).to_bytes(),
            "dve",
        ),
        (
            "set-rng-seed --seed 7",
            m::PseudoSetRngSeed::new(Immediate::Value(7)).to_bytes(),
            "dve",
        ),
        (
            "pe-manage-seed --mode load-seed --src 0x100",
            m::PeManageSeed::load_seed(
                m::Tensor2d::contiguous(TensorAddress::immediate(0x100), [16, 1]).unwrap(),
                Dtype::Bfloat16,
            )
            .to_bytes(),
            "pe",
        ),
        (
            "pe-manage-seed --mode save-seed --identity-dtype fp16",
            m::PeManageSeed::save_seed(Dtype::Fp16).to_bytes(),
            "pe",
        ),
    ];
    for (args, want, engine) in cases {
        let mut full = vec!["encode", "--gen", "mariana"];
        full.extend(args.split(' '));
        let hex = ok(&full);
        assert_eq!(hex_word(&hex), want, "{args}");
        if engine == "pe" {
            // The tool's engines are rng-core's (POOL, DVE, ACT): PE through the crate.
            let inst = m::Instruction::decode(&want).unwrap();
            inst.validate(m::NeuronEngine::Pe).unwrap();
        } else {
            ok(&[
                "validate",
                "--gen",
                "mariana",
                "--engine",
                engine,
                hex.trim_end(),
            ]);
        }
        full.insert(3, "--raw");
        let raw = run(&full);
        assert_eq!(raw.status.code(), Some(0), "{args}");
        assert_eq!(raw.stdout, want, "{args} --raw");
    }
    // MAVERICK has the same commands, through its own constructors.
    let hex = ok(&sh(
        "encode --gen maverick rand2 --dst 0 --elems 1 --min 0 --max 1",
    ));
    assert_eq!(hex_word(&hex)[0], 0xe2);
    let hex = ok(&sh(
        "encode --gen maverick pe-manage-seed --mode load-seed --src 0x100",
    ));
    let word: [u8; 64] = hex_word(&hex).try_into().unwrap();
    isa_maverick::Instruction::decode(&word)
        .unwrap()
        .validate(isa_maverick::NeuronEngine::Pe)
        .unwrap();
    // SUNDA's RAND and DROPOUT too.
    let hex = ok(&sh("encode --gen sunda rand --dst 0 --elems 1"));
    ok(&[
        "validate",
        "--gen",
        "sunda",
        "--engine",
        "dve",
        hex.trim_end(),
    ]);
}

/// What the constructors do not offer is a usage error (exit 2, one line) naming why; what
/// only the validator judges (equal bounds) encodes, and `validate` rejects it.
#[test]
fn encode_refuses_what_no_constructor_builds() {
    let cases = [
        (
            "encode --gen sunda rand2 --dst 0 --elems 1 --min 0 --max 1",
            "encode rand2: SUNDA has no RAND2 instruction",
        ),
        (
            "encode --gen cayman pe-manage-seed --mode load-seed --src 0",
            "encode pe-manage-seed: CAYMAN has no PE_MANAGE_SEED instruction",
        ),
        (
            "encode --gen mariana rand --post-process normal --dst 0 --elems 1",
            "MARIANA's RAND has no constructor `normal` (its constructors: raw_u32, uniform_in_range",
        ),
        (
            "encode --gen mariana pe-manage-seed --mode none",
            "MARIANA's PE_MANAGE_SEED has no constructor `none` (its constructors: load_seed, save_seed",
        ),
        (
            "encode --gen maverick pe-manage-seed --mode save-seed",
            "MAVERICK's PE_MANAGE_SEED has no constructor `save_seed` (its constructors: load_seed;",
        ),
        (
            "encode --gen mariana rand --dst 0 --elems 4 --min 0",
            "MARIANA's RAND::raw_u32 takes no `min` (given by --min)",
        ),
        (
            "encode --gen mariana rand --post-process uniform-in-range --dst 0 --elems 4 --min 0",
            "MARIANA's RAND::uniform_in_range needs `max`, which this command was not given",
        ),
        (
            "encode --gen mariana pe-manage-seed --mode save-seed --src 0x100",
            "MARIANA's PE_MANAGE_SEED::save_seed takes no `src_seed` (given by --src/--elems)",
        ),
        (
            "encode --gen mariana pe-manage-seed --mode load-seed",
            "MARIANA's PE_MANAGE_SEED::load_seed needs `src_seed`",
        ),
        (
            "encode --gen mariana rand2 --dst 0 --elems 4 --min 0 --max 1 --dtype fp33",
            "`fp33` is not a member MARIANA has for `dtype`",
        ),
        (
            "encode --gen mariana rng --dst 0 --elems 0",
            "encode rng: --dst/--elems: dimension 0 has no elements",
        ),
    ];
    for (args, message) in cases {
        let o = run(&sh(args));
        let err = fails(&o, 2, args);
        assert!(err.contains(message), "{args}: {err}");
        assert!(o.stdout.is_empty(), "{args}");
    }
    for args in [
        "encode --gen mariana set-rng-seed",
        "encode --gen mariana set-rng-seed --src 0 --seed 1",
        "encode --gen mariana rand2 --dst 0 --elems 4 --min 0",
        "encode --gen mariana dropout --src 0 --dst 0 --elems 4 --prob nan",
    ] {
        fails(&run(&sh(args)), 2, args);
    }
    // Bounds out of order (equal, reversed) are the validator's business: the word encodes,
    // validate exits 1 naming the predicate; in order they validate.
    for (bounds, valid) in [
        ("--min 1 --max 1", false),
        ("--min 1 --max=-1", false),
        ("--min=-1 --max 1", true),
    ] {
        let hex = ok(&sh(&format!(
            "encode --gen mariana rand2 --dst 0 --elems 4 {bounds}"
        )));
        let o = run(&[
            "validate",
            "--gen",
            "mariana",
            "--engine",
            "dve",
            hex.trim_end(),
        ]);
        if valid {
            assert_eq!(o.status.code(), Some(0), "{bounds}: {}", stderr(&o));
        } else {
            fails(&o, 1, bounds);
            assert!(
                stdout(&o).contains("has_valid_rand2_min_max"),
                "{}",
                stdout(&o)
            );
        }
    }
}

/// The README's program, line by line as it is written there: `encode --raw` appends each word,
/// `run` dumps B and C, and they are equal word for word (and differ from A).
#[test]
fn readme_program_runs_end_to_end_with_b_equal_to_c() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("```sh\nE=\"neuron-isa encode --gen mariana --raw\"")
        .expect("README has the program");
    let block = &readme[start + 6..];
    let block = &block[..block.find("```").unwrap()];
    let dir = std::env::temp_dir().join(format!("neuron-isa-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("program.bin");
    let program_text = program.to_str().unwrap().to_string();
    let mut encode_prefix: Vec<String> = Vec::new();
    let mut dumps: std::collections::BTreeMap<String, String> = Default::default();
    let mut words = 0;
    let mut compared = false;
    for line in block.lines() {
        let line = line.split(" #").next().unwrap().trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("E=\"") {
            let cmd = rest.trim_end_matches('"');
            encode_prefix = cmd.split(' ').skip(1).map(String::from).collect();
            assert_eq!(encode_prefix[..2], ["encode".to_string(), "--gen".into()]);
        } else if line == "rm -f program.bin" {
            let _ = std::fs::remove_file(&program);
        } else if let Some(rest) = line.strip_prefix("$E ") {
            let args = rest
                .strip_suffix(" >> program.bin")
                .expect(">> program.bin");
            let mut full: Vec<String> = encode_prefix.clone();
            full.extend(args.split(' ').map(String::from));
            let full: Vec<&str> = full.iter().map(String::as_str).collect();
            let o = run(&full);
            assert_eq!(o.status.code(), Some(0), "{line}: {}", stderr(&o));
            assert_eq!(o.stdout.len(), 64, "{line}");
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&program)
                .unwrap();
            f.write_all(&o.stdout).unwrap();
            words += 1;
        } else if let Some(rest) = line.strip_prefix("neuron-isa ") {
            let (args, out) = rest.split_once(" > ").expect("> file");
            let args = args.replace("program.bin", &program_text);
            dumps.insert(out.to_string(), ok(&sh(&args)));
        } else if line == "cmp b.txt c.txt && echo \"B == C\"" {
            assert_eq!(dumps["b.txt"], dumps["c.txt"], "B != C");
            compared = true;
        } else {
            panic!("README program line the test does not know: `{line}`");
        }
    }
    assert_eq!(words, 6);
    assert!(compared);
    let b = dump_lines(&dumps["b.txt"]);
    assert_eq!((b.len(), b[0].len()), (4, 8));
    // A (at 0x000) is another stream: the checkpoint replays B, not A.
    let a = dump_lines(&ok(&[
        "run",
        "--gen",
        "mariana",
        "--file",
        &program_text,
        "--dump",
        "0:4:8",
    ]));
    assert_ne!(a, b);
    // The program is the typed constructors' words (the same as building them in Rust).
    let bytes = std::fs::read(&program).unwrap();
    assert_eq!(
        bytes[64..128],
        isa_mariana::Rand2::new(
            isa_mariana::Tensor3d::contiguous(isa_mariana::TensorAddress::immediate(0), [8, 1, 1])
                .unwrap(),
            4,
            isa_mariana::Dtype::Fp32,
            isa_mariana::Immediate::fp32(-1.0),
            isa_mariana::Immediate::fp32(1.0),
        )
        .to_bytes()
    );
}

// ---- generator side: `diff` over malformed trees -------------------------------------------------

/// `diff` reuses the generator: a tree that crashed it (an opcode listed twice: a panic; a long
/// `&&` chain: a stack overflow) or made clang print its own diagnostics is now one line on
/// stderr and exit 2.
#[test]
fn diff_of_malformed_trees_is_one_line_each() {
    let scratch =
        std::env::temp_dir().join(format!("neuron-isa-gen-harden-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let tiny = root().join("isa-codegen/tests/fixtures/neuron_tiny_arch_isa");
    let fill = "tpb/aws_neuron_isa_tpb_s1_fill.h";
    let breaks: [(&str, &str, &str, String, &str); 3] = [
        (
            "twice",
            "tpb/instruction_mapping.json",
            "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\"",
            "\"NEURON_ISA_TPB_OPCODE_FILL_OLD\", \"NEURON_ISA_TPB_OPCODE_FILL\"".into(),
            "is listed twice",
        ),
        (
            "deep",
            fill,
            "//    && (i.s1_fill.count >= 1)\n",
            format!(
                "//    && {}\n",
                vec!["(i.s1_fill.count >= 1)"; 5000].join(" && ")
            ),
            "the limit is 1000",
        ),
        (
            "clang",
            fill,
            "lanes;",
            "lanes @; int x = ; int y = ;".into(),
            " more)",
        ),
    ];
    let mut trees = Vec::new();
    for (tag, file, old, new, _) in &breaks {
        let tree = scratch.join(tag).join("neuron_tiny_arch_isa");
        let mut pending = vec![(tiny.clone(), tree.clone())];
        while let Some((from, to)) = pending.pop() {
            std::fs::create_dir_all(&to).unwrap();
            for e in std::fs::read_dir(&from).unwrap() {
                let e = e.unwrap();
                if e.file_type().unwrap().is_dir() {
                    pending.push((e.path(), to.join(e.file_name())));
                } else {
                    std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
                }
            }
        }
        let path = tree.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(old).count(), 1, "{tag}");
        std::fs::write(&path, text.replacen(old, new, 1)).unwrap();
        trees.push(tree.display().to_string());
    }
    for (k, (tag, file, _, _, words)) in breaks.iter().enumerate() {
        let good = root().join("headers/neuron_sunda_arch_isa");
        let o = run(&["diff", &trees[k], &good.display().to_string()]);
        let err = fails(&o, 2, tag);
        assert!(
            err.contains(&format!("neuron_tiny_arch_isa/{file}:")),
            "{tag}: {err}"
        );
        assert!(err.contains(words), "{tag}: {err}");
    }
    // Two broken trees: the first one's error.
    let o = run(&["diff", &trees[0], &trees[1]]);
    assert!(fails(&o, 2, "two broken trees").contains("is listed twice"));
    let _ = std::fs::remove_dir_all(&scratch);
}

// ---- program texts: `asm`, `disasm`, and `run` / `validate` of a `.s` file ------------------------

/// A scratch directory of this test process.
fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("neuron-isa-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Requires exit `code`, nothing on stdout, and exactly `lines` on stderr.
fn fails_with_lines(o: &Output, code: i32, lines: &[String]) {
    assert_eq!(o.status.code(), Some(code), "stderr {}", stderr(o));
    assert_eq!(stderr(o).lines().collect::<Vec<_>>(), lines);
    assert!(o.stdout.is_empty(), "{}", stdout(o));
}

/// The README program's RAND2 (A) and RAND_GET_STATE words, in hex.
fn draw_and_save_hex() -> (String, String) {
    let draw = ok(&sh(
        "encode --gen mariana rand2 --dst 0 --channels 4 --elems 8 --min=-1 --max 1",
    ));
    let save = ok(&sh(
        "encode --gen mariana rand-get-state --engine dve --generator rng-xorwow --algorithm xorwow --dst 0x1000 --channels 4",
    ));
    (draw.trim().to_string(), save.trim().to_string())
}

#[test]
fn asm_writes_raw_words_byte_for_byte_raw_hex_and_to_a_file() {
    let (draw, save) = draw_and_save_hex();
    let junk = format!("ff{}", "00".repeat(63));
    let text = format!(
        "# raw words\n\n.word 0x{draw} @dve\n  .word 0x{}   # upper case digits\n.engine POOL\n.word 0x{junk}\n",
        save.to_ascii_uppercase()
    );
    let dir = scratch_dir("asm-raw");
    let file = dir.join("p.s");
    std::fs::write(&file, &text).unwrap();
    let f = file.to_str().unwrap();
    let raw = run(&["asm", "--gen", "mariana", f]);
    assert_eq!(raw.status.code(), Some(0), "{}", stderr(&raw));
    let expected: Vec<u8> = [&draw, &save, &junk]
        .iter()
        .flat_map(|h| parse_hex(h))
        .collect();
    assert_eq!(raw.stdout, expected);
    assert_eq!(
        ok(&["asm", "--gen", "mariana", "--hex", f]),
        format!("{draw}\n{save}\n{junk}\n")
    );
    // Standard input, and -o.
    let piped = run_with_stdin(&["asm", "--gen", "mariana", "-"], text.as_bytes());
    assert_eq!(piped.stdout, expected);
    let bin = dir.join("p.bin");
    assert_eq!(
        ok(&["asm", "--gen", "mariana", f, "-o", bin.to_str().unwrap()]),
        ""
    );
    assert_eq!(std::fs::read(&bin).unwrap(), expected);
    // disasm lists the decodable words by their instruction and the others as .word, with offsets.
    let listing = ok(&["disasm", "--gen", "mariana", bin.to_str().unwrap()]);
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(lines.len(), 4, "{listing}");
    assert_eq!(lines[0], "# MARIANA (neuron-isa disasm)");
    assert!(
        lines[1].starts_with("RAND2 header={inst_word_len=16} "),
        "{}",
        lines[1]
    );
    assert!(lines[1].ends_with("} @dve  # 0x0"), "{}", lines[1]);
    assert!(lines[2].starts_with("RAND_GET_STATE "), "{}", lines[2]);
    assert!(
        lines[2].ends_with("}  # 0x40"),
        "RAND_GET_STATE runs on several engines: {}",
        lines[2]
    );
    assert_eq!(
        lines[3],
        format!(".word 0x{junk}  # 0x80: does not decode: field `header.opcode` at byte 0: opcode 0xff has no operand struct in instruction_mapping.json")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bytes of a hex string.
fn parse_hex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&hex[k..k + 2], 16).unwrap())
        .collect()
}

#[test]
fn every_error_of_a_program_text_is_a_file_line_column_line_and_exit_2() {
    let (draw, _) = draw_and_save_hex();
    let dir = scratch_dir("asm-errors");
    let file = dir.join("bad.s");
    let text = format!(".word 0x{draw}\n.word 0x12\n.engine gpu\n\n.word 0x{draw} @\n.wrd 1\n");
    std::fs::write(&file, &text).unwrap();
    let f = file.to_str().unwrap();
    let engines = "pe, act, pool, dve, tpb_sp, top_sp";
    let expected = [
        format!("{f}:2:7: .word takes 0x and 128 hex digits (the 64 bytes in order); this has 2"),
        format!("{f}:3:9: unknown engine `gpu`; the engines are {engines}"),
        format!("{f}:5:138: an empty engine name; the engines are {engines}"),
        format!("{f}:6:1: unknown directive `.wrd`; the directives are .word and .engine"),
    ];
    let out = dir.join("never.bin");
    let o = run(&["asm", "--gen", "mariana", f, "-o", out.to_str().unwrap()]);
    fails_with_lines(&o, 2, &expected);
    assert!(!out.exists(), "asm wrote output for a text with errors");
    // The same errors from run and validate, which read a `.s` file as text.
    let o = run(&["run", "--gen", "mariana", "--file", f, "--dump", "0:1:1"]);
    fails_with_lines(&o, 2, &expected);
    let o = run(&["validate", "--gen", "mariana", "--file", f]);
    fails_with_lines(&o, 2, &expected);
    // Standard input is named as such; a file that is not UTF-8 is one error at its first bad byte.
    let o = run_with_stdin(&["asm", "--gen", "mariana", "-"], b".word 0x12\n");
    fails_with_lines(
        &o,
        2,
        &["standard input:1:7: .word takes 0x and 128 hex digits (the 64 bytes in order); this has 2".to_string()],
    );
    let o = run_with_stdin(&["asm", "--gen", "mariana", "-"], b"# ok\n# \xc3\xa9\xff\n");
    fails_with_lines(&o, 2, &["standard input:2:4: not UTF-8 text".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn asm_validate_names_the_line_of_each_invalid_word() {
    let (draw, save) = draw_and_save_hex();
    let dir = scratch_dir("asm-validate");
    let file = dir.join("v.s");
    let f = file.to_str().unwrap().to_string();
    let asm = |text: &str| {
        std::fs::write(&file, text).unwrap();
        run(&["asm", "--gen", "mariana", "--validate", "--hex", &f])
    };
    // Valid: RAND2 is placed on DVE alone; the save is annotated.
    let o = asm(&format!(".word 0x{draw}\n.word 0x{save} @dve\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{draw}\n{save}\n"));
    // The DVE save on POOL is invalid (exit 1), and so is a word that does not decode.
    let junk = format!("ff{}", "00".repeat(63));
    let o = asm(&format!(
        "# two bad words\n.word 0x{save} @pool\n.word 0x{draw}\n.word 0x{junk}\n"
    ));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!("{f}:2: on POOL: inst failed assertion check: ")),
        "{err}"
    );
    assert_eq!(
        lines[1],
        format!("{f}:4: does not decode: field `header.opcode` at byte 0: opcode 0xff has no operand struct in instruction_mapping.json")
    );
    assert!(o.stdout.is_empty());
    // A word of an opcode on several engines, without an annotation: exit 2.
    let o = asm(&format!(".word 0x{save}\n"));
    fails_with_lines(
        &o,
        2,
        &[format!("{f}:1: RAND_GET_STATE runs on more than one engine; annotate the line (@pe, @act, @pool, @dve, @tpb_sp, @top_sp) or set .engine to validate it")],
    );
    // Without --validate the same text assembles.
    let o = run(&["asm", "--gen", "mariana", &f]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn validate_and_run_take_a_program_text_by_extension_or_flag() {
    let (draw, save) = draw_and_save_hex();
    let dir = scratch_dir("text-input");
    let text = format!(".engine dve\n.word 0x{draw}\n.word 0x{save}\n");
    let s = dir.join("p.s");
    let other = dir.join("p.txt");
    std::fs::write(&s, &text).unwrap();
    std::fs::write(&other, &text).unwrap();
    let (s, other) = (s.to_str().unwrap(), other.to_str().unwrap());
    let summary = "2 words: 2 valid, 0 invalid (MARIANA, engine as annotated)\n";
    assert_eq!(ok(&["validate", "--gen", "mariana", "--file", s]), summary);
    assert_eq!(
        ok(&["validate", "--gen", "mariana", "--text", "--file", other]),
        summary
    );
    // Without --text another name is a raw stream (and this text is no whole number of words).
    fails(
        &run(&[
            "validate", "--gen", "mariana", "--engine", "dve", "--file", other,
        ]),
        2,
        "raw",
    );
    // The annotation wins over --engine; a word validated elsewhere names its line.
    let wrong = dir.join("w.s");
    std::fs::write(&wrong, format!(".word 0x{draw}\n.word 0x{save} @pool\n")).unwrap();
    let w = wrong.to_str().unwrap();
    let o = run(&[
        "validate", "--gen", "mariana", "--engine", "dve", "--file", w,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!(
            "{w}:2: word 1 @ 0x40: inst failed assertion check: "
        )),
        "{out}"
    );
    assert!(
        out.ends_with("2 words: 1 valid, 1 invalid (MARIANA, engine DVE)\n"),
        "{out}"
    );
    // Words need --engine when there is no text to name engines.
    fails(
        &run(&["validate", "--gen", "mariana", &draw]),
        2,
        "no engine",
    );
    // run: the text's words on their engines; the draw lands at 0.
    let dump = ok(&["run", "--gen", "mariana", "--file", s, "--dump", "0:1:8"]);
    assert_eq!(dump.split_whitespace().count(), 8);
    assert_ne!(dump.trim(), ["0x00000000"; 8].join(" "));
    // A refused word names its line.
    let pe = dir.join("pe.s");
    std::fs::write(&pe, format!(".word 0x{draw} @pe\n")).unwrap();
    let o = run(&[
        "run",
        "--gen",
        "mariana",
        "--file",
        pe.to_str().unwrap(),
        "--dump",
        "0:1:1",
    ]);
    fails_with_lines(
        &o,
        2,
        &[format!(
            "{}:1: engine PE: the machine runs POOL, DVE and ACT",
            pe.display()
        )],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn disasm_of_a_partial_word_lists_the_whole_ones_and_fails() {
    let (draw, _) = draw_and_save_hex();
    let mut bytes = parse_hex(&draw);
    bytes.extend_from_slice(&[1, 2, 3]);
    let o = run_with_stdin(&["disasm", "--gen", "mariana", "-"], &bytes);
    let err = fails(&o, 2, "partial");
    assert_eq!(
        err,
        "neuron-isa: standard input: partial word at byte offset 64 (3 of 64 bytes; the file holds 1 whole words)\n"
    );
    assert_eq!(stdout(&o).lines().count(), 2);
}

/// The README shows `examples/checkpoint.s` as it is, which assembles to the words of the
/// README's `encode` lines, and `run` executes it with B == C.
#[test]
fn readme_text_program_is_the_committed_file_and_runs_with_b_equal_to_c() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let file = std::fs::read_to_string(root().join("examples/checkpoint.s")).unwrap();
    let start = readme
        .find("```text\n# The README's end-to-end program as text")
        .expect("README shows the text program");
    let shown = &readme[start + "```text\n".len()..];
    assert_eq!(
        &shown[..shown.find("```").unwrap()],
        file,
        "README's copy of examples/checkpoint.s"
    );
    // The words of the README's encode lines.
    let block = &readme[readme
        .find("```sh\nE=\"neuron-isa encode --gen mariana --raw\"")
        .unwrap()..];
    let mut encoded = Vec::new();
    for line in block.lines().take_while(|l| !l.starts_with("cmp ")) {
        if let Some(args) = line.strip_prefix("$E ") {
            let args = args.split(" >>").next().unwrap();
            let mut full = vec!["encode", "--gen", "mariana", "--raw"];
            full.extend(args.split(' '));
            let o = run(&full);
            assert_eq!(o.status.code(), Some(0), "{line}");
            encoded.extend_from_slice(&o.stdout);
        }
    }
    assert_eq!(encoded.len(), 6 * 64);
    let o = run(&[
        "asm",
        "--gen",
        "mariana",
        "--validate",
        "examples/checkpoint.s",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        o.stdout, encoded,
        "examples/checkpoint.s assembles to the README's words"
    );
    let dump = |region: &str| {
        ok(&[
            "run",
            "--gen",
            "mariana",
            "--file",
            "examples/checkpoint.s",
            "--dump",
            region,
        ])
    };
    let (a, b, c) = (dump("0:4:8"), dump("0x400:4:8"), dump("0x800:4:8"));
    assert_eq!(dump_lines(&b).len(), 4);
    assert_eq!(b, c, "B != C");
    assert_ne!(a, b);
    // The README's run lines are these.
    for region in ["0x400:4:8 > b.txt", "0x800:4:8 > c.txt"] {
        let line =
            format!("neuron-isa run --gen mariana --file examples/checkpoint.s --dump {region}");
        assert!(readme.contains(&line), "README lacks `{line}`");
    }
}
