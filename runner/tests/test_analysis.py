"""The runner's analysis: statistics, plans, failure classification and the report, on synthetic data."""
import gzip
import json
import math
import os
import statistics
from pathlib import Path

import pytest

from analysis import agreement, exports, known_failures, publish, records, stats
from analysis.report import flags
from analysis.report.blocks import (
    Bullets,
    Code,
    Heading,
    Mark,
    NoteRef,
    Numbered,
    Paragraph,
    Status,
    Strong,
    Table,
    Text,
    Value,
)
from analysis.report.figures import Figures
from analysis.report.sections import documents
from analysis.report.sections.context import Context
from analysis.report.tables import titled
from analysis.report.text import plain

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


def test_percentiles_from_one_running_sum_are_the_librarys_own():
    import random

    from hdrh.histogram import HdrHistogram
    rng = random.Random(11)
    percentiles = (0, 1, 25, 50, 90, 99, 99.9, 99.99, 99.999, 100)
    for _ in range(60):
        samples = [int(rng.lognormvariate(rng.uniform(5, 15), rng.uniform(0.1, 2)))
                   for _ in range(rng.choice([1, 2, 7, 300, 3000]))]
        made = stats.histogram_of(samples)
        for h in (made, HdrHistogram.decode(made.encode())):  # a decoded one keeps a shorter counts array
            assert stats.values_at_percentiles(h, percentiles) == {p: h.get_value_at_percentile(p) for p in percentiles}


def test_summary_rejects_no_samples():
    with pytest.raises(ValueError):
        stats.summarize([[], []])


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
    # a cell that did not run in this run (unsupported here: a variant it cannot take) leaves its entries alone
    recs[2] = _rec("p/b→a", "vectors", "unsupported", "--proxy http: no HTTP")
    assert known_failures.classify(recs, entries)["stale"] == []


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


def _report(run: Path, recs: list[dict], cells: list[dict]) -> dict[str, list]:
    """Each file of the report (REPORT.md, then report/<protocol>.md and report/run.md) and its blocks."""
    return documents(Context.load(run, recs, cells, {"expected": [], "unexpected": [], "stale": []}))


def _table(blocks: list, heading: str, nth: int = 0) -> Table:
    """The nth table under a heading that starts with `heading` (the nearest heading before each table)."""
    return [table for title, table in titled(blocks) if plain(title).startswith(heading)][nth]


def _items(blocks: list) -> list[Text]:
    """Every item of the blocks' lists (bullets and numbered: the notes), as Text."""
    return [Text(item) for b in blocks if isinstance(b, (Bullets, Numbered)) for item in b.items]


def _notes(blocks: list) -> list[Text]:
    """The file's notes, in their order: [1], [2], ..."""
    return [Text(item) for item in blocks[blocks.index(Heading(2, "Notes")) + 1].items]


def _values(cell) -> list[float]:
    """The figures of a cell, in order."""
    return [v.value for v in Text(cell).of(Value)]


def _marks(cell) -> list[Mark]:
    """The marks a cell carries after its figures (each figure's own, as ≠, in Value.marks)."""
    return Text(cell).of(Mark)


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
    docs = _report(run, recs, cells)
    x, detail = docs["report/x.md"], docs["report/run.md"]
    assert _table(x, "Interop: vectors per cell").row(Strong("a")) == \
        [Strong("a"), Text(Status("pass"), " 1/2 pass, 1 unsupported"), Text(Status("unsupported"), " unsupported ",
                                                                          NoteRef(1))]
    assert _notes(x) == [Text("b has no x")]
    assert Text("n: no NaN in x") in _items(x)
    against = _table(detail, "Every protocol against the")
    assert against.cell("x/a→a", "ping") == Text(Value(3.5, spec=".2f", prefix="×"))
    assert _items(x).count(Text("a: closes every connection after 100 requests")) == 1
    side_by_side = _table(detail, "ping")  # the protocols side by side, on the headline workload
    assert side_by_side.header == ["client→server", "raw", "x"] and _values(side_by_side.cell("a→a", "raw")) == [10]
    x_cell = side_by_side.cell("a→a", "x")
    assert _values(x_cell) == [35, 3.5] and x_cell.of(Value)[0].marks == (Mark(flags.Flag.UNSTABLE),)
    counts = flags.counts(Figures(recs, cells, "raw"))
    assert (counts.unstable, counts.timed) == (1, 2)


