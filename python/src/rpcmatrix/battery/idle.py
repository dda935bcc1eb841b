"""Many idle connections: 64 connections opened and left silent for 3 s; how many the server still holds,
and whether a 65th client is served meanwhile."""
from __future__ import annotations

import select
import time

from rpcmatrix.battery import wire
from rpcmatrix.battery.target import Target

CONNECTIONS = 64
SECONDS = 3.0


def run(target: Target) -> dict:
    socks, refused = [], 0
    started = time.monotonic()
    try:
        for _ in range(CONNECTIONS):
            try:
                socks.append(wire.connect(target.host, target.port, timeout=2.0))
            except OSError:
                refused += 1
        during = target.served()
        time.sleep(max(0.0, started + SECONDS - time.monotonic()))
        closed = 0
        for sock in socks:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                try:
                    if not sock.recv(1, 0):
                        closed += 1
                except OSError:
                    closed += 1
    finally:
        for sock in socks:
            sock.close()
    held = len(socks) - closed
    if held == CONNECTIONS:
        outcome = "held"
    elif held == 0:
        outcome = "closed"
    else:
        outcome = "held"  # some held: the answer says how many
    answer = f"{held} of {CONNECTIONS} held after {SECONDS:.0f} s, {closed} closed, {refused} not accepted"
    return {"outcome": outcome, "answer": answer, "served_during": during}
