"""The contract's deterministic generator (SplitMix64) and hash (FNV-1a 64), see CONTRACT.md#generated-data.

Python integers are unbounded, so every step is masked back to 64 bits. Long runs of doubles are drawn
with numpy instead: SplitMix64's i-th state is seed + i * gamma (mod 2^64), so a whole run is one vector
computation, and numpy's uint64 arithmetic wraps exactly as the contract's does.
"""
from __future__ import annotations

import numpy as np

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

    def doubles(self, count: int) -> np.ndarray:
        """`count` values of next_double(), in order, as a float64 array (the generator moves on by `count`)."""
        values = doubles_from(self._state, count)
        self._state = (self._state + count * GOLDEN_GAMMA) & MASK64
        return values


# 1, 2, ..., n as uint64, kept between calls (read only) up to a bounded length.
_KEPT_STEPS = 1 << 20
_STEPS = np.arange(1, 65537, dtype=np.uint64)


def _steps(count: int) -> np.ndarray:
    global _STEPS
    steps = _STEPS
    if len(steps) >= count:
        return steps[:count]
    steps = np.arange(1, count + 1, dtype=np.uint64)
    if count <= _KEPT_STEPS:
        _STEPS = steps
    return steps


def doubles_from(state: int, count: int) -> np.ndarray:
    """The next `count` doubles of a SplitMix64 whose state is `state`, computed in place on one array."""
    if count == 0:
        return np.empty(0, dtype=np.float64)
    z = _steps(count) * np.uint64(GOLDEN_GAMMA)  # wraps mod 2^64, like the contract's additions
    z += np.uint64(state)
    z ^= z >> np.uint64(30)
    z *= np.uint64(MIX1)
    z ^= z >> np.uint64(27)
    z *= np.uint64(MIX2)
    z ^= z >> np.uint64(31)
    z >>= np.uint64(11)
    values = z.astype(np.float64)  # exact: below 2^53
    values *= TWO_POW_MINUS_53
    return values


def fnv1a64(data: bytes) -> int:
    h = FNV_OFFSET_BASIS
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h