def test_report_time_wait_beside_new_connections_and_resumptions(tmp_path):
    run = _run_dir(tmp_path)
    env = json.loads((run / "env.json").read_text())
    env["run"]["boot_id"] = "b1"
    env["run"]["resumed"] = [{"time": "2026-01-01T01:00:00Z", "cells_finished": 3, "cells_total": 8,
                              "boot_id": "b2", "cpu_model": "cpu", "kernel": "k"}]
    (run / "env.json").write_text(json.dumps(env))
    cells = [{"name": f"x/{c}→s", "protocol": "x", "client": c, "server": "s"} for c in ("a", "b")]
    recs = [_rec(c["name"], "vectors", "pass", vectors=[{"id": "v", "status": "pass"}]) for c in cells]
    for cell, conn in (("x/a→s", 1.0), ("x/b→s", 0.0)):
        r = _rec(cell, "ping", "pass")
        r.update(rtt_us={"p50": 100.0, "p99": 120.0, "trimmed_mean": 100.0, "cv": 0.1, "rep_cv": 0.01},
                 wire_per_call={"connections": conn}, time_wait={"client": 28000, "server": 3})
        recs.append(r)
    docs = _report(run, recs, cells)
    connections = _table(docs["report/x.md"], "New TCP connections per 1,000 calls")
    # per 1,000 calls, then the sockets in TIME_WAIT (client / server) where there are new connections
    assert _values(connections.cell("a→s", "ping")) == [1000, 28000, 3]
    assert _values(connections.cell("b→s", "ping")) == [0]
    resumed = Text(_table(docs["report/run.md"], "Environment and method").row("Resumed (1)")[1])
    assert "after 3 of 8 cells, on another boot" in resumed


def test_report_marks_calls_that_wait_on_neither_side(tmp_path):
    run = _run_dir(tmp_path)
    cells = [{"name": f"x/{c}→s", "protocol": "x", "client": c, "server": "s"} for c in ("a", "b", "c")]
    recs = [_rec(c["name"], "vectors", "pass", vectors=[{"id": "v", "status": "pass"}]) for c in cells]
    # a: a delayed ACK per call (44 ms, 1.6 ms of CPU); b: busy; c: idle 60% but under 1 ms
    for cell, mean, cpu in (("x/a→s", 44000.0, 800.0), ("x/b→s", 100.0, 45.0), ("x/c→s", 500.0, 100.0)):
        r = _rec(cell, "ping", "pass")
        r.update(rtt_us={"min": mean / 30, "p50": mean, "p99": mean, "mean": mean, "trimmed_mean": mean, "cv": 0.1,
                         "rep_cv": 0.01},
                 cpu_us_per_call={"client": cpu, "server": cpu, "client_rep_cv": 0.01, "server_rep_cv": 0.01})
        recs.append(r)
    # the host around cell a: 41.9 s of steal, its CPU probe twice the median of the three cells (facts of a
    # cell and pass: here on each cell's vectors record, the first three)
    for r, steal, probe in zip(recs[:len(cells)], (41900.0, 10.0, 10.0), (80e6, 40e6, 40e6), strict=True):
        r.update(steal_ms=steal, calibration_ns=probe)
    docs = _report(run, recs, cells)
    x = docs["report/x.md"]
    cpu = _table(x, "CPU time per call, µs")
    assert _values(cpu.cell("a→s", "ping")) == [800, 800] and _marks(cpu.cell("a→s", "ping")) == \
        [Mark(flags.Flag.WAIT, NoteRef(1))]
    for cell, us in (("b→s", 45), ("c→s", 100)):
        assert _values(cpu.cell(cell, "ping")) == [us, us] and _marks(cpu.cell(cell, "ping")) == []
    # the note on the wait gives the host around the cell
    note = _notes(x)[0]
    assert Text(Code("x/a→s"), " ping: p50 ") in note and _values(note)[0] == 44000
    assert "41.9 s of steal, CPU probe ×2.00 the median" in note
    figures = Figures(recs, cells, None)
    assert flags.workload_cpu_flags(figures, "x/a→s", "ping")[flags.Flag.WAIT]["idle_us"] == 44000 - 1600
    counts = flags.counts(figures)
    assert (counts.wait, counts.with_cpu) == (1, 3)
    assert any(isinstance(b, Paragraph) and Text(b.text).runs[0] == Strong("Waits") for b in docs["report/run.md"])


def test_report_negative_tests_and_published_metadata(tmp_path):
    run = _run_dir(tmp_path)
    env = json.loads((run / "env.json").read_text())
    env["run"]["attack_vectors"] = {"refuse_a": "wrong-password", "refuse_b": "tampered-body"}
    (run / "env.json").write_text(json.dumps(env))
    cells = [{"name": f"x/{c}→s", "protocol": "x", "client": c, "server": "s"} for c in ("a", "b")]
    cells.append({"name": "raw/a→a", "protocol": "raw", "client": "a", "server": "a"})
    refused = {"id": "refuse_a", "status": "pass", "reason": "SOAP Fault | wsse:FailedAuthentication"}
    answered = {"id": "refuse_a", "status": "fail", "reason": "the server answered the defective call"}
    not_here = {"id": "refuse_b", "status": "unsupported", "reason": "signs nothing"}
    recs = [_rec("x/a→s", "vectors", "pass", vectors=[{"id": "v", "status": "pass"}, refused, not_here]),
            _rec("x/b→s", "vectors", "fail", vectors=[answered, not_here]),
            _rec("raw/a→a", "vectors", "pass", vectors=[{"id": "refuse_a", "status": "unsupported", "reason": "-"}])]
    recs[0]["metadata"] = {"consumable": True, "reason": ""}
    recs[1]["metadata"] = {"consumable": False, "reason": "xsd:import answers with HTML"}
    docs = _report(run, recs, cells)
    hostile = docs["report/hostile-peers.md"]
    negative = _table(hostile, "Negative tests")
    # only the attack some cell ran has a column; how a refusal looked in its cell, why a test failed in a note
    assert negative.header == ["cell", "wrong-password"] and [row[0] for row in negative.rows] == \
        [Code("x/a→s"), Code("x/b→s")]
    assert negative.cell(Code("x/a→s"), "wrong-password") == \
        Text(Status("pass"), " SOAP Fault | wsse:FailedAuthentication")
    assert negative.cell(Code("x/b→s"), "wrong-password") == Text(Status("fail"), " ", NoteRef(1))
    assert _notes(hostile) == [Text("the server answered the defective call")]
    x = docs["report/x.md"]
    metadata = _table(x, "Published metadata")
    assert metadata.cell(Strong("a"), "s") == Text(Status("pass"))
    assert metadata.cell(Strong("b"), "s") == Text(Status("fail"), " ", NoteRef(2))
    assert _notes(x)[1] == Text("xsd:import answers with HTML")


