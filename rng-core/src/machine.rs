//! A small SBUF/PSUM partition memory and a machine that executes the RNG family's words.
//!
//! Addressing (rng-facts §2.1, §1.13; `G::MEMORY`): the ADDR4 immediate is a
//! byte address under `address_mask` (29 bits); bits above the mask mark the
//! register forms (ADDR_REG 0x80, SHAPE_REG 0x40, indirect 0x20/0xA0), which
//! this model does not resolve. SBUF partition `p` starts at `sbuf_offset + p
//! × sbuf_partition_bytes`, PSUM likewise; the tensor's partition `k` (lane
//! `k`) is the one `k` partitions after the start address's, at the same
//! offset. Elements have their dtype's size (checkpoint state: 4 bytes), are
//! aligned to it, are visited innermost dimension first with signed element
//! strides, and must stay inside their partition. Memory is little-endian.
//!
//! [`Machine::execute`] decodes a checkpoint word with `G::decode_checkpoint`
//! and moves the state between an engine's banks and memory;
//! [`Machine::run`] decodes any word of the family with
//! `G::decode_instruction` and also executes RAND, RAND2, DROPOUT and
//! PSEUDO_SET_RNG_SEED (see `machine_run.rs`). Every check (instruction,
//! contract, every element address, every operand) passes before anything is
//! written, so a refused word changes neither memory nor state.

use crate::bank::{LANES, MAX_WORDS};
use crate::dtype::Dtype;
use crate::engine::{CheckpointError, EngineRng, Gate, StateAccess, StateSource};
use crate::generation::*;
use core::fmt;

#[path = "machine_run.rs"]
mod run;
pub use run::MAX_ELEMENTS;

/// Word-addressed storage behind the model (addresses are checked before they reach it).
///
/// Bytes and halves are parts of the little-endian word that holds them; the
/// provided [`PartitionMemory::load_bytes`] / [`PartitionMemory::store_bytes`]
/// go through the words, so an implementation only stores words.
pub trait PartitionMemory {
    /// The 4-byte word at byte address `address` (4-aligned); unwritten memory reads 0.
    fn load(&self, address: u32) -> u32;
    /// Stores a 4-byte word at byte address `address` (4-aligned).
    fn store(&mut self, address: u32, value: u32);

    /// Reads `out.len()` bytes from byte address `address` (any alignment; little-endian words).
    fn load_bytes(&self, address: u32, out: &mut [u8]) {
        for (k, b) in out.iter_mut().enumerate() {
            let a = address.wrapping_add(k as u32);
            *b = self.load(a & !3).to_le_bytes()[(a & 3) as usize];
        }
    }

    /// Writes `bytes` at byte address `address` (read-modify-write of the words it touches).
    fn store_bytes(&mut self, address: u32, bytes: &[u8]) {
        let mut k = 0;
        while k < bytes.len() {
            let a = address.wrapping_add(k as u32);
            let word_address = a & !3;
            let mut word = self.load(word_address).to_le_bytes();
            let mut at = (a & 3) as usize;
            while at < 4 && k < bytes.len() {
                word[at] = bytes[k];
                at += 1;
                k += 1;
            }
            self.store(word_address, u32::from_le_bytes(word));
        }
    }
}

/// The two on-chip memories (the vocabulary the validators' messages use too).
pub use isa_core::Space;

