"""Each protocol's real server and client processes, talking over loopback as the runner starts them."""
import signal
import subprocess
import sys

import pytest

from helpers import IDL, assert_all_pass_or_lacked, run_client, start_server

PROTOCOLS = [("rpcmatrix.rawtcp", "rawtcp"), ("rpcmatrix.xmlrpc", "xmlrpc"), ("rpcmatrix.xmlrpc", "xmlrpc-gzip")]


@pytest.mark.parametrize("module, protocol", PROTOCOLS)
def test_client_and_server_processes(module, protocol, repository, idl):
    server, port = start_server(module, protocol, repository)
    try:
        answers = run_client(module, protocol, repository, port, [
            {"cmd": "connect"},
            {"cmd": "vectors", "protocol": protocol},
            {"cmd": "warmup", "workload": "searchBooks100", "calls": 2},
            {"cmd": "prepare", "workload": "echoInt64"},
            {"cmd": "measure", "workload": "echoInt64", "calls": 3},
            {"cmd": "measure", "workload": "echoInt64", "calls": 2, "max_calls": 4, "min_ms": 0},
            {"cmd": "samples", "workload": "echoInt64"},
            {"cmd": "quit"},
        ])
        assert [a["ok"] for a in answers] == [True] * 8, answers
        assert_all_pass_or_lacked(idl, protocol, answers[1]["results"])
        assert answers[2]["checked"] == 2
        assert answers[4]["calls"] == 3 and answers[5]["calls"] == 2
        assert [len(r) for r in answers[6]["samples_ns"]] == [3, 2]
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=5) == 0


@pytest.mark.parametrize("module, protocol", PROTOCOLS)
def test_server_that_cannot_bind_exits_non_zero(module, protocol, repository):
    server, port = start_server(module, protocol, repository)
    try:
        second = subprocess.run([sys.executable, "-m", module, "server", "--protocol", protocol, "--host",
                                 "127.0.0.1", "--port", str(port), "--idl", IDL], cwd=repository,
                                capture_output=True, text=True, timeout=30)
        assert second.returncode != 0 and second.stdout == "" and "cannot start" in second.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=5) == 0


@pytest.mark.parametrize("module", ["rpcmatrix.rawtcp", "rpcmatrix.xmlrpc", "rpcmatrix.grpc",
                                    "rpcmatrix.grpc.aio", "rpcmatrix.thrift"])
@pytest.mark.parametrize("role", ["server", "client"])
def test_an_unregistered_protocol_is_refused_at_start(module, role, repository):
    refused = subprocess.run([sys.executable, "-m", module, role, "--protocol", "carrier-pigeon", "--host",
                              "127.0.0.1", "--port", "9", "--idl", IDL], cwd=repository, capture_output=True,
                             text=True, timeout=30, input="")
    assert refused.returncode != 0 and refused.stdout == ""
    assert "protocol 'carrier-pigeon' is not in idl/protocols.json" in refused.stderr


def test_a_protocol_of_another_family_is_refused(repository):
    refused = subprocess.run([sys.executable, "-m", "rpcmatrix.rawtcp", "server", "--protocol", "grpc", "--host",
                              "127.0.0.1", "--port", "0", "--idl", IDL], cwd=repository, capture_output=True,
                             text=True, timeout=30)
    assert refused.returncode != 0 and "family 'grpc'" in refused.stderr
