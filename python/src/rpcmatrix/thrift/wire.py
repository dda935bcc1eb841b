"""The Thrift protocol (wire encoding) of a server or client, chosen with `--wire binary|compact`."""
from __future__ import annotations

import argparse

from thrift.protocol.TBinaryProtocol import TBinaryProtocolAcceleratedFactory
from thrift.protocol.TCompactProtocol import TCompactProtocolAcceleratedFactory

# --wire value -> the protocol's name in the manifests, vectors and protocol-limits.json
PROTOCOL_NAMES = {"binary": "thrift-binary", "compact": "thrift-compact"}


def protocol_factory(wire: str):
    """The Accelerated factory of `wire`. fallback=False: fail rather than silently run the pure-Python
    codec when the C extension is missing, which would measure something else."""
    if wire == "binary":
        return TBinaryProtocolAcceleratedFactory(fallback=False)
    if wire == "compact":
        return TCompactProtocolAcceleratedFactory(fallback=False)
    raise ValueError(f"--wire must be binary or compact, not {wire!r}")


def add_wire_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wire", required=True, choices=sorted(PROTOCOL_NAMES),
                        help="the Thrift protocol: thrift-binary or thrift-compact")


def wire_in(argv: list[str]) -> str | None:
    """The `--wire` value in a command line, before the full parse (it names the client's protocol)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--wire")
    return parser.parse_known_args(argv)[0].wire
