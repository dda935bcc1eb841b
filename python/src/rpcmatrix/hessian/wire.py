"""Hessian 1.0 messages with python-hessian 1.2.0 (pyhessian).

The library writes only Hessian 1.0 (its Encoder has no Hessian 2 form; it writes calls but not replies)
and reads both versions. This module adds what a server and a fast reader need, on the library's classes:
- BenchEncoder: the library's Encoder plus contract structs as Hessian 1 typed maps;
- reply/fault envelopes (`r 1 0 value z`, `r 1 0 f ... z z`), which the library does not write;
- a parser per message: the library's Parser keeps the version and references of the message it read
  last, so one instance must not read two messages (a reused one breaks on the second Hessian 2 reply);
- a linear-time string reader: the library's joins the string byte by byte (quadratic on a 1 MiB string).
"""
from __future__ import annotations

import io
from struct import pack, unpack

from pyhessian.encoder import Encoder, encoder_for
from pyhessian.parser import Parser, ParserV1, ParserV2
from pyhessian.protocol import Call

CONTENT_TYPE = "application/x-hessian"
PATH = "/hessian"
_CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8 continuation bytes: every other byte starts a character


class Struct:
    """A contract struct on the wire: a Hessian 1 typed map of its fields, in contract order."""

    __slots__ = ("type_name", "fields")

    def __init__(self, type_name: bytes, fields: list):
        self.type_name = type_name
        self.fields = fields


class BenchEncoder(Encoder):
    @encoder_for(Struct)
    def encode_struct(self, value: Struct) -> bytes:
        # Readers number every list and map in order for back references (`R n`): count this one too.
        self.add_ref(value)
        parts = [b"Mt", pack(">H", len(value.type_name)), value.type_name]
        for name, field in value.fields:
            parts.append(self.encode(name))
            parts.append(self.encode(field))
        parts.append(b"z")
        return "object", b"".join(parts)  # (type, bytes), as the library's encoders of unlisted types answer


def encode_call(method: str, args: list) -> bytes:
    return BenchEncoder().encode(Call(method, args, version=1))


def encode_reply(value: object) -> bytes:
    return b"r\x01\x00" + BenchEncoder().encode(value) + b"z"


def encode_fault(code: str, message: str, detail: dict) -> bytes:
    encoder = BenchEncoder()
    body = b"".join(encoder.encode(x) for x in ("code", code, "message", message, "detail", detail))
    return b"r\x01\x00f" + body + b"zz"


class _FastStrings:
    """A string of `length` UTF-16 code units (python-hessian writes astral characters as surrogate pairs,
    each half three bytes of CESU-8), read in bulk: each read asks for as many bytes as characters are
    missing, which cannot overshoot since a character takes at least one byte."""

    def _read_string(self):
        missing = unpack(">H", self._read(2))[0]
        data = bytearray()
        while missing > 0:
            chunk = self._read(missing)
            data += chunk
            missing -= len(chunk.translate(None, _CONTINUATION))
        # the last character's continuation bytes may still be unread
        last = len(data) - 1
        while last > 0 and 0x80 <= data[last] < 0xC0:
            last -= 1
        if data:
            lead = data[last]
            size = 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
            if len(data) - last < size:
                data += self._read(size - (len(data) - last))
        text = bytes(data).decode("utf-8", "surrogatepass")
        if not text.isascii() and any(0xD800 <= ord(c) <= 0xDFFF for c in text):
            text = text.encode("utf-16", "surrogatepass").decode("utf-16")  # joins the surrogate pairs
        return text


class _ParserV1(_FastStrings, ParserV1):
    pass

def parse(body: bytes):
    """One message (a Call or a Reply) with a fresh parser."""
    parser = Parser()
    parser._version_adapters = {1: _ParserV1, 2: ParserV2}
    return parser.parse_stream(io.BytesIO(body))
