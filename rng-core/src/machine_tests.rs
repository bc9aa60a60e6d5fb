//! Machine tests: real 64-byte words through the fixture codecs, memory really read and written.

extern crate std;
use super::*;
use crate::bank::LaneRow;
use crate::fixture::{for_each_generation, Mariana, Maverick};
use std::vec;
use std::vec::Vec;

type M<G> = Machine<G, SparseMemory>;

fn draws<G: Generation>(m: &mut M<G>, arm: &CheckpointArm, channels: u8, n: usize) -> Vec<LaneRow> {
    crate::engine::tests::draws(m.engine_mut(arm.engine), arm, channels, n)
}

fn run<G: Generation>(
    m: &mut M<G>,
    inst: &CheckpointInstruction,
) -> Result<CheckpointInstruction, MachineError> {
    let word = G::encode_checkpoint(inst).unwrap();
    m.execute(&word, inst.engine)
}

fn memory_words<G: Generation>(m: &M<G>, start: u32, channels: u8, words: u8) -> Vec<u32> {
    let bytes = G::MEMORY.sbuf_partition_bytes;
    (0..u32::from(channels))
        .flat_map(|p| (0..u32::from(words)).map(move |i| start + p * bytes + 4 * i))
        .map(|a| m.memory().load(a))
        .collect()
}

/// Every SET arm of `G`: save, draw, restore, draw again — identical; returns the arms checked.
fn save_draw_restore_draw<G: Generation>() -> usize {
    let mut checked = 0;
    for set in G::SET_STATE_ARMS {
        let get = CheckpointArm {
            update: None,
            ..*set
        };
        let channels = 5;
        let start = 3 * G::MEMORY.sbuf_partition_bytes + 0x100;
        let mut m = M::<G>::new(SparseMemory::new(), Gate::Validator);
        m.engine_mut(set.engine).seed_lanes(99);
        draws(&mut m, &get, 128, 3);

        let save = save_instruction::<G>(&get, channels, start);
        assert_eq!(run(&mut m, &save), Ok(save));
        let in_memory = memory_words(&m, start, channels, get.words);
        let mut expected = vec![0u32; usize::from(channels) * usize::from(get.words)];
        m.engine(set.engine)
            .get_state(&StateAccess::for_arm::<G>(&get, channels), &mut expected)
            .unwrap();
        assert_eq!(
            in_memory,
            expected,
            "{} {set:?}: memory holds the state",
            G::INFO.name
        );

        let first = draws(&mut m, &get, channels, 7);
        let mut imm = [0u32; 8];
        if set.update == Some(StateUpdate::ImmSingle) {
            // Lane 0's saved record, as a program would inline it.
            imm[..usize::from(set.words)].copy_from_slice(&in_memory[..usize::from(set.words)]);
        }
        let restore = restore_instruction::<G>(set, channels, start, imm);
        run(&mut m, &restore).unwrap();
        let again = draws(&mut m, &get, channels, 7);
        match set.update {
            Some(StateUpdate::ImmSingle) => {
                for p in 0..usize::from(channels) {
                    let lane: Vec<u32> = again.iter().map(|r| r[p]).collect();
                    let lane0: Vec<u32> = first.iter().map(|r| r[0]).collect();
                    assert_eq!(lane, lane0, "{} {set:?} lane {p}", G::INFO.name);
                }
            }
            _ => assert_eq!(again, first, "{} {set:?}", G::INFO.name),
        }
        checked += 1;
    }
    checked
}

#[test]
fn save_draw_restore_draw_is_identical_for_every_arm_through_encoded_words() {
    for_each_generation!(G => {
        assert_eq!(save_draw_restore_draw::<G>(), G::SET_STATE_ARMS.len());
    });
}

