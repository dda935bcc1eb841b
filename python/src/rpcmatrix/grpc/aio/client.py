"""The gRPC asyncio client: one grpc.aio channel and stub on an event loop this adapter owns. Its methods
are coroutines; the harness (rpcmatrix.harness.calls.AsyncDriver) runs whole batches of calls on `loop`
and times each call around its `await`."""
from __future__ import annotations

import asyncio

import grpc

from rpcmatrix.grpc import mapping, tls
from rpcmatrix.grpc._generated import bench_pb2_grpc
from rpcmatrix.grpc.client import target
from rpcmatrix.grpc.table import MAPPINGS, Mapping


def _unary(entry: Mapping, rpc):
    request, result = entry.request, entry.result

    async def call(*args):
        try:
            return result(await rpc(request(*args)))
        except grpc.RpcError as e:  # grpc.aio.AioRpcError: back to the contract's BenchError where it is one
            raise mapping.error_from_rpc(e) from None
    return call


def _stream(entry: Mapping, rpc):
    request, result = entry.request, entry.result

    async def call(*args):
        try:
            return [result(message) async for message in rpc(request(*args))]
        except grpc.RpcError as e:
            raise mapping.error_from_rpc(e) from None
    return call


# A subchannel pool of the channel's own: gRPC's core otherwise puts every channel of a process to one target on one
# connection, and the load command's connections would be one (rpcmatrix.grpc.client).
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


class AioGrpcClient:
    facts = {"api": "grpc.aio"}

    def __init__(self, options):
        self.options = options
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)  # grpc.aio binds the channel to the current loop
        self._channel = self.loop.run_until_complete(self._open(options))
        stub = bench_pb2_grpc.BenchStub(self._channel)
        for entry in MAPPINGS:
            make = _stream if entry.operation.is_stream else _unary
            setattr(self, entry.operation.method, make(entry, getattr(stub, entry.operation.name)))

    @staticmethod
    async def _open(options) -> grpc.aio.Channel:
        where = target(options.host, options.port)
        if tls.enabled(options):
            return grpc.aio.secure_channel(where, tls.channel_credentials(options),
                                           options=OWN_CONNECTION + tls.channel_options(options))
        return grpc.aio.insecure_channel(where, options=OWN_CONNECTION)

    def close_each_connection(self) -> None:
        """--connection per-call: from now on each call on a channel of its own, opened on this adapter's loop and
        closed after the answer (its HTTP/2 connection, and for grpc-tls its handshake, inside the timed call), as a
        grpc.aio user who connects per call makes it; made anew per call, the adapter would make an event loop per
        call, which no such user does. The channel kept so far is closed now."""
        self.loop.run_until_complete(self._channel.close())
        for entry in MAPPINGS:
            setattr(self, entry.operation.method, self._on_a_new_channel(entry))

    def _on_a_new_channel(self, entry: Mapping):
        make = _stream if entry.operation.is_stream else _unary

        async def call(*args):
            channel = await self._open(self.options)
            try:
                return await make(entry, getattr(bench_pb2_grpc.BenchStub(channel), entry.operation.name))(*args)
            finally:
                await channel.close()
        return call

    def close(self) -> None:
        try:
            self.loop.run_until_complete(self._channel.close())
        finally:
            self.loop.close()


def connect(options) -> AioGrpcClient:
    return AioGrpcClient(options)
