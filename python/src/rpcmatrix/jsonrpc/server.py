"""The JSON-RPC 2.0 server: jsonrpcserver's dispatch (request validation with its JSON schema,
notifications; batches member by member, see JsonRpcServer._dispatch) behind the keep-alive HTTP server, at
/jsonrpc, answering with ReferenceBench. BenchError is the error object {code, message}; arguments that fail
the checks are -32602."""
from __future__ import annotations

import json

from jsonrpcserver import Error, InvalidParams, Success, dispatch

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.httphost.http_server import HttpServer
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
            args = [convert(value) for convert, value in zip(converters, params, strict=True)]
        except ValueError as e:
            return InvalidParams(f"{operation.name}: {e}")
        try:
            return Success(result_to_wire(call(*args)))
        except BenchError as error:
            return Error(error.code, error.message)

    method.__name__ = operation.name
    return method


def methods() -> dict:
    reference = injected_spin.served()
    return {op.name: _method(op, reference) for op in OPERATIONS if not op.is_stream}


class JsonRpcServer:
    def __init__(self, host: str, port: int):
        self._methods = methods()
        self._http = HttpServer(host, port, self.answer)
        self.port = self._http.port

    def answer(self, path: str, body: bytes) -> tuple[int, str, bytes]:
        if path != PATH:
            return 404, "text/plain", f"no service at {path}".encode()
        response = self._dispatch(body.decode("utf-8", "replace"))
        if not response:  # only notifications: nothing to answer
            return 204, CONTENT_TYPE, b""
        return 200, CONTENT_TYPE, response.encode("utf-8")

    def _dispatch(self, text: str) -> str:
        """jsonrpcserver judges a batch as a whole: one invalid member fails all of it, and [1] is answered
        with one error instead of a list of one (JSON-RPC 2.0, section 6). A non-empty batch is dispatched
        here member by member and answered as the list of their answers, notifications left out."""
        if not text.lstrip().startswith("["):
            return dispatch(text, methods=self._methods)
        try:
            batch = json.loads(text)
        except ValueError:
            return dispatch(text, methods=self._methods)  # the library's parse error
        if not isinstance(batch, list) or not batch:
            return dispatch(text, methods=self._methods)  # [] is one Invalid Request
        answers = [dispatch(json.dumps(member), methods=self._methods) for member in batch]
        answers = [answer for answer in answers if answer]
        return "[" + ", ".join(answers) + "]" if answers else ""

    def stop(self) -> None:
        self._http.stop()


def start(options) -> JsonRpcServer:
    return JsonRpcServer(options.host, options.port)
