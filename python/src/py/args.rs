//! Python arguments to Rust values, each refusal a one-line `TypeError` (wrong type) or
//! `ValueError` (wrong value) naming the argument: never an `OverflowError` or a panic.

use crate::names;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyString};

/// The Python type name of `obj`, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "object".to_string(), |n| n.to_string())
}

/// A `ValueError` with `message`.
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// A `TypeError` with `message`.
pub fn type_error(message: impl Into<String>) -> PyErr {
    PyTypeError::new_err(message.into())
}

/// An integer in `lo..=hi`: an `int` or anything with `__index__` (numpy integers), not a bool.
pub fn int_in(obj: &Bound<'_, PyAny>, what: &str, lo: i128, hi: i128) -> PyResult<i128> {
    let wrong = || type_error(format!("{what} must be an int, not {}", type_name(obj)));
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyFloat>() {
        return Err(wrong());
    }
    let out_of_range = || value_error(format!("{what} must be in {lo}..={hi}"));
    match obj.extract::<i128>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(_) => Err(out_of_range()),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(out_of_range()),
        Err(_) => Err(wrong()),
    }
}

/// A `u8`.
pub fn u8_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    int_in(obj, what, 0, u8::MAX.into()).map(|v| v as u8)
}

/// A `u16`.
pub fn u16_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u16> {
    int_in(obj, what, 0, u16::MAX.into()).map(|v| v as u16)
}

/// A `u32`.
pub fn u32_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    int_in(obj, what, 0, u32::MAX.into()).map(|v| v as u32)
}

/// A `u64`.
pub fn u64_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    int_in(obj, what, 0, u64::MAX.into()).map(|v| v as u64)
}

/// A count in `0..=max`.
pub fn count_of(obj: &Bound<'_, PyAny>, what: &str, max: usize) -> PyResult<usize> {
    int_in(obj, what, 0, max as i128).map(|v| v as usize)
}

/// A number (`int` or `float`, or anything with `__float__`, not a bool or a string) rounded to
/// the nearest fp32, as the command line reads `--min -1`.
pub fn f32_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f32> {
    let wrong = || type_error(format!("{what} must be a number, not {}", type_name(obj)));
    if obj.is_instance_of::<PyBool>()
        || obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(wrong());
    }
    match obj.extract::<f64>() {
        Ok(v) => Ok(v as f32),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(value_error(format!("{what} is too large for a float")))
        }
        Err(_) => Err(wrong()),
    }
}

/// A `str`.
pub fn str_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    match obj.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => Err(type_error(format!(
            "{what} must be a str, not {}",
            type_name(obj)
        ))),
    }
}

/// A member of an rng-core vocabulary enum, by either spelling (`rng-xorwow`, `RNG_XORWOW`).
pub fn member_of<T: Copy>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    members: &[T],
    name: impl Fn(T) -> &'static str + Copy,
) -> PyResult<T> {
    let text = str_of(obj, what)?;
    names::lookup(members, name, &text).ok_or_else(|| {
        value_error(format!(
            "{what}={text:?} is not one of: {}",
            names::choices(members, name)
        ))
    })
}

/// `1..=N` words (missing trailing ones 0) from a sequence of ints (tuple, list, array).
pub fn words_of<const N: usize>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    least: usize,
) -> PyResult<[u32; N]> {
    let wrong = || {
        type_error(format!(
            "{what} must be a sequence of {} ints, not {}",
            if least == N {
                N.to_string()
            } else {
                format!("{least} to {N}")
            },
            type_name(obj)
        ))
    };
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(wrong());
    }
    let items = obj.try_iter().map_err(|_| wrong())?;
    let mut out = [0u32; N];
    let mut n = 0;
    for item in items {
        let item = item?;
        if n == N {
            return Err(value_error(format!("{what} has more than {N} words")));
        }
        out[n] = u32_of(&item, &format!("{what}[{n}]"))?;
        n += 1;
    }
    if n < least {
        return Err(value_error(format!(
            "{what} has {n} words; it needs {}",
            if least == N {
                N.to_string()
            } else {
                format!("{least} to {N}")
            }
        )));
    }
    Ok(out)
}
