"""A declared length of about 4 GB: an HTTP Content-Length of 4,294,967,296, or a frame header of
0xFFFFFFF0 bytes (0x7FFFFFF0 for Thrift, whose frame size is a signed i32), followed by 1 KiB only; whether
the server refuses at once, closes, or waits (holds) within 3 s."""
from __future__ import annotations

import struct

from rpcmatrix.battery import wire
from rpcmatrix.battery.target import Target

SECONDS = 3.0
HTTP_LENGTH = 4 * 1024 ** 3


def request(target: Target) -> bytes:
    body = b"<" * 1024
    if target.family in wire.HTTP:
        return wire.http_head(target.family, target.host, target.port, HTTP_LENGTH) + body
    declared = 0x7FFFFFF0 if target.family == "thrift" else 0xFFFFFFF0
    return struct.pack(">I", declared) + body


def run(target: Target) -> dict:
    with wire.connect(target.host, target.port) as sock:
        stopped = wire.send_all(sock, request(target))
        during = target.served()
        seen = wire.read_answer(sock, SECONDS)
    return {"outcome": wire.judge(seen), "answer": seen.excerpt() or (stopped or seen.state),
            "served_during": during}