/// Why a tensor address cannot be resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryError {
    /// `start_addr` has bits above the address mask: a register or indirect form.
    RegisterForm {
        /// The raw `start_addr`.
        start_addr: u32,
    },
    /// The address is in neither SBUF nor PSUM of the generation.
    Unmapped {
        /// The masked address.
        address: u32,
    },
    /// The start address is not aligned to the element size.
    Misaligned {
        /// The masked address.
        address: u32,
        /// The element size in bytes.
        alignment: u32,
    },
    /// The tensor's partition `first + partition` is past the last partition.
    Partition {
        /// The tensor partition (lane).
        partition: u32,
        /// The memory partition it would be.
        memory_partition: u32,
        /// Partitions of the generation.
        partitions: u32,
    },
    /// The words given to [`Machine::write_tensor`] do not fill the partitions evenly.
    Rows {
        /// Partitions written.
        channels: u32,
        /// Words given.
        words: usize,
    },
    /// An element's byte offset leaves its partition.
    Element {
        /// Element index in pattern order.
        element: usize,
        /// Its byte offset inside the partition.
        offset: i64,
        /// Bytes per partition of the space.
        partition_bytes: u32,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MemoryError::RegisterForm { start_addr } => write!(
                f,
                "start_addr {start_addr:#010x}: register or indirect address form (marker {:#04x}) is not modelled",
                start_addr >> 24
            ),
            MemoryError::Unmapped { address } => {
                write!(f, "address {address:#x} is in neither SBUF nor PSUM")
            }
            MemoryError::Misaligned { address, alignment } => {
                write!(f, "address {address:#x} is not {alignment}-byte aligned")
            }
            MemoryError::Partition {
                partition,
                memory_partition,
                partitions,
            } => write!(
                f,
                "tensor partition {partition} would be memory partition {memory_partition}; there are {partitions}"
            ),
            MemoryError::Rows { channels, words } => write!(
                f,
                "{words} words do not fill {channels} partitions with the same number each"
            ),
            MemoryError::Element {
                element,
                offset,
                partition_bytes,
            } => write!(
                f,
                "element {element} at byte offset {offset} leaves its partition (0..{partition_bytes})"
            ),
        }
    }
}

impl core::error::Error for MemoryError {}

/// A resolved tensor start: which memory, partition and offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorPlace {
    /// SBUF or PSUM.
    pub space: Space,
    /// First address of the space's partition 0.
    pub space_offset: u32,
    /// Bytes per partition of the space.
    pub partition_bytes: u32,
    /// Partitions of the generation.
    pub partitions: u32,
    /// The memory partition of the tensor's partition 0.
    pub first_partition: u32,
    /// Byte offset of element 0 inside its partition.
    pub offset: u32,
}

impl TensorPlace {
    /// Resolves a raw ADDR4 `start_addr` of 4-byte elements in `geometry`.
    pub fn resolve(start_addr: u32, geometry: &MemoryGeometry) -> Result<TensorPlace, MemoryError> {
        TensorPlace::resolve_aligned(start_addr, geometry, 4)
    }

    /// Resolves a raw ADDR4 `start_addr` of `alignment`-byte elements in `geometry`.
    pub fn resolve_aligned(
        start_addr: u32,
        geometry: &MemoryGeometry,
        alignment: u32,
    ) -> Result<TensorPlace, MemoryError> {
        if start_addr & !geometry.address_mask != 0 {
            return Err(MemoryError::RegisterForm { start_addr });
        }
        let address = start_addr & geometry.address_mask;
        if !address.is_multiple_of(alignment.max(1)) {
            return Err(MemoryError::Misaligned { address, alignment });
        }
        let spaces = [
            (
                Space::Sbuf,
                geometry.sbuf_offset,
                geometry.sbuf_partition_bytes,
            ),
            (
                Space::Psum,
                geometry.psum_offset,
                geometry.psum_partition_bytes,
            ),
        ];
        for (space, space_offset, partition_bytes) in spaces {
            let size = u64::from(partition_bytes) * u64::from(geometry.partitions);
            let relative = u64::from(address).wrapping_sub(u64::from(space_offset));
            if partition_bytes > 0 && address >= space_offset && relative < size {
                return Ok(TensorPlace {
                    space,
                    space_offset,
                    partition_bytes,
                    partitions: geometry.partitions,
                    first_partition: (relative / u64::from(partition_bytes)) as u32,
                    offset: (relative % u64::from(partition_bytes)) as u32,
                });
            }
        }
        Err(MemoryError::Unmapped { address })
    }

