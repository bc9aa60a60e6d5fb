"""Neuron TPB instruction words, validators, RNG models and the machine, from Python.

The Rust crates of the ``neuron-isa`` workspace behind one package, so Python sees exactly the
Rust behaviour:

* ``neuron_isa.sunda``, ``.cayman``, ``.mariana``, ``.maverick`` (also
  ``neuron_isa.generation(name)``): each generation's instruction constructors (named as
  ``neuron-isa encode``'s flags), ``decode``, ``decode_stream``, ``validate_stream``,
  ``legality`` and ``engines``; the words are ``neuron_isa.Instruction`` objects
  (``str(w)`` is Rust's one-line disassembly, ``w.validate(engine)`` the header's validator).
* ``neuron_isa.Violation``: what a validator reports (a ValueError).
* ``neuron_isa.rng``: the generators as numpy bit generators, and rng-core's lane banks.
* ``neuron_isa.Machine``: rng-core's machine running words (``neuron_isa.MachineError``).

Bad input raises TypeError (wrong type) or ValueError (wrong value) with a one-line message.
"""

from __future__ import annotations

from typing import Dict

from . import _native, rng
from ._native import (
    GENERATIONS,
    Generation,
    Instruction,
    Machine,
    MachineError,
    Violation,
)

__all__ = [
    "GENERATIONS",
    "Generation",
    "Instruction",
    "Machine",
    "MachineError",
    "Violation",
    "cayman",
    "generation",
    "mariana",
    "maverick",
    "rng",
    "sunda",
]

_BY_NAME: Dict[str, Generation] = {name: Generation(name) for name in GENERATIONS}

sunda: Generation = _BY_NAME["sunda"]
cayman: Generation = _BY_NAME["cayman"]
mariana: Generation = _BY_NAME["mariana"]
maverick: Generation = _BY_NAME["maverick"]


def generation(name: str) -> Generation:
    """The generation named ``name`` (``"mariana"``): the same object as ``neuron_isa.mariana``."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    try:
        return _BY_NAME[name.lower() if name.isupper() else name]
    except KeyError:
        raise ValueError(
            f"no generation {name!r}; the generations are {', '.join(GENERATIONS)}"
        ) from None
