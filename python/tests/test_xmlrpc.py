import gzip
import http.client
import http.server
import math
import socket
import threading
import time
import tracemalloc
import xmlrpc.client

import pytest

from helpers import options
from rpcmatrix.contract.model import BenchError, Item
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.xmlrpc import client as xmlrpc_client
from rpcmatrix.xmlrpc import server as xmlrpc_server
from rpcmatrix.xmlrpc.mapping import PATH, escape_carriage_returns, from_wire, to_wire


def test_int64_and_timestamps_travel_as_decimal_strings():
    assert to_wire("int64")(-(1 << 63)) == "-9223372036854775808"
    assert from_wire("int64")("9223372036854775807") == (1 << 63) - 1
    for bad in ("9223372036854775808", "12a", "", " 1", 5):
        with pytest.raises(ValueError):
            from_wire("int64")(bad)


def test_receiver_range_checks():
    assert from_wire("int8")(-128) == -128
    with pytest.raises(ValueError):
        from_wire("int8")(128)
    with pytest.raises(ValueError):
        from_wire("int16")(-32769)
    assert from_wire("float32")(1.5) == 1.5
    with pytest.raises(ValueError):
        from_wire("float32")(0.1)
    with pytest.raises(ValueError):
        from_wire("bool")(1)
    with pytest.raises(ValueError):
        from_wire("bytes")("AAEC")


def test_void_is_boolean_true():
    assert to_wire("void")(None) is True
    assert from_wire("void")(True) is None
    with pytest.raises(ValueError):
        from_wire("void")(False)


def test_structs_use_contract_member_names():
    item = ReferenceBench().get_items(1)[0]
    wire = to_wire("Item")(item)
    assert list(wire) == ["id", "title", "description", "category", "owner", "created", "updated", "quantity",
                          "price", "weight"]
    assert isinstance(wire["created"], str) and isinstance(wire["id"], str)
    assert from_wire("Item")(wire) == item
    book = ReferenceBench().search_books("q", 1)[0]
    assert "listPrice" in to_wire("Book")(book) and "starRating" in to_wire("Book")(book)
    with pytest.raises(ValueError):
        from_wire("Item")({**wire, "extra": 1})


def test_carriage_returns_are_escaped_because_xml_parsers_normalise_them():
    body = xmlrpc.client.dumps(("a\rb\r\n",), methodresponse=True).encode()
    assert xmlrpc.client.loads(body)[0][0] == "a\nb\n"  # what a raw CR becomes
    assert xmlrpc.client.loads(escape_carriage_returns(body))[0][0] == "a\rb\r\n"


@pytest.fixture(params=["xmlrpc", "xmlrpc-gzip"])
def protocol(request):
    return request.param


@pytest.fixture
def server(idl, protocol):
    running = xmlrpc_server.start(options(idl, protocol))
    yield running
    running.stop()


@pytest.fixture
def client(idl, protocol, server):
    connected = xmlrpc_client.connect(options(idl, protocol, port=server.port))
    yield connected
    connected.close()


def test_round_trips_over_http(client):
    assert client.ping() is None
    assert client.echo_string("a\tb\nc\rd\r\ne") == "a\tb\nc\rd\r\ne"
    assert client.echo_int64(-(1 << 63)) == -(1 << 63)
    assert math.copysign(1.0, client.echo_float64(-0.0)) == -1.0
    assert client.echo_bytes(bytes(range(256))) == bytes(range(256))
    assert client.get_items(3) == ReferenceBench().get_items(3)
    assert isinstance(client.get_items(1)[0], Item)


def test_bench_error_travels_as_a_fault(client):
    with pytest.raises(BenchError) as raised:
        client.fail(-1, "<&> Grüße 𝄞\r")
    assert (raised.value.code, raised.value.message) == (-1, "<&> Grüße 𝄞\r")


def test_server_faults_on_values_out_of_range(server):
    proxy = xmlrpc.client.ServerProxy(f"http://127.0.0.1:{server.port}{PATH}")
    with pytest.raises(xmlrpc.client.Fault) as raised:
        proxy.echoInt8(300)
    assert raised.value.faultCode == xmlrpc_server.INVALID_PARAMS and "out of range" in raised.value.faultString
    with pytest.raises(xmlrpc.client.Fault):
        proxy.echoInt64(5)  # an int64 travels as a string
    with pytest.raises(xmlrpc.client.Fault):
        proxy.echoFloat32(0.1)
    with pytest.raises(xmlrpc.client.Fault):
        proxy.echoInt32(1, 2)
    assert proxy.echoInt64("-42") == "-42"
    proxy("close")()


def test_connection_is_kept_alive_and_only_rpc2_answers(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port)
    body = xmlrpc.client.dumps((), "ping").encode()
    for _ in range(2):
        connection.request("POST", PATH, body, {"Content-Type": "text/xml"})
        reply = connection.getresponse()
        assert reply.status == 200 and reply.getheader("Connection") != "close"
        assert xmlrpc.client.loads(reply.read())[0] == (True,)
    first_socket = connection.sock
    connection.request("POST", PATH, body, {"Content-Type": "text/xml"})
    connection.getresponse().read()
    assert connection.sock is first_socket
    connection.request("POST", "/other", body, {"Content-Type": "text/xml"})
    assert connection.getresponse().status == 404
    connection.close()


