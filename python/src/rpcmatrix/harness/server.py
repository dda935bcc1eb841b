"""The server process of runner/PROTOCOL.md: start, print the ready line, stop on SIGTERM within 5 s.
A protocol supplies `start(options)`, returning an object with `.port` (the bound port) and `.stop()`."""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

STOP_DEADLINE_S = 4.0  # the runner kills the process group after 5 s


def parse_options(argv: list[str], configure_parser: Callable | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="server", description="rpcmatrix server (runner/PROTOCOL.md)")
    parser.add_argument("--host", required=True, help="the address to bind, exactly")
    parser.add_argument("--port", type=int, default=0, help="0: the operating system chooses")
    parser.add_argument("--secrets", type=Path, default=None, help="the folder of keys and certificates")
    parser.add_argument("--tls", action="store_true", help="serve over TLS")
    if configure_parser is not None:
        configure_parser(parser)
    return parser.parse_args(argv)


def run(argv: list[str], start: Callable, configure_parser: Callable | None = None) -> int:
    """The whole server process. Exits non-zero (SystemExit) when the server cannot start."""
    options = parse_options(argv, configure_parser)
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
    ready_line.write(json.dumps({"ready": True, "port": server.port}) + "\n")
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
