"""The `server` / `client` subcommands every protocol's `python -m rpcmatrix.<package>` offers."""
from __future__ import annotations

import sys
from collections.abc import Callable

from rpcmatrix.harness import client, server


def main_for_protocol(family: str, argv: list[str], start: Callable, connect: Callable) -> int:
    """`family`: the registry family the module serves; `--protocol` picks the member and its variant."""
    if not argv or argv[0] not in ("server", "client"):
        print(f"usage: python -m <module> server|client --protocol P [options] (family {family})", file=sys.stderr)
        return 2
    if argv[0] == "server":
        return server.run(argv[1:], start, (family,))
    return client.run(argv[1:], connect, (family,))
