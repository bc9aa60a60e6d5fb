"""numpy's BitGenerator protocol, the state round trip, pickling, and agreement with
randomgen's Philox(number=4, width=32)."""

from __future__ import annotations

import pickle
import threading

import numpy as np
import pytest

import neuron_isa as ni

MAKERS = {
    "Philox4x32": lambda: ni.rng.Philox4x32(counter=(7, 0, 0, 0), key=(0x1234, 0x5678)),
    "Xorwow": lambda: ni.rng.Xorwow(state=(1, 2, 3, 4, 5, 6)),
    "Pcg32": lambda: ni.rng.Pcg32(state=42, inc=54 * 2 + 1),
    "Lfsr": lambda: ni.rng.Lfsr(state=0xDEADBEEF),
}


def cli_stream(cli, args, n):
    out = cli.run("rng", *args, "--count", str(n)).stdout.decode().split()
    return [int(w) for w in out]


def test_the_streams_are_neuron_isa_rngs(cli):
    n = 300
    assert ni.rng.Philox4x32(counter=(7, 0, 0, 0), key=(0x1234, 0x5678)).draw(n).tolist() == cli_stream(
        cli, ["philox", "--counter", "7,0,0,0", "--key", "0x1234,0x5678"], n)
    assert ni.rng.Xorwow(state=(1, 2, 3, 4, 5, 6)).draw(n).tolist() == cli_stream(
        cli, ["xorwow", "--state", "1,2,3,4,5,6"], n)
    assert ni.rng.Pcg32(state=42, inc=109).draw(n).tolist() == cli_stream(cli, ["pcg32", "--state", "42", "--inc", "109"], n)
    assert ni.rng.Pcg32(state=42).draw(n).tolist() == cli_stream(cli, ["pcg32", "--state", "42"], n)
    assert ni.rng.Lfsr(state=0xDEADBEEF).draw(n).tolist() == cli_stream(cli, ["lfsr", "--state", "0xdeadbeef"], n)


@pytest.mark.parametrize("name", MAKERS)
def test_generator_integers_are_the_stream(name):
    words = MAKERS[name]().draw(1000)
    g = np.random.Generator(MAKERS[name]())
    assert (g.integers(0, 2**32, 1000, dtype=np.uint32) == words).all()


@pytest.mark.parametrize("name", MAKERS)
def test_doubles_and_uint64_are_built_from_word_pairs(name):
    words = MAKERS[name]().draw(2000).astype(np.uint64)
    first, second = words[0::2], words[1::2]
    g = np.random.Generator(MAKERS[name]())
    expected = ((first >> np.uint64(5)).astype(np.float64) * 67108864.0 + (second >> np.uint64(6))) / 9007199254740992.0
    assert (g.random(1000) == expected).all()
    g = np.random.Generator(MAKERS[name]())
    assert (g.integers(0, 2**64, 1000, dtype=np.uint64, endpoint=False) == (first << np.uint64(32)) | second).all()


@pytest.mark.parametrize("name", MAKERS)
def test_word_and_double_draws_mixed_follow_the_stream(name):
    # Philox4x32 keeps the doubles of word pairs at even positions ready: runs of 32-bit draws
    # and of doubles, and state sets, move the doubles to odd positions and across refills.
    words = MAKERS[name]().draw(40000).astype(np.uint64)
    bg = MAKERS[name]()
    g = np.random.Generator(bg)
    at = 0
    for run in range(400):
        singles, doubles = run % 3, (run * 37) % 71
        assert (g.integers(0, 2**32, singles, dtype=np.uint32) == words[at:at + singles]).all()
        at += singles
        first, second = words[at:at + 2 * doubles:2], words[at + 1:at + 2 * doubles:2]
        expected = ((first >> np.uint64(5)) << np.uint64(26) | second >> np.uint64(6)) / 2.0**53
        assert (g.random(doubles) == expected).all(), f"run {run}"
        at += 2 * doubles
        if run % 7 == 0:
            bg.state = bg.state
    assert at > 20000


@pytest.mark.parametrize("name", MAKERS)
def test_distributions_are_reproducible(name):
    a = np.random.Generator(MAKERS[name]())
    b = np.random.Generator(MAKERS[name]())
    x = a.standard_normal(10000)
    assert (x == b.standard_normal(10000)).all()
    assert abs(x.mean()) < 0.05 and abs(x.std() - 1) < 0.05
    u = a.random(10000)
    assert (u == b.random(10000)).all()
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.02
    assert (a.integers(0, 10, 100) == b.integers(0, 10, 100)).all()
    assert isinstance(a.bit_generator, np.random.BitGenerator)