def test_report_message_size_against_the_baseline_and_the_plain_variant(tmp_path):
    run = _run_dir(tmp_path)
    env = json.loads((run / "env.json").read_text())
    env["run"]["registry"] = {"raw": {"family": "raw", "variant": {}},
                              "soap": {"family": "soap", "variant": {"security": "none"}},
                              "wss": {"family": "soap", "variant": {"security": "x509"}}}
    (run / "env.json").write_text(json.dumps(env))
    cells = [{"name": f"{p}/a→a", "protocol": p, "client": "a", "server": "a"} for p in ("raw", "soap", "wss")]
    recs = []
    for cell, up, down in (("raw/a→a", 70, 70), ("soap/a→a", 300, 300), ("wss/a→a", 2100, 2100)):
        r = _rec(cell, "ping", "pass")
        r.update(rtt_us={"p50": 10.0, "p99": 10.0, "trimmed_mean": 10.0, "cv": 0.1, "rep_cv": 0.01},
                 wire_per_call={"bytes_c2s": up, "bytes_s2c": down, "packets_c2s": 1, "packets_s2c": 1})
        recs += [_rec(cell, "vectors", "pass", vectors=[{"id": "v", "status": "pass"}]), r]
    sizes = _table(_report(run, recs, cells)["report/run.md"], "Message size on the wire")
    # bytes per call both ways, then as a multiple of the baseline's and, for a secured variant, of its plain one
    soap, wss = sizes.cell(Code("soap"), "ping"), sizes.cell(Code("wss"), "ping")
    assert _values(soap) == [600, pytest.approx(600 / 140)] and soap.runs[-1] == " raw)"
    assert _values(wss) == [4200, 30, 7] and Text(" raw, ") in wss and wss.runs[-1] == " soap)"


