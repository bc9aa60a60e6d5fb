"""Shared fixtures: the repository's known-answer files and the Rust command line as oracle.

The oracle is the workspace's own `neuron-isa` binary (the Rust crates themselves): taken from
$NEURON_ISA_BIN, else `target/debug/neuron-isa` (which `cargo test --workspace` builds), else
built with `cargo build -p neuron-isa`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parents[2]
KAT = ROOT / "rng-core" / "tests" / "kat"


def kat_rows(name: str) -> List[List[str]]:
    """The fields of each line of a known-answer file, comments and blank lines dropped."""
    rows = []
    for line in (KAT / name).read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rows.append(line.split())
    return rows


def _binary() -> Path:
    given = os.environ.get("NEURON_ISA_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    built = target / "debug" / "neuron-isa"
    if not built.exists():
        if shutil.which("cargo") is None:
            pytest.fail("the Rust oracle needs cargo or $NEURON_ISA_BIN")
        subprocess.run(["cargo", "build", "-q", "-p", "neuron-isa"], cwd=ROOT, check=True)
    return built


class Cli:
    """Runs `neuron-isa`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([str(self.path), *args], capture_output=True)
        if check and done.returncode != 0:
            raise AssertionError(f"neuron-isa {' '.join(args)}: {done.stderr.decode()}")
        return done

    def encode(self, gen: str, *args: str) -> bytes:
        return self.run("encode", "--gen", gen, "--raw", *args).stdout

    def display(self, gen: str, word: bytes) -> str:
        out = self.run("decode", "--gen", gen, "--short", word.hex()).stdout.decode()
        prefix = "word 0 @ 0x0: "
        assert out.startswith(prefix), out
        return out[len(prefix):].rstrip("\n")

    def validate(self, gen: str, engine: str, word: bytes) -> str:
        """'' when valid, else the violation line Rust prints."""
        done = self.run("validate", "--gen", gen, "--engine", engine, word.hex(), check=False)
        first = done.stdout.decode().splitlines()[0]
        if done.returncode == 0:
            return ""
        prefix = "word 0 @ 0x0: "
        assert first.startswith(prefix), first
        return first[len(prefix):]


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_binary())
