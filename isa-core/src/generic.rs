//! The typed layer for code generic over the generation: one lowering written once as
//! `fn kernel<G: ..>()`, built from the same typed constructors as the per-generation crates,
//! with every compile-time check held by the bounds in its signature.
//!
//! Each generated crate implements these traits for its generation type (`isa_mariana::Mariana`)
//! by blanket impls over its own legality traits, so a bound the generation does not meet fails
//! with that crate's message at the call of the kernel:
//!
//! * [`Typed`]: the operand types of the generation (tensor start address, state tensor,
//!   tensor access patterns, element types) and the checkpoint instructions, with
//!   [`Typed::restore`], [`Typed::seed_immediate`] and [`Typed::save`] taking the arm as type
//!   parameters, as `RandSetState::restore::<Dve, RngXorwow, Xorwow, 24>` does;
//! * [`RestoreArm`], [`SeedArm`], [`SaveArm`]: the legal checkpoint arms with their width.
//!   `G: RestoreArm<(Dve, RngXorwow, Xorwow), 24>` holds exactly when the generation's
//!   `LegalRandSetState<24>` holds for `(Dve, RngXorwow, Xorwow, SrcTensor)`; otherwise rustc
//!   reports that obligation with the generation's message, naming it and listing its arms;
//! * one trait per typed constructor of the draw family ([`GENERIC_CONSTRUCTORS`]). A generation
//!   whose tree lacks the instruction, or whose validator admits no word of that form,
//!   implements it only under a where clause that never holds (a trait of its own, implemented
//!   by nothing, word [`Absent`]): the bound fails with that trait's message, naming the
//!   generation and the reason the generator found (`SUNDA has no RAND2 `new`: its header
//!   tree has no RAND2 opcode`).
//!
//! Markers are the shared ones of [`crate::arm`]; engines convert with [`Typed::engine`].

use crate::arm::{Act, Dve, Pool};
use crate::construct::{Param, ParamKind};
use crate::space::{AnySpace, Sbuf, Space};
use crate::vocab::{Dtype, Engine, NoCounterpart, ThresholdType};
use crate::{
    AddressError, DecodeError, DecodeErrorKind, Immediate, Instruction64, Isa, OnEngine,
    TensorError, ValidateOnEngine, INST_NBYTES,
};
use core::fmt::{Debug, Display};
use core::hash::Hash;

/// An arm as a tuple of markers, engine first.
pub trait Arm {
    /// The arm's engine marker.
    type Engine;
}

impl<E, G, A> Arm for (E, G, A) {
    type Engine = E;
}

/// What generic code does with a typed instruction word: encode it, compare it, print it.
pub trait TypedWord: Instruction64 + Copy + Eq + Hash + Debug + Display + 'static {}

impl<T: Instruction64 + Copy + Eq + Hash + Debug + Display + 'static> TypedWord for T {}

/// The word of a constructor a generation lacks: no value exists. A generation implements the
/// constructor's trait with this word only under a where clause that never holds (a trait of its
/// own, implemented by nothing, whose message names the generation and the reason), so the
/// bound fails with that message where a kernel is instantiated, and nothing can be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Absent {}

impl Instruction64 for Absent {
    const OPCODE: u8 = 0;
    const NAME: &'static str = "";
    fn to_bytes(&self) -> [u8; INST_NBYTES] {
        match *self {}
    }
    /// No word decodes as an absent instruction.
    fn from_bytes(bytes: &[u8; INST_NBYTES]) -> Result<Self, DecodeError> {
        Err(DecodeError {
            field: "opcode",
            offset: 0,
            value: u64::from(bytes[0]),
            kind: DecodeErrorKind::UnmappedOpcode,
        })
    }
}

impl Display for Absent {
    fn fmt(&self, _: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {}
    }
}

/// A checkpoint word validates on every engine that keeps RNG state, named by its marker.
pub trait CheckpointWord:
    TypedWord + ValidateOnEngine<Pool> + ValidateOnEngine<Dve> + ValidateOnEngine<Act>
{
}

