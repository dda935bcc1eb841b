"""Machine-readable forms of a run besides results.jsonl: a flat CSV, a JUnit XML file for CI systems, and
every raw sample of the run in one compressed file (samples.jsonl.gz)."""
import csv
import gzip
import json
from pathlib import Path
from xml.etree import ElementTree as ET

from . import records
from .records import FLOOR_CELL

RTT = ("min", "p50", "p90", "p99", "p999", "max", "mean", "stdev", "cv", "trimmed_mean", "rep_cv")
LATENCY = ("p50", "p90", "p99", "p99_9", "max", "mean")
# One column per scalar field of a record as records.load gives it (schema 3, its environment joined under
# `env`; nested fields dotted); see results/README.md.
CSV_FIELDS = [
    "schema", "run_id", "pass", "time", "protocol", "server", "client", "server_language", "client_language",
    "cell", "workload", "status", "reason", "blocked_by", "calls", "warmup", "repetitions", "min_ms", "size",
    *(f"rtt_us.{k}" for k in RTT),
    "bimodal.modes_us", "bimodal.shares",
    "instantiation_us", "processes.client", "processes.server",
    "cpu_us_per_call.client", "cpu_us_per_call.server", "cpu_us_per_call.client_rep_cv",
    "cpu_us_per_call.server_rep_cv",
    "rss_kb.client_peak", "rss_kb.server_peak", "rss_kb.client_after", "rss_kb.server_after",
    "threads.client", "threads.server",
    "wire_per_call.connections", "wire_per_call.bytes_c2s", "wire_per_call.bytes_s2c",
    "wire_per_call.packets_c2s", "wire_per_call.packets_s2c", "wire_per_call.counted_calls",
    "wire_per_call.payload_c2s", "wire_per_call.payload_s2c", "wire_per_call.data_segments_c2s",
    "wire_per_call.data_segments_s2c", "wire_per_call.empty_segments_c2s", "wire_per_call.empty_segments_s2c",
    "wire_per_call.retransmitted_c2s", "wire_per_call.retransmitted_s2c", "wire_per_call.resent_payload_c2s",
    "wire_per_call.resent_payload_s2c", "wire_per_call.background_payload_c2s", "wire_per_call.background_payload_s2c",
    "warmup_steady.steady", "warmup_steady.batches", "warmup_steady.elapsed_ms", "warmup_steady.checked",
    "server_exit_status", "server_exit_note", "steal_ms", "calibration_ns", "floor_us.p50",
    "env.server.implementation", "env.server.library", "env.server.thread_model",
    "env.client.implementation", "env.client.library", "env.client.thread_model",
    "client_host", "server_host", "network.name",
    # a load point's (kind "load"): its counts, latency from the intended send, service time, each side's CPU share
    "kind", "point.mode", "point.number", "load.connections", "load.in_flight", "load.offered_per_s",
    "load.achieved_per_s", "load.errors", "load.timeouts", "load.hung", "load.late", "load.dropped",
    *(f"latency_us.{k}" for k in LATENCY), *(f"service_us.{k}" for k in LATENCY), "dispatch_us.p99",
    "cpu_share.client", "cpu_share.server", "cpu_share.client_waiting", "generator.name", "generator.version",
    "guards",
]


def field(rec: dict, dotted: str):
    """A record's field by its column name (nested fields dotted); None where it is missing."""
    value = rec
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(str(v) for v in value)  # the two modes or their shares
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def write_csv(records: list[dict], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for rec in records:
            w.writerow([_cell_text(field(rec, k)) for k in CSV_FIELDS])


def _case(suite: ET.Element, classname: str, name: str, status: str, reason: str) -> None:
    case = ET.SubElement(suite, "testcase", classname=classname, name=name)
    if status == "fail":
        ET.SubElement(case, "failure", message=reason[:500]).text = reason
    elif status in ("error", "timeout"):
        ET.SubElement(case, "error", message=f"{status}: {reason[:500]}").text = reason
    elif status == "unsupported":
        ET.SubElement(case, "skipped", message=reason[:500])


def write_junit(records: list[dict], path: Path) -> None:
    """One test case per cell and vector, and one per cell and timed workload, for each pass (named when a
    run has more than one)."""
    several = len({r.get("pass", 1) for r in records}) > 1
    root = ET.Element("testsuites", name="rpcmatrix")
    for protocol in sorted({r["protocol"] for r in records}):
        suite = ET.SubElement(root, "testsuite", name=protocol)
        for rec in (r for r in records if r["protocol"] == protocol):
            suffix = f" (pass {rec.get('pass', 1)})" if several else ""
            vectors = rec.get("vectors")
            if rec["workload"] == "vectors" and vectors:
                for v in vectors:
                    _case(suite, rec["cell"], f"vector {v['id']}{suffix}", v["status"], v.get("reason", ""))
            else:
                _case(suite, rec["cell"], rec["workload"] + suffix, rec["status"], rec.get("reason", ""))
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        suite.set("errors", str(sum(1 for c in cases if c.find("error") is not None)))
        suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _strip(name: str) -> str:
    for suffix in (".samples.json.gz", ".samples.json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _pass_of(folder: str) -> int | None:
    return int(folder[4:]) if folder.startswith("pass") and folder[4:].isdigit() else None


def sample_files(run: Path) -> list[tuple[str, str, int, Path]]:
    """Every raw sample file of the run as (cell, workload, pass, path), in the order their records were
    first written (files without a record last, by modification time)."""
    found = []
    for path in sorted(run.glob("cells/*/pass*/*.samples.json*")):
        pass_no = _pass_of(path.parent.name)
        try:
            cell = json.loads((path.parent.parent / "cell.json").read_text())["name"]
        except (OSError, ValueError, KeyError):
            cell = path.parent.parent.name
        if pass_no is not None:
            found.append((cell, _strip(path.name), pass_no, path))
    for path in sorted(run.glob("floor/pass*/ping.samples.json*")):
        if _pass_of(path.parent.name) is not None:
            found.append((FLOOR_CELL, "ping", _pass_of(path.parent.name), path))
    for path in sorted(run.glob("handlers/*/*.samples.json*")):
        found.append((f"handler/{path.parent.name}", _strip(path.name), 1, path))
    # a file and its gzipped copy: keep one (the uncompressed one is the newer if both exist)
    unique: dict[tuple, Path] = {}
    for cell, workload, pass_no, path in found:
        unique.setdefault((cell, workload, pass_no), path)
    order = {records.key(rec): i for i, rec in enumerate(records.stored(run))}
    last = len(order)
    return [(k[0], k[1], k[2], p) for k, p in
            sorted(unique.items(), key=lambda kv: (order.get(kv[0], last), kv[1].stat().st_mtime, str(kv[1])))]


def _samples_of(path: Path) -> list | None:
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            return json.loads(f.read()).get("samples_ns")
    except (OSError, ValueError, AttributeError, EOFError):
        return None


def write_samples(run: Path) -> Path:
    """samples.jsonl.gz: one line {cell, workload, pass, samples_ns} per raw sample file of the run (the
    cells' workloads, the floor's ping, the handlers'), in time order, so any distribution can be analysed
    again. samples_ns is a list of repetitions, each a list of per-call times in ns."""
    out = run / records.SAMPLES
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for cell, workload, pass_no, path in sample_files(run):
            samples = _samples_of(path)
            if samples is None:
                continue
            f.write(json.dumps({"cell": cell, "workload": workload, "pass": pass_no, "samples_ns": samples},
                               ensure_ascii=False, separators=(",", ":")) + "\n")
    return out
