#!/usr/bin/env python3
"""Derives the expected values of the draw-instruction tests (RAND2, DROPOUT, PSEUDO_SET_RNG_SEED).

DERIVED by an implementation independent of the Rust model: exact rational arithmetic (fractions)
with its own rounding to binary formats, its own xorwow and MT19937-64. It reads the published and
derived known-answer streams beside it and checks itself against them before writing anything:

  xorwow_marsaglia.txt   Marsaglia's published xorwow stream (its own xorwow must reproduce it)
  lfsr_fibonacci.txt     the derived LFSR streams (read, not recomputed)
  mt19937_64 check       ISO C++ [rand.predef]: the 10000th output of mt19937_64 seeded 5489
                         is 9981545732273789042 (published)

The model rules it applies are the project's documented choices (rng-core README, "Draw
instructions"): u = bits((r & 0x7FFFFF) | 0x3F800000) - 1 (or r >> 9), out = min + u*(max - min)
with each operation rounded to fp32 ('separate') or one rounding after d = max - min ('fused'),
round-to-nearest-even (or toward zero) to narrower floats, IEEE-style FP8 (or E4M3FN for FP8_EXP4),
integers rounded to nearest even (or truncated) and saturated, DVE element j from sub-generator
j % 4, DROP_RATE dropping u < t (or u > t), PSEUDO_SET_RNG_SEED filling banks in arm order, lane by
lane, record word by word from MT19937-64 low halves (or both halves).

Run from this folder:  python3 derive_draws.py
It writes rand2_xorwow.txt, conversions.txt, dropout_lfsr.txt and seed_mt19937_64.txt.
"""

import math
import struct
from fractions import Fraction as Q

HERE_FILES = {}

# ---------------------------------------------------------------- binary formats, exactly


def f32_value(bits):
    """The exact value of fp32 `bits` (finite only)."""
    sign = -1 if bits >> 31 else 1
    e = (bits >> 23) & 0xFF
    m = bits & 0x7FFFFF
    assert e != 0xFF, "finite fp32 only"
    if e == 0:
        return sign * Q(m, 1 << 149)
    return sign * Q((1 << 23) | m) * Q(2) ** (e - 150)


