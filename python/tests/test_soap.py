"""SOAP (spyne server, zeep client) and WS-Security, in process over loopback: every vector, the published
WSDL against idl/bench.wsdl, the --check-wsdl helper, and the security checks of the server."""
import math
import socket
import subprocess
import time

import pytest
import requests
from lxml import etree

from helpers import assert_all_pass_or_lacked, options
from rpcmatrix.contract.catalog import load_protocol, load_vectors
from rpcmatrix.harness.calls import Driver
from rpcmatrix.harness.conformance import run_vectors
from rpcmatrix.soap import client as soap_client
from rpcmatrix.soap import server as soap_server
from rpcmatrix.soap.wsdl_check import check_wsdl
from rpcmatrix.soap.xsdfloat import xsd_float

XS = "{http://www.w3.org/2001/XMLSchema}"
WSDL = "{http://schemas.xmlsoap.org/wsdl/}"


@pytest.fixture(scope="module")
def secrets(repository, tmp_path_factory):
    folder = tmp_path_factory.mktemp("secrets")
    subprocess.run(["bash", str(repository / "runner" / "secrets.sh"), str(folder)], check=True)
    return folder


@pytest.fixture
def serve(idl, secrets):
    running = []

    def start(protocol):
        server = soap_server.start(options(idl, protocol, secrets=secrets))
        running.append(server)
        return server

    yield start
    for server in running:
        server.stop()


