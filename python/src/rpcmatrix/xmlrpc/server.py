"""The XML-RPC server: SimpleXMLRPCServer with a thread per connection, HTTP/1.1 keep-alive, TCP_NODELAY,
no request logging, answering at /RPC2 with ReferenceBench. The library reads gzip requests always; it
gzips answers only in the gzip variant (encode_threshold 0, to a client that accepts gzip)."""
from __future__ import annotations

import socket
import socketserver
import threading
from xmlrpc.client import Fault
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.xmlrpc.mapping import PATH, escape_carriage_returns, from_wire, to_wire

# Fault code for a call the server cannot take (wrong arguments), from the XML-RPC fault code
# conventions ("server error: invalid method parameters").
INVALID_PARAMS = -32602


class _RequestHandler(SimpleXMLRPCRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one connection per client for all its calls
    disable_nagle_algorithm = True  # TCP_NODELAY
    rpc_paths = (PATH,)
    encode_threshold = None  # no gzip answers unless the protocol is the gzip variant (see XmlRpcServer)


class _ThreadingXMLRPCServer(socketserver.ThreadingMixIn, SimpleXMLRPCServer):
    daemon_threads = True  # kept-alive connections do not hold the process after stop()
    allow_reuse_address = True

    def _marshaled_dispatch(self, data, dispatch_method=None, path=None):
        return escape_carriage_returns(super()._marshaled_dispatch(data, dispatch_method, path))


def _handler(operation: Operation, reference: ReferenceBench):
    """The function registered under the contract's operation name: checks and converts the arguments,
    calls the reference and converts the result; BenchError travels as Fault(code, message)."""
    converters = [from_wire(p.type) for p in operation.params]
    method = getattr(reference, operation.method)
    result_to_wire = to_wire(operation.returns)

    def handle(*params):
        if len(params) != len(converters):
            raise Fault(INVALID_PARAMS, f"{operation.name} takes {len(converters)} parameters, got {len(params)}")
        try:
            args = [convert(value) for convert, value in zip(converters, params)]
        except ValueError as e:
            raise Fault(INVALID_PARAMS, f"{operation.name}: {e}") from None
        try:
            return result_to_wire(method(*args))
        except BenchError as error:
            raise Fault(error.code, error.message) from None

    return handle


class XmlRpcServer:
    def __init__(self, host: str, port: int, gzip: bool = False):
        server_class = type("Server", (_ThreadingXMLRPCServer,),
                            {"address_family": socket.AF_INET6 if ":" in host else socket.AF_INET})
        # 0: every answer compressed (the library's own default threshold is 1,400 bytes).
        handler_class = type("Handler", (_RequestHandler,), {"encode_threshold": 0 if gzip else None})
        self._server = server_class((host, port), requestHandler=handler_class, logRequests=False,
                                    allow_none=False, encoding="utf-8", use_builtin_types=True)
        reference = ReferenceBench()
        for operation in OPERATIONS:
            if not operation.is_stream:
                self._server.register_function(_handler(operation, reference), operation.name)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.2,), name="xmlrpc-accept",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def start(options) -> XmlRpcServer:
    return XmlRpcServer(options.host, options.port, options.registered.gzip())
