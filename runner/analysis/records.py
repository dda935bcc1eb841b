"""Turns what the shell runner observed (facts) into result records, appended to results.jsonl.

One record per (cell, workload, pass); the contract's vectors are the pseudo-workload "vectors", the
machine's floor is the pseudo-cell "floor/c→c" and each language's in-process handler the pseudo-cell
"handler/<language>". The schema is documented in results/README.md. Records are only ever appended, so
an interrupted run keeps what it had; when a part of a cell is recorded twice the last record wins.
"""
import gzip
import json
import os
import time
from pathlib import Path

from . import plan, stats

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SCHEMA_VERSION = 2
FLOOR_CELL = "floor/c→c"


def _cell(cell_dir: Path) -> dict:
    """cell.json sits in the cell's folder, one level above each pass's folder."""
    return json.loads((cell_dir.parent / "cell.json").read_text())


def _env(run: Path) -> dict:
    return json.loads((run / "env.json").read_text())


def _side(env: dict, cell: dict, role: str) -> dict:
    language = cell.get(f"{role}_language", cell.get(role))
    return {"implementation": cell.get(role), "language": language, "library": cell.get(f"{role}_library"),
            "settings": cell.get(f"{role}_settings"), "thread_model": cell.get(f"{role}_thread_model"),
            "argv": cell.get(f"{role}_argv"), "versions": env["versions"].get(language, {})}


def _base(run: Path, cell: dict, workload: str, pass_no: int) -> dict:
    env = _env(run)
    return {
        "schema": SCHEMA_VERSION,
        "run_id": run.name,
        "pass": pass_no,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "protocol": cell["protocol"],
        "server": cell["server"],
        "client": cell["client"],
        "server_language": cell.get("server_language", cell["server"]),
        "client_language": cell.get("client_language", cell["client"]),
        "cell": cell["name"],
        "workload": workload,
        "status": None,
        "reason": "",
        "calls": 0,
        "warmup": 0,
        "repetitions": 0,
        "rtt_us": None,
        "instantiation_us": None,
        "cpu_us_per_call": None,
        "rss_kb": None,
        "threads": None,
        "wire_per_call": None,
        "env": {**env["run"], "server": _side(env, cell, "server"), "client": _side(env, cell, "client")},
    }


