"""The Thrift codec's limits on declared lengths (rpcmatrix.thrift.wire, idl/CONTRACT.md Limits): a count or a
length declared past them is refused before anything is reserved (the C codec raises OverflowError, and the
server closes the connection); the contract's own values still decode."""
import struct

import pytest
from thrift.transport.TTransport import TMemoryBuffer

from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen.Bench import average_args, echoString_args
from rpcmatrix.thrift.wire import CONTAINER_LENGTH_LIMIT, STRING_LENGTH_LIMIT, protocol_factory

LIST, STRING, DOUBLE, STOP = 15, 11, 4, 0


def _decode(args, payload: bytes):
    protocol = protocol_factory("binary").getProtocol(TMemoryBuffer(payload))
    args.read(protocol)
    return args


def test_a_list_of_2_pow_31_doubles_declared_in_a_few_bytes_is_refused():
    payload = struct.pack(">bhbi", LIST, 1, DOUBLE, 2**31 - 1) + b"\x00" * 16
    with pytest.raises(OverflowError, match="size exceeded specified limit"):
        _decode(average_args(), payload)


def test_a_string_declared_past_the_limit_is_refused():
    payload = struct.pack(">bhi", STRING, 1, STRING_LENGTH_LIMIT + 1) + b"x" * 16
    with pytest.raises(OverflowError, match="size exceeded specified limit"):
        _decode(echoString_args(), payload)


def test_the_contracts_largest_list_still_decodes():
    values = [float(i) for i in range(50_000)]
    payload = struct.pack(">bhbi", LIST, 1, DOUBLE, len(values)) + struct.pack(f">{len(values)}d", *values)
    assert _decode(average_args(), payload + bytes([STOP])).values == values
    assert len(values) < CONTAINER_LENGTH_LIMIT
