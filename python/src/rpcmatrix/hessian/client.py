"""The Hessian client: Hessian 1.0 calls written by python-hessian's encoder, POSTed to /hessian over one
persistent HTTP/1.1 connection (http.client sets TCP_NODELAY); each reply read with a fresh parser.
python-hessian's own HessianProxy closes its connection after every call, so it is not used."""
from __future__ import annotations

from pyhessian.protocol import Fault

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import Operation
from rpcmatrix.harness.generic_client import GenericClient
from rpcmatrix.hessian import wire
from rpcmatrix.hessian.mapping import from_wire, to_wire
from rpcmatrix.httphost import proxy

_HEADERS = {"Content-Type": wire.CONTENT_TYPE}


class HessianClient(GenericClient):
    def __init__(self, host: str, port: int):
        self._connection, self._target = proxy.connection(host, port)  # through HTTP_PROXY where there is one

    def call(self, operation: Operation, args: tuple) -> object:
        wire_args = [to_wire(p.type)(arg) for p, arg in zip(operation.params, args, strict=True)]
        payload = wire.encode_call(operation.name, wire_args)
        if self._target:  # through a proxy, which may close the connection after each answer
            response = proxy.post(self._connection, self._target + wire.PATH, payload, _HEADERS)
        else:
            self._connection.request("POST", wire.PATH, payload, _HEADERS)
            response = self._connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status} {response.reason}: {body[:200]!r}")
        reply = wire.parse(body)
        if isinstance(reply.value, Fault):
            raise _error(reply.value)
        return from_wire(operation.returns)(reply.value)

    def close(self) -> None:
        self._connection.close()


def _error(fault: Fault) -> Exception:
    """BenchError from a fault whose detail is {code, message} (CONTRACT.md#carriage); any other fault as
    it came."""
    detail = fault.detail
    if isinstance(detail, dict) and isinstance(detail.get("code"), int) and isinstance(detail.get("message"), str):
        return BenchError(int(detail["code"]), detail["message"])
    return RuntimeError(f"Hessian fault {fault.code}: {fault.message}")


def connect(options) -> HessianClient:
    if options.registered.variant.get("version") != "1":
        raise ValueError("python-hessian 1.2.0 writes only Hessian 1.0: this client speaks hessian1 only")
    return HessianClient(options.host, options.port)
