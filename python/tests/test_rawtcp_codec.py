import io
import math
import struct

import pytest

from rpcmatrix.contract.model import Book, Item, Record
from rpcmatrix.contract.reference import ReferenceBench
from rpcmatrix.rawtcp.codec import MAX_FRAME, FrameTooLarge, Reader, decoder, encoder, read_frame
from rpcmatrix.rawtcp.server import answer


def round_trip(type_name: str, value):
    out = bytearray()
    encoder(type_name)(out, value)
    reader = Reader(bytes(out))
    decoded = decoder(type_name)(reader)
    reader.expect_end()
    return decoded, bytes(out)


@pytest.mark.parametrize("type_name, value, wire", [
    ("bool", True, "01"),
    ("int8", -128, "80"),
    ("int16", -2, "fffe"),
    ("int32", 2147483647, "7fffffff"),
    ("int64", -(1 << 63), "8000000000000000"),
    ("float32", 1.5, "3fc00000"),
    ("float64", -0.0, "8000000000000000"),
    ("string", "é𝄞", "00000006c3a9f09d849e"),
    ("bytes", b"\x00\xff", "0000000200ff"),
    ("float64[]", [1.0], "000000013ff0000000000000"),
    ("string[]", ["a", ""], "00000002000000016100000000"),
])
def test_scalars_travel_big_endian(type_name, value, wire):
    decoded, encoded = round_trip(type_name, value)
    assert encoded.hex() == wire
    if isinstance(value, float):
        assert struct.pack(">d", decoded) == struct.pack(">d", value)
    else:
        assert decoded == value


def test_structs_round_trip():
    bench = ReferenceBench()
    record = bench.get_record("record-42")
    assert round_trip("Record", record)[0] == record
    books = bench.search_books("q", 20)
    assert round_trip("Book[]", books)[0] == books
    items = bench.get_items(10)
    assert round_trip("Item[]", items)[0] == items
    assert isinstance(round_trip("Item[]", items)[0][0], Item)
    assert isinstance(round_trip("Record", record)[0], Record) and isinstance(books[0], Book)


def test_nan_survives():
    assert math.isnan(round_trip("float32", math.nan)[0])


def test_out_of_range_values_are_refused_not_truncated():
    with pytest.raises(struct.error):
        encoder("int8")(bytearray(), 128)
    with pytest.raises(ValueError):
        decoder("bool")(Reader(b"\x02"))
    with pytest.raises(ValueError):
        decoder("string")(Reader(b"\x00\x00\x00\x05ab"))  # count beyond the frame


def request(operation_id: int, *parts: bytes) -> bytes:
    return struct.pack(">H", operation_id) + b"".join(parts)


def response(frame: bytearray) -> tuple[int, bytes]:
    (length,) = struct.unpack_from(">I", frame)
    assert length == len(frame) - 4
    return frame[4], bytes(frame[5:])


def test_server_answers_ok_bench_error_and_other_errors():
    assert response(answer(request(0))) == (0, b"")
    assert response(answer(request(4, struct.pack(">i", -5)))) == (0, struct.pack(">i", -5))
    status, body = response(answer(request(17, struct.pack(">i", 42), b"\x00\x00\x00\x04boom")))
    assert (status, body) == (1, struct.pack(">i", 42) + b"\x00\x00\x00\x04boom")
    status, body = response(answer(request(16, struct.pack(">i", -1))))
    assert status == 1 and body.endswith(b"count must not be negative")
    for bad in (request(99), request(4, b"\x00"), request(4, b"\x00" * 5), request(18, b"\x00" * 16)):
        status, body = response(answer(bad))
        assert status == 2 and len(body) > 4


def test_frames():
    assert read_frame(io.BytesIO(b"\x00\x00\x00\x02ab")) == b"ab"
    assert read_frame(io.BytesIO(b"")) is None
    with pytest.raises(FrameTooLarge):
        read_frame(io.BytesIO(struct.pack(">I", MAX_FRAME + 1)))
    with pytest.raises(EOFError):
        read_frame(io.BytesIO(b"\x00\x00\x00\x05ab"))
