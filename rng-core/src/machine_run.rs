//! Execution of the draw instructions (RAND, RAND2, DROPOUT) and PSEUDO_SET_RNG_SEED.
//!
//! Each instruction is checked completely first — channels, data types,
//! `rand_num_steps`, the engine's state, every operand address (the whole
//! extent of every tensor pattern, in closed form), pointer operands (read
//! before anything is written) — and only then executed, so a refused
//! instruction changes nothing. Execution draws a part of the elements at a
//! time ([`crate::bank::Bank::draw_part`]), so it needs no allocation and the
//! result equals one draw of all elements.
//!
//! Semantics (rng-core README, "Draw instructions"):
//! - a draw advances exactly the bank RAND_GET_STATE saves for
//!   (`RNG_<algorithm>`, `rand_algorithm`) on the same engine, so save → draw →
//!   restore → draw reproduces;
//! - lane `k` (partition `k` of the tensor, `k < num_active_channels`) draws
//!   element `j` of its partition, in pattern order (innermost dimension first);
//! - DROPOUT processes elements in pattern order; for each element every lane
//!   reads its source before any lane writes its destination.

use super::{engine_index, Machine, MachineError, MemoryError, PartitionMemory, TensorPlace};
use crate::bank::{Bank, DrawSpan, LaneRow, LANES};
use crate::convert;
use crate::dtype::Dtype;
use crate::engine::CheckpointError;
use crate::generation::*;
use crate::model::{DropoutPolarity, DropoutTie, PointerOperands, SeedExpansion};
use crate::mt64::Mt19937_64;

/// Most elements per partition one instruction may touch in the model (a limit of the model, not of the hardware).
pub const MAX_ELEMENTS: u64 = 1 << 24;

/// Elements drawn per part.
const CHUNK: usize = 32;

/// A tensor operand whose every element of every active partition is known to be inside its partition.
#[derive(Clone, Copy, Debug)]
struct Placed {
    place: TensorPlace,
    pattern: TensorPattern,
    size: u32,
    elements: u64,
}

impl Placed {
    /// The byte address of the element at `delta` elements from element 0, in lane `lane`.
    fn address(&self, lane: usize, delta: i64) -> u32 {
        let partition = self.place.first_partition + lane as u32;
        let offset = i64::from(self.place.offset) + delta * i64::from(self.size);
        self.place.space_offset + partition * self.place.partition_bytes + offset as u32
    }
}

/// Elements per partition of a pattern (the product of its counts over its rank).
fn elements_of(p: &TensorPattern) -> u64 {
    let rank = usize::from(p.rank).clamp(1, 4);
    p.num_elem[..rank].iter().map(|&n| u64::from(n)).product()
}

/// The smallest and largest element offsets (in elements) of a pattern, with the indices of elements reaching them.
fn extent(p: &TensorPattern) -> (i64, u64, i64, u64) {
    let rank = usize::from(p.rank).clamp(1, 4);
    let (mut lo, mut lo_index, mut hi, mut hi_index, mut stride) = (0i64, 0u64, 0i64, 0u64, 1u64);
    for d in 0..rank {
        let n = u64::from(p.num_elem[d].max(1));
        let last = (n - 1) as i64 * i64::from(p.step_elem[d]);
        if last < 0 {
            lo += last;
            lo_index += (n - 1) * stride;
        } else if last > 0 {
            hi += last;
            hi_index += (n - 1) * stride;
        }
        stride *= n;
    }
    (lo, lo_index, hi, hi_index)
}

/// The element offsets of a pattern in order, innermost dimension first (an odometer).
struct Walk {
    rank: usize,
    num: [u64; 4],
    step: [i64; 4],
    index: [u64; 4],
    offset: i64,
}

impl Walk {
    fn new(p: &TensorPattern) -> Walk {
        Walk {
            rank: usize::from(p.rank).clamp(1, 4),
            num: p.num_elem.map(|n| u64::from(n.max(1))),
            step: p.step_elem.map(i64::from),
            index: [0; 4],
            offset: 0,
        }
    }

    /// The current element's offset (in elements), then advances.
    fn next_offset(&mut self) -> i64 {
        let current = self.offset;
        for d in 0..self.rank {
            self.index[d] += 1;
            self.offset += self.step[d];
            if self.index[d] < self.num[d] {
                return current;
            }
            self.offset -= self.step[d] * self.num[d] as i64;
            self.index[d] = 0;
        }
        current
    }
}

