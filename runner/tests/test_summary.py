"""REPORT.md's summary as data (interop counts, headline figures and their ratios, the anomalies chosen, how far
to trust the run) and as a short Markdown file linking the detail files; the publication tables."""
import csv
import io
import json

import pytest

from analysis import report
from analysis.report import tables
from analysis.report.blocks import Bullets, Code, Heading, Link, Mark, Paragraph, Status, Strong, Table, Text, Value
from analysis.report.sections import SUMMARY, documents, summary
from analysis.report.sections.context import Context
from synthetic_run import build

VERDICT = {"expected": [], "unexpected": [], "stale": []}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    unsupported = {"p1/dotnet→java": "no p1 in .NET", "p1/dotnet→python": "no p1 in .NET",
                   "p2/python→python": "other reason"}
    run, recs, cells = build(tmp_path_factory.mktemp("small"), protocols=3, passes=3, workloads=("ping", "echoString"),
                             calls=100, unsupported=unsupported, failing={"p2/java→java": "v1: got 2, wanted 3"})
    return run, recs, cells


def _ctx(small, verdict=VERDICT) -> Context:
    return Context.load(*small, verdict)


def test_interop_counts_passing_of_runnable_and_unsupported_with_their_reasons(small):
    ctx = _ctx(small)
    assert summary.interop(ctx, "rawtcp") == summary.Interop(9, 9, 0, 0, 0)
    assert summary.interop(ctx, "p1") == summary.Interop(7, 7, 2, 1, 0)
    assert summary.interop(ctx, "p1", "dotnet→java") == summary.Interop(0, 0, 1, 1, 0)
    assert summary.interop(ctx, "p2") == summary.Interop(7, 8, 1, 1, 0)
    assert summary.interop_cell(summary.interop(ctx, "p2", "java→java")) == Text(Status("fail"), " 0/1")
    assert summary.interop_cell(summary.interop(ctx, "p1")) == \
        Text(Status("pass"), " 7/7 ", Status("unsupported"), " 2")
    assert summary.language_pairs(ctx)[:2] == ["dotnet→dotnet", "dotnet→java"]


def test_the_headline_is_the_p50_across_passes_and_its_ratio_to_the_baseline_per_pass(small):
    ctx = _ctx(small)
    figures = ctx.figures
    h = summary.headline(ctx, "p1", "java→java", "ping")
    raw = figures.fig("rawtcp/java→java", "ping", "rtt_us.p50")
    assert h.p50.n == 3 and raw.n == 3
    per_pass = sorted(a["rtt_us"]["p50"] / b["rtt_us"]["p50"] for a, b in
                      zip(figures.passing("p1/java→java", "ping"), figures.passing("rawtcp/java→java", "ping"),
                          strict=True))
    assert h.ratio.median == pytest.approx(per_pass[1]) and h.ratio.n == 3
    assert 1.6 < h.ratio.median < 2.6  # p1 is about twice the baseline (synthetic: 2.2x for java clients)
    assert summary.headline(ctx, "rawtcp", "java→java", "ping").ratio is None  # the baseline itself
    failed = summary.headline(ctx, "p2", "java→java", "ping")
    assert failed.p50 is None and failed.status is None  # failed vectors: nothing timed
    p50, ratio = summary.headline_text(h, baseline=False).of(Value)
    assert (p50.value, p50.low, p50.high) == (h.p50.median, h.p50.low, h.p50.high)
    assert (ratio.prefix, ratio.value, ratio.low, ratio.high, ratio.digits) == \
        ("×", h.ratio.median, h.ratio.low, h.ratio.high, 2)
    assert summary.payload_workload(ctx) == "echoString"


def test_the_anomalies_put_unexpected_failures_first_and_keep_a_few_of_each_kind(small):
    verdict = {"expected": [], "stale": [],
               "unexpected": [{"cell": "p2/java→java", "workload": "vectors", "vector": "v1", "status": "fail",
                               "reason": "x"}]}
    ctx = _ctx(small, verdict)
    found = summary.anomalies(ctx)
    assert found[0].rank == 0 and Code("p2/java→java") in found[0].text and found[0].protocol == "p2"
    many = [summary.Anomaly(5, w, "p1", f"u{w}") for w in range(10)] + [summary.Anomaly(6, 1, "p1", "d")]
    picked = summary.pick(sorted(many, key=lambda a: (a.rank, -a.weight)))
    # three of the first kind, one of the next, then the room left to the first; in order of importance
    assert [a.text for a in picked] == ["u9", "u8", "u7", "u6", "u5", "u4", "u3", "d"]


