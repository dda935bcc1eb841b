"""The client process of runner/PROTOCOL.md: one JSON command per line on stdin, one JSON answer per line
on stdout. A protocol supplies `connect(options)`, returning an adapter with the Bench methods in snake_case
(see rpcmatrix.contract.reference.ReferenceBench), `close()`, and optionally `facts` (a dict answered by
`connect`) and `published_metadata()` (for `metadata`: {"consumable": bool, "reason": str}, whether the
stack can build a client from what the server publishes); an asynchronous adapter has coroutine methods and
its own event loop in `.loop` (rpcmatrix.harness.calls). `options.registered` is the protocol's registry entry."""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import TextIO

from rpcmatrix.contract.catalog import Workload, load_protocol, load_vectors, load_workloads
from rpcmatrix.contract.operations import BY_NAME
from rpcmatrix.contract.values import decode, decode_args
from rpcmatrix.harness import load, workloads
from rpcmatrix.harness.calls import Driver, PerCallDriver, bind_any, driver_for
from rpcmatrix.harness.conformance import run_vectors
from rpcmatrix.harness.options import add_common, resolve_protocol

_PING = BY_NAME["ping"]


def parse_options(argv: list[str], families: tuple[str, ...]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="client", description="rpcmatrix client (runner/PROTOCOL.md)")
    add_common(parser)
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args(argv)
    resolve_protocol(options, families)
    return options


