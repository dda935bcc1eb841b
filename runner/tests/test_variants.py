"""The cell variants of issue 39 (conductor/variant.py, proxy.py): the options, which cells can take them (the
registry, each client's manifest entry) and why the others cannot, what a client is started with and told, and the
evidence a record must show."""
import json
from pathlib import Path

import pytest

from conductor import cells, options, proxy, variant

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "runner/tests/fixtures"
PER_CALL = {"connection": "per-call"}
BOTH = {"connection": "per-call", "proxy": "tinyproxy 1.11.1"}


@pytest.mark.parametrize("args, message", [
    (["--connection", "sometimes"], "--connection takes kept or per-call"),
    (["--proxy", "socks"], "--proxy takes http"),
    (["--proxy", "http", "--no-netns"], "not with --no-netns"),
    (["--proxy", "http", "--server-at", "jsonrpc=198.18.0.9:80"], "--server-at"),
])
def test_bad_variant_options_are_refused(args, message):
    with pytest.raises(options.OptionError, match=message):
        options.parse(args)


def test_a_load_profile_takes_no_variant():
    with pytest.raises(options.OptionError, match="drives load"):
        options.begin(["--profile", "load", "--connection", "per-call", "--protocol", "jsonrpc"], "run")


def test_the_default_cell_has_no_variant_and_per_call_is_said_so():
    assert options.parse([])[0].variant == {}
    assert options.parse(["--connection", "per-call"])[0].variant == PER_CALL


def _chosen(variant_: dict, protocols: str, clients: str = "") -> dict[str, str]:
    chosen = cells.choose(ROOT, ROOT / "idl", "smoke", protocols, "python", clients, variant=variant_).chosen
    assert all(c["variant"] == variant_ for c in chosen)
    return {c["name"]: c.get("unsupported") or "runs" for c in chosen}


def test_which_cells_take_a_connection_per_call_and_why_the_others_cannot():
    found = _chosen(PER_CALL, "xmlrpc,grpc,corba-ior", "python")
    assert found["xmlrpc/python→python"] == "runs" and found["grpc/python→python"] == "runs"
    assert found["grpc/python-aio→python"] == "runs"  # a channel per call on its own loop
    assert found["corba-ior/python→python"].startswith("--connection per-call: omniORB keeps")


def test_the_proxy_takes_the_protocols_carried_over_http_1_1_only():
    found = _chosen(BOTH, "xmlrpc,rawtcp,grpc", "python")
    assert found["xmlrpc/python→python"] == "runs"
    assert "--proxy http: raw TCP frames, no HTTP" in found["rawtcp/python→python"]
    assert "--proxy http: gRPC is HTTP/2" in found["grpc/python→python"]


def test_a_client_whose_manifest_says_nothing_is_unsupported_never_silent():
    found = cells.choose(FIX / "matrix", FIX / "idl", "smoke", "echo", variant=PER_CALL).chosen
    reasons = {c["name"]: c.get("unsupported") for c in found}
    assert reasons["echo/alpha→beta"] is None
    assert reasons["echo/beta→alpha"] == ("--connection per-call: the manifest of beta declares no way for its echo "
                                          "client to take it")


def test_the_client_is_started_with_its_manifests_env_and_told_in_connect():
    cell = {"variant": BOTH, "client_variants": {
        "per-call": {"how": "keep-alive off", "env": {"JAVA_TOOL_OPTIONS": "-Dhttp.keepAlive=false"}},
        "http-proxy": {"how": "JVM properties", "env": {"JAVA_TOOL_OPTIONS": "-Dhttp.proxyHost={proxy_host} "
                                                                             "-Dhttp.proxyPort={proxy_port}"}}}}
    assert variant.env(cell, "198.18.0.1:3128") == ["JAVA_TOOL_OPTIONS=-Dhttp.keepAlive=false "
                                                    "-Dhttp.proxyHost=198.18.0.1 -Dhttp.proxyPort=3128"]
    assert variant.connect_fields(cell) == {"connection": "per-call"}
    assert "did not acknowledge" in variant.unacknowledged(cell, {"instantiation_ns": 5})
    assert variant.unacknowledged(cell, {"connection": "per-call"}) is None
    assert variant.connect_fields({"variant": {}}) == {} and variant.env({"variant": {}}, "") == []


def _cell_dir(tmp_path: Path, log: str, port: int = 41000) -> tuple[Path, Path]:
    run, cell_dir = tmp_path / "run", tmp_path / "run" / "cells" / "x" / "pass1"
    cell_dir.mkdir(parents=True)
    (run / "proxy").mkdir()
    (run / "proxy" / "tinyproxy.log").write_text("CONNECT ...: Request (file descriptor 5): POST http://198.18.0.2:9/a\n")
    proxy.mark(run, cell_dir)
    with (run / "proxy" / "tinyproxy.log").open("a") as f:
        f.write(log)
    (cell_dir / "server.out").write_text(json.dumps({"ready": True, "port": port}) + "\n")
    return run, cell_dir


def test_the_requests_the_proxy_relayed_to_the_cells_server_since_it_began(tmp_path):
    run, cell_dir = _cell_dir(tmp_path, "Request (file descriptor 5): POST http://198.18.0.2:41000/RPC2 HTTP/1.1\n"
                                        "Request (file descriptor 6): CONNECT 198.18.0.2:41000 HTTP/1.1\n"
                                        "Request (file descriptor 7): POST http://198.18.0.2:41001/RPC2 HTTP/1.1\n")
    assert proxy.relayed_since(run, cell_dir) == 2


@pytest.mark.parametrize("connections, log, status, reason", [
    (1.0, "Request (file descriptor 5): POST http://198.18.0.2:41000/RPC2 HTTP/1.1\n", "pass", ""),
    (0.5, "Request (file descriptor 5): POST http://198.18.0.2:41000/RPC2 HTTP/1.1\n", "error", "kept its connection"),
    (1.0, "", "error", "went around it"),
])
def test_a_record_without_the_variants_evidence_is_an_error(tmp_path, connections, log, status, reason):
    run, cell_dir = _cell_dir(tmp_path, log)
    rec = {"status": "pass", "reason": "", "wire_per_call": {"connections": connections}}
    variant.check(rec, {"variant": BOTH}, cell_dir, run)
    assert rec["status"] == status and reason in rec["reason"]
    assert rec["variant_evidence"]["connections_per_call"] == connections


def test_the_proxys_configuration_is_bounded_and_only_for_the_clients(tmp_path):
    (tmp_path / "plan").mkdir()
    assert proxy.write(tmp_path, "198.18.0.1") == f"198.18.0.1:{proxy.PORT}"
    conf = (tmp_path / "proxy" / "tinyproxy.conf").read_text()
    for line in ("Listen 198.18.0.1", "Allow 198.18.0.1", "Timeout 30", "MaxClients 64", "LogLevel Connect"):
        assert line in conf.splitlines()
    assert (tmp_path / "plan" / "proxy.argv").read_bytes().split(b"\0")[:2] == [b"tinyproxy", b"-d"]
    with pytest.raises(proxy.ProxyError, match="network namespaces"):
        proxy.write(tmp_path, "")
