"""The gRPC asyncio server: grpc.aio.server on one event loop, running in a thread of its own so the
harness's main thread keeps waiting for SIGTERM; every handler is a coroutine on that loop (no executor)."""
from __future__ import annotations

import asyncio
import threading

import grpc

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.grpc import mapping
from rpcmatrix.grpc._generated import bench_pb2_grpc
from rpcmatrix.grpc.server import SERVER_OPTIONS, STOP_GRACE_S, bind
from rpcmatrix.grpc.table import MAPPINGS, Mapping


async def abort_with(context: grpc.aio.ServicerContext, error: Exception) -> None:
    """As mapping.abort_with, for the asyncio context (whose abort is a coroutine)."""
    if isinstance(error, BenchError):
        context.set_trailing_metadata(((mapping.ERROR_CODE_KEY, str(error.code)),))
        await context.abort(grpc.StatusCode.FAILED_PRECONDITION, error.message)
    if isinstance(error, ValueError):
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
    await context.abort(grpc.StatusCode.INTERNAL, f"{type(error).__name__}: {error}")


def _unary(entry: Mapping, method):
    arguments, response = entry.arguments, entry.response

    async def handle(request, context):
        try:
            return response(method(*arguments(request)))
        except Exception as e:
            await abort_with(context, e)
    return handle


def _stream(entry: Mapping, method):
    arguments, response = entry.arguments, entry.response

    async def handle(request, context):
        try:
            for chunk in method(*arguments(request)):
                yield response(chunk)
        except Exception as e:
            await abort_with(context, e)
    return handle


class AioBenchServicer(bench_pb2_grpc.BenchServicer):
    def __init__(self, bench: ReferenceBench):
        for entry in MAPPINGS:
            make = _stream if entry.operation.is_stream else _unary
            setattr(self, entry.operation.name, make(entry, getattr(bench, entry.operation.method)))


class RunningAioServer:
    """The event loop runs in the thread `grpc-aio-loop`; stop() asks it to stop the server and end."""

    facts = {"api": "grpc.aio", "event_loop": "asyncio default loop (one thread)"}

    def __init__(self, options):
        self._loop = asyncio.new_event_loop()
        self._started = threading.Event()
        self._failure: BaseException | None = None
        self._stopped: asyncio.Event | None = None
        self.port = 0
        self._thread = threading.Thread(target=self._run, args=(options,), name="grpc-aio-loop", daemon=True)
        self._thread.start()
        self._started.wait()
        if self._failure is not None:
            raise self._failure

    def _run(self, options) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve(options))
        self._loop.close()

    async def _serve(self, options) -> None:
        self._stopped = asyncio.Event()
        try:
            server = grpc.aio.server(options=SERVER_OPTIONS)
            bench_pb2_grpc.add_BenchServicer_to_server(AioBenchServicer(injected_spin.served()), server)
            self.port = bind(server, options)
            await server.start()
        except BaseException as e:
            self._failure = e
            self._started.set()
            return
        self._started.set()
        await self._stopped.wait()
        await server.stop(STOP_GRACE_S)

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(STOP_GRACE_S + 1.0)


def start(options) -> RunningAioServer:
    return RunningAioServer(options)