@pytest.mark.parametrize("name", MAKERS)
def test_state_round_trips_anywhere_in_the_stream(name):
    bg = MAKERS[name]()
    for skip in (0, 1, 3, 4, 5, 130):
        bg.draw(skip)
        state = bg.state
        assert state["bit_generator"] == name
        ahead = bg.draw(9)
        bg.state = state
        assert bg.state == state
        assert (bg.draw(9) == ahead).all()
        other = MAKERS[name]()
        other.state = state
        assert (other.draw(9) == ahead).all()


def test_philox_state_is_rng_cores_position():
    bg = ni.rng.Philox4x32(counter=(0xFFFFFFFF, 0, 0, 0), key=(1, 2))
    assert bg.state == {"bit_generator": "Philox4x32", "state": {"counter": (0xFFFFFFFF, 0, 0, 0), "key": (1, 2)}, "index": 0}
    bg.draw(4)
    assert bg.state["state"]["counter"] == (0xFFFFFFFF, 0, 0, 0) and bg.state["index"] == 4
    bg.draw(1)
    assert bg.state["state"]["counter"] == (0, 1, 0, 0) and bg.state["index"] == 1
    mid = {"bit_generator": "Philox4x32", "state": {"counter": (5, 0, 0, 0), "key": (1, 2)}, "index": 2}
    bg.state = mid
    full = ni.rng.Philox4x32(counter=(5, 0, 0, 0), key=(1, 2)).draw(8)
    assert (bg.draw(6) == full[2:]).all()


@pytest.mark.parametrize("name", MAKERS)
def test_pickling(name):
    bg = MAKERS[name]()
    bg.draw(3)
    copy = pickle.loads(pickle.dumps(bg))
    assert type(copy) is type(bg) and copy.state == bg.state
    assert (copy.draw(50) == bg.draw(50)).all()
    g = np.random.Generator(MAKERS[name]())
    g.random(3)
    h = pickle.loads(pickle.dumps(g))
    assert type(h.bit_generator) is type(bg)
    assert (h.random(20) == g.random(20)).all()


@pytest.mark.parametrize("name", MAKERS)
def test_spawn_is_refused_as_numpy_refuses_it_without_a_seed_sequence(name):
    with pytest.raises(TypeError, match="cannot spawn"):
        np.random.Generator(MAKERS[name]()).spawn(2)


def test_the_lock_serialises_threads():
    bg = ni.rng.Philox4x32(counter=(1, 2, 3, 4), key=(5, 6))
    g = np.random.Generator(bg)
    out = []

    def work():
        out.append(g.integers(0, 2**32, 50000, dtype=np.uint32))
        out.append(bg.draw(50000))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    words = np.sort(np.concatenate(out))
    reference = np.sort(ni.rng.Philox4x32(counter=(1, 2, 3, 4), key=(5, 6)).draw(400000))
    assert (words == reference).all()


def test_randomgen_philox_4x32_gives_the_same_words():
    randomgen = pytest.importorskip("randomgen")
    counter, key = (0x10, 0x20, 0x30, 0x40), (0xCAFEF00D, 0x8BADF00D)
    c = sum(w << (32 * i) for i, w in enumerate(counter))
    # randomgen increments the counter before its first block, and packs the key as k0 | k1 << 32.
    theirs = randomgen.Philox(number=4, width=32, counter=c - 1, key=key[0] | key[1] << 32)
    ours = ni.rng.Philox4x32(counter=counter, key=key)
    assert (theirs.random_raw(1000) == ours.random_raw(1000)).all()
    assert theirs.random_raw() == ours.random_raw()
    theirs = randomgen.Philox(number=4, width=32, counter=c - 1, key=key[0] | key[1] << 32)
    ours = ni.rng.Philox4x32(counter=counter, key=key)
    g, h = np.random.Generator(theirs), np.random.Generator(ours)
    assert (g.random(1000) == h.random(1000)).all()
    assert (g.integers(0, 2**64, 100, dtype=np.uint64) == h.integers(0, 2**64, 100, dtype=np.uint64)).all()
    assert (g.standard_normal(1000) == h.standard_normal(1000)).all()
