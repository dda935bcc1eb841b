"""The HTTP host of Hessian and JSON-RPC sends a small answer, headers and body, in one send."""
import http.client
import socket
import threading

from rpcmatrix.httphost.http_server import HttpServer


def test_a_small_answer_leaves_in_one_send(monkeypatch):
    sends = []
    for name in ("send", "sendall"):
        original = getattr(socket.socket, name)

        def counted(self, data, *args, _original=original, **kwargs):
            if threading.current_thread() is not threading.main_thread():
                sends.append(len(data))
            return _original(self, data, *args, **kwargs)
        monkeypatch.setattr(socket.socket, name, counted)
    server = HttpServer("127.0.0.1", 0, lambda path, body: (200, "application/json", b'{"result": 1}'))
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        for _ in range(3):  # keep-alive: each answer of the connection alike
            connection.request("POST", "/", body=b"{}")
            response = connection.getresponse()
            assert response.read() == b'{"result": 1}'
        connection.close()
    finally:
        server.stop()
    assert len(sends) == 3, sends
