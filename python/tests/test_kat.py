"""Published known answers through Python: Random123 (Philox4x32-10), pcg-c (PCG32),
Marsaglia (xorwow) and the LFSR vectors, read from rng-core/tests/kat/."""

from __future__ import annotations

import numpy as np

import neuron_isa as ni
from conftest import kat_rows


def hexes(fields):
    return [int(f, 16) for f in fields]


def test_random123_philox4x32_10():
    rows = [r for r in kat_rows("philox4x32.txt") if r[0] == "philox4x32" and r[1] == "10"]
    assert len(rows) == 3
    for row in rows:
        words = hexes(row[2:])
        counter, key, expected = words[0:4], words[4:6], words[6:10]
        bg = ni.rng.Philox4x32(counter=counter, key=key)
        assert bg.draw(4).tolist() == expected


def test_philox_stream_crosses_a_counter_increment():
    rows = {r[0]: r[1:] for r in kat_rows("philox4x32_stream.txt")}
    bg = ni.rng.Philox4x32(counter=hexes(rows["counter"]), key=hexes(rows["key"]))
    assert bg.draw(8).tolist() == hexes(rows["stream"])


def test_pcg_c_pcg32_demo():
    rows = {r[0]: r[1:] for r in kat_rows("pcg32_demo.txt")}
    bg = ni.rng.Pcg32(state=int(rows["seeded_state"][0], 16), inc=int(rows["seeded_inc"][0], 16))
    assert bg.draw(6).tolist() == hexes(rows["32bit:"])


def test_marsaglia_xorwow():
    rows = kat_rows("xorwow_marsaglia.txt")
    state = [int(w) for w in rows[0][1:]]
    outputs = [int(w) for r in rows[1:] for w in r[1:]]
    bg = ni.rng.Xorwow(state=state)
    assert bg.draw(len(outputs)).tolist() == outputs
    assert ni.rng.Xorwow().draw(3).tolist() == outputs[:3]  # the default is Marsaglia's state


def test_lfsr_vectors():
    rows = kat_rows("lfsr_fibonacci.txt")
    checked = 0
    for k, row in enumerate(rows):
        if row[0] != "seed":
            continue
        seed = int(row[1], 16)
        follow = rows[k + 1]
        if follow[0] == "output":
            assert ni.rng.Lfsr(state=seed).draw(len(follow) - 1).tolist() == hexes(follow[1:])
        else:
            assert follow[0] == "after"
            n, state = int(follow[1]), int(follow[2], 16)
            assert ni.rng.Lfsr(state=seed).draw(n)[-1] == state
        checked += 1
    assert checked == 7


def test_dve_xorwow_bank_draws_rand2s_known_answers():
    """rand2_xorwow.txt (derived by an independent script): lane states restored through the
    RAND_SET_STATE tile, then the raw draws of RAND2's elements."""
    rows = kat_rows("rand2_xorwow.txt")
    for case, engine, sub in (("pool", "pool", 1), ("dve", "dve", 4)):
        record = [int(w) for r in rows if r[0] == "state" and r[1] == case for w in r[3:]]
        assert len(record) == 6 * sub
        draws = next(hexes(r[2:]) for r in rows if r[0] == "draws" and r[1] == case)
        bank = ni.rng.Bank("mariana", engine=engine, generator="rng-xorwow", algorithm="xorwow", lanes=128)
        bank.set_state(np.tile(np.array(record, dtype=np.uint32), (128, 1)))
        got = bank.draw(len(draws))
        assert got.shape == (128, len(draws))
        assert (got == np.array(draws, dtype=np.uint32)).all()
