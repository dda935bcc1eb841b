"""A wrong content type: a correct echoString call labelled image/png. "answered" means the server does not
look at the Content-Type (not a fault in itself: the matrix shows who checks)."""
from __future__ import annotations

from rpcmatrix.battery import documents
from rpcmatrix.battery.target import Target


def body(family: str) -> bytes:
    if family in documents.XML_FAMILIES:
        return documents.xml_call(family, "canary")
    return b'{"jsonrpc": "2.0", "method": "echoString", "params": ["canary"], "id": 1}'


def run(target: Target) -> dict:
    seen = documents.post(target, body(target.family), content_type="image/png")
    return documents.result(seen, target.served())
