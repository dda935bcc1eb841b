"""How the contract's values travel in Hessian (CONTRACT.md#carriage): int8/int16/int32 as `int`
(range-checked by the receiver), int64 and timestamps as `long`, float32 as `double` checked to be exactly a
float32, bytes as `binary`, sequences as fixed-length lists, structs as typed maps with the contract's field
names (a reader takes any type name, or an untyped map), void as `null`."""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from pyhessian.data_types import long
from pyhessian.protocol import Binary

from rpcmatrix.contract.operations import STRUCT_CLASSES, STRUCTS, snake_case
from rpcmatrix.contract.scalars import check_float32, check_float64, check_integer
from rpcmatrix.hessian.wire import Struct

TYPE_PREFIX = "org.rpcmatrix.hessian."  # the writer's own type names (readers do not depend on them)


def _identity(value):
    return value


def _sequence(values):
    """A fixed-length list (the library writes a tuple with its length); float64 arrays convert in bulk."""
    return tuple(values.tolist() if hasattr(values, "tolist") else values)


@lru_cache(maxsize=None)
def to_wire(type_name: str) -> Callable:
    if type_name == "void":
        return lambda value: None
    if type_name in ("int64", "timestamp"):
        return long  # the library writes `long` (an int subclass) as Hessian `long`, plain int as `int`
    if type_name == "bytes":
        return Binary
    if type_name in ("float64[]", "string[]"):
        return _sequence
    if type_name.endswith("[]"):
        element = to_wire(type_name[:-2])
        return lambda values: tuple(element(v) for v in values)
    if type_name in STRUCTS:
        wire_name = (TYPE_PREFIX + type_name).encode()
        fields = [(f.name, snake_case(f.name), to_wire(f.type)) for f in STRUCTS[type_name]]
        return lambda value: Struct(wire_name, [(name, convert(getattr(value, attribute)))
                                                for name, attribute, convert in fields])
    return _identity  # bool, int8..int32, float32/64 (written as double), string


def _struct_fields(value) -> dict:
    if isinstance(value, dict):
        return value
    state = getattr(value, "__dict__", None)  # a typed map is read as a pyhessian Object
    if state is None:
        raise ValueError(f"struct expected, got {type(value).__name__}")
    return state


@lru_cache(maxsize=None)
def from_wire(type_name: str) -> Callable:
    if type_name == "void":
        def check_void(value):
            if value is not None:
                raise ValueError(f"null expected for a void result, got {value!r}")
            return None
        return check_void
    if type_name == "bool":
        def check_bool(value):
            if not isinstance(value, bool):
                raise ValueError(f"boolean expected, got {type(value).__name__}")
            return value
        return check_bool
    if type_name in ("int8", "int16", "int32", "int64", "timestamp"):
        return lambda value: int(check_integer(type_name, value))
    if type_name == "float32":
        return check_float32
    if type_name == "float64":
        return check_float64
    if type_name == "string":
        def check_string(value):
            if not isinstance(value, str):
                raise ValueError(f"string expected, got {type(value).__name__}")
            return value
        return check_string
    if type_name == "bytes":
        def binary(value):
            if isinstance(value, Binary):
                return value.value
            raise ValueError(f"binary expected, got {type(value).__name__}")
        return binary
    if type_name.endswith("[]"):
        element = from_wire(type_name[:-2])

        def convert_list(values):
            if not isinstance(values, (list, tuple)):
                raise ValueError(f"list expected, got {type(values).__name__}")
            return [element(v) for v in values]
        return convert_list
    if type_name in STRUCTS:
        fields = [(f.name, from_wire(f.type)) for f in STRUCTS[type_name]]
        make = STRUCT_CLASSES[type_name]

        def convert_struct(value):
            members = _struct_fields(value)
            try:
                return make(*[convert(members[name]) for name, convert in fields])
            except KeyError as e:
                raise ValueError(f"{type_name} has no field {e}") from None
        return convert_struct
    raise ValueError(f"Hessian cannot carry {type_name}")
