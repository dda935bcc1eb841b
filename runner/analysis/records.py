"""The records of a run, one per (cell, workload, pass), in results.jsonl (schema: results/README.md), and
the one way to read them back (load).

A record names its run (run_id) and its cell. What the run's machine and settings were is stored once per
run (env.json), what each cell's server and client were once per cell (cells.jsonl), and each server's exit
status once per cell (server_exits.jsonl, written after the cell, when its server stops): load() joins
them into each record (Environment.join), so no reader looks for them anywhere else.

Runs of schema 2 (the published ones made before schema 3) embedded that environment in every record and
appended a cell's records again as later facts arrived; load() reads them as well, the last record of a
(cell, workload, pass) winning, and a published run's results.jsonl.gz (or its parts, results-01.jsonl.gz,
results-02.jsonl.gz, ...) when there is no results.jsonl.
"""
import fcntl
import gzip
import json
import os
from pathlib import Path
from typing import Iterator

SCHEMA_VERSION = 3
FLOOR_CELL = "floor/c→c"
RESULTS = "results.jsonl"
PUBLISHED_RESULTS = "results.jsonl.gz"
# a published run whose records would be one file over publish.PART_LIMIT has them in parts, in order
PUBLISHED_PART = "results-{:02d}.jsonl.gz"
# a server's exit status after SIGTERM, known once it stops: one line per cell it served, "<pass>\t<cell>\t<status>",
# written by the runner's shell (runs before schema 3's successor: server_exits.jsonl, one JSON object a line)
SERVER_EXITS = "server_exits.tsv"
SERVER_EXITS_JSON = "server_exits.jsonl"
# every raw per-call sample of the run, one line per (cell, workload, pass): exports.write_samples writes it
SAMPLES = "samples.jsonl.gz"
# `compare A B` into B's folder: the comparison as data, which B's report.html draws as a section of its own
COMPARE_DATA = "compare.json"
# The floor's two sides are no implementation of a manifest: what they are is said here.
FLOOR_SIDES = {"server_library": "runner/floor/floor.c", "client_library": "runner/floor/floor.c",
               "server_thread_model": "thread per connection, blocking socket",
               "client_thread_model": "one blocking socket"}
# a server stopped with SIGTERM exits 0 or 143 (128 + 15); anything else is noted on the cell's vectors
EXPECTED_EXITS = (None, 0, 143)


def bytes_per_call(wire: dict | None) -> float | None:
    """A record's bytes per call, both directions: the TCP payload where the counting pass counted it segment
    by segment (runner/lib/netns.sh), else the Ethernet frames (bare ACKs included); None when not counted."""
    if not wire:
        return None
    kind = "payload" if "payload_c2s" in wire else "bytes"
    if wire.get(f"{kind}_c2s") is None or wire.get(f"{kind}_s2c") is None:
        return None
    return wire[f"{kind}_c2s"] + wire[f"{kind}_s2c"]


def key(rec: dict) -> tuple:
    return rec["cell"], rec["workload"], rec.get("pass", 1)


