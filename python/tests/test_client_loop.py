"""The command loop of runner/PROTOCOL.md, driven with an in-process client (no network)."""
import asyncio
import io
import json
import time

from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.harness.client import CommandLoop, parse_options, serve_commands


class InProcessClient(ReferenceBench):
    """A client adapter that answers with the reference itself; subclasses break one operation."""

    closed = False

    def close(self):
        self.closed = True


class WrongStringClient(InProcessClient):
    def echo_string(self, value):
        return value.replace("\r", "\n")


class FailingClient(InProcessClient):
    def echo_int32(self, value):
        raise ConnectionResetError("connection reset by peer")

    def fail(self, code, message):
        return None


def converse(idl, commands, client_class=InProcessClient, protocol="rawtcp"):
    created = []

    def connect(options):
        created.append(client_class())
        return created[-1]

    options = parse_options(["--protocol", protocol, "--host", "127.0.0.1", "--port", "1", "--idl", str(idl)],
                            (protocol.split("-")[0],))
    loop = CommandLoop(options, connect)
    answers = io.StringIO()
    serve_commands(loop, io.StringIO("".join(c if isinstance(c, str) else json.dumps(c) + "\n" for c in commands)),
                   answers)
    return [json.loads(line) for line in answers.getvalue().splitlines()], created


def statuses(answer):
    return {r["id"]: (r["status"], r["reason"]) for r in answer["results"]}


def test_a_full_conversation(idl):
    answers, created = converse(idl, [
        {"cmd": "connect"},
        {"cmd": "vectors", "protocol": "rawtcp"},
        {"cmd": "warmup", "workload": "getItems10", "calls": 3},
        {"cmd": "prepare", "workload": "ping"},
        {"cmd": "measure", "workload": "ping", "calls": 4},
        {"cmd": "measure", "workload": "ping", "calls": 4},
        {"cmd": "samples", "workload": "ping"},
        {"cmd": "samples", "workload": "ping"},
        {"cmd": "quit"},
        {"cmd": "ping"},  # after quit: never read
    ])
    assert len(answers) == 9 and all(a["ok"] for a in answers)
    assert answers[0]["instantiation_ns"] > 0
    results = statuses(answers[1])
    assert results["ping"] == ("pass", "")
    # rawtcp lacks server streaming: the stream's vectors are unsupported with the registry's reason.
    assert results["random_doubles_stream_50k"] == ("unsupported", "the raw TCP baseline answers each request "
                                                                    "with one frame")
    assert {s for s, _ in results.values()} == {"pass", "unsupported"}
    assert answers[2] == {"ok": True, "checked": 3}
    assert answers[3] == {"ok": True}
    assert answers[4] == answers[5] == {"ok": True, "calls": 4}
    samples = answers[6]["samples_ns"]
    assert len(samples) == 2 and all(len(r) == 4 and all(isinstance(s, int) and s > 0 for s in r) for r in samples)
    assert answers[7]["samples_ns"] == []  # handed over and emptied
    assert answers[8] == {"ok": True} and created[0].closed


def test_connect_goes_to_the_host_and_port_it_names_and_closes_the_earlier_connection(idl):
    class GoneServerClient(InProcessClient):
        def close(self):
            raise ConnectionResetError("the earlier server is gone")

    targets = []

    def connect(options):
        targets.append((options.host, options.port))
        return GoneServerClient()

    options = parse_options(["--protocol", "rawtcp", "--host", "127.0.0.1", "--port", "1", "--idl", str(idl)],
                            ("rawtcp",))
    loop = CommandLoop(options, connect)
    answers = [loop.answer(c) for c in ({"cmd": "connect"}, {"cmd": "connect", "host": "198.18.0.2", "port": 4242},
                                        {"cmd": "connect", "port": 4343}, {"cmd": "connect", "port": 70000})]
    assert [a["ok"] for a in answers] == [True, True, True, False]
    assert targets == [("127.0.0.1", 1), ("198.18.0.2", 4242), ("127.0.0.1", 4343)]
    assert options.port == 1, "the command line's target stays"


def test_protocol_limits_make_vectors_unsupported(idl):
    answers, _ = converse(idl, [{"cmd": "connect"}, {"cmd": "vectors", "protocol": "xmlrpc"}])
    results = statuses(answers[1])
    assert results["float64_nan"][0] == "unsupported" and "NaN" in results["float64_nan"][1]
    assert results["string_c0_controls"][0] == "unsupported"
    assert results["string_tab_lf_cr"] == ("pass", "")


