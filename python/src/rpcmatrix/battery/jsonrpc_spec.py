"""JSON-RPC 2.0's specification cases (jsonrpc.org/specification, "Examples"): a parse error, an invalid
request, an empty batch, a batch of invalid requests, an unknown method, a request with "jsonrpc": "1.0".
Each must come back as the error the specification names; the outcome is refused when all did, else
"answered" with the cases that did not."""
from __future__ import annotations

import json

from rpcmatrix.battery import documents
from rpcmatrix.battery.target import Target

CASES = [
    ("parse error", b'{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]', -32700),
    ("invalid request", b'{"jsonrpc": "2.0", "method": 1, "params": "bar"}', -32600),
    ("empty batch", b"[]", -32600),
    ("batch of invalid", b"[1, 2]", -32600),
    ("unknown method", b'{"jsonrpc": "2.0", "method": "noSuchMethod", "id": 7}', -32601),
    ("version 1.0", b'{"jsonrpc": "1.0", "method": "ping", "id": 8}', -32600),
]


def codes(body: bytes) -> list:
    try:
        parsed = json.loads(body)
    except ValueError:
        return []
    items = parsed if isinstance(parsed, list) else [parsed]
    return [item.get("error", {}).get("code") for item in items if isinstance(item, dict)]


def run(target: Target) -> dict:
    wrong = []
    for name, body, code in CASES:
        seen = documents.post(target, body, seconds=3.0)
        got = codes(documents.body_of(seen))
        if code not in got:
            status = seen.data.split(b"\r\n")[0].decode("latin-1") if seen.data else seen.state
            wrong.append(f"{name}: {status} {documents.body_of(seen)[:60].decode('latin-1')} (wanted {code})")
    during = target.served()
    if wrong:
        return {"outcome": "answered", "answer": "; ".join(wrong), "served_during": during}
    return {"outcome": "refused", "answer": f"all {len(CASES)} cases got the specified error",
            "served_during": during}