    /// The byte address of the 4-byte element at byte offset `delta` from element 0, in tensor partition `partition`.
    pub fn address(&self, partition: u32, element: usize, delta: i64) -> Result<u32, MemoryError> {
        self.address_sized(partition, element, delta, 4)
    }

    /// The byte address of the `size`-byte element at byte offset `delta` from element 0, in tensor partition `partition`.
    pub fn address_sized(
        &self,
        partition: u32,
        element: usize,
        delta: i64,
        size: u32,
    ) -> Result<u32, MemoryError> {
        let memory_partition = self.first_partition + partition;
        if memory_partition >= self.partitions {
            return Err(MemoryError::Partition {
                partition,
                memory_partition,
                partitions: self.partitions,
            });
        }
        let offset = i64::from(self.offset) + delta;
        if offset < 0 || offset + i64::from(size) > i64::from(self.partition_bytes) {
            return Err(MemoryError::Element {
                element,
                offset,
                partition_bytes: self.partition_bytes,
            });
        }
        Ok(self.space_offset + memory_partition * self.partition_bytes + offset as u32)
    }
}

/// Byte offsets from element 0 of the first `count` elements of `pattern`, innermost dimension first.
pub fn element_offsets(pattern: &TensorPattern, count: usize) -> impl Iterator<Item = i64> + '_ {
    let rank = usize::from(pattern.rank).clamp(1, 4);
    (0..count).map(move |mut e| {
        let mut elements = 0i64;
        for d in 0..rank {
            let n = usize::from(pattern.num_elem[d]).max(1);
            elements += (e % n) as i64 * i64::from(pattern.step_elem[d]);
            e /= n;
        }
        4 * elements
    })
}

/// Why a machine refused a word. Nothing was changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MachineError {
    /// The word is not a valid instruction of the generation (or not one the model executes).
    Instruction(InstructionError),
    /// The checkpoint contract refused it, or the engine holds no state the instruction draws from.
    Checkpoint(CheckpointError),
    /// The state tensor's address does not resolve.
    Memory(MemoryError),
    /// An operand's address does not resolve, or one of its elements leaves its partition.
    Operand {
        /// The operand (`dst_mem_pattern`, `src_mem_pattern`, `min`, `max`, `threshold`, `seed`).
        operand: &'static str,
        /// Why.
        error: MemoryError,
    },
    /// A REG_PTR_IMMEDIATE operand: the address is in a register, which the model does not hold.
    RegisterOperand {
        /// The operand.
        operand: &'static str,
    },
    /// More elements per partition than the model executes in one instruction
    /// ([`MAX_ELEMENTS`]; a limit of the model, not of the hardware).
    TooManyElements {
        /// The operand.
        operand: &'static str,
        /// Its elements per partition.
        elements: u64,
        /// The model's limit.
        max: u64,
    },
    /// A data type the instruction cannot use there.
    Dtype {
        /// The field.
        field: &'static str,
        /// The type found.
        dtype: Dtype,
        /// What the instruction needs.
        needs: &'static str,
    },
    /// DROPOUT's source and destination have different element counts.
    ElementCounts {
        /// Source elements per partition.
        src: u64,
        /// Destination elements per partition.
        dst: u64,
    },
    /// `rand_num_steps` outside what the header allows for the algorithm (LFSR: at least 1; others: exactly 1).
    Steps {
        /// `rand_algorithm`.
        algorithm: Algorithm,
        /// `rand_num_steps`.
        steps: u8,
    },
    /// PSEUDO_SET_RNG_SEED on an engine that holds none of the states the model reseeds.
    NothingToSeed {
        /// The engine.
        engine: Engine,
    },
    /// Something the model does not execute.
    Unmodelled {
        /// What.
        what: &'static str,
    },
}

