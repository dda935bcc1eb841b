"""Folds what the shell runner observed during one step (its facts, runner/FACTS.md) into the step's final
records, appended to results.jsonl once, when the step ends.

A step is a cell's pass (facts in cells/<slug>/pass<N>/facts.tsv), a pass's floor (floor/pass<N>/) or the
languages' handlers (handlers/). The shell and the conductor only append a line per outcome to the step's facts
file (facts.py); one interpreter folds the whole step, so results.jsonl holds each (cell, workload, pass) once,
and a runner killed before the fold leaves none of the step's records (resume starts the step again).

The contract's vectors are the pseudo-workload "vectors", the machine's floor is the pseudo-cell
"floor/c→c" and each language's in-process handler the pseudo-cell "handler/<language>".
"""
import functools
import gzip
import json
import os
import statistics
import time
from pathlib import Path

from analysis import records, stats
from analysis.records import FLOOR_CELL, SCHEMA_VERSION

from . import facts as facts_mod
from . import load, load_fold, network, plan, progress, variant, wire
from .wire import RETRANSMIT_KEYS, SEGMENT_KEYS, WIRE_KEYS

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# a timed workload's repetitions (runner/lib/cell.sh: time_workload), one row each: the calls the client made,
# each side's cgroup CPU (µs) and the client's veth line of /proc/<pid>/net/dev, just before and just after it
REPETITION_COLUMNS = ("calls", "client_cpu_us_before", "server_cpu_us_before", "dev_before", "client_cpu_us_after",
                      "server_cpu_us_after", "dev_after", "wall_us_before", "client_wait_us_before", "wall_us_after",
                      "client_wait_us_after")


def _resent_bytes(before: dict | None, after: dict | None) -> dict[str, float] | None:
    """The bytes TCP sent again per direction between two readings of each connection's bytes_retrans: what
    every connection alive at the second reading added (a connection closed in between takes its count with
    it)."""
    if before is None or after is None:
        return None
    return {d: float(sum(max(0, n - before.get(d, {}).get(k, 0)) for k, n in after.get(d, {}).items()))
            for d in ("c2s", "s2c")}


read_facts = facts_mod.read


def _number(text: str) -> int | None:
    return int(text) if text.strip().isdigit() else None


def repetitions(cell_dir: Path, name: str) -> list[dict]:
    """A timed workload's repetitions as the shell wrote them (<workload>.repetitions.tsv), each with its
    counters: CPU in µs (None without cgroups), the veth's (None without namespaces)."""
    path = cell_dir / f"{name}.repetitions.tsv"
    out = []
    for line in (path.read_text().splitlines() if path.exists() else []):
        row = dict(zip(REPETITION_COLUMNS, line.split("\t"), strict=False))
        out.append({"calls": _number(row.get("calls", "")) or 0,
                    **{k: _number(row.get(k, "")) for k in REPETITION_COLUMNS
                       if "cpu" in k or "wall" in k or "wait" in k},
                    "wire_before": wire.dev([row.get("dev_before", "")]),
                    "wire_after": wire.dev([row.get("dev_after", "")])})
    return out


def _tcp(lines: list[str], field: str) -> int | None:
    """A field of the Tcp lines of /proc/<pid>/net/snmp."""
    tcp = [line.split() for line in lines if line.startswith("Tcp:")]
    if len(tcp) < 2 or field not in tcp[0]:
        return None
    return int(tcp[1][tcp[0].index(field)])


def _time_wait(lines: list[str]) -> int | None:
    """The sockets in TIME_WAIT of /proc/<pid>/net/sockstat: "TCP: inuse N orphan N tw N ..."."""
    for line in lines:
        fields = line.split()
        if fields[:1] == ["TCP:"] and "tw" in fields:
            return int(fields[fields.index("tw") + 1])
    return None


def _first_number(lines: list[str]) -> int | None:
    return int(lines[0]) if lines and lines[0].strip().isdigit() else None


