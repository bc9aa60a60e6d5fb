//! `neuron_isa.Machine`: rng-core's machine (three engines and SBUF/PSUM memory) running words.

use super::args::{str_of, u32_of, value_error};
use super::arrays::{bytes_of, empty, u32_tile};
use super::rng::generation_of;
use super::MachineError;
use crate::gens::Gen;
use crate::machine::{self, Machines, Refused};
use crate::names;
use crate::words;
use isa_core::INST_NBYTES;
use pyo3::prelude::*;
use rng_core::Engine;

fn refused(py: Python<'_>, r: &Refused) -> PyErr {
    let err = MachineError::new_err(r.line());
    let set = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("index", r.index)?;
        v.setattr("offset", r.index * INST_NBYTES)?;
        v.setattr("instruction", &r.instruction)?;
        v.setattr("reason", &r.reason)?;
        v.setattr("executed", r.index)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn engine_of(obj: &Bound<'_, PyAny>) -> PyResult<Engine> {
    let text = str_of(obj, "engine")?;
    names::lookup(Engine::ALL, Engine::name, &text).ok_or_else(|| {
        value_error(format!(
            "engine={text:?} holds no generator state in the model; the machine's engines are {}",
            names::choices(Engine::ALL, Engine::name)
        ))
    })
}

/// rng-core's machine of a generation: the three engines that hold generator state (POOL,
/// DVE, ACT) in the model's power-on state, and zeroed SBUF/PSUM memory.
///
/// `Machine("mariana", engine="dve")`: `engine` is the default queue words run on; without
/// one, `run` uses the one engine that can run every word of the program, as `neuron-isa run`
/// chooses. RAND, RAND2, DROPOUT, PSEUDO_SET_RNG_SEED and the checkpoint pair execute.
#[pyclass(module = "neuron_isa", name = "Machine")]
pub struct Machine {
    inner: Box<dyn Machines>,
    gen: Gen,
    engine: Option<Engine>,
}

#[pymethods]
impl Machine {
    #[new]
    #[pyo3(signature = (generation, engine=None))]
    fn new(generation: &Bound<'_, PyAny>, engine: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let gen = generation_of(generation)?;
        let engine = engine.map(engine_of).transpose()?;
        Ok(Machine {
            inner: machine::machine(gen),
            gen,
            engine,
        })
    }

    /// Runs `program` (bytes-like, whole 64-byte words) word by word on `engine` (or the
    /// machine's default queue, or the one engine that runs every word); returns the number of
    /// words run.
    ///
    /// A word the machine refuses raises `neuron_isa.MachineError` naming its index, byte
    /// offset and why (the words before it keep their effects; the refused one has none). A
    /// partial word raises ValueError before anything runs.
    #[pyo3(signature = (program, engine=None))]
    fn run(
        &mut self,
        py: Python<'_>,
        program: &Bound<'_, PyAny>,
        engine: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let bytes = bytes_of(program, "program")?;
        let stream = bytes.as_slice();
        words::whole_words(stream).map_err(value_error)?;
        let program: Vec<[u8; INST_NBYTES]> = stream
            .chunks_exact(INST_NBYTES)
            .map(|w| w.try_into().expect("whole words"))
            .collect();
        let engine = match (engine.map(engine_of).transpose()?, self.engine) {
            (Some(e), _) | (None, Some(e)) => e,
            (None, None) if program.is_empty() => return Ok(0),
            (None, None) => self.inner.placement(&program).map_err(value_error)?,
        };
        self.inner
            .run(&program, engine)
            .map_err(|r| refused(py, &r))?;
        Ok(program.len())
    }

    /// The region of `channels` partitions of `words` u32 words from byte address `addr` (in
    /// the partition it falls in, and the following ones): a numpy uint32 array of shape
    /// `(channels, words)`, what `neuron-isa run --dump ADDR:CHANNELS:WORDS` prints.
    fn read<'py>(
        &self,
        py: Python<'py>,
        addr: &Bound<'py, PyAny>,
        channels: &Bound<'py, PyAny>,
        words: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let region = self
            .inner
            .region(
                u32_of(addr, "addr")?,
                u32_of(channels, "channels")?,
                u32_of(words, "words")?,
            )
            .map_err(value_error)?;
        let (c, w) = (region.channels as usize, region.words as usize);
        let (array, ptr) = empty(py, &[c, w], "uint32")?;
        // SAFETY: a fresh uint32 array of `c × w` elements, alive meanwhile.
        let out = unsafe { core::slice::from_raw_parts_mut(ptr.cast::<u32>(), c * w) };
        for p in 0..region.channels {
            for k in 0..region.words {
                out[p as usize * w + k as usize] = self.inner.load(region.address(p, k));
            }
        }
        Ok(array)
    }

    /// Writes a 2-D array of uint32 values, shape `(channels, words)`, at byte address `addr`:
    /// row `p` to the partition `p` after `addr`'s, from the same offset (the twin of `read`).
    fn write(&mut self, addr: &Bound<'_, PyAny>, array: &Bound<'_, PyAny>) -> PyResult<()> {
        let addr = u32_of(addr, "addr")?;
        let (values, (rows, cols)) = u32_tile(array, "array", None)?;
        let region = self
            .inner
            .region(addr, rows as u32, cols as u32)
            .map_err(value_error)?;
        for p in 0..region.channels {
            for k in 0..region.words {
                let value = values[p as usize * cols + k as usize];
                self.inner.store(region.address(p, k), value);
            }
        }
        Ok(())
    }

    /// The generation's name.
    #[getter]
    fn generation(&self) -> &'static str {
        self.gen.name()
    }

    /// The default engine queue (`"DVE"`), or None.
    #[getter]
    fn engine(&self) -> Option<&'static str> {
        self.engine.map(Engine::name)
    }

    fn __repr__(&self) -> String {
        match self.engine {
            Some(e) => format!(
                "Machine({:?}, engine={:?})",
                self.gen.name(),
                names::spelling(e.name())
            ),
            None => format!("Machine({:?})", self.gen.name()),
        }
    }
}
