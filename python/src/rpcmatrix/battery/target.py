"""The server under attack: its protocol (and family), address, process group and the ping of a valid
client."""
from __future__ import annotations

from dataclasses import dataclass

from rpcmatrix.battery.ping import Pinger


@dataclass
class Target:
    protocol: str
    family: str
    host: str
    port: int
    pid: int
    pinger: Pinger

    def served(self) -> dict:
        ok, reason = self.pinger.ping()
        return {"ok": ok, "reason": reason}