def window(path: Path) -> dict:
    """A snapshot taken just before a workload's first repetition or just after its last (runner/lib/cell.sh:
    window_snapshot): the connections the server's namespace accepted, the sockets in TIME_WAIT on each side (None
    without namespaces), each side's JIT compiler ticks (None without jit_threads) and process group."""
    parts = wire.sections(path.read_text()) if path.exists() else {}

    def group(role):
        f = (parts.get(f"group {role}") or [""])[0].split()
        keys = ("cpu_ticks", "rss_kb", "rss_peak_kb", "threads")
        return dict(zip(keys, map(int, f), strict=True)) if len(f) == 4 else dict.fromkeys(keys)
    return {"accepted": _tcp(parts.get("snmp server", []), "PassiveOpens"),
            "time_wait": {role: _time_wait(parts.get(f"sockstat {role}", [])) for role in ("client", "server")},
            "jit": {role: _first_number(parts.get(f"jit {role}", [])) for role in ("client", "server")},
            "group": {role: group(role) for role in ("client", "server")}}


def measured(cell_dir: Path, facts: dict) -> dict:
    """What the timed window measured for one workload: its repetitions and the snapshots around them."""
    name = facts["workload"]
    before, after = window(cell_dir / f"{name}.window.before"), window(cell_dir / f"{name}.window.after")
    jit = {role: after["jit"][role] - before["jit"][role]
           if None not in (after["jit"][role], before["jit"][role]) else None for role in ("client", "server")}
    return {"repetitions": repetitions(cell_dir, name),
            "accepted_before": before["accepted"], "accepted_after": after["accepted"],
            "time_wait": after["time_wait"], "client_group": after["group"]["client"],
            "server_group": after["group"]["server"],
            "jit_ticks": {**jit, "clock_ticks_per_s": CLOCK_TICKS}}


def _cell(cell_dir: Path) -> dict:
    """cell.json sits in the cell's folder, one level above each pass's folder."""
    return json.loads((cell_dir.parent / "cell.json").read_text())


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@functools.cache
def _hosts(run: Path) -> dict:
    """The hosts of the clients and of the servers (env.json's run.hosts; --server-host makes them two)."""
    path = run / "env.json"
    hosts = json.loads(path.read_text())["run"].get("hosts") if path.exists() else None
    return hosts or {"client": None, "server": None}


def base_record(run: Path, cell: dict, workload: str, pass_no: int, facts: dict) -> dict:
    """A record's fields that every kind has; the environment is not among them (records.Environment)."""
    hosts = _hosts(run)
    return {
        "schema": SCHEMA_VERSION,
        "run_id": run.name,
        "pass": pass_no,
        "time": facts.get("time") or _now(),  # when the runner observed the outcome
        "protocol": cell["protocol"],
        "server": cell["server"],
        "client": cell["client"],
        "server_language": cell.get("server_language", cell["server"]),
        "client_language": cell.get("client_language", cell["client"]),
        "cell": cell["name"],
        "client_host": hosts["client"],
        "server_host": hosts["server"],
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
        "network": _network(run),
        "variant": cell.get("variant") or {},  # --connection, --proxy (conductor/variant.py)
    }


@functools.cache
def _network(run: Path) -> dict | None:
    """The run's network scenario, asked and measured (network.of_run), read once per run."""
    return network.of_run(run)