def append(run: Path, records: list[dict]) -> None:
    """Appends a step's records to results.jsonl in one write, so that a kill leaves all of them or none
    (short of a torn last line, which stored() skips and resume trims); under a lock, as the lanes of a run
    append at once."""
    data = memoryview("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8"))
    fd = os.open(run / RESULTS, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        while data:
            data = data[os.write(fd, data):]
    finally:
        os.close(fd)


def published_parts(run: Path) -> list[Path]:
    """A published run's records: results.jsonl.gz, or its parts in order (none if there are neither)."""
    if (run / PUBLISHED_RESULTS).exists():
        return [run / PUBLISHED_RESULTS]
    parts = []
    while (run / PUBLISHED_PART.format(len(parts) + 1)).exists():
        parts.append(run / PUBLISHED_PART.format(len(parts) + 1))
    return parts


def _lines(run: Path) -> Iterator[str]:
    """The lines of results.jsonl, or of a published run's results.jsonl.gz or its parts."""
    if (run / RESULTS).exists():
        with open(run / RESULTS, encoding="utf-8") as lines:
            yield from lines
        return
    for part in published_parts(run):
        with gzip.open(part, "rt", encoding="utf-8") as lines:
            yield from lines


def stored(run: Path) -> list[dict]:
    """The run's records as stored, the last one of each (cell, workload, pass), in the order each was first
    written. Schema 3 holds one each; schema 2 held two or three. A line torn by a kill is skipped: it
    belongs to a step the journal does not list, which resume drops."""
    latest: dict[tuple, dict] = {}
    for line in _lines(run):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        latest[key(rec)] = rec
    return list(latest.values())


def load(run: Path) -> list[dict]:
    """Every record of the run (either schema), each joined with its environment and server exit."""
    environment = Environment(run)
    return [environment.join(rec) for rec in stored(run)]


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _json_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def server_exits(run: Path) -> list[tuple[int, str, int]]:
    """(pass, cell, exit status) of every line of server_exits.tsv, a line torn by a kill left out."""
    path = run / SERVER_EXITS
    out = []
    for line in (path.read_text(encoding="utf-8").splitlines() if path.exists() else []):
        fields = line.split("\t")
        if len(fields) == 3 and fields[0].isdigit() and fields[2].isdigit():
            out.append((int(fields[0]), fields[1], int(fields[2])))
    return out


class Environment:
    """What the records of a run refer to: the run's settings and host and each language's versions
    (env.json), each cell's server and client (cells.jsonl; the floor and the handlers are pseudo-cells
    made from the record itself), and each server's exit status per cell and pass (server_exits.jsonl)."""

    def __init__(self, run: Path):
        env = _json(run / "env.json")
        self.settings = env.get("run", {})
        self.versions = env.get("versions", {})
        self.cells = {c["name"]: c for c in _json_lines(run / "cells.jsonl")}
        self.exits = {(e["pass"], e["cell"]): e["server_exit_status"] for e in _json_lines(run / SERVER_EXITS_JSON)}
        self.exits |= {(p, c): s for p, c, s in server_exits(run)}
        self._views: dict[str, dict] = {}

    def cell(self, rec: dict) -> dict:
        """The record's cell as cells.jsonl has it, or the pseudo-cell its own fields describe."""
        found = self.cells.get(rec["cell"])
        if found is not None:
            return found
        cell = {"name": rec["cell"], **{k: rec.get(k) for k in ("protocol", "server", "client")},
                "server_language": rec.get("server_language", rec.get("server")),
                "client_language": rec.get("client_language", rec.get("client"))}
        if rec["cell"] == FLOOR_CELL:
            cell.update(FLOOR_SIDES)
        return cell

    def side(self, cell: dict, role: str) -> dict:
        """One side of a cell: implementation, language, library, settings, thread model, argv, versions."""
        language = cell.get(f"{role}_language", cell.get(role))
        return {"implementation": cell.get(role), "language": language, "library": cell.get(f"{role}_library"),
                "settings": cell.get(f"{role}_settings"), "thread_model": cell.get(f"{role}_thread_model"),
                "argv": cell.get(f"{role}_argv"), "versions": self.versions.get(language, {})}

    def view(self, rec: dict) -> dict:
        """The record's environment: the run's settings, and its server and client under `server` and
        `client`. One object per cell, shared by the cell's records: read it, do not change it."""
        name = rec["cell"]
        if name not in self._views:
            cell = self.cell(rec)
            self._views[name] = {**self.settings, "server": self.side(cell, "server"),
                                 "client": self.side(cell, "client")}
        return self._views[name]

    def join(self, rec: dict) -> dict:
        """The record with its environment under `env` (a schema 2 record's embedded copy is replaced by the
        same view) and, once its server stopped, the server's exit status."""
        joined = {k: v for k, v in rec.items() if k != "env"}
        joined["env"] = self.view(rec)
        exit_key = (rec.get("pass", 1), rec["cell"])
        if exit_key in self.exits:
            code = self.exits[exit_key]
            joined["server_exit_status"] = code
            if rec["workload"] == "vectors" and code not in EXPECTED_EXITS:
                joined["server_exit_note"] = (f"the server exited with status {code} after SIGTERM "
                                              "(137: it had to be killed)")
        return joined


def attacks_ran(cells: list[tuple[str, dict | None]], attacks: dict) -> tuple[list[str], list[tuple[str, dict]]]:
    """Of (cell, its vectors record) pairs, the attack vectors (ids in `attacks`) that ran, not unsupported:
    the ids that ran anywhere, in the order of `attacks`, and per cell that ran one its vectors by id."""
    ran_per_cell = []
    for cell, rec in cells:
        ran = {v["id"]: v for v in (rec or {}).get("vectors", [])
               if v["id"] in attacks and v["status"] != "unsupported"}
        if ran:
            ran_per_cell.append((cell, ran))
    shown = [i for i in attacks if any(i in ran for _, ran in ran_per_cell)]
    return shown, ran_per_cell
