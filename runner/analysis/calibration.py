"""How far `compare` can be trusted on this machine (`python -m analysis calibrate A A2 B`, CALIBRATION.md).

Three runs of one commit and profile: A and A2 alike (A/A), B with a known slowdown injected into one
language's servers (`run --inject-server-spin LANGUAGE=US`: every contract call of those servers busy-waits
US µs first). The targets (runner/README.md, "Calibrating compare"):
- A/A: at most 5% of the (cell, workload) pairs flagged as changed, and each run's 95% interval of a pair's
  median holding the other run's median in at least 90% of cases;
- A/B: at least 80% of the affected pairs flagged slower, and at most 5% of the others flagged at all. A pair
  is affected when its server's language was spun and the spin is at least twice compare's threshold of A's
  median (a spin of 10% of the call or more, at the default 5%); pairs spun by less are counted apart, as
  "weakly affected", since a change near the threshold is flagged or not by chance.
Each is given for both of compare's units: the repetitions' medians (benchstat's) and the passes' p50s, and
the one compare takes by default on these runs (compare.auto_unit: the passes when there are enough).
Also: the share of p50s within ±5% of the median of their run's passes (process instances).
"""
import json
import statistics
from pathlib import Path

from . import compare, records
from .report import markdown
from .report.blocks import Bullets, Code, Emphasis, Heading, Paragraph, Strong, Table, Text, Value

CALIBRATION_REPORT = "CALIBRATION.md"
TARGETS = {"aa_flagged": 0.05, "aa_covered": 0.90, "detected": 0.80, "false_alarms": 0.05}
UNITS = ("repetition", "pass")
UNIT_NAMES = {"repetition": "repetitions' medians (benchstat)", "pass": "passes' p50s"}


class CalibrationError(Exception):
    pass


def _run(path: Path) -> dict:
    try:
        return json.loads((Path(path) / "env.json").read_text(encoding="utf-8"))["run"]
    except (OSError, ValueError, KeyError) as e:
        raise CalibrationError(f"{path} is not a run folder with a readable env.json: {e}") from e


def check_runs(a: Path, a2: Path, b: Path) -> dict:
    """B's injected spin {language: µs}, once the three runs are known to fit: one commit and profile, A and A2
    without a spin, B with one. Raises CalibrationError saying what does not fit."""
    runs = {"A": _run(a), "A2": _run(a2), "B": _run(b)}
    for name in ("A", "A2"):
        if runs[name].get("injected_server_spin_us"):
            raise CalibrationError(f"run {name} ({runs[name].get('run_id')}) has a slowdown injected: "
                                   "A and A2 must be plain runs")
    spin = runs["B"].get("injected_server_spin_us")
    if not spin:
        raise CalibrationError(f"run B ({runs['B'].get('run_id')}) has no slowdown injected: make it with "
                               "runner/rpcmatrix run --inject-server-spin LANGUAGE=US")
    commits = {name: run.get("git_commit") for name, run in runs.items()}
    if len(set(commits.values())) > 1:
        raise CalibrationError(f"the three runs must be of one commit: {commits}")
    profiles = {name: (run.get("profile") or {}).get("name") for name, run in runs.items()}
    if len(set(profiles.values())) > 1:
        raise CalibrationError(f"the three runs must be of one profile: {profiles}")
    return {lang: float(us) for lang, us in spin.items()}


def instance_agreement(run: Path, tolerance: float = 0.05) -> dict:
    """The share of a run's pass p50s within ±tolerance of the median of that pair's passes (each pass is a
    new process instance of every server and client), over the pairs with two passes or more."""
    p50s: dict[tuple, list[float]] = {}
    for rec in records.load(run):
        if compare.timed(rec) and rec["cell"] != records.FLOOR_CELL:
            p50s.setdefault((rec["cell"], rec["workload"]), []).append(float(rec["rtt_us"]["p50"]))
    values = [(v, statistics.median(vs)) for vs in p50s.values() if len(vs) >= 2 for v in vs]
    within = sum(1 for v, m in values if abs(v / m - 1) <= tolerance)
    return {"p50s": len(values), "within": within, "share": within / len(values) if values else None}


