//! Marker types of the type-level legality layer, shared by every generation: one type per
//! member of the vocabulary's engines, generator sources, algorithms and state updates
//! ([`crate::vocab`], one table per enum), each implementing its vocabulary's marker trait
//! (`Dve: EngineMarker` with `Dve::ENGINE == Engine::Dve`).
//!
//! A generated crate re-exports, in its own `arm` module, the markers of the members its
//! tree has (`isa_mariana::arm::Dve` is `isa_core::arm::Dve`; SUNDA, without XORWOW, has no
//! `isa_sunda::arm::Xorwow`), implements its own sealed marker traits and legality traits for
//! them, and declares its own marker for a member the vocabulary has no entry for (`Pe`).
//! Because the types are shared, one generic function names an arm once for every generation.

pub use crate::vocab::algorithm_markers::*;
pub use crate::vocab::engine_markers::*;
pub use crate::vocab::generator_markers::*;
pub use crate::vocab::state_update_markers::*;
