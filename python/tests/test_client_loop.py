"""The command loop of runner/PROTOCOL.md, driven with an in-process client (no network)."""
import io
import json

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

    options = parse_options(["--host", "127.0.0.1", "--port", "1", "--idl", str(idl)])
    loop = CommandLoop(options, connect, protocol)
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
        {"cmd": "measure", "workload": "ping", "calls": 4, "repetitions": 2},
        {"cmd": "quit"},
        {"cmd": "ping"},  # after quit: never read
    ])
    assert len(answers) == 5 and all(a["ok"] for a in answers)
    assert answers[0]["instantiation_ns"] > 0
    results = statuses(answers[1])
    assert set(results.values()) == {("pass", "")}
    assert "random_doubles_stream_50k" not in results and "ping" in results  # gRPC-only vectors are left out
    assert answers[2] == {"ok": True, "checked": 3}
    samples = answers[3]["samples_ns"]
    assert len(samples) == 2 and all(len(r) == 4 and all(isinstance(s, int) and s > 0 for s in r) for r in samples)
    assert answers[4] == {"ok": True} and created[0].closed


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
        {"cmd": "measure", "workload": "ping", "calls": -1, "repetitions": 1},
        {"cmd": "warmup", "workload": "ping", "calls": 1},
    ])
    assert [a["ok"] for a in answers] == [False, False, False, True, False, False, True]
    assert "unknown command" in answers[1]["error"] and "not connected" in answers[2]["error"]
    assert "noSuchWorkload" in answers[4]["error"]
