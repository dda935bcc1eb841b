"""The Thrift client: the generated synchronous client over one persistent TSocket with TCP_NODELAY, in a
TFramedTransport, with the Accelerated binary or compact protocol. Received float32 values are checked to be
exactly a float32; the declared BenchError becomes the contract's BenchError."""
from __future__ import annotations

import socket

from thrift.transport.TSocket import TSocket
from thrift.transport.TTransport import TFramedTransport

from rpcmatrix.contract.model import BenchError
from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen import Bench, ttypes
from rpcmatrix.thrift.table import MAPPINGS, Mapping
from rpcmatrix.thrift.wire import encoding_of, protocol_factory


class NoDelaySocket(TSocket):
    """thrift's TSocket leaves Nagle's algorithm on: turn it off before connecting."""

    def _do_open(self, family, socktype):
        handle = super()._do_open(family, socktype)
        handle.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return handle


def _call(entry: Mapping, rpc):
    """The client method of one operation: the generated client's `rpc` followed by the entry's conversion;
    a declared BenchError becomes the contract's. Without either, the generated method itself."""
    result = entry.result
    if not entry.declares_error:
        if result is None:
            return rpc

        def call(*args):
            return result(rpc(*args))
    elif result is None:
        def call(*args):
            try:
                return rpc(*args)
            except ttypes.BenchError as e:
                raise BenchError(e.code, e.message) from None
    else:
        def call(*args):
            try:
                return result(rpc(*args))
            except ttypes.BenchError as e:
                raise BenchError(e.code, e.message) from None
    call.__name__ = entry.operation.method
    return call


class ThriftClient:
    """The contract's operations in snake_case, as the command loop calls them, bound to the generated
    client at construction from the operation table (table.py)."""

    def __init__(self, host: str, port: int, wire: str):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # No socket timeout: a timeout makes CPython poll() before every recv; the runner bounds each command.
        self._transport = TFramedTransport(NoDelaySocket(host, port, socket_family=family))
        self._client = Bench.Client(protocol_factory(wire).getProtocol(self._transport))
        for entry in MAPPINGS:
            setattr(self, entry.operation.method, _call(entry, getattr(self._client, entry.operation.name)))
        self._transport.open()

    def close(self) -> None:
        self._transport.close()


def connect(options) -> ThriftClient:
    return ThriftClient(options.host, options.port, encoding_of(options))
