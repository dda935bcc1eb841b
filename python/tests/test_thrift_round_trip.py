"""The Thrift server and client over loopback: in-process for the mapping, then as the runner starts them."""
import signal
import socket

import pytest
from thrift.Thrift import TApplicationException
from thrift.transport.TSocket import TSocket
from thrift.transport.TTransport import TFramedTransport

from helpers import assert_all_pass_or_lacked, run_client, start_server
from rpcmatrix.contract.compare import difference
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen import Bench, ttypes
from rpcmatrix.thrift.client import NoDelaySocket, ThriftClient
from rpcmatrix.thrift.server import NoDelayServerSocket, ThriftServer
from rpcmatrix.thrift.wire import protocol_factory

WIRES = ["binary", "compact"]


@pytest.fixture(params=WIRES)
def served(request):
    server = ThriftServer("127.0.0.1", 0, request.param)
    yield request.param, server.port
    server.stop()


def test_calls_travel_both_ways(served):
    wire, port = served
    client = ThriftClient("127.0.0.1", port, wire)
    reference = ReferenceBench()
    try:
        client.ping()
        assert client.echo_int8(-128) == -128
        assert client.echo_int16(32767) == 32767
        assert client.echo_int64(-(2**63)) == -(2**63)
        assert str(client.echo_float32(-0.0)) == "-0.0"
        assert client.echo_string("nul\x00 𝄞") == "nul\x00 𝄞"
        assert client.echo_bytes(bytes(range(256))) == bytes(range(256))
        for name, type_name, args in [("get_items", "Item[]", (25,)), ("search_books", "Book[]", ("q", 4)),
                                      ("get_record", "Record", ("k",)), ("random_doubles", "float64[]", (100, -3))]:
            expected = getattr(reference, name)(*args)
            assert difference(type_name, expected, getattr(client, name)(*args)) is None, name
    finally:
        client.close()


def test_the_declared_exception_becomes_bench_error(served):
    wire, port = served
    client = ThriftClient("127.0.0.1", port, wire)
    try:
        with pytest.raises(BenchError) as raised:
            client.fail(-1, "<&> Grüße")
        assert (raised.value.code, raised.value.message) == (-1, "<&> Grüße")
        client.ping()  # the connection survives a declared exception
    finally:
        client.close()


def test_the_server_rejects_a_float32_that_is_not_one_and_says_why(served):
    wire, port = served
    transport = TFramedTransport(TSocket("127.0.0.1", port))
    raw = Bench.Client(protocol_factory(wire).getProtocol(transport))
    transport.open()
    try:
        with pytest.raises(TApplicationException) as not_float32:
            raw.echoFloat32(0.1)
        assert not_float32.value.type == TApplicationException.PROTOCOL_ERROR
        assert "not exactly representable as float32" in not_float32.value.message
        with pytest.raises(ttypes.BenchError) as negative:  # declared by the operations taking a count
            raw.getItems(-1)
        assert (negative.value.code, negative.value.message) == (400, "count must not be negative")
        assert raw.echoFloat32(1.5) == 1.5
    finally:
        transport.close()


@pytest.mark.parametrize("wire", WIRES)
def test_server_and_client_processes(wire, repository, idl):
    protocol = f"thrift-{wire}"
    server, port = start_server("rpcmatrix.thrift", protocol, repository)
    try:
        answers = run_client("rpcmatrix.thrift", protocol, repository, port, [
            {"cmd": "connect"}, {"cmd": "vectors"},
            {"cmd": "warmup", "workload": "getItems100", "calls": 2}, {"cmd": "quit"}])
        assert [a["ok"] for a in answers] == [True] * 4, answers
        assert_all_pass_or_lacked(idl, protocol, answers[1]["results"])
        assert answers[2]["checked"] == 2
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=5) == 0


def test_both_ends_turn_nagle_off():
    listener = NoDelayServerSocket(host="127.0.0.1", port=0, socket_family=socket.AF_INET)
    listener.listen()
    connecting = NoDelaySocket("127.0.0.1", listener.handle.getsockname()[1], socket_family=socket.AF_INET)
    try:
        connecting.open()
        accepted = listener.accept()
        for end in (connecting.handle, accepted.handle):
            assert end.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        accepted.close()
    finally:
        connecting.close()
        listener.close()
