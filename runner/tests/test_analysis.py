"""The runner's analysis: statistics, plans, failure classification and the report, on synthetic data."""
import json
from pathlib import Path

import pytest

from analysis import known_failures, plan, records, report, stats

IDL = Path(__file__).resolve().parents[2] / "idl"


def test_summary_percentiles_and_juric_trimmed_mean():
    reps = [[1000] * 10, [2000] * 10, [3000] * 10, [10_000] * 10]  # ns
    s = stats.summarize(reps)["rtt_us"]
    assert s["min"] == 1.0 and s["max"] == 10.0
    assert s["p50"] == pytest.approx(2.0, rel=1e-3)
    assert s["p99"] == pytest.approx(10.0, rel=1e-3)
    assert s["mean"] == pytest.approx(4.0)
    # fastest (1 µs) and slowest (10 µs) repetitions dropped: mean of 2 and 3
    assert s["trimmed_mean"] == pytest.approx(2.5)
    assert s["rep_cv"] == pytest.approx(0.7071 / 2.5, rel=1e-3)


def test_summary_histogram_is_hdr_encoded():
    from hdrh.histogram import HdrHistogram
    encoded = stats.summarize([[5000, 7000]])["histogram"]
    h = HdrHistogram.decode(encoded)
    assert h.get_total_count() == 2


def test_summary_rejects_no_samples():
    with pytest.raises(ValueError):
        stats.summarize([[], []])


def test_plan_filters_by_profile_size_and_protocol():
    spec, profile = plan.load_profile(IDL, "default")
    names = [w["name"] for w in plan.workloads_for(spec, profile, "xmlrpc")]
    assert "randomDoublesStream50k" not in names
    assert "randomDoublesStream50k" in [w["name"] for w in plan.workloads_for(spec, profile, "grpc")]
    juric_spec, juric = plan.load_profile(IDL, "juric")
    rows = plan.workloads_for(juric_spec, juric, "rawtcp")
    assert [r["calls"] for r in rows] == [1000] * 8 and rows[0]["repetitions"] == 12


def test_plan_unknown_profile_is_a_clear_error():
    with pytest.raises(plan.PlanError, match="unknown profile 'nope'; known: smoke, default"):
        plan.load_profile(IDL, "nope")


def _rec(cell, workload, status, reason="", vectors=None):
    protocol = cell.split("/")[0]
    client, server = cell.split("/")[1].split("→")
    rec = {"cell": cell, "protocol": protocol, "client": client, "server": server, "workload": workload,
           "status": status, "reason": reason}
    if vectors is not None:
        rec["vectors"] = vectors
    return rec


def test_known_failures_expected_unexpected_and_stale():
    recs = [
        _rec("p/a→b", "vectors", "fail", vectors=[{"id": "v1", "status": "fail", "reason": "x"},
                                                  {"id": "v2", "status": "pass"}]),
        _rec("p/a→b", "ping", "fail", "not timed"),
        _rec("p/b→a", "vectors", "pass", vectors=[{"id": "v1", "status": "pass"}]),
        _rec("p/b→b", "ping", "timeout", "slow"),
    ]
    recs[1]["blocked_by"] = "vectors"
    entries = [{"cell": "p/a→b", "vector": "v1", "reason": "known"}, {"cell": "p/b→a", "reason": "was broken"}]
    v = known_failures.classify(recs, entries)
    assert [(i["cell"], i["vector"]) for i in v["expected"]] == [("p/a→b", "v1")]
    assert [(i["cell"], i["workload"]) for i in v["unexpected"]] == [("p/b→b", "ping")]
    assert v["stale"] == [entries[1]]


def test_known_failures_need_a_reason(tmp_path):
    path = tmp_path / "k.json"
    path.write_text(json.dumps({"failures": [{"cell": "p/a→b"}]}))
    with pytest.raises(ValueError, match="needs a cell and a reason"):
        known_failures.load(path)


def _run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    (run / "plan").mkdir(parents=True)
    (run / "plan" / "raw.tsv").write_text("ping small 1 2 2\n")
    (run / "plan" / "x.tsv").write_text("ping small 1 2 2\n")
    env = {"run": {"run_id": "r", "profile": {"name": "smoke", "small": {"warmup": 1, "calls": 2, "repetitions": 2}},
                   "git_commit": "abc", "cpu_model": "cpu", "cpus": 2, "cpu_governor": "-", "memory": "1 kB",
                   "os": "os", "kernel": "k", "wire": "w", "cpu_source": "c", "memory_source": "m",
                   "rtt_source": "r", "baseline": "raw", "headline_workloads": ["ping"]},
           "versions": {"a": {"lib": "1"}}}
    (run / "env.json").write_text(json.dumps(env))
    return run


def test_report_matrix_unsupported_note_and_baseline_multiple(tmp_path):
    run = _run_dir(tmp_path)
    cells = [{"name": f"{p}/a→a", "protocol": p, "client": "a", "server": "a"} for p in ("raw", "x")]
    cells[1]["server_notes"] = ["closes every connection after 100 requests"]
    cells.append({"name": "x/a→b", "protocol": "x", "client": "a", "server": "b", "unsupported": "b has no x"})
    passing = [{"id": "v", "status": "pass"}, {"id": "n", "status": "unsupported", "reason": "no NaN in x"}]
    recs = [_rec("raw/a→a", "vectors", "pass", vectors=passing[:1]), _rec("x/a→a", "vectors", "pass", vectors=passing),
            _rec("x/a→b", "vectors", "unsupported", "b has no x")]
    for cell, p50 in (("raw/a→a", 10.0), ("x/a→a", 35.0)):
        r = _rec(cell, "ping", "pass")
        r.update(rtt_us={"p50": p50, "p99": p50, "trimmed_mean": p50, "cv": 0.1, "rep_cv": 0.5 if p50 > 20 else 0.01},
                 cpu_us_per_call={"client": 1, "server": 2}, wire_per_call=None,
                 rss_kb={"client_peak": 2048, "server_peak": 4096})
        recs.append(r)
    text = report.render(run, recs, cells, {"expected": [], "unexpected": [], "stale": []})
    assert "| **a** | ✅ 1/2 pass, 1 unsupported | ➖ unsupported [1] |" in text
    assert "1. b has no x" in text
    assert "- n: no NaN in x" in text
    assert "| x/a→a | ×3.50 |" in text
    assert text.count("- a: closes every connection after 100 requests") == 1
    assert "| client→server | raw | x |" in text and "| a→a | 10 | 35 ⚠ (×3.5) |" in text
    assert "**Stability**: 1 of 2 timed workloads are marked ⚠" in text


def test_records_last_one_wins(tmp_path):
    run = tmp_path
    lines = [{"cell": "c", "workload": "w", "status": "error"}, {"cell": "c", "workload": "w", "status": "pass"}]
    (run / "results.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert records.load(run) == [lines[1]]
