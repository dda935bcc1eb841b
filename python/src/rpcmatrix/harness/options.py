"""The command-line options every server and client shares, and the registry check at start."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rpcmatrix.contract.catalog import UnknownProtocol, load_protocol


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--protocol", required=True, help="a protocol of idl/protocols.json")
    parser.add_argument("--host", required=True, help="the address to bind or dial, exactly")
    parser.add_argument("--idl", type=Path, required=True, help="the idl/ folder")
    parser.add_argument("--secrets", type=Path, default=None, help="the folder of keys and certificates")
    parser.add_argument("--cell", type=Path, default=None,
                        help="the cell's scratch folder, shared by its server and client (an object reference)")


def resolve_protocol(options: argparse.Namespace, families: tuple[str, ...]) -> None:
    """Sets `options.registered` to the protocol's registry entry (its family and variant), or leaves the
    process with the registry's message and status 2 when the protocol is not registered, or is registered
    but not of a family this module serves."""
    try:
        registered = load_protocol(options.idl, options.protocol)
    except UnknownProtocol as e:
        print(str(e), file=sys.stderr)
        raise SystemExit(2) from None
    if registered.family not in families:
        print(f"protocol '{options.protocol}' is of the family {registered.family!r}, which this module "
              f"does not serve ({', '.join(families)})", file=sys.stderr)
        raise SystemExit(2)
    options.registered = registered
