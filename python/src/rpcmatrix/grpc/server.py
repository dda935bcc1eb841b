"""The gRPC server (sync API): grpcio's `grpc.server` (gRPC C core) with a fixed pool of worker threads,
each call answered by the contract's ReferenceBench through the operation table (table.py)."""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import grpc

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.grpc import mapping, tls
from rpcmatrix.grpc._generated import bench_pb2_grpc
from rpcmatrix.grpc.table import MAPPINGS, Mapping

# The handlers are CPU-bound Python under the GIL; a few threads per core keep calls from queueing
# behind a slow one without adding contention. The same rule as the Java server's application pool.
WORKERS = max(4, 2 * (os.cpu_count() or 1))

# gRPC C core sets SO_REUSEPORT by default, which would let a second server bind a port that is in use
# (and share its traffic) instead of failing, as runner/PROTOCOL.md requires.
SERVER_OPTIONS = [("grpc.so_reuseport", 0)]

STOP_GRACE_S = 2.0


def _unary(entry: Mapping, method):
    arguments, response = entry.arguments, entry.response

    def handle(request, context):
        try:
            return response(method(*arguments(request)))
        except Exception as e:
            mapping.abort_with(context, e)
    return handle


def _stream(entry: Mapping, method):
    arguments, response = entry.arguments, entry.response

    def handle(request, context):
        """One message per chunk, in order; the client concatenates them."""
        try:
            for chunk in method(*arguments(request)):
                yield response(chunk)
        except Exception as e:
            mapping.abort_with(context, e)
    return handle


class BenchServicer(bench_pb2_grpc.BenchServicer):
    """The gRPC server adapter: one handler per operation of the table, bound at construction."""

    def __init__(self, bench: ReferenceBench):
        self.bench = bench
        for entry in MAPPINGS:
            make = _stream if entry.operation.is_stream else _unary
            setattr(self, entry.operation.name, make(entry, getattr(bench, entry.operation.method)))


class RunningServer:
    def __init__(self, server: grpc.Server, port: int):
        self._server = server
        self.port = port

    def stop(self) -> None:
        self._server.stop(grace=STOP_GRACE_S).wait(STOP_GRACE_S + 1.0)


def address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def bind(server, options) -> int:
    """Adds the listening port, with TLS when the protocol's variant says so; the bound port."""
    where = address(options.host, options.port)
    if tls.enabled(options):
        port = server.add_secure_port(where, tls.server_credentials(options))
    else:
        port = server.add_insecure_port(where)
    if port == 0:  # older grpcio reported a failed bind this way instead of raising
        raise OSError(f"cannot bind {where}")
    return port


def start(options) -> RunningServer:
    server = grpc.server(ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="grpc-app"),
                         options=SERVER_OPTIONS)
    bench_pb2_grpc.add_BenchServicer_to_server(BenchServicer(injected_spin.served()), server)
    port = bind(server, options)
    server.start()
    return RunningServer(server, port)
