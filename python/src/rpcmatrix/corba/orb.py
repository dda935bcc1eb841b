"""The ORB both roles start: omniORB's options for this suite, and reading the port an endpoint chose."""
from __future__ import annotations

import struct
import sys

from omniORB import CORBA

# UTF-8 as the native char code set, so strings travel as UTF-8 (CONTRACT.md#types); omniORB's defaults
# otherwise: TCP_NODELAY on every connection (omniORB sets it unconditionally on its TCP sockets), thread per
# connection on the server, omniORB's default tracing (traceLevel 1: errors and a few informational lines,
# none per call).
BASE_ARGS = ["-ORBnativeCharCodeSet", "UTF-8", "-ORBtraceLevel", "1"]


def init(extra: list[str] = ()) -> CORBA.ORB:
    return CORBA.ORB_init([sys.argv[0], *BASE_ARGS, *extra], CORBA.ORB_ID)


def iiop_port(ior: str) -> int:
    """The port of the first IIOP profile of a stringified IOR (the one the endpoint chose for port 0)."""
    data = bytes.fromhex(ior.removeprefix("IOR:"))
    order = "<" if data[0] else ">"
    offset = _align(1, 4)
    (length,) = struct.unpack_from(order + "I", data, offset)
    offset = _align(offset + 4 + length, 4)
    (profiles,) = struct.unpack_from(order + "I", data, offset)
    offset += 4
    for _ in range(profiles):
        tag, length = struct.unpack_from(order + "II", data, offset)
        body = data[offset + 8: offset + 8 + length]
        offset = _align(offset + 8 + length, 4)
        if tag == 0:  # TAG_INTERNET_IOP: an encapsulation of version, host, port
            inner = "<" if body[0] else ">"
            at = _align(3, 4)  # byte order octet, then IIOP version major and minor
            (host_length,) = struct.unpack_from(inner + "I", body, at)
            at = _align(at + 4 + host_length, 2)
            return struct.unpack_from(inner + "H", body, at)[0]
    raise ValueError("the IOR has no IIOP profile")


def _align(offset: int, boundary: int) -> int:
    return (offset + boundary - 1) // boundary * boundary
