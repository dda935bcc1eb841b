"""Synthetic run folders for the tests: for the report's, env.json, plans, cells and records with histograms, of
any size (protocols × language pairs × workloads × passes), as `python -m analysis render` reads a real one;
for compare's and calibrate's, pings with their raw samples (ping_run)."""
import gzip
import json
import math
import random
from pathlib import Path

from analysis import stats
from analysis.records import RESULTS

LANGUAGES = ("dotnet", "java", "python")
WORKLOADS = ("ping", "echoString", "randomDoubles50k", "searchBooks100", "getItems100")


def build(root: Path, protocols: int = 3, passes: int = 1, workloads=WORKLOADS, calls: int = 400,
          unsupported: dict | None = None, failing: dict | None = None, seed: int = 1) -> tuple[Path, list, list]:
    """The run folder, its records and its cells. Protocol 0 is the baseline `rawtcp`; the others `p1`, `p2`,
    ... each about i+1 times slower. unsupported: cell name -> reason; failing: cell name -> reason (vectors
    fail, nothing timed)."""
    rng = random.Random(seed)
    unsupported, failing = unsupported or {}, failing or {}
    run = root / "run"
    (run / "plan").mkdir(parents=True)
    names = ["rawtcp"] + [f"p{i}" for i in range(1, protocols)]
    for p in names:
        (run / "plan" / f"{p}.tsv").write_text("".join(f"{w} small 1 2 2\n" for w in workloads))
    env = {"run": {"run_id": "20260101T000000Z-synthetic", "git_commit": "0123456789abcdef", "git_dirty": False,
                   "profile": {"name": "default", "seed": 7, "passes": passes,
                               "small": {"warmup": 1, "calls": calls, "repetitions": 2}},
                   "cpu_model": "Synthetic CPU", "cpus": 2, "cpu_governor": "-", "memory": "1 GB", "os": "Debian 12",
                   "kernel": "6.1.0", "wire": "w", "cpu_source": "c", "memory_source": "m", "rtt_source": "r",
                   "baseline": "rawtcp", "headline_workloads": list(workloads),
                   "registry": {p: {"family": p, "variant": {}} for p in names}},
           "versions": {"java": {"java": "17.0.15", "jetty": "9.4"}, "python": {"python": "3.11.7"},
                        "dotnet": {"mono": "6.8"}}}
    (run / "env.json").write_text(json.dumps(env))
    cells = [{"name": f"{p}/{c}→{s}", "protocol": p, "client": c, "server": s, "client_language": c,
              "server_language": s} for p in names for c in LANGUAGES for s in LANGUAGES]
    for c in cells:
        if c["name"] in unsupported:
            c["unsupported"] = unsupported[c["name"]]
    records = []
    for pass_no in range(1, passes + 1):
        floor = _timed("floor/c→c", "ping", pass_no, 10.0, rng, calls)
        floor.update(protocol="floor", client="c", server="c")
        records.append(floor)
        for i, c in enumerate(cells):
            name = c["name"]
            base = {"cell": name, "protocol": c["protocol"], "client": c["client"], "server": c["server"],
                    "pass": pass_no, "time": f"2026-01-01T00:{pass_no:02d}:{i % 60:02d}Z",
                    "steal_ms": 1.0, "calibration_ns": 40e6 * (1 + 0.01 * (i % 7))}
            if name in unsupported:
                records.append({**base, "workload": "vectors", "status": "unsupported", "reason": unsupported[name]})
                continue
            if name in failing:
                records.append({**base, "workload": "vectors", "status": "fail", "reason": failing[name],
                                "vectors": [{"id": "v1", "status": "fail", "reason": failing[name]}]})
                continue
            records.append({**base, "workload": "vectors", "status": "pass", "reason": "",
                            "vectors": [{"id": f"v{k}", "status": "pass"} for k in range(5)],
                            "instantiation_us": 2000.0})
            scale = 1 + names.index(c["protocol"]) + 0.1 * LANGUAGES.index(c["client"])
            for j, w in enumerate(workloads):
                rec = _timed(name, w, pass_no, 20.0 * scale * (1 + j), rng, calls)
                rec.update({k: v for k, v in base.items() if k not in ("steal_ms", "calibration_ns")})
                rec.update(cpu_us_per_call={"client": 5.0 * scale, "server": 4.0 * scale, "client_rep_cv": 0.01,
                                            "server_rep_cv": 0.01},
                           wire_per_call={"bytes_c2s": 100 * scale * (1 + j), "bytes_s2c": 90 * scale * (1 + j),
                                          "packets_c2s": 1.0, "packets_s2c": 1.0, "connections": 0.0},
                           rss_kb={"client_peak": 40960, "server_peak": 81920, "client_after": 40000,
                                   "server_after": 80000}, threads={"client": 2, "server": 8})
                records.append(rec)
    (run / "cells.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cells))
    # the records in the folder too, as compare and publish read a run
    (run / RESULTS).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return run, records, cells


def _timed(cell: str, workload: str, pass_no: int, p50_us: float, rng: random.Random, calls: int) -> dict:
    """A record whose figures and histogram come from calls samples around p50_us (log-normal); the figures
    from the sorted samples (stats.summarize's bimodality test would take most of a large run's build)."""
    samples = sorted(int(p50_us * 1000 * rng.lognormvariate(0, 0.15)) for _ in range(calls))
    mean = sum(samples) / calls

    def at(q: float) -> float:
        return samples[min(calls - 1, int(q * calls))] / 1000
    rtt = {"min": samples[0] / 1000, "p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "p999": at(0.999),
           "max": samples[-1] / 1000, "mean": mean / 1000, "stdev": 0.15 * mean / 1000, "cv": 0.15,
           "trimmed_mean": mean / 1000, "rep_cv": 0.01}
    return {"cell": cell, "workload": workload, "pass": pass_no, "status": "pass", "reason": "", "rtt_us": rtt,
            "histogram": stats.histogram_of(samples).encode().decode("ascii"), "calls": calls}


def ping_run(path: Path, run: dict, centres: list[tuple[str, list[float]]], seed: int, cells_lines: str = "",
             **fields) -> Path:
    """A run folder of schema 3 with raw samples, as compare and calibrate read one: for each (cell, the
    centre of its ping in µs in each pass) one record per pass of 5 repetitions × 20 calls, each call
    log-normal around the centre (1%), with `fields` added to each record."""
    rng = random.Random(seed)
    path.mkdir()
    (path / "env.json").write_text(json.dumps({"run": run}))
    (path / "cells.jsonl").write_text(cells_lines)
    recs, samples = [], []
    for cell, per_pass in centres:
        for p, centre in enumerate(per_pass, start=1):
            rep_ns = [[int(centre * 1000 * math.exp(rng.gauss(0, 0.01))) for _ in range(20)] for _ in range(5)]
            flat = sorted(v for r in rep_ns for v in r)
            recs.append({"schema": 3, "run_id": run["run_id"], "pass": p, "cell": cell, "workload": "ping",
                         "protocol": cell.split("/")[0], "status": "pass", "calls": 100, "repetitions": 5,
                         "rtt_us": {"p50": flat[50] / 1000, "p99": flat[98] / 1000, "mean": sum(flat) / 100000},
                         **fields})
            samples.append({"cell": cell, "workload": "ping", "pass": p, "samples_ns": rep_ns})
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    with gzip.open(path / "samples.jsonl.gz", "wt") as f:
        f.write("".join(json.dumps(s) + "\n" for s in samples))
    return path