/// Resolves and bounds-checks a tensor operand of `size`-byte elements for `channels` lanes.
fn place<G: Generation>(
    operand: &'static str,
    pattern: &TensorPattern,
    size: u32,
    channels: u8,
) -> Result<Placed, MachineError> {
    let fail = |error| MachineError::Operand { operand, error };
    let place = TensorPlace::resolve_aligned(pattern.start_addr, &G::MEMORY, size).map_err(fail)?;
    let elements = elements_of(pattern);
    if elements > MAX_ELEMENTS {
        return Err(MachineError::TooManyElements {
            operand,
            elements,
            max: MAX_ELEMENTS,
        });
    }
    let last = u32::from(channels.max(1)) - 1;
    if place.first_partition + last >= place.partitions {
        return Err(fail(MemoryError::Partition {
            partition: last,
            memory_partition: place.first_partition + last,
            partitions: place.partitions,
        }));
    }
    if elements > 0 {
        let (lo, lo_index, hi, hi_index) = extent(pattern);
        let start = i64::from(place.offset);
        let low = start + lo * i64::from(size);
        if low < 0 {
            return Err(fail(MemoryError::Element {
                element: lo_index as usize,
                offset: low,
                partition_bytes: place.partition_bytes,
            }));
        }
        let high = start + hi * i64::from(size);
        if high + i64::from(size) > i64::from(place.partition_bytes) {
            return Err(fail(MemoryError::Element {
                element: hi_index as usize,
                offset: high,
                partition_bytes: place.partition_bytes,
            }));
        }
    }
    Ok(Placed {
        place,
        pattern: *pattern,
        size,
        elements,
    })
}

fn check_channels<G: Generation>(channels: u8) -> Result<usize, MachineError> {
    if channels == 0 || channels > G::MAX_CHANNELS {
        return Err(MachineError::Checkpoint(CheckpointError::Channels {
            channels,
            max: G::MAX_CHANNELS,
        }));
    }
    Ok(usize::from(channels))
}

/// How a draw becomes an element.
#[derive(Clone, Copy, Debug)]
enum Output {
    /// RAW_U32 into an integer type.
    Raw,
    /// UNIFORM_IN_RANGE with per-lane fp32 bounds.
    Uniform,
}

/// A checked RAND / RAND2.
struct Fill {
    engine: Engine,
    state: (Generator, Algorithm),
    steps: u8,
    output: Output,
    dtype: Dtype,
    channels: usize,
    dst: Placed,
    min: [u32; LANES],
    max: [u32; LANES],
}

fn output_of(post: PostProcess, dtype: Dtype, float_only: bool) -> Result<Output, MachineError> {
    match post {
        PostProcess::RawU32 if dtype.is_int() => Ok(Output::Raw),
        PostProcess::RawU32 => Err(MachineError::Dtype {
            field: "dtype",
            dtype,
            needs: "RAW_U32 writes an integer type",
        }),
        PostProcess::UniformInRange if float_only && dtype.is_int() => Err(MachineError::Dtype {
            field: "dtype",
            dtype,
            needs: "RAND's UNIFORM_IN_RANGE writes a float type",
        }),
        PostProcess::UniformInRange => Ok(Output::Uniform),
        PostProcess::Normal => Err(MachineError::Unmodelled {
            what: "post_process NORMAL (no hardware support, d4_rand.h)",
        }),
    }
}

impl<G: Generation, M: PartitionMemory> Machine<G, M> {
    /// Decodes `word` as run on `engine` (`G::decode_instruction`, which validates) and
    /// executes it: any instruction of the RNG family ([`RngInstruction`]).
    pub fn run(&mut self, word: &[u8; 64], engine: Engine) -> Result<RngInstruction, MachineError> {
        let inst = G::decode_instruction(word, engine)?;
        self.run_instruction(&inst)?;
        Ok(inst)
    }

    /// [`Machine::run`] of a word tagged with its engine by a checked constructor
    /// (`RandSetState::restore::<Dve, ..>`): the engine comes from the tag, so the word cannot
    /// be run on another.
    pub fn run_on<I, E>(
        &mut self,
        word: &isa_core::OnEngine<I, E>,
    ) -> Result<RngInstruction, MachineError>
    where
        I: isa_core::Instruction64,
        E: isa_core::arm::EngineMarker,
    {
        self.run(&word.to_bytes(), E::ENGINE)
    }