def bits_of(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def floor_log2(a):
    """Largest k with 2**k <= a, for a positive Fraction."""
    k = a.numerator.bit_length() - a.denominator.bit_length()
    while Q(2) ** k > a:
        k -= 1
    while Q(2) ** (k + 1) <= a:
        k += 1
    return k


def encode(x, ebits, mbits, mode, finite_only=False):
    """x (a Fraction, or 'nan'/'inf'/'-inf') in a binary format with `ebits`, `mbits`.

    IEEE-style: bias 2**(ebits-1)-1, subnormals, all-ones exponent for inf/NaN; overflow gives
    infinity when rounding to nearest, the largest finite value when rounding toward zero.
    finite_only (E4M3FN): no infinities, only the all-ones pattern is NaN, overflow saturates.
    NaN: the quiet NaN with the top mantissa bit (finite_only: all ones)."""
    top = ebits + mbits
    all_ones = (1 << ebits) - 1
    if finite_only:
        max_finite = (all_ones << mbits) | ((1 << mbits) - 2)
        nan = (all_ones << mbits) | ((1 << mbits) - 1)
        inf = max_finite
    else:
        max_finite = ((all_ones - 1) << mbits) | ((1 << mbits) - 1)
        nan = (all_ones << mbits) | (1 << (mbits - 1))
        inf = all_ones << mbits
    if isinstance(x, str):
        sign = 1 if x.startswith("-") else 0
        if x.endswith("0"):
            return sign << top  # a signed zero (Fractions have no -0)
        return (sign << top) | (nan if x.endswith("nan") else inf)
    sign = 1 if x < 0 else 0
    a = abs(x)
    if a == 0:
        return sign << top
    bias = (1 << (ebits - 1)) - 1
    emin = 1 - bias
    k = max(floor_log2(a), emin)
    quantum = Q(2) ** (k - mbits)
    scaled = a / quantum
    n = math.floor(scaled)
    rest = scaled - n
    if mode == "rne" and (rest > Q(1, 2) or (rest == Q(1, 2) and n % 2 == 1)):
        n += 1
    if n == 1 << (mbits + 1):
        n >>= 1
        k += 1
    if n < (1 << mbits):
        enc = n  # subnormal (k == emin)
    else:
        enc = ((k + bias) << mbits) | (n - (1 << mbits))
    if enc > max_finite:
        enc = inf if (mode == "rne" and not finite_only) else max_finite
    return (sign << top) | enc


def f32(x):
    """x rounded to fp32 (nearest even), as a Fraction."""
    return f32_value(encode(x, 8, 23, "rne"))


INTS = {"INT8": (True, 8), "UINT8": (False, 8), "INT16": (True, 16), "UINT16": (False, 16),
        "INT32": (True, 32), "UINT32": (False, 32), "INT64": (True, 64), "UINT64": (False, 64)}
FLOATS = {"BFLOAT16": (8, 7), "FP16": (5, 10), "FP8_EXP3": (3, 4), "FP8_EXP4": (4, 3),
          "FP8_EXP5": (5, 2), "FP8_EXP2": (2, 5)}


def convert(x, dtype, mode, fn=False):
    """fp32 value x (Fraction) in `dtype`: the element bits."""
    if dtype == "FP32":
        return encode(x, 8, 23, "rne")
    if dtype in FLOATS:
        e, m = FLOATS[dtype]
        return encode(x, e, m, mode, finite_only=fn and dtype == "FP8_EXP4")
    signed, bits = INTS[dtype]
    n = round(x) if mode == "rne" else math.trunc(x)  # round(): ties to even
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    n = min(max(n, lo), hi)
    return n & ((1 << bits) - 1)


def uniform(r, which):
    mant = (r & 0x7FFFFF) if which == "mantissa23" else (r >> 9)
    return f32_value(mant | 0x3F800000) - 1  # exact: both are fp32, the difference too


def in_range(lo, hi, u, arithmetic):
    d = f32(hi - lo)
    if arithmetic == "separate":
        return f32(lo + f32(d * u))
    return f32(lo + d * u)


# ---------------------------------------------------------------- generators, independently

M32 = 0xFFFFFFFF


def xorwow(state):
    x, y, z, w, v, d = state
    t = (x ^ (x >> 2)) & M32
    x, y, z, w = y, z, w, v
    v = (v ^ ((v << 4) & M32)) ^ (t ^ ((t << 1) & M32))
    d = (d + 362437) & M32
    return [x, y, z, w, v, d], (v + d) & M32


def xorwow_stream(state, n):
    out = []
    for _ in range(n):
        state, o = xorwow(state)
        out.append(o)
    return out


class MT64:
    def __init__(self, seed):
        self.mt = [seed & 0xFFFFFFFFFFFFFFFF]
        for i in range(1, 312):
            prev = self.mt[-1]
            self.mt.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & 0xFFFFFFFFFFFFFFFF)
        self.i = 312

    def next(self):
        mask = 0xFFFFFFFFFFFFFFFF
        if self.i >= 312:
            mt = self.mt
            for k in range(312):
                x = (mt[k] & 0xFFFFFFFF80000000) | (mt[(k + 1) % 312] & 0x7FFFFFFF)
                xa = x >> 1
                if x & 1:
                    xa ^= 0xB5026F5AA96619E9
                mt[k] = mt[(k + 156) % 312] ^ xa
            self.i = 0
        x = self.mt[self.i]
        self.i += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000 & mask
        x ^= (x << 37) & 0xFFF7EEE000000000 & mask
        x ^= x >> 43
        return x & mask


# ---------------------------------------------------------------- inputs


def rows(name):
    with open(name) as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]


def marsaglia():
    state, outputs = None, []
    for r in rows("xorwow_marsaglia.txt"):
        if r[0] == "state":
            state = [int(v) for v in r[1:]]
        elif r[0] == "output":
            outputs += [int(v) for v in r[1:]]
    return state, outputs