#[test]
fn patterns_are_walked_innermost_first_with_signed_strides() {
    let get = *Mariana::GET_STATE_ARMS
        .iter()
        .find(|a| a.algorithm == Algorithm::Xorwow && a.engine == Engine::Pool)
        .unwrap();
    let mut m = M::<Mariana>::new(SparseMemory::new(), Gate::Validator);
    m.engine_mut(Engine::Pool).seed_lanes(1);
    // 6 elements as [3, 2]: element e = 3·i1 + i0 at element offset -i0 + 10·i1 from 40 bytes in.
    let mut save = save_instruction::<Mariana>(&get, 2, 40);
    save.location = StateLocation::Tensor(TensorPattern {
        start_addr: 40,
        step_elem: [-1, 10, 1, 1],
        num_elem: [3, 2, 1, 1],
        rank: 4,
    });
    run(&mut m, &save).unwrap();
    let bank = m
        .engine(Engine::Pool)
        .bank(Generator::RngXorwow, Algorithm::Xorwow)
        .unwrap();
    let offsets = [0i64, -1, -2, 10, 9, 8];
    for p in 0..2u32 {
        let record = bank.lane(p as usize).unwrap();
        for (e, off) in offsets.iter().enumerate() {
            let address = (40 + 4 * off) as u32 + p * Mariana::MEMORY.sbuf_partition_bytes;
            assert_eq!(
                m.memory().load(address),
                record.as_slice()[e],
                "lane {p} element {e}"
            );
        }
    }
    assert_eq!(m.memory().len(), 12);
}

#[test]
fn a_save_to_psum_lands_in_psum_partitions() {
    let get = Mariana::GET_STATE_ARMS[0];
    let mut m = M::<Mariana>::new(SparseMemory::new(), Gate::Validator);
    let start = Mariana::MEMORY.psum_offset + 2 * Mariana::MEMORY.psum_partition_bytes;
    run(&mut m, &save_instruction::<Mariana>(&get, 2, start)).unwrap();
    let second = start + Mariana::MEMORY.psum_partition_bytes;
    assert!(m.memory().words.contains_key(&second));
    assert_eq!(m.memory().len(), 2 * usize::from(get.words));
}

#[test]
fn address_rejections_are_typed_and_change_nothing() {
    let get = *Mariana::GET_STATE_ARMS
        .iter()
        .find(|a| a.algorithm == Algorithm::Xorwow && a.engine == Engine::Pool)
        .unwrap();
    let set = CheckpointArm {
        update: Some(StateUpdate::SrcTensor),
        ..get
    };
    let g = Mariana::MEMORY;
    let psum_end = g.psum_offset + g.partitions * g.psum_partition_bytes;
    let last_partition = 127 * g.sbuf_partition_bytes;
    let cases = [
        (
            0x8000_0005,
            1,
            MemoryError::RegisterForm {
                start_addr: 0x8000_0005,
            },
        ),
        (
            0x2000_0000,
            1,
            MemoryError::RegisterForm {
                start_addr: 0x2000_0000,
            },
        ),
        (psum_end, 1, MemoryError::Unmapped { address: psum_end }),
        (
            6,
            1,
            MemoryError::Misaligned {
                address: 6,
                alignment: 4,
            },
        ),
        (
            last_partition,
            2,
            MemoryError::Partition {
                partition: 1,
                memory_partition: 128,
                partitions: 128,
            },
        ),
        (
            g.sbuf_partition_bytes - 8,
            1,
            MemoryError::Element {
                element: 2,
                offset: i64::from(g.sbuf_partition_bytes),
                partition_bytes: g.sbuf_partition_bytes,
            },
        ),
    ];
    let mut m = M::<Mariana>::new(SparseMemory::new(), Gate::Validator);
    m.engine_mut(Engine::Pool).seed_lanes(5);
    m.memory_mut().store(0, 77);
    for (start, channels, expected) in cases {
        for inst in [
            save_instruction::<Mariana>(&get, channels, start),
            restore_instruction::<Mariana>(&set, channels, start, [0; 8]),
        ] {
            let before = m.clone();
            assert_eq!(
                run(&mut m, &inst),
                Err(MachineError::Memory(expected)),
                "{start:#x}"
            );
            assert_eq!(m.memory(), before.memory());
            assert_eq!(m.engine(Engine::Pool), before.engine(Engine::Pool));
        }
    }
}

#[test]
fn maverick_has_no_psum_and_larger_sbuf_partitions() {
    let g = Maverick::MEMORY;
    let place = TensorPlace::resolve(0x200_0000, &g).unwrap();
    assert_eq!((place.space, place.first_partition), (Space::Sbuf, 32));
    let end = g.partitions * g.sbuf_partition_bytes;
    assert_eq!(
        TensorPlace::resolve(end, &g),
        Err(MemoryError::Unmapped { address: end })
    );
}