@pytest.mark.parametrize("protocol", ["soap11", "wss-username"])
def test_idle_and_stalled_connections_leave_the_workers_to_callers(idl, secrets, serve, protocol):
    """Twice as many idle connections as workers and a handful of half-sent requests, then a call: answered
    at once (a stalled request holds a worker until REQUEST_TIMEOUT_S; an idle connection holds none)."""
    server = serve(protocol)
    held = []
    try:
        for _ in range(2 * soap_server.WORKERS):
            held.append(socket.create_connection(("127.0.0.1", server.port)))
        for _ in range(soap_server.WORKERS // 2):
            stalled = socket.create_connection(("127.0.0.1", server.port))
            stalled.sendall(b"POST /bench HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n<soap")
            held.append(stalled)
        time.sleep(0.2)
        adapter = soap_client.connect(options(idl, protocol, port=server.port, secrets=secrets))
        try:
            started = time.monotonic()
            assert adapter.echo_string("still served") == "still served"
            assert time.monotonic() - started < soap_server.REQUEST_TIMEOUT_S / 2
        finally:
            adapter.close()
    finally:
        for connection in held:
            connection.close()


def _results(idl, secrets, protocol, port):
    adapter = soap_client.connect(options(idl, protocol, port=port, secrets=secrets))
    try:
        return run_vectors(Driver(adapter), load_vectors(idl), load_protocol(idl, protocol))
    finally:
        adapter.close()


# The secured protocols' vectors include the attacks their server must refuse with a wsse: fault: one run of
# the vectors checks both (a run of wss-sign's vectors is 12 s of CPU).
ATTACKS = {
    "soap11": set(),
    "soap12": set(),
    "wss-username": {"refuse_missing_security_header", "refuse_expired_timestamp", "refuse_replayed_message",
                     "refuse_wrong_password"},
    "wss-sign": {"refuse_missing_security_header", "refuse_expired_timestamp", "refuse_replayed_message",
                 "refuse_tampered_body", "refuse_unknown_certificate"},
}


@pytest.mark.parametrize("protocol", ATTACKS)
def test_every_vector_passes_or_is_lacked_and_a_secured_server_refuses_each_attack_with_a_fault(
        idl, secrets, serve, protocol):
    results = _results(idl, secrets, protocol, serve(protocol).port)
    assert_all_pass_or_lacked(idl, protocol, results)
    by_id = {r["id"]: r for r in results}
    for attack in ATTACKS[protocol]:
        assert by_id[attack]["status"] == "pass", by_id[attack]
        assert by_id[attack]["reason"].startswith("SOAP Fault wsse:"), by_id[attack]


def test_a_plain_call_to_a_secured_server_is_refused(idl, secrets, serve):
    port = serve("wss-sign").port
    with pytest.raises(Exception, match="no wsse:Security header"):
        soap_client.connect(options(idl, "soap11", port=port)).ping()


def test_bench_error_travels_as_a_fault_with_its_detail(idl, secrets, serve):
    adapter = soap_client.connect(options(idl, "soap12", port=serve("soap12").port))
    with pytest.raises(Exception) as raised:
        adapter.fail(-7, "<&> Grüße")
    assert (raised.value.code, raised.value.message) == (-7, "<&> Grüße")


def _elements(schema) -> dict:
    """{element name: [(child name, type's local name, maxOccurs)]} of a schema's global elements, with
    named complex types resolved."""
    types = {t.get("name"): t for t in schema.findall(f"{XS}complexType")}
    found = {}
    for element in schema.findall(f"{XS}element"):
        complex_type = element.find(f"{XS}complexType")
        if complex_type is None:
            complex_type = types.get((element.get("type") or "").split(":")[-1])
        children = complex_type.findall(f".//{XS}element") if complex_type is not None else []
        found[element.get("name")] = [(c.get("name"), (c.get("type") or "").split(":")[-1],
                                       c.get("maxOccurs", "1")) for c in children]
    return found


def _operations(wsdl) -> set:
    return {o.get("name") for o in wsdl.find(f"{WSDL}portType").findall(f"{WSDL}operation")}


def test_the_published_wsdl_matches_bench_wsdl(idl, serve):
    port = serve("soap11").port
    published = etree.fromstring(requests.get(f"http://127.0.0.1:{port}/bench?wsdl", timeout=30).content)
    assert _operations(published) == _operations(etree.parse(str(idl / "bench.wsdl")).getroot())
    expected = _elements(etree.parse(str(idl / "bench.xsd")).getroot())
    actual = {}
    for schema in published.iter(f"{XS}schema"):
        if schema.get("targetNamespace") == "urn:rpcmatrix:bench":
            actual.update(_elements(schema))
    for name, children in expected.items():
        assert actual.get(name) == children, name


def test_check_wsdl_reads_the_published_wsdl(serve):
    port = serve("soap11").port
    answer = check_wsdl(f"http://127.0.0.1:{port}/bench?wsdl")
    assert answer["ok"], answer


def test_check_wsdl_says_why_it_cannot(idl, tmp_path):
    # A WSDL whose schema import answers with an HTML help page instead of the schema.
    (tmp_path / "help.html").write_text("<html><body><p>Service help page</p></body></html>")
    wsdl = tmp_path / "bench.wsdl"
    original = (idl / "bench.wsdl").read_text()
    wsdl.write_text(original.replace('schemaLocation="bench.xsd"', 'schemaLocation="help.html"'))
    answer = check_wsdl(wsdl.as_uri())
    assert answer["ok"] is False and answer["reason"], answer
    not_a_wsdl = tmp_path / "page.wsdl"
    not_a_wsdl.write_text("<html><body>Service help page</body></html>")
    assert check_wsdl(not_a_wsdl.as_uri()) == {"ok": False, "reason": "zeep read the WSDL, but it declares no binding"}


def test_xsd_floats_use_the_schema_spelling():
    assert [xsd_float(v) for v in (math.nan, math.inf, -math.inf, -0.0, 0.1)] == ["NaN", "INF", "-INF", "-0.0", "0.1"]


def test_replay_cache_refuses_within_its_time_and_forgets_after():
    from rpcmatrix.soap.wsse_common import SecurityRefused
    from rpcmatrix.soap.wsse_server import ReplayCache

    moment = [0.0]
    cache = ReplayCache(10.0, clock=lambda: moment[0])
    cache.remember("a")
    moment[0] = 5.0
    with pytest.raises(SecurityRefused, match="replays"):
        cache.remember("a")
    for i in range(20_000):
        cache.remember(f"n{i}")
    assert len(cache) == 20_001
    # at 10 s "a" has expired, the others (seen at 5 s) have not; at 15 s only what came at 10 s and after is left
    moment[0] = 10.0
    cache.remember("a")
    assert len(cache) == 20_001
    moment[0] = 15.0
    cache.remember("b")
    assert len(cache) == 2
    with pytest.raises(SecurityRefused):
        cache.remember("a")
