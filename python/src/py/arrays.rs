//! numpy arrays and bytes-like input, without the buffer protocol (not in the stable ABI
//! before CPython 3.11): `bytes` are read in place; everything else becomes a C-contiguous
//! numpy array (`neuron_isa._arrays`, no copy when it already is one) whose memory is reached
//! through its `__array_interface__`. Output arrays are made by `numpy.empty` and filled.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

/// Bytes of a Python object, valid while `self` lives.
pub enum Bytes<'py> {
    /// A `bytes` object (immutable: its memory can be read with the GIL released).
    Immutable(Bound<'py, PyBytes>),
    /// A uint8 numpy array (a view where possible), its data pointer and length.
    Array {
        /// Keeps the array, and what it views, alive.
        _owner: Bound<'py, PyAny>,
        /// The first byte.
        ptr: *const u8,
        /// Bytes.
        len: usize,
    },
}

impl Bytes<'_> {
    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Immutable(b) => b.as_bytes(),
            // SAFETY: the pointer and length are those of the array `_arrays.byte_array` made, a
            // C-contiguous uint8 array kept alive by this value, which holds a buffer export of
            // any object it views (so a bytearray cannot be resized meanwhile).
            Bytes::Array { ptr, len, .. } => unsafe { core::slice::from_raw_parts(*ptr, *len) },
        }
    }

    /// Whether the memory can be read with the GIL released.
    pub fn immutable(&self) -> bool {
        matches!(self, Bytes::Immutable(_))
    }
}

/// The data pointer of a numpy array.
pub fn data_pointer(array: &Bound<'_, PyAny>) -> PyResult<usize> {
    let interface = array.getattr("__array_interface__")?;
    let data = interface.get_item("data")?;
    let data = data.cast::<PyTuple>()?;
    data.get_item(0)?.extract::<usize>()
}

fn helpers(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("neuron_isa._arrays")
}

/// The bytes of a bytes-like `obj` (bytes, bytearray, memoryview, uint8 ndarray).
pub fn bytes_of<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bytes<'py>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Bytes::Immutable(b.clone()));
    }
    let array = helpers(obj.py())?
        .getattr("byte_array")?
        .call1((obj, what))?;
    let len: usize = array.getattr("nbytes")?.extract()?;
    let ptr = data_pointer(&array)? as *const u8;
    Ok(Bytes::Array {
        _owner: array,
        ptr,
        len,
    })
}

/// A 2-D uint32 array's words (row-major) and its shape.
pub type Tile = (Vec<u32>, (usize, usize));

/// The words of `obj`, a 2-D array of uint32 values (of shape `shape` when given), row-major
/// (`_arrays.u32_tile` checks types, shape and values).
pub fn u32_tile(
    obj: &Bound<'_, PyAny>,
    what: &str,
    shape: Option<(usize, usize)>,
) -> PyResult<Tile> {
    let array = helpers(obj.py())?
        .getattr("u32_tile")?
        .call1((obj, what, shape))?;
    let (rows, cols): (usize, usize) = array.getattr("shape")?.extract()?;
    let ptr = data_pointer(&array)? as *const u32;
    let n = rows * cols;
    // SAFETY: `u32_tile` returns a C-contiguous uint32 array of `rows × cols` elements, alive
    // in `array`; it is copied out under the GIL, before anything else runs.
    let words = if n == 0 {
        Vec::new()
    } else {
        unsafe { core::slice::from_raw_parts(ptr, n) }.to_vec()
    };
    Ok((words, (rows, cols)))
}

/// A new numpy array of `shape` and `dtype` (uninitialised) and its data pointer.
pub fn empty<'py>(
    py: Python<'py>,
    shape: &[usize],
    dtype: &str,
) -> PyResult<(Bound<'py, PyAny>, *mut u8)> {
    let shape = PyTuple::new(py, shape)?;
    let array = py
        .import("numpy")?
        .getattr("empty")?
        .call1((shape, dtype))?;
    let ptr = data_pointer(&array)? as *mut u8;
    Ok((array, ptr))
}

/// A pointer that crosses into a closure run with the GIL released.
#[derive(Clone, Copy)]
pub struct SendPtr<T>(pub *mut T);

impl<T> SendPtr<T> {
    /// The pointer (a method, so that a closure captures the whole `SendPtr`, not its field).
    pub fn get(self) -> *mut T {
        self.0
    }
}

// SAFETY: only made for the memory of an array this thread created and keeps alive until the
// closure returns; nothing else has a reference to it yet.
unsafe impl<T> Send for SendPtr<T> {}
unsafe impl<T> Sync for SendPtr<T> {}