def _post(port, body, headers):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("POST", PATH, body, {"Content-Type": "text/xml", **headers})
    reply = connection.getresponse()
    answer = (reply.status, reply.getheader("Content-Encoding"), reply.read())
    connection.close()
    return answer


def test_only_the_gzip_variant_compresses_answers(server, protocol):
    """Both variants read a gzip request (the library always does); only xmlrpc-gzip answers in gzip, and
    only to a client that accepts it."""
    body = gzip.compress(xmlrpc.client.dumps(("x" * 100,), "echoString").encode())
    status, encoding, answer = _post(server.port, body, {"Content-Encoding": "gzip", "Accept-Encoding": "gzip"})
    assert status == 200
    if protocol == "xmlrpc-gzip":
        assert encoding == "gzip"
        answer = gzip.decompress(answer)
    else:
        assert encoding is None
    assert xmlrpc.client.loads(answer)[0] == ("x" * 100,)
    status, encoding, answer = _post(server.port, xmlrpc.client.dumps((), "ping").encode(), {})
    assert (status, encoding) == (200, None) and xmlrpc.client.loads(answer)[0] == (True,)


def test_the_gzip_client_compresses_its_requests_and_asks_for_gzip(idl):
    seen = []

    class Recorder(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            seen.append((self.headers.get("Content-Encoding"), self.headers.get("Accept-Encoding"), raw))
            answer = gzip.compress(xmlrpc.client.dumps((True,), methodresponse=True).encode())
            self.send_response(200)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    recorder = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=recorder.serve_forever, daemon=True).start()
    try:
        for protocol in ("xmlrpc-gzip", "xmlrpc"):
            connected = xmlrpc_client.connect(options(idl, protocol, port=recorder.server_address[1]))
            assert connected.ping() is None
            connected.close()
    finally:
        recorder.shutdown()
        recorder.server_close()
    (gz_encoding, gz_accept, gz_body), (plain_encoding, plain_accept, plain_body) = seen
    assert (gz_encoding, gz_accept) == ("gzip", "gzip")
    assert b"<methodName>ping</methodName>" in gzip.decompress(gz_body)
    assert plain_encoding is None and plain_accept in (None, "identity")  # http.client says identity
    assert b"<methodName>ping</methodName>" in plain_body


@pytest.mark.parametrize(("body", "code"), [
    (b"<methodCall><methodName>ping</methodName><params>", xmlrpc_server.PARSE_ERROR),
    # no DOCTYPE, in any encoding: internal entities would be expanded, an external subset named
    (b'<!DOCTYPE m [<!ENTITY a "b">]><methodCall><methodName>echoString</methodName><params><param><value>'
     b"<string>&a;</string></value></param></params></methodCall>", xmlrpc_server.PARSE_ERROR),
    (('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE m [<!ENTITY a "b">]><methodCall><methodName>ping'
      "</methodName><params/></methodCall>").encode("utf-16"), xmlrpc_server.PARSE_ERROR),
    (b"<methodResponse><params/></methodResponse>", xmlrpc_server.METHOD_NOT_FOUND),
    (b"<methodCall><methodName>nope</methodName><params/></methodCall>", xmlrpc_server.METHOD_NOT_FOUND),
    (b"<methodCall><methodName>echoInt8</methodName><params><param><value><int>300</int></value></param>"
     b"</params></methodCall>", xmlrpc_server.INVALID_PARAMS),
])
def test_faults_carry_the_conventional_codes(server, body, code):
    status, _, answer = _post(server.port, body, {"Content-Type": "text/xml"})
    assert status == 200
    with pytest.raises(xmlrpc.client.Fault) as fault:
        xmlrpc.client.loads(answer)
    assert fault.value.faultCode == code


def test_a_body_declared_over_the_limit_is_refused_before_it_is_read(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.putrequest("POST", PATH)
    connection.putheader("Content-Length", "4000000000")
    connection.endheaders(b"<")
    assert connection.getresponse().status == 413
    connection.close()
    assert xmlrpc.client.ServerProxy(f"http://127.0.0.1:{server.port}{PATH}").echoInt32(5) == 5


def test_a_declared_body_reserves_at_most_4_mib_before_its_bytes_arrive(server):
    # the library's own do_POST would allocate 10 MiB at once for this declaration
    tracemalloc.start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as peer:
            peer.sendall(f"POST {PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: {60 << 20}\r\n\r\n<".encode())
            time.sleep(0.5)  # the server thread is waiting for the rest of the body
            _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 6 << 20, f"{peak} bytes reserved"
    # and a body of several MiB still arrives whole
    text = "x" * (5 << 20)
    assert xmlrpc.client.ServerProxy(f"http://127.0.0.1:{server.port}{PATH}").echoString(text) == text
