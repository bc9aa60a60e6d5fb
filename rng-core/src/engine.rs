//! One engine's generator state, and what RAND_GET_STATE / RAND_SET_STATE do to it.
//!
//! An [`EngineRng<G>`] holds one [`Bank`] per (generator, algorithm) that the
//! generation's checkpoint arms name for the engine. [`EngineRng::get_state`]
//! produces exactly the words RAND_GET_STATE writes (per partition `p <
//! channels`, lane `p`'s record of the arm's width); [`EngineRng::set_state`]
//! consumes exactly what RAND_SET_STATE reads, from a tensor or from the
//! IMM_SINGLE immediate. Every contract is checked first, with a typed error
//! ([`CheckpointError`]), and a refused operation changes nothing.

use crate::bank::{Bank, BankError, BankShape, LaneRow, LANES};
use crate::generation::*;
use crate::model::{ModelError, SeedTargets};
use core::fmt;
use core::marker::PhantomData;

/// Most banks (distinct generator, algorithm pairs) one engine holds.
pub const MAX_BANKS: usize = 4;

/// Which legality an engine enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Gate {
    /// The ISA validator's legality (the generation's arm tables).
    #[default]
    Validator,
    /// Also the firmware's wired set ([`Generation::FIRMWARE_WIRED`]): what the
    /// shipped firmware runs, e.g. POOL's `rand_algorithm ∈ {LFSR, XORWOW}`.
    Firmware,
}

/// A checkpoint request in instruction terms: what RAND_GET_STATE or RAND_SET_STATE asks of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateAccess {
    /// Save (RAND_GET_STATE) or restore (RAND_SET_STATE).
    pub kind: CheckpointKind,
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
    /// `update_state` (restore only; `None` for a save).
    pub update: Option<StateUpdate>,
    /// Raw dtype code of the state tensor.
    pub dtype: u8,
    /// `num_active_channels`: the partitions (lanes) moved.
    pub channels: u8,
    /// Elements per partition the tensor descriptor declares.
    pub elements: u64,
}

impl StateAccess {
    /// The well-formed request for `arm` of generation `G` on `channels` lanes
    /// (UINT32, the arm's width; a save when `arm.update` is `None`).
    pub fn for_arm<G: Generation>(arm: &CheckpointArm, channels: u8) -> StateAccess {
        StateAccess {
            kind: match arm.update {
                None => CheckpointKind::Save,
                Some(_) => CheckpointKind::Restore,
            },
            generator: arm.generator,
            algorithm: arm.algorithm,
            update: arm.update,
            dtype: G::UINT32_DTYPE,
            channels,
            elements: u64::from(arm.words),
        }
    }

    /// The request a decoded instruction makes (elements: the product of the
    /// descriptor's `num_elem` over its rank).
    pub fn from_instruction(inst: &CheckpointInstruction) -> StateAccess {
        let tensor = match &inst.location {
            StateLocation::Tensor(t) => t,
            StateLocation::Immediate { tensor, .. } => tensor,
        };
        let rank = usize::from(tensor.rank).clamp(1, 4);
        StateAccess {
            kind: inst.kind,
            generator: inst.generator,
            algorithm: inst.algorithm,
            update: inst.update,
            dtype: inst.dtype,
            channels: inst.channels,
            elements: tensor.num_elem[..rank]
                .iter()
                .map(|&n| u64::from(n))
                .product(),
        }
    }
}

/// Where RAND_SET_STATE takes the words from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateSource<'a> {
    /// A tensor already read from memory: `channels × words` words, partition-major.
    Tensor(&'a [u32]),
    /// `imm_state[0..8]` (IMM_SINGLE): `[0..words]` broadcast to every active lane, `[7] == 0`.
    Immediate([u32; 8]),
}

