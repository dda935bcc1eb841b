"""The CORBA server: omniORB's ORB on one endpoint (giop:tcp:HOST:PORT, port 0: the system chooses), the
Bench and CalculatorFactory servants on the root POA. `corba-ior` writes their stringified IORs to the
cell's folder; `corba-naming` binds them in a naming service it starts, whose port is the ready port."""
from __future__ import annotations

import os
from pathlib import Path

from omniORB import PortableServer  # noqa: F401  (loads the POA module into omniORBpy)

from rpcmatrix.corba import orb as orbs
from rpcmatrix.corba.naming import NamingService
from rpcmatrix.corba.servants import BenchServant, CalculatorFactoryServant


def _write_atomically(path: Path, text: str) -> None:
    """A client polling for the file never reads half of it: write a temporary name, then rename."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(text + "\n")
    os.replace(temporary, path)


class CorbaServer:
    def __init__(self, options):
        host = options.host
        authority = f"[{host}]" if ":" in host else host
        self._orb = orbs.init(["-ORBendPoint", f"giop:tcp:{authority}:{options.port}"])
        self._naming = None
        poa = self._orb.resolve_initial_references("RootPOA")
        bench = poa.servant_to_reference(BenchServant())
        calculators = poa.servant_to_reference(CalculatorFactoryServant(poa))
        poa._get_the_POAManager().activate()
        bench_ior = self._orb.object_to_string(bench)
        self.facts = {"orb": "omniORB 4.3 (omniORBpy)"}
        if options.registered.variant.get("reference") == "naming-service":
            self._naming = NamingService(self._orb, host, _cell(options))
            self._naming.bind("Bench", bench)
            self._naming.bind("CalculatorFactory", calculators)
            self.port = self._naming.port
        else:
            folder = _cell(options)
            _write_atomically(folder / "bench.ior", bench_ior)
            _write_atomically(folder / "calculators.ior", self._orb.object_to_string(calculators))
            self.port = orbs.iiop_port(bench_ior)
        # omniORB serves calls on its own threads once the POA manager is active: orb.run() is not needed.

    def stop(self) -> None:
        if self._naming is not None:
            self._naming.stop()
        self._orb.shutdown(True)


def _cell(options) -> Path:
    if options.cell is None:
        raise ValueError("--cell (the cell's scratch folder) is required for CORBA")
    folder = Path(options.cell)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def start(options) -> CorbaServer:
    return CorbaServer(options)
