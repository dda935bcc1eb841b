"""Invalid documents: a call cut off in the middle of an element (XML families) or of a JSON object, with a
correct Content-Length: the parser must refuse it."""
from __future__ import annotations

from rpcmatrix.battery import documents
from rpcmatrix.battery.target import Target


def body(family: str) -> bytes:
    if family in documents.XML_FAMILIES:
        whole = documents.xml_call(family, "canary")
        return whole[: len(whole) // 2]
    return b'{"jsonrpc": "2.0", "method": "echoString", "params": ["canary"'


def run(target: Target) -> dict:
    seen = documents.post(target, body(target.family))
    return documents.result(seen, target.served())
