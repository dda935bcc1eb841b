"""Calling a client adapter's method for a contract operation, the same way for vectors and workloads."""
from __future__ import annotations

from collections.abc import Callable

from rpcmatrix.contract.operations import Operation


def concatenate(chunks) -> list[float]:
    """A stream's chunks (lists of values) as one list; the client checks the concatenation."""
    values: list[float] = []
    for chunk in chunks:
        values.extend(chunk)
    return values


def bind(target: object, operation: Operation) -> Callable:
    """The callable making one call of `operation` on `target` (a client adapter or ReferenceBench).

    A stream operation returns an iterable of chunks; the returned callable consumes it whole, so that a
    timed call includes receiving every chunk, and returns the concatenation.
    """
    method = getattr(target, operation.method)
    if not operation.is_stream:
        return method

    def call_and_concatenate(*args):
        return concatenate(method(*args))

    return call_and_concatenate
