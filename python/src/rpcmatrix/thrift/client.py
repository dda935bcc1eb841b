"""The Thrift client: the generated synchronous client over one persistent TSocket with TCP_NODELAY, in a
TFramedTransport, with the Accelerated binary or compact protocol. Received float32 values are checked to be
exactly a float32; the declared BenchError becomes the contract's BenchError."""
from __future__ import annotations

import functools
import socket

from thrift.transport.TSocket import TSocket
from thrift.transport.TTransport import TFramedTransport

from rpcmatrix.contract.model import BenchError
from rpcmatrix.thrift import mapping
from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen import Bench, ttypes
from rpcmatrix.thrift.wire import protocol_factory


class NoDelaySocket(TSocket):
    """thrift's TSocket leaves Nagle's algorithm on: turn it off before connecting."""

    def _do_open(self, family, socktype):
        handle = super()._do_open(family, socktype)
        handle.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return handle


def _declared(method):
    """A call whose IDL declares BenchError: the declared exception becomes the contract's."""
    @functools.wraps(method)
    def call(*args):
        try:
            return method(*args)
        except ttypes.BenchError as e:
            raise BenchError(e.code, e.message) from None
    return call


class ThriftClient:
    """The contract's operations in snake_case, as the command loop calls them."""

    def __init__(self, host: str, port: int, wire: str):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # No socket timeout: a timeout makes CPython poll() before every recv; the runner bounds each command.
        self._transport = TFramedTransport(NoDelaySocket(host, port, socket_family=family))
        self._client = Bench.Client(protocol_factory(wire).getProtocol(self._transport))
        self._transport.open()

    def ping(self) -> None:
        self._client.ping()

    def echo_bool(self, value: bool) -> bool:
        return self._client.echoBool(value)

    def echo_int8(self, value: int) -> int:
        return self._client.echoInt8(value)

    def echo_int16(self, value: int) -> int:
        return self._client.echoInt16(value)

    def echo_int32(self, value: int) -> int:
        return self._client.echoInt32(value)

    def echo_int64(self, value: int) -> int:
        return self._client.echoInt64(value)

    def echo_float32(self, value: float) -> float:
        return mapping.float32(self._client.echoFloat32(value), "echoFloat32 result")

    def echo_float64(self, value: float) -> float:
        return self._client.echoFloat64(value)

    def echo_string(self, value: str) -> str:
        return self._client.echoString(value)

    def echo_bytes(self, value: bytes) -> bytes:
        return self._client.echoBytes(value)

    def is_prime(self, n: int) -> bool:
        return self._client.isPrime(n)

    def average(self, values: list[float]) -> float:
        return self._client.average(values)

    @_declared
    def random_doubles(self, count: int, seed: int) -> list[float]:
        return self._client.randomDoubles(count, seed)

    def log_transform(self, values: list[float]) -> list[float]:
        return self._client.logTransform(values)

    def get_record(self, key: str):
        return mapping.record_from_thrift(self._client.getRecord(key))

    @_declared
    def search_books(self, query: str, count: int):
        return [mapping.book_from_thrift(b) for b in self._client.searchBooks(query, count)]

    @_declared
    def get_items(self, count: int):
        return [mapping.item_from_thrift(i) for i in self._client.getItems(count)]

    @_declared
    def fail(self, code: int, message: str) -> None:
        self._client.fail(code, message)

    def close(self) -> None:
        self._transport.close()


def connect(options) -> ThriftClient:
    return ThriftClient(options.host, options.port, options.wire)
