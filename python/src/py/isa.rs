//! `neuron_isa.Generation` (the per-generation objects `ni.mariana`, ...) and
//! `neuron_isa.Instruction`.

use super::args::{
    f32_of, member_of, str_of, type_error, u16_of, u32_of, u8_of, value_error, words_of,
};
use super::arrays::{bytes_of, empty, SendPtr};
use super::Violation;
use crate::construct::{self, Call, Checkpoint, Tensor, Value as Arg};
use crate::gens::Gen;
use crate::names;
use crate::words::{self, Failure, Invalid, Value};
use isa_core::{Immediate, INST_NBYTES};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use rng_core::{Algorithm, CheckpointKind, Engine, Generator, StateUpdate};

/// The `Violation` exception for a failed validation.
pub fn violation(py: Python<'_>, f: &Failure) -> PyErr {
    let err = Violation::new_err(f.text.clone());
    let set = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("path", PyTuple::new(py, &f.path)?)?;
        v.setattr("predicate", f.predicate)?;
        let values = PyDict::new(py);
        let members = PyDict::new(py);
        for (name, value, member) in &f.values {
            values.set_item(*name, *value)?;
            if let Some(m) = member {
                members.set_item(*name, *m)?;
            }
        }
        v.setattr("values", values)?;
        v.setattr("members", members)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

fn invalid(py: Python<'_>, e: Invalid) -> PyErr {
    match e {
        Invalid::Engine(m) | Invalid::Decode(m) => value_error(m),
        Invalid::Violation(f) => violation(py, &f),
    }
}

fn to_python<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::Float(f) => f.into_pyobject(py)?.into_any(),
        Value::Member(m) => m.into_pyobject(py)?.into_any(),
        Value::Bytes(b) => PyBytes::new(py, b).into_any(),
        Value::List(items) => {
            let items: Vec<_> = items
                .iter()
                .map(|i| to_python(py, i))
                .collect::<PyResult<_>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Record(fields) => record(py, fields)?.into_any(),
    })
}

fn record<'py>(py: Python<'py>, fields: &[(String, Value)]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, value) in fields {
        d.set_item(name, to_python(py, value)?)?;
    }
    Ok(d)
}

/// One 64-byte instruction word of a generation, decoded.
///
/// Made by a generation's constructors (`m.rand2(...)`) or its `decode`; immutable, hashable,
/// equal when the generation and the bytes are. `str(w)` is the Rust `Display` line (the
/// one-line disassembly), `bytes(w)` and `w.to_bytes()` the 64 bytes.
#[pyclass(frozen, module = "neuron_isa", name = "Instruction")]
pub struct Instruction {
    gen: Gen,
    word: [u8; INST_NBYTES],
}

#[pymethods]
impl Instruction {
    /// The 64 bytes of the word (what the hardware reads).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.word)
    }

    /// The 64 bytes of the word, as `to_bytes()`.
    fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.word)
    }

    /// The Rust `Display` line: the opcode name, then every field that is not zero as
    /// `name=value` (enums by member name).
    fn __str__(&self) -> String {
        words::display(self.gen, &self.word)
    }

    fn __repr__(&self) -> String {
        format!(
            "<neuron_isa.Instruction {}: {}>",
            self.gen.name(),
            words::display(self.gen, &self.word)
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Instruction>()
            .is_ok_and(|o| o.get().gen == self.gen && o.get().word == self.word)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.gen, self.word).hash(&mut h);
        h.finish()
    }

    /// Pickles as `neuron_isa.generation(name).decode(bytes)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let decode = py
            .import("neuron_isa")?
            .getattr("generation")?
            .call1((self.gen.name(),))?
            .getattr("decode")?;
        PyTuple::new(
            py,
            [
                decode,
                PyTuple::new(py, [PyBytes::new(py, &self.word)])?.into_any(),
            ],
        )
    }

    /// The generation's name (`"mariana"`).
    #[getter]
    fn generation(&self) -> &'static str {
        self.gen.name()
    }

    /// The opcode's vendor name (`"RAND2"`).
    #[getter]
    fn opcode(&self) -> String {
        words::opcode_name(self.gen, self.word[0])
    }

    /// Every field by name, from the generated `FIELDS` table: a dict of field name -> int,
    /// float, enum member name (str), bytes (reserved space), list (arrays) or nested dict
    /// (records such as `header` or `dst_mem_pattern`).
    #[getter]
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        record(py, &words::fields(self.gen, &self.word))
    }

    /// Runs the generation's validator (translated from the header's spec) over the word as
    /// executed by `engine` (`"dve"`, `"POOL"`, ...: a `NeuronEngine` member).
    ///
    /// Returns None when the word is legal there; raises `neuron_isa.Violation` (a ValueError)
    /// naming the failing predicate, its path and the fields it read when it is not, and
    /// ValueError for an engine the generation does not have.
    fn validate(&self, py: Python<'_>, engine: &Bound<'_, PyAny>) -> PyResult<()> {
        let engine = str_of(engine, "engine")?;
        words::validate(self.gen, &self.word, &engine).map_err(|e| invalid(py, e))
    }
}

