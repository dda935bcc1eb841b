"""A JSON-RPC 2.0 server of the rpcmatrix contract in Python's standard library alone: the worked example of an
implementation kept outside the suite (examples/README.md). It is written from idl/CONTRACT.md, not from the
suite's adapters, as a user's own stack would be, and it speaks the runner's server protocol (runner/PROTOCOL.md):
it binds the host and port it is given, prints one ready line with the port, and stops on SIGTERM.

    python3 server.py --protocol jsonrpc --host 127.0.0.1 --port 0 --idl ../../idl [--mode M --state DIR]

--mode is for the suite's tests of certification: `echo` answers every call with its first argument (an impostor
that only echoes), `replay` answers from answers recorded in --state DIR by an earlier honest run (an impostor that
replays), `flaky` refuses the first call of getRecord it sees (once per --state DIR), then serves honestly."""
import argparse
import base64
import json
import math
import signal
import struct
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

MASK = (1 << 64) - 1
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
RANGES = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "timestamp": 64}
INVALID_PARAMS = -32602


class BenchError(Exception):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class SplitMix64:
    """The contract's generator (idl/CONTRACT.md#generated-data)."""

    def __init__(self, seed: int):
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def double(self) -> float:
        return (self.next() >> 11) * 2.0 ** -53

    def below(self, n: int) -> int:
        return (self.next() >> 1) % n

    def signed64(self) -> int:
        v = self.next()
        return v - (1 << 64) if v >> 63 else v

    def signed32(self) -> int:
        v = self.next() >> 32
        return v - (1 << 32) if v >> 31 else v

    def word(self, length: int) -> str:
        return "".join(ALPHABET[self.below(62)] for _ in range(length))


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


def float32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def counted(count: int) -> int:
    if count < 0:
        raise BenchError(400, "count must not be negative")
    return count


def is_prime(n: int) -> bool:
    if n < 4:
        return n >= 2
    return n % 2 != 0 and all(n % d for d in range(3, math.isqrt(n) + 1, 2))


def log(x: float) -> float:
    if x == 0:
        return -math.inf
    return math.nan if x < 0 or math.isnan(x) else math.log(x)


def get_record(key: str) -> dict:
    rng = SplitMix64(fnv1a64(key.encode()))
    return {"id": rng.signed64(), "tags": [rng.word(12) for _ in range(8)],
            "values": [rng.double() * 1000.0 for _ in range(16)]}


def search_books(query: str, count: int) -> list[dict]:
    rng, books = SplitMix64(fnv1a64(query.encode())), []
    for _ in range(counted(count)):
        title = rng.word(40)
        authors = [rng.word(20) for _ in range(1 + rng.below(3))]
        price = rng.below(10000) / 100.0
        book = {"title": title, "authors": authors, "price": price, "listPrice": price + rng.below(5000) / 100.0,
                "publisher": rng.word(24), "year": 1950 + rng.below(76), "month": 1 + rng.below(12),
                "keywords": [rng.word(10) for _ in range(rng.below(6))]}
        book["isbn"] = "978" + "".join(str(rng.below(10)) for _ in range(10))
        book |= {"starRating": rng.below(6), "url": "https://books.example.org/isbn/" + book["isbn"]}
        books.append(book)
    return books


def get_items(count: int) -> list[dict]:
    rng, items = SplitMix64(counted(count)), []
    for _ in range(count):
        item = {"id": rng.signed64()}
        item |= {field: rng.word(40) for field in ("title", "description", "category", "owner")}
        created = 1000000000000 + rng.below(1000000000000)
        item |= {"created": created, "updated": created + rng.below(1000000000), "quantity": rng.signed32(),
                 "price": rng.double() * 1000000.0, "weight": float32(rng.double())}
        items.append(item)
    return items


def fail(code: int, message: str):
    raise BenchError(code, message)


def random_doubles(count: int, seed: int) -> list[float]:
    rng = SplitMix64(seed)
    return [rng.double() for _ in range(counted(count))]


OPERATIONS = {
    "ping": lambda: None, "isPrime": is_prime, "getRecord": get_record, "searchBooks": search_books,
    "getItems": get_items, "fail": fail, "randomDoubles": random_doubles,
    "average": lambda values: _sum(values) / len(values) if values else 0.0,
    "logTransform": lambda values: [log(v) for v in values],
    **{f"echo{t}": (lambda value: value) for t in ("Bool", "Int8", "Int16", "Int32", "Int64", "Float32", "Float64",
                                                   "String", "Bytes")},
}


def _sum(values: list[float]) -> float:
    total = 0.0
    for v in values:  # left to right in float64, as the contract says (not math.fsum)
        total += v
    return total


def read(value, kind: str):
    """A parameter as JSON-RPC carries it (idl/CONTRACT.md#carriage), checked against its declared type."""
    if kind.endswith("[]"):
        if not isinstance(value, list):
            raise BenchError(INVALID_PARAMS, f"expected an array for {kind}")
        return [read(v, kind[:-2]) for v in value]
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind in RANGES and isinstance(value, int) and not isinstance(value, bool):
        bits = RANGES[kind]
        if -(1 << (bits - 1)) <= value < 1 << (bits - 1):
            return value
        raise BenchError(INVALID_PARAMS, f"{value} does not fit {kind}")
    if kind in ("float32", "float64") and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float32(float(value)) if kind == "float32" else float(value)
    if kind == "string" and isinstance(value, str):
        return value
    if kind == "bytes" and isinstance(value, str):
        return base64.b64decode(value, validate=True)
    raise BenchError(INVALID_PARAMS, f"{json.dumps(value)[:40]} is not a {kind}")


