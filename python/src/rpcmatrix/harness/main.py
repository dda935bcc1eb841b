"""The `server` / `client` subcommands every protocol's `python -m rpcmatrix.<protocol>` offers."""
from __future__ import annotations

import sys
from collections.abc import Callable

from rpcmatrix.harness import client, server


def main_for_protocol(protocol: str, argv: list[str], start: Callable, connect: Callable,
                      configure_parser: Callable | None = None) -> int:
    if not argv or argv[0] not in ("server", "client"):
        print(f"usage: python -m rpcmatrix.{protocol} server|client [options]", file=sys.stderr)
        return 2
    if argv[0] == "server":
        return server.run(argv[1:], start, configure_parser)
    return client.run(argv[1:], connect, protocol, configure_parser)