def test_grpc_vectors_include_the_stream(idl):
    answers, _ = converse(idl, [{"cmd": "connect"}, {"cmd": "vectors", "protocol": "grpc"}])
    assert statuses(answers[1])["random_doubles_stream_uneven"] == ("pass", "")


def test_wrong_answers_fail_with_the_difference(idl):
    answers, _ = converse(idl, [{"cmd": "connect"}, {"cmd": "vectors", "protocol": "rawtcp"}], WrongStringClient)
    status, reason = statuses(answers[1])["string_tab_lf_cr"]
    assert status == "fail" and reason.startswith("result: expected 'a\\tb\\nc\\rd")
    assert statuses(answers[1])["string_ascii"] == ("pass", "")


def test_errors_and_missing_errors(idl):
    answers, _ = converse(idl, [{"cmd": "connect"}, {"cmd": "vectors", "protocol": "rawtcp"},
                                {"cmd": "warmup", "workload": "echoInt32", "calls": 1}], FailingClient)
    results = statuses(answers[1])
    assert results["int32_max"] == ("error", "ConnectionResetError: connection reset by peer")
    assert results["fail_simple"][0] == "fail" and "expected BenchError{code: 42" in results["fail_simple"][1]
    assert answers[2]["ok"] is False and "connection reset" in answers[2]["error"]


def test_wrong_warmup_answer_is_not_ok(idl):
    answers, _ = converse(idl, [{"cmd": "connect"}, {"cmd": "warmup", "workload": "echoString", "calls": 2}],
                          type("Wrong", (InProcessClient,), {"echo_string": lambda self, v: v + "!"}))
    assert answers[1]["ok"] is False and answers[1]["error"].startswith("call 1 of 2: result:")


def test_bad_commands_are_answered_and_the_loop_goes_on(idl):
    answers, _ = converse(idl, [
        "not json\n",
        "\n",
        {"cmd": "launch"},
        {"cmd": "warmup", "workload": "ping", "calls": 1},  # not connected yet
        {"cmd": "connect"},
        {"cmd": "warmup", "workload": "noSuchWorkload", "calls": 1},
        {"cmd": "measure", "workload": "ping", "calls": -1},
        {"cmd": "warmup", "workload": "ping", "calls": 1},
    ])
    assert [a["ok"] for a in answers] == [False, False, False, True, False, False, True]
    assert "unknown command" in answers[1]["error"] and "not connected" in answers[2]["error"]
    assert "noSuchWorkload" in answers[4]["error"]


class SlowPingClient(InProcessClient):
    def ping(self):
        time.sleep(0.002)


def test_measure_goes_on_until_min_ms_but_never_beyond_max_calls(idl):
    answers, _ = converse(idl, [
        {"cmd": "connect"},
        {"cmd": "prepare", "workload": "ping"},
        {"cmd": "measure", "workload": "ping", "calls": 2, "min_ms": 30, "max_calls": 1000},
        {"cmd": "measure", "workload": "ping", "calls": 2, "min_ms": 60000, "max_calls": 5},
        {"cmd": "samples", "workload": "ping"},
    ], SlowPingClient)
    # Each call sleeps 2 ms: 30 ms takes more than 2 calls and (at most 15 + 1) far fewer than 1000.
    assert 2 < answers[2]["calls"] < 1000
    assert answers[3]["calls"] == 5
    assert [len(r) for r in answers[4]["samples_ns"]] == [answers[2]["calls"], 5]
    assert sum(answers[4]["samples_ns"][0]) >= 2_000_000 * answers[2]["calls"]  # each call slept


def test_prepare_empties_the_buffer(idl):
    answers, _ = converse(idl, [
        {"cmd": "connect"},
        {"cmd": "measure", "workload": "echoInt32", "calls": 3},
        {"cmd": "prepare", "workload": "echoInt32"},
        {"cmd": "measure", "workload": "echoInt32", "calls": 1},
        {"cmd": "samples", "workload": "echoInt32"},
    ])
    assert [len(r) for r in answers[4]["samples_ns"]] == [1]


