"""Entity expansion ("billion laughs", bounded): five levels of ten references each, 100,000 copies of a
10-byte canary (1 MB) if the parser expands them all. "expanded" when the copies come back."""
from __future__ import annotations

from rpcmatrix.battery import documents
from rpcmatrix.battery.target import Target

LEVELS = 5


def doctype(root: str) -> str:
    entities = ['<!ENTITY e0 "laughcanry">']
    for level in range(1, LEVELS + 1):
        entities.append(f'<!ENTITY e{level} "' + f"&e{level - 1};" * 10 + '">')
    return f"<!DOCTYPE {root} [" + "".join(entities) + "]>"


def run(target: Target) -> dict:
    body = documents.xml_call(target.family, f"&e{LEVELS};", doctype(documents.root_name(target.family)))
    seen = documents.post(target, body)
    during = target.served()
    if b"laughcanrylaughcanry" in seen.data:
        return documents.result(seen, during, "expanded", "the entities were expanded: ")
    return documents.result(seen, during)
