//! Element types of the tensors the draw instructions write (`NEURON_ISA_TPB_DTYPE`, by member
//! name): the vocabulary's [`Dtype`], its sizes and formats.

pub use isa_core::vocab::{Dtype, DtypeClass, FloatFormat};
