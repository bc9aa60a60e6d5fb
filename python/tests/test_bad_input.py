"""Bad input never crashes and never surfaces a Rust panic: every entry point, fed random
bytes, wrong lengths, wrong types, huge and negative numbers and unknown names, either works or
raises TypeError / ValueError (Violation and MachineError are ValueErrors) with a one-line
message."""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest

import neuron_isa as ni

BAD: List[Any] = [
    None, True, 1.5, -1, -(2**70), 2**70, 2**64, 2**32, 65536, 256, 129, 0, float("nan"), float("inf"),
    10**400, "", "nope", "DVE ", "rng_xorwow", b"", b"\x00" * 63, bytearray(65), memoryview(b"x"),
    [], [1, 2], [-1] * 8, [2**33] * 8, list(range(9)), (1, 2, 3, 4, 5, 6, 7), {}, {"a": 1}, object(),
    np.int64(-5), np.uint64(2**63), np.float32(2.5), np.zeros(3), np.zeros((2, 2), dtype=np.int8),
    np.zeros(64, dtype=np.uint32), "0x10",
]

failures: List[str] = []


def check(call: Callable[[], Any], what: str) -> None:
    """Runs `call`; any exception must be a one-line TypeError or ValueError."""
    try:
        call()
    except (TypeError, ValueError) as e:
        text = str(e)
        assert type(e).__name__ != "PanicException", f"{what}: panic: {text}"
        assert "\n" not in text, f"{what}: message of several lines: {text!r}"
        assert text, f"{what}: empty message"
    except BaseException as e:  # noqa: BLE001 - the point is to see anything else
        failures.append(f"{what}: {type(e).__name__}: {e}")
        raise AssertionError(f"{what}: {type(e).__name__}: {e}") from e


def substitute(name: str, call: Callable[..., Any], valid: Dict[str, Any]) -> None:
    """`call(**valid)` works; each argument replaced by each bad value does not crash."""
    call(**valid)
    for key in valid:
        for bad in BAD:
            args = dict(valid)
            args[key] = bad
            check(lambda: call(**args), f"{name}({key}={bad!r})")
    check(lambda: call(**valid, unknown=1), f"{name}(unknown=1)")
    if valid:
        check(lambda: call(), f"{name}()")


M = ni.mariana
CONSTRUCTORS: List[Tuple[str, Dict[str, Any]]] = [
    ("rand2", dict(dst=0x400, channels=4, elems=8, min=-1.0, max=1.0, dtype="fp32")),
    ("rand_raw_u32", dict(dst=0x100, elems=4, channels=2, dtype="uint32")),
    ("rand_uniform_in_range", dict(dst=0x100, elems=4, min=0, max=1, channels=2, dtype="fp32")),
    ("rng", dict(dst=0x100, elems=4, channels=2, dtype="int32")),
    ("dropout", dict(src=0x800, dst=0x400, elems=8, prob=0.5, channels=4, dtype="fp32", keep_rate=True)),
    ("set_rng_seed", dict(seed=7)),
    ("pe_load_seed", dict(src=0x1000, elems=16, identity_dtype="bfloat16")),
    ("pe_save_seed", dict(identity_dtype="fp16")),
    ("rand_set_state", dict(engine="dve", generator="rng-xorwow", algorithm="xorwow", update="src-tensor", src=0x100, channels=4)),
    ("rand_set_state", dict(engine="pool", generator="rng-philox", algorithm="philox", update="imm-single", imm=[1, 2], channels=4)),
    ("rand_get_state", dict(engine="dve", generator="rng-xorwow", algorithm="xorwow", dst=0x1000, channels=4)),
]


@pytest.mark.parametrize("gen", ni.GENERATIONS)
@pytest.mark.parametrize("name,valid", CONSTRUCTORS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CONSTRUCTORS)])
def test_constructors(gen: str, name: str, valid: Dict[str, Any]) -> None:
    method = getattr(ni.generation(gen), name)
    try:
        method(**valid)
    except ValueError:
        valid = {}  # the generation lacks it: every call must still fail cleanly
    for key in list(valid) or ["dst"]:
        for bad in BAD:
            args = dict(valid)
            args[key] = bad
            check(lambda: method(**args), f"{gen}.{name}({key}={bad!r})")
    check(lambda: method(), f"{gen}.{name}()")
    check(lambda: method(1, 2), f"{gen}.{name}(1, 2)")


def test_generations_and_their_queries() -> None:
    for bad in BAD:
        check(lambda: ni.generation(bad), f"generation({bad!r})")
        check(lambda: ni.Generation(bad), f"Generation({bad!r})")
        for gen in ni.GENERATIONS:
            m = ni.generation(gen)
            for method in ("decode", "decode_stream", "legality", "engines"):
                check(lambda: getattr(m, method)(bad), f"{gen}.{method}({bad!r})")
            check(lambda: m.validate_stream(bad, "dve"), f"{gen}.validate_stream({bad!r}, 'dve')")
            check(lambda: m.validate_stream(b"\x00" * 64, bad), f"{gen}.validate_stream(word, {bad!r})")
            w = m.set_rng_seed(seed=1)
            check(lambda: w.validate(bad), f"{gen} word.validate({bad!r})")
    check(lambda: ni.mariana.decode(), "decode()")


