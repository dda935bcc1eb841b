"""Loading the protocol registry, the conformance vectors and the workloads from the idl/ folder.

A vector or workload is unsupported on a protocol when a capability it needs (its own `needs` and its
operation's) is among the protocol's `lacks` in idl/protocols.json; the reason is the registry's text."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rpcmatrix.contract.operations import BY_NAME, Operation


class UnknownProtocol(ValueError):
    """A protocol name that idl/protocols.json does not register."""

    def __init__(self, name: str):
        super().__init__(f"protocol '{name}' is not in idl/protocols.json")


@dataclass(frozen=True)
class Protocol:
    name: str
    family: str
    variant: dict
    has: tuple[str, ...]
    lacks: dict  # capability -> the reason the protocol lacks it

    def gzip(self) -> bool:
        """True for a gzip variant ({"compression": "gzip"}: every body compressed both ways), False for none."""
        compression = self.variant.get("compression", "none")
        if compression not in ("none", "gzip"):
            raise ValueError(f"protocol '{self.name}': unknown compression {compression!r}")
        return compression == "gzip"

    def unsupported_reason(self, needs: tuple[str, ...]) -> str | None:
        """The registry's reason when this protocol lacks one of `needs`, None when it has them all."""
        for capability in needs:
            if capability in self.lacks:
                return self.lacks[capability]
        return None


@dataclass(frozen=True)
class Vector:
    id: str
    operation: Operation | None  # None for a session vector
    args: list  # as written in the JSON file; decode with values.decode_args
    expect: str | None = None  # None: an echo of the first argument; "contract": the reference's answer
    expect_error: dict | None = None  # {"code": int, "message": str}
    own_needs: tuple[str, ...] = ()
    session: str | None = None  # "calculator": a script on remote objects (CONTRACT.md#vectors)
    script: str | None = None
    attack: str | None = None  # a defect the server must refuse (CONTRACT.md#vectors)

    @property
    def needs(self) -> tuple[str, ...]:
        return self.own_needs + (self.operation.needs if self.operation else ())


@dataclass(frozen=True)
class Workload:
    name: str
    operation: Operation | None  # None for a session workload
    args: list
    size: str
    headline: bool = False
    own_needs: tuple[str, ...] = ()
    session: str | None = None  # "calculator": one session per call (CONTRACT.md#objects)

    @property
    def needs(self) -> tuple[str, ...]:
        return self.own_needs + (self.operation.needs if self.operation else ())


def _read(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _operation(entry: dict, where: str) -> Operation | None:
    """The entry's operation; None for a session entry, which names a session instead."""
    name = entry.get("op")
    if name is None:
        if "session" in entry:
            return None
        raise ValueError(f"{where}: no operation")
    if name not in BY_NAME:
        raise ValueError(f"{where}: unknown operation {name!r}")
    return BY_NAME[name]


def load_protocols(idl: Path) -> dict[str, Protocol]:
    return {
        name: Protocol(name=name, family=p["family"], variant=dict(p.get("variant", {})),
                       has=tuple(p.get("has", ())), lacks=dict(p.get("lacks", {})))
        for name, p in _read(Path(idl) / "protocols.json")["protocols"].items()
    }


def load_protocol(idl: Path, name: str) -> Protocol:
    """The registered protocol `name`; UnknownProtocol when the registry does not have it."""
    protocols = load_protocols(idl)
    if name not in protocols:
        raise UnknownProtocol(name)
    return protocols[name]


def load_vectors(idl: Path) -> list[Vector]:
    return [
        Vector(
            id=v["id"],
            operation=_operation(v, f"vector {v['id']}"),
            args=v.get("args", []),
            expect=v.get("expect"),
            expect_error=v.get("expect_error"),
            own_needs=tuple(v.get("needs", ())),
            session=v.get("session"),
            script=v.get("script"),
            attack=v.get("attack"),
        )
        for v in _read(Path(idl) / "vectors.json")["vectors"]
    ]


def load_workloads(idl: Path) -> dict[str, Workload]:
    return {
        w["name"]: Workload(
            name=w["name"],
            operation=_operation(w, f"workload {w['name']}"),
            args=w["args"],
            size=w["size"],
            headline=bool(w.get("headline", False)),
            own_needs=tuple(w.get("needs", ())),
            session=w.get("session"),
        )
        for w in _read(Path(idl) / "workloads.json")["workloads"]
    }