def test_handler_times_the_reference_without_a_connection(idl):
    answers, created = converse(idl, [
        {"cmd": "handler", "workload": "randomDoubles50k", "calls": 3, "repetitions": 2},
        {"cmd": "handler", "workload": "randomDoublesStream50k", "calls": 2, "min_ms": 0, "max_calls": 2,
         "repetitions": 1},
        {"cmd": "handler", "workload": "nope", "calls": 1, "repetitions": 1},
    ])
    assert created == []  # never connected
    assert [len(r) for r in answers[0]["samples_ns"]] == [3, 3]
    assert all(s > 0 for r in answers[0]["samples_ns"] for s in r)
    assert [len(r) for r in answers[1]["samples_ns"]] == [2]  # every workload, whatever the protocol lacks
    assert answers[2]["ok"] is False


def test_warmup_until_steady_reports_its_batches(idl):
    answers, _ = converse(idl, [
        {"cmd": "connect"},
        {"cmd": "warmup", "workload": "ping", "calls": 5, "until_steady": {"tolerance": 1e9, "max_ms": 60000}},
        {"cmd": "warmup", "workload": "ping", "calls": 5, "until_steady": {"tolerance": 0.0, "max_ms": 0}},
    ])
    steady, unsteady = answers[1], answers[2]
    # An unbounded tolerance is met by the first three batches.
    assert steady["ok"] and steady["steady"] is True and steady["batches"] == 3 and steady["checked"] == 15
    assert len(steady["batch_medians_ns"]) == 3 and steady["elapsed_ms"] >= 0
    # No time at all: one batch, then the deadline has passed.
    assert unsteady["batches"] == len(unsteady["batch_medians_ns"]) >= 1
    assert unsteady["checked"] == 5 * unsteady["batches"]


def test_warmup_until_steady_checks_answers(idl):
    answers, _ = converse(idl, [
        {"cmd": "connect"},
        {"cmd": "warmup", "workload": "echoString", "calls": 2, "until_steady": {"tolerance": 0.1, "max_ms": 100}},
    ], type("Wrong", (InProcessClient,), {"echo_string": lambda self, v: v + "!"}))
    assert answers[1]["ok"] is False and answers[1]["error"].startswith("call 1 of 2: result:")


def test_workloads_the_protocol_lacks_are_refused(idl):
    answers, _ = converse(idl, [{"cmd": "connect"}, {"cmd": "prepare", "workload": "randomDoublesStream50k"}])
    assert answers[1]["ok"] is False
    assert "unsupported on rawtcp" in answers[1]["error"]


class AsyncReferenceClient:
    """An asynchronous adapter: coroutine methods on an event loop it owns."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.reference = ReferenceBench()
        self.closed = False

    def __getattr__(self, name):
        method = getattr(self.reference, name)

        async def call(*args):
            await asyncio.sleep(0)
            result = method(*args)
            return list(result) if name == "random_doubles_stream" else result
        return call

    def close(self):
        self.closed = True
        self.loop.close()


def test_an_asynchronous_adapter_runs_on_its_own_loop(idl):
    answers, created = converse(idl, [
        {"cmd": "connect"},
        {"cmd": "vectors", "protocol": "grpc"},
        {"cmd": "warmup", "workload": "getItems10", "calls": 2, "until_steady": {"tolerance": 1e9, "max_ms": 1000}},
        {"cmd": "measure", "workload": "randomDoublesStream50k", "calls": 2},
        {"cmd": "samples", "workload": "randomDoublesStream50k"},
        {"cmd": "quit"},
    ], AsyncReferenceClient, protocol="grpc")
    assert all(a["ok"] for a in answers), answers
    # gRPC has every capability but remote objects and the security checks (registry), so the rest pass
    assert {i for i, (s, _) in statuses(answers[1]).items() if s != "pass"} == \
        {i for i in statuses(answers[1]) if i.startswith(("calculator_", "refuse_"))}
    assert answers[2]["steady"] is True
    assert [len(r) for r in answers[4]["samples_ns"]] == [2]
    assert created[0].closed


def test_the_handler_is_timed_on_float64_arrays_as_the_servers_hand_them_over(idl, monkeypatch):
    import numpy as np

    from rpcmatrix.contract.reference import ReferenceBench
    seen = []
    original = ReferenceBench.average

    def average(self, values):
        seen.append(type(values))
        return original(self, values)
    monkeypatch.setattr(ReferenceBench, "average", average)
    answers, _ = converse(idl, [{"cmd": "handler", "workload": "average50k", "calls": 2, "repetitions": 1}])
    assert answers[0]["ok"] and seen and set(seen) == {np.ndarray}
