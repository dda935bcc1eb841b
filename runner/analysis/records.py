"""Turns what the shell runner observed (facts) into result records, appended to results.jsonl.

One record per (cell, workload); the contract's vectors are the pseudo-workload "vectors". The schema is
documented in results/README.md. Records are only ever appended, so an interrupted run keeps what it had;
when a part of a cell is recorded twice the last record wins.
"""
import json
import os
import time
from pathlib import Path

from . import plan, stats

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SCHEMA_VERSION = 1


def _cell(cell_dir: Path) -> dict:
    return json.loads((cell_dir / "cell.json").read_text())


def _base(run: Path, cell: dict, workload: str) -> dict:
    env = json.loads((run / "env.json").read_text())
    return {
        "schema": SCHEMA_VERSION,
        "run_id": run.name,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "protocol": cell["protocol"],
        "server": cell["server"],
        "client": cell["client"],
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
        "wire_per_call": None,
        "env": {
            **env["run"],
            "server": {"language": cell["server"], "library": cell.get("server_library"),
                       "settings": cell.get("server_settings"), "argv": cell.get("server_argv"),
                       "versions": env["versions"].get(cell["server"], {})},
            "client": {"language": cell["client"], "library": cell.get("client_library"),
                       "settings": cell.get("client_settings"), "argv": cell.get("client_argv"),
                       "versions": env["versions"].get(cell["client"], {})},
        },
    }


def _instantiation_us(cell_dir: Path) -> float | None:
    path = cell_dir / "connect.json"
    if not path.exists():
        return None
    return json.loads(path.read_text()).get("instantiation_ns", 0) / 1000.0


def vectors_record(run: Path, cell_dir: Path) -> list[dict]:
    cell = _cell(cell_dir)
    answer = json.loads((cell_dir / "vectors.json").read_text())
    results = answer.get("results", [])
    counts: dict[str, int] = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    bad = [r for r in results if r["status"] not in ("pass", "unsupported")]
    if not results:
        status, reason = "error", "the client ran no vector"
    elif any(r["status"] == "error" for r in bad):
        status = "error"
    elif bad:
        status = "fail"
    else:
        status = "pass"
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    if results:
        reason = summary + "".join(f"; {r['id']}: {r.get('reason', '')}" for r in bad[:3])
    rec = _base(run, cell, "vectors")
    rec.update(status=status, reason=reason, calls=len(results), vectors=results,
               instantiation_us=_instantiation_us(cell_dir))
    return [rec]


def _per_call(delta: float, calls: int) -> float:
    return delta / calls if calls else 0.0


def _cpu_per_call(before: dict, after: dict, calls: int) -> dict:
    """From the cgroups' microsecond counters when the run had them, else from /proc clock ticks."""
    cg_before, cg_after = before.get("cgroup_us") or [None, None], after.get("cgroup_us") or [None, None]
    out = {}
    for i, side in enumerate(("client", "server")):
        if cg_before[i] is not None and cg_after[i] is not None:
            out[side] = _per_call(cg_after[i] - cg_before[i], calls)
        else:
            out[side] = _per_call((after[side][0] - before[side][0]) * 1e6 / CLOCK_TICKS, calls)
    return out


def workload_record(run: Path, cell_dir: Path, facts: dict) -> list[dict]:
    cell = _cell(cell_dir)
    name = facts["workload"]
    answer = json.loads((cell_dir / f"{name}.samples.json").read_text())
    samples = answer["samples_ns"]
    total = sum(len(rep) for rep in samples)
    rec = _base(run, cell, name)
    expected = facts["calls"] * facts["repetitions"]
    if total != expected:
        rec.update(status="error", reason=f"client returned {total} samples for {expected} calls")
        return [rec]
    before, after = facts["before"], facts["after"]
    rec.update(stats.summarize(samples))
    rec.update(
        status="pass",
        calls=total,
        warmup=facts["warmup"],
        repetitions=facts["repetitions"],
        size=facts["size"],
        instantiation_us=_instantiation_us(cell_dir),
        cpu_us_per_call=_cpu_per_call(before, after, total),
        rss_kb={
            "client_peak": after["client"][2], "server_peak": after["server"][2],
            "client_after": after["client"][1], "server_after": after["server"][1],
        },
    )
    if before.get("wire") and after.get("wire"):
        keys = ("bytes_c2s", "bytes_s2c", "packets_c2s", "packets_s2c", "connections")
        rec["wire_per_call"] = {k: _per_call(a - b, total) for k, a, b in zip(keys, after["wire"], before["wire"])}
    return [rec]


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
        rec = _base(run, cell, part)
        rec.update(status=facts["status"], reason=facts["reason"], instantiation_us=_instantiation_us(cell_dir))
        if facts.get("blocked_by"):
            rec["blocked_by"] = facts["blocked_by"]
        records.append(rec)
    return records


def record(run: Path, facts: dict) -> None:
    cell_dir = Path(facts["cell_dir"])
    kind = facts["kind"]
    if kind == "vectors":
        records = vectors_record(run, cell_dir)
    elif kind == "workload":
        records = workload_record(run, cell_dir, facts)
    elif kind == "status":
        records = status_records(run, cell_dir, facts)
    else:
        raise ValueError(f"unknown kind of facts: {kind}")
    with open(run / "results.jsonl", "a", encoding="utf-8") as out:
        for rec in records:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")


def load(run: Path) -> list[dict]:
    """Every record of a run, the last one winning for a (cell, workload)."""
    path = run / "results.jsonl"
    latest: dict[tuple, dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                latest[(rec["cell"], rec["workload"])] = rec
    return list(latest.values())