def write(value):
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, list):
        return [write(v) for v in value]
    if isinstance(value, dict):
        return {k: write(v) for k, v in value.items()}
    return value


class Bench:
    """The contract's operations by name, their parameter types from idl/contract.json."""

    def __init__(self, idl: Path, mode: str, state: Path | None):
        contract = json.loads((idl / "contract.json").read_text())
        self.params = {o["name"]: [p["type"] for p in o["params"]] for o in contract["operations"]}
        self.mode, self.state, self.lock = mode, state, threading.Lock()
        self.recorded: dict | None = None

    def call(self, method: str, params: list):
        if method not in OPERATIONS or method not in self.params:
            raise KeyError(method)
        kinds = self.params[method]
        if not isinstance(params, list) or len(params) != len(kinds):
            raise BenchError(INVALID_PARAMS, f"{method} takes {len(kinds)} positional parameters")
        if self.mode == "echo":  # the impostor that only echoes
            return params[0] if params else None
        if self.mode == "replay":  # the impostor that replays what an honest run answered
            return self._replay(method, params)
        if self.mode == "flaky" and method == "getRecord" and self._first("flaky"):
            raise BenchError(503, "not yet")
        try:
            result = write(OPERATIONS[method](*(read(v, k) for v, k in zip(params, kinds, strict=True))))
        except BenchError as e:
            self._record(method, params, {"error": [e.code, e.message]})
            raise
        self._record(method, params, {"result": result})
        return result

    def _first(self, name: str) -> bool:
        with self.lock:
            marker = self.state / name
            if marker.exists():
                return False
            marker.touch()
            return True

    def _key(self, method: str, params: list) -> str:
        return json.dumps([method, params], sort_keys=True)

    def _record(self, method: str, params: list, answer: dict) -> None:
        """An honest answer (result or error), kept for the replaying impostor when there is a --state folder."""
        if self.state is None or self.mode != "honest":
            return
        with self.lock, open(self.state / "answers.jsonl", "a") as f:
            f.write(json.dumps({"key": self._key(method, params), "method": method, **answer}) + "\n")

    def _replay(self, method: str, params: list):
        with self.lock:
            if self.recorded is None:  # read once: by request, then the last answer of each method
                path = self.state / "answers.jsonl"
                answers = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
                self.recorded = {a["key"]: a for a in answers} | {a["method"]: a for a in answers}
        # not recorded: the last answer recorded for the method, as a replayer would guess
        exact = self.recorded.get(self._key(method, params)) or self.recorded.get(method, {"result": None})
        if "error" in exact:
            raise BenchError(*exact["error"])
        return exact["result"]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the contract's JSON-RPC asks
    # the headers and the body leave in two writes: with Nagle's algorithm the body waits for the client's delayed
    # ACK of the headers (40 ms a call on Linux)
    disable_nagle_algorithm = True

    def do_POST(self):
        if self.path != "/jsonrpc":
            self.send_error(404)
            return
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        answer = self._respond(body)
        try:
            data = json.dumps(answer, ensure_ascii=False, allow_nan=False).encode()
        except ValueError:  # NaN or infinity: JSON has none (idl/protocols.json)
            data = json.dumps({"jsonrpc": "2.0", "id": answer.get("id"), "error": {
                "code": -32603, "message": "Internal error: the result has no JSON form (NaN or infinity)"}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _respond(self, body: bytes) -> dict:
        try:
            request = json.loads(body)
        except ValueError:
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        if not isinstance(request, dict) or request.get("jsonrpc") != "2.0" or not isinstance(request.get("method"),
                                                                                                str):
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
        answer = {"jsonrpc": "2.0", "id": request.get("id")}
        try:
            return answer | {"result": self.server.bench.call(request["method"], request.get("params", []))}
        except KeyError:
            return answer | {"error": {"code": -32601, "message": "Method not found"}}
        except BenchError as e:
            return answer | {"error": {"code": e.code, "message": e.message}}
        except (ValueError, TypeError) as e:
            return answer | {"error": {"code": INVALID_PARAMS, "message": f"Invalid params: {e}"}}

    def log_message(self, *_):  # no per-request logging
        pass


def main() -> int:
    p = argparse.ArgumentParser(prog="server.py")
    p.add_argument("--protocol", required=True)
    p.add_argument("--host", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--idl", required=True)
    p.add_argument("--mode", choices=("honest", "echo", "replay", "flaky"), default="honest")
    p.add_argument("--state", help="a folder for what the modes remember")
    o = p.parse_args()
    if o.protocol != "jsonrpc":
        print(f"server.py: serves jsonrpc only, not '{o.protocol}'", file=sys.stderr)
        return 2
    state = Path(o.state) if o.state else None
    if o.mode in ("replay", "flaky") and state is None:
        p.error(f"--mode {o.mode} needs --state")
    try:
        server = ThreadingHTTPServer((o.host, o.port), Handler)
    except OSError as e:
        print(f"server.py: cannot listen on {o.host}:{o.port}: {e.strerror}", file=sys.stderr)
        return 1
    server.daemon_threads = True
    server.bench = Bench(Path(o.idl), o.mode, state)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(json.dumps({"ready": True, "port": server.server_address[1]}), flush=True)
    server.serve_forever()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
