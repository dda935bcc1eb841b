import base64
import math
import struct

import pytest

from rpcmatrix.contract.catalog import load_vectors, load_workloads
from rpcmatrix.contract.generator import SplitMix64
from rpcmatrix.contract.values import decode, decode_args, random_bytes


def bits(value: float) -> str:
    return struct.pack(">d", value).hex()


def test_integers_and_int64_strings():
    assert decode("int8", -128) == -128
    assert decode("int64", "-9223372036854775808") == -(1 << 63)
    assert decode("timestamp", "1000000000000") == 1000000000000
    with pytest.raises(ValueError):
        decode("int8", 128)
    with pytest.raises(ValueError):
        decode("int64", "9223372036854775808")
    with pytest.raises(ValueError):
        decode("int32", True)


def test_special_and_hex_floats():
    assert math.isnan(decode("float64", "NaN"))
    assert decode("float64", "-Infinity") == -math.inf
    assert bits(decode("float64", "-0.0")) == "8000000000000000"
    assert bits(decode("float64", "0x0000000000000001")) == "0000000000000001"
    assert decode("float32", "0x00000001") == 2.0 ** -149
    assert decode("float32", "0x7f7fffff") == struct.unpack(">f", bytes.fromhex("7f7fffff"))[0]
    assert decode("float32", 1.5) == 1.5
    with pytest.raises(ValueError):
        decode("float32", 0.1)  # not a float32 value


def test_strings():
    assert decode("string", "Grüße") == "Grüße"
    assert decode("string", {"repeat": "abc", "length": 7}) == "abcabca"
    long = decode("string", {"repeat": "rpcmatrix-1MiB-", "length": 1048576})
    assert len(long.encode("utf-8")) == 1048576 and long.startswith("rpcmatrix-1MiB-rpc")


def test_bytes():
    assert decode("bytes", {"base64": base64.b64encode(b"\x00\xff").decode()}) == b"\x00\xff"
    assert decode("bytes", {"allByteValues": True}) == bytes(range(256))
    rng = SplitMix64(11)
    first, second = rng.next(), rng.next()
    assert decode("bytes", {"randomBytes": {"count": 11, "seed": 11}}) == (
        first.to_bytes(8, "little") + second.to_bytes(8, "little")[:3])
    assert len(random_bytes(1048576, 11)) == 1048576


def test_random_doubles_with_offset():
    values = decode("float64[]", {"randomDoubles": {"count": 3, "seed": 3, "offset": 1.0}})
    assert values == [1.0 + v for v in SplitMix64(3).doubles(3)]
    assert decode("float64[]", [1.0, "NaN"])[0] == 1.0


def test_every_vector_and_workload_decodes(idl):
    for vector in load_vectors(idl):
        if vector.session is None:  # a session vector is a script, not one operation's arguments
            decode_args(vector.operation, vector.args)
    for workload in load_workloads(idl).values():
        if workload.session is None:
            decode_args(workload.operation, workload.args)


def test_vectors_load_with_their_expectations(idl):
    vectors = {v.id: v for v in load_vectors(idl)}
    assert vectors["fail_simple"].expect_error == {"code": 42, "message": "boom"}
    assert vectors["float32_nan"].needs == ("nonfinite-float",)
    assert vectors["int64_max"].needs == ("int64-exact",)
    # The stream's vectors need what their operation needs.
    assert vectors["random_doubles_stream_50k"].needs == ("server-streaming",)