def _json_or_none(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.exists() else None


def _us(answer: dict | None, key: str) -> float | None:
    """A nanosecond figure of the client's connect answer, in µs."""
    return answer[key] / 1000.0 if answer and answer.get(key) is not None else None


def _facts(cell_dir: Path, connect: dict | None) -> dict:
    """What the stacks said about themselves at run time: the server's ready line, the client's connect."""
    out = {}
    try:
        ready = json.loads((cell_dir / "server.out").read_text().splitlines()[0])
        if ready.get("facts"):
            out["server"] = ready["facts"]
    except (OSError, IndexError, ValueError):
        pass
    if connect and connect.get("facts"):
        out["client"] = connect["facts"]
    return out


def vectors_record(run: Path, cell_dir: Path, facts: dict) -> list[dict]:
    cell = _cell(cell_dir)
    answer = json.loads((cell_dir / "vectors.json").read_text())
    results = answer.get("results", [])
    counts: dict[str, int] = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    bad = [r for r in results if r["status"] not in ("pass", "unsupported")]
    reason = ""
    if not results:
        status, reason = "error", "the client ran no vector"
    elif any(r["status"] == "error" for r in bad):
        status = "error"
    elif bad:
        status = "fail"
    else:
        status = "pass"
    if results:
        reason = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        reason += "".join(f"; {r['id']}: {r.get('reason', '')}" for r in bad[:3])
    rec = _base(run, cell, "vectors", facts["pass"])
    connect = _json_or_none(cell_dir / "connect.json")
    rec.update(status=status, reason=reason, calls=len(results), vectors=results,
               instantiation_us=_us(connect, "instantiation_ns"), facts=_facts(cell_dir, connect),
               processes=(connect or {}).get("processes"))
    stub = _us(connect, "instantiation_stub_ns")
    if stub is not None:  # from a reference already obtained (no registry or naming lookup)
        rec["instantiation_stub_us"] = stub
    metadata = _json_or_none(cell_dir / "metadata.json")
    if metadata is not None:  # whether the client could consume the server's published metadata
        rec["metadata"] = {"consumable": metadata.get("consumable") if metadata.get("ok") else None,
                           "reason": metadata.get("reason") or metadata.get("error") or ""}
    return [rec]


def _read_samples(path: Path) -> list[list[int]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return json.loads(f.read())["samples_ns"]


def _cpu(reps: list[list], rep_calls: list[int]) -> dict:
    """CPU per call from the cgroups' microsecond counters read around each repetition."""
    per_rep = []
    for (calls, cb, sb, ca, sa, *_), n in zip(reps, rep_calls):
        if None in (cb, sb, ca, sa) or not n:
            return {}
        per_rep.append(((ca - cb) / n, (sa - sb) / n))
    total = sum(rep_calls)
    client = sum(r[0] * n for r, n in zip(per_rep, rep_calls)) / total
    server = sum(r[1] * n for r, n in zip(per_rep, rep_calls)) / total
    return {"client": client, "server": server,
            "client_rep_cv": stats.cv([r[0] for r in per_rep]), "server_rep_cv": stats.cv([r[1] for r in per_rep]),
            "per_repetition": [[round(c, 3), round(s, 3)] for c, s in per_rep]}


def workload_record(run: Path, cell_dir: Path, facts: dict) -> list[dict]:
    cell = _cell(cell_dir)
    name = facts["workload"]
    measured = facts["measured"]
    samples = _read_samples(cell_dir / f"{name}.samples.json")
    rec = _base(run, cell, name, facts["pass"])
    connect = _json_or_none(cell_dir / "connect.json")
    rec.update(warmup=facts["warmup"], repetitions=facts["repetitions"], size=facts["size"],
               min_ms=facts.get("min_ms", 0), instantiation_us=_us(connect, "instantiation_ns"),
               facts=_facts(cell_dir, connect), processes=(connect or {}).get("processes"))
    reps = measured["repetitions"]
    rep_calls = [r[0] for r in reps]
    counted = [len(s) for s in samples]
    if counted != rep_calls or len(samples) != facts["repetitions"]:
        rec.update(status="error", reason=f"client returned {counted} samples per repetition for the calls it "
                                          f"reported ({rep_calls}; {facts['repetitions']} repetitions planned)")
        return [rec]
    if any(n < facts["calls"] for n in rep_calls):
        rec.update(status="error", reason=f"a repetition made fewer than the {facts['calls']} calls asked: {rep_calls}")
        return [rec]
    total = sum(rep_calls)
    rec.update(stats.summarize(samples))
    rec.update(status="pass", calls=total)
    rec["cpu_us_per_call"] = _cpu(reps, rep_calls) or None
    client, server = measured["client_group"], measured["server_group"]
    rec["rss_kb"] = {"client_peak": client[2], "server_peak": server[2], "client_after": client[1],
                     "server_after": server[1]}
    rec["threads"] = {"client": client[3], "server": server[3]}
    accepted = measured.get("accepted") or [None, None]
    if accepted[0] is not None and accepted[1] is not None:
        rec["wire_per_call"] = {"connections": (accepted[1] - accepted[0]) / total}
    time_wait = measured.get("time_wait") or [None, None]
    if None not in time_wait:
        rec["time_wait"] = {"client": time_wait[0], "server": time_wait[1]}
    steady = _steady(cell_dir, name)
    if steady:
        rec["warmup_steady"] = steady
    return [rec]


def _steady(cell_dir: Path, name: str) -> dict | None:
    path = cell_dir / "warmup.jsonl"
    if not path.exists():
        return None
    found = None
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        if entry.get("workload") == name:
            found = {k: entry.get(k) for k in ("steady", "batches", "elapsed_ms", "checked")}
    return found


def status_records(run: Path, cell_dir: Path, facts: dict) -> list[dict]:
    """One status for the parts of a cell not yet recorded: from the vectors, from the workloads, from
    a given workload on, or (only) that workload."""
    cell = _cell(cell_dir)
    names = [w["name"] for w in plan.read_plan(run, cell["protocol"])]
    start = facts.get("from", "vectors")
    if start == "vectors":
        parts = ["vectors"] + names
    elif start == "workloads":
        parts = names
    else:
        parts = names[names.index(start):] if start in names else [start]
        if facts.get("only"):
            parts = parts[:1]
    records = []
    for part in parts:
        rec = _base(run, cell, part, facts["pass"])
        rec.update(status=facts["status"], reason=facts["reason"], instantiation_us=_us(_json_or_none(cell_dir / "connect.json"), "instantiation_ns"))
        if facts.get("blocked_by"):
            rec["blocked_by"] = facts["blocked_by"]
        records.append(rec)
    return records


def cell_end_records(run: Path, cell_dir: Path, facts: dict) -> list[dict]:
    """The cell's records of this pass again, with what is known only at its end: bytes and packets
    from the counting pass, the server's exit status, the machine's steal time and the CPU probe."""
    cell = _cell(cell_dir)
    wire = {}
    path = cell_dir / "wire.jsonl"
    if path.exists():
        for line in path.read_text().splitlines():
            w = json.loads(line)
            keys = ("bytes_c2s", "bytes_s2c", "packets_c2s", "packets_s2c")
            wire[w["workload"]] = {k: (a - b) / w["calls"] for k, a, b in zip(keys, w["after"], w["before"])}
            wire[w["workload"]]["counted_calls"] = w["calls"]
    extra = {"steal_ms": facts["steal_ticks"] * 1000 / CLOCK_TICKS if facts.get("steal_ticks") is not None else None,
             "calibration_ns": facts.get("calibration_ns")}
    out = []
    for rec in _cell_pass(run, cell["name"], facts["pass"]):
        rec = dict(rec, **extra)
        if rec["workload"] in wire and rec["status"] == "pass":
            rec["wire_per_call"] = {**(rec.get("wire_per_call") or {}), **wire[rec["workload"]]}
        out.append(rec)
    return out


def server_end_records(run: Path, facts: dict) -> list[dict]:
    """The records of every cell a server served in this pass again, with its exit status once stopped."""
    code = facts.get("server_exit_status")
    names = {_cell(Path(d))["name"] for d in facts["cell_dirs"]}
    out = []
    for rec in load(run, names):
        if rec.get("pass", 1) != facts["pass"]:
            continue
        rec = dict(rec, server_exit_status=code)
        if rec["workload"] == "vectors" and code not in (None, 0, 143):
            rec["server_exit_note"] = f"the server exited with status {code} after SIGTERM (137: it had to be killed)"
        out.append(rec)
    return out


def _cell_pass(run: Path, name: str, pass_no: int) -> list[dict]:
    return [r for r in load(run, {name}) if r.get("pass", 1) == pass_no]


def _pseudo_cell(name: str, protocol: str, server: str, client: str) -> dict:
    return {"name": name, "protocol": protocol, "server": server, "client": client,
            "server_language": server, "client_language": client}


def floor_records(run: Path, facts: dict) -> list[dict]:
    cell = _pseudo_cell(FLOOR_CELL, "floor", "c", "c")
    cell.update(server_library="runner/floor/floor.c", client_library="runner/floor/floor.c",
                server_thread_model="thread per connection, blocking socket",
                client_thread_model="one blocking socket")
    rec = _base(run, cell, "ping", facts["pass"])
    if facts.get("error"):
        rec.update(status="error", reason=facts["error"])
        return [rec]
    samples = _read_samples(Path(facts["dir"]) / "ping.samples.json")
    rec.update(stats.summarize(samples))
    rec.update(status="pass", calls=sum(len(s) for s in samples), repetitions=len(samples))
    return [rec]


def handler_records(run: Path, facts: dict) -> list[dict]:
    language = facts["language"]
    cell = _pseudo_cell(f"handler/{language}", "handler", language, language)
    rec = _base(run, cell, facts["workload"], 1)
    rec["size"] = facts.get("size")
    if facts.get("error"):
        rec.update(status="error", reason=f"handler: {facts['error']}")
        return [rec]
    samples = _read_samples(Path(facts["dir"]) / f"{facts['workload']}.samples.json.gz")
    if not any(samples):
        rec.update(status="error", reason="handler: no samples")
        return [rec]
    rec.update(stats.summarize(samples))
    rec.update(status="pass", calls=sum(len(s) for s in samples), repetitions=len(samples))
    return [rec]


def record(run: Path, facts: dict) -> None:
    kind = facts["kind"]
    if kind == "floor":
        records = floor_records(run, facts)
    elif kind == "handler":
        records = handler_records(run, facts)
    elif kind == "server_end":
        records = server_end_records(run, facts)
    else:
        cell_dir = Path(facts["cell_dir"])
        builders = {"vectors": lambda: vectors_record(run, cell_dir, facts),
                    "workload": lambda: workload_record(run, cell_dir, facts),
                    "status": lambda: status_records(run, cell_dir, facts),
                    "cell_end": lambda: cell_end_records(run, cell_dir, facts)}
        if kind not in builders:
            raise ValueError(f"unknown kind of facts: {kind}")
        records = builders[kind]()
    with open(run / "results.jsonl", "a", encoding="utf-8") as out:
        for rec in records:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")


def key(rec: dict) -> tuple:
    return rec["cell"], rec["workload"], rec.get("pass", 1)


def load(run: Path, cells: set[str] | None = None) -> list[dict]:
    """Every record of a run, or only those of the named cells, the last one winning for a (cell, workload,
    pass). The runner asks for one cell's records after every cell: lines of other cells are skipped by a
    substring test before they are parsed, since results.jsonl grows to hundreds of MB in a full run."""
    path = run / "results.jsonl"
    latest: dict[tuple, dict] = {}
    marks = None if cells is None else \
        [f'"cell": {json.dumps(c, ensure_ascii=escaped)}' for c in cells for escaped in (False, True)]
    if path.exists():
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                if not line.strip() or (marks is not None and not any(m in line for m in marks)):
                    continue
                rec = json.loads(line)
                if cells is None or rec["cell"] in cells:
                    latest[key(rec)] = rec
    return list(latest.values())