impl fmt::Display for MachineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineError::Instruction(e) => write!(f, "{e}"),
            MachineError::Checkpoint(e) => write!(f, "{e}"),
            MachineError::Memory(e) => write!(f, "state tensor: {e}"),
            MachineError::Operand { operand, error } => write!(f, "{operand}: {error}"),
            MachineError::RegisterOperand { operand } => write!(
                f,
                "{operand}: REG_PTR_IMMEDIATE (an address held in a register) is not modelled"
            ),
            MachineError::TooManyElements {
                operand,
                elements,
                max,
            } => write!(
                f,
                "{operand}: {elements} elements per partition; the model executes at most {max}"
            ),
            MachineError::Dtype {
                field,
                dtype,
                needs,
            } => write!(f, "{field} {}: {needs}", dtype.name()),
            MachineError::ElementCounts { src, dst } => write!(
                f,
                "src_mem_pattern has {src} elements per partition, dst_mem_pattern {dst}; they must be equal"
            ),
            MachineError::Steps { algorithm, steps } => write!(
                f,
                "rand_num_steps {steps} with rand_algorithm {}: LFSR needs at least 1 step per output, the other algorithms exactly 1",
                algorithm.name()
            ),
            MachineError::NothingToSeed { engine } => write!(
                f,
                "PSEUDO_SET_RNG_SEED: engine {} holds no generator state the model reseeds",
                engine.name()
            ),
            MachineError::Unmodelled { what } => write!(f, "not modelled: {what}"),
        }
    }
}

impl core::error::Error for MachineError {}

impl From<InstructionError> for MachineError {
    fn from(e: InstructionError) -> Self {
        MachineError::Instruction(e)
    }
}

impl From<CheckpointError> for MachineError {
    fn from(e: CheckpointError) -> Self {
        MachineError::Checkpoint(e)
    }
}

impl From<MemoryError> for MachineError {
    fn from(e: MemoryError) -> Self {
        MachineError::Memory(e)
    }
}

/// The three engines of generation `G` and a partition memory.
#[derive(Clone, Debug)]
pub struct Machine<G: Generation, M: PartitionMemory> {
    engines: [EngineRng<G>; 3],
    memory: M,
}

const ENGINES: [Engine; 3] = [Engine::Pool, Engine::Dve, Engine::Act];

fn engine_index(engine: Engine) -> usize {
    match engine {
        Engine::Pool => 0,
        Engine::Dve => 1,
        Engine::Act => 2,
    }
}

impl<G: Generation, M: PartitionMemory> Machine<G, M> {
    /// Every engine in its power-on state, enforcing `gate`.
    pub fn new(memory: M, gate: Gate) -> Self {
        Machine {
            engines: ENGINES.map(|e| EngineRng::new(e, gate)),
            memory,
        }
    }

    /// An engine's generator state.
    pub fn engine(&self, engine: Engine) -> &EngineRng<G> {
        &self.engines[engine_index(engine)]
    }

    /// An engine's generator state, mutably (to seed or draw).
    pub fn engine_mut(&mut self, engine: Engine) -> &mut EngineRng<G> {
        &mut self.engines[engine_index(engine)]
    }

    /// The memory.
    pub fn memory(&self) -> &M {
        &self.memory
    }

    /// The memory, mutably.
    pub fn memory_mut(&mut self) -> &mut M {
        &mut self.memory
    }

    /// The `channels × words` 4-byte words of the tensor at `start_addr` (an ADDR4 immediate):
    /// from the address's partition on, `channels` partitions (lanes), in each `words`
    /// consecutive words at the same offset; partition `p` is `out[p * words..(p + 1) * words]`.
    /// This is what `neuron-isa run --dump ADDR:CHANNELS:WORDS` prints, a row per partition.
    /// A region that leaves the memory map, its last partition or a partition's end is an error.
    #[cfg(feature = "std")]
    pub fn read_tensor(
        &self,
        start_addr: u32,
        channels: u32,
        words: u32,
    ) -> Result<std::vec::Vec<u32>, MemoryError> {
        let place = tensor_region::<G>(start_addr, channels, words as usize)?;
        let mut out = std::vec::Vec::with_capacity(channels as usize * words as usize);
        for p in 0..channels {
            let base = place.row(p);
            out.extend((0..words).map(|k| self.memory.load(base + 4 * k)));
        }
        Ok(out)
    }