impl<T> CheckpointWord for T where
    T: TypedWord + ValidateOnEngine<Pool> + ValidateOnEngine<Dve> + ValidateOnEngine<Act>
{
}

/// A generation's typed layer, as generic code sees it.
pub trait Typed: Isa {
    /// A tensor's start address in either memory (`TensorAddress`).
    type Address: Copy + Debug + Eq + Hash;
    /// A start address checked to lie in SBUF (`SbufAddress`), what an SBUF-only operand takes.
    type SbufAddress: Copy + Debug + Eq + Hash + Into<Self::Address>;
    /// A checkpoint instruction's state tensor of `N` words per partition, of space `S`
    /// (`StateTensor<N, S>`): [`Sbuf`] when built from an SBUF address, [`AnySpace`] when it may
    /// lie in either memory.
    type StateTensor<const N: usize, S: Space>: Copy + Debug + Eq;
    /// A 2-D access pattern (`Tensor2d`).
    type Tensor2d: Copy + Debug;
    /// A 3-D access pattern (`Tensor3d`).
    type Tensor3d: Copy + Debug;
    /// A 4-D access pattern (`Tensor4d`).
    type Tensor4d: Copy + Debug;
    /// The element-type enum (`Dtype`).
    type Dtype: Copy + Debug + Eq;
    /// RAND_SET_STATE.
    type RandSetState: CheckpointWord + Into<Self::Instruction>;
    /// RAND_GET_STATE.
    type RandGetState: CheckpointWord + Into<Self::Instruction>;

    /// Byte `byte_offset` of SBUF partition `partition`, checked against the address map.
    fn sbuf(partition: u32, byte_offset: u32) -> Result<Self::SbufAddress, AddressError>;
    /// The state tensor of `N` words at an SBUF address, words contiguous
    /// (`StateTensor::from(SbufAddress)`): the source every generation's RAND_SET_STATE takes.
    fn state_tensor<const N: usize>(start: Self::SbufAddress) -> Self::StateTensor<N, Sbuf>;
    /// The state tensor of `N` words at an address in either memory, words contiguous
    /// (`StateTensor::from(TensorAddress)`).
    fn state_tensor_at<const N: usize>(start: Self::Address) -> Self::StateTensor<N, AnySpace>;
    /// The address's 4 bytes as a little-endian word (an immediate address is the byte address
    /// a machine's memory is read at).
    fn address_word(address: impl Into<Self::Address>) -> u32;
    /// `num_elem` elements laid out contiguously from `start` (`Tensor2d::contiguous`).
    fn tensor2d(
        start: impl Into<Self::Address>,
        num_elem: [u16; 2],
    ) -> Result<Self::Tensor2d, TensorError>;
    /// `num_elem` elements laid out contiguously from `start` (`Tensor3d::contiguous`).
    fn tensor3d(
        start: impl Into<Self::Address>,
        num_elem: [u16; 3],
    ) -> Result<Self::Tensor3d, TensorError>;
    /// `num_elem` elements laid out contiguously from `start` (`Tensor4d::contiguous`).
    fn tensor4d(
        start: impl Into<Self::Address>,
        num_elem: [u16; 4],
    ) -> Result<Self::Tensor4d, TensorError>;
    /// The generation's member of an element type (an error when its tree has none).
    fn dtype(d: Dtype) -> Result<Self::Dtype, NoCounterpart>;
    /// The generation's engine of the vocabulary's (every generation has POOL, DVE and ACT).
    fn engine(e: Engine) -> Self::Engine;

    /// RAND_SET_STATE restoring arm `(E, Gn, Al)` from a tensor (`SRC_TENSOR`) in SBUF, `N`
    /// words per partition, as `RandSetState::restore::<E, Gn, Al, N>`. A source that may lie
    /// in PSUM goes through [`RestoreArm::restore_arm`] with the space in the bound,
    /// `G: RestoreArm<A, N, AnySpace>`, which a generation whose validator allows the source
    /// SBUF only does not meet (its message names the generation and says "SBUF only").
    fn restore<E, Gn, Al, const N: usize>(
        src: Self::StateTensor<N, Sbuf>,
        num_active_channels: u8,
    ) -> OnEngine<Self::RandSetState, E>
    where
        Self: RestoreArm<(E, Gn, Al), N>,
    {
        <Self as RestoreArm<(E, Gn, Al), N>>::restore_arm(src, num_active_channels)
    }

