"""The CORBA client: omniORB's ORB and the generated stubs. `corba-ior` reads the stringified IORs the
server left in the cell's folder; `corba-naming` resolves "Bench" and "CalculatorFactory" in the naming
service at corbaloc::HOST:PORT/NameService. Calls run on the caller's thread over one IIOP connection."""
from __future__ import annotations

import threading
from pathlib import Path

from omniORB import CORBA

from rpcmatrix.contract.model import BenchError
from rpcmatrix.contract.operations import Operation
from rpcmatrix.corba import orb as orbs
from rpcmatrix.corba._generated import rpcmatrix as idl
from rpcmatrix.corba.mapping import from_wire, to_wire
from rpcmatrix.corba.naming import resolve
from rpcmatrix.harness.generic_client import GenericClient


class CorbaCalculators:
    """The CalculatorClient of harness/sessions.py: a Calculator reference already has add, clear, total
    and release, so create() hands it over as it is."""

    def __init__(self, factory):
        self._factory = factory

    def create(self):
        return self._factory.create()

    def is_no_such_object(self, error: BaseException) -> bool:
        return isinstance(error, CORBA.OBJECT_NOT_EXIST)


# omniORB opens at most 5 connections to a server by default and queues the calls beyond them; the load command's
# workers (runner/PROTOCOL.md#load) each want a connection of their own.
CLIENT_ARGS = ["-ORBmaxGIOPConnectionPerServer", "128"]


class CorbaClient(GenericClient):
    # ORB_init hands every caller the process's one ORB: the last client to close destroys it (the load command's
    # clients closing destroyed the command loop's ORB under it: ORBHasShutdown on every call after).
    _open = 0
    _count_lock = threading.Lock()

    def __init__(self, options):
        self._orb = orbs.init(CLIENT_ARGS)
        with CorbaClient._count_lock:
            CorbaClient._open += 1
        if options.registered.variant.get("reference") == "naming-service":
            bench = resolve(self._orb, options.host, options.port, "Bench")
            factory = resolve(self._orb, options.host, options.port, "CalculatorFactory")
        else:
            if options.cell is None:
                raise ValueError("--cell (the cell's scratch folder) is required for CORBA")
            bench = self._orb.string_to_object(_read(Path(options.cell) / "bench.ior"))
            factory = self._orb.string_to_object(_read(Path(options.cell) / "calculators.ior"))
        self._bench = bench._narrow(idl.Bench)
        self.calculators = CorbaCalculators(factory._narrow(idl.CalculatorFactory))
        if self._bench is None or self.calculators._factory is None:
            raise RuntimeError("the references are not a Bench and a CalculatorFactory")

    def call(self, operation: Operation, args: tuple) -> object:
        wire_args = [to_wire(p.type)(arg) for p, arg in zip(operation.params, args, strict=True)]
        try:
            result = getattr(self._bench, operation.name)(*wire_args)
        except idl.BenchError as error:
            raise BenchError(error.code, error.message) from None
        return from_wire(operation.returns)(result)

    def close(self) -> None:
        with CorbaClient._count_lock:
            CorbaClient._open -= 1
            last = CorbaClient._open == 0
        if last:
            self._orb.destroy()


def _read(path: Path) -> str:
    return path.read_text().strip()


def connect(options) -> CorbaClient:
    return CorbaClient(options)
