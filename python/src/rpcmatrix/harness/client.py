"""The client process of runner/PROTOCOL.md: one JSON command per line on stdin, one JSON answer per line
on stdout. A protocol supplies `connect(options)`, returning an object with the Bench methods in snake_case
(see rpcmatrix.contract.reference.ReferenceBench) and `close()`; a stream method returns its chunks."""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from rpcmatrix.contract.catalog import load_limits, load_vectors, load_workloads
from rpcmatrix.harness.conformance import run_vectors
from rpcmatrix.harness.workloads import WrongAnswer, measure, warmup


def parse_options(argv: list[str], configure_parser: Callable | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="client", description="rpcmatrix client (runner/PROTOCOL.md)")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--idl", type=Path, required=True, help="the idl/ folder")
    parser.add_argument("--secrets", type=Path, default=None, help="the folder of keys and certificates")
    parser.add_argument("--tls", action="store_true", help="connect over TLS")
    if configure_parser is not None:
        configure_parser(parser)
    return parser.parse_args(argv)


class CommandLoop:
    """Answers the runner's commands; keeps one connected client adapter for the whole cell."""

    def __init__(self, options: argparse.Namespace, connect: Callable, default_protocol: str):
        self.options = options
        self.connect_adapter = connect
        self.default_protocol = default_protocol
        self.client = None
        self.vectors = load_vectors(options.idl)
        self.workloads = load_workloads(options.idl)

    def answer(self, command: dict) -> dict:
        name = command.get("cmd")
        handler = getattr(self, f"do_{name}", None) if isinstance(name, str) else None
        if handler is None:
            return {"ok": False, "error": f"unknown command {name!r}"}
        try:
            return {"ok": True, **handler(command)}
        except WrongAnswer as e:
            return {"ok": False, "error": str(e)}
        except Exception as e:
            return {"ok": False, "error": f"{type(e).__name__}: {e}"}

    def do_connect(self, command: dict) -> dict:
        self.close()
        started = time.perf_counter_ns()
        self.client = self.connect_adapter(self.options)
        self.client.ping()
        return {"instantiation_ns": time.perf_counter_ns() - started}

    def do_vectors(self, command: dict) -> dict:
        protocol = command.get("protocol", self.default_protocol)
        results = run_vectors(self.connected(), self.vectors, protocol, load_limits(self.options.idl, protocol))
        return {"results": results}

    def do_warmup(self, command: dict) -> dict:
        return {"checked": warmup(self.connected(), self.workload(command), _count(command, "calls"))}

    def do_measure(self, command: dict) -> dict:
        samples = measure(self.connected(), self.workload(command), _count(command, "calls"),
                          _count(command, "repetitions"))
        return {"samples_ns": samples}

    def do_quit(self, command: dict) -> dict:
        self.close()
        return {}

    def workload(self, command: dict):
        name = command.get("workload")
        if name not in self.workloads:
            raise ValueError(f"unknown workload {name!r}")
        return self.workloads[name]

    def connected(self):
        if self.client is None:
            raise RuntimeError("not connected: send {\"cmd\": \"connect\"} first")
        return self.client

    def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            try:
                client.close()
            except Exception as e:  # closing is best effort; say why on stderr
                print(f"closing the client: {type(e).__name__}: {e}", file=sys.stderr)


def _count(command: dict, key: str) -> int:
    value = command.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{key} must be a non-negative integer, got {value!r}")
    return value


def serve_commands(loop: CommandLoop, commands: TextIO, answers: TextIO) -> None:
    """Reads commands until `quit` or the end of input, answering each one on its own line."""
    while True:
        line = commands.readline()
        if not line:
            loop.close()
            return
        if not line.strip():
            continue
        try:
            command = json.loads(line)
            if not isinstance(command, dict):
                raise ValueError("a command is a JSON object")
        except ValueError as e:
            answer, command = {"ok": False, "error": f"bad command: {e}"}, {}
        else:
            answer = loop.answer(command)
        answers.write(json.dumps(answer) + "\n")
        answers.flush()
        if command.get("cmd") == "quit":
            return


def run(argv: list[str], connect: Callable, default_protocol: str,
        configure_parser: Callable | None = None) -> int:
    """The whole client process; `configure_parser(parser)` may add protocol-specific flags."""
    options = parse_options(argv, configure_parser)
    # stdout carries only the answers: anything a library prints goes to stderr instead.
    answers = sys.stdout
    sys.stdout = sys.stderr
    loop = CommandLoop(options, connect, default_protocol)
    serve_commands(loop, sys.stdin, answers)
    return 0
