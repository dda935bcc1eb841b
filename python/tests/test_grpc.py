"""The gRPC carriage (CONTRACT.md#carriage): range checks, BenchError <-> status, the stream, TLS."""
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest

from conftest import REPOSITORY
from helpers import IDL, run_client, start_server
from helpers import options as _options
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.grpc import client as grpc_client
from rpcmatrix.grpc import mapping
from rpcmatrix.grpc import server as grpc_server
from rpcmatrix.grpc._generated import bench_pb2 as pb
from rpcmatrix.grpc._generated import bench_pb2_grpc


def options(port=0, tls=False, secrets=None, host="127.0.0.1"):
    return _options(REPOSITORY / "idl", "grpc-tls" if tls else "grpc", port, secrets, host)


@pytest.fixture
def reference_server():
    running = grpc_server.start(options())
    yield running
    running.stop()


@pytest.fixture
def client(reference_server):
    adapter = grpc_client.connect(options(reference_server.port))
    yield adapter
    adapter.close()


class FakeRpcError(grpc.RpcError):
    def __init__(self, code, details, trailers=()):
        self._code, self._details, self._trailers = code, details, trailers

    def code(self):
        return self._code

    def details(self):
        return self._details

    def trailing_metadata(self):
        return self._trailers


def test_int8_and_int16_are_range_checked():
    assert mapping.int8_from_wire(-128) == -128 and mapping.int8_from_wire(127) == 127
    assert mapping.int16_from_wire(-32768) == -32768 and mapping.int16_from_wire(32767) == 32767
    for bad in (128, -129):
        with pytest.raises(ValueError):
            mapping.int8_from_wire(bad)
    for bad in (32768, -32769):
        with pytest.raises(ValueError):
            mapping.int16_from_wire(bad)


def test_structs_survive_the_round_trip():
    bench = ReferenceBench()
    record = bench.get_record("record-42")
    assert mapping.record_from_wire(mapping.record_to_wire(record)) == record
    books = bench.search_books("distributed systems", 5)
    assert mapping.books_from_wire(mapping.books_to_wire(books)) == books
    items = bench.get_items(10)
    assert mapping.items_from_wire(mapping.items_to_wire(items)) == items


def test_both_halves_make_a_bench_error():
    error = mapping.error_from_rpc(FakeRpcError(grpc.StatusCode.FAILED_PRECONDITION, "no",
                                                ((mapping.ERROR_CODE_KEY, "-12"),)))
    assert isinstance(error, BenchError) and (error.code, error.message) == (-12, "no")


@pytest.mark.parametrize("code, trailers", [
    (grpc.StatusCode.FAILED_PRECONDITION, ()),
    (grpc.StatusCode.INTERNAL, ((mapping.ERROR_CODE_KEY, "400"),)),
    (grpc.StatusCode.FAILED_PRECONDITION, ((mapping.ERROR_CODE_KEY, "0x10"),)),
    (grpc.StatusCode.FAILED_PRECONDITION, ((mapping.ERROR_CODE_KEY, "99999999999"),)),
])
def test_half_a_bench_error_is_not_one(code, trailers):
    assert isinstance(mapping.error_from_rpc(FakeRpcError(code, "x", trailers)), mapping.MalformedBenchError)


def test_other_failures_stay_grpc_errors():
    error = FakeRpcError(grpc.StatusCode.UNAVAILABLE, "down")
    assert mapping.error_from_rpc(error) is error


def test_fail_arrives_as_the_same_bench_error(client):
    with pytest.raises(BenchError) as raised:
        client.fail(1234, "boom: ünïcode ✓")
    assert (raised.value.code, raised.value.message) == (1234, "boom: ünïcode ✓")


def test_a_negative_count_arrives_as_bench_error_400(client):
    for call in (lambda: client.get_items(-1), lambda: client.random_doubles_stream(-1, 1, 10)):
        with pytest.raises(BenchError) as raised:
            call()
        assert (raised.value.code, raised.value.message) == (400, "count must not be negative")


def test_a_server_stream_is_read_on_the_calling_thread(client):
    # the channel option of grpc/client.py: no hand-over per message from the channel's own thread
    callable_type = type(client._channel.unary_stream("/rpcmatrix.Bench/X"))
    assert callable_type.__name__ == "_SingleThreadedUnaryStreamMultiCallable"


def test_the_stream_comes_in_chunks_whose_concatenation_is_random_doubles(client):
    chunks = client.random_doubles_stream(10001, 3, 1000)
    assert [len(c) for c in chunks] == [1000] * 10 + [1]
    assert [v for c in chunks for v in c] == ReferenceBench().random_doubles(10001, 3).tolist()
    assert client.random_doubles_stream(0, 3, 1000) == []


def test_the_server_rejects_an_int8_or_int16_that_does_not_fit(reference_server):
    with grpc.insecure_channel(f"127.0.0.1:{reference_server.port}") as channel:
        stub = bench_pb2_grpc.BenchStub(channel)
        for call in (lambda: stub.echoInt8(pb.Int8Value(value=128)),
                     lambda: stub.echoInt16(pb.Int16Value(value=-32769))):
            with pytest.raises(grpc.RpcError) as raised:
                call()
            assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT


