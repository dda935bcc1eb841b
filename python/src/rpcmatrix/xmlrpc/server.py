"""The XML-RPC server: SimpleXMLRPCServer with a thread per connection, HTTP/1.1 keep-alive, TCP_NODELAY,
no request logging, answering at /RPC2 with ReferenceBench. The library reads gzip requests always; it
gzips answers only in the gzip variant (encode_threshold 0, to a client that accepts gzip)."""
from __future__ import annotations

import io
import socket
import socketserver
import threading
from xmlrpc.client import Fault, dumps, getparser
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import OPERATIONS, Operation
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.httphost.http_server import MAX_BODY_BYTES, read_body
from rpcmatrix.xmlrpc.mapping import PATH, escape_carriage_returns, from_wire, to_wire

# Fault codes of the XML-RPC fault code conventions (specs.xmlrpc.com, "fault code interoperability"), as the
# Java and .NET servers answer them; the standard library answers 1 for all of them.
PARSE_ERROR = -32700
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603


class _RequestHandler(SimpleXMLRPCRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one connection per client for all its calls
    disable_nagle_algorithm = True  # TCP_NODELAY
    rpc_paths = (PATH,)
    encode_threshold = None  # no gzip answers unless the protocol is the gzip variant (see XmlRpcServer)

    def do_POST(self):
        """A body declared over the contract's limit is refused before it is read (the library takes any). The
        body is read here, at most 4 MiB reserved before its bytes arrive (read_body): the library reads in
        chunks of 10 MiB, each allocated whole first (a local of its do_POST, no attribute to set), over the
        contract's budget for a declared size. The library then reads the body from memory."""
        length = self.headers.get("Content-Length", "")
        if not length.isdigit() or int(length) > MAX_BODY_BYTES:
            self.close_connection = True
            self.send_response(413)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = read_body(self.rfile, int(length))
        if body is None:  # the peer went away mid-body
            self.close_connection = True
            return
        connection_stream, self.rfile = self.rfile, io.BytesIO(body)
        try:
            super().do_POST()
        finally:
            self.rfile = connection_stream


def _loads_without_doctype(data: bytes, use_builtin_types: bool) -> tuple:
    """xmlrpc.client.loads, refusing a DOCTYPE as the Java and .NET servers do: XML-RPC has none, and with
    one expat would expand internal entities (100,000 copies in the battery's entity-expansion) and read
    past a declared external subset. The handler is set on expat itself, so no encoding of the document
    hides the declaration from it."""
    parser, unmarshaller = getparser(use_builtin_types=use_builtin_types)

    def refuse(*_):
        raise ValueError("a DOCTYPE is not allowed in an XML-RPC call")

    parser._parser.StartDoctypeDeclHandler = refuse  # the library's ExpatParser wraps a pyexpat parser
    parser.feed(data)
    parser.close()
    return unmarshaller.close(), unmarshaller.getmethodname()


class _ThreadingXMLRPCServer(socketserver.ThreadingMixIn, SimpleXMLRPCServer):
    daemon_threads = True  # kept-alive connections do not hold the process after stop()
    allow_reuse_address = True
    request_queue_size = 128  # socketserver's 5 drops a burst of connections' SYNs (rpcmatrix.rawtcp.server)

    def _marshaled_dispatch(self, data, dispatch_method=None, path=None):
        """As the library's, with the conventional fault codes instead of 1 for a document that is not a
        methodCall, an unknown method and an unexpected error."""
        try:
            params, method = _loads_without_doctype(data, self.use_builtin_types)
        except Exception as error:  # expat's, or the library's for a document that is not a call
            return self._fault(Fault(PARSE_ERROR, f"parse error: not a methodCall ({error})"))
        try:
            response = dumps((self._dispatch(method, params),), methodresponse=True, allow_none=self.allow_none,
                             encoding=self.encoding)
        except Fault as fault:
            return self._fault(fault)
        except Exception as error:
            return self._fault(Fault(INTERNAL_ERROR, f"{type(error).__name__}: {error}"))
        return escape_carriage_returns(response.encode(self.encoding, "xmlcharrefreplace"))

    def _dispatch(self, method, params):
        if method not in self.funcs:
            raise Fault(METHOD_NOT_FOUND, f"no such method: {method}")
        return self.funcs[method](*params)

    def _fault(self, fault: Fault) -> bytes:
        text = dumps(fault, allow_none=self.allow_none, encoding=self.encoding)
        return escape_carriage_returns(text.encode(self.encoding, "xmlcharrefreplace"))


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
            args = [convert(value) for convert, value in zip(converters, params, strict=True)]
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
        reference = injected_spin.served()
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
