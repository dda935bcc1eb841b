"""AGREEMENT.md: how far several runs of the same matrix agree (or the passes of one run, each taken as a
run). The target: the p50 of 90% or more of the (cell, workload) pairs within ±5% of their median across
the runs, and the same for each protocol's p50 as a multiple of the baseline's for the same languages."""
import json
import statistics
from pathlib import Path

from . import records, stats
from .records import FLOOR_CELL
from .report.markdown import table

TOLERANCE = 0.05
TARGET = 0.90
# the data bytes a protocol sends do not depend on timing: every pair's must agree this closely
BYTES_TOLERANCE = 0.02
PSEUDO = ("floor", "handler")


def _timed(rec: dict) -> bool:
    return rec["status"] == "pass" and bool(rec.get("rtt_us")) and rec["rtt_us"].get("p50") is not None


class Series:
    """One run (or one pass of a run): p50 per (cell, workload), the floor's p50, the CPU probe's median."""

    def __init__(self, label: str, recs: list[dict], baseline: str):
        self.label = label
        p50s: dict[tuple, list[float]] = {}
        payloads: dict[tuple, list[float]] = {}
        self.meta: dict[str, dict] = {}
        floors, probes = [], {}
        for r in recs:
            if r["cell"] == FLOOR_CELL and _timed(r):
                floors.append(r["rtt_us"]["p50"])
            if r["protocol"] in PSEUDO:
                continue
            self.meta[r["cell"]] = {"protocol": r["protocol"], "client": r["client"], "server": r["server"],
                                    "client_language": r.get("client_language", r["client"]),
                                    "server_language": r.get("server_language", r["server"])}
            if r.get("calibration_ns") is not None:
                probes[(r["cell"], r.get("pass", 1))] = r["calibration_ns"]
            if r["workload"] != "vectors" and _timed(r):
                p50s.setdefault((r["cell"], r["workload"]), []).append(r["rtt_us"]["p50"])
                wire = r.get("wire_per_call") or {}
                for way in ("c2s", "s2c"):
                    if wire.get(f"payload_{way}") is not None:
                        payloads.setdefault((r["cell"], r["workload"], way), []).append(wire[f"payload_{way}"])
        # a run of several passes counts with the median of its passes
        self.p50 = {k: statistics.median(v) for k, v in p50s.items()}
        # the TCP payload per call each way (cell, workload, "c2s" | "s2c"): what the protocol sends, timing apart
        self.payload = {k: statistics.median(v) for k, v in payloads.items()}
        self.floor = statistics.median(floors) if floors else None
        self.probe = statistics.median(probes.values()) if probes else None
        self.ratio = self._ratios(baseline)

    def _ratios(self, baseline: str) -> dict:
        bases: dict[tuple, dict] = {}
        for (cell, w), v in self.p50.items():
            m = self.meta[cell]
            if m["protocol"] == baseline:
                bases.setdefault((m["client_language"], m["server_language"], w), {})[cell] = v
        out = {}
        for (cell, w), v in self.p50.items():
            m = self.meta[cell]
            if m["protocol"] == baseline:
                continue
            found = bases.get((m["client_language"], m["server_language"], w))
            if not found:
                continue
            same = f"{baseline}/{m['client']}→{m['server']}"
            base = found.get(same, found[sorted(found)[0]])
            if base:
                out[(cell, w)] = v / base
        return out


def _series(runs: list[Path]) -> tuple[list[Series], str]:
    def baseline_of(run: Path) -> str:
        try:
            return json.loads((run / "env.json").read_text())["run"].get("baseline") or "rawtcp"
        except (OSError, ValueError, KeyError):
            return "rawtcp"
    baseline = baseline_of(runs[0])
    if len(runs) == 1:
        recs = records.load(runs[0])
        passes = sorted({r.get("pass", 1) for r in recs})
        return [Series(f"{runs[0].name} pass {p}", [r for r in recs if r.get("pass", 1) == p], baseline)
                for p in passes], baseline
    return [Series(run.name, records.load(run), baseline) for run in runs], baseline


def agreement(series: list[Series], attr: str) -> dict:
    """For every key present in all series: the median across them and whether every value lies within
    ±5% of it. Returns {key: (values, median, worst relative deviation)}."""
    maps = [getattr(s, attr) for s in series]
    keys = set(maps[0]).intersection(*maps[1:]) if maps else set()
    out = {}
    for k in keys:
        values = [m[k] for m in maps]
        med = statistics.median(values)
        worst = max(abs(v / med - 1) for v in values) if med else float("inf")
        out[k] = (values, med, worst)
    return out


def share(found: dict, tolerance: float = TOLERANCE) -> tuple[int, int]:
    return sum(1 for _, _, worst in found.values() if worst <= tolerance + 1e-12), len(found)


