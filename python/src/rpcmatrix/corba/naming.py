"""The CORBA naming service of `corba-naming`: Debian's omniNames (package omniorb-nameserver) started as a
child process on a free port, its data under the cell's folder, stopped with the server."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import CosNaming
from omniORB import CORBA

OMNINAMES = "/usr/bin/omniNames"
START_TIMEOUT_S = 10.0


def free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def corbaloc(host: str, port: int) -> str:
    authority = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return f"corbaloc::{authority}/NameService"


class NamingService:
    def __init__(self, orb: CORBA.ORB, host: str, folder: Path):
        if not Path(OMNINAMES).exists():
            raise RuntimeError(f"{OMNINAMES} is missing (Debian package omniorb-nameserver): run runner/setup.sh")
        data = folder / "naming"
        data.mkdir(parents=True, exist_ok=True)
        self.port = free_port(host)
        self._process = subprocess.Popen(
            [OMNINAMES, "-start", str(self.port), "-always", "-datadir", str(data),
             "-ORBendPoint", f"giop:tcp:{host}:{self.port}", "-ORBtraceLevel", "1"],
            stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr)
        self.context = self._wait(orb, host)

    def _wait(self, orb: CORBA.ORB, host: str):
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(f"omniNames exited with status {self._process.returncode}")
            try:
                context = orb.string_to_object(corbaloc(host, self.port))._narrow(CosNaming.NamingContext)
                if context is not None:
                    return context
            except (CORBA.TRANSIENT, CORBA.COMM_FAILURE, CORBA.OBJECT_NOT_EXIST):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"omniNames did not answer on port {self.port} within {START_TIMEOUT_S} s")
            time.sleep(0.05)

    def bind(self, name: str, reference) -> None:
        self.context.rebind([CosNaming.NameComponent(name, "")], reference)

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(2.0)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()


def resolve(orb: CORBA.ORB, host: str, port: int, name: str):
    context = orb.string_to_object(corbaloc(host, port))._narrow(CosNaming.NamingContext)
    return context.resolve([CosNaming.NameComponent(name, "")])
