"""Huge declared counts inside a small frame: average() with a list of 2^31 - 1 doubles of which 16 are
sent (about 16 GiB declared in a 140-byte frame); a decoder that allocates by the declared count first
runs out of memory."""
from __future__ import annotations

from rpcmatrix.battery import frames, wire
from rpcmatrix.battery.target import Target

SECONDS = 3.0
COUNT = 0x7FFFFFFF


def request(family: str) -> bytes:
    if family == "thrift":
        return frames.frame(frames.thrift_average(COUNT, 16))
    return frames.frame(frames.rawtcp_average(COUNT, 16))


def run(target: Target) -> dict:
    with wire.connect(target.host, target.port) as sock:
        stopped = wire.send_all(sock, request(target.family))
        during = target.served()
        seen = wire.read_answer(sock, SECONDS)
    return {"outcome": wire.judge(seen), "answer": seen.excerpt() or (stopped or seen.state), "served_during": during}
