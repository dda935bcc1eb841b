"""Encoding and decoding the contract's types in the rawtcp wire format (idl/rawtcp.md), big-endian.

`encoder(type)` and `decoder(type)` return a function per contract type name, built once and cached, so a
call does no type dispatch at run time. Arrays travel in bulk: float64[] is one numpy conversion each way
(decoded as a float64 numpy array), structs and lists of structs use generated code (structs.py).
"""
from __future__ import annotations

import struct
from array import array
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from rpcmatrix.contract.operations import STRUCTS
from rpcmatrix.rawtcp.structs import struct_decoder, struct_encoder

_BIG_ENDIAN_DOUBLE = np.dtype(">f8")

MAX_FRAME = 64 * 1024 * 1024

_SCALARS = {
    "int8": struct.Struct(">b"),
    "int16": struct.Struct(">h"),
    "int32": struct.Struct(">i"),
    "int64": struct.Struct(">q"),
    "timestamp": struct.Struct(">q"),
    "float32": struct.Struct(">f"),
    "float64": struct.Struct(">d"),
}
U8 = struct.Struct(">B")
U16 = struct.Struct(">H")
U32 = struct.Struct(">I")

Encoder = Callable[[bytearray, object], None]


class Reader:
    """A cursor over one frame's body."""

    __slots__ = ("data", "position")

    def __init__(self, data: bytes):
        self.data = data
        self.position = 0

    def unpack(self, layout: struct.Struct) -> tuple:
        values = layout.unpack_from(self.data, self.position)
        self.position += layout.size
        return values

    def take(self, count: int) -> bytes:
        end = self.position + count
        if end > len(self.data):
            raise ValueError(f"frame ends before {count} bytes at offset {self.position}")
        chunk = self.data[self.position:end]
        self.position = end
        return chunk

    def count(self, element_size: int = 1) -> int:
        """A u32 count, checked against what is left of the frame."""
        (count,) = self.unpack(U32)
        if count * element_size > len(self.data) - self.position:
            raise ValueError(f"count {count} exceeds the frame")
        return count

    def expect_end(self) -> None:
        if self.position != len(self.data):
            raise ValueError(f"{len(self.data) - self.position} unexpected bytes at the end of the frame")


@lru_cache(maxsize=None)
def encoder(type_name: str) -> Encoder:
    if type_name == "void":
        return lambda out, value: None
    if type_name == "bool":
        def encode_bool(out: bytearray, value) -> None:
            if not isinstance(value, bool):
                raise ValueError(f"bool expected, got {type(value).__name__}")
            out.append(1 if value else 0)
        return encode_bool
    if type_name in _SCALARS:
        pack = _SCALARS[type_name].pack
        return lambda out, value: out.extend(pack(value))
    if type_name == "string":
        def encode_string(out: bytearray, value: str) -> None:
            data = value.encode("utf-8")
            out += U32.pack(len(data))
            out += data
        return encode_string
    if type_name == "bytes":
        def encode_bytes(out: bytearray, value: bytes) -> None:
            out += U32.pack(len(value))
            out += value
        return encode_bytes
    if type_name == "float64[]":
        def encode_doubles(out: bytearray, values) -> None:
            out += U32.pack(len(values))
            if isinstance(values, np.ndarray):
                out += values.astype(_BIG_ENDIAN_DOUBLE, copy=False).tobytes()
            else:  # a list of Python floats: one C loop into native doubles, then one byte swap
                native = array("d", values)
                native.byteswap()
                out += native
        return encode_doubles
    if type_name[:-2] in STRUCTS:
        return struct_encoder(type_name[:-2], True, encoder)
    if type_name.endswith("[]"):
        element = encoder(type_name[:-2])

        def encode_list(out: bytearray, values: list) -> None:
            out += U32.pack(len(values))
            for value in values:
                element(out, value)
        return encode_list
    if type_name in STRUCTS:
        return struct_encoder(type_name, False, encoder)
    raise ValueError(f"rawtcp cannot carry {type_name}")


@lru_cache(maxsize=None)
def decoder(type_name: str) -> Callable[[Reader], object]:
    if type_name == "void":
        return lambda reader: None
    if type_name == "bool":
        def decode_bool(reader: Reader) -> bool:
            (byte,) = reader.unpack(U8)
            if byte > 1:
                raise ValueError(f"bool byte {byte} is neither 0 nor 1")
            return byte == 1
        return decode_bool
    if type_name in _SCALARS:
        layout = _SCALARS[type_name]
        return lambda reader: reader.unpack(layout)[0]
    if type_name == "string":
        return lambda reader: reader.take(reader.count()).decode("utf-8")
    if type_name == "bytes":
        return lambda reader: bytes(reader.take(reader.count()))
    if type_name == "float64[]":
        def decode_doubles(reader: Reader) -> np.ndarray:
            count = reader.count(8)
            values = np.frombuffer(reader.data, _BIG_ENDIAN_DOUBLE, count, reader.position)
            reader.position += 8 * count
            return values.astype(np.float64)  # native order, and a copy that owns its memory
        return decode_doubles
    if type_name[:-2] in STRUCTS:
        return struct_decoder(type_name[:-2], True, decoder)
    if type_name.endswith("[]"):
        element = decoder(type_name[:-2])
        return lambda reader: [element(reader) for _ in range(reader.count())]
    if type_name in STRUCTS:
        return struct_decoder(type_name, False, decoder)
    raise ValueError(f"rawtcp cannot carry {type_name}")


def begin_frame() -> bytearray:
    """A frame buffer with room for its length, filled in by end_frame."""
    return bytearray(4)


def end_frame(frame: bytearray) -> bytearray:
    U32.pack_into(frame, 0, len(frame) - 4)
    return frame


class FrameTooLarge(Exception):
    pass


def read_frame(stream) -> bytes | None:
    """One frame's body from a buffered binary stream; None at a clean end of stream."""
    header = stream.read(4)
    if not header:
        return None
    if len(header) < 4:
        raise EOFError("the connection closed inside a frame header")
    (length,) = U32.unpack(header)
    if length > MAX_FRAME:
        raise FrameTooLarge(f"a frame of {length} bytes exceeds 64 MiB")
    body = stream.read(length)
    if len(body) < length:
        raise EOFError("the connection closed inside a frame")
    return body
