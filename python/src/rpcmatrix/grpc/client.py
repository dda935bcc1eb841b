"""The gRPC client: one long-lived grpcio channel (one HTTP/2 connection, the C core's keep-alive
defaults) and the synchronous generated stub."""
from __future__ import annotations

import functools

import grpc

from rpcmatrix.grpc import mapping, tls
from rpcmatrix.grpc._generated import bench_pb2 as pb
from rpcmatrix.grpc._generated import bench_pb2_grpc

_EMPTY = pb.Empty()


def _contract_errors(method):
    """Turns a failed call's grpc.RpcError back into the contract's BenchError where it is one."""
    @functools.wraps(method)
    def wrapper(*args):
        try:
            return method(*args)
        except grpc.RpcError as e:
            raise mapping.error_from_rpc(e) from None
    return wrapper


class GrpcClient:
    """The gRPC client adapter: the Bench methods in snake_case over the generated stub."""

    def __init__(self, channel: grpc.Channel):
        self._channel = channel
        self._stub = bench_pb2_grpc.BenchStub(channel)

    @_contract_errors
    def ping(self) -> None:
        self._stub.ping(_EMPTY)

    @_contract_errors
    def echo_bool(self, value: bool) -> bool:
        return self._stub.echoBool(pb.BoolValue(value=value)).value

    @_contract_errors
    def echo_int8(self, value: int) -> int:
        return mapping.int8_from_wire(self._stub.echoInt8(pb.Int8Value(value=value)).value)

    @_contract_errors
    def echo_int16(self, value: int) -> int:
        return mapping.int16_from_wire(self._stub.echoInt16(pb.Int16Value(value=value)).value)

    @_contract_errors
    def echo_int32(self, value: int) -> int:
        return self._stub.echoInt32(pb.Int32Value(value=value)).value

    @_contract_errors
    def echo_int64(self, value: int) -> int:
        return self._stub.echoInt64(pb.Int64Value(value=value)).value

    @_contract_errors
    def echo_float32(self, value: float) -> float:
        return self._stub.echoFloat32(pb.Float32Value(value=value)).value

    @_contract_errors
    def echo_float64(self, value: float) -> float:
        return self._stub.echoFloat64(pb.Float64Value(value=value)).value

    @_contract_errors
    def echo_string(self, value: str) -> str:
        return self._stub.echoString(pb.StringValue(value=value)).value

    @_contract_errors
    def echo_bytes(self, value: bytes) -> bytes:
        return self._stub.echoBytes(pb.BytesValue(value=value)).value

    @_contract_errors
    def is_prime(self, n: int) -> bool:
        return self._stub.isPrime(pb.IsPrimeRequest(n=n)).value

    @_contract_errors
    def average(self, values: list[float]) -> float:
        return self._stub.average(pb.Doubles(values=values)).value

    @_contract_errors
    def random_doubles(self, count: int, seed: int) -> list[float]:
        return list(self._stub.randomDoubles(pb.RandomDoublesRequest(count=count, seed=seed)).values)

    @_contract_errors
    def log_transform(self, values: list[float]) -> list[float]:
        return list(self._stub.logTransform(pb.Doubles(values=values)).values)

    @_contract_errors
    def get_record(self, key: str):
        return mapping.record_from_wire(self._stub.getRecord(pb.GetRecordRequest(key=key)))

    @_contract_errors
    def search_books(self, query: str, count: int):
        return mapping.books_from_wire(self._stub.searchBooks(pb.SearchBooksRequest(query=query, count=count)))

    @_contract_errors
    def get_items(self, count: int):
        return mapping.items_from_wire(self._stub.getItems(pb.GetItemsRequest(count=count)))

    @_contract_errors
    def fail(self, code: int, message: str) -> None:
        self._stub.fail(pb.FailRequest(code=code, message=message))

    @_contract_errors
    def random_doubles_stream(self, count: int, seed: int, chunk: int) -> list[list[float]]:
        """The chunks as the server streamed them, in order, read to the end inside the call so that a
        failure mid-stream surfaces here; the caller concatenates them."""
        request = pb.RandomDoublesStreamRequest(count=count, seed=seed, chunk=chunk)
        return [list(message.values) for message in self._stub.randomDoublesStream(request)]

    def close(self) -> None:
        self._channel.close()


def _target(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def connect(options) -> GrpcClient:
    target = _target(options.host, options.port)
    if options.tls:
        credentials = grpc.ssl_channel_credentials(root_certificates=tls.ca_certificate(options.secrets))
        channel = grpc.secure_channel(target, credentials,
                                      options=[("grpc.ssl_target_name_override", tls.SERVER_NAME)])
    else:
        channel = grpc.insecure_channel(target)
    return GrpcClient(channel)
