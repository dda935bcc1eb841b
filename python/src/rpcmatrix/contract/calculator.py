"""The contract's remote objects (CONTRACT.md#objects) in process: the reference calculator that servers
serve and that the `handler` command times. A total is an int64 that wraps as two's complement."""
from __future__ import annotations

import threading

_MASK = (1 << 64) - 1
_SIGN = 1 << 63


def wrap_int64(value: int) -> int:
    """`value` modulo 2^64, read as a two's-complement int64."""
    value &= _MASK
    return value - (1 << 64) if value & _SIGN else value


class NoSuchObject(Exception):
    """A call on a released calculator (the in-process form of CORBA's OBJECT_NOT_EXIST)."""


class ReferenceCalculator:
    """One calculator's state. A server serializes calls on one object (a client uses it from one thread),
    so a lock per object keeps add() atomic for servers that run calls on several threads."""

    __slots__ = ("_total", "_lock", "released")

    def __init__(self):
        self._total = 0
        self._lock = threading.Lock()
        self.released = False

    def _alive(self) -> None:
        if self.released:
            raise NoSuchObject("the calculator was released")

    def add(self, n: int) -> int:
        with self._lock:
            self._alive()
            self._total = wrap_int64(self._total + n)
            return self._total

    def clear(self) -> None:
        with self._lock:
            self._alive()
            self._total = 0

    def total(self) -> int:
        with self._lock:
            self._alive()
            return self._total

    def release(self) -> None:
        with self._lock:
            self._alive()
            self.released = True


class ReferenceCalculatorFactory:
    """create() answers a new calculator with a total of 0; calculators share no state."""

    def create(self) -> ReferenceCalculator:
        return ReferenceCalculator()

    def is_no_such_object(self, error: BaseException) -> bool:
        return isinstance(error, NoSuchObject)
