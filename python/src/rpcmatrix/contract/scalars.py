"""Checks on the contract's scalar types, for protocols that carry a value in a wider type
(CONTRACT.md#carriage: the receiver checks the range and rejects what does not fit)."""
from __future__ import annotations

import math
import struct

INTEGER_RANGES: dict[str, tuple[int, int]] = {
    "int8": (-(1 << 7), (1 << 7) - 1),
    "int16": (-(1 << 15), (1 << 15) - 1),
    "int32": (-(1 << 31), (1 << 31) - 1),
    "int64": (-(1 << 63), (1 << 63) - 1),
    "timestamp": (-(1 << 63), (1 << 63) - 1),
}

_FLOAT32 = struct.Struct("<f")


def check_integer(type_name: str, value: object) -> int:
    """`value` if it is an integer in the range of `type_name`; raises ValueError otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{type_name} expected, got {type(value).__name__}")
    low, high = INTEGER_RANGES[type_name]
    if not low <= value <= high:
        raise ValueError(f"{value} is out of range for {type_name}")
    return value


def to_float32(value: float) -> float:
    """The float32 nearest to `value` (round to nearest even), as a Python float."""
    return _FLOAT32.unpack(_FLOAT32.pack(value))[0]


def is_float32(value: float) -> bool:
    """True when float32 represents `value` exactly (NaN counts: it travels as a float32 NaN)."""
    if math.isnan(value) or math.isinf(value):
        return True
    try:
        return to_float32(value) == value
    except OverflowError:  # beyond float32's largest finite value
        return False


def check_float32(value: object) -> float:
    """`value` if it is a float that float32 represents exactly; raises ValueError otherwise."""
    if not isinstance(value, float):
        raise ValueError(f"float32 expected, got {type(value).__name__}")
    if not is_float32(value):
        raise ValueError(f"{value!r} is not exactly representable as float32")
    return value


def check_float64(value: object) -> float:
    if not isinstance(value, float):
        raise ValueError(f"float64 expected, got {type(value).__name__}")
    return value