    /// Writes `data`, `channels` rows of `data.len() / channels` 4-byte words, to the tensor at
    /// `start_addr` laid out as [`Machine::read_tensor`] reads it (row `p` to the `p`-th
    /// partition from the address's). The whole region is checked before anything is written.
    pub fn write_tensor(
        &mut self,
        start_addr: u32,
        channels: u32,
        data: &[u32],
    ) -> Result<(), MemoryError> {
        if channels == 0 || !data.len().is_multiple_of(channels as usize) {
            if data.is_empty() {
                return Ok(());
            }
            return Err(MemoryError::Rows {
                channels,
                words: data.len(),
            });
        }
        let words = data.len() / channels as usize;
        let place = tensor_region::<G>(start_addr, channels, words)?;
        for (p, row) in data.chunks(words.max(1)).enumerate() {
            let base = place.row(p as u32);
            for (k, w) in row.iter().enumerate() {
                self.memory.store(base + 4 * k as u32, *w);
            }
        }
        Ok(())
    }

    /// Decodes `word` as run on `engine` (`G::decode_checkpoint`, which validates) and executes it.
    pub fn execute(
        &mut self,
        word: &[u8; 64],
        engine: Engine,
    ) -> Result<CheckpointInstruction, MachineError> {
        let inst = G::decode_checkpoint(word, engine)?;
        self.execute_instruction(&inst)?;
        Ok(inst)
    }

    /// Executes a decoded instruction on `inst.engine`.
    pub fn execute_instruction(
        &mut self,
        inst: &CheckpointInstruction,
    ) -> Result<(), MachineError> {
        let access = StateAccess::from_instruction(inst);
        let index = engine_index(inst.engine);
        let mut words = [0u32; LANES * MAX_WORDS];
        match (inst.kind, &inst.location) {
            (CheckpointKind::Save, StateLocation::Tensor(pattern)) => {
                let n = self.engines[index].get_state(&access, &mut words)?;
                let addresses = self.addresses(pattern, &access, n)?;
                for (address, word) in addresses.iter().zip(&words[..n]) {
                    self.memory.store(*address, *word);
                }
            }
            (CheckpointKind::Restore, StateLocation::Tensor(pattern)) => {
                let arm = self.engines[index].check(&access)?;
                let n = usize::from(access.channels) * usize::from(arm.words);
                let addresses = self.addresses(pattern, &access, n)?;
                for (address, word) in addresses.iter().zip(&mut words[..n]) {
                    *word = self.memory.load(*address);
                }
                self.engines[index].set_state(&access, StateSource::Tensor(&words[..n]))?;
            }
            (CheckpointKind::Restore, StateLocation::Immediate { words: imm, .. }) => {
                self.engines[index].set_state(&access, StateSource::Immediate(*imm))?;
            }
            (CheckpointKind::Save, StateLocation::Immediate { .. }) => {
                return Err(CheckpointError::SourceMismatch { update: None }.into());
            }
        }
        Ok(())
    }

    /// Every element address of `n = channels × words` words, partition-major; all checked.
    fn addresses(
        &self,
        pattern: &TensorPattern,
        access: &StateAccess,
        n: usize,
    ) -> Result<[u32; LANES * MAX_WORDS], MemoryError> {
        let place = TensorPlace::resolve(pattern.start_addr, &G::MEMORY)?;
        let words = n / usize::from(access.channels.max(1));
        let mut out = [0u32; LANES * MAX_WORDS];
        for partition in 0..usize::from(access.channels) {
            for (element, delta) in element_offsets(pattern, words).enumerate() {
                out[partition * words + element] =
                    place.address(partition as u32, element, delta)?;
            }
        }
        Ok(out)
    }
}