def lfsr_streams():
    streams, seed = {}, None
    for r in rows("lfsr_fibonacci.txt"):
        if r[0] == "seed":
            seed = int(r[1], 16)
        elif r[0] == "output":
            streams[seed] = [int(v, 16) for v in r[1:]]
    return streams


def h(v, width=8):
    return "%0*x" % (width, v)


# ---------------------------------------------------------------- outputs

BANNER = "# DERIVED by derive_draws.py (beside this file) -- an implementation independent of the Rust model;\n" \
         "# see the script's docstring for the rules and the known answers it checks itself against.\n"


def rand2_file(state, published):
    lines = [BANNER,
             "# RAND2 (UNIFORM_IN_RANGE) on XORWOW lanes.\n",
             "# `state CASE g x y z w v d`: sub-generator g of lane 0 (and of every lane: all lanes hold the same state).\n",
             "# `draws CASE r0 r1 ...`: element j's raw 32-bit draw (hex); pool: the one generator; dve: element j from\n",
             "#   sub-generator j % 4 (RoundRobin), its (j / 4)-th output.\n",
             "# `uniform CASE u0 u1 ...`: fp32 bits of u, Mantissa23 reading; `uniform_high CASE ...`: High23 reading.\n",
             "# `range K MIN MAX` (fp32 bits); `out CASE K ARITH ROUNDING DTYPE v0 v1 ...`: element bits (hex) for range K,\n",
             "#   range arithmetic separate|fused, output rounding rne|rtz (floats to narrower floats, and to integers), dtype.\n"]
    pool = xorwow_stream(list(state), 20)
    assert pool == published, "xorwow does not reproduce Marsaglia's published stream"
    subs = [list(state)] + [[(state[0] + g) & M32] + list(state[1:]) for g in (1, 2, 3)]
    streams = [xorwow_stream(list(s), 5) for s in subs]
    dve = [streams[j % 4][j // 4] for j in range(20)]
    cases = {"pool": (pool, [state]), "dve": (dve, subs)}
    for name, (draws, sts) in cases.items():
        for g, s in enumerate(sts):
            lines.append("state %s %d %s\n" % (name, g, " ".join(str(v) for v in s)))
        lines.append("draws %s %s\n" % (name, " ".join(h(r) for r in draws)))
        lines.append("uniform %s %s\n" % (name, " ".join(h(encode(uniform(r, "mantissa23"), 8, 23, "rne")) for r in draws)))
        lines.append("uniform_high %s %s\n" % (name, " ".join(h(encode(uniform(r, "high23"), 8, 23, "rne")) for r in draws)))
    ranges = [(0.0, 1.0), (-2.5, 7.25), (0.1, 0.7), (-1.0e6, 1.0e6), (1000.0, 1000.0625)]
    differing = 0
    for k, (lo, hi) in enumerate(ranges):
        lines.append("range %d %s %s\n" % (k, h(bits_of(lo)), h(bits_of(hi))))
    for name, (draws, _) in cases.items():
        for k, (lo, hi) in enumerate(ranges):
            lo_q, hi_q = f32_value(bits_of(lo)), f32_value(bits_of(hi))
            for arith in ("separate", "fused"):
                values = [in_range(lo_q, hi_q, uniform(r, "mantissa23"), arith) for r in draws]
                if arith == "fused":
                    sep = [in_range(lo_q, hi_q, uniform(r, "mantissa23"), "separate") for r in draws]
                    differing += sum(1 for a, b in zip(values, sep) if a != b)
                for rounding in ("rne", "rtz"):
                    for dtype in ["FP32", "BFLOAT16", "FP16", "FP8_EXP3", "FP8_EXP4", "FP8_EXP5", "FP8_EXP2",
                                  "INT8", "UINT8", "INT16", "INT32", "UINT32"]:
                        if dtype == "FP32" and rounding == "rtz":
                            continue
                        width = 2 * (1 if dtype.startswith("FP8") or dtype.endswith("INT8") else
                                     2 if dtype in ("BFLOAT16", "FP16") or dtype.endswith("INT16") else 4)
                        out = [convert(v, dtype, rounding) for v in values]
                        lines.append("out %s %d %s %s %s %s\n" % (name, k, arith, rounding, dtype,
                                                                    " ".join(h(b, width) for b in out)))
    assert differing > 0, "no case where the fused and separate arithmetic differ"
    lines.append("# fused and separate differ on %d of the elements above.\n" % differing)
    return lines


def conversions_file():
    lines = [BANNER,
             "# fp32 -> element conversions. `conv F32BITS DTYPE RNE RTZ FN`: element bits (hex) rounding to nearest even,\n",
             "# toward zero, and rounding to nearest even with FP8_EXP4 read as E4M3FN (other dtypes: same as RNE).\n"]
    values = []
    for bits in (0x00000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x3F800000,
                 0xBF800000, 0x3F808000, 0x3F818000, 0x3F808001, 0x477FE000, 0x477FF000, 0x477FEFFF,
                 0x43700000, 0x43780000, 0x43E00000, 0x43E80000, 0x44800000, 0x7F7FFFFF, 0xFF7FFFFF,
                 0x33800000, 0x33000000, 0x33C00000, 0x3C000000, 0x3B800000, 0x3A800000, 0x41200000,
                 0x42FE0000, 0x42FF0000, 0xC3000000, 0xC3010000, 0x4F000000, 0x4F800000, 0xCF000001,
                 0x5F000000, 0x3EAAAAAB, 0xBEAAAAAB, 0x40490FDB, 0x3DCCCCCD):
        values.append(bits)
    specials = {0x80000000: "-0", 0x7F800000: "inf", 0xFF800000: "-inf", 0x7FC00000: "nan", 0xFFC00000: "-nan"}
    for bits in values + list(specials):
        for dtype in ["BFLOAT16", "FP16", "FP8_EXP3", "FP8_EXP4", "FP8_EXP5", "FP8_EXP2",
                      "INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "INT64", "UINT64"]:
            if bits in specials:
                if dtype not in FLOATS:
                    if specials[bits].endswith("nan") or specials[bits] == "-0":
                        out = (0, 0, 0)  # NaN and -0 convert to integer 0
                    else:
                        continue
                else:
                    x = specials[bits]
                    out = (convert_special(x, dtype, "rne", False), convert_special(x, dtype, "rtz", False),
                           convert_special(x, dtype, "rne", True))
            else:
                x = f32_value(bits)
                out = (convert(x, dtype, "rne"), convert(x, dtype, "rtz"), convert(x, dtype, "rne", fn=True))
            lines.append("conv %s %s %s\n" % (h(bits), dtype, " ".join("%x" % o for o in out)))
    return lines


def convert_special(x, dtype, mode, fn):
    """An infinity or NaN in a float dtype (the rounding mode does not matter for them)."""
    e, m = FLOATS[dtype]
    return encode(x, e, m, mode, finite_only=fn and dtype == "FP8_EXP4")


def dropout_file():
    streams = lfsr_streams()
    seeds = [0x00000001, 0x80000000, 0xDEADBEEF, 0x12345678]
    n = 48
    draws = [streams[seeds[j % 4]][j // 4] for j in range(n)]
    us = [uniform(r, "mantissa23") for r in draws]
    lines = [BANNER,
             "# DROPOUT on a DVE lane whose RNG_LFSR sub-generators hold `seeds` (words 0..3 of the 4-word record); element j\n",
             "# draws from sub-generator j % 4 (RoundRobin), its (j / 4)-th output from lfsr_fibonacci.txt.\n",
             "# `threshold T` (fp32 bits); `element j r u DR_BELOW KR_BELOW DR_ABOVE KR_ABOVE`: the draw, u (fp32 bits), and 1 when\n",
             "# the element is dropped: DROP_RATE / KEEP_RATE under DropBelow (DROP_RATE drops u < t, KEEP_RATE u > t), then\n",
             "# under DropAbove (the opposite); ties keep. `tie T j KEEP DROP`: a threshold equal to element j's u, and whether\n",
             "# element j is dropped with DROP_RATE / DropBelow under DropoutTie::Keep and ::Drop.\n",
             "seeds %s\n" % " ".join(h(s) for s in seeds)]
    t = f32_value(bits_of(0.25))
    lines.append("threshold %s\n" % h(bits_of(0.25)))
    for j, (r, u) in enumerate(zip(draws, us)):
        flags = [int(u < t), int(u > t), int(u > t), int(u < t)]
        lines.append("element %d %s %s %s\n" % (j, h(r), h(encode(u, 8, 23, "rne")), " ".join(str(f) for f in flags)))
    j = 6
    lines.append("tie %s %d 0 1\n" % (h(encode(us[j], 8, 23, "rne")), j))
    return lines


def seed_file():
    kat = MT64(5489)
    for _ in range(9999):
        kat.next()
    assert kat.next() == 9981545732273789042, "MT19937-64 does not reproduce the ISO C++ value"
    lines = [BANNER,
             "# PSEUDO_SET_RNG_SEED: MT19937-64 seeded with the 32-bit seed; banks in arm order (MARIANA/MAVERICK DVE:\n",
             "# RNG_XORWOW/XORWOW 24 words, RNG_LFSR/LFSR 4, OUTPUT_CVT_LFSR/LFSR 4), lanes 0..127, record words in order.\n",
             "# `kat SEED N VALUE`: published (ISO C++ [rand.predef], mt19937_64); `first SEED v0 v1 ...`: the first outputs (hex).\n",
             "# `record EXPANSION SEED BANK LANE w...`: lane's checkpoint record (hex) after the seed, expansion low32 | halves.\n",
             "# `rand2 SEED MIN MAX v0 ...`: RAND2 fp32 outputs (bits) of lane L after seeding (low32), `lane L`, 8 elements,\n",
             "#   element j from sub-generator j % 4 of the 24-word record (sub-generator-major: words 6g..6g+6).\n",
             "kat 5489 10000 9981545732273789042\n"]
    banks = [("RNG_XORWOW", 24), ("RNG_LFSR", 4), ("OUTPUT_CVT_LFSR", 4)]
    for seed in (0x12345678, 0):
        mt = MT64(seed)
        lines.append("first %s %s\n" % (h(seed), " ".join("%016x" % mt.next() for _ in range(4))))
        for expansion in ("low32", "halves"):
            mt = MT64(seed)
            pending = []

            def word():
                if expansion == "low32":
                    return mt.next() & M32
                if not pending:
                    x = mt.next()
                    pending.extend([x & M32, x >> 32])
                return pending.pop(0)

            records = {}
            for bank, width in banks:
                for lane in range(128):
                    rec = [word() for _ in range(width)]
                    if bank == "RNG_XORWOW":
                        for g in range(4):
                            assert any(rec[6 * g:6 * g + 5]), "zero-guard case: not expected"
                    records[(bank, lane)] = rec
            for bank, _ in banks:
                for lane in (0, 1, 127):
                    lines.append("record %s %s %s %d %s\n" % (expansion, h(seed), bank, lane,
                                                               " ".join(h(w) for w in records[(bank, lane)])))
            if expansion == "low32":
                for lane in (0, 5):
                    rec = records[("RNG_XORWOW", lane)]
                    subs = [rec[6 * g:6 * g + 6] for g in range(4)]
                    outs = []
                    for j in range(8):
                        subs[j % 4], r = xorwow(subs[j % 4])
                        u = uniform(r, "mantissa23")
                        outs.append(encode(in_range(Q(-1), Q(1), u, "separate"), 8, 23, "rne"))
                    lines.append("rand2 %s %s %s lane %d %s\n" % (h(seed), h(bits_of(-1.0)), h(bits_of(1.0)), lane,
                                                                   " ".join(h(o) for o in outs)))
    return lines


def main():
    state, published = marsaglia()
    outputs = {
        "rand2_xorwow.txt": rand2_file(state, published),
        "conversions.txt": conversions_file(),
        "dropout_lfsr.txt": dropout_file(),
        "seed_mt19937_64.txt": seed_file(),
    }
    for name, lines in outputs.items():
        with open(name, "w") as f:
            f.writelines(lines)


if __name__ == "__main__":
    main()