    /// RAND_SET_STATE loading one inline state for every lane (`IMM_SINGLE`), as
    /// `RandSetState::seed_immediate::<E, Gn, Al, N>`.
    fn seed_immediate<E, Gn, Al, const N: usize>(
        state: [u32; N],
        num_active_channels: u8,
    ) -> OnEngine<Self::RandSetState, E>
    where
        Self: SeedArm<(E, Gn, Al), N>,
    {
        <Self as SeedArm<(E, Gn, Al), N>>::seed_arm(state, num_active_channels)
    }

    /// RAND_GET_STATE saving arm `(E, Gn, Al)` into a tensor in SBUF, as
    /// `RandGetState::save::<E, Gn, Al, N>` (a destination in either memory goes through
    /// [`SaveArm::save_arm`] with `G: SaveArm<A, N, AnySpace>`). Conjuncts of the validator
    /// that depend on the engine, not on the tensor's type, are checked when the word is
    /// validated.
    fn save<E, Gn, Al, const N: usize>(
        dst: Self::StateTensor<N, Sbuf>,
        num_active_channels: u8,
    ) -> OnEngine<Self::RandGetState, E>
    where
        Self: SaveArm<(E, Gn, Al), N>,
    {
        <Self as SaveArm<(E, Gn, Al), N>>::save_arm(dst, num_active_channels)
    }
}

/// A legal RAND_SET_STATE arm restoring from a tensor of space `S`, with its width `N`
/// (implemented from the generation's `LegalRandSetState<N>` and, where its validator allows
/// the source SBUF only, the generation's trait saying so, which only [`Sbuf`] implements).
pub trait RestoreArm<A: Arm, const N: usize, S: Space = Sbuf>: Typed {
    /// The word, tagged with the arm's engine.
    fn restore_arm(
        src: Self::StateTensor<N, S>,
        num_active_channels: u8,
    ) -> OnEngine<Self::RandSetState, A::Engine>;
}

/// A legal RAND_SET_STATE arm loading an inline state (`IMM_SINGLE`), with its width `N`.
pub trait SeedArm<A: Arm, const N: usize>: Typed {
    /// The word, tagged with the arm's engine.
    fn seed_arm(
        state: [u32; N],
        num_active_channels: u8,
    ) -> OnEngine<Self::RandSetState, A::Engine>;
}

/// A legal RAND_GET_STATE arm saving into a tensor of space `S`, with its width `N` (from the
/// generation's `LegalRandGetState<N>`, and its SBUF-only trait where the validator restricts
/// the destination).
pub trait SaveArm<A: Arm, const N: usize, S: Space = Sbuf>: Typed {
    /// The word, tagged with the arm's engine.
    fn save_arm(
        dst: Self::StateTensor<N, S>,
        num_active_channels: u8,
    ) -> OnEngine<Self::RandGetState, A::Engine>;
}

/// One trait of this module standing for a typed constructor: the instruction, the function,
/// and the parameters a generation's constructor must have for the generator to implement it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenericConstructor {
    /// The trait's name in this module (`"Rand2Uniform"`).
    pub trait_name: &'static str,
    /// The opcode's vendor name (`"RAND2"`).
    pub instruction: &'static str,
    /// The typed constructor (`"new"`).
    pub function: &'static str,
    /// The trait's method (`"rand2"`): distinct across the traits, so `G::rand2(..)` needs no
    /// qualification.
    pub method: &'static str,
    /// Its parameters, in order, as [`crate::construct::Construct`] lists them.
    pub params: &'static [Param],
}

const fn p(name: &'static str, kind: ParamKind) -> Param {
    Param { name, kind }
}

const TENSOR2: ParamKind = ParamKind::Tensor { rank: 2 };
const TENSOR3: ParamKind = ParamKind::Tensor { rank: 3 };
const LANES: ParamKind = ParamKind::Lanes;
const DTYPE: ParamKind = ParamKind::Dtype;
const IMM: ParamKind = ParamKind::Immediate;

