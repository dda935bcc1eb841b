"""The XML-RPC client: xmlrpc.client.ServerProxy over one persistent HTTP/1.1 connection (http.client
sets TCP_NODELAY), calling /RPC2 with the contract's operation names. The gzip variant uses the library's
own compression: Transport.encode_threshold (0: every request body) and accept_gzip_encoding. With HTTP_PROXY
(--proxy http) the transport connects to the proxy and names the server in the request line (httphost.proxy)."""
from __future__ import annotations

import xmlrpc.client

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import Operation
from rpcmatrix.harness.generic_client import GenericClient
from rpcmatrix.httphost import proxy
from rpcmatrix.xmlrpc.mapping import PATH, escape_carriage_returns, from_wire, to_wire


class _Transport(xmlrpc.client.Transport):
    def __init__(self, gzip: bool, via: tuple[str, int] | None = None):
        super().__init__(use_builtin_types=True)
        self._via = proxy.authority(*via) if via else None
        # Off unless the protocol is the gzip variant: the library's default would ask for gzip answers.
        self.accept_gzip_encoding = gzip
        self.encode_threshold = 0 if gzip else None  # the library's own default threshold is 1,400 bytes

    def send_request(self, host, handler, request_body, debug):
        if self._via is None:
            return super().send_request(host, handler, request_body, debug)
        if self._connection[1] is not None:  # the proxy may have closed it after its last answer
            proxy.reopen_if_dropped(self._connection[1])
        return super().send_request(self._via, f"http://{host}{handler}", request_body, debug)

    def send_content(self, connection, request_body):
        super().send_content(connection, escape_carriage_returns(request_body))


class XmlRpcClient(GenericClient):
    def __init__(self, host: str, port: int, gzip: bool = False):
        self._transport = _Transport(gzip, proxy.proxy_for(host))
        url = f"http://{proxy.authority(host, port)}{PATH}"
        self._server = xmlrpc.client.ServerProxy(url, transport=self._transport, allow_none=False,
                                                 use_builtin_types=True)

    def call(self, operation: Operation, args: tuple) -> object:
        wire_args = [to_wire(p.type)(arg) for p, arg in zip(operation.params, args, strict=True)]
        try:
            result = getattr(self._server, operation.name)(*wire_args)
        except xmlrpc.client.Fault as fault:
            raise BenchError(fault.faultCode, fault.faultString) from None
        return from_wire(operation.returns)(result)

    def close(self) -> None:
        self._transport.close()


def connect(options) -> XmlRpcClient:
    return XmlRpcClient(options.host, options.port, options.registered.gzip())