/// Why a checkpoint operation was refused. Nothing was changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckpointError {
    /// `num_active_channels` outside `1..=max`.
    Channels {
        /// The count given.
        channels: u8,
        /// The largest legal count (`G::MAX_CHANNELS`).
        max: u8,
    },
    /// No legal arm of the generation has this engine, generator, algorithm and update.
    ArmNotLegal {
        /// Save or restore.
        kind: CheckpointKind,
        /// The engine.
        engine: Engine,
        /// `rand_generator`.
        generator: Generator,
        /// `rand_algorithm`.
        algorithm: Algorithm,
        /// `update_state`.
        update: Option<StateUpdate>,
    },
    /// The state tensor's dtype is not UINT32.
    Dtype {
        /// The dtype code found.
        found: u8,
        /// The generation's UINT32 code.
        expected: u8,
    },
    /// The tensor declares another element count than the arm's width.
    ElementCount {
        /// Elements per partition declared.
        found: u64,
        /// The arm's width.
        expected: u8,
    },
    /// Firmware mode: the firmware ships no body for this instruction, engine and algorithm.
    NotWired {
        /// Save or restore.
        kind: CheckpointKind,
        /// The engine.
        engine: Engine,
        /// `rand_algorithm`.
        algorithm: Algorithm,
    },
    /// IMM_SINGLE with `imm_state[7] != 0`.
    ImmediateWord7 {
        /// The value of `imm_state[7]`.
        value: u32,
    },
    /// The source does not match `update_state` (a tensor for IMM_SINGLE, or the reverse).
    SourceMismatch {
        /// `update_state`.
        update: Option<StateUpdate>,
    },
    /// The caller's buffer has the wrong size.
    Buffer {
        /// Words in the buffer.
        found: usize,
        /// Words the operation moves.
        needed: usize,
    },
    /// A draw from a generator the engine does not hold.
    NoBank {
        /// The engine.
        engine: Engine,
        /// `rand_generator`.
        generator: Generator,
        /// `rand_algorithm`.
        algorithm: Algorithm,
    },
    /// A draw the bank refused.
    Bank(BankError),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CheckpointError::Channels { channels, max } => {
                write!(f, "num_active_channels {channels}: must be in 1..={max}")
            }
            CheckpointError::ArmNotLegal {
                kind,
                engine,
                generator,
                algorithm,
                update,
            } => {
                write!(
                    f,
                    "{}: no legal arm for engine {}, rand_generator {}, rand_algorithm {}",
                    kind.name(),
                    engine.name(),
                    generator.name(),
                    algorithm.name()
                )?;
                match update {
                    Some(u) => write!(f, ", update_state {}", u.name()),
                    None => Ok(()),
                }
            }
            CheckpointError::Dtype { found, expected } => {
                write!(f, "state dtype {found:#x}: must be UINT32 ({expected:#x})")
            }
            CheckpointError::ElementCount { found, expected } => write!(
                f,
                "state tensor has {found} elements per partition; the arm needs {expected}"
            ),
            CheckpointError::NotWired {
                kind,
                engine: Engine::Pool,
                algorithm,
            } => write!(
                f,
                "S: {} : rand_algorithm({:#x}) not currently supported on POOL",
                kind.firmware_name(),
                algorithm.code()
            ),
            CheckpointError::NotWired {
                kind,
                engine,
                algorithm,
            } => write!(
                f,
                "{}: rand_algorithm({:#x}) has no firmware body on {}",
                kind.firmware_name(),
                algorithm.code(),
                engine.name()
            ),
            CheckpointError::ImmediateWord7 { value } => {
                write!(f, "IMM_SINGLE: imm_state[7] = {value:#x}, must be 0")
            }
            CheckpointError::SourceMismatch { update } => write!(
                f,
                "update_state {} does not match the state source given",
                update.map_or("(none)", StateUpdate::name)
            ),
            CheckpointError::Buffer { found, needed } => {
                write!(f, "buffer of {found} words; the operation moves {needed}")
            }
            CheckpointError::NoBank {
                engine,
                generator,
                algorithm,
            } => write!(
                f,
                "engine {} holds no {} / {} state",
                engine.name(),
                generator.name(),
                algorithm.name()
            ),
            CheckpointError::Bank(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for CheckpointError {}

impl From<BankError> for CheckpointError {
    fn from(e: BankError) -> Self {
        CheckpointError::Bank(e)
    }
}

/// Why a generation's constants cannot drive rng-core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenerationError {
    /// `G::MODEL` is inconsistent.
    Model(ModelError),
    /// An arm's width has no bank shape.
    Shape {
        /// The arm.
        arm: CheckpointArm,
    },
    /// Two arms of one engine, generator and algorithm disagree on the width.
    Width {
        /// The later arm.
        arm: CheckpointArm,
    },
    /// An engine needs more than [`MAX_BANKS`] banks.
    TooManyBanks {
        /// The engine.
        engine: Engine,
    },
    /// `G::MAX_CHANNELS` exceeds the lanes of a bank or the partitions of the memory.
    Channels {
        /// `G::MAX_CHANNELS`.
        max_channels: u8,
    },
}