def _languages(run: Path) -> dict:
    cells = {}
    path = Path(run) / "cells.jsonl"
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                c = json.loads(line)
                cells[c["name"]] = c.get("server_language", c.get("server"))
    return cells


def classify(rows: list[dict], server_language: dict, spin: dict, threshold: float) -> None:
    """Adds to each A/B row the spin its server got, the change it should show (spin / A's median) and its
    group: affected, weakly affected or unaffected."""
    for r in rows:
        us = spin.get(server_language.get(r["cell"], ""), 0.0)
        r["spin_us"] = us
        r["expected"] = us / r["median_a"] if us else 0.0
        r["group"] = ("unaffected" if not us else "affected" if r["expected"] >= 2 * threshold
                      else "weakly affected")


def _share(rows: list[dict], test) -> dict:
    hits = sum(1 for r in rows if test(r))
    return {"n": len(rows), "hits": hits, "share": hits / len(rows) if rows else None}


def figures(aa: dict, ab: dict) -> dict:
    """The calibration's figures from an A/A and an A/B comparison (the A/B rows classified)."""
    aa_s = aa["summary"]
    by_group = {g: [r for r in ab["rows"] if r["group"] == g] for g in ("affected", "weakly affected", "unaffected")}
    out = {
        "aa_flagged": _share(aa["rows"], lambda r: r["verdict"] != "~"),
        "aa_covered": aa_s.get("covered"),
        "aa_untestable": aa_s.get("untestable", 0),
        "detected": _share(by_group["affected"], lambda r: r["verdict"] == "slower"),
        "weakly_detected": _share(by_group["weakly affected"], lambda r: r["verdict"] == "slower"),
        "false_alarms": _share(by_group["unaffected"], lambda r: r["verdict"] != "~"),
        "ab_untestable": ab["summary"].get("untestable", 0),
    }
    ratios = [r["change"] / r["expected"] for r in by_group["affected"] if r["expected"]]
    out["measured_over_expected"] = statistics.median(ratios) if ratios else None
    out["met"] = {
        "aa_flagged": out["aa_flagged"]["share"] is not None and out["aa_flagged"]["share"] <= TARGETS["aa_flagged"],
        "aa_covered": out["aa_covered"] is not None and out["aa_covered"] >= TARGETS["aa_covered"],
        "detected": out["detected"]["share"] is not None and out["detected"]["share"] >= TARGETS["detected"],
        "false_alarms": (out["false_alarms"]["share"] is not None
                         and out["false_alarms"]["share"] <= TARGETS["false_alarms"]),
    }
    return out


def calibrate(a: Path, a2: Path, b: Path, threshold: float = compare.THRESHOLD,
              alpha: float = compare.ALPHA) -> dict:
    """The calibration as data: {"spin", "units": {unit: figures}, "instances": {run: agreement}, "runs"}."""
    spin = check_runs(a, a2, b)
    languages = _languages(a)
    units = {}
    for unit in UNITS:
        aa = compare.comparison(a, a2, threshold, alpha, unit=unit)
        ab = compare.comparison(a, b, threshold, alpha, unit=unit)
        classify(ab["rows"], languages, spin, threshold)
        units[unit] = {"figures": figures(aa, ab), "aa_values": aa["a"]["values"], "ab_rows": ab["rows"],
                       "aa_rows": aa["rows"]}
    by_pass = [compare.repetitions_of_run(Path(run), "pass")[0] for run in (a, a2)]
    default, _ = compare.auto_unit(*by_pass, alpha)
    return {"spin": spin, "threshold": threshold, "alpha": alpha, "units": units, "default_unit": default,
            "instances": {name: instance_agreement(run) for name, run in (("A", a), ("A2", a2))},
            "runs": {name: compare.run_info(Path(run)) for name, run in (("A", a), ("A2", a2), ("B", b))}}


# --- blocks and Markdown -------------------------------------------------------------------------------

def _pct(share: float | None) -> Value:
    return Value(share, spec=".1%")


def _count(s: dict) -> Text:
    return Text(_pct(s["share"]), f" ({s['hits']} of {s['n']})")


def _met(ok: bool):
    return "met" if ok else Strong("not met")