    /// Executes a decoded instruction on its engine.
    pub fn run_instruction(&mut self, inst: &RngInstruction) -> Result<(), MachineError> {
        match inst {
            RngInstruction::Checkpoint(c) => self.execute_instruction(c),
            RngInstruction::Rand(r) => {
                let fill = self.check_rand(r)?;
                self.fill(&fill);
                Ok(())
            }
            RngInstruction::Rand2(r) => {
                let fill = self.check_rand2(r)?;
                self.fill(&fill);
                Ok(())
            }
            RngInstruction::Dropout(d) => self.dropout(d),
            RngInstruction::SetSeed(s) => self.set_seed(s),
        }
    }

    /// Whether the instruction's engine holds the generator state it reads or writes (the
    /// checkpoint arm's bank, RAND's and RAND2's `RNG_<algorithm>`, DROPOUT's `dropout_state`, a state PSEUDO_SET_RNG_SEED reseeds): a
    /// static fact of the generation (its arm tables and the model), independent of the state's
    /// values. An instruction without it is refused when run.
    pub fn holds_state(&self, inst: &RngInstruction) -> bool {
        let e = self.engine(inst.engine());
        let state = match inst {
            RngInstruction::Checkpoint(c) => Some((c.generator, c.algorithm)),
            RngInstruction::Rand(r) => {
                Generator::for_algorithm(r.algorithm).map(|g| (g, r.algorithm))
            }
            RngInstruction::Rand2(r) => {
                Generator::for_algorithm(r.algorithm).map(|g| (g, r.algorithm))
            }
            RngInstruction::Dropout(_) => {
                let s = G::MODEL.dropout_state;
                Some((s.generator, s.algorithm))
            }
            RngInstruction::SetSeed(_) => return e.has_seed_target(G::MODEL.seed_targets),
        };
        state.is_some_and(|(g, a)| e.bank(g, a).is_some())
    }

    /// The bank of `(generator, algorithm)` on `engine`, or the typed refusal.
    fn has_bank(
        &self,
        engine: Engine,
        generator: Generator,
        algorithm: Algorithm,
    ) -> Result<(), MachineError> {
        match self.engine(engine).bank(generator, algorithm) {
            Some(_) => Ok(()),
            None => Err(MachineError::Checkpoint(CheckpointError::NoBank {
                engine,
                generator,
                algorithm,
            })),
        }
    }

    /// The raw bits of a 4-byte-or-smaller scalar operand for each of `channels` lanes (read, never written).
    fn scalar(
        &self,
        operand: &'static str,
        scalar: Scalar,
        size: u32,
        channels: usize,
        per_lane: bool,
    ) -> Result<[u32; LANES], MachineError> {
        match scalar.source {
            ImmSource::InstructionImmediate => Ok([scalar.bits; LANES]),
            ImmSource::RegPtrImmediate => Err(MachineError::RegisterOperand { operand }),
            ImmSource::PointerImmediate => {
                let lanes = if per_lane { channels.max(1) } else { 1 };
                let pattern = TensorPattern {
                    start_addr: scalar.bits,
                    step_elem: [1; 4],
                    num_elem: [1; 4],
                    rank: 1,
                };
                let placed = place::<G>(operand, &pattern, size, lanes as u8)?;
                let mut out = [0u32; LANES];
                for (lane, value) in out.iter_mut().enumerate().take(channels.max(1)) {
                    let from = if per_lane { lane } else { 0 };
                    let mut bytes = [0u8; 4];
                    self.memory
                        .load_bytes(placed.address(from, 0), &mut bytes[..size as usize]);
                    *value = u32::from_le_bytes(bytes);
                }
                Ok(out)
            }
        }
    }

    fn per_lane() -> bool {
        G::MODEL.pointer_operands == PointerOperands::PerLane
    }

    fn check_rand(&self, r: &RandInstruction) -> Result<Fill, MachineError> {
        let channels = check_channels::<G>(r.channels)?;
        let steps_ok = match r.algorithm {
            Algorithm::Lfsr => r.steps >= 1,
            _ => r.steps == 1,
        };
        if !steps_ok {
            return Err(MachineError::Steps {
                algorithm: r.algorithm,
                steps: r.steps,
            });
        }
        let output = output_of(r.post_process, r.dtype, true)?;
        // `rand_generator` is not read: the bank is the algorithm's (see the README).
        let generator = Generator::for_algorithm(r.algorithm).ok_or(MachineError::Unmodelled {
            what: "RAND with rand_algorithm PCG32 (no RNG_ source names a PCG32 state)",
        })?;
        self.has_bank(r.engine, generator, r.algorithm)?;
        let dst = place::<G>("dst_mem_pattern", &r.dst, r.dtype.size(), r.channels)?;
        Ok(Fill {
            engine: r.engine,
            state: (generator, r.algorithm),
            steps: r.steps,
            output,
            dtype: r.dtype,
            channels,
            dst,
            min: [r.params[0]; LANES],
            max: [r.params[1]; LANES],
        })
    }

