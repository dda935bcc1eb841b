"""Truncated frames: a whole frame (its length is right) whose echoString argument declares 1,000 bytes and
holds 10: the decoder must refuse it from inside the frame, not wait for more."""
from __future__ import annotations

from rpcmatrix.battery import frames, wire
from rpcmatrix.battery.target import Target

SECONDS = 3.0


def request(family: str) -> bytes:
    if family == "thrift":
        return frames.frame(frames.thrift_echo_string(1000, b"canary-10b"))
    return frames.frame(frames.rawtcp_echo_string(1000, b"canary-10b"))


def run(target: Target) -> dict:
    with wire.connect(target.host, target.port) as sock:
        stopped = wire.send_all(sock, request(target.family))
        during = target.served()
        seen = wire.read_answer(sock, SECONDS)
    outcome = wire.judge(seen)
    if outcome == "refused" and target.family == "rawtcp" and seen.data[4:5] == b"\x00":
        outcome = "answered"
    return {"outcome": outcome, "answer": seen.excerpt() or (stopped or seen.state), "served_during": during}
