"""The Thrift server: thrift's TThreadedServer (one thread per connection, like the other Python servers
here) with TFramedTransport, the Accelerated binary or compact protocol, TCP_NODELAY on every accepted
socket, answering with ReferenceBench. Nothing is logged per request; errors go to stderr."""
from __future__ import annotations

import functools
import logging
import socket
import threading
import time

from thrift.server.TServer import TThreadedServer
from thrift.Thrift import TApplicationException
from thrift.transport.TSocket import TServerSocket
from thrift.transport.TTransport import TFramedTransportFactory

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.thrift import mapping
from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen import Bench, ttypes
from rpcmatrix.thrift.wire import protocol_factory

_log = logging.getLogger(__name__)


def _faults(method):
    """The contract's BenchError travels as the declared exception (every operation that can raise it, `fail`
    and those taking a count, declares it in bench.thrift). Any other error travels as a
    TApplicationException that says what went wrong (the generated processor would send only "Internal error")."""
    @functools.wraps(method)
    def answer(*args):
        try:
            return method(*args)
        except mapping.CarriageError as e:  # such as a float32 argument that is not one
            raise TApplicationException(TApplicationException.PROTOCOL_ERROR, str(e)) from None
        except BenchError as e:
            raise ttypes.BenchError(code=e.code, message=e.message) from None
        except Exception as e:
            raise TApplicationException(TApplicationException.INTERNAL_ERROR, f"{type(e).__name__}: {e}") from None
    return answer


class BenchHandler(Bench.Iface):
    """The generated service interface (the IDL's names), answered by the contract's reference."""

    def __init__(self, reference: ReferenceBench):
        self._reference = reference

    @_faults
    def ping(self):
        self._reference.ping()

    @_faults
    def echoBool(self, value):
        return self._reference.echo_bool(value)

    @_faults
    def echoInt8(self, value):
        return self._reference.echo_int8(value)

    @_faults
    def echoInt16(self, value):
        return self._reference.echo_int16(value)

    @_faults
    def echoInt32(self, value):
        return self._reference.echo_int32(value)

    @_faults
    def echoInt64(self, value):
        return self._reference.echo_int64(value)

    @_faults
    def echoFloat32(self, value):
        return self._reference.echo_float32(mapping.float32(value, "echoFloat32 value"))

    @_faults
    def echoFloat64(self, value):
        return self._reference.echo_float64(value)

    @_faults
    def echoString(self, value):
        return self._reference.echo_string(value)

    @_faults
    def echoBytes(self, value):
        return self._reference.echo_bytes(value)

    @_faults
    def isPrime(self, n):
        return self._reference.is_prime(n)

    @_faults
    def average(self, values):
        return self._reference.average(values)

    @_faults
    def randomDoubles(self, count, seed):
        return self._reference.random_doubles(count, seed)

    @_faults
    def logTransform(self, values):
        return self._reference.log_transform(values)

    @_faults
    def getRecord(self, key):
        return mapping.record_to_thrift(self._reference.get_record(key))

    @_faults
    def searchBooks(self, query, count):
        return [mapping.book_to_thrift(b) for b in self._reference.search_books(query, count)]

    @_faults
    def getItems(self, count):
        return [mapping.item_to_thrift(i) for i in self._reference.get_items(count)]

    @_faults
    def fail(self, code, message):
        self._reference.fail(code, message)


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
        processor = Bench.Processor(BenchHandler(ReferenceBench()))
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
    return ThriftServer(options.host, options.port, options.wire)
