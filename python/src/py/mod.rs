//! The extension module `neuron_isa._native` (PyO3, stable ABI 3.9+).
//!
//! The classes carry the Python module they are documented in (`neuron_isa`,
//! `neuron_isa.rng`); the package's `__init__.py` and `rng.py` re-export them.

use crate::gens::Gen;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

mod args;
mod arrays;
mod isa;
mod machine;
mod rng;

pyo3::create_exception!(
    neuron_isa,
    Violation,
    pyo3::exceptions::PyValueError,
    "A word the generation's validator rejects, as the Rust `isa_core::Violation` explains it.\n\n\
     `str(v)` is Rust's `Display` line; `.path` the predicate chain (a tuple of str, top-level\n\
     validator first), `.predicate` the failing predicate (its last element), `.values` a dict\n\
     of the fields it read (name -> int, enums by value) and `.members` the member names of\n\
     the enum values among them."
);

pyo3::create_exception!(
    neuron_isa,
    MachineError,
    pyo3::exceptions::PyValueError,
    "A word the machine refused: `str(e)` is `word N @ 0xOFF (NAME): why`, as\n\
     `neuron-isa run` says it; `.index`, `.offset`, `.instruction` and `.reason` are its\n\
     parts, `.executed` the words that ran before it (they keep their effects; the refused\n\
     word has none)."
);

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GENERATIONS", PyTuple::new(py, Gen::ALL.map(Gen::name))?)?;
    m.add("Violation", py.get_type::<Violation>())?;
    m.add("MachineError", py.get_type::<MachineError>())?;
    m.add_class::<isa::Generation>()?;
    m.add_class::<isa::Instruction>()?;
    m.add_class::<machine::Machine>()?;
    m.add_class::<rng::Philox4x32>()?;
    m.add_class::<rng::Xorwow>()?;
    m.add_class::<rng::Pcg32>()?;
    m.add_class::<rng::Lfsr>()?;
    m.add_class::<rng::Bank>()?;
    Ok(())
}
