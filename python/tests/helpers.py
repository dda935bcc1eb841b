"""Starting the real server and client processes as the runner does (runner/PROTOCOL.md)."""
import json
import subprocess
import sys
from types import SimpleNamespace

from rpcmatrix.contract.catalog import load_protocol

IDL = "idl"  # relative to the repository root, the processes' working directory


def options(idl, protocol, port=0, secrets=None, host="127.0.0.1"):
    """The parsed options an adapter's start() or connect() receives."""
    return SimpleNamespace(host=host, port=port, secrets=secrets, idl=idl, protocol=protocol,
                           registered=load_protocol(idl, protocol))


def start_server(module, protocol, repository, port=0, extra=()):
    server = subprocess.Popen([sys.executable, "-m", module, "server", "--protocol", protocol, "--host", "127.0.0.1",
                               "--port", str(port), "--idl", IDL, *extra], cwd=repository, stdout=subprocess.PIPE,
                              text=True)
    ready = json.loads(server.stdout.readline())
    assert ready["ready"] is True and ready["port"] > 0
    return server, ready["port"]


def run_client(module, protocol, repository, port, commands, extra=()):
    """The client's answers to `commands`, after checking that it exited 0."""
    client = subprocess.run(
        [sys.executable, "-m", module, "client", "--protocol", protocol, "--host", "127.0.0.1", "--port", str(port),
         "--idl", IDL, *extra],
        cwd=repository, input="".join(json.dumps(c) + "\n" for c in commands), capture_output=True, text=True,
        timeout=120)
    assert client.returncode == 0, client.stderr
    return [json.loads(line) for line in client.stdout.splitlines()]


def assert_all_pass_or_lacked(idl, protocol, results):
    lacks = load_protocol(idl, protocol).lacks.values()
    for result in results:
        assert result["status"] == "pass" or (result["status"] == "unsupported" and result["reason"] in lacks), result
