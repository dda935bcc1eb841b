"""64 KiB of random bytes (a fixed seed: the same bytes every run) on a new connection, in place of a
request; what the server does with them within 3 s."""
from __future__ import annotations

import random

from rpcmatrix.battery import wire
from rpcmatrix.battery.target import Target

SIZE = 64 * 1024
SECONDS = 3.0


def run(target: Target) -> dict:
    data = random.Random(23).randbytes(SIZE)
    with wire.connect(target.host, target.port) as sock:
        stopped = wire.send_all(sock, data)
        during = target.served()
        seen = wire.read_answer(sock, SECONDS)
    outcome = wire.judge(seen)
    return {"outcome": outcome, "answer": seen.excerpt() or (stopped or seen.state), "served_during": during}
