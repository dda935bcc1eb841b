"""The gRPC server: grpcio's `grpc.server` (gRPC C core) with a fixed pool of worker threads, each call
delegated to the contract's ReferenceBench."""
from __future__ import annotations

import functools
import os
from concurrent.futures import ThreadPoolExecutor

import grpc

from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.grpc import mapping, tls
from rpcmatrix.grpc._generated import bench_pb2 as pb
from rpcmatrix.grpc._generated import bench_pb2_grpc

# The handlers are CPU-bound Python under the GIL; a few threads per core keep calls from queueing
# behind a slow one without adding contention. The same rule as the Java server's application pool.
WORKERS = max(4, 2 * (os.cpu_count() or 1))

# gRPC C core sets SO_REUSEPORT by default, which would let a second server bind a port that is in use
# (and share its traffic) instead of failing, as runner/PROTOCOL.md requires.
SERVER_OPTIONS = [("grpc.so_reuseport", 0)]

STOP_GRACE_S = 2.0


def _contract_errors(handler):
    """Turns an exception raised by a unary handler into the status that carries it."""
    @functools.wraps(handler)
    def wrapper(self, request, context):
        try:
            return handler(self, request, context)
        except Exception as e:
            mapping.abort_with(context, e)
    return wrapper


class BenchServicer(bench_pb2_grpc.BenchServicer):
    """The gRPC server adapter: unwraps each request, calls the contract's Bench, wraps the answer."""

    def __init__(self, bench: ReferenceBench):
        self.bench = bench

    @_contract_errors
    def ping(self, request, context):
        self.bench.ping()
        return pb.Empty()

    @_contract_errors
    def echoBool(self, request, context):
        return pb.BoolValue(value=self.bench.echo_bool(request.value))

    @_contract_errors
    def echoInt8(self, request, context):
        return pb.Int8Value(value=self.bench.echo_int8(mapping.int8_from_wire(request.value)))

    @_contract_errors
    def echoInt16(self, request, context):
        return pb.Int16Value(value=self.bench.echo_int16(mapping.int16_from_wire(request.value)))

    @_contract_errors
    def echoInt32(self, request, context):
        return pb.Int32Value(value=self.bench.echo_int32(request.value))

    @_contract_errors
    def echoInt64(self, request, context):
        return pb.Int64Value(value=self.bench.echo_int64(request.value))

    @_contract_errors
    def echoFloat32(self, request, context):
        return pb.Float32Value(value=self.bench.echo_float32(request.value))

    @_contract_errors
    def echoFloat64(self, request, context):
        return pb.Float64Value(value=self.bench.echo_float64(request.value))

    @_contract_errors
    def echoString(self, request, context):
        return pb.StringValue(value=self.bench.echo_string(request.value))

    @_contract_errors
    def echoBytes(self, request, context):
        return pb.BytesValue(value=self.bench.echo_bytes(request.value))

    @_contract_errors
    def isPrime(self, request, context):
        return pb.BoolValue(value=self.bench.is_prime(request.n))

    @_contract_errors
    def average(self, request, context):
        return pb.Float64Value(value=self.bench.average(list(request.values)))

    @_contract_errors
    def randomDoubles(self, request, context):
        return pb.Doubles(values=self.bench.random_doubles(request.count, request.seed))

    @_contract_errors
    def logTransform(self, request, context):
        return pb.Doubles(values=self.bench.log_transform(list(request.values)))

    @_contract_errors
    def getRecord(self, request, context):
        return mapping.record_to_wire(self.bench.get_record(request.key))

    @_contract_errors
    def searchBooks(self, request, context):
        return mapping.books_to_wire(self.bench.search_books(request.query, request.count))

    @_contract_errors
    def getItems(self, request, context):
        return mapping.items_to_wire(self.bench.get_items(request.count))

    @_contract_errors
    def fail(self, request, context):
        self.bench.fail(request.code, request.message)
        return pb.Empty()

    def randomDoublesStream(self, request, context):
        """One Doubles message per chunk, in order; the client concatenates them."""
        try:
            for chunk in self.bench.random_doubles_stream(request.count, request.seed, request.chunk):
                yield pb.Doubles(values=chunk)
        except Exception as e:
            mapping.abort_with(context, e)


class RunningServer:
    def __init__(self, server: grpc.Server, port: int):
        self._server = server
        self.port = port

    def stop(self) -> None:
        self._server.stop(grace=STOP_GRACE_S).wait(STOP_GRACE_S + 1.0)


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def start(options) -> RunningServer:
    server = grpc.server(ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="grpc-app"),
                         options=SERVER_OPTIONS)
    bench_pb2_grpc.add_BenchServicer_to_server(BenchServicer(ReferenceBench()), server)
    address = _address(options.host, options.port)
    if options.tls:
        credentials = grpc.ssl_server_credentials([tls.server_key_and_certificate(options.secrets)])
        port = server.add_secure_port(address, credentials)
    else:
        port = server.add_insecure_port(address)
    if port == 0:  # older grpcio reported a failed bind this way instead of raising
        raise OSError(f"cannot bind {address}")
    server.start()
    return RunningServer(server, port)
