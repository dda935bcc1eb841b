"""Hessian 1 on python-hessian: the wire helpers, the mapping, and client against server."""
import http.client

import pytest

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.hessian import client as hessian_client
from rpcmatrix.hessian import server as hessian_server
from rpcmatrix.hessian import wire
from rpcmatrix.hessian.mapping import from_wire, to_wire
from tests.helpers import options


def test_strings_read_in_bulk_keep_every_character():
    for text in ("", "a", "é€", "x" * 70000, "a\U0001F600b" * 3, "\x00\x1f"):
        assert wire.parse(wire.encode_reply(text)).value == text


def test_a_parser_per_message_reads_many_replies():
    for value in (1, "two", 3.5):
        assert wire.parse(wire.encode_reply(value)).value == value


def test_int64_is_long_and_receivers_check_ranges():
    body = wire.encode_reply(to_wire("int64")(5))
    assert body[3:4] == b"L"
    assert from_wire("int64")(wire.parse(body).value) == 5
    with pytest.raises(ValueError):
        from_wire("int8")(200)
    with pytest.raises(ValueError):
        from_wire("float32")(0.1)


def test_structs_and_their_repeated_empty_lists_survive_back_references():
    books = ReferenceBench().search_books("q", 30)
    read = wire.parse(wire.encode_reply(to_wire("Book[]")(books))).value
    assert from_wire("Book[]")(read) == books


@pytest.fixture
def server(idl):
    running = hessian_server.start(options(idl, "hessian1"))
    yield running
    running.stop()


def test_round_trips_and_bench_error(idl, server):
    client = hessian_client.connect(options(idl, "hessian1", port=server.port))
    try:
        assert client.echo_int64(-(1 << 63)) == -(1 << 63)
        assert client.echo_bytes(bytes(range(256))) == bytes(range(256))
        assert client.get_items(3) == ReferenceBench().get_items(3)
        with pytest.raises(BenchError) as raised:
            client.fail(7, "seven")
        assert (raised.value.code, raised.value.message) == (7, "seven")
    finally:
        client.close()


def test_out_of_range_argument_is_a_fault_with_code_32602(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port)
    connection.request("POST", wire.PATH, wire.encode_call("echoInt8", [300]))
    fault = wire.parse(connection.getresponse().read()).value
    assert fault.code == "ServiceException" and fault.detail["code"] == -32602
    connection.close()


def test_hessian2_is_refused_by_both_roles(idl):
    with pytest.raises(ValueError):
        hessian_server.start(options(idl, "hessian2"))
    with pytest.raises(ValueError):
        hessian_client.connect(options(idl, "hessian2", port=1))
