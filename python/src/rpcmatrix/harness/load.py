"""The `load` command (runner/PROTOCOL.md#load): many calls in flight, closed or open loop.

Closed loop: `in_flight` workers each make one call after another; a call's latency is its service time.
Open loop: calls are due at intended times (constant spacing or Poisson arrivals at `rate` per second, from a
seeded generator); a free worker takes the next due call (a global rate: an idle worker helps a stuck one),
waits until its intended time and sends it. Latency runs from the intended time (coordinated omission
corrected, as wrk2 does), service time from the actual send; their difference is the dispatch delay. A call
sent more than `late_ms` after its intended time is late; a call still unsent at the end is dropped.

Workers are threads, each on a connection of its own unless the adapter says its connection carries
concurrent calls (`shares_connection`, gRPC's channels): Python's synchronous stacks make one call at a time
per connection. Histograms are HdrHistogram's (the `hdrhistogram` package), answered encoded."""
from __future__ import annotations

import platform
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import version

from hdrh.histogram import HdrHistogram

# 1 ns to 60 s at 3 significant digits: the range HdrHistogram's own examples use for request latencies.
LOWEST_NS, HIGHEST_NS, DIGITS = 1, 60_000_000_000, 3


@dataclass(frozen=True)
class LoadPlan:
    connections: int
    in_flight: int
    duration_ns: int
    warmup_ns: int
    rate: float | None  # calls per second; None: closed loop
    arrival: str  # "constant" or "poisson"
    seed: int
    late_ns: int
    timeout_ns: int

    @classmethod
    def of(cls, command: dict) -> LoadPlan:
        def positive(name: str, default: float | None = None) -> float:
            value = command.get(name, default)
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"load: {name} must be a positive number")
            return value

        connections = int(positive("connections", 1))
        in_flight = int(positive("in_flight", connections))
        arrival = command.get("arrival", "constant")
        if arrival not in ("constant", "poisson"):
            raise ValueError("load: arrival must be constant or poisson")
        rate = positive("rate") if command.get("rate") is not None else None
        return cls(connections=connections, in_flight=in_flight,
                   duration_ns=int(positive("duration_ms") * 1e6),
                   warmup_ns=int(command.get("warmup_ms", 0) * 1e6),
                   rate=rate, arrival=arrival, seed=int(command.get("seed", 1)),
                   late_ns=int(positive("late_ms", 1) * 1e6), timeout_ns=int(positive("timeout_ms", 10_000) * 1e6))


def histogram() -> HdrHistogram:
    return HdrHistogram(LOWEST_NS, HIGHEST_NS, DIGITS)


@dataclass
class Tally:
    """One worker's counts and histograms, merged after the run (no lock per call)."""
    latency: HdrHistogram = field(default_factory=histogram)
    service: HdrHistogram = field(default_factory=histogram)
    dispatch: HdrHistogram = field(default_factory=histogram)
    calls: int = 0
    errors: int = 0
    timeouts: int = 0
    late: int = 0
    first_error: str = ""


class Schedule:
    """The intended send times of an open loop, handed out in order to whichever worker asks first."""

    def __init__(self, plan: LoadPlan, start_ns: int):
        self.lock = threading.Lock()
        self.random = random.Random(plan.seed)
        self.interval_ns = 1e9 / plan.rate if plan.rate else 0.0
        self.poisson = plan.arrival == "poisson"
        self.next_ns = float(start_ns)
        self.handed = 0

    def take(self) -> int:
        with self.lock:
            due = int(self.next_ns)
            step = self.random.expovariate(1.0) * self.interval_ns if self.poisson else self.interval_ns
            self.next_ns += step
            self.handed += 1
            return due

    def due_by(self, start_ns: int, end_ns: int) -> int:
        """Intended sends from `start_ns` to `end_ns` not handed out yet (the dropped ones), without advancing."""
        with self.lock:
            count, at, rng = 0, self.next_ns, random.Random()
            rng.setstate(self.random.getstate())
            while at < end_ns:
                count += at >= start_ns
                at += rng.expovariate(1.0) * self.interval_ns if self.poisson else self.interval_ns
            return count


