//! `neuron_isa.rng`: the `neuron-isa rng` streams as numpy bit generators, and rng-core's
//! lane banks.

use super::args::{
    count_of, int_in, member_of, str_of, type_error, type_name, u32_of, u64_of, u8_of, value_error,
    words_of,
};
use super::arrays::{empty, u32_tile, SendPtr};
use crate::bitgen::{Owned, PhiloxStream, Stream32};
use crate::gens::Gen;
use crate::machine;
use crate::names;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PySlice, PyTuple};
use rng_core::lfsr::Lfsr32;
use rng_core::pcg32::{self, Pcg32 as Pcg32Stream};
use rng_core::xorwow::Xorwow as XorwowStream;
use rng_core::{Algorithm, Engine, Generator, LaneRow, LANES};

/// Most words one `draw` returns (8 GiB): a larger count is a ValueError, not an allocation.
const MAX_DRAW: usize = 1 << 31;

/// A stream with the numpy protocol's parts: the `bitgen_t` (in its capsule) and the lock
/// numpy takes around every call of its functions, which every method here takes too.
struct Core<S: Stream32> {
    owned: Owned<S>,
    lock: Py<PyAny>,
    capsule: Py<PyCapsule>,
}

impl<S: Stream32> Core<S> {
    fn new(py: Python<'_>, stream: S) -> PyResult<Core<S>> {
        let owned = Owned::new(stream);
        let lock = py.import("threading")?.getattr("Lock")?.call0()?.unbind();
        // SAFETY: the pointer is the `bitgen_t` of `owned`, which lives as long as this object;
        // numpy keeps a reference to the bit generator (not only to the capsule) while it uses it.
        let capsule =
            unsafe { PyCapsule::new_with_pointer(py, owned.bitgen(), c"BitGenerator") }?.unbind();
        Ok(Core {
            owned,
            lock,
            capsule,
        })
    }

    /// Runs `f` on the stream holding the lock, with the GIL released.
    fn locked<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut S) -> T + Send) -> PyResult<T> {
        let lock = self.lock.bind(py);
        lock.call_method0("acquire")?;
        let owned = &self.owned;
        // SAFETY: the lock is held: numpy's calls through the capsule take it as well.
        let out = py.detach(|| unsafe { owned.with(f) });
        lock.call_method0("release")?;
        Ok(out)
    }

    fn draw<'py>(&self, py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let n = count_of(n, "n", MAX_DRAW)?;
        let (array, ptr) = empty(py, &[n], "uint32")?;
        let out = SendPtr(ptr.cast::<u32>());
        self.locked(py, move |s| {
            // SAFETY: a fresh uint32 array of `n` elements, alive until this returns.
            let words = unsafe { core::slice::from_raw_parts_mut(out.get(), n) };
            s.fill(words)
        })?;
        Ok(array)
    }
}

/// A stream's state as a dict, and back (as numpy's bit generators' `state`).
trait Model: Stream32 + Sized {
    /// The class name, `state["bit_generator"]`.
    const NAME: &'static str;
    /// The `state` entry (a dict), and the other top-level entries.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>>;
    /// The stream a `to_dict` dict describes.
    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Self>;
}

fn state_dict<'py, M: Model>(
    py: Python<'py>,
    inner: Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("bit_generator", M::NAME)?;
    d.set_item("state", inner)?;
    Ok(d)
}

/// The entry `key` of a state dict.
fn entry<'py>(d: &Bound<'py, PyDict>, key: &str, what: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?
        .ok_or_else(|| value_error(format!("{what} has no {key:?} entry")))
}

/// The inner `state` dict of a state, after checking `bit_generator`.
fn inner<'py, M: Model>(
    state: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
    let outer = state
        .cast::<PyDict>()
        .map_err(|_| type_error(format!("state must be a dict, not {}", type_name(state))))?
        .clone();
    let name = str_of(
        &entry(&outer, "bit_generator", "state")?,
        "state['bit_generator']",
    )?;
    if name != M::NAME {
        return Err(value_error(format!(
            "state['bit_generator'] is {name:?}; this is a {} state",
            M::NAME
        )));
    }
    let inner = entry(&outer, "state", "state")?;
    let inner = inner
        .cast::<PyDict>()
        .map_err(|_| {
            type_error(format!(
                "state['state'] must be a dict, not {}",
                type_name(&inner)
            ))
        })?
        .clone();
    Ok((outer, inner))
}

