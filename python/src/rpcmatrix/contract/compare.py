"""The contract's comparison rules (CONTRACT.md#vectors): integers, strings and bytes exactly; floats by
their bits, any NaN equal to any NaN; logTransform element by element within 1 ulp; structs field by field.

Each function returns None when the values match, or the first difference as readable text:
"result[3].weight: expected 0.5 (0x3fe0000000000000), actual 0.25 (0x3fd0000000000000)".
"""
from __future__ import annotations

import math
import struct

import numpy as np

from rpcmatrix.contract.operations import STRUCTS, Operation, snake_case

_DOUBLE = struct.Struct(">d")
_INT64 = struct.Struct(">q")
_SHOWN = 60  # characters of a long value shown in a difference


def result_difference(operation: Operation, expected: object, actual: object) -> str | None:
    """Compares an operation's answer with the expected one, applying the rule for its return type."""
    type_name = operation.returns.removeprefix("stream ")
    ulps = 1 if operation.name == "logTransform" else 0
    return difference(type_name, expected, actual, path="result", ulps=ulps)


def difference(type_name: str, expected: object, actual: object, path: str = "result",
               ulps: int = 0) -> str | None:
    if type_name == "void":
        return None if actual is None else _differ(path, "nothing (void)", actual)
    if type_name == "bool":
        if isinstance(actual, bool) and actual == expected:
            return None
        return _differ(path, expected, actual)
    if type_name in ("int8", "int16", "int32", "int64", "timestamp"):
        if isinstance(actual, int) and not isinstance(actual, bool) and actual == expected:
            return None
        return _differ(path, expected, actual)
    if type_name in ("float32", "float64"):
        return _float_difference(path, expected, actual, ulps)
    if type_name == "string":
        return _sequence_difference(path, expected, actual, str)
    if type_name == "bytes":
        return _sequence_difference(path, expected, actual, (bytes, bytearray, memoryview))
    if type_name.endswith("[]"):
        return _list_difference(type_name[:-2], path, expected, actual, ulps)
    if type_name in STRUCTS:
        return _struct_difference(type_name, path, expected, actual)
    raise ValueError(f"no comparison rule for {type_name}")


def _float_difference(path: str, expected: object, actual: object, ulps: int) -> str | None:
    if not isinstance(actual, float):
        return _differ(path, expected, actual)
    if math.isnan(expected) and math.isnan(actual):
        return None
    if ulps == 0:
        if _DOUBLE.pack(expected) == _DOUBLE.pack(actual):
            return None
    elif not math.isnan(expected) and not math.isnan(actual) and abs(_ordered(expected) - _ordered(actual)) <= ulps:
        return None
    suffix = f" (more than {ulps} ulp apart)" if ulps else ""
    return _differ(path, expected, actual) + suffix


def _ordered(value: float) -> int:
    """The float's bits as an integer that orders like the floats do, so neighbours differ by 1."""
    bits = _INT64.unpack(_DOUBLE.pack(value))[0]
    return bits if bits >= 0 else -(bits & 0x7FFFFFFFFFFFFFFF)


def _sequence_difference(path: str, expected, actual, kinds) -> str | None:
    if not isinstance(actual, kinds):
        return _differ(path, expected, actual)
    if expected == actual:
        return None
    if len(expected) <= _SHOWN and len(actual) <= _SHOWN:
        return _differ(path, expected, actual)
    # the first difference within the shorter one; none there: the lengths differ
    for index, (e, a) in enumerate(zip(expected, actual, strict=False)):
        if e != a:
            return (f"{path}[{index}] (of length {len(expected)}): expected {_show(expected[index:index + 20])}, "
                    f"actual {_show(actual[index:index + 20])}")
    return f"{path}: expected length {len(expected)}, actual length {len(actual)}"


def _list_difference(element: str, path: str, expected, actual, ulps: int) -> str | None:
    if element == "float64" and isinstance(actual, np.ndarray):
        actual = actual.tolist()
    if element == "float64" and isinstance(expected, np.ndarray):
        if _floats_match(expected, actual, ulps):
            return None
        expected = expected.tolist()
    if not isinstance(actual, (list, tuple)):
        return _differ(path, f"a list of {len(expected)}", actual)
    if len(expected) != len(actual):
        return f"{path}: expected {len(expected)} elements, actual {len(actual)}"
    for index, (e, a) in enumerate(zip(expected, actual, strict=True)):
        found = difference(element, e, a, f"{path}[{index}]", ulps)
        if found is not None:
            return found
    return None


def _floats_match(expected: np.ndarray, actual, ulps: int) -> bool:
    """True when a list of Python floats matches the expected array by the rules, checked in bulk (the
    element-by-element path then finds the first difference, or rejects elements that are not floats)."""
    if not isinstance(actual, (list, tuple)) or len(actual) != len(expected):
        return False
    if actual and type(actual[0]) is not float:
        return False
    try:
        received = np.array(actual, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    if received.tobytes() == expected.tobytes():
        return True
    both_nan = np.isnan(expected) & np.isnan(received)
    ordered_expected, ordered_received = _ordered_array(expected), _ordered_array(received)
    # Only values of the same sign are compared here, where the difference cannot overflow int64.
    same_sign = (ordered_expected >= 0) == (ordered_received >= 0)
    close = same_sign & (np.abs(ordered_expected - ordered_received) <= ulps)
    return bool(np.all(both_nan | (~np.isnan(expected) & ~np.isnan(received) & close)))


def _ordered_array(values: np.ndarray) -> np.ndarray:
    bits = values.view(np.int64)
    return np.where(bits >= 0, bits, -(bits & np.int64(0x7FFFFFFFFFFFFFFF)))


def _struct_difference(struct_name: str, path: str, expected, actual) -> str | None:
    if type(actual) is not type(expected):
        return _differ(path, f"a {struct_name}", actual)
    for field in STRUCTS[struct_name]:
        attribute = snake_case(field.name)
        found = difference(field.type, getattr(expected, attribute), getattr(actual, attribute),
                           f"{path}.{field.name}")
        if found is not None:
            return found
    return None


def _differ(path: str, expected: object, actual: object) -> str:
    return f"{path}: expected {_show(expected)}, actual {_show(actual)}"


def _show(value: object) -> str:
    if isinstance(value, float):
        return f"{value!r} (0x{_DOUBLE.pack(value).hex()})"
    if isinstance(value, (bytes, bytearray, memoryview)):
        value = bytes(value)
        text = value[:_SHOWN].hex()
        return f"0x{text}..." if len(value) > _SHOWN else f"0x{text}"
    text = repr(value)
    if len(text) > _SHOWN:
        length = len(value) if hasattr(value, "__len__") else "?"
        return text[:_SHOWN] + f"... ({type(value).__name__} of length {length})"
    return text
