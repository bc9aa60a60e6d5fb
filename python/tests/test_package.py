"""The README's Python example as written, the wheel's tag as the README says, and the
documentation every public name carries."""

from __future__ import annotations

import importlib.metadata
import inspect
import re
from pathlib import Path

import neuron_isa as ni
from conftest import ROOT


def readme_example() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Python: the package `neuron_isa`"):]
    return section.split("```python\n", 1)[1].split("\n```", 1)[0]


def test_the_readme_example_runs_as_written(capsys):
    exec(compile(readme_example(), "README.md (Python example)", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("RAND2 header={inst_word_len=16}")
    assert printed[1].startswith("inst failed assertion check: 'RAND2 runs on DVE'")
    assert "MARIANA" in printed[2]


def test_the_wheel_is_tagged_as_the_readme_says():
    dist = importlib.metadata.distribution("neuron-isa")
    wheel = next(f for f in dist.files if f.name == "WHEEL")
    tags = re.findall(r"^Tag: (\S+)$", wheel.read_text(), re.M)
    readme = (ROOT / "README.md").read_text()
    assert "The wheel is tagged `cp39-abi3-<platform>`" in readme
    assert tags and all(t.startswith("cp39-abi3-") for t in tags), tags


def test_every_public_name_has_a_docstring():
    names = []
    for module in (ni, ni.rng):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or callable(obj):
                names.append((f"{module.__name__}.{name}", obj))
                for attr, member in vars(obj).items() if inspect.isclass(obj) else []:
                    if not attr.startswith("_") and (callable(member) or isinstance(member, property)
                                                     or type(member).__name__ == "getset_descriptor"):
                        names.append((f"{module.__name__}.{name}.{attr}", member))
    for gen in ni.GENERATIONS:
        m = ni.generation(gen)
        names += [(f"{gen}.{n}", getattr(m, n)) for n in dir(m) if not n.startswith("_")]
    missing = [n for n, obj in names if not (getattr(obj, "__doc__", None) or "").strip()]
    assert missing == []
    assert len(names) > 80


def test_help_reads_like_the_rustdoc():
    doc = ni.mariana.rand_set_state.__doc__
    assert "RAND_SET_STATE (0x78)" in doc and "`RandSetState::restore`" in doc
    sig = inspect.signature(ni.mariana.rand_set_state)
    assert list(sig.parameters) == ["engine", "generator", "algorithm", "update", "src", "channels", "imm"]
    assert sig.parameters["channels"].default == 128
    assert str(inspect.signature(ni.mariana.rand2)) == "(*, dst, elems, min, max, channels=128, dtype='fp32')"
