//! The memories an operand's start address is known to lie in, as types.
//!
//! A validator passes each tensor operand's start-address check `AllowedInSBUF` and
//! `AllowedInPSUM`; the generator reads those arguments off every validator and gives an
//! operand the validator restricts to SBUF a parameter of a type that proves SBUF. A state
//! tensor carries what it proves as a marker type parameter: [`Sbuf`] when it was built from a
//! checked SBUF address, [`AnySpace`] when it may lie in either memory (a PSUM address, a raw
//! immediate, an address register). An SBUF-only operand accepts only [`Sbuf`], through a trait
//! of the generation whose message names the generation, the instruction and the operand; an
//! operand that accepts either memory takes any [`Space`].

use core::fmt::Debug;
use core::hash::Hash;

mod sealed {
    pub trait Sealed {}
}

/// What a type proves about the memory a start address lies in (sealed: [`Sbuf`] and
/// [`AnySpace`]).
pub trait Space: sealed::Sealed + Copy + Debug + Eq + Hash + Default + 'static {}

/// Checked to lie in SBUF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Sbuf;

/// In SBUF or PSUM, or not known before run time (an address register, a raw immediate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct AnySpace;

impl sealed::Sealed for Sbuf {}
impl sealed::Sealed for AnySpace {}

impl Space for Sbuf {}
impl Space for AnySpace {}
