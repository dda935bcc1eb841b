"""Contract values to and from what zeep builds and parses for bench.xsd's types.

zeep reads xsd:float as a Python float from its decimal text: the client rounds it to float32 (xsd:float's
value space). An empty xs:string or base64Binary element comes back as None, an absent sequence as None
or []. zeep writes floats with str(): `install_xsd_floats` makes it write NaN/INF/-INF instead."""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from zeep.xsd.types import builtins as zeep_builtins

from rpcmatrix.contract.operations import STRUCT_CLASSES, STRUCTS
from rpcmatrix.contract.scalars import to_float32
from rpcmatrix.soap.xsdfloat import xsd_float


class _XsdDouble(zeep_builtins.Double):
    def xmlvalue(self, value):
        return xsd_float(value)


class _XsdFloat(zeep_builtins.Float):
    def xmlvalue(self, value):
        return xsd_float(value)


def install_xsd_floats() -> None:
    """zeep makes one instance of each built-in type per schema it loads, from this list: putting our
    subclasses there (before a client is made) changes how this process's zeep writes floats, and nothing
    else. zeep has no other hook for built-in types."""
    types = zeep_builtins._types
    for original, replacement in ((zeep_builtins.Double, _XsdDouble), (zeep_builtins.Float, _XsdFloat)):
        if original in types:
            types[types.index(original)] = replacement


def _identity(value):
    return value


def _float_list(values):
    return values.tolist() if hasattr(values, "tolist") else values


@lru_cache(maxsize=None)
def to_wire(type_name: str) -> Callable:
    if type_name == "float64[]":
        return _float_list
    return _identity  # zeep writes the contract's Python values as they are


@lru_cache(maxsize=None)
def from_wire(type_name: str) -> Callable:
    if type_name == "void":
        return lambda value: None
    if type_name == "float32":
        return lambda value: to_float32(float(value))
    if type_name == "string":
        return lambda value: "" if value is None else value
    if type_name == "bytes":
        return lambda value: b"" if value is None else value
    if type_name.endswith("[]"):
        element = from_wire(type_name[:-2])
        if element is _identity:
            return lambda values: list(values) if values else []
        return lambda values: [element(v) for v in values] if values else []
    if type_name in STRUCTS:
        fields = [(f.name, from_wire(f.type)) for f in STRUCTS[type_name]]  # zeep names them as bench.xsd
        make = STRUCT_CLASSES[type_name]
        return lambda value: make(*[convert(getattr(value, name)) for name, convert in fields])
    return _identity