class CommandLoop:
    """Answers the runner's commands; keeps one connected client adapter for the whole cell. It connects
    only on `connect`: `handler` needs no server."""

    def __init__(self, options: argparse.Namespace, connect: Callable):
        self.options = options
        self.connect_adapter = connect
        self.client = None
        self.target = options
        self.driver: Driver | None = None
        self.per_call = False  # connect's "connection": "per-call": each workload call on a new connection
        self.closing_each = False  # the adapter was told to close each connection itself (workload_driver)
        self.vectors = load_vectors(options.idl)
        self.workloads = load_workloads(options.idl)
        self.arguments: dict[str, list] = {}  # built once per workload for the process's life
        self.buffers: dict[str, list[list[int]]] = {}  # per workload: one sample list per measure

    def answer(self, command: dict) -> dict:
        name = command.get("cmd")
        handler = getattr(self, f"do_{name}", None) if isinstance(name, str) else None
        if handler is None:
            return {"ok": False, "error": f"unknown command {name!r}"}
        try:
            return {"ok": True, **handler(command)}
        except workloads.WrongAnswer as e:
            return {"ok": False, "error": str(e)}
        except Exception as e:
            return {"ok": False, "error": f"{type(e).__name__}: {e}"}

    def do_connect(self, command: dict) -> dict:
        """Connects to the server of the command line, or to the `host` and `port` the command names: the
        runner keeps one client process for every server of a protocol in a pass, each on its own port."""
        self.close()
        target = copy.copy(self.options)
        if "host" in command:
            target.host = str(command["host"])
        if "port" in command:
            target.port = _port(command)
        started = time.perf_counter_ns()
        self.target = target
        client = self.connect_adapter(target)
        self.client, self.driver = client, driver_for(client)
        self.driver.once(_PING, [])
        answer = {"instantiation_ns": time.perf_counter_ns() - started}
        if getattr(client, "facts", None):
            answer["facts"] = client.facts
        self.per_call = command.get("connection") == "per-call"
        if self.per_call:
            answer["connection"] = "per-call"
        self.closing_each = False  # told to the adapter at the first workload call (workload_driver)
        return answer

    def do_vectors(self, command: dict) -> dict:
        name = command.get("protocol", self.options.protocol)
        protocol = self.options.registered if name == self.options.protocol else load_protocol(self.options.idl, name)
        return {"results": run_vectors(self.connected(), self.vectors, protocol)}

    def do_metadata(self, command: dict) -> dict:
        self.connected()
        check = getattr(self.client, "published_metadata", None)
        if check is None:
            raise ValueError(f"this client cannot check the metadata {self.options.protocol} servers publish")
        return check()

    def do_prepare(self, command: dict) -> dict:
        workload = self.supported_workload(command)
        self.args_of(workload)
        self.buffers[workload.name] = []
        return {}

    def do_warmup(self, command: dict) -> dict:
        workload = self.supported_workload(command)
        driver, args, calls = self.workload_driver(workload), self.args_of(workload), _count(command, "calls")
        steady = command.get("until_steady")
        if steady is None:
            return workloads.warmup(driver, workload, args, calls)
        if not isinstance(steady, dict):
            raise ValueError("until_steady must be an object")
        return workloads.warmup_until_steady(driver, workload, args, calls, _number(steady, "tolerance"),
                                             _number(steady, "max_ms"))

    def do_measure(self, command: dict) -> dict:
        workload = self.supported_workload(command)
        driver, args = self.workload_driver(workload), self.args_of(workload)
        calls, min_ms, max_calls = _window(command)
        samples = workloads.measure(driver, workload, args, calls, min_ms, max_calls)
        self.buffers.setdefault(workload.name, []).append(samples)
        return {"calls": len(samples)}

    def do_samples(self, command: dict) -> dict:
        workload = self.workload(command)
        samples, self.buffers[workload.name] = self.buffers.get(workload.name, []), []
        return {"samples_ns": samples}

    def do_handler(self, command: dict) -> dict:
        workload = self.workload(command)  # every workload: the reference needs no capability
        calls, min_ms, max_calls = _window(command)
        repetitions = _count(command, "repetitions") if "repetitions" in command else 1
        return {"samples_ns": workloads.handler(workload, self.args_of(workload), calls, min_ms, max_calls,
                                                repetitions)}

    def do_load(self, command: dict) -> dict:
        """Many calls in flight (load.py) over `connections` connections of their own to the connected server;
        the command's connection stays as it was."""
        workload = self.supported_workload(command)
        if workload.session is not None:
            raise ValueError(f"load: {workload.name} is a session; load takes one operation per call")
        self.connected()
        plan = load.LoadPlan.of(command)
        adapters = []
        try:
            for _ in range(plan.connections):  # each opened and used once before the load (PROTOCOL.md#load)
                adapters.append(self.connect_adapter(self.target))
                driver_for(adapters[-1]).once(_PING, [])
            shared = all(getattr(adapter, "shares_connection", False) for adapter in adapters)
            if plan.in_flight > plan.connections and not shared:
                raise ValueError(f"load: this client makes one call at a time per connection: in_flight "
                                 f"{plan.in_flight} needs as many connections (asked {plan.connections})")
            args = self.args_of(workload)
            calls = [bind_any(adapter, workload.operation) for adapter in adapters]
            return load.run(plan, lambda worker: partial(calls[worker % plan.connections], *args))
        finally:
            for adapter in adapters:
                adapter.close()

    def do_quit(self, command: dict) -> dict:
        self.close()
        return {}

    def workload(self, command: dict) -> Workload:
        name = command.get("workload")
        if name not in self.workloads:
            raise ValueError(f"unknown workload {name!r}")
        return self.workloads[name]

    def supported_workload(self, command: dict) -> Workload:
        workload = self.workload(command)
        reason = self.options.registered.unsupported_reason(workload.needs)
        if reason is not None:
            raise ValueError(f"{workload.name} is unsupported on {self.options.protocol}: {reason}")
        return workload

    def args_of(self, workload: Workload) -> list:
        args = self.arguments.get(workload.name)
        if args is None:
            args = self.arguments[workload.name] = (
                [decode("int32", a) for a in workload.args] if workload.session is not None  # N of a session
                else decode_args(workload.operation, workload.args))
        return args

    def workload_driver(self, workload: Workload) -> Driver:
        """The connected driver, or with a connection per call one that connects, calls and closes each time: an
        adapter made anew per call, or, for an adapter that builds what users build once (a client from a WSDL),
        the connected adapter closing its connection after each answer (close_each_connection)."""
        driver = self.connected()
        if not self.per_call:
            return driver
        if workload.session is not None:
            raise ValueError(f"{workload.name}: a session's calls share their remote objects' connection: no "
                             "connection per call")
        if hasattr(self.client, "close_each_connection"):
            if not self.closing_each:  # the vectors kept the connect's connection; the workloads do not
                self.client.close_each_connection()
                self.closing_each = True
            return driver
        return PerCallDriver(self.connect_adapter, self.target)

    def connected(self) -> Driver:
        if self.driver is None:
            raise RuntimeError("not connected: send {\"cmd\": \"connect\"} first")
        return self.driver

    def close(self) -> None:
        client, self.client, self.driver = self.client, None, None
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


def _port(command: dict) -> int:
    port = _count(command, "port")
    if not 1 <= port <= 65535:
        raise ValueError(f"port must be 1 to 65535, got {port}")
    return port


def _number(command: dict, key: str) -> float:
    value = command.get(key)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{key} must be a non-negative number, got {value!r}")
    return float(value)


def _window(command: dict) -> tuple[int, float, int]:
    """calls, min_ms (absent: 0) and max_calls (absent: calls) of a measure or handler command."""
    calls = _count(command, "calls")
    min_ms = _number(command, "min_ms") if "min_ms" in command else 0.0
    max_calls = _count(command, "max_calls") if "max_calls" in command else calls
    return calls, min_ms, max_calls


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


def run(argv: list[str], connect: Callable, families: tuple[str, ...]) -> int:
    """The whole client process."""
    options = parse_options(argv, families)
    # stdout carries only the answers: anything a library prints goes to stderr instead.
    answers = sys.stdout
    sys.stdout = sys.stderr
    loop = CommandLoop(options, connect)
    serve_commands(loop, sys.stdin, answers)
    return 0
