"""The SOAP server: the spyne service (service.py) as a WSGI application hosted by cheroot, at /bench, with
its WSDL published at /bench?wsdl. HTTP/1.1 keep-alive, TCP_NODELAY (cheroot's default, set on the
listener and inherited by accepted sockets on Linux), no request logging.

Thread model: cheroot's selector thread watches idle connections, new and kept-alive, and hands each request
that arrives to a fixed pool of worker threads; the connection goes back to the selector after the answer.

WS-Security variants put a WSGI middleware (wsse_server.py) in front of the service."""
from __future__ import annotations

import copy
import logging
import os
import threading

from cheroot import wsgi
from lxml import etree
from spyne.protocol.soap import Soap11, Soap12
from spyne.server.wsgi import WsgiApplication

from rpcmatrix.soap.names import PATH
from rpcmatrix.soap.service import application
from rpcmatrix.soap.xsdfloat import xsd_float

# cheroot reads each request on a worker thread: a stalled request holds one until REQUEST_TIMEOUT_S. Sixteen
# (cheroot's default is ten) keep a handful of stalled connections from taking them all; idle ones take none.
WORKERS = max(16, 2 * (os.cpu_count() or 1))

# No per-request logging: spyne logs every Fault it answers (BenchError included) with its traceback.
# Unexpected exceptions in spyne (its "server" logger) still reach stderr.
logging.getLogger("spyne.application").setLevel(logging.CRITICAL)
logging.getLogger("spyne.application.server").setLevel(logging.ERROR)
IDLE_TIMEOUT_S = 600  # a kept-alive connection outlives the pauses between the runner's commands
LISTEN_BACKLOG = 128  # cheroot's 5 made a burst of connections wait for SYN retries (about 1 s each)
REQUEST_TIMEOUT_S = 10  # a worker waits this long, at most, for the rest of a request that has begun


class _XsdFloats:
    """Writes xsd:float and xsd:double as XML Schema spells them (NaN, INF, -INF); spyne writes repr()."""

    def double_to_unicode(self, cls, value, **_):
        return xsd_float(value)

    def double_to_bytes(self, cls, value, **_):
        return xsd_float(value).encode("ascii")


class BenchSoap11(_XsdFloats, Soap11):
    pass


class BenchSoap12(_XsdFloats, Soap12):
    def _fault_to_parent_impl(self, ctx, cls, inst, parent, ns, subelts, **kwargs):
        """spyne's SOAP 1.2 faults take a dict detail only: the BenchError element goes into env:Detail
        here, after Code, Reason and Role, as SOAP 1.2 orders them."""
        detail = inst.detail
        if isinstance(detail, etree._Element):
            wrapper = etree.Element(f"{{{self.ns_soap_env}}}Detail")
            wrapper.append(copy.deepcopy(detail))
            inst.detail = None
            subelts.append(wrapper)
        return super()._fault_to_parent_impl(ctx, cls, inst, parent, ns, subelts, **kwargs)


def protocol_for(version: str):
    """A spyne protocol instance for SOAP `version` ("1.1" or "1.2"). Soft validation: spyne checks each
    value against its type (an xsd:byte out of range is a Client fault), without an lxml schema pass."""
    cls = BenchSoap12 if version == "1.2" else BenchSoap11
    return cls(validator="soft")


MAX_REQUEST_BYTES = 64 * 1024 * 1024  # spyne's default, 2 MiB, refuses the 50k-value vectors


def wsgi_app(version: str):
    return whole_answers(WsgiApplication(application(protocol_for(version), protocol_for(version)),
                                         max_content_length=MAX_REQUEST_BYTES))


def whole_answers(app):
    """The answer as one body with a Content-Length, written at once. spyne yields its answer in pieces
    without a length (cheroot would send it chunked, piece by piece), and its own chunked=False mode
    fails on Python 3 (it joins bytes with a str)."""
    def buffered(environ, start_response):
        answer = {}

        def remember(status, headers, exc_info=None):
            answer["status"], answer["headers"] = status, headers

        body = b"".join(app(environ, remember))
        headers = [(k, v) for k, v in answer["headers"] if k.lower() != "content-length"]
        start_response(answer["status"], headers + [("Content-Length", str(len(body)))])
        return [body]

    return buffered


class _GuardedServer(wsgi.Server):
    """cheroot hands a new connection straight to a worker, which then waits up to its idle timeout for the
    first request: four idle connections held all four workers for ten minutes. Here a new connection waits in
    the selector until it has bytes, as a kept-alive one does, and a worker waits at most REQUEST_TIMEOUT_S for
    the rest of a request (a half-sent request is answered 408 and closed), so neither idle nor stalled
    connections take the workers from the callers that send."""

    def process_conn(self, conn):
        if conn.requests_seen == 0 and not getattr(conn, "waited_for_bytes", False):
            conn.waited_for_bytes = True
            self._connections.put(conn)  # back to the selector until readable (or expired)
            return
        conn.socket.settimeout(REQUEST_TIMEOUT_S)
        super().process_conn(conn)


class SoapServer:
    def __init__(self, host: str, port: int, app):
        self._server = _GuardedServer((host, port), wsgi.PathInfoDispatcher({PATH: app}), numthreads=WORKERS,
                                      request_queue_size=LISTEN_BACKLOG, timeout=IDLE_TIMEOUT_S)
        self._server.prepare()  # binds and listens: accepting from here on
        self.port = self._server.bind_addr[1]
        self.facts = {"http_server": "cheroot", "workers": WORKERS}
        self._thread = threading.Thread(target=self._server.serve, name="soap-serve", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.stop()


def start(options) -> SoapServer:
    variant = options.registered.variant
    version = variant.get("soap", "1.1")
    app = wsgi_app(version)
    if variant.get("security", "none") != "none":
        from rpcmatrix.soap.wsse_server import secured
        app = secured(app, variant["security"], options.secrets, version)
    return SoapServer(options.host, options.port, app)
