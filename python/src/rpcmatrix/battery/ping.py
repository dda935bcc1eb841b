"""Whether a valid client is served: one plain ping of the protocol on a new connection, bounded in time.
The suite's own Python client of the protocol where Python has one (rpcmatrix.<family>.client.connect),
else a minimal raw request: a Hessian 1 call for hessian2 (Caucho's servlet takes both), a Burlap call
written out, a JSON-RPC request without gzip for jsonrpc-gzip (gzip is optional on requests), and for
HttpInvoker (Java serialization, which no Python library writes) any HTTP answer at all."""
from __future__ import annotations

import argparse
import http.client
import importlib
import json
import threading
from pathlib import Path

from rpcmatrix.contract.catalog import load_protocol
from rpcmatrix.contract.operations import BY_NAME

PING_SECONDS = 5.0
_PING = BY_NAME["ping"]
# The protocols whose ping is the suite's Python client (python/manifest.json has a client for each).
_PYTHON_CLIENTS = {"xmlrpc", "xmlrpc-gzip", "jsonrpc", "hessian1", "rawtcp", "thrift-binary", "thrift-compact",
                   "soap11", "soap12", "wss-username", "wss-sign", "grpc", "grpc-tls", "corba-ior"}


class Pinger:
    def __init__(self, protocol: str, host: str, port: int, idl: Path, secrets: Path | None = None,
                 cell: Path | None = None):
        self.protocol, self.host, self.port, self.idl, self.secrets = protocol, host, port, idl, secrets
        self.cell = cell  # the server's {cell} folder: where a CORBA server leaves its IORs
        self.registered = load_protocol(idl, protocol)
        self.how = "python client" if protocol in _PYTHON_CLIENTS else _RAW_HOW.get(protocol, "tcp connect")

    def ping(self) -> tuple[bool, str]:
        """(served, what failed); a ping that takes over PING_SECONDS is not served."""
        result: list = []

        def run():
            try:
                result.append((True, self._ping()))
            except Exception as e:  # the reason is the answer
                result.append((False, f"{type(e).__name__}: {e}"[:300]))

        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        worker.join(PING_SECONDS)
        if not result:
            return False, f"no answer to a ping in {PING_SECONDS:.0f} s"
        return result[0]

    def _ping(self) -> str:
        if self.protocol in _PYTHON_CLIENTS:
            family = self.registered.family
            module = importlib.import_module(f"rpcmatrix.{family}.client")
            options = argparse.Namespace(protocol=self.protocol, host=self.host, port=self.port, idl=self.idl,
                                         secrets=self.secrets, cell=self.cell, registered=self.registered)
            client = module.connect(options)
            try:
                client.ping()
            finally:
                client.close()
            return ""
        if self.protocol == "hessian2":
            from rpcmatrix.hessian.client import HessianClient
            client = HessianClient(self.host, self.port)
            try:
                client.ping()
            finally:
                client.close()
            return ""
        raw = _RAW.get(self.protocol)
        if raw is None:
            import socket
            socket.create_connection((self.host, self.port), timeout=PING_SECONDS).close()
            return ""
        return raw(self)


def _post(pinger: Pinger, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(pinger.host, pinger.port, timeout=PING_SECONDS)
    try:
        connection.request("POST", path, body, {"Content-Type": content_type})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _burlap(pinger: Pinger) -> str:
    status, body = _post(pinger, "/burlap", b"<burlap:call><method>ping</method></burlap:call>", "text/xml")
    if status != 200 or b"<fault>" in body:
        raise RuntimeError(f"HTTP {status}: {body[:200]!r}")
    return ""


def _jsonrpc_plain(pinger: Pinger) -> str:
    request = json.dumps({"jsonrpc": "2.0", "method": "ping", "params": [], "id": 1}).encode()
    status, body = _post(pinger, "/jsonrpc", request, "application/json")
    if status != 200 or '"error"' in body.decode("utf-8", "replace"):
        raise RuntimeError(f"HTTP {status}: {body[:200]!r}")
    return ""


def _any_http(pinger: Pinger) -> str:
    status, body = _post(pinger, "/httpinvoker", b"", "application/x-java-serialized-object")
    return f"HTTP {status}"


_RAW = {"burlap": _burlap, "jsonrpc-gzip": _jsonrpc_plain, "httpinvoker": _any_http}
_RAW_HOW = {"hessian2": "Hessian 1 call (python client)", "burlap": "raw Burlap call",
            "jsonrpc-gzip": "raw JSON-RPC request", "httpinvoker": "any HTTP answer to an empty POST"}