def test_records_last_one_wins(tmp_path):
    run = tmp_path
    lines = [{"cell": "c", "workload": "w", "status": "error"}, {"cell": "c", "workload": "w", "status": "pass"}]
    (run / "results.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert records.stored(run) == [lines[1]]
    assert [{k: v for k, v in r.items() if k != "env"} for r in records.load(run)] == [lines[1]]


# -- statistics ----------------------------------------------------------------------------------------

def test_bimodality_finds_a_20_80_us_mixture():
    import random
    r = random.Random(7)
    mix = [int(r.lognormvariate(math.log(20_000), 0.08)) for _ in range(7000)] + \
          [int(r.lognormvariate(math.log(80_000), 0.08)) for _ in range(3000)]
    r.shuffle(mix)
    b = stats.bimodality(mix)
    assert b is not None
    assert b["modes_us"][0] == pytest.approx(20, rel=0.06) and b["modes_us"][1] == pytest.approx(80, rel=0.06)
    assert b["shares"][0] == pytest.approx(0.7, abs=0.02) and b["shares"][1] == pytest.approx(0.3, abs=0.02)
    assert stats.summarize([mix[:5000], mix[5000:]])["bimodal"]["modes_us"] == b["modes_us"]


def test_bimodality_rejects_a_lognormal_tail_a_small_second_mode_and_a_coarse_clock():
    import random
    r = random.Random(3)
    assert stats.bimodality([int(r.lognormvariate(math.log(30_000), 0.5)) for _ in range(50_000)]) is None
    assert stats.bimodality([int(20_000 * r.paretovariate(3)) for _ in range(20_000)]) is None
    # a second mode with 5% of the calls is a tail, not a mode
    small = [int(r.lognormvariate(math.log(20_000), 0.08)) for _ in range(9500)] + \
            [int(r.lognormvariate(math.log(80_000), 0.08)) for _ in range(500)]
    assert stats.bimodality(small) is None
    # a microsecond clock: 1, 2, 3 µs... must not look like separate modes
    assert stats.bimodality([1000 * int(r.expovariate(1 / 3000) / 1000 + 1) for _ in range(10_000)]) is None
    assert stats.bimodality([20_000, 80_000] * 10) is None  # too few samples to say
    assert stats.summarize([[5000, 7000]])["bimodal"] is None


def test_median_ci_t_interval_and_order_statistics():
    ci = stats.median_ci([10.0, 11.0, 15.0])
    assert ci["median"] == 11.0 and ci["n"] == 3 and ci["method"] == "t-interval on the log scale"
    logs = [math.log(v) for v in (10, 11, 15)]
    half = 4.303 * statistics.stdev(logs) / math.sqrt(3)
    assert ci["low"] == pytest.approx(math.exp(statistics.fmean(logs) - half))
    assert ci["high"] == pytest.approx(math.exp(statistics.fmean(logs) + half))
    # three ratios spread by factors: the interval stays positive (a t-interval on the values went below 0)
    assert stats.median_ci([0.4, 2.3, 6.0])["low"] > 0
    # values that are not all positive keep the t-interval on the values
    ci = stats.median_ci([-1.0, 0.0, 4.0])
    half = 4.303 * statistics.stdev([-1, 0, 4]) / math.sqrt(3)
    assert ci["method"] == "t-interval on the mean" and ci["low"] == pytest.approx(1.0 - half)
    assert stats.median_ci([5.0]) == {"median": 5.0, "low": 5.0, "high": 5.0, "n": 1, "method": "one value"}
    ci = stats.median_ci(list(range(1, 11)))  # n = 10: the classic [x(2), x(9)]
    assert (ci["median"], ci["low"], ci["high"]) == (5.5, 2, 9)
    with pytest.raises(ValueError):
        stats.median_ci([])


# -- environment and exports ---------------------------------------------------------------------------

def _timed_rec(cell, workload, pass_no, p50, **extra):
    rec = _rec(cell, workload, "pass")
    rec.update({"pass": pass_no, "run_id": "r", "client_language": rec["client"], "server_language": rec["server"],
                "rtt_us": {"min": p50 / 2, "p50": p50, "p90": p50 * 1.2, "p99": p50 * 1.5, "p999": p50 * 2,
                           "max": p50 * 3, "mean": p50, "stdev": p50 / 10, "cv": 0.1, "trimmed_mean": p50,
                           "rep_cv": 0.01}})
    rec.update(extra)
    return rec


def test_csv_has_a_column_per_scalar_field(tmp_path):
    rec = _timed_rec("x/a→b", "ping", 2, 40.0, size="small", min_ms=60, server_exit_status=0, steal_ms=12.5,
                     calibration_ns=123456, cpu_us_per_call={"client": 1, "server": 2, "client_rep_cv": 0.3,
                                                             "server_rep_cv": 0.1},
                     rss_kb={"client_peak": 1, "server_peak": 2, "client_after": 3, "server_after": 4},
                     threads={"client": 5, "server": 17},
                     wire_per_call={"connections": 0.0, "bytes_c2s": 100, "counted_calls": 20},
                     warmup_steady={"steady": False, "batches": 9, "elapsed_ms": 4000, "checked": 8},
                     bimodal={"modes_us": [20, 80], "shares": [0.7, 0.3]})
    exports.write_csv([rec], tmp_path / "r.csv")
    import csv
    row = next(csv.DictReader(open(tmp_path / "r.csv", encoding="utf-8")))
    assert row["pass"] == "2" and row["run_id"] == "r" and row["server_language"] == "b"
    assert row["rtt_us.stdev"] == "4.0" and row["rtt_us.p999"] == "80.0" and row["size"] == "small"
    assert row["cpu_us_per_call.client_rep_cv"] == "0.3" and row["rss_kb.server_after"] == "4"
    assert row["threads.server"] == "17" and row["wire_per_call.counted_calls"] == "20"
    assert row["wire_per_call.connections"] == "0.0" and row["warmup_steady.steady"] == "false"
    assert row["warmup_steady.elapsed_ms"] == "4000" and row["steal_ms"] == "12.5"
    assert row["calibration_ns"] == "123456" and row["server_exit_status"] == "0" and row["min_ms"] == "60"
    assert row["bimodal.modes_us"] == "20 80"


def test_junit_names_the_pass_when_there_are_several(tmp_path):
    recs = [_timed_rec("x/a→b", "ping", 1, 10.0), _timed_rec("x/a→b", "ping", 2, 10.0)]
    exports.write_junit(recs, tmp_path / "j.xml")
    text = (tmp_path / "j.xml").read_text()
    assert 'name="ping (pass 1)"' in text and 'name="ping (pass 2)"' in text
    exports.write_junit(recs[:1], tmp_path / "j.xml")
    assert 'name="ping"' in (tmp_path / "j.xml").read_text()


def test_write_samples_bundles_every_sample_file_in_record_order(tmp_path):
    import gzip
    run = tmp_path / "run"
    cell_dir = run / "cells" / "x__a-to-b"
    (cell_dir / "pass1").mkdir(parents=True)
    (cell_dir / "pass2").mkdir()
    (cell_dir / "cell.json").write_text(json.dumps({"name": "x/a→b"}))
    for p, v in ((1, 11), (2, 22)):
        with gzip.open(cell_dir / f"pass{p}" / "ping.samples.json.gz", "wt") as f:
            f.write(json.dumps({"ok": True, "samples_ns": [[v, v], [v]]}))
    (run / "floor" / "pass1").mkdir(parents=True)
    (run / "floor" / "pass1" / "ping.samples.json").write_text(json.dumps({"samples_ns": [[5]]}))
    (run / "handlers" / "b").mkdir(parents=True)
    with gzip.open(run / "handlers" / "b" / "ping.samples.json.gz", "wt") as f:
        f.write(json.dumps({"samples_ns": [[1, 2]]}))
    order = [("handler/b", "ping", 1), ("floor/c→c", "ping", 1), ("x/a→b", "ping", 2), ("x/a→b", "ping", 1)]
    (run / "results.jsonl").write_text("".join(json.dumps({"cell": c, "workload": w, "pass": p}) + "\n"
                                               for c, w, p in order))
    out = exports.write_samples(run)
    with gzip.open(out, "rt") as f:
        lines = [json.loads(line) for line in f]
    assert [(x["cell"], x["workload"], x["pass"]) for x in lines] == order
    assert lines[2]["samples_ns"] == [[22, 22], [22]] and lines[1]["samples_ns"] == [[5]]


# -- the report of a run of several passes -------------------------------------------------------------

def _multi_pass_run(tmp_path: Path):
    run = _run_dir(tmp_path)
    env = json.loads((run / "env.json").read_text())
    env["run"].update(baseline="rawtcp", pin="server on CPU 1, client on CPU 0 (cpuset cgroups)",
                      profile={"name": "full", "passes": 3, "seed": 4,
                               "small": {"warmup": 1, "calls": 2, "repetitions": 2}})
    (run / "env.json").write_text(json.dumps(env))
    for p in ("rawtcp", "x"):
        (run / "plan" / f"{p}.tsv").write_text("ping small 1 2 2 0 2\n")
    (run / "plan" / "x.unsupported.json").write_text(json.dumps({"randomDoublesStream50k": "no streaming in x"}))
    cells = [{"name": "rawtcp/a→a", "protocol": "rawtcp", "client": "a", "server": "a"},
             {"name": "rawtcp/java→java", "protocol": "rawtcp", "client": "java", "server": "java",
              "server_language": "java", "client_language": "java"},
             {"name": "x/a→a", "protocol": "x", "client": "a", "server": "a", "server_library": "xlib 1.0",
              "server_thread_model": "event loop, one thread", "client_thread_model": "blocking, caller's thread",
              "server_settings": "keep-alive"}]
    recs = []
    for p, (floor, raw, java, x) in enumerate(((10.0, 12.0, 12.0, 30.0), (10.2, 12.5, 12.0, 40.0),
                                               (9.8, 12.2, 12.0, 50.0)), start=1):
        recs.append(_timed_rec("floor/c→c", "ping", p, floor, protocol="floor"))
        for name, p50 in (("rawtcp/a→a", raw), ("rawtcp/java→java", java), ("x/a→a", x)):
            vec = _rec(name, "vectors", "pass", vectors=[{"id": "v", "status": "pass"}])
            vec.update({"pass": p, "calibration_ns": 100e6 if name != "x/a→a" else 150e6, "steal_ms": 10.0,
                        "instantiation_us": 2000.0})
            if name == "x/a→a":
                vec["facts"] = {"server": {"transport": "epoll"}}
                if p == 2:
                    vec["server_exit_note"] = ("the server exited with status 137 after SIGTERM "
                                               "(137: it had to be killed)")
            recs.append(vec)
            rec = _timed_rec(name, "ping", p, p50, cpu_us_per_call={"client": 2.0, "server": 3.0},
                             rss_kb={"client_peak": 2048, "server_peak": 4096, "client_after": 1024,
                                     "server_after": 2048}, threads={"client": 2, "server": 17})
            if name == "x/a→a":
                rec["cpu_us_per_call"] = {"client": 30.0, "server": 30.0, "client_rep_cv": 0.3, "server_rep_cv": 0.1}
                rec["warmup_steady"] = {"steady": p != 2, "batches": 5, "elapsed_ms": 1500, "checked": 4}
                if p == 1:
                    rec["bimodal"] = {"modes_us": [20, 80], "shares": [0.7, 0.3]}
            recs.append(rec)
    handler = _timed_rec("handler/a→a", "ping", 1, 4.0, protocol="handler")
    handler["cell"] = "handler/a"
    recs.append(handler)
    return run, recs, cells


def _ci(value: Value) -> tuple:
    """A figure's median and 95% interval across passes."""
    return value.value, value.low, value.high


def test_report_of_several_passes(tmp_path):
    run, recs, cells = _multi_pass_run(tmp_path)
    docs = _report(run, recs, cells)
    x, raw, detail = docs["report/x.md"], docs["report/rawtcp.md"], docs["report/run.md"]
    disagree, bimodal = Mark(flags.Flag.DISAGREE), Mark(flags.Flag.BIMODAL, NoteRef(1))
    # medians across passes with their 95% CI (t-interval on the log scale of 30, 40, 50), flagged as disagreeing
    rtt = _table(x, "Round-trip time, µs").cell("a→a", "ping")
    p50, p99 = rtt.of(Value)
    assert _ci(p50) == (40, pytest.approx(20.7, abs=0.05), pytest.approx(74, abs=0.5)) and p50.marks == (disagree,)
    assert _ci(p99) == (60, pytest.approx(31.1, abs=0.05), pytest.approx(111, abs=0.5)) and p99.marks == ()
    assert _marks(rtt) == [bimodal, Mark(flags.Flag.NOT_STEADY)]
    note = _notes(x)[0]
    assert Text(Code("x/a→a"), " ping: two modes") in note and "pass 1: 20 µs (70%) and 80 µs (30%)" in note
    p50, p99 = _table(raw, "Round-trip time, µs").cell("java→java", "ping").of(Value)
    assert (_ci(p50), _ci(p99)) == ((12, 12, 12), pytest.approx((18, 18, 18))) and p50.marks == ()
    figures = Figures(recs, cells, "rawtcp")
    counts = flags.counts(figures)
    assert (counts.disagree, counts.cpu_over_rtt, counts.timed, counts.with_cpu) == (2, 1, 3, 3)
    # the floor and each language's raw baseline against it (targets 1.3x, Java 1.1x)
    floor = _table(detail, "The machine's floor")
    assert floor.row("2") == ["2", Value(10.2), Value(pytest.approx(15.3)), ""]
    # 12, 12.5, 12.2: the t-interval's half-width (0.63) is over 5% of the median: ≠; the multiple is the
    # median of each pass's p50 over that pass's floor (12/10, 12.5/10.2, 12.2/9.8), not of the medians
    baselines = _table(detail, "The machine's floor", -1)  # the last: each language's baseline
    p50, multiple, target, verdict = baselines.row(Code("rawtcp/a→a"))[1:]
    assert _ci(p50) == (12.2, pytest.approx(11.6, abs=0.05), pytest.approx(12.9, abs=0.05))
    assert p50.marks == (disagree,) and multiple.value == pytest.approx(12.5 / 10.2) and multiple.prefix == "×"
    assert (target, verdict) == ("≤ 1.3×", Text(Status("pass"), " met"))
    p50, multiple, target, verdict = baselines.row(Code("rawtcp/java→java"))[1:]
    assert _ci(p50) == (12, 12, 12) and p50.marks == () and multiple.value == pytest.approx(12 / 10)
    assert (target, verdict) == ("≤ 1.1×", Text(Status("fail"), " not met"))
    # handler time and its share of the round trip
    handler = "Handler time, µs"
    assert _values(_table(x, handler).cell("a→a", "ping")) == [4, pytest.approx(4 / 40)]
    assert _values(_table(raw, handler).cell("a→a", "ping")) == [4, pytest.approx(4 / 12.2)]
    # CPU: repetitions disagree, and client + server over 1.2x the mean RTT (60 > 48)
    cpu = _table(x, "CPU time per call, µs").cell("a→a", "ping")
    assert [_ci(v) for v in cpu.of(Value)] == [pytest.approx((30, 30, 30))] * 2
    assert _marks(cpu) == [Mark(flags.Flag.CPU_UNSTABLE), Mark(flags.Flag.CPU_OVER_RTT)]
    # environment, host, thread models, unsupported workloads, exits, threads, warm-up
    assert _table(detail, "Environment and method").row("CPU pinning")[1] == \
        "server on CPU 1, client on CPU 0 (cpuset cgroups)"
    host = _table(detail, "Steal time and CPU probe")
    assert _values(Text(*host.row("CPU probe, ms")[1:])) == [100, 100, 150, 1.5]
    assert host.row("steal per cell, ms")[4] == Text("total ", Value(90), " ms over 9 cell runs")
    assert [k for _, k in flags.slow_probes(figures.probe, figures.probe_median)] == [("x/a→a", p) for p in (1, 2, 3)]
    slow = next(Text(b.text) for b in detail if isinstance(b, Paragraph) and "Cells whose probe ran" in Text(b.text))
    assert Text(Code("x/a→a"), " (pass 1) ", Value(1.5, spec=".2f", prefix="×"), ", ", Code("x/a→a"),
                " (pass 2)") in slow
    assert _table(x, "Implementations and thread models").row(Code("a")) == \
        [Code("a"), "server", "a", "xlib 1.0", "event loop, one thread", "keep-alive", "transport epoll"]
    assert Text("randomDoublesStream50k: no streaming in x") in _items(x)
    assert any(Text(Code("x/a→a"), " pass 2: the server exited with status 137") in item for item in _items(detail))
    memory = _table(x, "Instantiation, memory and threads").row("a→a")
    assert _ci(Text(memory[1]).of(Value)[0]) == pytest.approx((2, 2, 2)) and _values(Text(*memory[2:5])) == [2, 4, 2]
    assert memory[5:] == ["17", "2"]
    assert _table(x, "Warm-up").row("a→a")[:4] == ["a→a", "2/3", Value(1.5), "ping (pass 2)"]
    assert _values(_table(detail, "Every protocol against the").cell("x/a→a", "ping")) == [pytest.approx(40 / 12.2)]


# -- agreement of runs ---------------------------------------------------------------------------------

def _agreement_runs(tmp_path: Path, values: list[dict]) -> list[Path]:
    runs = []
    for i, table in enumerate(values):
        run = tmp_path / f"run{i}"
        run.mkdir()
        (run / "env.json").write_text(json.dumps({"run": {"baseline": "rawtcp"}}))
        recs = [_timed_rec("floor/c→c", "ping", 1, 10.0 + i, protocol="floor")]
        for (cell, w), p50 in table.items():
            recs.append(_timed_rec(cell, w, 1, p50, calibration_ns=1e8 * (1 + i)))
        (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
        runs.append(run)
    return runs


def test_agreement_share_across_three_runs(tmp_path):
    # rawtcp w1 agrees, w2 does not (6 vs 5); x w1 agrees, w2 does not; x's multiples of rawtcp all agree
    values = [{("rawtcp/a→b", "w1"): 5, ("rawtcp/a→b", "w2"): 5, ("x/a→b", "w1"): 10, ("x/a→b", "w2"): 10},
              {("rawtcp/a→b", "w1"): 5, ("rawtcp/a→b", "w2"): 6, ("x/a→b", "w1"): 10.2, ("x/a→b", "w2"): 12},
              {("rawtcp/a→b", "w1"): 5, ("rawtcp/a→b", "w2"): 5, ("x/a→b", "w1"): 9.9, ("x/a→b", "w2"): 10,
               ("x/a→b", "w3"): 7}]
    blocks = agreement.blocks(_agreement_runs(tmp_path, values))
    assert blocks[0] == Heading(1, "Agreement of 3 runs (each the median of its passes)")
    overall = _table(blocks, "Agreement of 3 runs")
    # pairs timed in all runs, those within ±5%, the share and whether it meets the target (90%)
    assert overall.row("p50, µs")[1:3] == ["4", "2"] and _values(overall.cell("p50, µs", "share")) == [0.5]
    assert overall.cell("p50, µs", "target") == Text(Status("fail"), " not met")
    multiple = overall.row(Text("p50 as a multiple of ", Code("rawtcp"), " (same languages)"))
    assert multiple[1:3] == ["2", "2"] and _values(multiple[3]) == [1] and multiple[4] == Text(Status("pass"), " met")
    protocols = _table(blocks, "Per protocol")
    assert protocols.row("rawtcp")[1:] == ["2", Value(0.5, spec=".0%"), "(baseline)", "–"]
    assert protocols.row("x")[1:] == ["2", Value(0.5, spec=".0%"), "2", Value(1.0, spec=".0%")]
    least = _table(blocks, "The 10 least stable workloads").row(Code("x/a→b"))
    assert least[1] == "w2" and _values(least[2]) == [10, 12, 10]
    assert _values(Text(*least[3:])) == [10, pytest.approx(0.2)]  # the median, the worst deviation from it
    assert _values(Text(*_table(blocks, "What limits agreement").row("run2")[1:3])) == [12, 300]


def test_data_bytes_per_call_must_agree_within_2_percent_in_every_pair(tmp_path):
    runs = _agreement_runs(tmp_path, [{("rmi/a→b", "ping"): 50, ("x/a→b", "w"): 10}] * 3)
    payloads = [(41.0, 22.0), (41.0, 22.4), (41.0, 23.0)]  # s2c: 22.4 is within 2% of 22.4, 23 and 22 are not
    for run, (c2s, s2c) in zip(runs, payloads, strict=True):
        recs = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
        for r in recs:
            if r["cell"] == "rmi/a→b":
                r["wire_per_call"] = {"payload_c2s": c2s, "payload_s2c": s2c}
        (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    blocks = agreement.blocks(runs)
    said = Text(blocks[blocks.index(Heading(2, "Data bytes per call")) + 1].text)
    assert "1 of 2 (pair, direction) within ±2% of their median across the runs (" in said
    assert Text(Status("fail"), " not every one") in said
    outside = _table(blocks, "Data bytes per call").row(Code("rmi/a→b"))
    assert outside[1:3] == ["ping", "s2c"] and _values(outside[3]) == [22, 22.4, 23]
    assert _values(Text(*outside[4:])) == [22.4, pytest.approx(0.6 / 22.4)]


def test_agreement_of_the_passes_of_one_run(tmp_path):
    run = tmp_path / "one"
    run.mkdir()
    (run / "env.json").write_text(json.dumps({"run": {"baseline": "rawtcp"}}))
    recs = [_timed_rec("x/a→b", "w", p, v) for p, v in ((1, 10.0), (2, 10.4), (3, 9.7))]
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    blocks = agreement.blocks([run])
    assert blocks[0] == Heading(1, "Agreement of 3 passes of one run, each taken as a run")
    assert _table(blocks, "Agreement of 3").row("p50, µs")[1:] == ["1", "1", Value(1.0, spec=".0%"),
                                                                 Text(Status("pass"), " met")]


# -- publishing ----------------------------------------------------------------------------------------

def _git_tree(tmp_path: Path) -> tuple[Path, str]:
    import subprocess
    root = tmp_path / "repo"
    root.mkdir()

    def git(*a: str) -> str:
        return subprocess.run(["git", "-C", str(root), *a], check=True, capture_output=True, text=True).stdout

    git("init", "-q")
    (root / "tracked.txt").write_text("one\n")
    git("add", "tracked.txt")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    return root, git("rev-parse", "HEAD").strip()


def _publishable_run(tmp_path: Path, commit: str, dirty: bool = False, samples_bytes: int = 100) -> Path:
    run = tmp_path / f"20260101T00000{len(list(tmp_path.glob('2026*')))}Z-full"
    (run / "plan").mkdir(parents=True)
    (run / "plan" / "x.tsv").write_text("ping small 1 2 2 0 2\n")
    (run / "env.json").write_text(json.dumps({"run": {"git_commit": commit, "git_dirty": dirty,
                                                      "profile": {"name": "full"}}}))
    for name in ("REPORT.md", "verdict.json", "junit.xml", "results.csv", "cells.jsonl"):
        (run / name).write_text(name)
    # the vectors record appended twice, as a cell's later facts arrive: the last one is published
    (run / "results.jsonl").write_text("".join(json.dumps({"cell": "x/a→a", "workload": w, "pass": 1, "n": n}) + "\n"
                                               for w, n in (("vectors", 1), ("ping", 1), ("vectors", 2))))
    (run / "samples.jsonl.gz").write_bytes(os.urandom(samples_bytes))
    return run


def test_publish_gzips_exports_over_a_mib(tmp_path):
    root, head = _git_tree(tmp_path)
    run = _publishable_run(tmp_path, head)
    (run / "results.csv").write_text("a,b\n" * 400_000)
    target = publish.publish(run, root, tmp_path / "pub")
    assert not (target / "results.csv").exists()
    assert gzip.open(target / "results.csv.gz", "rt").read() == (run / "results.csv").read_text()
    assert (target / "junit.xml").read_text() == "junit.xml"  # small: as it is
    assert "`results.csv` is gzipped (`results.csv.gz`)" in (target / "PUBLISHED.md").read_text()
    # any other file over 2 MiB too: no committed file is larger (a default run's report.html is 2.5 MB)
    (run / "report.html").write_text("<p>x</p>" * 300_000)
    target = publish.publish(run, root, tmp_path / "pub2")
    assert not (target / "report.html").exists()
    assert gzip.open(target / "report.html.gz", "rt").read() == (run / "report.html").read_text()
    assert "`results.csv` and `report.html` are gzipped" in (target / "PUBLISHED.md").read_text()


def test_publish_refuses_a_dirty_run_a_changed_tree_and_another_commit(tmp_path):
    root, head = _git_tree(tmp_path)
    with pytest.raises(publish.PublishError, match="uncommitted changes"):
        publish.publish(_publishable_run(tmp_path, head, dirty=True), root, tmp_path / "pub")
    run = _publishable_run(tmp_path, "0" * 40)
    with pytest.raises(publish.PublishError, match="HEAD is"):
        publish.publish(run, root, tmp_path / "pub")
    (root / "tracked.txt").write_text("two\n")
    with pytest.raises(publish.PublishError, match="tracked files \\(tracked.txt"):
        publish.publish(_publishable_run(tmp_path, head), root, tmp_path / "pub")
    assert not (tmp_path / "pub").exists()


def test_publish_copies_a_clean_run_and_keeps_big_samples_back(tmp_path, monkeypatch):
    import gzip
    root, head = _git_tree(tmp_path)
    run = _publishable_run(tmp_path, head)
    (run / "report").mkdir()
    (run / "report" / "x.md").write_text("# x\n")
    (run / "report.html").write_text("<html></html>")
    target = publish.publish(run, root, tmp_path / "pub")
    assert target == tmp_path / "pub" / run.name
    # the report's detail files and its HTML go with it: REPORT.md links to them
    assert (target / "report" / "x.md").exists() and (target / "report.html").exists()
    published = [json.loads(line) for line in gzip.open(target / "results.jsonl.gz", "rt")]
    assert [(r["workload"], r["n"]) for r in published] == [("vectors", 2), ("ping", 1)]
    assert (target / "samples.jsonl.gz").exists() and (target / "plan" / "x.tsv").exists()
    assert not (target / "results.jsonl").exists() and not (target / "AGREEMENT.md").exists()
    with pytest.raises(publish.PublishError, match="exists already"):
        publish.publish(run, root, tmp_path / "pub")
    big = _publishable_run(tmp_path, head, samples_bytes=3 * 2**20)
    target = publish.publish(big, root, tmp_path / "pub2")
    assert not (target / "samples.jsonl.gz").exists()
    assert "Raw samples stay with the run, not published" in (target / "PUBLISHED.md").read_text()
    monkeypatch.setattr(publish, "PART_LIMIT", 80)  # 86 B for the two records gzipped together, 74 and 70 apart
    target = publish.publish(_publishable_run(tmp_path, head), root, tmp_path / "pub3")
    assert [p.name for p in sorted(target.glob("results*.jsonl.gz"))] == ["results-01.jsonl.gz", "results-02.jsonl.gz"]
    assert "The records are in 2 parts, `results-01.jsonl.gz` to `results-02.jsonl.gz`" in \
        (target / "PUBLISHED.md").read_text()
    assert [(r["workload"], r["n"]) for r in records.stored(target)] == [("vectors", 2), ("ping", 1)]
