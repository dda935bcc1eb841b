"""Half a request that stalls: a request head (or frame header) announcing 1,000 bytes, then only 10 of them;
whether the server answers, closes or holds the connection within 5 s, and serves others meanwhile."""
from __future__ import annotations

import struct

from rpcmatrix.battery import wire
from rpcmatrix.battery.target import Target

SECONDS = 5.0
DECLARED = 1000


def half_request(target: Target) -> bytes:
    if target.family in wire.HTTP:
        return wire.http_head(target.family, target.host, target.port, DECLARED) + b"<?xml vers"
    return struct.pack(">I", DECLARED) + b"\x00\x08" + b"\x00" * 8


def run(target: Target) -> dict:
    with wire.connect(target.host, target.port) as sock:
        stopped = wire.send_all(sock, half_request(target))
        during = target.served()
        seen = wire.read_answer(sock, SECONDS)
    return {"outcome": wire.judge(seen), "answer": seen.excerpt() or (stopped or seen.state),
            "served_during": during}