def valid_words(m: ni.Generation) -> List[bytes]:
    words = []
    for name, valid in CONSTRUCTORS:
        try:
            words.append(getattr(m, name)(**valid).to_bytes())
        except ValueError:
            pass
    return words


def test_random_bytes_everywhere() -> None:
    rnd = random.Random(0x5EED)
    seen = 0
    for gen in ni.GENERATIONS:
        m = ni.generation(gen)
        bases = valid_words(m)
        for k in range(1500):
            if k % 3 == 0:
                data = bytes(rnd.randrange(256) for _ in range(rnd.choice([64, rnd.randrange(0, 300)])))
            else:
                # a valid word with one to three bytes changed
                word = bytearray(rnd.choice(bases))
                for _ in range(rnd.randrange(1, 4)):
                    word[rnd.randrange(64)] = rnd.randrange(256)
                data = bytes(word)
            for buf in (data, bytearray(data), memoryview(data), np.frombuffer(data, dtype=np.uint8)):
                check(lambda: m.decode_stream(buf), f"{gen}.decode_stream({data.hex()})")
            check(lambda: m.validate_stream(data, "dve"), f"{gen}.validate_stream({data.hex()})")
            check(lambda: ni.Machine(gen, engine="dve").run(data), f"Machine({gen}).run({data.hex()})")
            try:
                w = m.decode(data)
            except ValueError:
                continue
            seen += 1
            str(w), repr(w), w.fields, w.opcode
            for engine in m.all_engines:
                check(lambda: w.validate(engine), f"{gen}.decode({data.hex()}).validate({engine})")
    assert seen > 1000, "mutated words decode often"


def test_bit_generators() -> None:
    makers = [
        ("Philox4x32", ni.rng.Philox4x32, dict(counter=(1, 2, 3, 4), key=(5, 6))),
        ("Xorwow", ni.rng.Xorwow, dict(state=(1, 2, 3, 4, 5, 6))),
        ("Pcg32", ni.rng.Pcg32, dict(state=1, inc=3)),
        ("Lfsr", ni.rng.Lfsr, dict(state=1)),
    ]
    for name, cls, valid in makers:
        substitute(name, cls, valid)
        bg = cls(**valid)
        for bad in BAD:
            check(lambda: bg.draw(bad), f"{name}.draw({bad!r})")
            check(lambda: setattr(bg, "state", bad), f"{name}.state = {bad!r}")
            good = bg.state
            for key in list(good) + list(good["state"]):
                broken = {k: v for k, v in good.items()}
                broken["state"] = dict(good["state"])
                if key in broken["state"]:
                    broken["state"][key] = bad
                else:
                    broken[key] = bad
                check(lambda: setattr(bg, "state", broken), f"{name}.state[{key}] = {bad!r}")
            for key in list(good):
                missing = {k: v for k, v in good.items() if k != key}
                check(lambda: setattr(bg, "state", missing), f"{name}.state without {key}")
        check(lambda: bg.draw(2**40), f"{name}.draw(2**40)")


def test_banks_and_machines() -> None:
    substitute("Bank", ni.rng.Bank, dict(generation="mariana", engine="dve", generator="rng-xorwow",
                                          algorithm="xorwow", lanes=4, seed=7))
    bank = ni.rng.Bank("mariana", engine="dve", generator="rng-xorwow", algorithm="xorwow", lanes=4)
    substitute("Machine", ni.Machine, dict(generation="mariana", engine="dve"))
    mach = ni.Machine("mariana", engine="dve")
    for bad in BAD:
        check(lambda: bank.draw(bad), f"Bank.draw({bad!r})")
        check(lambda: bank.draw(3, out=bad), f"Bank.draw(3, out={bad!r})")
        check(lambda: bank.set_state(bad), f"Bank.set_state({bad!r})")
        check(lambda: mach.run(bad), f"Machine.run({bad!r})")
        check(lambda: mach.run(b"", engine=bad), f"Machine.run(engine={bad!r})")
        check(lambda: mach.write(bad, [[1]]), f"Machine.write({bad!r}, ...)")
        check(lambda: mach.write(0x100, bad), f"Machine.write(0x100, {bad!r})")
        for args in ((bad, 1, 1), (0x100, bad, 1), (0x100, 1, bad)):
            check(lambda: mach.read(*args), f"Machine.read{args!r}")
    check(lambda: bank.draw(2**40), "Bank.draw(2**40)")
    check(lambda: mach.write(0x100, np.zeros((1, 1 << 20), dtype=np.uint32)), "Machine.write(too wide)")


def test_nothing_else_was_raised() -> None:
    assert failures == []
