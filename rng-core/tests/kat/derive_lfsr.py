#!/usr/bin/env python3
"""Derives tests/kat/lfsr_fibonacci.txt.

DERIVED, independent implementation of rng-facts §4.4 (the simulator's gen-1 LFSR, SIM §2.1): a 32-bit
Fibonacci register with taps {32, 22, 2, 1} (1-based), feedback = XOR of the tapped bits, shift left,
feedback into bit 0, output = the new state. It reads the taps bit by bit from a list and shares no code
with the Rust model (which uses a mask and a popcount). Run from this folder:
    python3 derive_lfsr.py > lfsr_fibonacci.txt
"""

TAPS = [32, 22, 2, 1]
SEEDS = [0x00000001, 0x80000000, 0xDEADBEEF, 0x12345678, 0xFFFFFFFF, 0x00000000]
COUNT = 16
LONG_STEPS = 100000


def step(state):
    feedback = 0
    for tap in TAPS:
        feedback ^= (state >> (tap - 1)) & 1
    return ((state << 1) & 0xFFFFFFFF) | feedback


def main():
    print("# 32-bit Fibonacci LFSR, taps 32/22/2/1, output = new state -- DERIVED.")
    print("# Derivation: independent implementation of rng-facts.md section 4.4 (derive_lfsr.py beside this file).")
    print("# This is the simulator's recurrence; it is NOT confirmed on hardware.")
    print("# Format: seed S then the next outputs (hex); 'after N S' gives the state after N steps.")
    for seed in SEEDS:
        state = seed
        outputs = []
        for _ in range(COUNT):
            state = step(state)
            outputs.append(state)
        print("seed %08x" % seed)
        print("output " + " ".join("%08x" % o for o in outputs))
    state = 1
    for _ in range(LONG_STEPS):
        state = step(state)
    print("seed %08x" % 1)
    print("after %d %08x" % (LONG_STEPS, state))


if __name__ == "__main__":
    main()
