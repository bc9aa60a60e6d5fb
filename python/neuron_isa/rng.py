"""The ``neuron-isa rng`` streams as numpy bit generators, and rng-core's lane banks.

``Philox4x32``, ``Xorwow``, ``Pcg32`` and ``Lfsr`` are ``numpy.random.BitGenerator``\\ s: their
``capsule`` points to the C ``bitgen_t`` of the Rust stream and their ``lock`` is the lock
numpy takes around its calls, so ``numpy.random.Generator(Philox4x32(...))`` draws from the
model's stream. ``next_uint32`` is the stream itself (``Generator.integers(0, 2**32,
dtype=np.uint32)`` reproduces ``draw``), ``next_uint64`` two words (the first the high half)
and ``next_double`` ``((w0 >> 5) * 2**26 + (w1 >> 6)) / 2**53``, as randomgen's 32-bit
generators build them. ``state`` round-trips as numpy's own, and both the bit generators and
Generators over them pickle. They have no ``SeedSequence``: ``spawn`` raises TypeError.

``Bank`` is one engine's generator state for all its lanes (``rng_core::EngineRng``): drawn,
saved (the RAND_GET_STATE tile) and restored (RAND_SET_STATE) as the instructions do.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence, Tuple, Type, Union

import numpy as np
import numpy.typing as npt

from . import _native
from ._native import Bank

__all__ = ["Bank", "Lfsr", "Pcg32", "Philox4x32", "Xorwow"]

_Int = Union[int, np.integer]
_Core = Union[_native.Philox4x32, _native.Xorwow, _native.Pcg32, _native.Lfsr]


class _Stream(np.random.BitGenerator):
    """What the four bit generators share: a Rust stream (``_native``) behind numpy's protocol.

    numpy's ``BitGenerator`` base keeps a C ``bitgen_t`` of its own, unused here: everything
    that would read it (``random_raw``, ``ctypes``, ``cffi``) is answered from the Rust stream.
    """

    _core: _Core
    _native_class: Type[Any]

    def __init__(self, core: _Core) -> None:
        super().__init__(0)
        self._core = core

    @property
    def capsule(self) -> Any:
        """numpy's ``PyCapsule`` named ``"BitGenerator"`` for the Rust ``bitgen_t``."""
        return self._core.capsule

    @property
    def lock(self) -> Any:  # type: ignore[override]  # numpy's stub has a plain attribute
        """The ``threading.Lock`` numpy holds while it calls the capsule's functions."""
        return self._core.lock

    @property
    def state(self) -> Mapping[str, Any]:
        """The position in the stream as a dict; assigning one moves the stream there."""
        return self._core.state

    @state.setter
    def state(self, value: Mapping[str, Any]) -> None:
        self._core.state = value  # type: ignore[assignment]  # checked in Rust: TypeError

    @property
    def seed_seq(self) -> None:  # type: ignore[override]  # numpy's says ISeedSequence
        """None: a stream of the model is positioned by its state, not seeded by a sequence."""
        return None

    def draw(self, n: _Int) -> npt.NDArray[np.uint32]:
        """The next ``n`` words of the stream: a numpy uint32 array."""
        return self._core.draw(n)

    def random_raw(self, size: Optional[_Int] = None, output: bool = True) -> Any:  # type: ignore[override]
        """The next words of the stream, as numpy's ``random_raw`` (uint64 array, or an int
        when ``size`` is None; nothing when ``output`` is false)."""
        n = 1 if size is None else size
        words = self._core.draw(n).astype(np.uint64)
        if not output:
            return None
        return int(words[0]) if size is None else words

    def spawn(self, n_children: int) -> Any:
        """Not supported: raises TypeError, as numpy's bit generators without a SeedSequence do."""
        return self._core.spawn(n_children)

    @property
    def ctypes(self) -> Any:
        """Not provided: the C interface is the ``capsule``."""
        raise NotImplementedError(f"{type(self).__name__} offers its C interface as .capsule")

    @property
    def cffi(self) -> Any:
        """Not provided: the C interface is the ``capsule``."""
        raise NotImplementedError(f"{type(self).__name__} offers its C interface as .capsule")

    def __getstate__(self) -> Mapping[str, Any]:  # type: ignore[override]
        return self.state

    def __setstate__(self, state: Any) -> None:
        self.state = state

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (), self.state)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.state['state']!r})"


class Philox4x32(_Stream):
    __doc__ = _native.Philox4x32.__doc__

    def __init__(self, counter: Sequence[_Int] = (0, 0, 0, 0), key: Sequence[_Int] = (0, 0)) -> None:
        super().__init__(_native.Philox4x32(counter, key))


class Xorwow(_Stream):
    __doc__ = _native.Xorwow.__doc__

    def __init__(
        self, state: Sequence[_Int] = (123456789, 362436069, 521288629, 88675123, 5783321, 6615241)
    ) -> None:
        super().__init__(_native.Xorwow(state))


class Pcg32(_Stream):
    __doc__ = _native.Pcg32.__doc__

    def __init__(self, state: _Int = 0, inc: _Int = 0x14057B7EF767814F) -> None:
        super().__init__(_native.Pcg32(state, inc))


class Lfsr(_Stream):
    __doc__ = _native.Lfsr.__doc__

    def __init__(self, state: _Int = 1) -> None:
        super().__init__(_native.Lfsr(state))