def _json_or_none(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.exists() else None


def _us(answer: dict | None, key: str) -> float | None:
    """A nanosecond figure of the client's connect answer, in µs."""
    return answer[key] / 1000.0 if answer and answer.get(key) is not None else None


def _stack_facts(cell_dir: Path, connect: dict | None) -> dict:
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


def vectors_records(run: Path, cell_dir: Path, facts: dict) -> list[dict]:
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
    rec = base_record(run, cell, "vectors", facts["pass"], facts)
    connect = _json_or_none(cell_dir / "connect.json")
    rec.update(status=status, reason=reason, calls=len(results), vectors=results,
               instantiation_us=_us(connect, "instantiation_ns"), facts=_stack_facts(cell_dir, connect),
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
    """A samples answer, or its gzipped copy (the runner compresses a cell's samples once it is folded)."""
    if not path.exists() and path.suffix != ".gz" and path.with_name(path.name + ".gz").exists():
        path = path.with_name(path.name + ".gz")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return json.loads(f.read())["samples_ns"]


def _cpu(reps: list[dict]) -> dict:
    """CPU per call from the cgroups' microsecond counters read around each repetition."""
    per_rep = []
    for r in reps:
        readings = (r["client_cpu_us_before"], r["server_cpu_us_before"], r["client_cpu_us_after"],
                    r["server_cpu_us_after"])
        if None in readings or not r["calls"]:
            return {}
        per_rep.append(((r["client_cpu_us_after"] - r["client_cpu_us_before"]) / r["calls"],
                        (r["server_cpu_us_after"] - r["server_cpu_us_before"]) / r["calls"]))
    rep_calls = [r["calls"] for r in reps]
    total = sum(rep_calls)
    client = sum(c * n for (c, _), n in zip(per_rep, rep_calls, strict=True)) / total
    server = sum(s * n for (_, s), n in zip(per_rep, rep_calls, strict=True)) / total
    return {"client": client, "server": server,
            "client_rep_cv": stats.cv([c for c, _ in per_rep]), "server_rep_cv": stats.cv([s for _, s in per_rep]),
            "per_repetition": [[round(c, 3), round(s, 3)] for c, s in per_rep]}


def workload_records(run: Path, cell_dir: Path, facts: dict) -> list[dict]:
    cell = _cell(cell_dir)
    name = facts["workload"]
    if load.parse_point(name):
        return [load_point_record(run, cell, cell_dir, facts)]
    measured_ = measured(cell_dir, facts)
    samples = _read_samples(cell_dir / f"{name}.samples.json")
    rec = base_record(run, cell, name, facts["pass"], facts)
    connect = _json_or_none(cell_dir / "connect.json")
    rec.update(warmup=facts["warmup"], repetitions=facts["repetitions"], size=facts["size"],
               min_ms=facts.get("min_ms", 0), instantiation_us=_us(connect, "instantiation_ns"),
               facts=_stack_facts(cell_dir, connect), processes=(connect or {}).get("processes"))
    reps = measured_["repetitions"]
    rep_calls = [r["calls"] for r in reps]
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
    rec["cpu_us_per_call"] = _cpu(reps) or None
    _memory_and_threads(rec, measured_)
    before, after = measured_.get("accepted_before"), measured_.get("accepted_after")
    if before is not None and after is not None:
        rec["wire_per_call"] = {"connections": (after - before) / total}
    time_wait = measured_.get("time_wait")
    if time_wait and None not in (time_wait.get("client"), time_wait.get("server")):
        rec["time_wait"] = {"client": time_wait["client"], "server": time_wait["server"]}
    steady = _steady(cell_dir, name)
    if steady:
        rec["warmup_steady"] = steady
    jit = _jit_cpu(reps, measured_.get("jit_ticks"))
    if jit:
        rec["jit_cpu"] = jit
    variant.check(rec, cell, cell_dir, run)
    if cell.get("server_host"):  # a server elsewhere: the process the runner held for it was a stand-in
        _forget_server(rec)
    return [rec]


# The client runs pinned to one CPU of its own (runner/lib/cgroup.sh), which is what client-bound is judged against.
CLIENT_CPUS = 1


def load_point_record(run: Path, cell: dict, cell_dir: Path, facts: dict) -> dict:
    """A load point's record (load_fold.py), with each side's peak memory and threads over it."""
    name = facts["workload"]
    measured_ = measured(cell_dir, facts)
    answers = (cell_dir / f"{name}.answers.jsonl").read_text().splitlines() if (
        cell_dir / f"{name}.answers.jsonl").exists() else []
    answer = json.loads(answers[-1]) if answers else None
    reps = measured_["repetitions"]
    rec = base_record(run, cell, name, facts["pass"], facts)
    rec.update(repetitions=1, size="load")
    load_fold.point_record(rec, name, answer if answer and answer.get("ok") else None, reps[-1] if reps else None,
                           CLIENT_CPUS, load.settings(plan.read_profile(run))["warmup_ms"])
    _memory_and_threads(rec, measured_)
    if cell.get("server_host"):
        _forget_server(rec)
    return rec


def _memory_and_threads(rec: dict, measured_: dict) -> None:
    """Each side's peak and final memory and its threads, from the snapshot after the timed window."""
    client, server = measured_["client_group"], measured_["server_group"]
    rec["rss_kb"] = {"client_peak": client["rss_peak_kb"], "server_peak": server["rss_peak_kb"],
                     "client_after": client["rss_kb"], "server_after": server["rss_kb"]}
    rec["threads"] = {"client": client["threads"], "server": server["threads"]}


def _forget_server(rec: dict) -> None:
    """No figure of the server's side: its CPU, memory and threads were not measured here."""
    for field, keys in (("cpu_us_per_call", ("server", "server_rep_cv")), ("rss_kb", ("server_peak", "server_after")),
                        ("threads", ("server",)), ("cpu_share", ("server",))):
        if rec.get(field):
            rec[field].update(dict.fromkeys(keys))
    if rec.get("cpu_us_per_call", {}) and "per_repetition" in rec["cpu_us_per_call"]:
        rec["cpu_us_per_call"]["per_repetition"] = [[c, None] for c, _ in rec["cpu_us_per_call"]["per_repetition"]]
    if rec.get("jit_cpu"):
        rec["jit_cpu"] = {k: v for k, v in rec["jit_cpu"].items() if not k.startswith("server")} or None


def _jit_cpu(reps: list[dict], ticks: dict | None) -> dict | None:
    """The CPU of a JIT runtime's compiler threads over the repetitions (read in clock ticks around them), per
    side that has one: in ms, and as a share of that side's CPU over the same repetitions (the cgroup's)."""
    if not ticks or (ticks.get("client") is None and ticks.get("server") is None):
        return None
    hz = ticks.get("clock_ticks_per_s") or CLOCK_TICKS
    out = {}
    for side in ("client", "server"):
        if ticks.get(side) is None:
            continue
        ms = ticks[side] * 1000 / hz
        out[f"{side}_ms"] = ms
        readings = [(r.get(f"{side}_cpu_us_before"), r.get(f"{side}_cpu_us_after")) for r in reps]
        if readings and all(b is not None and a is not None for b, a in readings):
            cpu_ms = sum(a - b for b, a in readings) / 1000
            out[f"{side}_share"] = min(ms / cpu_ms, 1.0) if cpu_ms > 0 else None
    return out or None


STEADY_FIELDS = ("steady", "batches", "elapsed_ms", "checked")


def _steady(cell_dir: Path, name: str) -> dict | None:
    """The workload's last full warm-up (until steady, bounded by the profile's max_ms): the cell's own
    (warmup.jsonl) when it made one, else its warm phase's (warm-phase.jsonl); with the cell's re-warm of kept,
    warmed processes (entries marked rewarm) under `rewarm`."""
    full = rewarm = None
    for file in ("warm-phase.jsonl", "warmup.jsonl"):
        path = cell_dir / file
        for line in (path.read_text().splitlines() if path.exists() else []):
            entry = json.loads(line)
            if entry.get("workload") != name:
                continue
            answer = entry.get("answer", entry)  # {workload, answer: the client's answer}
            found = {k: answer.get(k) for k in STEADY_FIELDS}
            if entry.get("rewarm"):
                rewarm = found
            else:
                full = found
    if full is None:
        return None
    return full | ({"rewarm": rewarm} if rewarm else {})


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
    instantiation_us = _us(_json_or_none(cell_dir / "connect.json"), "instantiation_ns")
    out = []
    for part in parts:
        rec = base_record(run, cell, part, facts["pass"], facts)
        rec.update(status=facts["status"], reason=facts["reason"], instantiation_us=instantiation_us)
        if facts.get("blocked_by"):
            rec["blocked_by"] = facts["blocked_by"]
        out.append(rec)
    return out


def _wire_counts(cell_dir: Path) -> dict[str, dict]:
    """Bytes and packets per call of each workload, from the counting pass's snapshots (wire/)."""
    out = {}
    for answer_file in sorted((cell_dir / "wire").glob("*.answer")):
        name = answer_file.name.removesuffix(".answer")
        try:
            answer = json.loads(answer_file.read_text())
        except ValueError:
            continue
        before = wire.read_snapshot(cell_dir / "wire" / f"{name}.before")
        after = wire.read_snapshot(cell_dir / "wire" / f"{name}.after")
        calls = answer.get("calls") or 0
        # else neither the veth's counters nor the segments' (--server-host) could be read
        if calls > 0 and (before.get("wire") and after.get("wire") or before.get("segments") and after.get("segments")):
            out[name] = _wire_counts_line({
                "calls": calls, "before": before.get("wire"), "after": after.get("wire"),
                "segments_before": before.get("segments"), "segments_after": after.get("segments"),
                "retransmitted_before": before.get("retransmitted"), "retransmitted_after": after.get("retransmitted"),
                "resent_bytes_before": before.get("resent"), "resent_bytes_after": after.get("resent"),
                "answer": answer})
    return out


def _wire_counts_line(w: dict) -> dict:
    """One workload's line of wire.jsonl, per call."""
    counts = {}
    for keys, before, after in ((WIRE_KEYS, w.get("before"), w.get("after")),
                                (SEGMENT_KEYS, w.get("segments_before"), w.get("segments_after")),
                                (RETRANSMIT_KEYS, w.get("retransmitted_before"), w.get("retransmitted_after"))):
        if before and after:
            counts.update({k: (after[k] - before[k]) / w["calls"] for k in keys if k in after})
    resent = _resent_bytes(w.get("resent_bytes_before"), w.get("resent_bytes_after"))
    if resent is not None and "payload_c2s" in counts:
        # the counters saw every copy of a resent segment: the payload is what the protocol sent once. The
        # segment counts keep the copies (a resent segment may carry no payload: a SYN, a FIN), the resent
        # segments beside them.
        for d in ("c2s", "s2c"):
            counts[f"resent_payload_{d}"] = resent[d] / w["calls"]
            counts[f"payload_{d}"] -= resent[d] / w["calls"]
    background = (w.get("answer") or {}).get("background")
    if background and "payload_c2s" in counts:
        # what the client's library sent on its own threads while counting (RMI's distributed GC: clean calls
        # after a collection, lease renewals; runner/PROTOCOL.md, measure), at moments its collector chose:
        # apart from the calls' payload.
        for d in ("c2s", "s2c"):
            counts[f"background_payload_{d}"] = background[d] / w["calls"]
            counts[f"payload_{d}"] -= background[d] / w["calls"]
    return {**counts, "counted_calls": w["calls"]}


def adjacent_floor(run: Path, folder: str | None) -> dict | None:
    """A floor taken next to the cell (steps.py: before its server group, or right after it): {folder, p50, min,
    fastest_repetition_p50} in µs, or {folder, error}; None when the run took none for the cell. The fastest
    repetition's p50 is the path at its quickest around the cell: its latency switches between regimes from one
    50 ms repetition to the next on a virtual machine (one floor's five repetitions: 20.4, 24.5, 23.8, 23.7,
    23.1 µs)."""
    if not folder:
        return None
    path = run / folder
    failed = next((f.get("error") for f in read_facts(path) if f.get("error")), None)
    if failed:
        return {"folder": folder, "error": failed}
    try:
        repetitions = _read_samples(path / "ping.samples.json")
        rtt = stats.summarize(repetitions)["rtt_us"]
    except (OSError, ValueError, KeyError) as e:
        return {"folder": folder, "error": f"no samples: {e}"}
    fastest = min(statistics.median(r) for r in repetitions if r) / 1000
    return {"folder": folder, "p50": rtt["p50"], "min": rtt["min"], "fastest_repetition_p50": fastest}


def with_cell_end(run: Path, cell_dir: Path, facts: dict, recs: list[dict], warm: dict | None = None,
                  floor_after: str | None = None) -> list[dict]:
    """The cell's records with what is known only at its end: bytes and packets from the counting pass,
    the machine's steal time during the cell, the CPU probe run before it and, for its timed workloads,
    the floors taken just before its server group and right after the cell (`floor_after`, its folder), and
    how its processes' warm-up ended (`warm`)."""
    wire = _wire_counts(cell_dir)
    steal = facts.get("steal_ticks")
    extra = {"steal_ms": steal * 1000 / CLOCK_TICKS if steal is not None else None,
             "calibration_ns": facts.get("calibration_ns")}
    timed_extra = {"floor_us": adjacent_floor(run, facts.get("floor")),
                   "floor_after_us": adjacent_floor(run, floor_after),
                   "warm_phase": {k: warm[k] for k in ("seconds", "server", "client") if k in warm} if warm else None}
    out = []
    for rec in recs:
        rec = dict(rec, **extra)
        if rec["workload"] in wire and rec["status"] == "pass":
            rec["wire_per_call"] = {**(rec.get("wire_per_call") or {}), **wire[rec["workload"]]}
        if rec["workload"] != "vectors" and rec["status"] == "pass":
            rec.update({k: v for k, v in timed_extra.items() if v is not None})
        out.append(rec)
    return out


def _pseudo_cell(name: str, protocol: str, server: str, client: str) -> dict:
    return {"name": name, "protocol": protocol, "server": server, "client": client,
            "server_language": server, "client_language": client}


def floor_records(run: Path, folder: Path, facts: dict) -> list[dict]:
    rec = base_record(run, _pseudo_cell(FLOOR_CELL, "floor", "c", "c"), "ping", facts["pass"], facts)
    if facts.get("error"):
        rec.update(status="error", reason=facts["error"])
        return [rec]
    samples = _read_samples(folder / "ping.samples.json")
    rec.update(stats.summarize(samples))
    rec.update(status="pass", calls=sum(len(s) for s in samples), repetitions=len(samples))
    return [rec]


def handler_records(run: Path, folder: Path, facts: dict) -> list[dict]:
    language = facts["language"]
    cell = _pseudo_cell(f"handler/{language}", "handler", language, language)
    rec = base_record(run, cell, facts["workload"], 1, facts)
    rec["size"] = facts.get("size")
    if facts.get("error"):
        rec.update(status="error", reason=f"handler: {facts['error']}")
        return [rec]
    samples = _read_samples(folder / language / f"{facts['workload']}.samples.json")
    if not any(samples):
        rec.update(status="error", reason="handler: no samples")
        return [rec]
    rec.update(stats.summarize(samples))
    rec.update(status="pass", calls=sum(len(s) for s in samples), repetitions=len(samples))
    return [rec]


BUILDERS = {"vectors": vectors_records, "workload": workload_records, "status": status_records,
            "floor": floor_records, "handler": handler_records}


def fold(run: Path, folder: Path) -> list[dict]:
    """The step's final records from its facts, in the order first observed: a later fact about the same
    workload (a status after a failed metadata check) replaces the earlier record; the cell's end adds to
    all of them."""
    built: dict[tuple, dict] = {}
    end = warm = None
    after = {}
    for facts in read_facts(folder):
        kind = facts["kind"]
        if kind == "cell_end":
            end = facts
            continue
        if kind == "warm":
            warm = facts
            continue
        if kind == "floor_after":
            after = facts
            continue
        if kind not in BUILDERS:
            raise ValueError(f"unknown kind of facts in {folder / facts_mod.FACTS}: {kind}")
        for rec in BUILDERS[kind](run, folder, facts):
            built[records.key(rec)] = rec
    recs = list(built.values())
    return with_cell_end(run, folder, end, recs, warm, after.get("floor")) if end is not None else recs


def fold_into_results(run: Path, folder: Path) -> list[dict]:
    """Folds the step and appends its records to results.jsonl, in one write; returns them."""
    recs = fold(run, folder)
    if recs:
        records.append(run, recs)
    return recs


def cell_summary(recs: list[dict]) -> str:
    """One short line for the progress display: the cell's vectors and how many workloads were timed."""
    vec = next((r for r in recs if r["workload"] == "vectors"), None)
    if vec is None:
        return "not run"
    timed = sum(1 for r in recs if r["workload"] != "vectors" and r["status"] == "pass")
    text = f"{vec['status']}: {vec['reason'][:120]}"
    if vec["status"] == "pass":
        text += f"; {timed}/{len(recs) - 1} workloads timed"
    return text


def end_cell(run: Path, cell_dir: Path) -> tuple[int, str]:
    """Folds a cell's pass into its records; returns the estimated work the cell had (for the time left) and
    what came of it (for its progress line)."""
    recs = fold_into_results(run, cell_dir)
    work = progress.estimate_done(run, _cell(cell_dir), int(cell_dir.name.removeprefix("pass")))
    return work, cell_summary(recs)
