"""The contract's deterministic generator (SplitMix64) and hash (FNV-1a 64), see CONTRACT.md#generated-data.

Python integers are unbounded, so every step is masked back to 64 bits.
"""
from __future__ import annotations

MASK64 = 0xFFFFFFFFFFFFFFFF
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
TWO_POW_MINUS_53 = 2.0 ** -53
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

FNV_OFFSET_BASIS = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


class SplitMix64:
    __slots__ = ("_state",)

    def __init__(self, seed: int):
        # The seed is an int64; its 64-bit pattern is the state (so -1 and 2**64 - 1 are the same seed).
        self._state = seed & MASK64

    def next(self) -> int:
        """The next unsigned 64-bit value."""
        state = (self._state + GOLDEN_GAMMA) & MASK64
        self._state = state
        z = ((state ^ (state >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)

    def next_double(self) -> float:
        """A float64 in [0, 1): the top 53 bits times 2^-53, which is exact."""
        return (self.next() >> 11) * TWO_POW_MINUS_53

    def below(self, n: int) -> int:
        """A value in [0, n) for n > 0 (plain modulo, as the contract says; not bias-free)."""
        return (self.next() >> 1) % n

    def signed64(self) -> int:
        value = self.next()
        return value - (1 << 64) if value >= (1 << 63) else value

    def signed32(self) -> int:
        value = self.next() >> 32
        return value - (1 << 32) if value >= (1 << 31) else value

    def word(self, length: int) -> str:
        below = self.below
        return "".join([ALPHABET[below(62)] for _ in range(length)])

    def doubles(self, count: int) -> list[float]:
        """`count` values of next_double(), in order; a fast path for the 50,000-value workloads."""
        state = self._state
        values = [0.0] * count
        for i in range(count):
            state = (state + GOLDEN_GAMMA) & MASK64
            z = ((state ^ (state >> 30)) * MIX1) & MASK64
            z = ((z ^ (z >> 27)) * MIX2) & MASK64
            values[i] = ((z ^ (z >> 31)) >> 11) * TWO_POW_MINUS_53
        self._state = state
        return values


def fnv1a64(data: bytes) -> int:
    h = FNV_OFFSET_BASIS
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h
