"""The Hessian server: Hessian 1.0 calls at /hessian answered with ReferenceBench, on the HTTP server of
http.py. BenchError is a fault `ServiceException` whose detail is {code, message}; arguments that fail
the checks are a fault whose detail carries code -32602."""
from __future__ import annotations

from pyhessian.protocol import Call

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.hessian import wire
from rpcmatrix.hessian.mapping import from_wire, to_wire
from rpcmatrix.httphost.http_server import HttpServer

FAULT = "ServiceException"
INVALID_PARAMS = -32602


def _fault(code: int, message: str) -> bytes:
    return wire.encode_fault(FAULT, message, {"code": code, "message": message})


def _handler(operation: Operation, reference: ReferenceBench):
    converters = [from_wire(p.type) for p in operation.params]
    method = getattr(reference, operation.method)
    result_to_wire = to_wire(operation.returns)

    def handle(args: list) -> bytes:
        if len(args) != len(converters):
            return _fault(INVALID_PARAMS, f"{operation.name} takes {len(converters)} arguments, got {len(args)}")
        try:
            values = [convert(value) for convert, value in zip(converters, args, strict=True)]
        except ValueError as e:
            return _fault(INVALID_PARAMS, f"{operation.name}: {e}")
        try:
            return wire.encode_reply(result_to_wire(method(*values)))
        except BenchError as error:
            return _fault(error.code, error.message)
        except Exception as e:  # a fault, not a dropped connection
            return wire.encode_fault("ServiceException", f"{type(e).__name__}: {e}", None)

    return handle


class HessianServer:
    def __init__(self, host: str, port: int):
        reference = injected_spin.served()
        self._handlers = {op.name: _handler(op, reference) for op in OPERATIONS if not op.is_stream}
        self._http = HttpServer(host, port, self.answer)
        self.port = self._http.port

    def answer(self, path: str, body: bytes) -> tuple[int, str, bytes]:
        if path != wire.PATH:
            return 404, "text/plain", f"no service at {path}".encode()
        try:
            call = wire.parse(body)
        except Exception as e:
            return 200, wire.CONTENT_TYPE, wire.encode_fault("ProtocolException", f"unreadable call: {e}", None)
        if not isinstance(call, Call):
            return 200, wire.CONTENT_TYPE, wire.encode_fault("ProtocolException", "a call expected", None)
        name = call.method.decode() if isinstance(call.method, bytes) else call.method
        handler = self._handlers.get(name)
        if handler is None:
            return 200, wire.CONTENT_TYPE, wire.encode_fault("NoSuchMethodException", f"no method {name}", None)
        return 200, wire.CONTENT_TYPE, handler(call.args)

    def stop(self) -> None:
        self._http.stop()


def start(options) -> HessianServer:
    if options.registered.variant.get("version") != "1":
        raise ValueError("python-hessian 1.2.0 writes only Hessian 1.0: this server speaks hessian1 only")
    return HessianServer(options.host, options.port)