impl fmt::Display for GenerationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerationError::Model(e) => write!(f, "MODEL: {e}"),
            GenerationError::Shape { arm } => write!(f, "arm {arm:?}: no lane state of that width"),
            GenerationError::Width { arm } => {
                write!(f, "arm {arm:?}: another arm of the same state has another width")
            }
            GenerationError::TooManyBanks { engine } => write!(
                f,
                "engine {}: more than {MAX_BANKS} distinct generator states",
                engine.name()
            ),
            GenerationError::Channels { max_channels } => write!(
                f,
                "MAX_CHANNELS {max_channels}: more than {LANES} lanes or than the memory's partitions"
            ),
        }
    }
}

impl core::error::Error for GenerationError {}

const fn same_state(a: &CheckpointArm, b: &CheckpointArm) -> bool {
    a.engine as u8 == b.engine as u8
        && a.generator as u8 == b.generator as u8
        && a.algorithm as u8 == b.algorithm as u8
}

/// Checks that `G`'s constants can drive rng-core (usable in `const` context;
/// [`EngineRng::new`] asserts it at compile time).
pub const fn check_generation<G: Generation>() -> Result<(), GenerationError> {
    if let Err(e) = G::MODEL.check() {
        return Err(GenerationError::Model(e));
    }
    if G::MAX_CHANNELS as usize > LANES || G::MAX_CHANNELS as u32 > G::MEMORY.partitions {
        return Err(GenerationError::Channels {
            max_channels: G::MAX_CHANNELS,
        });
    }
    let tables = [G::SET_STATE_ARMS, G::GET_STATE_ARMS];
    let mut t = 0;
    while t < 2 {
        let mut i = 0;
        while i < tables[t].len() {
            let arm = &tables[t][i];
            if BankShape::for_arm(arm.algorithm, arm.words).is_err() {
                return Err(GenerationError::Shape { arm: *arm });
            }
            let mut u = 0;
            while u <= t {
                let mut j = 0;
                while j < tables[u].len() && (u < t || j < i) {
                    let other = &tables[u][j];
                    if same_state(arm, other) && arm.words != other.words {
                        return Err(GenerationError::Width { arm: *arm });
                    }
                    j += 1;
                }
                u += 1;
            }
            i += 1;
        }
        t += 1;
    }
    let engines = [Engine::Pool, Engine::Dve, Engine::Act];
    let mut e = 0;
    while e < 3 {
        if banks_of::<G>(engines[e]).1 > MAX_BANKS {
            return Err(GenerationError::TooManyBanks { engine: engines[e] });
        }
        e += 1;
    }
    Ok(())
}

