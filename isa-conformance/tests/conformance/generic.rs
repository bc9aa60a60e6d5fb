//! The generic typed layer (`isa_core::generic`): one kernel, written once over the generation,
//! built from the typed constructors and run on rng-core's machine for every generation that
//! meets its bounds.

use isa_core::arm::{Dve, RngXorwow, Xorwow};
use isa_core::generic::{DropoutMask, Rand2Uniform, RestoreArm, SaveArm, SetRngSeed, Typed};
use isa_core::vocab::{Dtype, Engine, ThresholdType};
use isa_core::{Immediate, Instruction64};
use rng_core::{Gate, Generation, Machine, PartitionMemory, SparseMemory};
use std::error::Error;

const LANES: u8 = 128;
const ELEMS: u16 = 64;

/// Instruction words, each with the engine it runs on.
type Program = Vec<([u8; 64], Engine)>;

/// Seed DVE, draw A, save the DVE XORWOW state, draw B, DROPOUT, restore, draw C: the words and
/// the engine each runs on.
fn kernel<G>() -> Result<Program, Box<dyn Error>>
where
    G: Typed
        + SetRngSeed
        + Rand2Uniform
        + DropoutMask
        + SaveArm<(Dve, RngXorwow, Xorwow), 24>
        + RestoreArm<(Dve, RngXorwow, Xorwow), 24>,
{
    let fp32 = G::dtype(Dtype::Fp32)?;
    let draws = G::tensor3d(G::sbuf(0, 0x1000)?, [ELEMS, 1, 1])?;
    let masked = G::tensor3d(G::sbuf(0, 0x2000)?, [ELEMS, 1, 1])?;
    let state = G::state_tensor::<24>(G::sbuf(0, 0)?);
    let dve = G::engine(Engine::Dve);

    let seed = G::set_rng_seed(Immediate::Value(0x1234_5678));
    let draw = G::rand2(
        draws,
        LANES,
        fp32,
        Immediate::fp32(-1.0),
        Immediate::fp32(1.0),
    );
    let dropout = G::dropout(
        draws,
        masked,
        LANES,
        fp32,
        fp32,
        Immediate::fp32(0.1),
        ThresholdType::DropRate,
    );
    // The checkpoint words carry their engine: validate() needs none.
    let save = G::save::<Dve, RngXorwow, Xorwow, 24>(state, LANES);
    let restore = G::restore::<Dve, RngXorwow, Xorwow, 24>(state, LANES);
    save.validate()?;
    restore.validate()?;
    for word in [seed.into(), draw.into(), dropout.into()] {
        G::validate(&word, dve)?;
    }
    Ok(vec![
        (seed.to_bytes(), Engine::Dve),
        (draw.to_bytes(), Engine::Dve),
        (save.to_bytes(), save.engine()),
        (draw.to_bytes(), Engine::Dve),
        (dropout.to_bytes(), Engine::Dve),
        (restore.to_bytes(), restore.engine()),
        (draw.to_bytes(), Engine::Dve),
    ])
}

/// Runs the kernel on the machine; the draws after each RAND2, lane by lane.
fn run<G>() -> Vec<Vec<u32>>
where
    G: Generation
        + Typed
        + SetRngSeed
        + Rand2Uniform
        + DropoutMask
        + SaveArm<(Dve, RngXorwow, Xorwow), 24>
        + RestoreArm<(Dve, RngXorwow, Xorwow), 24>,
{
    let mut m = Machine::<G, SparseMemory>::new(SparseMemory::new(), Gate::Validator);
    let mut out = Vec::new();
    for (word, engine) in kernel::<G>().expect("the kernel builds") {
        m.run(&word, engine).expect("the machine runs it");
        if word[0] == 0xE2 {
            let tensor = (0..u32::from(LANES))
                .flat_map(|p| (0..u32::from(ELEMS)).map(move |k| (p, k)))
                .map(|(p, k)| {
                    let at = G::address_word(G::sbuf(p, 0x1000 + 4 * k).expect("in SBUF"));
                    m.memory().load(at)
                })
                .collect();
            out.push(tensor);
        }
    }
    out
}

#[test]
fn the_generic_kernel_replays_its_draws_after_the_restore() {
    for draws in [
        run::<isa_mariana::Mariana>(),
        run::<isa_maverick::Maverick>(),
    ] {
        let [a, b, c] = <[Vec<u32>; 3]>::try_from(draws).expect("three draws");
        assert_ne!(a, b, "the stream moves on");
        assert_eq!(b, c, "the restore replays the saved state");
        assert!(b
            .iter()
            .all(|bits| (-1.0..1.0).contains(&f32::from_bits(*bits))));
    }
}
