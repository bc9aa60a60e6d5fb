//! The assembly row: reading 1 M one-line disassemblies back into their words
//! (`Instruction::from_str`) against writing the same 1 M words as those lines (`Display`).
//!
//! The words are of every mapped opcode of isa-mariana, every field given a value (enum fields a
//! member, the rest random bytes from a fixed seed), so every line is as long as its opcode's
//! lines get. Before timing, each side is checked: every line assembles back to its word, and
//! the disassembly writes the same lines again.

use criterion::{criterion_group, criterion_main, Criterion};
use isa_core::{FieldKind, Isa};
use isa_mariana::{Instruction, Mariana};
use rand_pcg::rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt::Write as _;
use std::hint::black_box;
use std::str::FromStr;

/// Words (and lines) per run.
const WORDS: usize = 1 << 20;

/// Decodable words of every mapped opcode with every field set, from a fixed seed.
fn words() -> Vec<Instruction> {
    let mut rng = Pcg64Mcg::seed_from_u64(0x0a53_0025);
    let shapes: Vec<_> = <Mariana as Isa>::opcodes()
        .iter()
        .filter_map(|&op| Some((op, Mariana::fields_of(op)?)))
        .collect();
    let mut out = Vec::with_capacity(WORDS);
    while out.len() < WORDS {
        let (op, fields) = shapes[out.len() % shapes.len()];
        let mut word = [0u8; 64];
        for f in fields.iter().filter(|f| f.offset != 0) {
            let value = match f.kind {
                FieldKind::Enum {
                    member_at,
                    value_of,
                    ..
                } => {
                    let n = (0..).map_while(member_at).count() as u64;
                    member_at((rng.next_u64() % n) as usize).and_then(value_of)
                }
                _ => None,
            };
            let bytes = &mut word[f.offset..f.offset + f.size];
            match value {
                Some(v) => isa_core::le::put_uint(bytes, v),
                None => rng.fill_bytes(bytes),
            }
        }
        word[0] = isa_core::OpcodeInfo::byte(op);
        if let Ok(inst) = Instruction::decode(&word) {
            out.push(inst);
        }
    }
    out
}

/// Writes every instruction's line into `text`, one per line; the total length.
fn disassemble(insts: &[Instruction], text: &mut String) -> usize {
    text.clear();
    for inst in insts {
        writeln!(text, "{inst}").expect("writing to a String");
    }
    text.len()
}

/// Assembles every line of `text` into `out`.
fn assemble(text: &str, out: &mut Vec<Instruction>) -> usize {
    out.clear();
    for line in text.lines() {
        out.push(Instruction::from_str(line).expect("every line assembles"));
    }
    out.len()
}

fn asm(c: &mut Criterion) {
    let insts = words();
    let mut text = String::new();
    disassemble(&insts, &mut text);
    let mut back = Vec::with_capacity(WORDS);
    assert_eq!(assemble(&text, &mut back), WORDS);
    for (k, (a, b)) in insts.iter().zip(&back).enumerate() {
        assert_eq!(
            a.to_bytes(),
            b.to_bytes(),
            "line {k} assembles to another word"
        );
    }
    let mut again = String::new();
    disassemble(&back, &mut again);
    assert!(
        again == text,
        "the assembled words disassemble to other lines"
    );
    println!("asm: {WORDS} lines, {} bytes of text", text.len());

    let mut group = c.benchmark_group("asm");
    group.sample_size(10);
    group.bench_function("project", |b| {
        b.iter(|| assemble(black_box(&text), &mut back))
    });
    group.bench_function("peer", |b| {
        b.iter(|| disassemble(black_box(&insts), &mut again))
    });
    group.finish();
}

criterion_group!(benches, asm);
criterion_main!(benches);
