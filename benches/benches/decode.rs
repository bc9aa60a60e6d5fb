//! The decode row of issue 11: the library's decode + validate of 1 M instruction words (64 MB)
//! against `memcpy` of the same bytes.
//!
//! The stream cycles through legal instructions of every operand shape of isa-mariana, built by
//! its typed constructors. Before timing, each side is checked: the copy equals the stream, and
//! decode + validate accepts every word on its engine and re-encodes it to the same 64 bytes.

use criterion::{criterion_group, criterion_main, Criterion};
use isa_mariana::arm::{Philox, Pool, RngPhilox, RngXorwow, Xorwow};
use isa_mariana::{
    Dropout, DropoutThresholdType, Dtype, Immediate, Instruction, NeuronEngine, PeManageSeed,
    PseudoSetRngSeed, Rand, Rand2, RandGetState, RandSetState, Rng, StateTensor, Tensor2d,
    Tensor3d, Tensor4d, TensorAddress,
};
use std::hint::black_box;

/// Words in the stream.
const WORDS: usize = 1 << 20;

/// Legal instructions and the engine each runs on.
fn legal() -> Vec<(Instruction, NeuronEngine)> {
    let at = |offset| TensorAddress::sbuf(0, offset).expect("an SBUF address");
    let t4 = Tensor4d::contiguous(at(0x100), [4, 1, 1, 1]).expect("a 4-d tensor");
    let t3 = |offset| Tensor3d::contiguous(at(offset), [4, 1, 1]).expect("a 3-d tensor");
    vec![
        (
            RandSetState::restore::<Pool, RngXorwow, Xorwow, 6>(
                StateTensor::sbuf(0, 0x100).expect("an SBUF address"),
                128,
            )
            .into(),
            NeuronEngine::Pool,
        ),
        (
            RandGetState::save::<Pool, RngPhilox, Philox, 7>(
                StateTensor::sbuf(0, 0x100).expect("an SBUF address"),
                128,
            )
            .into(),
            NeuronEngine::Pool,
        ),
        (
            Rand::raw_u32(t4, 128, Dtype::Uint32).into(),
            NeuronEngine::Pool,
        ),
        (Rng::new(t4, 128, Dtype::Uint32).into(), NeuronEngine::Pool),
        (
            Rand2::new(
                t3(0x100),
                128,
                Dtype::Fp32,
                Immediate::fp32(0.5),
                Immediate::fp32(1.0),
            )
            .into(),
            NeuronEngine::Dve,
        ),
        (
            Dropout::new(
                t3(0x100),
                t3(0x200),
                128,
                Dtype::Fp32,
                Dtype::Fp32,
                Immediate::Value(0),
                DropoutThresholdType::DropRate,
            )
            .into(),
            NeuronEngine::Dve,
        ),
        (
            PseudoSetRngSeed::new(Immediate::Value(7)).into(),
            NeuronEngine::Dve,
        ),
        (
            PeManageSeed::load_seed(
                Tensor2d::contiguous(at(0x100), [4, 1]).expect("a 2-d tensor"),
                Dtype::Bfloat16,
            )
            .into(),
            NeuronEngine::Pe,
        ),
    ]
}

/// Decodes and validates every word; the count of instructions that passed.
fn decode_validate(stream: &[u8], engines: &[NeuronEngine]) -> usize {
    let mut ok = 0;
    for (word, &engine) in stream.chunks_exact(64).zip(engines.iter().cycle()) {
        let word: &[u8; 64] = word.try_into().expect("64-byte chunks");
        if let Ok(inst) = Instruction::decode(word) {
            ok += usize::from(inst.validate(engine).is_ok());
        }
    }
    ok
}

fn decode(c: &mut Criterion) {
    let legal = legal();
    let engines: Vec<NeuronEngine> = legal.iter().map(|(_, e)| *e).collect();
    let mut stream = vec![0u8; WORDS * 64];
    for (word, (inst, _)) in stream.chunks_exact_mut(64).zip(legal.iter().cycle()) {
        inst.encode_into(word).expect("a 64-byte word");
    }

    // The check: every word decodes to an instruction that is legal on its engine and encodes
    // back to the same bytes (so the decoder read every field), and the copy is the stream.
    for ((word, (inst, engine)), k) in stream.chunks_exact(64).zip(legal.iter().cycle()).zip(0..) {
        let decoded = Instruction::decode_slice(word)
            .unwrap_or_else(|e| panic!("word {k}: does not decode: {e}"));
        assert_eq!(decoded, *inst, "word {k}: decodes to another instruction");
        assert_eq!(
            &decoded.to_bytes()[..],
            word,
            "word {k}: does not re-encode"
        );
        decoded
            .validate(*engine)
            .unwrap_or_else(|v| panic!("word {k}: not legal on {engine:?}: {v}"));
    }
    assert_eq!(decode_validate(&stream, &engines), WORDS);
    let mut copy = vec![0u8; stream.len()];
    copy.copy_from_slice(&stream);
    assert!(copy == stream, "memcpy: the copy differs");

    let mut group = c.benchmark_group("decode_validate");
    group.sample_size(20);
    group.bench_function("project", |b| {
        b.iter(|| {
            let ok = decode_validate(black_box(&stream), &engines);
            assert_eq!(ok, WORDS, "every word decodes and validates");
        })
    });
    group.bench_function("peer", |b| {
        b.iter(|| copy.copy_from_slice(black_box(&stream)))
    });
    group.finish();
}

criterion_group!(benches, decode);
criterion_main!(benches);
