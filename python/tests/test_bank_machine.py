"""Bank and machine round trips, against the Rust command line where it says the same."""

from __future__ import annotations

import numpy as np
import pytest

import neuron_isa as ni


def dve_bank(**kw):
    return ni.rng.Bank("mariana", engine="dve", generator="rng-xorwow", algorithm="xorwow", **kw)


def test_a_restored_bank_repeats_its_draws_word_for_word():
    bank = dve_bank(lanes=128, seed=7)
    s = bank.get_state()
    assert s.shape == (128, 24) and s.dtype == np.uint32
    first = bank.draw(256)
    assert first.shape == (128, 256) and first.dtype == np.uint32
    assert not (bank.draw(256) == first).all()
    bank.set_state(s)
    assert (bank.draw(256) == first).all()
    assert (bank.get_state() != s).any()


def test_seeds_and_lanes():
    a, b = dve_bank(seed=7), dve_bank(seed=7)
    assert (a.draw(16) == b.draw(16)).all()
    assert not (dve_bank(seed=8).draw(16) == dve_bank(seed=7).draw(16)).all()
    few = dve_bank(lanes=4, seed=7)
    assert few.draw(8).shape == (4, 8) and few.get_state().shape == (4, 24)
    assert (few.draw(8) == dve_bank(seed=7).draw(16)[:4, 8:]).all()
    assert dve_bank().draw(0).shape == (128, 0)


def test_draws_fill_a_given_array_with_the_same_words():
    for lanes in (128, 5):
        a, b = dve_bank(lanes=lanes, seed=9), dve_bank(lanes=lanes, seed=9)
        out = np.empty((600, lanes), dtype=np.uint32).T
        assert a.draw(600, out=out) is out
        assert (out == b.draw(600)).all()
        again = a.draw(600)
        if lanes == 128:
            assert a.draw(600, out=again) is again
        for bad in (np.empty((lanes, 600), dtype=np.uint32), np.empty((600, lanes), dtype=np.int32).T,
                    np.empty((601, lanes), dtype=np.uint32).T, [[0] * 600] * lanes):
            with pytest.raises((TypeError, ValueError)):
                a.draw(600, out=bad)


def test_the_dve_element_index_starts_again_in_every_draw():
    """As the docstring says: draws continue across calls only in whole rounds of the four
    sub-generators."""
    one, two = dve_bank(seed=3), dve_bank(seed=3)
    assert (np.hstack([one.draw(8), one.draw(8)]) == two.draw(16)).all()
    one, two = dve_bank(seed=3), dve_bank(seed=3)
    assert not (np.hstack([one.draw(6), one.draw(6)]) == two.draw(12)).all()
    pool_a = ni.rng.Bank("cayman", engine="pool", generator="rng-xorwow", algorithm="xorwow", seed=3)
    pool_b = ni.rng.Bank("cayman", engine="pool", generator="rng-xorwow", algorithm="xorwow", seed=3)
    assert (np.hstack([pool_a.draw(6), pool_a.draw(6)]) == pool_b.draw(12)).all()


@pytest.mark.parametrize("gen", ni.GENERATIONS)
def test_every_bank_of_every_arm_round_trips(gen):
    m = ni.generation(gen)
    for arm in m.legality("RAND_GET_STATE"):
        spell = lambda v: v.lower().replace("_", "-")
        bank = ni.rng.Bank(gen, engine=spell(arm["engine"]), generator=spell(arm["rand_generator"]),
                           algorithm=spell(arm["rand_algorithm"]), lanes=8, seed=11)
        s = bank.get_state()
        assert s.shape == (8, arm["words"])
        first = bank.draw(12)
        bank.set_state(s.tolist())
        assert (bank.draw(12) == first).all()


