"""The `warmup` and `measure` commands: a workload's calls, checked (warm-up) or timed (measure)."""
from __future__ import annotations

import time

from rpcmatrix.contract.catalog import Workload
from rpcmatrix.contract.compare import result_difference
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.contract.values import decode_args
from rpcmatrix.harness.calls import bind


class WrongAnswer(Exception):
    """A warm-up answer that differs from the contract's."""


def warmup(client: object, workload: Workload, calls: int) -> int:
    """Makes `calls` calls and checks every answer against the contract; returns how many were checked."""
    operation = workload.operation
    args = decode_args(operation, workload.args)
    expected = bind(ReferenceBench(), operation)(*args)
    call = bind(client, operation)
    for index in range(calls):
        found = result_difference(operation, expected, call(*args))
        if found is not None:
            raise WrongAnswer(f"call {index + 1} of {calls}: {found}")
    return calls


def measure(client: object, workload: Workload, calls: int, repetitions: int) -> list[list[int]]:
    """`repetitions` x `calls` calls back to back, each timed alone with the monotonic clock (ns).
    The arguments are built before timing starts; the answers are not checked (the warm-up did that)."""
    args = decode_args(workload.operation, workload.args)
    call = bind(client, workload.operation)
    clock = time.perf_counter_ns
    samples = []
    for _ in range(repetitions):
        repetition = []
        for _ in range(calls):
            started = clock()
            call(*args)
            repetition.append(clock() - started)
        samples.append(repetition)
    return samples