/// The traits of the draw family's constructors, which the generator implements for a
/// generation whose constructor of that name has exactly these parameters.
pub const GENERIC_CONSTRUCTORS: &[GenericConstructor] = &[
    GenericConstructor {
        trait_name: "Rand2Uniform",
        instruction: "RAND2",
        function: "new",
        method: "rand2",
        params: &[
            p("dst", TENSOR3),
            p("num_active_channels", LANES),
            p("dtype", DTYPE),
            p("min", IMM),
            p("max", IMM),
        ],
    },
    GenericConstructor {
        trait_name: "DropoutMask",
        instruction: "DROPOUT",
        function: "new",
        method: "dropout",
        params: &[
            p("src", TENSOR3),
            p("dst", TENSOR3),
            p("num_active_channels", LANES),
            p("in_dtype", DTYPE),
            p("threshold_dtype", DTYPE),
            p("threshold", IMM),
            p(
                "threshold_type",
                ParamKind::Enum {
                    name: "NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE",
                },
            ),
        ],
    },
    GenericConstructor {
        trait_name: "SetRngSeed",
        instruction: "PSEUDO_SET_RNG_SEED",
        function: "new",
        method: "set_rng_seed",
        params: &[p("seed", IMM)],
    },
    GenericConstructor {
        trait_name: "PeLoadSeed",
        instruction: "PE_MANAGE_SEED",
        function: "load_seed",
        method: "load_seed",
        params: &[p("src_seed", TENSOR2), p("identity_dtype", DTYPE)],
    },
    GenericConstructor {
        trait_name: "PeSaveSeed",
        instruction: "PE_MANAGE_SEED",
        function: "save_seed",
        method: "save_seed",
        params: &[p("identity_dtype", DTYPE)],
    },
];

/// RAND2 drawing uniform values in `[min, max)` (`Rand2::new`).
pub trait Rand2Uniform: Typed {
    /// The instruction.
    type Word: TypedWord + Into<Self::Instruction>;
    /// `Rand2::new`.
    fn rand2(
        dst: Self::Tensor3d,
        num_active_channels: u8,
        dtype: Self::Dtype,
        min: Immediate,
        max: Immediate,
    ) -> Self::Word;
}

/// DROPOUT (`Dropout::new`).
pub trait DropoutMask: Typed {
    /// The instruction.
    type Word: TypedWord + Into<Self::Instruction>;
    /// `Dropout::new`.
    #[allow(clippy::too_many_arguments)]
    fn dropout(
        src: Self::Tensor3d,
        dst: Self::Tensor3d,
        num_active_channels: u8,
        in_dtype: Self::Dtype,
        threshold_dtype: Self::Dtype,
        threshold: Immediate,
        threshold_type: ThresholdType,
    ) -> Self::Word;
}

/// The SET_RNG_SEED pseudo-instruction (`PseudoSetRngSeed::new`).
pub trait SetRngSeed: Typed {
    /// The instruction.
    type Word: TypedWord + Into<Self::Instruction>;
    /// `PseudoSetRngSeed::new`.
    fn set_rng_seed(seed: Immediate) -> Self::Word;
}

/// PE_MANAGE_SEED loading the PE seeds from SBUF (`PeManageSeed::load_seed`).
pub trait PeLoadSeed: Typed {
    /// The instruction.
    type Word: TypedWord + Into<Self::Instruction>;
    /// `PeManageSeed::load_seed`.
    fn load_seed(src_seed: Self::Tensor2d, identity_dtype: Self::Dtype) -> Self::Word;
}

/// PE_MANAGE_SEED saving the PE seeds to the start of PSUM (`PeManageSeed::save_seed`).
pub trait PeSaveSeed: Typed {
    /// The instruction.
    type Word: TypedWord + Into<Self::Instruction>;
    /// `PeManageSeed::save_seed`.
    fn save_seed(identity_dtype: Self::Dtype) -> Self::Word;
}