def test_trust_counts_the_floor_the_baselines_and_the_passes(small):
    t = summary.trust(_ctx(small))
    assert t.passes == 3 and t.floor.n == 3 and 9 < t.floor.median < 11
    assert t.baselines == 3  # the raw cells with the same language on both sides
    assert t.counts.timed == 2 * (9 + 7 + 7)
    assert t.probe_spread == pytest.approx(1.06)


def test_report_md_is_the_summary_linking_one_detail_file_per_protocol(small):
    texts = report.files(*small, VERDICT)
    assert list(texts) == [SUMMARY, "report/rawtcp.md", "report/p1.md", "report/p2.md", "report/hostile-peers.md",
                           "report/run.md"]
    text = texts[SUMMARY]
    assert len(text.splitlines()) <= 150
    assert text.index("## Interop") < text.index("## Latency: the headline") < text.index("## Bytes per call") \
        < text.index("## Anomalies") < text.index("## How far to trust this run")
    blocks = documents(_ctx(small))
    interop = next(b for b in blocks[SUMMARY] if isinstance(b, Table))
    assert [row[0] for row in interop.rows] == [Link(Code(p), f"report/{p}.md") for p in ("rawtcp", "p1", "p2")]
    detail = blocks[SUMMARY][blocks[SUMMARY].index(Heading(2, "Detail")) + 1]
    assert Link("the run in detail", "report/run.md") in detail.text
    assert text.count("## Marks") == 1
    # each detail file links back and carries its own notes
    assert Link("the summary", "../REPORT.md") in blocks["report/p2.md"][1].text
    assert "v1: got 2, wanted 3" in texts["report/p2.md"]
    assert "## The machine's floor" in texts["report/run.md"]
    written = report.write(small[0], small[1], small[2], VERDICT)
    assert (small[0] / "report" / "p1.md").read_text(encoding="utf-8") == written["report/p1.md"]


