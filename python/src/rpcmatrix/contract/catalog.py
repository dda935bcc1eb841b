"""Loading the conformance vectors, the workloads and the protocol limits from the idl/ folder."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rpcmatrix.contract.operations import BY_NAME, Operation


@dataclass(frozen=True)
class Vector:
    id: str
    operation: Operation
    args: list  # as written in the JSON file; decode with values.decode_args
    expect: str | None = None  # None: an echo of the first argument; "contract": the reference's answer
    expect_error: dict | None = None  # {"code": int, "message": str}
    tags: tuple[str, ...] = ()
    protocols: tuple[str, ...] | None = None

    def belongs_to(self, protocol: str) -> bool:
        return self.protocols is None or protocol in self.protocols


@dataclass(frozen=True)
class Workload:
    name: str
    operation: Operation
    args: list
    size: str
    protocols: tuple[str, ...] | None = None


def _read(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _operation(name: str, where: str) -> Operation:
    if name not in BY_NAME:
        raise ValueError(f"{where}: unknown operation {name!r}")
    return BY_NAME[name]


def _tuple_or_none(values: list | None) -> tuple[str, ...] | None:
    return tuple(values) if values is not None else None


def load_vectors(idl: Path) -> list[Vector]:
    return [
        Vector(
            id=v["id"],
            operation=_operation(v["op"], f"vector {v['id']}"),
            args=v["args"],
            expect=v.get("expect"),
            expect_error=v.get("expect_error"),
            tags=tuple(v.get("tags", ())),
            protocols=_tuple_or_none(v.get("protocols")),
        )
        for v in _read(Path(idl) / "vectors.json")["vectors"]
    ]


def load_workloads(idl: Path) -> dict[str, Workload]:
    return {
        w["name"]: Workload(
            name=w["name"],
            operation=_operation(w["op"], f"workload {w['name']}"),
            args=w["args"],
            size=w["size"],
            protocols=_tuple_or_none(w.get("protocols")),
        )
        for w in _read(Path(idl) / "workloads.json")["workloads"]
    }


def load_limits(idl: Path, protocol: str) -> dict[str, str]:
    """Vector tag -> the reason that protocol cannot carry such vectors (empty for an unknown protocol)."""
    return dict(_read(Path(idl) / "protocol-limits.json")["limits"].get(protocol, {}))