impl Model for PhiloxStream {
    const NAME: &'static str = "Philox4x32";

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (counter, index) = self.position();
        let s = PyDict::new(py);
        s.set_item("counter", PyTuple::new(py, counter)?)?;
        s.set_item("key", PyTuple::new(py, self.key())?)?;
        let d = state_dict::<Self>(py, s)?;
        d.set_item("index", index)?;
        Ok(d)
    }

    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Self> {
        let (outer, s) = inner::<Self>(d.as_any())?;
        let counter = words_of::<4>(&entry(&s, "counter", "state['state']")?, "counter", 4)?;
        let key = words_of::<2>(&entry(&s, "key", "state['state']")?, "key", 2)?;
        let index = int_in(&entry(&outer, "index", "state")?, "state['index']", 0, 4)? as u32;
        Ok(PhiloxStream::new(counter, key, index))
    }
}

impl Model for XorwowStream {
    const NAME: &'static str = "Xorwow";

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = PyDict::new(py);
        s.set_item("state", PyTuple::new(py, self.state())?)?;
        state_dict::<Self>(py, s)
    }

    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Self> {
        let (_, s) = inner::<Self>(d.as_any())?;
        let words = words_of::<6>(&entry(&s, "state", "state['state']")?, "state", 6)?;
        Ok(XorwowStream::from_state(words))
    }
}

fn pcg(state: u64, inc: u64) -> PyResult<Pcg32Stream> {
    Pcg32Stream::from_raw(state, inc).map_err(|e| value_error(format!("inc={inc:#x}: {e}")))
}

impl Model for Pcg32Stream {
    const NAME: &'static str = "Pcg32";

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = PyDict::new(py);
        s.set_item("state", self.state())?;
        s.set_item("inc", self.increment())?;
        state_dict::<Self>(py, s)
    }

    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Self> {
        let (_, s) = inner::<Self>(d.as_any())?;
        let state = u64_of(&entry(&s, "state", "state['state']")?, "state")?;
        let inc = u64_of(&entry(&s, "inc", "state['state']")?, "inc")?;
        pcg(state, inc)
    }
}

impl Model for Lfsr32 {
    const NAME: &'static str = "Lfsr";

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = PyDict::new(py);
        s.set_item("state", self.state())?;
        state_dict::<Self>(py, s)
    }

    fn from_dict(d: &Bound<'_, PyDict>) -> PyResult<Self> {
        let (_, s) = inner::<Self>(d.as_any())?;
        Ok(Lfsr32::new(u32_of(
            &entry(&s, "state", "state['state']")?,
            "state",
        )?))
    }
}

/// The methods every bit generator has, around its own constructor.
macro_rules! bit_generator {
    ($class:ident, $stream:ty, $name:literal, $doc:literal, { $($new:tt)* }) => {
        #[doc = $doc]
        #[pyclass(frozen, module = "neuron_isa.rng", name = $name)]
        pub struct $class {
            core: Core<$stream>,
        }

        #[pymethods]
        impl $class {
            $($new)*

            /// The next `n` words of the stream: a numpy uint32 array.
            fn draw<'py>(&self, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
                self.core.draw(n.py(), n)
            }

            /// numpy's `PyCapsule` named `"BitGenerator"`, pointing to the C `bitgen_t`
            /// (state pointer, `next_uint64`, `next_uint32`, `next_double`, `next_raw`).
            #[getter]
            fn capsule<'py>(&self, py: Python<'py>) -> Bound<'py, PyCapsule> {
                self.core.capsule.bind(py).clone()
            }

            /// The `threading.Lock` numpy holds while it calls the capsule's functions.
            #[getter]
            fn lock<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
                self.core.lock.bind(py).clone()
            }

            /// The position in the stream as a dict (`bit_generator`, `state`, ...); assigning
            /// such a dict moves the stream there. Round-trips exactly, as numpy's own.
            #[getter]
            fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                let copy = self.core.locked(py, |s| s.clone())?;
                copy.to_dict(py)
            }

            #[setter]
            fn set_state(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
                let d = state
                    .cast::<PyDict>()
                    .map_err(|_| type_error(format!("state must be a dict, not {}", type_name(state))))?;
                let stream = <$stream as Model>::from_dict(d)?;
                self.core.locked(state.py(), move |s| *s = stream)
            }

            /// Not supported: a stream of the model is positioned by its state, not spawned
            /// from a seed sequence. Raises TypeError, as numpy's bit generators without a
            /// `SeedSequence` do.
            fn spawn(&self, n_children: &Bound<'_, PyAny>) -> PyResult<()> {
                let _ = n_children;
                Err(type_error(concat!(
                    $name,
                    " cannot spawn: it has no SeedSequence; build children from explicit states"
                )))
            }

            /// Pickles as the class called with the current state.
            fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
                let state = self.get_state(py)?;
                let class = py.get_type::<$class>();
                PyTuple::new(py, [class.into_any(), PyTuple::empty(py).into_any(), state.into_any()])
            }

            /// Restores a pickled state (`state = ...`).
            fn __setstate__(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
                self.set_state(state)
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                let state = self.get_state(py)?;
                let inner = state.get_item("state")?.map_or(Ok(String::new()), |s| s.repr().map(|r| r.to_string()))?;
                Ok(format!("{}({inner})", $name))
            }
        }
    };
}