/// The distinct states (first arm of each) of `engine`, and how many there are.
const fn banks_of<G: Generation>(engine: Engine) -> ([Option<CheckpointArm>; MAX_BANKS], usize) {
    let mut out = [None; MAX_BANKS];
    let mut count = 0;
    let tables = [G::SET_STATE_ARMS, G::GET_STATE_ARMS];
    let mut t = 0;
    while t < 2 {
        let mut i = 0;
        while i < tables[t].len() {
            let arm = tables[t][i];
            if arm.engine as u8 == engine as u8 {
                let mut known = false;
                let mut k = 0;
                while k < count && k < MAX_BANKS {
                    if let Some(seen) = &out[k] {
                        known = known || same_state(seen, &arm);
                    }
                    k += 1;
                }
                if !known {
                    if count < MAX_BANKS {
                        out[count] = Some(arm);
                    }
                    count += 1;
                }
            }
            i += 1;
        }
        t += 1;
    }
    (out, count)
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Slot {
    generator: Generator,
    bank: Bank,
}

impl Slot {
    fn holds(&self, generator: Generator, algorithm: Algorithm) -> bool {
        self.generator == generator && self.bank.shape().algorithm() == algorithm
    }
}

/// The generator state of one engine of generation `G`: a bank per state its arms name.
#[derive(Clone, Debug)]
pub struct EngineRng<G: Generation> {
    engine: Engine,
    gate: Gate,
    slots: [Option<Slot>; MAX_BANKS],
    _generation: PhantomData<G>,
}

impl<G: Generation> PartialEq for EngineRng<G> {
    fn eq(&self, other: &Self) -> bool {
        (self.engine, self.gate, &self.slots) == (other.engine, other.gate, &other.slots)
    }
}

impl<G: Generation> Eq for EngineRng<G> {}

impl<G: Generation> EngineRng<G> {
    /// The engine in the model's power-on state ([`Bank::new`]), enforcing `gate`.
    ///
    /// Fails to compile (a post-monomorphisation error) when `G`'s constants
    /// are inconsistent; [`check_generation`] names the problem.
    pub fn new(engine: Engine, gate: Gate) -> Self {
        const {
            if check_generation::<G>().is_err() {
                panic!("rng-core: inconsistent Generation constants; call rng_core::engine::check_generation::<G>() for the reason");
            }
        }
        let (arms, _) = banks_of::<G>(engine);
        let slots = arms.map(|arm| {
            let arm = arm?;
            let shape = BankShape::for_arm(arm.algorithm, arm.words).ok()?;
            Some(Slot {
                generator: arm.generator,
                bank: Bank::new(shape, G::MODEL),
            })
        });
        EngineRng {
            engine,
            gate,
            slots,
            _generation: PhantomData,
        }
    }

    /// The engine.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The legality enforced.
    pub fn gate(&self) -> Gate {
        self.gate
    }

    /// Changes the legality enforced.
    pub fn set_gate(&mut self, gate: Gate) {
        self.gate = gate;
    }

    /// The banks, with their generator source.
    pub fn banks(&self) -> impl Iterator<Item = (Generator, &Bank)> {
        self.slots.iter().flatten().map(|s| (s.generator, &s.bank))
    }

    fn no_bank(&self, generator: Generator, algorithm: Algorithm) -> CheckpointError {
        CheckpointError::NoBank {
            engine: self.engine,
            generator,
            algorithm,
        }
    }

    fn find(&self, generator: Generator, algorithm: Algorithm) -> Result<&Bank, CheckpointError> {
        self.slots
            .iter()
            .flatten()
            .find(|s| s.holds(generator, algorithm))
            .map(|s| &s.bank)
            .ok_or(self.no_bank(generator, algorithm))
    }

    fn find_mut(
        &mut self,
        generator: Generator,
        algorithm: Algorithm,
    ) -> Result<&mut Bank, CheckpointError> {
        let missing = self.no_bank(generator, algorithm);
        self.slots
            .iter_mut()
            .flatten()
            .find(|s| s.holds(generator, algorithm))
            .map(|s| &mut s.bank)
            .ok_or(missing)
    }

    /// The bank of `generator` / `algorithm`, if the engine holds one.
    pub fn bank(&self, generator: Generator, algorithm: Algorithm) -> Option<&Bank> {
        self.find(generator, algorithm).ok()
    }

    /// The bank of `generator` / `algorithm`, mutably (direct state access, no checkpoint checks).
    pub fn bank_mut(&mut self, generator: Generator, algorithm: Algorithm) -> Option<&mut Bank> {
        self.find_mut(generator, algorithm).ok()
    }

    /// Fills every bank with states derived from `seed` ([`Bank::seed_lanes`]; not a hardware path).
    pub fn seed_lanes(&mut self, seed: u64) {
        for (k, slot) in self.slots.iter_mut().flatten().enumerate() {
            slot.bank
                .seed_lanes(seed ^ (k as u64).wrapping_mul(0xA076_1D64_78BD_642F));
        }
    }

    /// Rewrites every lane of the banks `targets` selects, in bank order (the order the
    /// generation's arm tables first name each state), lane 0 to 127, each lane's checkpoint
    /// record word by word from `next`, as RAND_SET_STATE writes a record (XORWOW gets the
    /// zero-guard). Returns the number of banks rewritten (PSEUDO_SET_RNG_SEED's effect, with
    /// `next` the model's seed expansion).
    pub fn reseed(&mut self, targets: SeedTargets, next: &mut dyn FnMut() -> u32) -> usize {
        let mut rewritten = 0;
        for slot in self.slots.iter_mut().flatten() {
            let algorithm = slot.bank.shape().algorithm();
            if targets == SeedTargets::XorwowOnly && algorithm != Algorithm::Xorwow {
                continue;
            }
            let words = slot.bank.words();
            for lane in 0..LANES {
                let mut record = [0u32; crate::bank::MAX_WORDS];
                for word in record[..words].iter_mut() {
                    *word = next();
                }
                // Lane < LANES and the record has the bank's width: cannot fail.
                let _ = slot.bank.set_lane(lane, &record[..words]);
            }
            rewritten += 1;
        }
        rewritten
    }

    /// Whether [`EngineRng::reseed`] with `targets` would rewrite any bank.
    pub fn has_seed_target(&self, targets: SeedTargets) -> bool {
        self.slots.iter().flatten().any(|s| {
            targets == SeedTargets::EveryState || s.bank.shape().algorithm() == Algorithm::Xorwow
        })
    }

    /// Checks `access` against the generation and the gate; returns the arm it executes.
    ///
    /// Order: channel range, arm legality, dtype, element count, firmware gate.
    pub fn check(&self, access: &StateAccess) -> Result<CheckpointArm, CheckpointError> {
        if access.channels == 0 || access.channels > G::MAX_CHANNELS {
            return Err(CheckpointError::Channels {
                channels: access.channels,
                max: G::MAX_CHANNELS,
            });
        }
        let arms = match access.kind {
            CheckpointKind::Save => G::GET_STATE_ARMS,
            CheckpointKind::Restore => G::SET_STATE_ARMS,
        };
        let update = match access.kind {
            CheckpointKind::Save => None,
            CheckpointKind::Restore => access.update,
        };
        let arm = arms
            .iter()
            .find(|a| {
                a.engine == self.engine
                    && a.generator == access.generator
                    && a.algorithm == access.algorithm
                    && a.update == update
            })
            .ok_or(CheckpointError::ArmNotLegal {
                kind: access.kind,
                engine: self.engine,
                generator: access.generator,
                algorithm: access.algorithm,
                update,
            })?;
        if access.dtype != G::UINT32_DTYPE {
            return Err(CheckpointError::Dtype {
                found: access.dtype,
                expected: G::UINT32_DTYPE,
            });
        }
        if access.elements != u64::from(arm.words) {
            return Err(CheckpointError::ElementCount {
                found: access.elements,
                expected: arm.words,
            });
        }
        if self.gate == Gate::Firmware
            && !G::FIRMWARE_WIRED.iter().any(|w| {
                w.kind == access.kind && w.engine == self.engine && w.algorithm == access.algorithm
            })
        {
            return Err(CheckpointError::NotWired {
                kind: access.kind,
                engine: self.engine,
                algorithm: access.algorithm,
            });
        }
        Ok(*arm)
    }

    /// RAND_GET_STATE: writes `channels × words` words into `out[..n]`
    /// (partition `p`'s record at `out[p * words..]`) and returns `n`.
    pub fn get_state(
        &self,
        access: &StateAccess,
        out: &mut [u32],
    ) -> Result<usize, CheckpointError> {
        if access.kind != CheckpointKind::Save {
            return Err(CheckpointError::SourceMismatch {
                update: access.update,
            });
        }
        let arm = self.check(access)?;
        let bank = self.find(arm.generator, arm.algorithm)?;
        let words = usize::from(arm.words);
        let needed = usize::from(access.channels) * words;
        if out.len() < needed {
            return Err(CheckpointError::Buffer {
                found: out.len(),
                needed,
            });
        }
        for (lane, chunk) in out[..needed].chunks_exact_mut(words).enumerate() {
            chunk.copy_from_slice(bank.lane(lane)?.as_slice());
        }
        Ok(needed)
    }

    /// RAND_SET_STATE: restores lanes `0..channels` from `source` (after every check).
    pub fn set_state(
        &mut self,
        access: &StateAccess,
        source: StateSource<'_>,
    ) -> Result<(), CheckpointError> {
        if access.kind != CheckpointKind::Restore {
            return Err(CheckpointError::SourceMismatch {
                update: access.update,
            });
        }
        let arm = self.check(access)?;
        let words = usize::from(arm.words);
        let channels = usize::from(access.channels);
        match (source, access.update) {
            (StateSource::Tensor(src), Some(StateUpdate::SrcTensor)) => {
                if src.len() != channels * words {
                    return Err(CheckpointError::Buffer {
                        found: src.len(),
                        needed: channels * words,
                    });
                }
            }
            (StateSource::Immediate(imm), Some(StateUpdate::ImmSingle)) => {
                if imm[7] != 0 {
                    return Err(CheckpointError::ImmediateWord7 { value: imm[7] });
                }
            }
            _ => {
                return Err(CheckpointError::SourceMismatch {
                    update: access.update,
                })
            }
        }
        let bank = self.find_mut(arm.generator, arm.algorithm)?;
        for lane in 0..channels {
            let record = match &source {
                StateSource::Tensor(src) => &src[lane * words..(lane + 1) * words],
                StateSource::Immediate(imm) => &imm[..words],
            };
            bank.set_lane(lane, record)?;
        }
        Ok(())
    }

    /// Draws `out.len()` elements for lanes `0..channels` from the bank of
    /// `generator` / `algorithm` ([`Bank::draw`]).
    pub fn draw(
        &mut self,
        generator: Generator,
        algorithm: Algorithm,
        channels: usize,
        out: &mut [LaneRow],
    ) -> Result<(), CheckpointError> {
        self.find_mut(generator, algorithm)?.draw(channels, out)?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
pub(crate) mod tests;
