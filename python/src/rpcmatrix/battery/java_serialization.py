"""Foreign classes in Java serialization (HttpInvoker): in place of a RemoteInvocation, a serialized
java.util.concurrent.atomic.AtomicLong (a harmless class every JVM has), then an object of a class that
exists nowhere. A server with an allow-list rejects both before making an object: "instantiated" when the
answer shows the AtomicLong was made and only then failed to be a RemoteInvocation (ClassCastException)."""
from __future__ import annotations

import struct

from rpcmatrix.battery import documents, wire
from rpcmatrix.battery.target import Target

# (class, serialVersionUID, superclass or None); AtomicLong extends Number, both Serializable.
ATOMIC_LONG = ("java.util.concurrent.atomic.AtomicLong", 1927816293512124184,
               ("java.lang.Number", -8742448824652078965))
NO_SUCH = ("org.rpcmatrix.canary.NoSuchClass", 1, None)


def _utf(text: str) -> bytes:
    data = text.encode()
    return struct.pack(">H", len(data)) + data


def stream(spec) -> bytes:
    """ObjectOutputStream's bytes for one object with a single long field `value` = 7."""
    name, uid, parent = spec
    out = b"\xac\xed\x00\x05" + b"\x73" + b"\x72" + _utf(name) + struct.pack(">q", uid) + b"\x02"
    out += struct.pack(">H", 1) + b"J" + _utf("value") + b"\x78"
    if parent:
        out += b"\x72" + _utf(parent[0]) + struct.pack(">q", parent[1]) + b"\x02" + struct.pack(">H", 0) + b"\x78"
    out += b"\x70" + struct.pack(">q", 7)
    return out


def _printable(data: bytes) -> str:
    words, word = [], []
    for b in data:
        if 32 < b < 127:
            word.append(chr(b))
        else:
            if len(word) >= 8:
                words.append("".join(word))
            word = []
    if len(word) >= 8:
        words.append("".join(word))
    return " ".join(w for w in words if "." in w or "Exception" in w or "REJECTED" in w)[:140]


def run(target: Target) -> dict:
    outcomes, answers = [], []
    for spec in (ATOMIC_LONG, NO_SUCH):
        seen = documents.post(target, stream(spec))
        payload = documents.body_of(seen)
        if b"ClassCastException" in payload:
            outcome = "instantiated"
        elif any(m in payload for m in (b"InvalidClassException", b"REJECTED", b"ClassNotFoundException",
                                         b"filter status")):
            outcome = "refused"
        else:
            outcome = wire.judge(seen)
        outcomes.append(outcome)
        status = seen.data.split(b"\r\n")[0].decode("latin-1") if seen.data else seen.state
        answers.append(f"{spec[0].rsplit('.', 1)[1]}: {outcome} ({status}) {_printable(payload)}")
    during = target.served()
    worst = next((o for o in ("instantiated", "answered") if o in outcomes), outcomes[0])
    return {"outcome": worst, "answer": " | ".join(answers), "served_during": during}
