"""The HTTP server both Hessian and JSON-RPC use: ThreadingHTTPServer (a daemon thread per connection),
HTTP/1.1 keep-alive, TCP_NODELAY on accepted sockets (without it a client's next request waits for the
delayed ACK of the last reply's segment), no request logging. `answer(path, body)` returns
(status, content type, body)."""
from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive
    disable_nagle_algorithm = True  # TCP_NODELAY on the accepted socket
    answer: Callable[[str, bytes], tuple[int, str, bytes]]

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        status, content_type, body = type(self).answer(self.path, self.rfile.read(length))
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
                             "allow_reuse_address": True})
        self._server = server_class((host, port), handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.2,), name="http-accept",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
