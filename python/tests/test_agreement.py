"""Word for word with the Rust crates: every constructor of every generation against
`neuron-isa encode ... --raw`, `str(w)` against `decode --short` (the Rust `Display` line) and
`w.validate` against `validate` (the Rust `Violation`'s `Display`)."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

import pytest

import neuron_isa as ni

# (name, Python call, the same instruction as `neuron-isa encode` arguments)
DRAWS: List[Tuple[str, Callable[[ni.Generation], ni.Instruction], List[str]]] = [
    ("rand2", lambda m: m.rand2(dst=0x400, channels=4, elems=8, min=-1.0, max=1.0),
     ["rand2", "--dst", "0x400", "--channels", "4", "--elems", "8", "--min", "-1", "--max", "1"]),
    ("rand2 bfloat16", lambda m: m.rand2(dst=0, elems=3, min=0.25, max=7, dtype="bfloat16"),
     ["rand2", "--dst", "0", "--elems", "3", "--min", "0.25", "--max", "7", "--dtype", "bfloat16"]),
    ("rand_raw_u32", lambda m: m.rand_raw_u32(dst=0x100, elems=4),
     ["rand", "--dst", "0x100", "--elems", "4"]),
    ("rand_raw_u32 int32", lambda m: m.rand_raw_u32(dst=0x100, elems=2, channels=1, dtype="INT32"),
     ["rand", "--dst", "0x100", "--elems", "2", "--channels", "1", "--dtype", "int32", "--post-process", "raw-u32"]),
    ("rand_uniform_in_range", lambda m: m.rand_uniform_in_range(dst=0x200, elems=4, min=0.0, max=1.0),
     ["rand", "--post-process", "uniform-in-range", "--dst", "0x200", "--elems", "4", "--min", "0", "--max", "1"]),
    ("rng", lambda m: m.rng(dst=0x100, elems=4, dtype="int32"),
     ["rng", "--dst", "0x100", "--elems", "4", "--dtype", "int32"]),
    ("dropout", lambda m: m.dropout(src=0x800, dst=0x400, elems=8, prob=0.1, channels=4),
     ["dropout", "--src", "0x800", "--dst", "0x400", "--elems", "8", "--prob", "0.1", "--channels", "4"]),
    ("dropout keep", lambda m: m.dropout(src=0x800, dst=0x400, elems=8, prob=0.9, keep_rate=True, dtype="bfloat16"),
     ["dropout", "--src", "0x800", "--dst", "0x400", "--elems", "8", "--prob", "0.9", "--keep-rate", "--dtype", "bfloat16"]),
    ("set_rng_seed", lambda m: m.set_rng_seed(seed=0x12345678),
     ["set-rng-seed", "--seed", "0x12345678"]),
    ("set_rng_seed src", lambda m: m.set_rng_seed(src=0x100),
     ["set-rng-seed", "--src", "0x100"]),
    ("pe_load_seed", lambda m: m.pe_load_seed(src=0x1000),
     ["pe-manage-seed", "--mode", "load-seed", "--src", "0x1000"]),
    ("pe_load_seed elems", lambda m: m.pe_load_seed(src=0x1000, elems=4, identity_dtype="fp16"),
     ["pe-manage-seed", "--mode", "load-seed", "--src", "0x1000", "--elems", "4", "--identity-dtype", "fp16"]),
    ("pe_save_seed", lambda m: m.pe_save_seed(),
     ["pe-manage-seed", "--mode", "save-seed"]),
]

ENGINES = ("pool", "dve", "act")


def spell(vendor: str) -> str:
    return vendor.lower().replace("_", "-")


def agree(cli: Any, gen: str, word: ni.Instruction) -> None:
    """str(w) and every engine's verdict are Rust's."""
    data = word.to_bytes()
    assert bytes(word) == data and len(data) == 64
    assert str(word) == cli.display(gen, data)
    for engine in ENGINES:
        expected = cli.validate(gen, engine, data)
        try:
            word.validate(engine)
            got = ""
        except ni.Violation as v:
            got = str(v)
            assert v.path[-1] == v.predicate and v.predicate in got
            assert all(f"{name} = " in got for name in v.values)
        assert got == expected, (gen, engine)


@pytest.mark.parametrize("gen", ni.GENERATIONS)
@pytest.mark.parametrize("name,build,args", DRAWS, ids=[d[0] for d in DRAWS])
def test_draw_constructors_agree(cli: Any, gen: str, name: str, build: Any, args: List[str]) -> None:
    m = ni.generation(gen)
    rust = cli.run("encode", "--gen", gen, "--raw", *args, check=False)
    if rust.returncode != 0:
        with pytest.raises(ValueError) as refused:
            build(m)
        assert m.name.upper() in str(refused.value)
        assert "\n" not in str(refused.value)
        return
    word = build(m)
    assert word.to_bytes() == rust.stdout, name
    assert word.generation == gen
    assert m.decode(rust.stdout) == word
    agree(cli, gen, word)


def arm_args(arm: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    kw = {
        "engine": spell(arm["engine"]),
        "generator": spell(arm["rand_generator"]),
        "algorithm": spell(arm["rand_algorithm"]),
        "channels": 4,
    }
    args = ["--engine", kw["engine"], "--generator", kw["generator"], "--algorithm", kw["algorithm"], "--channels", "4"]
    return kw, args


@pytest.mark.parametrize("gen", ni.GENERATIONS)
def test_checkpoint_constructors_agree_on_every_arm(cli: Any, gen: str) -> None:
    m = ni.generation(gen)
    restores = m.legality("RAND_SET_STATE")
    saves = m.legality("RAND_GET_STATE")
    assert restores and saves
    for arm in restores:
        kw, args = arm_args(arm)
        update = spell(arm["update_state"])
        if update == "src-tensor":
            word = m.rand_set_state(update=update, src=0x100, **kw)
            rust = cli.encode(gen, "rand-set-state", *args, "--update", update, "--src", "0x100")
        else:
            word = m.rand_set_state(update=update, imm=[1, 2, 3], **kw)
            rust = cli.encode(gen, "rand-set-state", *args, "--update", update, "--imm", "1,2,3")
        assert word.to_bytes() == rust, arm
        assert word.fields["src_mem_pattern"]["num_elem"][0] == arm["words"]
        agree(cli, gen, word)
    for arm in saves:
        kw, args = arm_args(arm)
        word = m.rand_get_state(dst=0x1000, **kw)
        assert word.to_bytes() == cli.encode(gen, "rand-get-state", *args, "--dst", "0x1000"), arm
        agree(cli, gen, word)


@pytest.mark.parametrize("gen", ni.GENERATIONS)
def test_illegal_arms_name_the_generation_and_list_the_legal_ones(gen: str) -> None:
    m = ni.generation(gen)
    with pytest.raises(ValueError) as refused:
        m.rand_set_state(engine="pool", generator="rng-xorwow", algorithm="lfsr", update="src-tensor", src=0)
    text = str(refused.value)
    assert gen.upper() in text and "\n" not in text
    assert 'rand_set_state(engine="pool", generator="rng-xorwow", algorithm="lfsr", update="src-tensor")' in text
    for arm in m.legality("RAND_SET_STATE"):
        assert f"({spell(arm['engine'])}, {spell(arm['rand_generator'])}, {spell(arm['rand_algorithm'])}, " in text
    with pytest.raises(ValueError, match=gen.upper()):
        m.rand_get_state(engine="act", generator="rng-philox", algorithm="philox", dst=0)


def test_legality_is_the_matrix(cli: Any) -> None:
    import json

    rows = json.loads(cli.run("matrix", "--json").stdout)
    for gen in ni.GENERATIONS:
        m = ni.generation(gen)
        for instruction in ("RAND_SET_STATE", "RAND_GET_STATE"):
            ours = m.legality(instruction)
            theirs = [r for r in rows if r["generation"] == gen and r["instruction"] == instruction]
            assert len(ours) == len(theirs)
            for a, b in zip(ours, theirs):
                assert (a["engine"], a["rand_generator"], a["rand_algorithm"]) == (b["engine"], b["generator"], b["algorithm"])
                assert a.get("update_state") == b["update_state"]
                assert (a["words"], a["firmware"], a["evidence"]) == (b["words"], b["firmware_wired"], b["firmware_evidence"])


def test_engines_follow_the_placement() -> None:
    assert ni.mariana.engines("RAND2") == ("DVE",)
    assert "POOL" in ni.mariana.engines("RAND_SET_STATE")
    with pytest.raises(ValueError, match="SUNDA has no instruction `NOPE`"):
        ni.sunda.engines("NOPE")


def test_placement_evidence_is_the_header_note() -> None:
    # instr_assert.h: mariana's ACT lines cite C11, sunda's POOL RAND line A55, RAND2 cites nothing.
    assert ni.mariana.placement_evidence("RAND_GET_STATE", "ACT") == "conflict (C11)"
    assert ni.sunda.placement_evidence("RAND_SET_STATE", "POOL") == "conflict (C12)"
    assert ni.sunda.placement_evidence("RAND", "POOL") == "assumed (A55)"
    assert ni.mariana.placement_evidence("RAND2", "DVE") == "observed"
    assert ni.mariana.placement_evidence("RAND2", "POOL") is None
    with pytest.raises(ValueError, match="SUNDA has no engine `GPU`"):
        ni.sunda.placement_evidence("RAND", "GPU")


def test_streams_decode_and_validate_in_one_call(cli: Any) -> None:
    m = ni.mariana
    words = [m.rand2(dst=0x400, channels=4, elems=8, min=-1.0, max=1.0), m.rand2(dst=0, elems=8, min=1.0, max=1.0),
             m.set_rng_seed(seed=7), m.rand_raw_u32(dst=0x100, elems=4)]
    stream = b"".join(w.to_bytes() for w in words)
    decoded = m.decode_stream(stream)
    assert [o for o, _ in decoded] == [0, 64, 128, 192]
    assert [w for _, w in decoded] == words
    for buf in (stream, bytearray(stream), memoryview(stream)):
        verdicts = m.validate_stream(buf, "dve")
        assert verdicts.dtype == bool and verdicts.shape == (4,)
        assert verdicts.tolist() == [cli.validate("mariana", "dve", w.to_bytes()) == "" for w in words]
    with pytest.raises(ValueError, match="partial word: 5 bytes at offset 0x100"):
        m.decode_stream(stream + b"12345")
    with pytest.raises(ValueError, match="partial word"):
        m.validate_stream(stream[:-1], "dve")
    assert m.validate_stream(b"", "dve").shape == (0,)
