"""The SOAP client without WS-Security: zeep reading idl/bench.wsdl (SOAP 1.1 or 1.2 binding) over a
requests.Session (one kept-alive HTTP/1.1 connection; urllib3 sets TCP_NODELAY), no logging, no WSDL
fetched from the server. BenchError comes back as a Fault whose detail holds bench.xsd's BenchError.
Through the proxy of HTTP_PROXY (the session reads it, --proxy http), and with --connection per-call
(close_each_connection), a connection per call: see close_after_answer.

The WS-Security client (wsse_client.py) extends it; client.py chooses between the two."""
from __future__ import annotations

import urllib.parse
from pathlib import Path

import requests
import zeep
from zeep.exceptions import Fault
from zeep.transports import Transport

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import Operation
from rpcmatrix.harness.generic_client import GenericClient
from rpcmatrix.httphost.proxy import proxy_for
from rpcmatrix.soap.mapping import from_wire, install_xsd_floats, to_wire
from rpcmatrix.soap.names import BINDINGS, TNS

install_xsd_floats()

TIMEOUT_S = 120  # a call that takes longer is broken, not slow (1 MiB values take milliseconds)


def zeep_client(idl: Path, session: requests.Session | None = None, wsse=None) -> zeep.Client:
    # strict parsing as zeep's default; xml_huge_tree lets 1 MiB text nodes through libxml2's limits.
    settings = zeep.Settings(strict=True, xml_huge_tree=True)
    transport = Transport(session=session or requests.Session(), timeout=TIMEOUT_S, operation_timeout=TIMEOUT_S)
    return zeep.Client(str(Path(idl) / "bench.wsdl"), transport=transport, settings=settings, wsse=wsse)


def close_after_answer(response: requests.Response, *args, **kwargs) -> requests.Response:
    """A response hook: reads the answer, then closes its connection. tinyproxy 1.11 closes each client connection
    after its answer but drops the server's Connection: close from it, and its close came about 1 ms after the answer
    (captured: soap11 python→java): a call made within that ms went out on the kept connection and was lost
    (RemoteDisconnected). urllib3 opens a new connection for the next call, as the proxy makes it do anyway."""
    connection = response.raw.connection
    _ = response.content  # the whole answer first: the connection goes back to the pool
    if connection is not None:
        connection.close()
    return response


def bench_error_of(fault: Fault) -> BenchError | None:
    """The contract's BenchError carried in the fault's detail, or None when the fault is another one."""
    detail = fault.detail
    error = detail.find(f"{{{TNS}}}BenchError") if detail is not None else None
    if error is None:
        return None
    return BenchError(int(error.findtext(f"{{{TNS}}}code")), error.findtext(f"{{{TNS}}}message") or "")


class SoapClient(GenericClient):
    def __init__(self, idl: Path, version: str, url: str, wsse=None):
        self.session = requests.Session()
        if proxy_for(urllib.parse.urlsplit(url).hostname) is not None:
            self.session.hooks["response"].append(close_after_answer)
        self.client = zeep_client(idl, self.session, wsse)
        self.service = self.client.create_service(BINDINGS[version], url)
        self.url = url
        self.facts = {"soap": version, "http_client": f"requests {requests.__version__}"}

    def close_each_connection(self) -> None:
        """--connection per-call: the client zeep built from the WSDL kept, each call on a new connection, closed
        after its answer (close_after_answer); the connection kept so far (the connect's, the vectors') closed now."""
        if close_after_answer not in self.session.hooks["response"]:
            self.session.hooks["response"].append(close_after_answer)
        self.session.close()  # its pools emptied; the session makes new connections as before

    def published_metadata(self) -> dict:
        """Can zeep build a client from the WSDL this server publishes (`?wsdl`)? The calls use idl/."""
        from rpcmatrix.soap.wsdl_check import check_wsdl
        found = check_wsdl(self.url + "?wsdl")
        return {"consumable": found["ok"], "reason": found["reason"]}

    def call(self, operation: Operation, args: tuple) -> object:
        kwargs = {p.name: to_wire(p.type)(arg) for p, arg in zip(operation.params, args, strict=True)}
        try:
            result = self.service[operation.name](**kwargs)
        except Fault as fault:
            error = bench_error_of(fault)
            if error is None:
                raise
            raise error from None
        return from_wire(operation.returns)(result)

    def close(self) -> None:
        self.session.close()
