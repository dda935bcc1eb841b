"""Each protocol's real server and client processes, talking over loopback as the runner starts them."""
import json
import signal
import subprocess
import sys

import pytest

from rpcmatrix.contract.catalog import load_limits


def start_server(protocol, repository):
    server = subprocess.Popen([sys.executable, "-m", f"rpcmatrix.{protocol}", "server", "--host", "127.0.0.1",
                               "--port", "0"], cwd=repository, stdout=subprocess.PIPE, text=True)
    ready = json.loads(server.stdout.readline())
    assert ready["ready"] is True and ready["port"] > 0
    return server, ready["port"]


@pytest.mark.parametrize("protocol", ["rawtcp", "xmlrpc"])
def test_client_and_server_processes(protocol, repository, idl):
    server, port = start_server(protocol, repository)
    try:
        commands = [
            {"cmd": "connect"},
            {"cmd": "vectors", "protocol": protocol},
            {"cmd": "warmup", "workload": "searchBooks100", "calls": 2},
            {"cmd": "measure", "workload": "echoInt64", "calls": 3, "repetitions": 2},
            {"cmd": "quit"},
        ]
        client = subprocess.run(
            [sys.executable, "-m", f"rpcmatrix.{protocol}", "client", "--host", "127.0.0.1", "--port", str(port),
             "--idl", str(idl)],
            cwd=repository, input="".join(json.dumps(c) + "\n" for c in commands), capture_output=True, text=True,
            timeout=120)
        assert client.returncode == 0, client.stderr
        answers = [json.loads(line) for line in client.stdout.splitlines()]
        assert [a["ok"] for a in answers] == [True] * 5, answers
        limits = load_limits(idl, protocol)
        for result in answers[1]["results"]:
            assert result["status"] == "pass" or (
                result["status"] == "unsupported" and result["reason"] in limits.values()), result
        assert answers[2]["checked"] == 2
        assert [len(r) for r in answers[3]["samples_ns"]] == [3, 3]
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=5) == 0


@pytest.mark.parametrize("protocol", ["rawtcp", "xmlrpc"])
def test_server_that_cannot_bind_exits_non_zero(protocol, repository):
    server, port = start_server(protocol, repository)
    try:
        second = subprocess.run([sys.executable, "-m", f"rpcmatrix.{protocol}", "server", "--host", "127.0.0.1",
                                 "--port", str(port)], cwd=repository, capture_output=True, text=True, timeout=30)
        assert second.returncode != 0 and second.stdout == "" and "cannot start" in second.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=5) == 0