bit_generator!(
    Philox4x32,
    PhiloxStream,
    "Philox4x32",
    "Philox4x32-10 (Random123), the stream of `neuron-isa rng philox`: `block(counter)`,\n\
     `block(counter + 1)`, ... (the counter a 128-bit integer, `c0` least significant), four\n\
     words a block.\n\n\
     A numpy bit generator: `numpy.random.Generator(Philox4x32(...))` works. `next_uint32` is\n\
     the stream; `next_uint64` is two words, the first the high half, and `next_double` is\n\
     `((w0 >> 5) * 2**26 + (w1 >> 6)) / 2**53`, as randomgen's 32-bit generators build them.\n\
     randomgen's `Philox(number=4, width=32, counter=c, key=k0 | k1 << 32)` gives the same\n\
     words from `counter = c + 1` (it increments the counter before its first block).\n\n\
     `state` is `{'bit_generator': 'Philox4x32', 'state': {'counter': (c0, c1, c2, c3),\n\
     'key': (k0, k1)}, 'index': i}`: the counter of the block the last word came from and the\n\
     index after it (1..4; 4: the block is used up), or `index` 0 before its first word.",
    {
        /// The stream from word 0 of `block(counter)` with `key`.
        #[new]
        #[pyo3(signature = (counter=None, key=None), text_signature = "(counter=(0, 0, 0, 0), key=(0, 0))")]
        fn new(
            py: Python<'_>,
            counter: Option<&Bound<'_, PyAny>>,
            key: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Self> {
            let counter = counter.map_or(Ok([0; 4]), |c| words_of::<4>(c, "counter", 4))?;
            let key = key.map_or(Ok([0; 2]), |k| words_of::<2>(k, "key", 2))?;
            Ok(Philox4x32 {
                core: Core::new(py, PhiloxStream::new(counter, key, 0))?,
            })
        }
    }
);

bit_generator!(
    Xorwow,
    XorwowStream,
    "Xorwow",
    "Marsaglia's xorwow, the stream of `neuron-isa rng xorwow`: the output `v + d` after each\n\
     step of the state `(x, y, z, w, v, d)`.\n\n\
     A numpy bit generator (see `Philox4x32` for how the 64-bit and double outputs are made).\n\
     `state` is `{'bit_generator': 'Xorwow', 'state': {'state': (x, y, z, w, v, d)}}`.",
    {
        /// The stream of the state `(x, y, z, w, v, d)` (Marsaglia's default when not given).
        #[new]
        #[pyo3(signature = (state=None), text_signature = "(state=(123456789, 362436069, 521288629, 88675123, 5783321, 6615241))")]
        fn new(py: Python<'_>, state: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
            let words = state.map_or(Ok(rng_core::xorwow::MARSAGLIA_STATE), |s| {
                words_of::<6>(s, "state", 6)
            })?;
            Ok(Xorwow {
                core: Core::new(py, XorwowStream::from_state(words))?,
            })
        }
    }
);

bit_generator!(
    Pcg32,
    Pcg32Stream,
    "Pcg32",
    "PCG32 (XSH-RR 64/32, pcg-c's `pcg32_random_r`), the stream of `neuron-isa rng pcg32`\n\
     from a raw LCG state: the output of the old state, then the step.\n\n\
     A numpy bit generator (see `Philox4x32` for how the 64-bit and double outputs are made).\n\
     `state` is `{'bit_generator': 'Pcg32', 'state': {'state': s, 'inc': i}}`.",
    {
        /// The stream of the 64-bit LCG `state` with the odd increment `inc` (default: the
        /// simulator's 0x14057b7ef767814f); an even `inc` raises ValueError.
        #[new]
        #[pyo3(signature = (state=None, inc=None), text_signature = "(state=0, inc=1442695040888963407)")]
        fn new(
            py: Python<'_>,
            state: Option<&Bound<'_, PyAny>>,
            inc: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Self> {
            let state = state.map_or(Ok(0), |s| u64_of(s, "state"))?;
            let inc = inc.map_or(Ok(pcg32::SIMULATOR_INCREMENT), |i| u64_of(i, "inc"))?;
            Ok(Pcg32 {
                core: Core::new(py, pcg(state, inc)?)?,
            })
        }
    }
);

bit_generator!(
    Lfsr,
    Lfsr32,
    "Lfsr",
    "The 32-bit Fibonacci LFSR with taps 32/22/2/1, the stream of `neuron-isa rng lfsr`\n\
     (output: the new state). The simulator's recurrence, not confirmed on hardware; a zero\n\
     state stays zero.\n\n\
     A numpy bit generator (see `Philox4x32` for how the 64-bit and double outputs are made).\n\
     `state` is `{'bit_generator': 'Lfsr', 'state': {'state': s}}`.",
    {
        /// The stream of the 32-bit register `state`.
        #[new]
        #[pyo3(signature = (state=None), text_signature = "(state=1)")]
        fn new(py: Python<'_>, state: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
            let state = state.map_or(Ok(1), |s| u32_of(s, "state"))?;
            Ok(Lfsr {
                core: Core::new(py, Lfsr32::new(state))?,
            })
        }
    }
);

/// A generation from a `Generation` object or its name.
pub fn generation_of(obj: &Bound<'_, PyAny>) -> PyResult<Gen> {
    if let Ok(g) = obj.getattr("name") {
        if obj.get_type().name()?.to_cow()? == "Generation" {
            return generation_of(&g);
        }
    }
    let text = str_of(obj, "generation")?;
    Gen::from_name(&text).ok_or_else(|| {
        value_error(format!(
            "no generation {text:?}; the generations are {}",
            Gen::choices()
        ))
    })
}

/// One generator state of one engine for its lanes: rng-core's lane bank (`EngineRng` of the
/// generation), drawn, saved and restored as the instructions do.
///
/// `Bank("mariana", engine="dve", generator="rng-xorwow", algorithm="xorwow", lanes=128,
/// seed=7)`: the bank of `(generator, algorithm)` of `engine`, in the model's power-on state,
/// or with every bank of the engine seeded from `seed` as `neuron-isa checkpoint --seed` seeds
/// it (the model's SplitMix64 convenience seeding, not a hardware path).
#[pyclass(module = "neuron_isa.rng", name = "Bank")]
pub struct Bank {
    inner: Box<dyn machine::Bank>,
    gen: Gen,
    engine: Engine,
    generator: Generator,
    algorithm: Algorithm,
}

impl Bank {
    /// Draws `n` elements into `n` rows of 128 words at `rows`, with the GIL released.
    fn fill_rows(&mut self, py: Python<'_>, rows: SendPtr<LaneRow>, n: usize) -> PyResult<()> {
        let inner = &mut self.inner;
        py.detach(move || {
            // SAFETY: the callers pass a C-contiguous uint32 array of `n × 128` elements, alive
            // meanwhile, that nothing else writes during the draw.
            let out = unsafe { core::slice::from_raw_parts_mut(rows.get(), n) };
            inner.draw(out)
        })
        .map_err(value_error)
    }
}

#[pymethods]
impl Bank {
    #[new]
    #[pyo3(signature = (generation, *, engine, generator, algorithm, lanes=None, seed=None),
           text_signature = "(generation, *, engine, generator, algorithm, lanes=128, seed=None)")]
    fn new(
        generation: &Bound<'_, PyAny>,
        engine: &Bound<'_, PyAny>,
        generator: &Bound<'_, PyAny>,
        algorithm: &Bound<'_, PyAny>,
        lanes: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let gen = generation_of(generation)?;
        let engine = member_of(engine, "engine", Engine::ALL, Engine::name)?;
        let generator = member_of(generator, "generator", Generator::ALL, Generator::name)?;
        let algorithm = member_of(algorithm, "algorithm", Algorithm::ALL, Algorithm::name)?;
        let lanes = lanes.map_or(Ok(LANES as u8), |l| u8_of(l, "lanes"))?;
        let seed = seed.map(|s| u64_of(s, "seed")).transpose()?;
        let inner =
            machine::bank(gen, engine, generator, algorithm, lanes, seed).map_err(value_error)?;
        Ok(Bank {
            inner,
            gen,
            engine,
            generator,
            algorithm,
        })
    }

    /// Draws `n` elements for every lane: a numpy uint32 array of shape `(lanes, n)`, row `p`
    /// lane `p`'s words (a view onto rng-core's layout, element-major).
    ///
    /// `out`, when given, is filled instead and returned: a writeable uint32 array of shape
    /// `(lanes, n)` whose transpose is C-contiguous (`np.empty((n, lanes), np.uint32).T`, or an
    /// array an earlier `draw(n)` of a 128-lane bank returned), so that repeated draws reuse it.
    ///
    /// One call is one instruction's draw (as RAND2 draws `n` elements): with several
    /// sub-generators per lane (the DVE's four XORWOW generators), element `j` of the call comes
    /// from the sub-generator the model's `lane_interleave` gives it, counting `j` from 0 in
    /// every call. So `draw(8)` then `draw(8)` equals `draw(16)` only when 8 is a multiple of
    /// the sub-generator count, as two RAND2 instructions of 8 elements equal one of 16 only
    /// then.
    #[pyo3(signature = (n, out=None))]
    fn draw<'py>(
        &mut self,
        py: Python<'py>,
        n: &Bound<'py, PyAny>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = count_of(n, "n", MAX_DRAW / LANES)?;
        let lanes = self.inner.lanes();
        let Some(out) = out else {
            let (array, ptr) = empty(py, &[n, LANES], "uint32")?;
            self.fill_rows(py, SendPtr(ptr.cast::<LaneRow>()), n)?;
            let lanes = PySlice::new(py, 0, lanes as isize, 1);
            return array.getattr("T")?.get_item(lanes);
        };
        let rows = py
            .import("neuron_isa._arrays")?
            .getattr("out_tile")?
            .call1((out, lanes, n))?;
        let ptr = super::arrays::data_pointer(&rows)? as *mut u32;
        if lanes == LANES {
            self.fill_rows(py, SendPtr(ptr.cast::<LaneRow>()), n)?;
        } else {
            let words = SendPtr(ptr);
            let inner = &mut self.inner;
            py.detach(move || {
                // SAFETY: `rows` is a C-contiguous uint32 array of `n × lanes` elements (checked
                // by `out_tile`), alive meanwhile; nothing else writes it during the draw.
                let out = unsafe { core::slice::from_raw_parts_mut(words.get(), n * lanes) };
                inner.draw_lanes(out)
            })
            .map_err(value_error)?;
        }
        Ok(out.clone())
    }

    /// The RAND_GET_STATE tile: a numpy uint32 array of shape `(lanes, words)`, row `p` lane
    /// `p`'s checkpoint record (what RAND_GET_STATE writes to partition `p`).
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (lanes, words) = (self.inner.lanes(), self.inner.words());
        let (array, ptr) = empty(py, &[lanes, words], "uint32")?;
        // SAFETY: a fresh uint32 array of `lanes × words` elements, alive meanwhile.
        let out = unsafe { core::slice::from_raw_parts_mut(ptr.cast::<u32>(), lanes * words) };
        self.inner.get_state(out).map_err(value_error)?;
        Ok(array)
    }

    /// Restores every lane from a tile of shape `(lanes, words)` (as RAND_SET_STATE from a
    /// tensor, with the model's XORWOW zero-guard); draws then repeat word for word. A tile of
    /// another shape or with values outside uint32 raises ValueError, and changes nothing.
    fn set_state(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let shape = (self.inner.lanes(), self.inner.words());
        let (words, _) = u32_tile(state, "state", Some(shape))?;
        self.inner.set_state(&words).map_err(value_error)
    }

    /// Lanes drawn, saved and restored.
    #[getter]
    fn lanes(&self) -> usize {
        self.inner.lanes()
    }

    /// State words per lane (the checkpoint width).
    #[getter]
    fn words(&self) -> usize {
        self.inner.words()
    }

    fn __repr__(&self) -> String {
        format!(
            "Bank({:?}, engine={:?}, generator={:?}, algorithm={:?}, lanes={})",
            self.gen.name(),
            names::spelling(self.engine.name()),
            names::spelling(self.generator.name()),
            names::spelling(self.algorithm.name()),
            self.inner.lanes()
        )
    }
}
