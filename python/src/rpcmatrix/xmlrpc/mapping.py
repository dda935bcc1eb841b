"""How the contract's values travel in XML-RPC (CONTRACT.md#carriage): int64 and timestamps as decimal
strings, int8/int16 as <int> range-checked by the receiver, float32 as <double> checked to be exactly a
float32, bytes as <base64>, structs as <struct> with the contract's member names, void as boolean true.

`to_wire(type)` and `from_wire(type)` return a converter per contract type, built once and cached; a value
that does not fit raises ValueError on the receiving side (a fault, never a silent truncation).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from rpcmatrix.contract.operations import STRUCT_CLASSES, STRUCTS, snake_case
from rpcmatrix.contract.scalars import check_float32, check_float64, check_integer

PATH = "/RPC2"  # the path every language's XML-RPC server and client use

_DECIMAL = re.compile(r"-?[0-9]+")


def _identity(value):
    return value


def _checked(kind: type, name: str) -> Callable:
    def check(value):
        if not isinstance(value, kind):
            raise ValueError(f"{name} expected, got {type(value).__name__}")
        return value
    return check


def _float_list(values):
    """The marshaller writes lists of Python floats: the reference answers float64 arrays, converted
    in one call."""
    return values.tolist() if hasattr(values, "tolist") else values


@lru_cache(maxsize=None)
def to_wire(type_name: str) -> Callable:
    if type_name == "void":
        return lambda value: True
    if type_name in ("int64", "timestamp"):
        return str
    if type_name in ("bool", "int8", "int16", "int32", "float32", "float64", "string", "bytes", "string[]"):
        return _identity  # the standard library's marshaller writes these as they are
    if type_name == "float64[]":
        return _float_list
    if type_name.endswith("[]"):
        element = to_wire(type_name[:-2])
        return lambda values: [element(v) for v in values]
    if type_name in STRUCTS:
        fields = [(f.name, snake_case(f.name), to_wire(f.type)) for f in STRUCTS[type_name]]
        return lambda value: {name: convert(getattr(value, attribute)) for name, attribute, convert in fields}
    raise ValueError(f"XML-RPC cannot carry {type_name}")


@lru_cache(maxsize=None)
def from_wire(type_name: str) -> Callable:
    if type_name == "void":
        def check_void(value):
            if value is not True:
                raise ValueError(f"boolean true expected for a void result, got {value!r}")
            return None
        return check_void
    if type_name == "bool":
        return _checked(bool, "boolean")
    if type_name in ("int8", "int16", "int32"):
        return lambda value: check_integer(type_name, value)
    if type_name in ("int64", "timestamp"):
        def parse_decimal(value):
            if not isinstance(value, str) or not _DECIMAL.fullmatch(value):
                raise ValueError(f"{type_name} travels as a string of decimal digits, got {value!r}")
            return check_integer(type_name, int(value))
        return parse_decimal
    if type_name == "float32":
        return check_float32
    if type_name == "float64":
        return check_float64
    if type_name == "string":
        return _checked(str, "string")
    if type_name == "bytes":
        return _checked(bytes, "base64")
    if type_name.endswith("[]"):
        element = from_wire(type_name[:-2])

        def convert_array(values):
            if not isinstance(values, list):
                raise ValueError(f"array expected, got {type(values).__name__}")
            return [element(v) for v in values]
        return convert_array
    if type_name in STRUCTS:
        fields = [(f.name, from_wire(f.type)) for f in STRUCTS[type_name]]
        names = {name for name, _ in fields}
        make = STRUCT_CLASSES[type_name]

        def convert_struct(value):
            if not isinstance(value, dict) or value.keys() != names:
                shown = sorted(value) if isinstance(value, dict) else type(value).__name__
                raise ValueError(f"{type_name} struct with members {sorted(names)} expected, got {shown}")
            return make(*[convert(value[name]) for name, convert in fields])
        return convert_struct
    raise ValueError(f"XML-RPC cannot carry {type_name}")


def escape_carriage_returns(body: bytes) -> bytes:
    """The marshalled XML with every CR written as the reference &#13;.

    xmlrpc.client escapes only & < > in strings, so a CR would travel raw and the receiver's XML parser
    would turn it into LF (XML 1.0 end-of-line normalisation): vector string_tab_lf_cr. The marshaller
    itself writes only LF between elements, so every CR in its output is string content and replacing
    them all is exact. This is applied to the bytes each side sends, instead of patching the standard
    library's escape function for the whole process.
    """
    return body.replace(b"\r", b"&#13;")