    fn check_rand2(&self, r: &Rand2Instruction) -> Result<Fill, MachineError> {
        let channels = check_channels::<G>(r.channels)?;
        let output = output_of(r.post_process, r.dtype, false)?;
        let generator = Generator::for_algorithm(r.algorithm).ok_or(MachineError::Unmodelled {
            what: "RAND2 with rand_algorithm PCG32 (no RNG_ source names a PCG32 state)",
        })?;
        self.has_bank(r.engine, generator, r.algorithm)?;
        let dst = place::<G>("dst_mem_pattern", &r.dst, r.dtype.size(), r.channels)?;
        let min = self.scalar("min", r.min, 4, channels, Self::per_lane())?;
        let max = self.scalar("max", r.max, 4, channels, Self::per_lane())?;
        Ok(Fill {
            engine: r.engine,
            state: (generator, r.algorithm),
            steps: 1,
            output,
            dtype: r.dtype,
            channels,
            dst,
            min,
            max,
        })
    }

    /// The bank a checked instruction draws from (checked to exist).
    fn bank_of(
        engines: &mut [crate::engine::EngineRng<G>; 3],
        engine: Engine,
        (generator, algorithm): (Generator, Algorithm),
    ) -> Option<&mut Bank> {
        engines[engine_index(engine)].bank_mut(generator, algorithm)
    }

    /// Executes a checked RAND / RAND2 (cannot fail: everything was checked).
    fn fill(&mut self, f: &Fill) {
        let model = G::MODEL;
        let Machine { engines, memory } = self;
        let Some(bank) = Self::bank_of(engines, f.engine, f.state) else {
            return;
        };
        let n = f.dst.elements;
        let size = f.dst.size as usize;
        let mut rows = [[0u32; LANES]; CHUNK];
        let mut walk = Walk::new(&f.dst.pattern);
        let mut first = 0u64;
        while first < n {
            let m = (n - first).min(CHUNK as u64) as usize;
            let span = DrawSpan {
                total: n,
                first,
                steps: f.steps,
            };
            if bank.draw_part(f.channels, span, &mut rows[..m]).is_err() {
                return; // unreachable: channels, steps and span were checked
            }
            for row in &rows[..m] {
                let delta = walk.next_offset();
                for (lane, &r) in row.iter().enumerate().take(f.channels) {
                    let bits = match f.output {
                        Output::Raw => convert::from_raw(r, f.dtype, &model).unwrap_or_default(),
                        Output::Uniform => {
                            let u = convert::uniform(r, model.uniform_bits);
                            let (lo, hi) =
                                (f32::from_bits(f.min[lane]), f32::from_bits(f.max[lane]));
                            let v = convert::in_range(lo, hi, u, model.range_arithmetic);
                            convert::from_f32(v, f.dtype, &model)
                        }
                    };
                    memory.store_bytes(f.dst.address(lane, delta), &bits.to_le_bytes()[..size]);
                }
            }
            first += m as u64;
        }
    }