class OutOfRangeServicer(bench_pb2_grpc.BenchServicer):
    def echoInt8(self, request, context):
        return pb.Int8Value(value=200)

    def echoInt16(self, request, context):
        return pb.Int16Value(value=40000)


def test_the_client_rejects_an_int8_or_int16_that_does_not_fit():
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    bench_pb2_grpc.add_BenchServicer_to_server(OutOfRangeServicer(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    adapter = grpc_client.connect(options(port))
    try:
        with pytest.raises(ValueError):
            adapter.echo_int8(1)
        with pytest.raises(ValueError):
            adapter.echo_int16(1)
    finally:
        adapter.close()
        server.stop(None)


@pytest.fixture(scope="module")
def secrets(repository, tmp_path_factory):
    folder = tmp_path_factory.mktemp("secrets")
    subprocess.run(["bash", str(repository / "runner" / "secrets.sh"), str(folder)], check=True)
    return folder


def test_tls_verifies_the_server_name_not_the_address(secrets):
    running = grpc_server.start(options(tls=True, secrets=secrets))
    # The certificate names server.rpcmatrix.test and 127.0.0.1, not localhost: only the override passes.
    adapter = grpc_client.connect(options(running.port, tls=True, secrets=secrets, host="localhost"))
    try:
        adapter.ping()
        assert adapter.echo_string("über TLS") == "über TLS"
        with pytest.raises(BenchError):
            adapter.fail(7, "seven")
    finally:
        adapter.close()
        running.stop()


def test_tls_verifies_the_name_the_secrets_give_for_a_server_elsewhere(secrets, tmp_path):
    running = grpc_server.start(options(tls=True, secrets=secrets))
    given = tmp_path / "given"
    given.mkdir()
    (given / "ca.crt").write_bytes((secrets / "ca.crt").read_bytes())  # a client's folder: no server key
    (given / "server-name").write_text("another.rpcmatrix.test\n")
    adapter = grpc_client.connect(options(running.port, tls=True, secrets=given))
    try:
        with pytest.raises(grpc.RpcError) as raised:  # the certificate is not for that name
            adapter.ping()
        assert raised.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        adapter.close()
    (given / "server-name").write_text("server.rpcmatrix.test\n")
    adapter = grpc_client.connect(options(running.port, tls=True, secrets=given))
    try:
        adapter.ping()
    finally:
        adapter.close()
        running.stop()


def test_tls_refuses_a_plaintext_client(secrets):
    running = grpc_server.start(options(tls=True, secrets=secrets))
    adapter = grpc_client.connect(options(running.port))
    try:
        with pytest.raises(grpc.RpcError) as raised:
            adapter.ping()
        assert raised.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        adapter.close()
        running.stop()


def test_client_and_server_processes(repository, idl):
    server, port = start_server("rpcmatrix.grpc", "grpc", repository)
    try:
        answers = run_client("rpcmatrix.grpc", "grpc", repository, port, [
            {"cmd": "connect"}, {"cmd": "vectors", "protocol": "grpc"},
            {"cmd": "warmup", "workload": "randomDoublesStream50k", "calls": 1}, {"cmd": "quit"}])
        assert [a["ok"] for a in answers] == [True] * 4, answers
        results = answers[1]["results"]
        assert {r["id"] for r in results} >= {"random_doubles_stream_50k", "random_doubles_stream_uneven"}
        # every vector passes but those needing remote objects or security checks, which gRPC lacks
        lacking = ("calculator_", "refuse_")
        assert [r for r in results if r["status"] != "pass" and not r["id"].startswith(lacking)] == []
        assert {r["status"] for r in results if r["id"].startswith(lacking)} == {"unsupported"}
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=5) == 0


def test_a_server_that_cannot_bind_exits_non_zero(repository):
    # gRPC C core would share the port (SO_REUSEPORT) unless told not to.
    server, port = start_server("rpcmatrix.grpc", "grpc", repository)
    try:
        second = subprocess.run([sys.executable, "-m", "rpcmatrix.grpc", "server", "--protocol", "grpc", "--host",
                                 "127.0.0.1", "--port", str(port), "--idl", IDL], cwd=repository,
                                capture_output=True, text=True, timeout=30)
        assert second.returncode != 0 and second.stdout == "" and "cannot start" in second.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=5) == 0


def _established_to(port: int) -> int:
    """Established TCP connections to the port, from /proc/net/tcp and tcp6 (remote address column, state 01)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[2].endswith(f":{port:04X}") and fields[3] == "01":
                count += 1
    return count


def test_each_channel_has_a_connection_of_its_own():
    # gRPC's core puts every channel of a process to one target on one connection unless told otherwise; the load
    # command's connections (runner/PROTOCOL.md#load) must be that many.
    running = grpc_server.start(options())
    adapters = [grpc_client.connect(options(running.port)) for _ in range(3)]
    try:
        for adapter in adapters:
            adapter.ping()
        assert _established_to(running.port) == 3
    finally:
        for adapter in adapters:
            adapter.close()
        running.stop()
