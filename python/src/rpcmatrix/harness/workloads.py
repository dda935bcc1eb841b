"""The `warmup`, `measure` and `handler` commands: a workload's calls, checked (warm-up) or timed."""
from __future__ import annotations

import statistics
import time

from rpcmatrix.contract.catalog import Workload
from rpcmatrix.contract.compare import difference, result_difference
from rpcmatrix.contract.reference import ReferenceBench, handler_arguments
from rpcmatrix.harness.calls import Driver, checked_calls, timed_calls
from rpcmatrix.harness.sessions import calculators_of, expected_total, reference_calculators, session_call

STEADY_WINDOW = 3  # batches whose medians must agree


class WrongAnswer(Exception):
    """A warm-up answer that differs from the contract's."""


def _checker(workload: Workload, args: list, calls: int):
    operation = workload.operation
    if operation is None:  # a calculator session answers its total
        expected = expected_total(args[0])
    else:
        expected = Driver(ReferenceBench()).once(operation, args)

    def check(index: int, answer: object) -> None:
        if operation is None:
            found = difference("int64", expected, answer, "total()")
        else:
            found = result_difference(operation, expected, answer)
        if found is not None:
            raise WrongAnswer(f"call {index + 1} of {calls}: {found}")

    return check


def warmup(driver: Driver, workload: Workload, args: list, calls: int) -> dict:
    """`calls` calls, every answer checked against the contract."""
    _checked(driver, workload, args, calls, _checker(workload, args, calls))
    return {"checked": calls}


def _checked(driver: Driver, workload: Workload, args: list, calls: int, check) -> list[int]:
    if workload.session is not None:
        return checked_calls(session_call(calculators_of(driver.target)), args, calls, check)
    return driver.checked(workload.operation, args, calls, check)


def warmup_until_steady(driver: Driver, workload: Workload, args: list, calls: int, tolerance: float,
                        max_ms: float) -> dict:
    """Batches of `calls` checked and timed calls until the medians of the last three batches are within
    `tolerance` of each other ((max - min) / min), or until `max_ms` has passed."""
    check = _checker(workload, args, calls)
    started = time.perf_counter_ns()
    deadline = started + int(max_ms * 1_000_000)
    medians: list[int] = []
    steady = False
    while True:
        medians.append(int(statistics.median(_checked(driver, workload, args, calls, check)) if calls else 0))
        window = medians[-STEADY_WINDOW:]
        if len(window) == STEADY_WINDOW and (max(window) - min(window)) <= tolerance * max(min(window), 1):
            steady = True
            break
        if time.perf_counter_ns() >= deadline:
            break
    return {"checked": calls * len(medians), "batches": len(medians), "steady": steady,
            "elapsed_ms": round((time.perf_counter_ns() - started) / 1e6, 3), "batch_medians_ns": medians}


def measure(driver: Driver, workload: Workload, args: list, calls: int, min_ms: float, max_calls: int) -> list[int]:
    """One repetition: back-to-back timed calls with prepared arguments; answers are not checked."""
    if workload.session is not None:  # one sample = one whole session (CONTRACT.md#objects)
        return timed_calls(session_call(calculators_of(driver.target)), args, calls, int(min_ms * 1_000_000),
                           max_calls)
    return driver.timed(workload.operation, args, calls, int(min_ms * 1_000_000), max_calls)


def handler(workload: Workload, args: list, calls: int, min_ms: float, max_calls: int,
            repetitions: int) -> list[list[int]]:
    """The contract's reference behaviour in process, timed as `measure` times a call, on its arguments as
    the servers hand them to it (reference.handler_arguments)."""
    # A session's handler figure is the same session on an in-process calculator.
    driver = Driver(reference_calculators() if workload.session is not None else ReferenceBench())
    if workload.session is None:
        args = handler_arguments([p.type for p in workload.operation.params], args)
    return [measure(driver, workload, args, calls, min_ms, max_calls) for _ in range(repetitions)]