def _unit_header(unit: str, default: str | None) -> str:
    return UNIT_NAMES[unit] + (" (compare's default on these runs)" if unit == default else "")


def blocks(result: dict) -> list:
    """CALIBRATION.md's blocks: the runs, the targets met or not in each unit, and every A/B pair."""
    runs, spin = result["runs"], result["spin"]
    default = result.get("default_unit") or "repetition"
    out = [Heading(1, "Calibration of compare"),
           Bullets([Text(f"{name}: ", Code(str(info["run_id"])), ", commit ", Code((info.get("commit") or "?")[:12]),
                         ", profile ", Code(str(info.get("profile")))) for name, info in runs.items()])]
    spun = ", ".join(f"{lang} {us:g} µs" for lang, us in sorted(spin.items()))
    out.append(Paragraph(Text(f"B's servers of {spun} busy-waited that long in every contract call. A pair is ",
                              Emphasis("affected"), f" when that spin is at least {2 * result['threshold'] * 100:g}% "
                              "of A's median, ", Emphasis("weakly affected"), " when less; pairs whose server was not "
                              "spun are ", Emphasis("unaffected"), f". compare: Holm-corrected p < {result['alpha']} "
                              f"and |change| ≥ {result['threshold'] * 100:g}%.")))
    f = {u: result["units"][u]["figures"] for u in UNITS}
    lines = [
        ("A/A: pairs flagged", f"≤ {TARGETS['aa_flagged'] * 100:g}%",
         lambda x: Text(_count(x["aa_flagged"]), ", ", _met(x["met"]["aa_flagged"]))),
        ("A/A: 95% intervals holding the other run's median", f"≥ {TARGETS['aa_covered'] * 100:g}%",
         lambda x: Text(_pct(x["aa_covered"]), ", ", _met(x["met"]["aa_covered"]))),
        ("A/B: affected pairs flagged slower", f"≥ {TARGETS['detected'] * 100:g}%",
         lambda x: Text(_count(x["detected"]), ", ", _met(x["met"]["detected"]))),
        ("A/B: unaffected pairs flagged", f"≤ {TARGETS['false_alarms'] * 100:g}%",
         lambda x: Text(_count(x["false_alarms"]), ", ", _met(x["met"]["false_alarms"]))),
        ("A/B: weakly affected pairs flagged slower", "–", lambda x: _count(x["weakly_detected"])),
        ("A/B: measured change / injected change (affected, median)", "≈ 1",
         lambda x: Value(x["measured_over_expected"], spec=".2f")),
        ("pairs too small to ever be flagged (A/A, A/B)", "0",
         lambda x: f"{x['aa_untestable']}, {x['ab_untestable']}"),
    ]
    out.append(Table(["", "target"] + [_unit_header(u, default) for u in UNITS],
                     [[label, target, fn(f["repetition"]), fn(f["pass"])] for label, target, fn in lines]))
    inst = result["instances"]
    out.append(Paragraph(Text("Pass p50s within ±5% of the median of their run's passes (each pass a new process of "
                              "every server and client): ",
                              Text.join("; ", [Text(f"{n} ", _pct(v["share"]), f" of {v['p50s']}")
                                               for n, v in inst.items()]), ".")))
    order = {"affected": 0, "weakly affected": 1, "unaffected": 2}
    rows = sorted(result["units"][default]["ab_rows"], key=lambda r: (order[r["group"]], r["cell"], r["workload"]))
    return out + [Heading(2, f"A/B pairs, affected first ({UNIT_NAMES[default]})"),
                  Table(["cell", "workload", "A µs", "B µs", "injected", "change", "95% interval", "verdict"],
                        [[Code(r["cell"]), r["workload"], Value(r["median_a"], spec=".4g"),
                          Value(r["median_b"], spec=".4g"),
                          Value(r["expected"], spec=".1%", prefix="+") if r["spin_us"] else "–",
                          Value(r["change"], spec="+.1%"),
                          Text(Value(r["low"], spec="+.1%"), " … ", Value(r["high"], spec="+.1%")),
                          f"{r['verdict']} ({r['group']})"] for r in rows])]


def render(result: dict) -> str:
    return markdown.render(blocks(result))
