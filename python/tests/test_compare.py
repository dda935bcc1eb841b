import math
import struct

from rpcmatrix.contract.compare import difference, result_difference
from rpcmatrix.contract.model import Item, Record
from rpcmatrix.contract.operations import BY_NAME


def next_up(value: float) -> float:
    """The next float64 after a non-negative value."""
    return struct.unpack(">d", (struct.unpack(">q", struct.pack(">d", value))[0] + 1).to_bytes(8, "big"))[0]


def test_floats_compare_by_bits_and_nan_equals_nan():
    assert difference("float64", 0.1, 0.1) is None
    assert difference("float64", math.nan, -math.nan) is None
    assert difference("float64", 0.0, -0.0) == (
        "result: expected 0.0 (0x0000000000000000), actual -0.0 (0x8000000000000000)")
    assert difference("float64", 1.0, next_up(1.0)) is not None
    assert difference("float64", 1.0, 1) is not None  # an int is not a float


def test_integers_strings_bytes_exactly():
    assert difference("int32", 5, 5) is None
    assert difference("bool", True, 1) is not None
    assert difference("int64", 1, True) is not None
    assert difference("string", "a\r", "a\n") == "result: expected 'a\\r', actual 'a\\n'"
    assert difference("string", "ab", "abc") == "result: expected 'ab', actual 'abc'"
    assert difference("string", "x" * 100, "x" * 101) == "result: expected length 100, actual length 101"
    assert difference("bytes", b"\x00\x01", b"\x00\x01") is None
    assert difference("bytes", b"\x00\x01", "\x00\x01") is not None


def test_log_transform_allows_one_ulp_and_no_more():
    operation = BY_NAME["logTransform"]
    assert result_difference(operation, [1.0, 2.0], [next_up(1.0), 2.0]) is None
    assert result_difference(operation, [1.0], [next_up(next_up(1.0))]) is not None
    assert result_difference(operation, [-0.0], [0.0]) is None  # neighbours across zero
    # Other float64[] answers compare exactly.
    assert result_difference(BY_NAME["randomDoubles"], [1.0], [next_up(1.0)]) is not None


def test_structs_field_by_field_with_the_first_difference_as_a_path():
    expected = [Item(1, "t", "d", "c", "o", 10, 20, -3, 1.5, 0.25)]
    actual = [Item(1, "t", "d", "c", "o", 10, 20, -3, 1.5, 0.5)]
    assert result_difference(BY_NAME["getItems"], expected, actual) == (
        "result[0].weight: expected 0.25 (0x3fd0000000000000), actual 0.5 (0x3fe0000000000000)")
    record = Record(7, ["a"], [1.0])
    assert difference("Record", record, Record(7, ["a"], [1.0])) is None
    assert difference("Record", record, Record(7, ["b"], [1.0])) == "result.tags[0]: expected 'a', actual 'b'"
    assert difference("Record", record, {"id": 7}) is not None
    assert result_difference(BY_NAME["getItems"], expected, []) == "result: expected 1 elements, actual 0"


def test_void_completes_with_nothing():
    assert result_difference(BY_NAME["ping"], None, None) is None
    assert result_difference(BY_NAME["ping"], None, True) is not None


def test_long_values_are_shortened_in_differences():
    found = difference("string", "x" * 100000, "x" * 99999 + "y")
    assert found.startswith("result[99999] (of length 100000)") and len(found) < 300
