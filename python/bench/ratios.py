"""The Python package against its baselines, side by side in one run (README, "Python").

Three rows, each as the median (and range) over rounds of baseline time / package time, so
> 1 means the package is faster; the sides alternate within every round:

* ``bank.draw`` of 128 lanes x 1 M words (DVE XORWOW, MARIANA) against the Rust bank's rate
  for the same bank (rng-core's ``EngineRng``), twice: a new array per call against a new
  ``Vec`` per draw (the memory's first touch included on both sides, each side with its own
  allocator: numpy asks for huge pages), and ``draw(n, out=array)`` into the same array against
  draws into the same ``Vec``: goal >= 0.9 for both;
* ``numpy.random.Generator(ni.rng.Philox4x32(...)).random(10**7)`` against the same call on
  randomgen's ``Philox(number=4, width=32)`` (goal >= 2) and on numpy's own ``Philox`` (a 4x64
  variant; reported);
* ``ni.mariana.validate_stream`` of 1 M words given as ``bytes`` against the Rust library's
  ``decode`` + ``validate`` of the same words on the same engine: goal >= 0.8.

The Rust sides are ``python/benches/rates.rs``, run through ``cargo bench`` (release profile).
Run from anywhere: ``python python/bench/ratios.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, List

# numpy's BLAS threads spin while idle and take a core of the two from every side alike.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import neuron_isa as ni  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BANK = ("mariana", "dve", "rng-xorwow", "xorwow", 128, 7)
BANK_WORDS = 1 << 20
DOUBLES = 10**7
STREAM_WORDS = 1 << 20


def best(run: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def rust(*args: object) -> float:
    out = subprocess.run(
        ["cargo", "bench", "-q", "-p", "neuron-isa-python", "--bench", "rates", "--", *map(str, args)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    return float(out.stdout.split()[-1])


def stream_words() -> bytes:
    """1 M words cycling through MARIANA instructions of every constructor (some illegal on DVE)."""
    m = ni.mariana
    words = [
        m.rand2(dst=0x100, elems=4, min=0.5, max=1.0),
        m.dropout(src=0x100, dst=0x200, elems=4, prob=0.0),
        m.set_rng_seed(seed=7),
        m.rand_set_state(engine="dve", generator="rng-xorwow", algorithm="xorwow", update="src-tensor", src=0x100),
        m.rand_get_state(engine="dve", generator="rng-xorwow", algorithm="xorwow", dst=0x100),
        m.rand_raw_u32(dst=0x100, elems=4),
        m.rng(dst=0x100, elems=4),
        m.pe_load_seed(src=0x100, elems=4),
    ]
    one = b"".join(w.to_bytes() for w in words)
    return (one * (STREAM_WORDS // len(words) + 1))[: STREAM_WORDS * 64]


def row(name: str, baseline: str, ratios: List[float], goal: str, holds: Callable[[float], bool]) -> str:
    med = statistics.median(ratios)
    return (f"| {name} | {baseline} | {med:.2f} ({min(ratios):.2f}-{max(ratios):.2f}) | {goal} | "
            f"{'yes' if holds(med) else 'no'} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=3, help="timings per side per round (best kept)")
    a = parser.parse_args()

    import randomgen  # type: ignore[import-untyped]

    subprocess.run(["cargo", "bench", "-q", "-p", "neuron-isa-python", "--bench", "rates", "--no-run"],
                   cwd=ROOT, check=True, capture_output=True)
    gen, engine, generator, algorithm, lanes, seed = BANK
    bank = ni.rng.Bank(gen, engine=engine, generator=generator, algorithm=algorithm, lanes=lanes, seed=seed)
    # The words are the same on both sides before anything is timed.
    check = ni.rng.Bank(gen, engine=engine, generator=generator, algorithm=algorithm, lanes=lanes, seed=seed)
    assert check.draw(BANK_WORDS).shape == (128, BANK_WORDS)
    stream = stream_words()
    verdicts = ni.mariana.validate_stream(stream, "dve")
    assert verdicts.shape == (STREAM_WORDS,) and 0 < verdicts.sum() < STREAM_WORDS
    ours = ni.rng.Philox4x32(counter=(1, 0, 0, 0), key=(2, 3))
    theirs = randomgen.Philox(number=4, width=32, counter=0, key=2 | 3 << 32)
    assert (np.random.Generator(ours).random(1000) == np.random.Generator(theirs).random(1000)).all()

    reused = np.empty((BANK_WORDS, 128), dtype=np.uint32).T
    bank_r, reused_r, rg_r, np_r, val_r = [], [], [], [], []
    seconds: dict = {"ni": [], "randomgen": [], "numpy": []}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "words.bin"
        path.write_bytes(stream)
        for _ in range(a.rounds):
            py = best(lambda: bank.draw(BANK_WORDS), a.reps)
            rs = rust("bank", gen, engine, generator, algorithm, lanes, seed, BANK_WORDS, a.reps, "fresh")
            bank_r.append(rs / py)
            bank.draw(BANK_WORDS, out=reused)
            py = best(lambda: bank.draw(BANK_WORDS, out=reused), a.reps)
            rs = rust("bank", gen, engine, generator, algorithm, lanes, seed, BANK_WORDS, a.reps, "reused")
            reused_r.append(rs / py)
            g_ni = np.random.Generator(ni.rng.Philox4x32(counter=(1, 0, 0, 0), key=(2, 3)))
            g_rg = np.random.Generator(randomgen.Philox(number=4, width=32, counter=0, key=2 | 3 << 32))
            g_np = np.random.Generator(np.random.Philox(1))
            t_ni = best(lambda: g_ni.random(DOUBLES), a.reps)
            t_rg = best(lambda: g_rg.random(DOUBLES), a.reps)
            t_np = best(lambda: g_np.random(DOUBLES), a.reps)
            rg_r.append(t_rg / t_ni)
            for side, t in (("ni", t_ni), ("randomgen", t_rg), ("numpy", t_np)):
                seconds[side].append(t)
            np_r.append(t_np / t_ni)
            py = best(lambda: ni.mariana.validate_stream(stream, "dve"), a.reps)
            rs = rust("validate", "mariana", "dve", path, a.reps)
            val_r.append(rs / py)

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{now}; {cpu}, {os.cpu_count()} cores, load average {load} at the end; {a.rounds} rounds; "
          f"Python {platform.python_version()}, numpy {np.__version__}, randomgen {randomgen.__version__}")
    print("random(10**7), median seconds: " + ", ".join(
        f"{side} {statistics.median(t):.4f}" for side, t in seconds.items()))
    print()
    print("| what | baseline | baseline time / package time, median (range) | goal | holds |")
    print("|---|---|---|---|---|")
    print(row("`Bank.draw(2**20)`, 128 lanes (MARIANA DVE XORWOW), a new array each", "rng-core's bank from Rust, a new `Vec` each",
              bank_r, ">= 0.9", lambda r: r >= 0.9))
    print(row("`Bank.draw(2**20, out=a)`, the same array each", "rng-core's bank from Rust, the same `Vec` each",
              reused_r, ">= 0.9", lambda r: r >= 0.9))
    print(row("`Generator(Philox4x32).random(10**7)`", "randomgen `Philox(number=4, width=32)`", rg_r, ">= 2",
              lambda r: r >= 2))
    print(row("`Generator(Philox4x32).random(10**7)`", "numpy `Philox` (4x64)", np_r, "reported", lambda r: True))
    print(row("`mariana.validate_stream`, 1 M words (bytes)", "Rust `decode` + `validate` of the same words",
              val_r, ">= 0.8", lambda r: r >= 0.8))


if __name__ == "__main__":
    main()
