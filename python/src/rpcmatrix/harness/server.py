"""The server process of runner/PROTOCOL.md: start, print the ready line, stop on SIGTERM within 5 s.
A protocol supplies `start(options)`, returning an object with `.port` (the bound port), `.stop()` and
optionally `.facts` (a dict of what the stack chose at run time, printed in the ready line).
`options.registered` is the protocol's registry entry: its variant says TLS or not, binary or compact."""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Callable

from rpcmatrix.harness.options import add_common, resolve_protocol

STOP_DEADLINE_S = 4.0  # the runner kills the process group after 5 s


def parse_options(argv: list[str], families: tuple[str, ...]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="server", description="rpcmatrix server (runner/PROTOCOL.md)")
    add_common(parser)
    parser.add_argument("--port", type=int, default=0, help="0: the operating system chooses")
    options = parser.parse_args(argv)
    resolve_protocol(options, families)
    return options


def run(argv: list[str], start: Callable, families: tuple[str, ...]) -> int:
    """The whole server process. Exits non-zero (SystemExit) when the server cannot start."""
    options = parse_options(argv, families)
    ready_line = sys.stdout
    sys.stdout = sys.stderr  # stdout carries only the ready line
    stop_requested = threading.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signal_number, lambda *_: stop_requested.set())
    try:
        server = start(options)
    except Exception as e:
        print(f"cannot start the server: {type(e).__name__}: {e}", file=sys.stderr)
        raise SystemExit(1) from None
    ready = {"ready": True, "port": server.port}
    if getattr(server, "facts", None):
        ready["facts"] = server.facts
    ready_line.write(json.dumps(ready) + "\n")
    ready_line.flush()
    while not stop_requested.wait(1.0):
        pass
    # If stopping or the interpreter's exit hangs (a stuck connection thread), leave anyway, in time.
    deadline = threading.Timer(STOP_DEADLINE_S, _leave_now)
    deadline.daemon = True
    deadline.start()
    server.stop()
    return 0


def _leave_now() -> None:
    print("the server did not stop in time; exiting", file=sys.stderr)
    sys.stderr.flush()
    os._exit(0)
