"""How the contract's values travel in JSON-RPC (CONTRACT.md#carriage): integers (int64 and timestamps
too) as exact JSON integers, range-checked by the receiver; float32 as the shortest decimal that reads
back to the same float32, rounded to the nearest float32 by the reader; bytes as standard base64 with
padding; structs as objects with the contract's field names; void as null. Python's json writes floats as
their shortest round-trip decimal."""
from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from functools import lru_cache

import numpy

from rpcmatrix.contract.operations import STRUCT_CLASSES, STRUCTS, snake_case
from rpcmatrix.contract.scalars import check_integer, to_float32

PATH = "/jsonrpc"
CONTENT_TYPE = "application/json"
INVALID_PARAMS = -32602


def _identity(value):
    return value


def _shortest_float32(value: float) -> float:
    """The float64 nearest to the float32's shortest decimal: json writes a float as its shortest repr, which
    for that float64 is the same short decimal ("0.1973659", not the widened "0.1973658949136734")."""
    return float(str(numpy.float32(value)))


def _float_list(values):
    return values.tolist() if hasattr(values, "tolist") else list(values)


@lru_cache(maxsize=None)
def to_wire(type_name: str) -> Callable:
    if type_name == "void":
        return lambda value: None
    if type_name == "bytes":
        return lambda value: base64.b64encode(value).decode("ascii")
    if type_name == "float64[]":
        return _float_list
    if type_name == "float32":
        return _shortest_float32
    if type_name in STRUCTS:
        fields = [(f.name, snake_case(f.name), to_wire(f.type)) for f in STRUCTS[type_name]]
        return lambda value: {name: convert(getattr(value, attribute)) for name, attribute, convert in fields}
    if type_name.endswith("[]") and type_name[:-2] in STRUCTS:
        element = to_wire(type_name[:-2])
        return lambda values: [element(v) for v in values]
    return _identity  # bool, integers, float32/64, string, string[]


def _number(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"number expected, got {type(value).__name__}")
    return float(value)


def _typed(kind: type, name: str) -> Callable:
    def check(value):
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise ValueError(f"{name} expected, got {type(value).__name__}")
        return value
    return check


def _bytes(value) -> bytes:
    if not isinstance(value, str):
        raise ValueError(f"base64 string expected, got {type(value).__name__}")
    try:
        return base64.b64decode(value, validate=True)
    except binascii.Error as e:
        raise ValueError(f"bad base64: {e}") from None


@lru_cache(maxsize=None)
def from_wire(type_name: str) -> Callable:
    if type_name == "void":
        def check_void(value):
            if value is not None:
                raise ValueError(f"null expected for a void result, got {value!r}")
            return None
        return check_void
    if type_name == "bool":
        return _typed(bool, "boolean")
    if type_name in ("int8", "int16", "int32", "int64", "timestamp"):
        return lambda value: check_integer(type_name, value)
    if type_name == "float32":
        return lambda value: to_float32(_number(value))
    if type_name == "float64":
        return _number
    if type_name == "string":
        return _typed(str, "string")
    if type_name == "bytes":
        return _bytes
    if type_name.endswith("[]"):
        element = from_wire(type_name[:-2])

        def convert_list(values):
            if not isinstance(values, list):
                raise ValueError(f"array expected, got {type(values).__name__}")
            return [element(v) for v in values]
        return convert_list
    if type_name in STRUCTS:
        fields = [(f.name, from_wire(f.type)) for f in STRUCTS[type_name]]
        names = {name for name, _ in fields}
        make = STRUCT_CLASSES[type_name]

        def convert_struct(value):
            if not isinstance(value, dict) or value.keys() != names:
                shown = sorted(value) if isinstance(value, dict) else type(value).__name__
                raise ValueError(f"{type_name} object with members {sorted(names)} expected, got {shown}")
            return make(*[convert(value[name]) for name, convert in fields])
        return convert_struct
    raise ValueError(f"JSON-RPC cannot carry {type_name}")
