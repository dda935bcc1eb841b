"""The HTTP server both Hessian and JSON-RPC use: ThreadingHTTPServer (a daemon thread per connection),
HTTP/1.1 keep-alive, TCP_NODELAY on accepted sockets (without it a client's next request waits for the
delayed ACK of the last reply's segment), no request logging. `answer(path, body)` returns
(status, content type, body).

A body is read without trusting its Content-Length (idl/CONTRACT.md, "Limits"): over 64 MiB declared is
answered 413 and the connection closed; a declared length reserves at most 4 MiB before its bytes arrive
(BufferedReader.read(n) would allocate all n at once), a larger body growing as it comes."""
from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY_BYTES = 64 * 1024 * 1024
UPFRONT_BYTES = 4 * 1024 * 1024


def read_body(stream, length: int) -> bytes | None:
    """`length` bytes of `stream`, or None if it ends first; at most UPFRONT_BYTES asked for at a time."""
    if length <= UPFRONT_BYTES:
        body = stream.read(length)
        return body if len(body) == length else None
    body = bytearray()
    while len(body) < length:
        chunk = stream.read(min(UPFRONT_BYTES, length - len(body)))
        if not chunk:
            return None
        body += chunk
    return bytes(body)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    disable_nagle_algorithm = True  # TCP_NODELAY on the accepted socket
    # Buffered output, as the standard library's XML-RPC handler has it: unbuffered, the headers and a body went
    # out in two sends, so two segments with TCP_NODELAY; buffered, an answer within the 8 KiB buffer leaves in
    # one (the handler flushes after each request).
    wbufsize = -1
    answer: Callable[[str, bytes], tuple[int, str, bytes]]

    def do_POST(self):
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY_BYTES:
            self.close_connection = True
            self._send(413, "text/plain", f"a body of 0 to {MAX_BODY_BYTES} bytes is taken\n".encode())
            return
        request = read_body(self.rfile, length)
        if request is None:  # the peer went away mid-body
            self.close_connection = True
            return
        self._send(*type(self).answer(self.path, request))

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # no per-request logging
        pass


class HttpServer:
    def __init__(self, host: str, port: int, answer: Callable[[str, bytes], tuple[int, str, bytes]]):
        handler = type("Handler", (_Handler,), {"answer": staticmethod(answer)})
        server_class = type("Server", (ThreadingHTTPServer,),
                            {"address_family": socket.AF_INET6 if ":" in host else socket.AF_INET,
                             "allow_reuse_address": True,
                             # socketserver's 5 drops a burst of connections' SYNs (rpcmatrix.rawtcp.server)
                             "request_queue_size": 128})
        self._server = server_class((host, port), handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.2,), name="http-accept",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