def _pct(k: int, n: int) -> str:
    return f"{k / n:.0%}" if n else "–"


def _verdict(k: int, n: int) -> str:
    return "–" if not n else ("✅ met" if k / n >= TARGET else "❌ not met")


def _num(x) -> str:
    return "–" if x is None else f"{x:.3g}"


def render(runs: list[Path]) -> str:
    series, baseline = _series(runs)
    if len(series) < 2:
        return ("# Agreement\n\nNeeds two runs of the same matrix, or one run of two or more passes; got "
                f"{len(series)} series from {', '.join(r.name for r in runs)}.\n")
    absolute = agreement(series, "p50")
    ratios = agreement(series, "ratio")
    k, n = share(absolute)
    rk, rn = share(ratios)
    kind = "passes of one run, each taken as a run" if len(runs) == 1 else "runs (each the median of its passes)"
    out = [f"# Agreement of {len(series)} {kind}", "",
           f"A (cell, workload) agrees when the p50 of every run lies within ±{TOLERANCE:.0%} of the median across "
           f"the runs; only pairs timed in all runs count. Target: {TARGET:.0%} or more.", ""]
    out += table(["", "pairs timed in all runs", "within ±5%", "share", "target"],
                 [["p50, µs", str(n), str(k), _pct(k, n), _verdict(k, n)],
                  [f"p50 as a multiple of `{baseline}` (same languages)", str(rn), str(rk), _pct(rk, rn),
                   _verdict(rk, rn)]])
    out += ["## Per protocol", ""]
    protocols = sorted({series[0].meta[c]["protocol"] for c, _ in absolute} |
                       {s.meta[c]["protocol"] for s in series for c, _ in s.p50 if c in s.meta})
    rows = []
    for p in protocols:
        a = {key: v for key, v in absolute.items() if series[0].meta.get(key[0], {}).get("protocol") == p}
        r = {key: v for key, v in ratios.items() if series[0].meta.get(key[0], {}).get("protocol") == p}
        (ak, an), (qk, qn) = share(a), share(r)
        rows.append([p, str(an), _pct(ak, an), str(qn) if p != baseline else "(baseline)",
                     _pct(qk, qn) if p != baseline else "–"])
    out += table(["protocol", "pairs", "p50 within ±5%", "pairs with a baseline", "multiple within ±5%"], rows)
    out += ["## The 10 least stable workloads", "",
            "Largest deviation of one run's p50 from the median across the runs.", ""]
    worst = sorted(absolute.items(), key=lambda kv: -kv[1][2])[:10]
    out += table(["cell", "workload", "p50 per run, µs", "median", "worst deviation"],
                 [[f"`{c}`", w, " / ".join(_num(v) for v in values), _num(med), f"{dev:.0%}"]
                  for (c, w), (values, med, dev) in worst])
    out += payload_agreement(series)
    out += ["## What limits agreement", "",
            "The machine's floor (C ping-pong p50) and the fixed CPU probe's median in each run: when these move, "
            "every cell moves with them.", ""]
    out += table(["run", "floor p50, µs", "CPU probe median, ms", "timed pairs"],
                 [[s.label, _num(s.floor), _num(s.probe / 1e6 if s.probe else None), str(len(s.p50))] for s in series])
    floors = [s.floor for s in series if s.floor]
    if len(floors) >= 2:
        ci = stats.median_ci(floors)
        out += [f"Floor across the runs: median {_num(ci['median'])} µs, max/min ×{max(floors) / min(floors):.2f}.", ""]
    return "\n".join(out) + "\n"


def payload_agreement(series: list[Series]) -> list[str]:
    """The TCP payload per call, each way, of every pair counted in all runs: each run within ±2% of the
    median across the runs (the bytes a protocol sends do not depend on timing; every pair must agree)."""
    found = agreement(series, "payload")
    if not found:
        return ["## Data bytes per call", "", "No pair has its TCP payload counted in every run.", ""]
    k, n = share(found, BYTES_TOLERANCE)
    out = ["## Data bytes per call", "",
           f"The TCP payload per call each way (the counting pass, bare ACKs apart): {k} of {n} (pair, direction) "
           f"within ±{BYTES_TOLERANCE:.0%} of their median across the runs "
           f"({'✅ every one' if k == n else '❌ not every one'}).", ""]
    outside = sorted(((key, v) for key, v in found.items() if v[2] > BYTES_TOLERANCE + 1e-12), key=lambda kv: -kv[1][2])
    if outside:
        out += table(["cell", "workload", "direction", "bytes per call per run", "median", "worst deviation"],
                     [[f"`{c}`", w, way, " / ".join(_num(v) for v in values), _num(med), f"{dev:.1%}"]
                      for (c, w, way), (values, med, dev) in outside[:20]])
    return out
