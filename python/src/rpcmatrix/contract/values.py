"""Decoding the values written in vectors.json and workloads.json (CONTRACT.md#vectors, the value table)."""
from __future__ import annotations

import base64
import math
import struct

from rpcmatrix.contract.generator import SplitMix64
from rpcmatrix.contract.operations import Operation
from rpcmatrix.contract.scalars import check_float32, check_integer

_SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0.0": -0.0}


def decode(type_name: str, value: object) -> object:
    """The Python value that `value`, as written in the JSON files, stands for as a `type_name`."""
    if type_name == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"bool expected, got {value!r}")
        return value
    if type_name in ("int8", "int16", "int32"):
        return check_integer(type_name, value)
    if type_name in ("int64", "timestamp"):
        if isinstance(value, str):
            return check_integer(type_name, int(value, 10))
        return check_integer(type_name, value)
    if type_name == "float32":
        return check_float32(decode_float(value, bits=32))
    if type_name == "float64":
        return decode_float(value, bits=64)
    if type_name == "string":
        return decode_string(value)
    if type_name == "bytes":
        return decode_bytes(value)
    if type_name == "float64[]" and isinstance(value, dict):
        return decode_random_doubles(value)
    if type_name.endswith("[]"):
        if not isinstance(value, list):
            raise ValueError(f"{type_name} expected, got {value!r}")
        element = type_name[:-2]
        return [decode(element, v) for v in value]
    raise ValueError(f"no JSON encoding for {type_name}")


def decode_args(operation: Operation, args: list) -> list:
    if len(args) != len(operation.params):
        raise ValueError(f"{operation.name} takes {len(operation.params)} arguments, {len(args)} given")
    return [decode(param.type, arg) for param, arg in zip(operation.params, args, strict=True)]


def decode_float(value: object, bits: int) -> float:
    if isinstance(value, bool):
        raise ValueError(f"float expected, got {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        if value in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[value]
        if value.startswith("0x"):
            digits = value[2:]
            if bits == 32 and len(digits) == 8:
                return struct.unpack(">f", bytes.fromhex(digits))[0]
            if bits == 64 and len(digits) == 16:
                return struct.unpack(">d", bytes.fromhex(digits))[0]
    raise ValueError(f"float{bits} expected, got {value!r}")


def decode_string(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and set(value) == {"repeat", "length"}:
        pattern, length = value["repeat"], value["length"]
        if not pattern or not pattern.isascii():
            raise ValueError(f"repeat needs a non-empty ASCII string, got {pattern!r}")
        return (pattern * (length // len(pattern) + 1))[:length]
    raise ValueError(f"string expected, got {value!r}")


def decode_bytes(value: object) -> bytes:
    if isinstance(value, dict):
        if set(value) == {"base64"}:
            return base64.b64decode(value["base64"], validate=True)
        if value == {"allByteValues": True}:
            return bytes(range(256))
        if set(value) == {"randomBytes"}:
            return random_bytes(int(value["randomBytes"]["count"]), int(value["randomBytes"]["seed"]))
    raise ValueError(f"bytes expected, got {value!r}")


def random_bytes(count: int, seed: int) -> bytes:
    """Each next() gives 8 bytes, least significant first; the last is cut to fit."""
    rng = SplitMix64(seed)
    words = (count + 7) // 8
    data = struct.pack(f"<{words}Q", *(rng.next() for _ in range(words)))
    return data[:count]


def decode_random_doubles(value: dict) -> list[float]:
    if set(value) != {"randomDoubles"}:
        raise ValueError(f"float64[] expected, got {value!r}")
    spec = value["randomDoubles"]
    offset = decode_float(spec.get("offset", 0.0), bits=64)
    return (SplitMix64(int(spec["seed"])).doubles(int(spec["count"])) + offset).tolist()
