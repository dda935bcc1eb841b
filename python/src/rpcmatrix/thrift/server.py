"""The Thrift server: thrift's TThreadedServer (one thread per connection, like the other Python servers
here) with TFramedTransport, the Accelerated binary or compact protocol, TCP_NODELAY on every accepted
socket, answering with ReferenceBench through
the operation table (table.py). Nothing is logged per request; errors go to stderr."""
from __future__ import annotations

import logging
import socket
import threading
import time

from thrift.server.TServer import TThreadedServer
from thrift.Thrift import TApplicationException
from thrift.transport.TSocket import TServerSocket
from thrift.transport.TTransport import TFramedTransportFactory

from rpcmatrix.contract import injected_spin
from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.thrift import mapping
from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen import Bench, ttypes
from rpcmatrix.thrift.table import MAPPINGS, Mapping
from rpcmatrix.thrift.wire import encoding_of, protocol_factory

_log = logging.getLogger(__name__)


def _fault(e: Exception) -> Exception:
    """What a handler raises for `e`. The contract's BenchError travels as the declared exception (every
    operation that can raise it, `fail` and those taking a count, declares it in bench.thrift). Any other
    error travels as a TApplicationException that says what went wrong (the generated processor would send
    only "Internal error")."""
    if isinstance(e, mapping.CarriageError):  # such as a float32 argument that is not one
        return TApplicationException(TApplicationException.PROTOCOL_ERROR, str(e))
    if isinstance(e, BenchError):
        return ttypes.BenchError(code=e.code, message=e.message)
    return TApplicationException(TApplicationException.INTERNAL_ERROR, f"{type(e).__name__}: {e}")


def _handler(entry: Mapping, method):
    """The handler of one operation: `method` of the reference between the entry's conversions, made once
    per shape so that an identity conversion costs no call."""
    arguments, response = entry.arguments, entry.response
    if arguments is None and response is None:
        def handle(*args):
            try:
                return method(*args)
            except Exception as e:
                raise _fault(e) from None
    elif arguments is None:
        def handle(*args):
            try:
                return response(method(*args))
            except Exception as e:
                raise _fault(e) from None
    elif response is None:
        def handle(*args):
            try:
                return method(*arguments(*args))
            except Exception as e:
                raise _fault(e) from None
    else:
        def handle(*args):
            try:
                return response(method(*arguments(*args)))
            except Exception as e:
                raise _fault(e) from None
    handle.__name__ = entry.operation.name
    return handle


class BenchHandler(Bench.Iface):
    """The generated service interface (the IDL's names), answered by the contract's reference: one handler
    per operation of the table, bound at construction."""

    def __init__(self, reference: ReferenceBench):
        self._reference = reference
        for entry in MAPPINGS:
            setattr(self, entry.operation.name, _handler(entry, getattr(reference, entry.operation.method)))


class NoDelayServerSocket(TServerSocket):
    """thrift's TServerSocket leaves Nagle's algorithm on for accepted sockets: turn it off."""

    def accept(self):
        client = super().accept()
        client.handle.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return client

    def interrupt(self) -> None:
        """Wakes a thread blocked in accept() (closing alone does not, on Linux), then closes."""
        try:
            self.handle.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.close()


class _StoppableThreadedServer(TThreadedServer):
    """TThreadedServer whose accept loop ends on stop(): the library's loop never ends, and after the
    listener is closed it would log an error for every failed accept, forever."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._stopping = threading.Event()

    def serve(self):  # the listener is already listening: start() needed its port
        while not self._stopping.is_set():
            try:
                client = self.serverTransport.accept()
            except OSError:
                if self._stopping.is_set():
                    return
                _log.exception("accept failed")  # such as too many open files: keep serving the others
                time.sleep(0.1)
                continue
            threading.Thread(target=self.handle, args=(client,), name="thrift-connection",
                             daemon=self.daemon).start()

    def stop(self) -> None:
        self._stopping.set()
        self.serverTransport.interrupt()


class ThriftServer:
    def __init__(self, host: str, port: int, wire: str):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = NoDelayServerSocket(host=host, port=port, socket_family=family)
        listener.listen()
        self.port = listener.handle.getsockname()[1]
        processor = Bench.Processor(BenchHandler(injected_spin.served()))
        factory = protocol_factory(wire)
        # daemon connection threads: a client that stays connected does not hold the process after stop()
        self._server = _StoppableThreadedServer(processor, listener, TFramedTransportFactory(), factory,
                                                daemon=True)
        self._thread = threading.Thread(target=self._server.serve, name="thrift-accept", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.stop()
        self._thread.join(timeout=2.0)


def start(options) -> ThriftServer:
    return ThriftServer(options.host, options.port, encoding_of(options))
