"""The rawtcp client: one persistent TCP connection with TCP_NODELAY, one whole frame per call."""
from __future__ import annotations

import socket

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.harness.generic_client import GenericClient
from rpcmatrix.rawtcp.codec import U8, U16, Reader, begin_frame, decoder, encoder, end_frame, read_frame

# Per operation id: its id header and its parameters' encoders, built once.
_REQUESTS = {op.id: (U16.pack(op.id), [encoder(p.type) for p in op.params]) for op in OPERATIONS if not op.is_stream}


class RemoteError(Exception):
    """Status 2: the server could not handle the request (unknown operation, bad argument)."""


class RawTcpClient(GenericClient):
    def __init__(self, host: str, port: int):
        self._address = (host, port)
        self._socket: socket.socket | None = None
        self._stream = None
        self._connect()

    def _connect(self) -> None:
        sock = socket.create_connection(self._address)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._socket = sock
        self._stream = sock.makefile("rb", buffering=64 * 1024)

    def call(self, operation: Operation, args: tuple) -> object:
        if self._socket is None:  # the last call broke the connection: open a new one
            self._connect()
        header, encoders = _REQUESTS[operation.id]
        if len(args) != len(encoders):
            raise TypeError(f"{operation.name} takes {len(encoders)} arguments, {len(args)} given")
        frame = begin_frame()
        frame += header
        for encode, arg in zip(encoders, args, strict=True):
            encode(frame, arg)
        try:
            self._socket.sendall(end_frame(frame))
            body = read_frame(self._stream)
            if body is None:
                raise EOFError("the server closed the connection")
        except BaseException:
            self.close()
            raise
        return _result(operation, Reader(body))

    def close(self) -> None:
        if self._socket is not None:
            self._stream.close()
            self._socket.close()
            self._socket = self._stream = None


def _result(operation: Operation, reader: Reader) -> object:
    (status,) = reader.unpack(U8)
    if status == 0:
        result = decoder(operation.returns)(reader)
    elif status == 1:
        code = decoder("int32")(reader)
        raise BenchError(code, decoder("string")(reader))
    elif status == 2:
        raise RemoteError(decoder("string")(reader))
    else:
        raise ValueError(f"unknown response status {status}")
    reader.expect_end()
    return result


def connect(options) -> RawTcpClient:
    return RawTcpClient(options.host, options.port)
