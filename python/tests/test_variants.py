"""The variants of a cell (runner/conductor/variant.py): each timed call on a new connection (connect's "connection":
"per-call"), and the HTTP clients through the proxy HTTP_PROXY names, the server named in the request line."""
import http.client
import http.server
import threading
import time
import urllib.parse

import pytest

from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.jsonrpc import client as jsonrpc_client
from rpcmatrix.jsonrpc import server as jsonrpc_server
from rpcmatrix.soap import client as soap_client
from rpcmatrix.soap import server as soap_server
from rpcmatrix.xmlrpc import client as xmlrpc_client
from rpcmatrix.xmlrpc import server as xmlrpc_server
from tests.helpers import options
from tests.test_client_loop import InProcessClient, converse


def test_per_call_makes_each_workload_call_on_a_new_adapter_closed_after_it(idl):
    answers, created = converse(idl, [
        {"cmd": "connect", "connection": "per-call"},
        {"cmd": "warmup", "workload": "ping", "calls": 2},
        {"cmd": "prepare", "workload": "ping"},
        {"cmd": "measure", "workload": "ping", "calls": 3},
        {"cmd": "quit"}])
    assert all(a["ok"] for a in answers), answers
    assert answers[0]["connection"] == "per-call"
    # the connect's own adapter, then one per call: 2 warm-up calls and 3 timed ones, each closed
    assert len(created) == 1 + 2 + 3 and all(c.closed for c in created)


class _ClosesEachConnection(InProcessClient):
    """An adapter that closes its own connection after each answer when asked (a client built from a WSDL)."""
    asked = 0

    def close_each_connection(self):
        self.asked += 1


def test_per_call_keeps_an_adapter_that_closes_each_connection_itself(idl):
    answers, created = converse(idl, [
        {"cmd": "connect", "connection": "per-call"},
        {"cmd": "prepare", "workload": "ping"},
        {"cmd": "measure", "workload": "ping", "calls": 3},
        {"cmd": "quit"}], client_class=_ClosesEachConnection)
    assert all(a["ok"] for a in answers), answers
    assert answers[0]["connection"] == "per-call"
    assert len(created) == 1 and created[0].asked == 1  # the connect's adapter, told once, made every call


def test_kept_connections_stay_as_they_were(idl):
    answers, created = converse(idl, [{"cmd": "connect"}, {"cmd": "prepare", "workload": "ping"},
                                      {"cmd": "measure", "workload": "ping", "calls": 3}])
    assert "connection" not in answers[0] and len(created) == 1 and isinstance(created[0], InProcessClient)


class _Proxy(http.server.BaseHTTPRequestHandler):
    """A forward proxy of one kind of request: a POST whose target is an absolute URI, relayed to that server; as
    tinyproxy 1.11 does, it answers in HTTP/1.1 and closes the connection after each answer without saying so."""
    seen: list[str] = []
    protocol_version = "HTTP/1.1"
    close_delay_s = 0.0  # tinyproxy's close came about 1 ms after its answer

    def do_POST(self):
        self.seen.append(self.path)
        target = urllib.parse.urlsplit(self.path)
        upstream = http.client.HTTPConnection(target.hostname, target.port)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        upstream.request("POST", target.path, body, {k: v for k, v in self.headers.items() if k != "Host"})
        answer = upstream.getresponse()
        data = answer.read()
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()
        self.close_connection = True

    def finish(self):
        super().finish()
        time.sleep(self.close_delay_s)

    def log_message(self, *args):
        pass


@pytest.fixture
def forward_proxy(monkeypatch):
    _Proxy.seen = []
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Proxy)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.server_address[1]}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    yield _Proxy.seen
    proxy.shutdown()
    proxy.server_close()


@pytest.mark.parametrize("family, server_mod, client_mod, path", [
    ("jsonrpc", jsonrpc_server, jsonrpc_client, "/jsonrpc"), ("xmlrpc", xmlrpc_server, xmlrpc_client, "/RPC2")])
def test_http_clients_go_through_the_proxy_of_http_proxy(idl, forward_proxy, family, server_mod, client_mod, path):
    server = server_mod.start(options(idl, family))
    client = client_mod.connect(options(idl, family, port=server.port))
    try:
        for _ in range(2):  # the second on a new connection: the proxy closed the first
            assert client.get_record("k") == ReferenceBench().get_record("k")
    finally:
        client.close()
        server.stop()
    assert forward_proxy == [f"http://127.0.0.1:{server.port}{path}"] * 2


def test_the_soap_client_takes_a_connection_per_call_through_the_proxy(idl, forward_proxy, monkeypatch):
    """zeep's session reads HTTP_PROXY; a call made before the proxy's late close is not lost on the kept connection."""
    monkeypatch.setattr(_Proxy, "close_delay_s", 0.2)
    server = soap_server.start(options(idl, "soap11"))
    client = soap_client.connect(options(idl, "soap11", port=server.port))
    try:
        for _ in range(3):
            assert client.get_record("k") == ReferenceBench().get_record("k")
    finally:
        client.close()
        server.stop()
    assert forward_proxy == [f"http://127.0.0.1:{server.port}/bench"] * 3


def test_the_soap_client_per_call_keeps_its_wsdl_client_and_connects_anew_for_each_call(idl, monkeypatch):
    """--connection per-call: zeep's client (parsed from the WSDL) is kept, each call opens a connection of its own."""
    import urllib3.util.connection

    opened = []
    create = urllib3.util.connection.create_connection

    def counted(*args, **kwargs):
        sock = create(*args, **kwargs)
        opened.append(sock)
        return sock
    monkeypatch.setattr(urllib3.util.connection, "create_connection", counted)
    server = soap_server.start(options(idl, "soap11"))
    client = soap_client.connect(options(idl, "soap11", port=server.port))
    try:
        for _ in range(2):  # kept: one connection for both
            assert client.get_record("k") == ReferenceBench().get_record("k")
        assert len(opened) == 1
        wsdl_client = client.client
        client.close_each_connection()
        assert opened[0].fileno() == -1  # the kept connection closed at once
        for _ in range(3):
            assert client.get_record("k") == ReferenceBench().get_record("k")
        assert len(opened) == 1 + 3 and all(s.fileno() == -1 for s in opened)  # each closed after its answer
        assert client.client is wsdl_client
    finally:
        client.close()
        server.stop()


def test_the_grpc_aio_client_per_call_opens_a_channel_for_each_call_on_its_own_loop(idl):
    """--connection per-call: grpc.aio's adapter and event loop kept, each call on a channel of its own."""
    import grpc

    from rpcmatrix.grpc.aio import client as aio_client
    from rpcmatrix.grpc.aio import server as aio_server

    server = aio_server.start(options(idl, "grpc"))
    client = aio_client.connect(options(idl, "grpc", port=server.port))
    loop = client.loop
    try:
        opened = []
        real_open = client._open

        async def counted(target_options):
            opened.append(await real_open(target_options))
            return opened[-1]
        client._open = counted
        client.close_each_connection()
        for _ in range(3):
            assert loop.run_until_complete(client.get_record("k")) == ReferenceBench().get_record("k")
        assert len(opened) == 3 and client.loop is loop
        assert all(c.get_state() == grpc.ChannelConnectivity.SHUTDOWN for c in opened)  # each closed after its call
    finally:
        client.close()
        server.stop()