def test_a_refused_restore_changes_nothing():
    bank = dve_bank(lanes=2, seed=1)
    s = bank.get_state()
    ahead = bank.draw(4)
    bank.set_state(s)
    for bad in (s[:1], s[:, :23], np.zeros((2, 24, 1), dtype=np.uint32), [[-1] * 24] * 2, [[2**32] * 24] * 2):
        with pytest.raises(ValueError):
            bank.set_state(bad)
    with pytest.raises(TypeError):
        bank.set_state(s.astype(np.float64))
    assert (bank.draw(4) == ahead).all()


def readme_program():
    m = ni.mariana
    return [
        m.set_rng_seed(seed=0x12345678),
        m.rand2(dst=0x000, channels=4, elems=8, min=-1, max=1),
        m.rand_get_state(engine="dve", generator="rng-xorwow", algorithm="xorwow", dst=0x1000, channels=4),
        m.rand2(dst=0x400, channels=4, elems=8, min=-1, max=1),
        m.rand_set_state(engine="dve", generator="rng-xorwow", algorithm="xorwow", update="src-tensor", src=0x1000, channels=4),
        m.rand2(dst=0x800, channels=4, elems=8, min=-1, max=1),
    ]


def test_the_machine_runs_the_readme_program_as_neuron_isa_run(cli, tmp_path):
    program = b"".join(w.to_bytes() for w in readme_program())
    path = tmp_path / "program.bin"
    path.write_bytes(program)
    mach = ni.Machine("mariana", engine="dve")
    assert mach.run(program) == 6
    b, c = mach.read(0x400, channels=4, words=8), mach.read(0x800, 4, 8)
    assert b.shape == (4, 8) and b.dtype == np.uint32
    assert (b == c).all()
    for addr in ("0x400", "0x800", "0x1000"):
        dump = cli.run("run", "--gen", "mariana", "--file", str(path), "--dump", f"{addr}:4:8").stdout.decode()
        rust = np.array([[int(w, 16) for w in line.split()] for line in dump.splitlines()], dtype=np.uint32)
        assert (mach.read(int(addr, 16), 4, 8) == rust).all()
    # Without an engine, the one engine that runs every word (DVE here), as `run` chooses.
    other = ni.Machine("mariana")
    other.run(program)
    assert (other.read(0x400, 4, 8) == b).all()


def test_a_refused_word_raises_naming_it_and_keeps_the_words_before():
    m = ni.mariana
    words = readme_program()[:2] + [m.rand2(dst=0x400, channels=4, elems=8, min=-1, max=1)]
    refused = m.rand_get_state(engine="pool", generator="rng-xorwow", algorithm="xorwow", dst=0x1000)
    program = b"".join(w.to_bytes() for w in words[:2] + [refused] + words[2:])
    mach = ni.Machine("mariana", engine="dve")
    with pytest.raises(ni.MachineError) as e:
        mach.run(program)
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.index, err.offset, err.instruction, err.executed) == (2, 128, "RAND_GET_STATE", 2)
    assert str(err).startswith("word 2 @ 0x80 (RAND_GET_STATE): ") and err.reason in str(err)
    assert mach.read(0x0, 4, 8).any(), "the words before it ran"
    assert not mach.read(0x1000, 4, 24).any(), "the refused word had no effect"
    assert not mach.read(0x400, 4, 8).any(), "nothing after it ran"


def test_write_and_read_are_twins():
    mach = ni.Machine("maverick")
    data = np.arange(3 * 5, dtype=np.uint32).reshape(3, 5) * 0x01010101
    mach.write(0x2000, data)
    assert (mach.read(0x2000, 3, 5) == data).all()
    assert (mach.read(0x2004, 3, 4) == data[:, 1:]).all()
    mach.write(0x2000, [[1, 2], [3, 4]])
    assert mach.read(0x2000, 2, 2).tolist() == [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match="channels"):
        mach.read(0x2000, 0, 1)
    with pytest.raises(ValueError):
        mach.write(0x2000, np.zeros((129, 1), dtype=np.uint32))
