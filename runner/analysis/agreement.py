"""AGREEMENT.md: how far several runs of the same matrix agree (or the passes of one run, each taken as a
run). The target: the p50 of 90% or more of the (cell, workload) pairs within ±5% of their median across
the runs, and the same for each protocol's p50 as a multiple of the baseline's for the same languages."""
import json
import statistics
from pathlib import Path

from . import records, stats
from .records import FLOOR_CELL
from .report import markdown
from .report.blocks import Code, Heading, Paragraph, Status, Table, Text, Value
from .report.text import met

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


def _pct(k: int, n: int) -> Value:
    return Value(k / n if n else None, spec=".0%")


def _verdict(k: int, n: int):
    return "–" if not n else met(k / n >= TARGET)


def _num(x) -> Value:
    return Value(x, spec=".3g")


def _per_run(values: list) -> Text:
    """A pair's value in each run: 10 / 12 / 10."""
    return Text.join(" / ", [_num(v) for v in values])


def render(runs: list[Path]) -> str:
    return markdown.render(blocks(runs))


def blocks(runs: list[Path]) -> list:
    """AGREEMENT.md's blocks: the share of pairs that agree, overall and per protocol, the least stable ones, the
    TCP payload's agreement and what limits it (the floor and the CPU probe of each run)."""
    series, baseline = _series(runs)
    if len(series) < 2:
        return [Heading(1, "Agreement"),
                Paragraph("Needs two runs of the same matrix, or one run of two or more passes; got "
                          f"{len(series)} series from {', '.join(r.name for r in runs)}.")]
    absolute = agreement(series, "p50")
    ratios = agreement(series, "ratio")
    k, n = share(absolute)
    rk, rn = share(ratios)
    kind = "passes of one run, each taken as a run" if len(runs) == 1 else "runs (each the median of its passes)"
    out = [Heading(1, f"Agreement of {len(series)} {kind}"),
           Paragraph(f"A (cell, workload) agrees when the p50 of every run lies within ±{TOLERANCE:.0%} of the median "
                     f"across the runs; only pairs timed in all runs count. Target: {TARGET:.0%} or more."),
           Table(["", "pairs timed in all runs", "within ±5%", "share", "target"],
                 [["p50, µs", str(n), str(k), _pct(k, n), _verdict(k, n)],
                  [Text("p50 as a multiple of ", Code(baseline), " (same languages)"), str(rn), str(rk), _pct(rk, rn),
                   _verdict(rk, rn)]]),
           Heading(2, "Per protocol")]
    protocols = sorted({series[0].meta[c]["protocol"] for c, _ in absolute} |
                       {s.meta[c]["protocol"] for s in series for c, _ in s.p50 if c in s.meta})
    rows = []
    for p in protocols:
        a = {key: v for key, v in absolute.items() if series[0].meta.get(key[0], {}).get("protocol") == p}
        r = {key: v for key, v in ratios.items() if series[0].meta.get(key[0], {}).get("protocol") == p}
        (ak, an), (qk, qn) = share(a), share(r)
        rows.append([p, str(an), _pct(ak, an), str(qn) if p != baseline else "(baseline)",
                     _pct(qk, qn) if p != baseline else "–"])
    out += [Table(["protocol", "pairs", "p50 within ±5%", "pairs with a baseline", "multiple within ±5%"], rows),
            Heading(2, "The 10 least stable workloads"),
            Paragraph("Largest deviation of one run's p50 from the median across the runs.")]
    worst = sorted(absolute.items(), key=lambda kv: -kv[1][2])[:10]
    out.append(Table(["cell", "workload", "p50 per run, µs", "median", "worst deviation"],
                     [[Code(c), w, _per_run(values), _num(med), Value(dev, spec=".0%")]
                      for (c, w), (values, med, dev) in worst]))
    out += payload_agreement(series)
    out += [Heading(2, "What limits agreement"),
            Paragraph("The machine's floor (C ping-pong p50) and the fixed CPU probe's median in each run: when these "
                      "move, every cell moves with them."),
            Table(["run", "floor p50, µs", "CPU probe median, ms", "timed pairs"],
                  [[s.label, _num(s.floor), _num(s.probe / 1e6 if s.probe else None), str(len(s.p50))]
                   for s in series])]
    floors = [s.floor for s in series if s.floor]
    if len(floors) >= 2:
        ci = stats.median_ci(floors)
        out.append(Paragraph(Text("Floor across the runs: median ", _num(ci["median"]), " µs, max/min ",
                                  Value(max(floors) / min(floors), spec=".2f", prefix="×"), ".")))
    return out


def payload_agreement(series: list[Series]) -> list:
    """The TCP payload per call, each way, of every pair counted in all runs: each run within ±2% of the
    median across the runs (the bytes a protocol sends do not depend on timing; every pair must agree)."""
    found = agreement(series, "payload")
    if not found:
        return [Heading(2, "Data bytes per call"), Paragraph("No pair has its TCP payload counted in every run.")]
    k, n = share(found, BYTES_TOLERANCE)
    out = [Heading(2, "Data bytes per call"),
           Paragraph(Text(f"The TCP payload per call each way (the counting pass, bare ACKs apart): {k} of {n} (pair, "
                          f"direction) within ±{BYTES_TOLERANCE:.0%} of their median across the runs (",
                          Text(Status("pass"), " every one") if k == n else Text(Status("fail"), " not every one"),
                          ")."))]
    outside = sorted(((key, v) for key, v in found.items() if v[2] > BYTES_TOLERANCE + 1e-12), key=lambda kv: -kv[1][2])
    if outside:
        out.append(Table(["cell", "workload", "direction", "bytes per call per run", "median", "worst deviation"],
                         [[Code(c), w, way, _per_run(values), _num(med), Value(dev, spec=".1%")]
                          for (c, w, way), (values, med, dev) in outside[:20]]))
    return out
