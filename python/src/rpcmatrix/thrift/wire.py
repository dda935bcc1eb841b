"""The Thrift protocol (wire encoding) of a server or client: the registry variant's `encoding`."""
from __future__ import annotations

from thrift.protocol.TBinaryProtocol import TBinaryProtocolAcceleratedFactory
from thrift.protocol.TCompactProtocol import TCompactProtocolAcceleratedFactory


def protocol_factory(encoding: str):
    """The Accelerated factory of `encoding`. fallback=False: fail rather than silently run the pure-Python
    codec when the C extension is missing, which would measure something else."""
    if encoding == "binary":
        return TBinaryProtocolAcceleratedFactory(fallback=False)
    if encoding == "compact":
        return TCompactProtocolAcceleratedFactory(fallback=False)
    raise ValueError(f"the Thrift encoding must be binary or compact, not {encoding!r}")


def encoding_of(options) -> str:
    """The encoding of the protocol named by --protocol, from its registry variant."""
    variant = options.registered.variant
    if variant.get("transport", "framed") != "framed":
        raise ValueError(f"only the framed transport is implemented, not {variant['transport']!r}")
    return variant["encoding"]