    fn dropout(&mut self, d: &DropoutInstruction) -> Result<(), MachineError> {
        let model = G::MODEL;
        let channels = check_channels::<G>(d.channels)?;
        if d.out_dtype != d.in_dtype {
            return Err(MachineError::Dtype {
                field: "out_dtype",
                dtype: d.out_dtype,
                needs: "must equal in_dtype",
            });
        }
        let threshold_dtype = d.threshold_dtype.unwrap_or(Dtype::Fp32);
        if threshold_dtype.is_int() {
            return Err(MachineError::Dtype {
                field: "threshold_dtype",
                dtype: threshold_dtype,
                needs: "the threshold is a float type",
            });
        }
        let state = model.dropout_state;
        self.has_bank(d.engine, state.generator, state.algorithm)?;
        let size = d.in_dtype.size();
        let src = place::<G>("src_mem_pattern", &d.src, size, d.channels)?;
        let dst = place::<G>("dst_mem_pattern", &d.dst, size, d.channels)?;
        if src.elements != dst.elements {
            return Err(MachineError::ElementCounts {
                src: src.elements,
                dst: dst.elements,
            });
        }
        let t_size = threshold_dtype.size();
        let raw = self.scalar("threshold", d.threshold, t_size, channels, Self::per_lane())?;
        let mut threshold = [0f32; LANES];
        for (t, bits) in threshold.iter_mut().zip(raw) {
            let bits = u64::from(bits) & ((1u64 << (8 * t_size)) - 1);
            *t = convert::to_f32(bits, threshold_dtype, &model).unwrap_or(f32::NAN);
        }
        let drop_below = matches!(
            (d.threshold_type, model.dropout_polarity),
            (ThresholdType::DropRate, DropoutPolarity::DropBelow)
                | (ThresholdType::KeepRate, DropoutPolarity::DropAbove)
        );
        let tie_drops = model.dropout_tie == DropoutTie::Drop;

        // Everything is checked: execute.
        let Machine { engines, memory } = self;
        let Some(bank) = Self::bank_of(engines, d.engine, (state.generator, state.algorithm))
        else {
            return Ok(());
        };
        let n = src.elements;
        let size = size as usize;
        let mut rows: [LaneRow; CHUNK] = [[0u32; LANES]; CHUNK];
        let mut values = [[0u8; 8]; LANES];
        let (mut from, mut to) = (Walk::new(&src.pattern), Walk::new(&dst.pattern));
        let mut first = 0u64;
        while first < n {
            let m = (n - first).min(CHUNK as u64) as usize;
            let span = DrawSpan {
                total: n,
                first,
                steps: 1,
            };
            if bank.draw_part(channels, span, &mut rows[..m]).is_err() {
                return Ok(()); // unreachable: channels and span were checked
            }
            for row in &rows[..m] {
                let (s, t) = (from.next_offset(), to.next_offset());
                for (lane, value) in values.iter_mut().enumerate().take(channels) {
                    memory.load_bytes(src.address(lane, s), &mut value[..size]);
                }
                for (lane, (&r, value)) in row.iter().zip(&values).enumerate().take(channels) {
                    let u = convert::uniform(r, model.uniform_bits);
                    let limit = threshold[lane];
                    let dropped = if u == limit {
                        tie_drops
                    } else if drop_below {
                        u < limit
                    } else {
                        u > limit
                    };
                    let out = if dropped { [0u8; 8] } else { *value };
                    memory.store_bytes(dst.address(lane, t), &out[..size]);
                }
            }
            first += m as u64;
        }
        Ok(())
    }

    fn set_seed(&mut self, s: &SeedInstruction) -> Result<(), MachineError> {
        let model = G::MODEL;
        let seed = self.scalar("seed", s.seed, 4, 1, false)?[0];
        if !self.engine(s.engine).has_seed_target(model.seed_targets) {
            return Err(MachineError::NothingToSeed { engine: s.engine });
        }
        let mut mt = Mt19937_64::new(u64::from(seed));
        let mut high: Option<u32> = None;
        let mut next = || match model.seed_expansion {
            SeedExpansion::Mt19937_64Low32 => mt.next_u64() as u32,
            SeedExpansion::Mt19937_64Halves => match high.take() {
                Some(h) => h,
                None => {
                    let x = mt.next_u64();
                    high = Some((x >> 32) as u32);
                    x as u32
                }
            },
        };
        self.engine_mut(s.engine)
            .reseed(model.seed_targets, &mut next);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_and_extents_agree_with_the_formula() {
        let p = TensorPattern {
            start_addr: 0,
            step_elem: [-1, 10, 3, 1],
            num_elem: [3, 2, 2, 1],
            rank: 3,
        };
        let mut walk = Walk::new(&p);
        let offsets: Vec<i64> = (0..12).map(|_| walk.next_offset()).collect();
        let expected: Vec<i64> = super::super::element_offsets(&p, 12)
            .map(|b| b / 4)
            .collect();
        assert_eq!(offsets, expected);
        let (lo, lo_i, hi, hi_i) = extent(&p);
        assert_eq!((lo, hi), (-2, 13));
        assert_eq!((offsets[lo_i as usize], offsets[hi_i as usize]), (lo, hi));
        assert_eq!(elements_of(&p), 12);
    }
    extern crate std;
    use std::vec::Vec;
}
