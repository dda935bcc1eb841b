"""JSON-RPC 2.0: the mapping, client against server, and the server's batches and notifications."""
import http.client
import json
import socket

import pytest

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.jsonrpc import client as jsonrpc_client
from rpcmatrix.jsonrpc import server as jsonrpc_server
from rpcmatrix.jsonrpc.mapping import PATH, from_wire, to_wire
from tests.helpers import options


def test_values_carried_as_the_contract_says():
    assert to_wire("bytes")(b"\x00\xff") == "AP8="
    assert from_wire("bytes")("AP8=") == b"\x00\xff"
    assert from_wire("int64")(9223372036854775807) == 9223372036854775807
    assert from_wire("float32")(0.1) == 0.10000000149011612  # rounded to the nearest float32
    assert to_wire("void")(None) is None
    # a float32 goes as its own shortest decimal, not the widened float64's (8 to 10 bytes more)
    assert json.dumps(to_wire("float32")(0.1973658949136734)) == "0.1973659"
    assert json.dumps(to_wire("float32")(-0.0)) == "-0.0"
    for type_name, bad in (("int8", 128), ("int32", 1.0), ("bool", 1), ("bytes", "not base64!")):
        with pytest.raises(ValueError):
            from_wire(type_name)(bad)


@pytest.fixture
def server(idl):
    running = jsonrpc_server.start(options(idl, "jsonrpc"))
    yield running
    running.stop()


def _post(port, payload):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("POST", PATH, json.dumps(payload), {"Content-Type": "application/json"})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, (json.loads(body) if body else None)


def test_round_trips_and_bench_error(idl, server):
    client = jsonrpc_client.connect(options(idl, "jsonrpc", port=server.port))
    try:
        assert client.echo_int64(-(1 << 63)) == -(1 << 63)
        assert client.get_record("k") == ReferenceBench().get_record("k")
        with pytest.raises(BenchError) as raised:
            client.get_items(-1)
        assert (raised.value.code, raised.value.message) == (400, "count must not be negative")
    finally:
        client.close()


def test_batch_answers_every_request_and_skips_notifications(server):
    status, answers = _post(server.port, [
        {"jsonrpc": "2.0", "method": "echoInt32", "params": [7], "id": 1},
        {"jsonrpc": "2.0", "method": "ping"},  # a notification: no answer
        {"jsonrpc": "2.0", "method": "fail", "params": [3, "three"], "id": 2},
    ])
    assert status == 200
    by_id = {a["id"]: a for a in answers}
    assert set(by_id) == {1, 2}
    assert by_id[1]["result"] == 7
    assert by_id[2]["error"]["code"] == 3 and by_id[2]["error"]["message"] == "three"


def test_a_lone_notification_gets_no_body(server):
    assert _post(server.port, {"jsonrpc": "2.0", "method": "ping"}) == (204, None)


def test_invalid_params_are_32602(server):
    _, answer = _post(server.port, {"jsonrpc": "2.0", "method": "echoInt8", "params": [128], "id": 5})
    assert answer["error"]["code"] == -32602
    _, answer = _post(server.port, {"jsonrpc": "2.0", "method": "echoInt8", "params": [], "id": 6})
    assert answer["error"]["code"] == -32602


def _raw(port, text):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("POST", PATH, text.encode(), {"Content-Type": "application/json"})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, (json.loads(body) if body else None)


def _error(code):
    return {"jsonrpc": "2.0", "error": code, "id": None}


# JSON-RPC 2.0, section 7 (examples), as this contract's methods: request text, expected status and answer.
# An answer's error is reduced to its code; None: no body.
SPECIFICATION_CASES = [
    ('{"jsonrpc": "2.0", "method": "echoInt32", "params": [23], "id": 1}', 200,
     {"jsonrpc": "2.0", "result": 23, "id": 1}),
    ('{"jsonrpc": "2.0", "method": "ping"}', 204, None),
    ('{"jsonrpc": "2.0", "method": "foobar", "id": "1"}', 200, {"jsonrpc": "2.0", "error": -32601, "id": "1"}),
    ('{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]', 200, _error(-32700)),
    ('{"jsonrpc": "2.0", "method": 1, "params": "bar"}', 200, _error(-32600)),
    ('[{"jsonrpc": "2.0", "method": "ping", "id": "1"}, {"jsonrpc": "2.0", "method"]', 200, _error(-32700)),
    ("[]", 200, _error(-32600)),
    ("[1]", 200, [_error(-32600)]),
    ("[1,2,3]", 200, [_error(-32600)] * 3),
    ('[{"jsonrpc": "2.0", "method": "echoInt32", "params": [1], "id": "1"},'
     ' {"jsonrpc": "2.0", "method": "ping"}, {"foo": "boo"},'
     ' {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"}]', 200,
     [{"jsonrpc": "2.0", "result": 1, "id": "1"}, _error(-32600),
      {"jsonrpc": "2.0", "error": -32601, "id": "5"}]),
    ('[{"jsonrpc": "2.0", "method": "ping"}, {"jsonrpc": "2.0", "method": "ping"}]', 204, None),
    ('{"jsonrpc": "1.0", "method": "ping", "id": 1}', 200, _error(-32600)),
    ('{"jsonrpc": "2.0", "method": "echoInt32", "params": ["x"], "id": 2}', 200,
     {"jsonrpc": "2.0", "error": -32602, "id": 2}),
]


def _codes(answer):
    if isinstance(answer, list):
        return [_codes(a) for a in answer]
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        return {**answer, "error": answer["error"]["code"]}
    return answer


@pytest.mark.parametrize(("text", "status", "expected"), SPECIFICATION_CASES)
def test_the_specifications_examples(server, text, status, expected):
    got_status, answer = _raw(server.port, text)
    assert (got_status, _codes(answer)) == (status, expected)


def test_a_body_declared_over_the_limit_is_refused_before_it_is_read(server):
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.settimeout(10)
        connection.sendall(f"POST {PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000000\r\n\r\n{{".encode())
        assert b" 413 " in connection.recv(64)
    _, answer = _post(server.port, {"jsonrpc": "2.0", "method": "echoInt32", "params": [9], "id": 9})
    assert answer["result"] == 9