/// The constructor values shared by the draw family's tensor outputs.
fn out_values(
    dst: &Bound<'_, PyAny>,
    channels: Option<&Bound<'_, PyAny>>,
    elems: &Bound<'_, PyAny>,
) -> PyResult<Vec<(&'static str, Arg)>> {
    Ok(vec![
        ("dst", tensor(dst, "dst", elems)?),
        ("num_active_channels", Arg::Lanes(lanes(channels)?)),
    ])
}

fn tensor(addr: &Bound<'_, PyAny>, what: &str, elems: &Bound<'_, PyAny>) -> PyResult<Arg> {
    Ok(Arg::Tensor(Tensor {
        addr: u32_of(addr, what)?,
        elems: u16_of(elems, "elems")?,
    }))
}

/// `channels`, 128 when not given (as `--channels`).
fn lanes(channels: Option<&Bound<'_, PyAny>>) -> PyResult<u8> {
    channels.map_or(Ok(128), |c| u8_of(c, "channels"))
}

/// A dtype or member name (`fp32` → `FP32`), `default` when not given.
fn member(obj: Option<&Bound<'_, PyAny>>, what: &str, default: &str) -> PyResult<Arg> {
    let text = match obj {
        Some(o) => str_of(o, what)?,
        None => default.to_string(),
    };
    Ok(Arg::Member(names::vendor_form(&text)))
}

/// The arm arguments of the checkpoint constructors.
fn arm(
    engine: &Bound<'_, PyAny>,
    generator: &Bound<'_, PyAny>,
    algorithm: &Bound<'_, PyAny>,
) -> PyResult<(Engine, Generator, Algorithm)> {
    Ok((
        member_of(engine, "engine", Engine::ALL, Engine::name)?,
        member_of(generator, "generator", Generator::ALL, Generator::name)?,
        member_of(algorithm, "algorithm", Algorithm::ALL, Algorithm::name)?,
    ))
}

/// One NeuronCore generation: its instruction constructors, decoder, validators, legality
/// tables and engine placement, over the generated crate `isa-<generation>`.
///
/// `neuron_isa.sunda`, `.cayman`, `.mariana` and `.maverick` are the four instances
/// (`neuron_isa.generation(name)` returns them too). The constructors take the values of
/// `neuron-isa encode`'s flags, by the same names: an address is the raw ADDR4 start address
/// (SBUF partition p byte b is p * partition size + b), a tensor `elems` contiguous elements
/// per partition, `channels` the lanes (`num_active_channels`), numbers are rounded to fp32,
/// and names are vendor member names in either spelling (`"fp32"` or `"FP32"`, `"rng-xorwow"`
/// or `"RNG_XORWOW"`). Like `encode`, they do not validate: call `w.validate(engine)`. An
/// instruction the generation lacks raises ValueError naming the generation.
#[pyclass(frozen, module = "neuron_isa", name = "Generation")]
pub struct Generation {
    gen: Gen,
}

