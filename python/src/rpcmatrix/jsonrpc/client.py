"""The JSON-RPC 2.0 client: requests built by jsonrpcclient (positional params, incrementing numeric ids)
and responses read by it, over one persistent http.client connection to /jsonrpc (http.client sets
TCP_NODELAY); to the proxy of HTTP_PROXY where there is one (httphost.proxy)."""
from __future__ import annotations

import json

from jsonrpcclient import Error, parse, request

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import Operation
from rpcmatrix.harness.generic_client import GenericClient
from rpcmatrix.httphost import proxy
from rpcmatrix.jsonrpc.mapping import CONTENT_TYPE, PATH, from_wire, to_wire

_HEADERS = {"Content-Type": CONTENT_TYPE}


class JsonRpcClient(GenericClient):
    def __init__(self, host: str, port: int):
        self._connection, self._target = proxy.connection(host, port)

    def call(self, operation: Operation, args: tuple) -> object:
        params = tuple(to_wire(p.type)(arg) for p, arg in zip(operation.params, args, strict=True))
        # allow_nan=False: JSON has no NaN or infinity (the registry makes those vectors unsupported)
        body = json.dumps(request(operation.name, params=params), allow_nan=False).encode("utf-8")
        if self._target:  # through a proxy, which may close the connection after each answer
            response = proxy.post(self._connection, self._target + PATH, body, _HEADERS)
        else:
            self._connection.request("POST", PATH, body, _HEADERS)
            response = self._connection.getresponse()
        answer = response.read()
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status} {response.reason}: {answer[:200]!r}")
        parsed = parse(json.loads(answer))
        if isinstance(parsed, Error):
            raise BenchError(parsed.code, parsed.message)
        return from_wire(operation.returns)(parsed.result)

    def close(self) -> None:
        self._connection.close()


def connect(options) -> JsonRpcClient:
    return JsonRpcClient(options.host, options.port)
