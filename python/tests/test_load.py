"""The load command (runner/PROTOCOL.md#load): closed and open loops, latency from the intended send time,
dropped, late and failed calls counted. Every test is bounded to a few seconds."""
from __future__ import annotations

import time

import pytest
from hdrh.histogram import HdrHistogram

from helpers import options as make_options
from rpcmatrix.harness import load
from rpcmatrix.harness.client import CommandLoop


def plan(**fields) -> load.LoadPlan:
    return load.LoadPlan.of({"duration_ms": 1000, **fields})


def histogram(answer: dict, name: str) -> HdrHistogram:
    return HdrHistogram.decode(answer[name])


def test_a_stall_shows_in_the_corrected_latency_and_not_in_the_service_time():
    # The check: a server that stalls 200 ms once a second. At 500 calls/s with one call in flight the
    # calls due during a stall wait for it: their latency from the intended send runs up to 200 ms, while the
    # service time of all but the stalled call stays short (what a tool timing from the actual send reports).
    started = time.perf_counter()
    stalled = set()

    def call():
        second = int(time.perf_counter() - started)
        if second not in stalled:
            stalled.add(second)
            time.sleep(0.2)
        else:
            time.sleep(0.0002)

    answer = load.run(plan(duration_ms=3000, warmup_ms=100, rate=500), lambda worker: call)
    assert answer["mode"] == "open" and answer["offered_per_s"] == 500
    latency, service = histogram(answer, "latency"), histogram(answer, "service")
    assert latency.get_value_at_percentile(99) >= 150e6
    assert service.get_value_at_percentile(99) < 50e6
    assert answer["late"] > 100  # the calls due during three stalls were sent late
    assert answer["errors"] == 0 and answer["hung"] == 0


def test_closed_loop_keeps_every_worker_busy_and_times_from_the_send():
    in_call, most = 0, 0

    def call():
        nonlocal in_call, most
        in_call += 1
        most = max(most, in_call)
        time.sleep(0.002)
        in_call -= 1

    answer = load.run(plan(connections=4, in_flight=4, duration_ms=500), lambda worker: call)
    assert answer["mode"] == "closed" and "offered_per_s" not in answer
    assert most == 4
    # four workers of 2 ms calls: about 2,000 calls a second (sleep overshoots, never undershoots)
    assert 500 <= answer["achieved_per_s"] <= 2000
    assert histogram(answer, "latency").get_total_count() == answer["calls"]
    assert histogram(answer, "dispatch").get_value_at_percentile(99) < 1e6


def test_an_unreachable_rate_drops_what_it_could_not_send():
    # 10 ms calls, one in flight, 1,000 a second asked for half a second: about 50 sent, the rest dropped.
    answer = load.run(plan(duration_ms=500, rate=1000), lambda worker: lambda: time.sleep(0.01))
    assert answer["calls"] <= 60
    assert answer["dropped"] >= 400
    assert answer["calls"] + answer["dropped"] == pytest.approx(500, abs=3)
    assert answer["achieved_per_s"] < 0.15 * answer["offered_per_s"]


def test_failed_calls_are_counted_and_not_timed():
    count = 0

    def call():
        nonlocal count
        count += 1
        if count % 10 == 0:
            raise RuntimeError("refused")

    answer = load.run(plan(duration_ms=300, rate=2000, arrival="poisson", seed=3), lambda worker: call)
    assert answer["errors"] > 0 and answer["first_error"] == "RuntimeError: refused"
    assert histogram(answer, "latency").get_total_count() == answer["calls"] - answer["errors"]


def test_a_call_that_never_returns_is_hung_and_the_command_still_answers():
    def call():
        time.sleep(5)

    begun = time.perf_counter()
    answer = load.run(plan(duration_ms=200, timeout_ms=300), lambda worker: call)
    assert time.perf_counter() - begun < 2
    assert answer["hung"] == 1 and answer["timeouts"] >= 1


@pytest.mark.parametrize("fields, message", [
    ({"duration_ms": 0}, "duration_ms"),
    ({"duration_ms": 100, "rate": -1}, "rate"),
    ({"duration_ms": 100, "arrival": "bursty"}, "arrival"),
    ({"duration_ms": 100, "connections": "two"}, "connections"),
])
def test_a_bad_plan_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        load.LoadPlan.of(fields)


class OneCallAtATime:
    """An adapter whose connection takes one call at a time (most of the suite's synchronous stacks)."""

    def ping(self):
        return None

    def close(self):
        pass


def test_a_client_with_one_call_per_connection_refuses_more_in_flight_than_connections(idl):
    loop = CommandLoop(make_options(idl, "rawtcp"), lambda target: OneCallAtATime())
    assert loop.answer({"cmd": "connect"})["ok"]
    refused = loop.answer({"cmd": "load", "workload": "ping", "connections": 2, "in_flight": 4, "duration_ms": 50})
    assert not refused["ok"] and "one call at a time per connection" in refused["error"]
    served = loop.answer({"cmd": "load", "workload": "ping", "connections": 2, "in_flight": 2, "duration_ms": 50})
    assert served["ok"] and served["calls"] > 0 and served["generator"]["threads"] == 2
    assert loop.answer({"cmd": "load", "workload": "calculatorSession", "duration_ms": 50})["ok"] is False


def test_each_load_connection_is_used_once_before_the_load(idl, monkeypatch):
    class Recording(OneCallAtATime):
        opened: list = []

        def __init__(self):
            self.calls = 0
            self.opened.append(self)

        def ping(self):
            self.calls += 1

    loop = CommandLoop(make_options(idl, "rawtcp"), lambda target: Recording())
    assert loop.answer({"cmd": "connect"})["ok"]
    Recording.opened.clear()
    seen = []
    original = load.run

    def run(plan_, make_call):  # what each connection had served when the load began
        seen.extend(adapter.calls for adapter in Recording.opened)
        return original(plan_, make_call)

    monkeypatch.setattr(load, "run", run)
    assert loop.answer({"cmd": "load", "workload": "ping", "connections": 3, "duration_ms": 50})["ok"]
    assert seen == [1, 1, 1]
