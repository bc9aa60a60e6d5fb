"""Argument arrays for the extension module: checked here, read by Rust in place.

The extension uses the stable ABI from CPython 3.9, which has no buffer protocol before 3.11,
so bytes-like input that is not ``bytes`` becomes a C-contiguous numpy array (a view, without
a copy, whenever the input already is one) whose memory Rust reads through
``__array_interface__``.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

_BYTES_LIKE = "bytes-like (bytes, bytearray, memoryview or a uint8 ndarray)"


def byte_array(obj: Any, what: str) -> np.ndarray:
    """The bytes of ``obj`` as a C-contiguous 1-D uint8 array (``bytes`` go to Rust directly)."""
    if isinstance(obj, (bytearray, memoryview)):
        if isinstance(obj, memoryview) and not obj.c_contiguous:
            raise ValueError(f"{what}: a memoryview must be C-contiguous")
        return np.frombuffer(obj, dtype=np.uint8)
    if isinstance(obj, np.ndarray):
        if obj.dtype != np.uint8:
            raise TypeError(f"{what} must be {_BYTES_LIKE}, not a {obj.dtype} ndarray")
        return np.ascontiguousarray(obj).reshape(-1)
    raise TypeError(f"{what} must be {_BYTES_LIKE}, not {type(obj).__name__}")


def u32_tile(obj: Any, what: str, shape: Optional[Tuple[int, int]]) -> np.ndarray:
    """``obj`` as a C-contiguous 2-D uint32 array (of ``shape`` when given).

    Integers of any numpy type or Python ints are taken when every value fits in uint32;
    anything else is a TypeError (not integers) or a ValueError (shape, range).
    """
    if isinstance(obj, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"{what} must be a 2-D array of integers, not {type(obj).__name__}")
    try:
        arr = np.asarray(obj)
    except (ValueError, TypeError):
        raise ValueError(f"{what} must be a 2-D array of integers (a rectangular one)") from None
    if arr.dtype == object:
        items = arr.ravel().tolist()
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in items):
            raise TypeError(f"{what} must be an array of integers")
        if any(v < 0 or v > 0xFFFFFFFF for v in items):
            raise ValueError(f"{what}: every value must be in 0..=4294967295")
        arr = np.array(items, dtype=np.uint32).reshape(arr.shape)
    elif arr.dtype.kind not in "iu":
        raise TypeError(f"{what} must be an array of integers, not of {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"{what} must have 2 dimensions, not {arr.ndim}")
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"{what} must have shape {tuple(shape)}, not {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 0xFFFFFFFF):
        raise ValueError(f"{what}: every value must be in 0..=4294967295")
    return np.ascontiguousarray(arr, dtype=np.uint32)


def out_tile(out: Any, lanes: int, n: int) -> np.ndarray:
    """The ``(n, lanes)`` C-contiguous array whose transpose ``out`` is: where ``Bank.draw``
    writes, element-major as rng-core draws."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy uint32 array, not {type(out).__name__}")
    if out.dtype != np.uint32:
        raise TypeError(f"out must be a numpy uint32 array, not a {out.dtype} one")
    if out.shape != (lanes, n):
        raise ValueError(f"out must have shape {(lanes, n)}, not {out.shape}")
    t = out.T
    if not (t.flags.c_contiguous and out.flags.writeable):
        raise ValueError(
            "out must be writeable and element-major: the .T of a C-contiguous (n, lanes) array "
            "(np.empty((n, lanes), np.uint32).T)"
        )
    return t
