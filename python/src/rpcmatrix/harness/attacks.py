"""Attack vectors (CONTRACT.md#vectors): the client makes a call with a defect on purpose; the vector passes
when the server refuses it and still answers a correct ping on a new connection afterwards.

A client adapter that can make such calls is an AttackClient. The harness knows no attack: the adapter
knows how to build each defect on its own wire, and names what it saw when the server refused."""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from rpcmatrix.contract.catalog import Vector
from rpcmatrix.contract.operations import Operation
from rpcmatrix.contract.values import decode_args


@runtime_checkable
class AttackClient(Protocol):
    def attack(self, attack: str, operation: Operation, args: list) -> str | None:
        """Makes the call `operation(*args)` with the defect `attack` (a vector's "attack", such as
        "expired-timestamp"). Returns the refusal seen (a fault, a closed connection...), or None when
        the server answered the call as if nothing were wrong. Raises when the attack cannot be made."""

    def ping_after_attack(self) -> None:
        """A correct ping on a new connection; raises when the server no longer serves."""


def attack_outcome(client: object, vector: Vector) -> dict:
    """{"status", "reason"} of one attack vector; the registry check (needs) is the caller's."""
    if not isinstance(client, AttackClient):
        return _status("error", "the client implements no attacks")
    try:
        args = decode_args(vector.operation, vector.args)
    except Exception as e:
        return _status("error", f"cannot build the vector: {type(e).__name__}: {e}")
    try:
        refusal = client.attack(vector.attack, vector.operation, args)
    except Exception as e:  # the client could not even make the defective call: its own error
        return _status("error", f"cannot make the attack {vector.attack!r}: {type(e).__name__}: {e}")
    if refusal is None:
        return _status("fail", "the server answered the defective call")
    try:
        client.ping_after_attack()
    except Exception as e:
        return _status("fail", f"refused ({refusal}), but then stopped serving: {type(e).__name__}: {e}")
    return _status("pass", refusal)


def _status(status: str, reason: str = "") -> dict:
    return {"status": status, "reason": reason}
