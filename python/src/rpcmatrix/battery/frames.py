"""Length-prefixed requests for the framed TCP protocols: rawtcp's (idl/rawtcp.md: u16 operation id, then
the arguments) and Thrift's framed binary protocol (a strict CALL message header, the arguments' struct)."""
from __future__ import annotations

import struct

ECHO_STRING_ID = 8  # contract.json
AVERAGE_ID = 11


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def rawtcp_echo_string(declared: int, data: bytes) -> bytes:
    return struct.pack(">H", ECHO_STRING_ID) + struct.pack(">I", declared) + data


def rawtcp_average(count: int, doubles: int) -> bytes:
    return struct.pack(">H", AVERAGE_ID) + struct.pack(">I", count) + b"\x00" * (8 * doubles)


def thrift_call(name: str, args: bytes) -> bytes:
    encoded = name.encode()
    return struct.pack(">I", 0x80010001) + struct.pack(">i", len(encoded)) + encoded + struct.pack(">i", 1) + args


def thrift_echo_string(declared: int, data: bytes) -> bytes:
    return thrift_call("echoString", b"\x0b" + struct.pack(">h", 1) + struct.pack(">i", declared) + data)


def thrift_average(count: int, doubles: int) -> bytes:
    # field 1: list (15) of double (4)
    return thrift_call("average", b"\x0f" + struct.pack(">h", 1) + b"\x04" + struct.pack(">i", count)
                       + b"\x00" * (8 * doubles))
