"""The rawtcp server: a thread per connection (socketserver.ThreadingTCPServer), TCP_NODELAY, frames
answered one after the other by ReferenceBench."""
from __future__ import annotations

import socket
import socketserver
import sys
import threading

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import BY_ID
from rpcmatrix.rawtcp.codec import U16, FrameTooLarge, Reader, begin_frame, decoder, encoder, end_frame, read_frame

STATUS_OK, STATUS_BENCH_ERROR, STATUS_OTHER_ERROR = 0, 1, 2

# Per operation id: the argument decoders, the bound reference method and the result encoder. The
# registry says rawtcp lacks server streaming, so the stream's id is an unknown operation here.
_reference = injected_spin.served()
_HANDLERS = {
    op.id: ([decoder(p.type) for p in op.params], getattr(_reference, op.method), encoder(op.returns))
    for op in BY_ID.values()
    if not op.is_stream
}
_encode_string = encoder("string")
_encode_int32 = encoder("int32")


def answer(body: bytes) -> bytearray:
    """The response frame (length included) to one request body."""
    frame = begin_frame()
    try:
        reader = Reader(body)
        (operation_id,) = reader.unpack(U16)
        if operation_id not in _HANDLERS:
            raise ValueError(f"unknown operation {operation_id}")
        decoders, method, encode_result = _HANDLERS[operation_id]
        args = [decode(reader) for decode in decoders]
        reader.expect_end()
        result = method(*args)
        frame.append(STATUS_OK)
        encode_result(frame, result)
    except BenchError as error:
        del frame[4:]
        frame.append(STATUS_BENCH_ERROR)
        _encode_int32(frame, error.code)
        _encode_string(frame, error.message)
    except Exception as e:  # a bad request or argument: status 2, and the connection goes on
        del frame[4:]
        frame.append(STATUS_OTHER_ERROR)
        _encode_string(frame, f"{type(e).__name__}: {e}")
    return end_frame(frame)


class _Connection(socketserver.StreamRequestHandler):
    disable_nagle_algorithm = True  # TCP_NODELAY: no Nagle + delayed-ACK stalls
    rbufsize = 64 * 1024

    def handle(self) -> None:
        while True:
            try:
                body = read_frame(self.rfile)
            except (FrameTooLarge, EOFError, OSError) as e:  # a protocol error closes the connection
                print(f"rawtcp connection closed: {e}", file=sys.stderr)
                return
            if body is None:
                return
            self.request.sendall(answer(body))


class _ThreadingServer(socketserver.ThreadingTCPServer):
    daemon_threads = True  # open connections do not keep the process alive after stop()
    allow_reuse_address = True
    # socketserver listens with a backlog of 5: 64 connections opened at once took 9.2 s (SYNs dropped and sent
    # again); 128, as the SOAP server's and the kernel's own default (SOMAXCONN before Linux 5.4).
    request_queue_size = 128


class RawTcpServer:
    def __init__(self, host: str, port: int):
        server_class = type("Server", (_ThreadingServer,),
                            {"address_family": socket.AF_INET6 if ":" in host else socket.AF_INET})
        self._server = server_class((host, port), _Connection)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.2,), name="rawtcp-accept",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def start(options) -> RawTcpServer:
    return RawTcpServer(options.host, options.port)
