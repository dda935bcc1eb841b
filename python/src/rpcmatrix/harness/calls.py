"""Calling a client adapter's method for a contract operation, the same way for vectors and workloads.

A synchronous adapter (and ReferenceBench) has the contract's methods in snake_case; an asynchronous one
(such as grpc.aio's) has coroutine methods and an event loop of its own in `.loop`. A Driver hides the
difference: the timed loops run where the calls run, so an asynchronous call is timed around its `await`
inside the loop and the loop is entered once per batch, not once per call.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from rpcmatrix.contract.operations import Operation


def concatenate(chunks) -> list[float]:
    """A stream's chunks (float64 arrays or lists) as one list; the client checks the concatenation."""
    values: list[float] = []
    for chunk in chunks:
        values.extend(chunk.tolist() if hasattr(chunk, "tolist") else chunk)
    return values


def bind(target: object, operation: Operation) -> Callable:
    """The callable making one call of `operation` on a synchronous `target`.

    A stream operation returns an iterable of chunks; the returned callable consumes it whole, so that a
    timed call includes receiving every chunk, and returns the concatenation.
    """
    method = getattr(target, operation.method)
    if not operation.is_stream:
        return method

    def call_and_concatenate(*args):
        return concatenate(method(*args))

    return call_and_concatenate


def bind_async(target: object, operation: Operation) -> Callable:
    """As bind, for an asynchronous target: a coroutine function."""
    method = getattr(target, operation.method)
    if not operation.is_stream:
        return method

    async def call_and_concatenate(*args):
        return concatenate(await method(*args))

    return call_and_concatenate


# The timed loops. Each sample is one call between two readings of the monotonic clock; the loop does
# nothing else per call but store the sample in a list allocated before the first call.

def timed_calls(call: Callable, args: list, calls: int, min_ns: int, max_calls: int) -> list[int]:
    """At least `calls` calls, then more until `min_ns` has passed since the first, at most `max_calls`."""
    clock = time.perf_counter_ns
    samples = [0] * max_calls
    count = 0
    first = clock()
    while count < max_calls:
        started = clock()
        call(*args)
        ended = clock()
        samples[count] = ended - started
        count += 1
        if count >= calls and ended - first >= min_ns:
            break
    del samples[count:]
    return samples


async def timed_calls_async(call: Callable, args: list, calls: int, min_ns: int, max_calls: int) -> list[int]:
    clock = time.perf_counter_ns
    samples = [0] * max_calls
    count = 0
    first = clock()
    while count < max_calls:
        started = clock()
        await call(*args)
        ended = clock()
        samples[count] = ended - started
        count += 1
        if count >= calls and ended - first >= min_ns:
            break
    del samples[count:]
    return samples


def checked_calls(call: Callable, args: list, calls: int, check: Callable) -> list[int]:
    """`calls` timed calls, each answer given to `check(index, answer)` (which raises on a wrong one)."""
    clock = time.perf_counter_ns
    samples = []
    for index in range(calls):
        started = clock()
        answer = call(*args)
        samples.append(clock() - started)
        check(index, answer)
    return samples


async def checked_calls_async(call: Callable, args: list, calls: int, check: Callable) -> list[int]:
    clock = time.perf_counter_ns
    samples = []
    for index in range(calls):
        started = clock()
        answer = await call(*args)
        samples.append(clock() - started)
        check(index, answer)
    return samples


class Driver:
    """Makes calls on a synchronous target."""

    def __init__(self, target: object):
        self.target = target

    def once(self, operation: Operation, args: list) -> object:
        return bind(self.target, operation)(*args)

    def timed(self, operation: Operation, args: list, calls: int, min_ns: int, max_calls: int) -> list[int]:
        return timed_calls(bind(self.target, operation), args, calls, min_ns, max_calls)

    def checked(self, operation: Operation, args: list, calls: int, check: Callable) -> list[int]:
        return checked_calls(bind(self.target, operation), args, calls, check)


class AsyncDriver(Driver):
    """Makes calls on an asynchronous target, on the event loop the target owns (`target.loop`)."""

    def once(self, operation: Operation, args: list) -> object:
        return self.target.loop.run_until_complete(bind_async(self.target, operation)(*args))

    def timed(self, operation: Operation, args: list, calls: int, min_ns: int, max_calls: int) -> list[int]:
        return self.target.loop.run_until_complete(
            timed_calls_async(bind_async(self.target, operation), args, calls, min_ns, max_calls))

    def checked(self, operation: Operation, args: list, calls: int, check: Callable) -> list[int]:
        return self.target.loop.run_until_complete(
            checked_calls_async(bind_async(self.target, operation), args, calls, check))


def bind_any(target: object, operation: Operation) -> Callable:
    """A plain callable making one call on `target`, synchronous or not (an asynchronous target's call runs
    on its own loop, entered once per call: the load command's threads each hold their own target)."""
    if getattr(target, "loop", None) is None:
        return bind(target, operation)
    call = bind_async(target, operation)
    return lambda *args: target.loop.run_until_complete(call(*args))


class PerCallDriver(Driver):
    """Makes each call on a new connection (--connection per-call, runner/PROTOCOL.md: connect): an adapter made by
    `connect(options)`, called once and closed, all inside the timed call, so the handshake is timed where a client
    that connects per call pays it. Nothing outlives a call: no target."""

    def __init__(self, connect: Callable, options: object):
        super().__init__(None)
        self.connect, self.options = connect, options

    def _call(self, operation: Operation) -> Callable:
        def connect_call_close(*args):
            adapter = self.connect(self.options)
            try:
                return bind_any(adapter, operation)(*args)
            finally:
                adapter.close()
        return connect_call_close

    def once(self, operation: Operation, args: list) -> object:
        return self._call(operation)(*args)

    def timed(self, operation: Operation, args: list, calls: int, min_ns: int, max_calls: int) -> list[int]:
        return timed_calls(self._call(operation), args, calls, min_ns, max_calls)

    def checked(self, operation: Operation, args: list, calls: int, check: Callable) -> list[int]:
        return checked_calls(self._call(operation), args, calls, check)


def driver_for(target: object) -> Driver:
    return AsyncDriver(target) if getattr(target, "loop", None) is not None else Driver(target)
