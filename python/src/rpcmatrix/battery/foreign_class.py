"""Foreign classes in Hessian and Burlap: echoString called with an object of a class the contract does not
have: java.util.concurrent.atomic.AtomicLong (harmless, present in every JVM) and a class that exists
nowhere. "answered" would mean the server instantiated it and went on; the servers load only the contract's
structs (an allow-list), so each must refuse."""
from __future__ import annotations

import struct

from rpcmatrix.battery import documents, wire
from rpcmatrix.battery.target import Target

CLASSES = ("java.util.concurrent.atomic.AtomicLong", "org.rpcmatrix.canary.NoSuchClass")


def hessian1_call(class_name: str) -> bytes:
    """Hessian 1.0: c 1 0, m echoString, a typed map {value: 7}, z."""
    name = b"echoString"
    typed = class_name.encode()
    return (b"c\x01\x00" + b"m" + struct.pack(">H", len(name)) + name
            + b"M" + b"t" + struct.pack(">H", len(typed)) + typed
            + b"S\x00\x05value" + b"I" + struct.pack(">i", 7) + b"z" + b"z")


def burlap_call(class_name: str) -> bytes:
    return (f"<burlap:call><method>echoString</method><map><type>{class_name}</type>"
            "<string>value</string><int>7</int></map></burlap:call>").encode()


def run(target: Target) -> dict:
    outcomes, answers = [], []
    for class_name in CLASSES:
        body = burlap_call(class_name) if target.family == "burlap" else hessian1_call(class_name)
        seen = documents.post(target, body)
        outcome = wire.judge(seen)
        payload = documents.body_of(seen)
        if seen.data and (b"ClassNotFound" in payload or b"not allowed" in payload or b"fault" in payload
                          or payload[3:4] in (b"f", b"F") or b"Fault" in payload):
            outcome = "refused"
        outcomes.append(outcome)
        answers.append(f"{class_name.rsplit('.', 1)[1]}: {outcome} {seen.excerpt()[-100:]}")
    during = target.served()
    worst = "answered" if "answered" in outcomes else outcomes[0]
    return {"outcome": worst, "answer": " | ".join(answers), "served_during": during}
