"""A known slowdown, for calibrating the comparison of runs (runner/README.md, "Calibrating compare"): when
the runner sets RPCMATRIX_SERVER_SPIN_US for a server, every contract call that server answers first
busy-waits that many microseconds. Test-only: a run made with it is marked as such in its report."""
from __future__ import annotations

import functools
import inspect
import os
import time
from collections.abc import Mapping

from rpcmatrix.contract.reference import ReferenceBench

VARIABLE = "RPCMATRIX_SERVER_SPIN_US"


def nanos(environment: Mapping[str, str]) -> int:
    value = (environment.get(VARIABLE) or "").strip()
    if not value:
        return 0
    if not value.isdigit() or int(value) > 1_000_000:
        raise ValueError(f"{VARIABLE} takes whole microseconds (0 to 1000000), not {value!r}")
    return int(value) * 1_000


def spin(ns: int) -> None:
    """Busy, not asleep: the slowdown costs CPU on the server as a slower handler would."""
    end = time.perf_counter_ns() + ns
    while time.perf_counter_ns() < end:
        pass


def _spun(method, ns: int):
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        spin(ns)
        return method(self, *args, **kwargs)
    return call


def served(environment: Mapping[str, str] | None = None) -> ReferenceBench:
    """The bench a server answers with: the reference, or, when the environment asks for a spin, a
    ReferenceBench whose every contract method spins first."""
    ns = nanos(os.environ if environment is None else environment)
    if ns == 0:
        return ReferenceBench()
    methods = {name: _spun(m, ns) for name, m in inspect.getmembers(ReferenceBench, inspect.isfunction)
               if not name.startswith("_")}
    return type("SpinningBench", (ReferenceBench,), methods)()
