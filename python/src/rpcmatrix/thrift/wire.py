"""The Thrift protocol (wire encoding) of a server or client: the registry variant's `encoding`."""
from __future__ import annotations

from thrift.protocol.TBinaryProtocol import TBinaryProtocolAcceleratedFactory
from thrift.protocol.TCompactProtocol import TCompactProtocolAcceleratedFactory

# idl/CONTRACT.md, Limits: at most 4 MiB reserved for a declared size or count before its bytes arrive. The C
# codec checks both before it allocates (a list of doubles reserves 8 bytes per element: 4 MiB / 8); without
# them a list of 2^31-1 doubles declared in a 140-byte frame stopped the whole server.
STRING_LENGTH_LIMIT = 4 * 1024 * 1024
CONTAINER_LENGTH_LIMIT = 4 * 1024 * 1024 // 8


def protocol_factory(encoding: str):
    """The Accelerated factory of `encoding`, with the contract's limits on declared lengths. fallback=False:
    fail rather than silently run the pure-Python codec when the C extension is missing, which would measure
    something else."""
    limits = {"string_length_limit": STRING_LENGTH_LIMIT, "container_length_limit": CONTAINER_LENGTH_LIMIT}
    if encoding == "binary":
        return TBinaryProtocolAcceleratedFactory(fallback=False, **limits)
    if encoding == "compact":
        return TCompactProtocolAcceleratedFactory(fallback=False, **limits)
    raise ValueError(f"the Thrift encoding must be binary or compact, not {encoding!r}")


def encoding_of(options) -> str:
    """The encoding of the protocol named by --protocol, from its registry variant."""
    variant = options.registered.variant
    if variant.get("transport", "framed") != "framed":
        raise ValueError(f"only the framed transport is implemented, not {variant['transport']!r}")
    return variant["encoding"]