def run(plan: LoadPlan, make_call: Callable[[int], Callable[[], object]]) -> dict:
    """Runs the load; `make_call(worker)` gives worker `worker`'s call (on its connection). Returns the answer."""
    clock = time.perf_counter_ns
    calls = [make_call(worker) for worker in range(plan.in_flight)]
    start = clock() + 1_000_000  # every thread started before the first intended send
    record_from = start + plan.warmup_ns
    end = record_from + plan.duration_ns
    schedule = Schedule(plan, start) if plan.rate else None
    tallies = [Tally() for _ in calls]
    sleep_ns = time.sleep

    def work(worker: int) -> None:
        call, tally = calls[worker], tallies[worker]
        while True:
            if schedule is not None:
                if clock() >= end:  # what is still due is dropped, not sent late after the window
                    return
                intended = schedule.take()
                if intended >= end:
                    return
                now = clock()
                if intended > now:
                    sleep_ns((intended - now) / 1e9)
            else:
                intended = clock()
                if intended >= end:
                    return
            sent = clock()
            try:
                call()
                failed = ""
            except Exception as e:  # counted; the worker goes on
                failed = f"{type(e).__name__}: {e}"
            done = clock()
            if intended < record_from:
                continue
            tally.calls += 1
            if failed:
                tally.errors += 1
                tally.first_error = tally.first_error or failed
                continue
            if done - intended > plan.timeout_ns:
                tally.timeouts += 1
            if sent - intended > plan.late_ns:
                tally.late += 1
            tally.latency.record_value(min(max(done - intended, LOWEST_NS), HIGHEST_NS))
            tally.service.record_value(min(max(done - sent, LOWEST_NS), HIGHEST_NS))
            tally.dispatch.record_value(min(max(sent - intended, LOWEST_NS), HIGHEST_NS))

    threads = [threading.Thread(target=work, args=(w,), name=f"load-{w}", daemon=True) for w in range(len(calls))]
    cpu_before = time.process_time_ns()
    for thread in threads:
        thread.start()
    # A call that never returns holds its worker: waited for up to the time-out past the end, then counted.
    deadline = end + plan.timeout_ns
    for thread in threads:
        thread.join(max(0.0, (deadline - clock()) / 1e9))
    hung = sum(thread.is_alive() for thread in threads)
    finished = clock()
    cpu = time.process_time_ns() - cpu_before
    total = Tally()
    for tally in tallies:
        for name in ("latency", "service", "dispatch"):
            getattr(total, name).add(getattr(tally, name))
        total.calls += tally.calls
        total.errors += tally.errors
        total.timeouts += tally.timeouts
        total.late += tally.late
        total.first_error = total.first_error or tally.first_error
    window_s = plan.duration_ns / 1e9
    answer = {
        "mode": "open" if plan.rate else "closed",
        "connections": plan.connections, "in_flight": plan.in_flight,
        "duration_ms": plan.duration_ns / 1e6, "elapsed_ms": round((finished - record_from) / 1e6, 3),
        "calls": total.calls, "errors": total.errors, "timeouts": total.timeouts + hung, "hung": hung,
        "late": total.late, "dropped": schedule.due_by(record_from, end) if schedule is not None else 0,
        "achieved_per_s": round((total.calls - total.errors) / window_s, 3),
        "client_cpu_ns": cpu,
        "latency": total.latency.encode().decode(), "service": total.service.encode().decode(),
        "dispatch": total.dispatch.encode().decode(),
        "generator": generator(plan),
    }
    if plan.rate:
        answer.update(offered_per_s=plan.rate, arrival=plan.arrival, seed=plan.seed)
    if total.first_error:
        answer["first_error"] = total.first_error[:300]
    return answer


def generator(plan: LoadPlan) -> dict:
    return {"name": "rpcmatrix.harness.load", "version": f"Python {platform.python_version()}",
            "threads": plan.in_flight, "histogram": f"hdrhistogram {version('hdrhistogram')}",
            "clock": "time.perf_counter_ns"}