def test_a_battery_attached_to_the_run_is_its_survival_matrix_beside_the_negative_tests(small):
    run = small[0]
    assert "No battery was attached" in report.files(*small, VERDICT)["report/hostile-peers.md"]
    lines = [{"attack": "random-bytes", "protocol": "rawtcp", "server": "java", "outcome": "closed",
              "served_during": True, "served_after": True, "rss_before_kb": 1000, "rss_after_kb": 1100},
             {"attack": "declared-4gb", "protocol": "rawtcp", "server": "java", "outcome": "answered",
              "served_during": True, "served_after": False, "rss_before_kb": 1000, "rss_after_kb": 300000},
             {"attack": "sigterm", "protocol": "rawtcp", "server": "java", "outcome": "stopped", "seconds": 0.4}]
    (run / "battery.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    blocks = documents(_ctx(small))
    hostile = blocks["report/hostile-peers.md"]
    matrix = next(b for b in hostile if isinstance(b, Table))
    assert matrix.header == ["protocol/server", "random-bytes", "declared-4gb", "sigterm"]
    # what a server did, in bold where it is not a denial, with what went wrong besides
    assert matrix.row(Code("rawtcp/java"))[1:] == [
        Text("closed"), Text(Strong("answered"), ", ", Strong("down after"), ", ", Strong("+291 MiB")),
        Text("stopped 0.4 s")]
    regressions = [item for b in hostile if isinstance(b, Bullets) for item in b.items]
    assert Text(Strong("regression"), ": declared-4gb on rawtcp/java: closed before, now answered") in regressions[0]
    assert any(isinstance(b, Paragraph) and "2 attacks on 1 servers" in Text(b.text) for b in hostile)
    detail = Text(blocks[SUMMARY][blocks[SUMMARY].index(Heading(2, "Detail")) + 1].text)
    assert Text(Link("hostile peers", "report/hostile-peers.md"), ": the battery's survival matrix (1 servers") \
        in detail


def test_publication_tables_in_markdown_csv_and_latex_with_a_caption(small):
    ctx = _ctx(small)
    md = tables.render(ctx, "side-by-side", None, "md")
    assert md.startswith("**p50 round trip, µs (× rawtcp), ping. Run 20260101T000000Z-synthetic (profile default, "
                         "3 passes), commit 0123456789ab, Synthetic CPU (2 CPUs), kernel 6.1.0; runtimes mono 6.8, "
                         "java 17.0.15, python 3.11.7")
    rows = list(csv.reader(io.StringIO(tables.render(ctx, "protocol", "p1", "csv").split("\n\n")[0])))
    assert rows[0][0].startswith("# p1: Interop") and rows[1][0] == "client \\ server"
    tex = tables.render(ctx, "side-by-side", None, "latex")
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex and r"\caption{p50" in tex
    assert tables.latex_text(Text("a_b & ", Code("c%d"), " ", Strong("e"))) == r"a\_b \& \texttt{c\%d} \textbf{e}"
    with pytest.raises(tables.TablesError, match="no protocol 'nope'"):
        tables.render(ctx, "protocol", "nope", "md")
    assert tables.titled([Table(["a"], [["1"]])]) == [("", Table(["a"], [["1"]]))]


def test_a_p50_below_its_pass_floor_is_a_flagged_method_error_never_a_target_met(tmp_path):
    from analysis.report.flags import Flag, workload_rtt_flags
    run, recs, cells = build(tmp_path, protocols=2, passes=2, workloads=("ping",), calls=100)
    floors = {r["pass"]: r["rtt_us"]["p50"] for r in recs if r["cell"] == "floor/c→c"}
    for r in recs:
        if r["cell"] == "rawtcp/java→java" and r["workload"] == "ping" and r["pass"] == 2:
            r["rtt_us"]["p50"] = floors[2] * 0.8  # under pass 2's floor, not pass 1's
    ctx = Context.load(run, recs, cells, VERDICT)
    raised = workload_rtt_flags(ctx.figures, "rawtcp/java→java", "ping")
    assert raised[Flag.BELOW_FLOOR]["passes"] == [(2, floors[2] * 0.8, floors[2])]
    assert Flag.BELOW_FLOOR not in workload_rtt_flags(ctx.figures, "rawtcp/java→python", "ping")
    assert Flag.BELOW_FLOOR not in workload_rtt_flags(ctx.figures, "floor/c→c", "ping")  # the floor itself
    assert summary.trust(ctx).counts.below_floor == 1
    assert any(Text(Mark(Flag.BELOW_FLOOR), " ", Code("rawtcp/java→java"), " ping") in a.text
               for a in summary.anomalies(ctx))
    texts = report.files(run, recs, cells, VERDICT)
    assert "1 of 18 timed workloads below it" in texts[SUMMARY]
    assert "⛔floor" in texts["report/rawtcp.md"]


def test_a_cell_is_held_against_the_floor_taken_before_its_server_group_where_there_is_one(tmp_path):
    from analysis.report.flags import Flag, workload_rtt_flags
    run, recs, cells = build(tmp_path, protocols=2, passes=1, workloads=("ping",), calls=100)
    floor = next(r["rtt_us"]["p50"] for r in recs if r["cell"] == "floor/c→c")
    for r in recs:
        if r["cell"] == "rawtcp/java→java" and r["workload"] == "ping":
            p50 = r["rtt_us"]["p50"] = floor * 1.5  # over the pass's floor ...
            r["floor_us"] = {"folder": "floor/pass1/before-x", "p50": floor * 2, "min": floor}  # ... under its own
    ctx = Context.load(run, recs, cells, VERDICT)
    raised = workload_rtt_flags(ctx.figures, "rawtcp/java→java", "ping")
    assert raised[Flag.BELOW_FLOOR]["passes"] == [(1, p50, floor * 2)]
    assert ctx.figures.floor_multiple("rawtcp/java→java") == pytest.approx(0.75)
    assert ctx.figures.adjacent_floors() == {"floor/pass1/before-x": {"pass": 1, "p50": floor * 2, "min": floor}}
    texts = report.files(run, recs, cells, VERDICT)
    assert "before each server group" in "".join(texts.values())


def test_a_cell_is_held_against_the_floor_taken_right_after_it_too(tmp_path):
    from analysis.report.flags import Flag, workload_rtt_flags
    run, recs, cells = build(tmp_path, protocols=2, passes=1, workloads=("ping",), calls=100)
    floor = next(r["rtt_us"]["p50"] for r in recs if r["cell"] == "floor/c→c")
    for cell, after_times in (("rawtcp/java→java", 0.7), ("rawtcp/python→java", 0.9)):
        rec = next(r for r in recs if r["cell"] == cell and r["workload"] == "ping")
        rec["rtt_us"]["p50"] = floor * 0.8  # under the floor before its group ...
        rec["floor_us"] = {"folder": "floor/pass1/before-a", "p50": floor, "min": floor}
        rec["floor_after_us"] = {"folder": f"floor/pass1/after-{cell}", "p50": floor * after_times, "min": floor}
    ctx = Context.load(run, recs, cells, VERDICT)
    # ... and over the one right after it: the path got faster during the cell, no method error
    assert Flag.BELOW_FLOOR not in workload_rtt_flags(ctx.figures, "rawtcp/java→java", "ping")
    assert ctx.figures.floor_multiple("rawtcp/java→java") == pytest.approx(0.8 / 0.7)
    # under both: flagged against the lower
    raised = workload_rtt_flags(ctx.figures, "rawtcp/python→java", "ping")
    assert raised[Flag.BELOW_FLOOR]["passes"] == [(1, pytest.approx(floor * 0.8), pytest.approx(floor * 0.9))]


def test_a_cell_is_a_method_error_only_under_the_fastest_repetition_of_every_floor_around_it(tmp_path):
    from analysis.report.flags import Flag, workload_rtt_flags
    run, recs, cells = build(tmp_path, protocols=2, passes=1, workloads=("ping",), calls=100)
    floor = next(r["rtt_us"]["p50"] for r in recs if r["cell"] == "floor/c→c")
    for cell, p50_times in (("rawtcp/java→java", 0.95), ("rawtcp/python→java", 0.8)):
        rec = next(r for r in recs if r["cell"] == cell and r["workload"] == "ping")
        rec["rtt_us"]["p50"] = floor * p50_times
        # the floors' repetitions switched regime: p50 over all of them 1.0, the fastest repetition 0.9
        rec["floor_us"] = {"folder": "floor/pass1/before-a", "p50": floor, "min": floor * 0.8,
                           "fastest_repetition_p50": floor * 0.9}
        rec["floor_after_us"] = {"folder": f"floor/pass1/after-{cell}", "p50": floor, "min": floor * 0.8,
                                 "fastest_repetition_p50": floor * 0.9}
    ctx = Context.load(run, recs, cells, VERDICT)
    # under the floors' p50s, over their fastest repetitions: the path at its quickest allows it
    assert Flag.BELOW_FLOOR not in workload_rtt_flags(ctx.figures, "rawtcp/java→java", "ping")
    assert ctx.figures.floor_multiple("rawtcp/java→java") == pytest.approx(0.95)  # the multiple: of the p50s
    raised = workload_rtt_flags(ctx.figures, "rawtcp/python→java", "ping")
    assert raised[Flag.BELOW_FLOOR]["passes"] == [(1, pytest.approx(floor * 0.8), pytest.approx(floor * 0.9))]


def test_a_cell_is_a_method_error_only_below_both_floors_around_its_server_group(tmp_path):
    from analysis.report.flags import Flag, workload_rtt_flags
    run, recs, cells = build(tmp_path, protocols=2, passes=1, workloads=("ping",), calls=100)
    floor = next(r["rtt_us"]["p50"] for r in recs if r["cell"] == "floor/c→c")
    groups = [("rawtcp/java→java", "before-a", 2.0, 1.8), ("rawtcp/python→java", "before-b", 1.0, 1.1),
              ("rawtcp/java→python", "before-c", 1.2, 1.1)]
    for cell, folder, floor_times, p50_times in groups:
        rec = next(r for r in recs if r["cell"] == cell and r["workload"] == "ping")
        rec["rtt_us"]["p50"] = floor * p50_times
        rec["floor_us"] = {"folder": f"floor/pass1/{folder}", "p50": floor * floor_times, "min": floor}
    # the records in the order the groups ran: a, b, c
    order = {cell: i for i, (cell, *_) in enumerate(groups)}
    recs.sort(key=lambda r: order.get(r["cell"], -1))
    ctx = Context.load(run, recs, cells, VERDICT)
    assert ctx.figures.following_floors() == {"floor/pass1/before-a": floor * 1.0, "floor/pass1/before-b": floor * 1.2}
    # under the floor before its group (×2.0) but over the one after it (×1.0): the path moved, no method error
    assert Flag.BELOW_FLOOR not in workload_rtt_flags(ctx.figures, "rawtcp/java→java", "ping")
    assert ctx.figures.floor_multiple("rawtcp/java→java") == pytest.approx(1.8)
    # over its own floor (×1.0), under the next (×1.2): held against the lower one, so not flagged either
    assert Flag.BELOW_FLOOR not in workload_rtt_flags(ctx.figures, "rawtcp/python→java", "ping")
    assert ctx.figures.floor_multiple("rawtcp/python→java") == pytest.approx(1.1)
    # the pass's last group has its own floor only, and this cell beats it
    raised = workload_rtt_flags(ctx.figures, "rawtcp/java→python", "ping")
    assert raised[Flag.BELOW_FLOOR]["passes"] == [(1, pytest.approx(floor * 1.1), pytest.approx(floor * 1.2))]


def _delay_line_lines(p50s: list[int], packets: int = 1000) -> str:
    """delayline.c's stdout: its ready line, a line per second, its total."""
    seconds = [{"t": 1800000000 + i, "packets": packets, "excess_us": {"p50": p, "p90": p + 5, "p99": p + 20,
                                                                       "max": 900.0}} for i, p in enumerate(p50s)]
    total = {"total": True, "packets": packets * len(p50s), "stamped": packets * len(p50s) - 3, "seconds": 200.0,
             "cpu_s": 5.0,
             "excess_us": {"p50": 20, "p90": 26, "p99": 60, "max": 900.0},
             "reader_lag_us": {"p50": 10, "p90": 29, "p99": 48, "max": 400.0}}
    return "\n".join(json.dumps(x) for x in [{"ready": True, "queue": 0, "delay_us": 100}, *seconds, total]) + "\n"


def test_through_a_delay_line_the_floor_rule_allows_how_far_its_typical_crossing_moved(tmp_path):
    from analysis import setup
    from analysis.report.flags import Flag, path_slack_us, workload_rtt_flags
    from conductor import network
    run, recs, cells = build(tmp_path, protocols=2, passes=1, workloads=("ping",), calls=100)
    floor = next(r["rtt_us"]["p50"] for r in recs if r["cell"] == "floor/c→c")
    for cell, under_us in (("rawtcp/java→java", 5.0), ("rawtcp/python→java", 30.0)):
        rec = next(r for r in recs if r["cell"] == cell and r["workload"] == "ping")
        rec["rtt_us"]["p50"] = floor - under_us
    (run / "network").mkdir()
    # 21 seconds each way: the 5th percentile is the second lowest second, the 95th the second highest. c2s: 18 to
    # 24 µs (10 and 40 left out), s2c: 20 to 24 µs (a second of too few packets left out too). Slack: 6 + 4 = 10 µs
    (run / "network" / "delayline-c2s.out").write_text(
        _delay_line_lines([40, 10, 18] + [20] * 17 + [24]) + '{"t": 1, "packets": 3, "excess_us": {"p5')
    (run / "network" / "delayline-s2c.out").write_text(_delay_line_lines([15, 20] + [22] * 17 + [24, 60]))
    quiet = json.loads(_delay_line_lines([90], packets=network.TYPICAL_PACKETS - 1).splitlines()[1])
    with (run / "network" / "delayline-s2c.out").open("a") as out:
        out.write(json.dumps(quiet) + "\n")
    line = network.delay_line(run)
    assert len(line["c2s"]["seconds"]) == 21 and line["c2s"]["total"]["stamped"] == 20997  # the cut line left out
    assert path_slack_us(line) == pytest.approx(10.0)
    assert path_slack_us(None) == 0.0
    ctx = Context.load(run, recs, cells, VERDICT)
    # 5 µs under the floor: within the delay line's movement; 30 µs under: a method error all the same
    assert Flag.BELOW_FLOOR not in workload_rtt_flags(ctx.figures, "rawtcp/java→java", "ping")
    raised = workload_rtt_flags(ctx.figures, "rawtcp/python→java", "ping")
    assert raised[Flag.BELOW_FLOOR]["passes"] == [(1, floor - 30.0, floor)]
    assert raised[Flag.BELOW_FLOOR]["slack_us"] == pytest.approx(10.0)
    assert "less 10 µs, how far the delay line's typical crossing moved" in "".join(
        report.files(run, recs, cells, VERDICT).values())
    words = setup.delay_line_figures(line["s2c"])
    assert "held 21,000 packets, each for the delay and then p50 20 µs, p99 60 µs" in words
    assert "20,997 (the rest from when read) timed from the kernel's arrival stamp" in words
    assert "seconds' p50 from 20.0 to 24.0 µs" in words
    assert "it used 5.0 s of CPU over its 200 s (2.5% of a CPU)" in words
    assert "not written" in setup.delay_line_figures({"total": None, "seconds": []})