impl Generation {
    fn word(&self, word: [u8; INST_NBYTES]) -> Instruction {
        Instruction {
            gen: self.gen,
            word,
        }
    }

    fn draw(&self, call: Call) -> PyResult<Instruction> {
        construct::construct(self.gen, &call)
            .map(|w| self.word(w))
            .map_err(value_error)
    }

    /// A constructor of a tensor output with an element type: `dst`, `elems`, `channels`,
    /// `dtype` (default `dtype`) and, for the ranged ones, `min` and `max`.
    #[allow(clippy::too_many_arguments)]
    fn output(
        &self,
        (method, instruction, function): (&'static str, &'static str, &'static str),
        dst: &Bound<'_, PyAny>,
        elems: &Bound<'_, PyAny>,
        channels: Option<&Bound<'_, PyAny>>,
        dtype: (Option<&Bound<'_, PyAny>>, &str),
        range: Option<(&Bound<'_, PyAny>, &Bound<'_, PyAny>)>,
    ) -> PyResult<Instruction> {
        let mut values = out_values(dst, channels, elems)?;
        values.push(("dtype", member(dtype.0, "dtype", dtype.1)?));
        if let Some((min, max)) = range {
            values.push(("min", Arg::Number(f32_of(min, "min")?)));
            values.push(("max", Arg::Number(f32_of(max, "max")?)));
        }
        self.draw(Call {
            method,
            instruction,
            function,
            values,
        })
    }

    fn checkpoint(&self, c: &Checkpoint) -> PyResult<Instruction> {
        construct::checkpoint(self.gen, c)
            .map(|w| self.word(w))
            .map_err(value_error)
    }

    fn decode_word(&self, word: &[u8], offset: Option<usize>) -> PyResult<Instruction> {
        let at = offset.map_or(String::new(), |o| format!(" at offset {o:#x}"));
        let word: [u8; INST_NBYTES] = word.try_into().map_err(|_| {
            value_error(format!(
                "{} bytes where an instruction word is {INST_NBYTES} bytes",
                word.len()
            ))
        })?;
        words::check(self.gen, &word).map_err(|e| {
            value_error(format!(
                "the word{at} is not a {} instruction: {e}",
                self.gen.vendor_name()
            ))
        })?;
        Ok(self.word(word))
    }
}

#[pymethods]
impl Generation {
    /// The generation named `name` (`"mariana"` or `"MARIANA"`).
    #[new]
    fn new(name: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = str_of(name, "name")?;
        let gen = Gen::from_name(&text).ok_or_else(|| {
            value_error(format!(
                "no generation {text:?}; the generations are {}",
                Gen::choices()
            ))
        })?;
        Ok(Generation { gen })
    }

    /// The generation's name (`"mariana"`).
    #[getter]
    fn name(&self) -> &'static str {
        self.gen.name()
    }

    /// The class of this generation's instruction words (`neuron_isa.Instruction`; its
    /// `generation` attribute names the generation).
    #[getter(Instruction)]
    fn instruction_class<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyType> {
        py.get_type::<Instruction>()
    }

    /// The generation's engines (`NeuronEngine` members, vendor names).
    #[getter]
    fn all_engines<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, words::engine_names(self.gen))
    }

    fn __repr__(&self) -> String {
        format!("<neuron_isa generation {}>", self.gen.name())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Generation>()
            .is_ok_and(|o| o.get().gen == self.gen)
    }

    fn __hash__(&self) -> u64 {
        self.gen as u64
    }

    /// Pickles as `neuron_isa.generation(name)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let generation = py.import("neuron_isa")?.getattr("generation")?;
        PyTuple::new(
            py,
            [generation, PyTuple::new(py, [self.gen.name()])?.into_any()],
        )
    }

    /// Decodes one 64-byte word by its opcode byte.
    ///
    /// `buf` is bytes, bytearray, memoryview or a uint8 ndarray of exactly 64 bytes. Raises
    /// ValueError for another length, an opcode the generation lacks, an enum field out of
    /// range or nonzero padding (the Rust `DecodeError`, which names the field, offset and
    /// value), and TypeError for anything that is not bytes-like.
    fn decode(&self, buf: &Bound<'_, PyAny>) -> PyResult<Instruction> {
        let bytes = bytes_of(buf, "buf")?;
        self.decode_word(bytes.as_slice(), None)
    }

    /// Decodes a stream of 64-byte words: a list of `(byte offset, Instruction)`.
    ///
    /// A stream whose length is not a multiple of 64 (a partial tail) raises ValueError naming
    /// the tail's length and offset, and so does a word that does not decode (naming its
    /// offset); nothing is returned then.
    fn decode_stream<'py>(
        &self,
        py: Python<'py>,
        buf: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let bytes = bytes_of(buf, "buf")?;
        let stream = bytes.as_slice();
        words::whole_words(stream).map_err(value_error)?;
        let mut out = Vec::with_capacity(stream.len() / INST_NBYTES);
        for (k, word) in stream.chunks_exact(INST_NBYTES).enumerate() {
            let offset = k * INST_NBYTES;
            out.push((offset, self.decode_word(word, Some(offset))?));
        }
        PyList::new(py, out)
    }

    /// Decodes and validates every 64-byte word of `buf` as executed by `engine`, in one call:
    /// a numpy bool array, True where the word decodes and its validator accepts it.
    ///
    /// `buf` is bytes-like (bytes are read in place, without the GIL); a partial tail raises
    /// ValueError, as does an engine the generation does not have.
    fn validate_stream<'py>(
        &self,
        py: Python<'py>,
        buf: &Bound<'py, PyAny>,
        engine: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let engine = str_of(engine, "engine")?;
        let bytes = bytes_of(buf, "buf")?;
        let n = words::whole_words(bytes.as_slice()).map_err(value_error)?;
        let (array, ptr) = empty(py, &[n], "bool")?;
        let gen = self.gen;
        let out = SendPtr(ptr);
        let run = |stream: &[u8]| {
            // SAFETY: `array` is a fresh bool array of `n` one-byte elements, alive meanwhile.
            let out = unsafe { core::slice::from_raw_parts_mut(out.get(), n) };
            words::validate_stream(gen, stream, &engine, out)
        };
        let done = if bytes.immutable() {
            let stream = bytes.as_slice();
            py.detach(|| run(stream))
        } else {
            run(bytes.as_slice())
        };
        done.map_err(|e| invalid(py, e))?;
        Ok(array)
    }

    /// The legality table of RAND_SET_STATE or RAND_GET_STATE: a list of dicts, one a legal
    /// arm, with `engine`, `rand_generator`, `rand_algorithm`, the arm's other columns
    /// (`update_state` and `in_dtype`, or `dtype`), `words` (state words per partition),
    /// `firmware` (whether the shipped firmware has a body for it) and `evidence` (how that, or
    /// the body's absence, is known: `"observed"`, `"inferred"`, `"assumed"`, or None when
    /// nothing is recorded), spelt as `neuron-isa matrix` spells them.
    fn legality<'py>(
        &self,
        py: Python<'py>,
        instruction: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let name = str_of(instruction, "instruction")?;
        let arms = words::legality(self.gen, &name).map_err(value_error)?;
        let rows: Vec<Bound<'py, PyDict>> = arms
            .iter()
            .map(|a| {
                let d = PyDict::new(py);
                for (column, value) in &a.columns {
                    d.set_item(*column, *value)?;
                }
                d.set_item("words", a.words)?;
                d.set_item("firmware", a.firmware)?;
                d.set_item("evidence", a.evidence)?;
                Ok(d)
            })
            .collect::<PyResult<_>>()?;
        PyList::new(py, rows)
    }

    /// The engines that run `instruction` (a vendor opcode name such as `"RAND2"`), as the
    /// tree's engine placement says: a tuple of `NeuronEngine` member names; empty when the
    /// tree does not place the opcode.
    fn engines<'py>(
        &self,
        py: Python<'py>,
        instruction: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let name = str_of(instruction, "instruction")?;
        PyTuple::new(py, words::engines(self.gen, &name).map_err(value_error)?)
    }

    /// How the placement of `instruction` on `engine` is known, from the note of its line in
    /// the tree's `neuron_isa_check_opcode_on_engine`: `"conflict (C11)"`, `"assumed (A55)"`,
    /// `"observed"` (documented; `headers/PROVENANCE.md` defines the levels and entries); `None`
    /// when the tree does not place `instruction` on `engine`.
    fn placement_evidence(
        &self,
        instruction: &Bound<'_, PyAny>,
        engine: &Bound<'_, PyAny>,
    ) -> PyResult<Option<String>> {
        let name = str_of(instruction, "instruction")?;
        let engine = str_of(engine, "engine")?;
        words::placement_evidence(self.gen, &name, &engine).map_err(value_error)
    }

    /// The typed constructors of the generation, as `(instruction, function)` pairs
    /// (`("RAND2", "new")`): what the constructor methods below call.
    fn constructors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, construct::constructors(self.gen))
    }

    /// RAND2 (0xE2): uniform draws `min + u * (max - min)` from the DVE XORWOW generators
    /// (`Rand2::new`).
    ///
    /// The header's validator fixes the rest: the header length, `rand_algorithm = XORWOW`,
    /// `post_process = UNIFORM_IN_RANGE`, both bounds instruction immediates.
    ///
    /// Parameters (`neuron-isa encode rand2` flags):
    /// * `dst`: output start address (ADDR4 word); `elems`: elements per partition;
    /// * `min`, `max`: the bounds, fp32 instruction immediates;
    /// * `channels`: lanes written (`num_active_channels`), 128 by default;
    /// * `dtype`: output element type (`"fp32"`, `"bfloat16"`, `"int32"`, ...).
    ///
    /// What the validator asks of the values (bounds in order, lane counts, addresses) is
    /// checked by `validate`. SUNDA and CAYMAN have no RAND2: ValueError.
    #[pyo3(signature = (*, dst, elems, min, max, channels=None, dtype=None),
           text_signature = "($self, /, *, dst, elems, min, max, channels=128, dtype='fp32')")]
    fn rand2(
        &self,
        dst: &Bound<'_, PyAny>,
        elems: &Bound<'_, PyAny>,
        min: &Bound<'_, PyAny>,
        max: &Bound<'_, PyAny>,
        channels: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        let range = Some((min, max));
        self.output(
            ("rand2", "RAND2", "new"),
            dst,
            elems,
            channels,
            (dtype, "fp32"),
            range,
        )
    }

    /// RAND (0x76) with `post_process = RAW_U32`: Philox draws, raw (`Rand::raw_u32`).
    ///
    /// The header's validator fixes the header length, `rand_algorithm = PHILOX` and
    /// `rand_num_steps = 1`; `rand_generator` and `params` are left zero (rng-core's machine
    /// draws RAND from the `(rand_generator, rand_algorithm)` bank).
    ///
    /// Parameters (`neuron-isa encode rand --post-process raw-u32` flags):
    /// * `dst`: output start address; `elems`: elements per partition;
    /// * `channels`: lanes written, 128 by default; `dtype`: output type, `"uint32"` by default.
    #[pyo3(signature = (*, dst, elems, channels=None, dtype=None),
           text_signature = "($self, /, *, dst, elems, channels=128, dtype='uint32')")]
    fn rand_raw_u32(
        &self,
        dst: &Bound<'_, PyAny>,
        elems: &Bound<'_, PyAny>,
        channels: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        let names = ("rand_raw_u32", "RAND", "raw_u32");
        self.output(names, dst, elems, channels, (dtype, "uint32"), None)
    }

    /// RAND (0x76) with `post_process = UNIFORM_IN_RANGE`: Philox draws in `[min, max)`
    /// (`Rand::uniform_in_range`).
    ///
    /// Fixed as for `rand_raw_u32`; the bounds go to `params[0]` and `params[1]` as fp32 (the
    /// header documents them there, though the validator does not read them).
    ///
    /// Parameters (`neuron-isa encode rand --post-process uniform-in-range` flags):
    /// * `dst`: output start address; `elems`: elements per partition;
    /// * `min`, `max`: the bounds (fp32);
    /// * `channels`: lanes written, 128 by default; `dtype`: output type, `"fp32"` by default.
    #[pyo3(signature = (*, dst, elems, min, max, channels=None, dtype=None),
           text_signature = "($self, /, *, dst, elems, min, max, channels=128, dtype='fp32')")]
    fn rand_uniform_in_range(
        &self,
        dst: &Bound<'_, PyAny>,
        elems: &Bound<'_, PyAny>,
        min: &Bound<'_, PyAny>,
        max: &Bound<'_, PyAny>,
        channels: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        let names = ("rand_uniform_in_range", "RAND", "uniform_in_range");
        self.output(
            names,
            dst,
            elems,
            channels,
            (dtype, "fp32"),
            Some((min, max)),
        )
    }

    /// RNG (0x4D): 32 random bits per element, cut to an integer type (`Rng::new`).
    ///
    /// The header's validator fixes the header length; `dst_element_count` is computed from
    /// the tensor, as the validator requires.
    ///
    /// Parameters (`neuron-isa encode rng` flags):
    /// * `dst`: output start address; `elems`: elements per partition;
    /// * `channels`: lanes written, 128 by default; `dtype`: an integer type, `"uint32"` by default.
    #[pyo3(signature = (*, dst, elems, channels=None, dtype=None),
           text_signature = "($self, /, *, dst, elems, channels=128, dtype='uint32')")]
    fn rng(
        &self,
        dst: &Bound<'_, PyAny>,
        elems: &Bound<'_, PyAny>,
        channels: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        self.output(
            ("rng", "RNG", "new"),
            dst,
            elems,
            channels,
            (dtype, "uint32"),
            None,
        )
    }

    /// DROPOUT (0x7F): zero each element with probability `prob`, copy the others
    /// (`Dropout::new`).
    ///
    /// The header's validator fixes the header length and the output type (the input's).
    ///
    /// Parameters (`neuron-isa encode dropout` flags):
    /// * `src`: input start address; `dst`: output start address; `elems`: elements per
    ///   partition of both;
    /// * `prob`: the threshold, an fp32 instruction immediate: the drop probability, or the
    ///   keep probability with `keep_rate=True` (`threshold_type = KEEP_RATE`);
    /// * `channels`: lanes, 128 by default; `dtype`: element type of input and output, `"fp32"`.
    #[pyo3(signature = (*, src, dst, elems, prob, channels=None, dtype=None, keep_rate=None),
           text_signature = "($self, /, *, src, dst, elems, prob, channels=128, dtype='fp32', keep_rate=False)")]
    #[allow(clippy::too_many_arguments)]
    fn dropout(
        &self,
        src: &Bound<'_, PyAny>,
        dst: &Bound<'_, PyAny>,
        elems: &Bound<'_, PyAny>,
        prob: &Bound<'_, PyAny>,
        channels: Option<&Bound<'_, PyAny>>,
        dtype: Option<&Bound<'_, PyAny>>,
        keep_rate: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        let keep = match keep_rate {
            None => false,
            Some(k) => k
                .cast::<pyo3::types::PyBool>()
                .map_err(|_| {
                    type_error(format!(
                        "keep_rate must be a bool, not {}",
                        super::args::type_name(k)
                    ))
                })?
                .is_true(),
        };
        let mut values = out_values(dst, channels, elems)?;
        values.push(("src", tensor(src, "src", elems)?));
        values.push(("in_dtype", member(dtype, "dtype", "fp32")?));
        values.push(("threshold_dtype", Arg::Member("FP32".into())));
        values.push(("threshold", Arg::Number(f32_of(prob, "prob")?)));
        let rate = if keep { "KEEP_RATE" } else { "DROP_RATE" };
        values.push(("threshold_type", Arg::Member(rate.into())));
        self.draw(Call {
            method: "dropout",
            instruction: "DROPOUT",
            function: "new",
            values,
        })
    }

    /// PSEUDO_SET_RNG_SEED (0xD0): seed the DVE generator (`PseudoSetRngSeed::new`).
    ///
    /// Give exactly one of `seed` (the 32-bit seed, an instruction immediate) and `src` (the
    /// address of the seed, a pointer immediate), as `neuron-isa encode set-rng-seed`.
    #[pyo3(signature = (*, seed=None, src=None))]
    fn set_rng_seed(
        &self,
        seed: Option<&Bound<'_, PyAny>>,
        src: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        let value = match (seed, src) {
            (Some(s), None) => Immediate::Value(u32_of(s, "seed")?),
            (None, Some(a)) => Immediate::Pointer(u32_of(a, "src")?),
            _ => {
                return Err(type_error(
                    "set_rng_seed takes exactly one of seed= and src=",
                ))
            }
        };
        self.draw(Call {
            method: "set_rng_seed",
            instruction: "PSEUDO_SET_RNG_SEED",
            function: "new",
            values: vec![("seed", Arg::Immediate(value))],
        })
    }

    /// PE_MANAGE_SEED (0x08) with `mode = LOAD_SEED`: load the PE stochastic-rounding seeds
    /// from SBUF (`PeManageSeed::load_seed`).
    ///
    /// The header's validator fixes the header length, `num_active_rows = 16` and
    /// `num_active_cols = 128`.
    ///
    /// Parameters (`neuron-isa encode pe-manage-seed --mode load-seed` flags):
    /// * `src`: seed source start address; `elems`: seeds per partition, 16 by default;
    /// * `identity_dtype`: element type of the identity diagonal (`"bfloat16"`, `"fp16"`,
    ///   `"fp32r"`, `"fp8-exp3"`.. `"fp8-exp5"`), `"bfloat16"` by default.
    #[pyo3(signature = (*, src, elems=None, identity_dtype=None),
           text_signature = "($self, /, *, src, elems=16, identity_dtype='bfloat16')")]
    fn pe_load_seed(
        &self,
        src: &Bound<'_, PyAny>,
        elems: Option<&Bound<'_, PyAny>>,
        identity_dtype: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        let elems = elems.map_or(Ok(16), |e| u16_of(e, "elems"))?;
        let values = vec![
            (
                "identity_dtype",
                member(identity_dtype, "identity_dtype", "bfloat16")?,
            ),
            (
                "src_seed",
                Arg::Tensor(Tensor {
                    addr: u32_of(src, "src")?,
                    elems,
                }),
            ),
        ];
        self.draw(Call {
            method: "pe_load_seed",
            instruction: "PE_MANAGE_SEED",
            function: "load_seed",
            values,
        })
    }

    /// PE_MANAGE_SEED (0x08) with `mode = SAVE_SEED`: save the PE seeds to the start of PSUM
    /// (`PeManageSeed::save_seed`; the validator pins the whole destination).
    ///
    /// Parameters (`neuron-isa encode pe-manage-seed --mode save-seed` flags):
    /// * `identity_dtype`: element type of the identity diagonal, `"bfloat16"` by default.
    ///
    /// MAVERICK sizes PSUM out, so it has no `save_seed`: ValueError.
    #[pyo3(signature = (*, identity_dtype=None),
           text_signature = "($self, /, *, identity_dtype='bfloat16')")]
    fn pe_save_seed(&self, identity_dtype: Option<&Bound<'_, PyAny>>) -> PyResult<Instruction> {
        let values = vec![(
            "identity_dtype",
            member(identity_dtype, "identity_dtype", "bfloat16")?,
        )];
        self.draw(Call {
            method: "pe_save_seed",
            instruction: "PE_MANAGE_SEED",
            function: "save_seed",
            values,
        })
    }

    /// RAND_SET_STATE (0x78): restore an engine's generator state, from a tensor or from the
    /// instruction's immediate (`RandSetState::restore` / `seed_immediate`).
    ///
    /// The arm `(engine, generator, algorithm, update)` must be a legal arm of the generation
    /// (`legality("RAND_SET_STATE")`); the state width (words per partition) is the arm's.
    /// An arm the generation does not have raises ValueError naming the generation and listing
    /// its legal arms: in Rust, `RandSetState::restore::<Pool, RngXorwow, Lfsr, _>` does not
    /// compile.
    ///
    /// Parameters (`neuron-isa encode rand-set-state` flags):
    /// * `engine`: the executing engine (`"pool"`, `"dve"`, `"act"`);
    /// * `generator`: `rand_generator` (`"rng-xorwow"`, `"rng-philox"`, `"rng-lfsr"`,
    ///   `"output-cvt-lfsr"`); `algorithm`: `rand_algorithm` (`"xorwow"`, `"philox"`, `"lfsr"`);
    /// * `update`: `update_state`, `"src-tensor"` (from `src`) or `"imm-single"` (from `imm`);
    /// * `src`: source start address (required with `"src-tensor"`; 0 by default otherwise);
    /// * `channels`: lanes restored (`num_active_channels`), 128 by default;
    /// * `imm`: the 8 immediate words of IMM_SINGLE (`imm_state`; fewer are padded with 0).
    #[pyo3(signature = (*, engine, generator, algorithm, update, src=None, channels=None, imm=None),
           text_signature = "($self, /, *, engine, generator, algorithm, update, src=None, channels=128, imm=None)")]
    #[allow(clippy::too_many_arguments)]
    fn rand_set_state(
        &self,
        engine: &Bound<'_, PyAny>,
        generator: &Bound<'_, PyAny>,
        algorithm: &Bound<'_, PyAny>,
        update: &Bound<'_, PyAny>,
        src: Option<&Bound<'_, PyAny>>,
        channels: Option<&Bound<'_, PyAny>>,
        imm: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        let (engine, generator, algorithm) = arm(engine, generator, algorithm)?;
        let update = member_of(update, "update", StateUpdate::ALL, StateUpdate::name)?;
        self.checkpoint(&Checkpoint {
            kind: CheckpointKind::Restore,
            engine,
            generator,
            algorithm,
            update: Some(update),
            channels: lanes(channels)?,
            addr: src.map(|s| u32_of(s, "src")).transpose()?,
            imm: imm.map(|w| words_of::<8>(w, "imm", 1)).transpose()?,
        })
    }

    /// RAND_GET_STATE (0x77): save an engine's generator state to a tensor
    /// (`RandGetState::save`).
    ///
    /// The arm `(engine, generator, algorithm)` must be a legal arm of the generation
    /// (`legality("RAND_GET_STATE")`), else ValueError listing the legal arms; the tensor is
    /// the arm's width of contiguous words per partition.
    ///
    /// Parameters (`neuron-isa encode rand-get-state` flags):
    /// * `engine`, `generator`, `algorithm`: the arm, as for `rand_set_state`;
    /// * `dst`: destination start address; `channels`: lanes saved, 128 by default.
    #[pyo3(signature = (*, engine, generator, algorithm, dst, channels=None),
           text_signature = "($self, /, *, engine, generator, algorithm, dst, channels=128)")]
    fn rand_get_state(
        &self,
        engine: &Bound<'_, PyAny>,
        generator: &Bound<'_, PyAny>,
        algorithm: &Bound<'_, PyAny>,
        dst: &Bound<'_, PyAny>,
        channels: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Instruction> {
        let (engine, generator, algorithm) = arm(engine, generator, algorithm)?;
        self.checkpoint(&Checkpoint {
            kind: CheckpointKind::Save,
            engine,
            generator,
            algorithm,
            update: None,
            channels: lanes(channels)?,
            addr: Some(u32_of(dst, "dst")?),
            imm: None,
        })
    }
}
