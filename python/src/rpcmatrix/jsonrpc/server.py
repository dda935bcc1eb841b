"""The JSON-RPC 2.0 server: jsonrpcserver's dispatch (request validation with its JSON schema, batches,
notifications) behind the keep-alive HTTP server, at /jsonrpc, answering with ReferenceBench.
BenchError is the error object {code, message}; arguments that fail the checks are -32602."""
from __future__ import annotations

from jsonrpcserver import Error, InvalidParams, Success, dispatch

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.hessian.http import HttpServer
from rpcmatrix.jsonrpc.mapping import CONTENT_TYPE, PATH, from_wire, to_wire


def _method(operation: Operation, reference: ReferenceBench):
    """A jsonrpcserver method taking the positional params: a wrong count is the library's -32602."""
    converters = [from_wire(p.type) for p in operation.params]
    call = getattr(reference, operation.method)
    result_to_wire = to_wire(operation.returns)
    names = [p.name for p in operation.params]

    def method(*params):
        if len(params) != len(converters):
            return InvalidParams(f"{operation.name} takes {len(converters)} params ({', '.join(names)})")
        try:
            args = [convert(value) for convert, value in zip(converters, params)]
        except ValueError as e:
            return InvalidParams(f"{operation.name}: {e}")
        try:
            return Success(result_to_wire(call(*args)))
        except BenchError as error:
            return Error(error.code, error.message)

    method.__name__ = operation.name
    return method


def methods() -> dict:
    reference = ReferenceBench()
    return {op.name: _method(op, reference) for op in OPERATIONS if not op.is_stream}


class JsonRpcServer:
    def __init__(self, host: str, port: int):
        self._methods = methods()
        self._http = HttpServer(host, port, self.answer)
        self.port = self._http.port

    def answer(self, path: str, body: bytes) -> tuple[int, str, bytes]:
        if path != PATH:
            return 404, "text/plain", f"no service at {path}".encode()
        response = dispatch(body.decode("utf-8", "replace"), methods=self._methods)
        if not response:  # only notifications: nothing to answer
            return 204, CONTENT_TYPE, b""
        return 200, CONTENT_TYPE, response.encode("utf-8")

    def stop(self) -> None:
        self._http.stop()


def start(options) -> JsonRpcServer:
    return JsonRpcServer(options.host, options.port)
