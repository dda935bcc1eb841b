"""Thrift carriage (CONTRACT.md#carriage): float32 as a checked double, structs, the declared exception."""
import math
import struct

import pytest
from thrift.transport.TTransport import TMemoryBuffer

from rpcmatrix.contract.model import Item, Record
from rpcmatrix.thrift import mapping
from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen import ttypes
from rpcmatrix.thrift.wire import protocol_factory


def float32_from_bits(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


@pytest.mark.parametrize("value", [1.5, -0.0, float32_from_bits(0x00000001), float32_from_bits(0x007FFFFF),
                                   float32_from_bits(0x7F7FFFFF), float32_from_bits(0x3DCCCCCD),
                                   math.inf, -math.inf, math.nan])
def test_a_float32_is_accepted_unchanged(value):
    accepted = mapping.float32(value, "v")
    assert struct.pack("<d", accepted) == struct.pack("<d", value) or (math.isnan(value) and math.isnan(accepted))


@pytest.mark.parametrize("value", [0.1, math.pi, 1e300, 5e-324, 3.4028235677973366e38])
def test_a_double_that_is_not_a_float32_is_rejected(value):
    with pytest.raises(mapping.CarriageError, match="not exactly representable as float32"):
        mapping.float32(value, "v")


def test_an_item_weight_is_checked_on_receipt():
    item = Item(-7, "t", "d", "c", "o", 10**12, 10**12 + 1, -3, 12.5, 0.25)
    assert mapping.item_from_thrift(mapping.item_to_thrift(item)) == item
    wide = mapping.item_to_thrift(item)
    wide.weight = 0.1
    with pytest.raises(mapping.CarriageError, match="Item.weight"):
        mapping.item_from_thrift(wide)


def test_a_missing_field_is_an_error_not_an_empty_value():
    record = mapping.record_to_thrift(Record(1, ["a"], [2.0]))
    record.tags = None
    with pytest.raises(mapping.CarriageError, match="Record.tags is missing"):
        mapping.record_from_thrift(record)


@pytest.mark.parametrize("wire", ["binary", "compact"])
def test_the_protocols_use_the_c_extension(wire):
    protocol = protocol_factory(wire).getProtocol(TMemoryBuffer())
    assert protocol._fast_encode is not None and protocol._fast_decode is not None


@pytest.mark.parametrize("wire", ["binary", "compact"])
def test_structs_survive_the_accelerated_codec(wire):
    item = ttypes.Item(id=-(2**63), title="Grüße 𝄞", description="", category="c\x00", owner="o",
                       created=2**62, updated=2**62 + 1, quantity=-(2**31), price=1e-300, weight=0.25)
    written = TMemoryBuffer()
    item.write(protocol_factory(wire).getProtocol(written))
    read = ttypes.Item()
    read.read(protocol_factory(wire).getProtocol(TMemoryBuffer(written.getvalue())))
    assert read == item


def test_an_unknown_wire_is_refused():
    with pytest.raises(ValueError, match="binary or compact"):
        protocol_factory("json")


def test_the_table_covers_the_service_of_the_idl():
    from rpcmatrix.contract.operations import OPERATIONS
    from rpcmatrix.thrift._generated.rpcmatrix_thrift_gen import Bench
    from rpcmatrix.thrift.table import MAPPINGS

    service = {name for name in vars(Bench.Iface) if not name.startswith("_")}
    assert {entry.operation.name for entry in MAPPINGS} == service
    assert service == {op.name for op in OPERATIONS if not op.is_stream}  # Thrift has no streams
    declared = {name for name in service if "BenchError" in str(getattr(Bench, f"{name}_result").thrift_spec)}
    assert {entry.operation.name for entry in MAPPINGS if entry.declares_error} == declared