/// The place of the `channels × words` region at `start_addr`, every corner checked: its last
/// partition exists and its last word stays inside the partition.
fn tensor_region<G: Generation>(
    start_addr: u32,
    channels: u32,
    words: usize,
) -> Result<TensorPlace, MemoryError> {
    let place = TensorPlace::resolve(start_addr, &G::MEMORY)?;
    if channels > 0 && words > 0 {
        let last = words - 1;
        place.address(channels - 1, last, 4 * last as i64)?;
    }
    Ok(place)
}

impl TensorPlace {
    /// The byte address of element 0 in tensor partition `partition` (checked by the caller).
    fn row(&self, partition: u32) -> u32 {
        self.space_offset + (self.first_partition + partition) * self.partition_bytes + self.offset
    }
}

/// A sparse [`PartitionMemory`] (a map of written words; nothing is allocated for the rest).
#[cfg(feature = "std")]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SparseMemory {
    words: std::collections::BTreeMap<u32, u32>,
}

#[cfg(feature = "std")]
impl SparseMemory {
    /// Empty memory (every word reads 0).
    pub fn new() -> Self {
        SparseMemory::default()
    }

    /// Words written so far.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

#[cfg(feature = "std")]
impl PartitionMemory for SparseMemory {
    fn load(&self, address: u32) -> u32 {
        self.words.get(&address).copied().unwrap_or(0)
    }

    fn store(&mut self, address: u32, value: u32) {
        self.words.insert(address, value);
    }
}

/// A RAND_GET_STATE of `arm` for `channels` partitions to a contiguous tensor at `start_addr`
/// (TENSOR4D, `num_elem = [words, 1, 1, 1]`, unit strides).
pub fn save_instruction<G: Generation>(
    arm: &CheckpointArm,
    channels: u8,
    start_addr: u32,
) -> CheckpointInstruction {
    CheckpointInstruction {
        kind: CheckpointKind::Save,
        engine: arm.engine,
        generator: arm.generator,
        algorithm: arm.algorithm,
        update: None,
        dtype: G::UINT32_DTYPE,
        channels,
        location: StateLocation::Tensor(TensorPattern {
            start_addr,
            step_elem: [1; 4],
            num_elem: [u16::from(arm.words), 1, 1, 1],
            rank: 4,
        }),
    }
}

/// A RAND_SET_STATE of `arm` for `channels` partitions: from a contiguous tensor at
/// `start_addr` (TENSOR1D), or, for an IMM_SINGLE arm, from `imm` (the tensor
/// then only declares the width).
pub fn restore_instruction<G: Generation>(
    arm: &CheckpointArm,
    channels: u8,
    start_addr: u32,
    imm: [u32; 8],
) -> CheckpointInstruction {
    let tensor = TensorPattern {
        start_addr,
        step_elem: [1; 4],
        num_elem: [u16::from(arm.words), 1, 1, 1],
        rank: 1,
    };
    CheckpointInstruction {
        kind: CheckpointKind::Restore,
        engine: arm.engine,
        generator: arm.generator,
        algorithm: arm.algorithm,
        update: arm.update,
        dtype: G::UINT32_DTYPE,
        channels,
        location: match arm.update {
            Some(StateUpdate::ImmSingle) => StateLocation::Immediate { tensor, words: imm },
            _ => StateLocation::Tensor(tensor),
        },
    }
}

#[cfg(all(test, feature = "std"))]
#[path = "machine_tests.rs"]
mod tests;

#[cfg(all(test, feature = "std"))]
#[path = "machine_run_tests.rs"]
mod run_tests;
