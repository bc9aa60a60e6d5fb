//! An instruction word built for one engine, with the engine in its type.
//!
//! The hardware's word does not name the engine that runs it, so the generated instructions do
//! not either. A typed constructor that is checked against an engine (the checkpoint arms:
//! `RandSetState::restore::<Dve, ..>`) returns its word wrapped in [`OnEngine`], whose
//! `validate()` takes no engine and whose [`OnEngine::engine`] is the one it was built for:
//! validating or running it on another engine does not compile. [`OnEngine::into_inner`] gives
//! the engine-free word back.

use crate::arm::EngineMarker;
use crate::vocab::Engine;
use crate::{Instruction64, Violation, INST_NBYTES};
use core::fmt;
use core::marker::PhantomData;
use core::ops::Deref;

/// The validator of a typed instruction, run on the engine the marker `E` stands for.
/// Implemented by the generated crates for the instructions their checked constructors wrap.
pub trait ValidateOnEngine<E> {
    /// The header's validator, as executed by engine `E`.
    fn validate_on_engine(&self) -> Result<(), Violation>;
}

/// Instruction word `I` built for engine `E` (a marker type: `isa_core::arm::Dve`, or a
/// generation's own). Reads as the word (`Deref`), compares equal to it, and converts into it.
pub struct OnEngine<I, E> {
    word: I,
    engine: PhantomData<E>,
}

impl<I, E> OnEngine<I, E> {
    /// Tags `word` with engine `E` (the generated constructors call this after the compile-time
    /// check of the arm).
    pub const fn new(word: I) -> Self {
        OnEngine {
            word,
            engine: PhantomData,
        }
    }

    /// The engine-free word.
    pub const fn word(&self) -> &I {
        &self.word
    }

    /// The engine-free word, by value.
    pub fn into_inner(self) -> I {
        self.word
    }
}

impl<I: ValidateOnEngine<E>, E> OnEngine<I, E> {
    /// The header's validator on the engine the word was built for.
    pub fn validate(&self) -> Result<(), Violation> {
        self.word.validate_on_engine()
    }
}

impl<I, E: EngineMarker> OnEngine<I, E> {
    /// The engine the word was built for.
    pub const fn engine(&self) -> Engine {
        E::ENGINE
    }
}

impl<I: Instruction64, E> OnEngine<I, E> {
    /// The 64 bytes the hardware reads.
    pub fn to_bytes(&self) -> [u8; INST_NBYTES] {
        self.word.to_bytes()
    }
}

impl<I, E> Deref for OnEngine<I, E> {
    type Target = I;
    fn deref(&self) -> &I {
        &self.word
    }
}

// Written out rather than derived: a derive would ask the marker for the trait too.
impl<I: Clone, E> Clone for OnEngine<I, E> {
    fn clone(&self) -> Self {
        OnEngine::new(self.word.clone())
    }
}

impl<I: Copy, E> Copy for OnEngine<I, E> {}

impl<I: PartialEq, E> PartialEq for OnEngine<I, E> {
    fn eq(&self, other: &Self) -> bool {
        self.word == other.word
    }
}

impl<I: Eq, E> Eq for OnEngine<I, E> {}

impl<I: PartialEq, E> PartialEq<I> for OnEngine<I, E> {
    fn eq(&self, other: &I) -> bool {
        self.word == *other
    }
}

impl<I: core::hash::Hash, E> core::hash::Hash for OnEngine<I, E> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.word.hash(state)
    }
}

impl<I: fmt::Debug, E> fmt::Debug for OnEngine<I, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnEngine")
            .field("engine", &core::any::type_name::<E>())
            .field("word", &self.word)
            .finish()
    }
}

impl<I: fmt::Display, E> fmt::Display for OnEngine<I, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.word.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arm::{AlgorithmMarker, Dve, GeneratorMarker, Pool, RngXorwow, Xorwow};
    use crate::vocab::{Algorithm, Generator};

    #[test]
    fn markers_name_their_vocabulary_member() {
        assert_eq!(Dve::ENGINE, Engine::Dve);
        assert_eq!(Pool::ENGINE, Engine::Pool);
        assert_eq!(RngXorwow::GENERATOR, Generator::RngXorwow);
        assert_eq!(Xorwow::ALGORITHM, Algorithm::Xorwow);
    }

    #[test]
    fn a_tagged_word_reads_and_compares_as_its_word() {
        let tagged = OnEngine::<u32, Dve>::new(7);
        assert_eq!(tagged.engine(), Engine::Dve);
        assert_eq!(*tagged, 7);
        assert!(tagged == 7);
        assert_eq!(tagged, OnEngine::new(7));
        assert_eq!(tagged.into_inner(), 7);
    }
}
