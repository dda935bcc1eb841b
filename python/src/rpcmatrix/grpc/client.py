"""The gRPC client (sync API): one long-lived grpcio channel (one HTTP/2 connection, the C core's
keep-alive defaults) and the synchronous generated stub, one method per operation of the table."""
from __future__ import annotations

import grpc
import grpc.experimental

from rpcmatrix.grpc import mapping, tls
from rpcmatrix.grpc._generated import bench_pb2_grpc
from rpcmatrix.grpc.table import MAPPINGS, Mapping


def _unary(entry: Mapping, rpc):
    request, result = entry.request, entry.result

    def call(*args):
        try:
            return result(rpc(request(*args)))
        except grpc.RpcError as e:  # back to the contract's BenchError where it is one
            raise mapping.error_from_rpc(e) from None
    return call


def _stream(entry: Mapping, rpc):
    request, result = entry.request, entry.result

    def call(*args):
        """The chunks as the server streamed them, read to the end inside the call so that a failure
        mid-stream surfaces here; the caller concatenates them."""
        try:
            return [result(message) for message in rpc(request(*args))]
        except grpc.RpcError as e:
            raise mapping.error_from_rpc(e) from None
    return call


class GrpcClient:
    """The gRPC client adapter: the Bench methods in snake_case, bound to the stub at construction."""

    # A channel is thread-safe and multiplexes calls over HTTP/2 streams (the load command's workers share it).
    shares_connection = True

    def __init__(self, channel: grpc.Channel):
        self._channel = channel
        stub = bench_pb2_grpc.BenchStub(channel)
        for entry in MAPPINGS:
            make = _stream if entry.operation.is_stream else _unary
            setattr(self, entry.operation.method, make(entry, getattr(stub, entry.operation.name)))

    def close(self) -> None:
        self._channel.close()


def target(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


# A server stream read on the calling thread rather than handed over by the channel's own thread per message:
# gRPC's performance guide (grpc.io/docs/guides/performance, Python) recommends this experimental option,
# "up to 7% latency per message".
# And a subchannel pool of the channel's own: gRPC's core otherwise puts every channel of a process to one target
# on one connection (4 channels, 1 connection, measured), and the load command's connections would be one.
CHANNEL_OPTIONS = [(grpc.experimental.ChannelOptions.SingleThreadedUnaryStream, 1),
                   ("grpc.use_local_subchannel_pool", 1)]


def connect(options) -> GrpcClient:
    where = target(options.host, options.port)
    if tls.enabled(options):
        channel = grpc.secure_channel(where, tls.channel_credentials(options),
                                      options=CHANNEL_OPTIONS + tls.channel_options(options))
    else:
        channel = grpc.insecure_channel(where, options=CHANNEL_OPTIONS)
    return GrpcClient(channel)