#[test]
fn instruction_and_contract_rejections_surface_typed() {
    let mut m = M::<Mariana>::new(SparseMemory::new(), Gate::Firmware);
    let mut word = [0u8; 64];
    word[0] = 0x41;
    assert_eq!(
        m.execute(&word, Engine::Pool),
        Err(MachineError::Instruction(InstructionError::NotCheckpoint {
            opcode: 0x41
        }))
    );
    let philox = Mariana::SET_STATE_ARMS[1];
    let mut bad_enum =
        Mariana::encode_checkpoint(&restore_instruction::<Mariana>(&philox, 1, 0, [0; 8])).unwrap();
    bad_enum[12] = 9;
    assert!(matches!(
        m.execute(&bad_enum, Engine::Pool),
        Err(MachineError::Instruction(InstructionError::Decode(e))) if e.field == "rand_algorithm"
    ));
    let mut stray_imm =
        Mariana::encode_checkpoint(&restore_instruction::<Mariana>(&philox, 1, 0, [0; 8])).unwrap();
    stray_imm[40] = 1;
    assert!(matches!(
        m.execute(&stray_imm, Engine::Pool),
        Err(MachineError::Instruction(InstructionError::Invalid(_)))
    ));
    let good =
        Mariana::encode_checkpoint(&restore_instruction::<Mariana>(&philox, 1, 0, [0; 8])).unwrap();
    let before = m.clone();
    assert_eq!(
        m.execute(&good, Engine::Pool),
        Err(MachineError::Checkpoint(CheckpointError::NotWired {
            kind: CheckpointKind::Restore,
            engine: Engine::Pool,
            algorithm: Algorithm::Philox
        }))
    );
    assert_eq!(m.engine(Engine::Pool), before.engine(Engine::Pool));
    // The same word on DVE names the engine in the refusal.
    assert!(matches!(
        m.execute(&good, Engine::Dve),
        Err(MachineError::Checkpoint(CheckpointError::ArmNotLegal {
            engine: Engine::Dve,
            ..
        }))
    ));
}

#[test]
fn write_tensor_then_read_tensor_round_trips_and_is_what_a_save_lands_on() {
    fn check<G: Generation>() {
        let mut m = M::<G>::new(SparseMemory::new(), Gate::Validator);
        let start = 5 * G::MEMORY.sbuf_partition_bytes + 0x40;
        let data: Vec<u32> = (0..3 * 7)
            .map(|k| 0x9e37_79b9u32.wrapping_mul(k + 1))
            .collect();
        m.write_tensor(start, 3, &data).unwrap();
        assert_eq!(
            m.read_tensor(start, 3, 7).unwrap(),
            data,
            "{}",
            G::INFO.name
        );
        // Row p is partition 5 + p at the same offset.
        let row1 = start + G::MEMORY.sbuf_partition_bytes;
        assert_eq!(m.memory().load(row1 + 4 * 2), data[7 + 2]);
        assert_eq!(m.memory().len(), data.len());

        // A save lands where read_tensor reads it: the state, partition by partition.
        let get = G::GET_STATE_ARMS[0];
        run(&mut m, &save_instruction::<G>(&get, 4, start)).unwrap();
        let mut expected = vec![0u32; 4 * usize::from(get.words)];
        m.engine(get.engine)
            .get_state(&StateAccess::for_arm::<G>(&get, 4), &mut expected)
            .unwrap();
        assert_eq!(
            m.read_tensor(start, 4, u32::from(get.words)).unwrap(),
            expected
        );
    }
    for_each_generation!(G => { check::<G>() });
}

#[test]
fn read_and_write_tensor_refuse_a_region_outside_the_partitions_and_write_nothing() {
    let g = Mariana::MEMORY;
    let mut m = M::<Mariana>::new(SparseMemory::new(), Gate::Validator);
    let last = 127 * g.sbuf_partition_bytes;
    assert!(matches!(
        m.write_tensor(last, 2, &[1, 2]),
        Err(MemoryError::Partition { partition: 1, .. })
    ));
    let near_end = g.sbuf_partition_bytes - 8;
    assert!(matches!(
        m.write_tensor(near_end, 1, &[1, 2, 3]),
        Err(MemoryError::Element { element: 2, .. })
    ));
    assert_eq!(
        m.write_tensor(0, 2, &[1, 2, 3]),
        Err(MemoryError::Rows {
            channels: 2,
            words: 3
        })
    );
    assert!(m.memory().is_empty(), "nothing written by a refused write");
    assert!(matches!(
        m.read_tensor(g.psum_offset + g.partitions * g.psum_partition_bytes, 1, 1),
        Err(MemoryError::Unmapped { .. })
    ));
    assert_eq!(m.read_tensor(0, 2, 0).unwrap(), Vec::<u32>::new());
}
