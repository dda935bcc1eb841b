"""The report's figures and flags as data, each rule checked on both sides of its threshold on synthetic
records, and its pieces (blocks, their text and cells) as each renderer formats them: Markdown, HTML, plain text
and LaTeX (the report's blocks themselves are tested in test_analysis.py)."""
import math
import statistics

import pytest

from analysis.report import flags, html, markdown, tables, text
from analysis.report.blocks import (
    Bullets,
    Code,
    Emphasis,
    Heading,
    Link,
    Mark,
    NoteRef,
    Notes,
    Numbered,
    Paragraph,
    Status,
    Strong,
    Table,
    Text,
    Value,
)
from analysis.report.figures import Figures, figure, plain_sibling, representative
from analysis.report.flags import Flag


def _rec(cell: str, workload: str = "ping", pass_no: int = 1, status: str = "pass", **extra) -> dict:
    protocol, pair = cell.split("/")
    client, _, server = pair.partition("→")  # a handler's pseudo-cell names one language
    rec = {"cell": cell, "protocol": protocol, "client": client, "server": server or client, "workload": workload,
           "status": status, "reason": "", "pass": pass_no}
    rec.update(extra)
    return rec


def _timed(cell: str, p50: float, pass_no: int = 1, workload: str = "ping", rep_cv: float = 0.01, **extra) -> dict:
    return _rec(cell, workload, pass_no, rtt_us={"min": p50 / 2, "p50": p50, "p99": p50 * 2, "mean": p50,
                                                 "trimmed_mean": p50, "cv": 0.1, "rep_cv": rep_cv}, **extra)


def _cell(name: str, **extra) -> dict:
    protocol, pair = name.split("/")
    client, server = pair.split("→")
    return {"name": name, "protocol": protocol, "client": client, "server": server, **extra}


# -- figures across passes ---------------------------------------------------------------------------------

def test_a_figure_is_the_median_across_passes_with_a_t_interval():
    cells = [_cell("x/a→b")]
    figs = Figures([_timed("x/a→b", p50, p) for p, p50 in ((1, 30.0), (2, 50.0), (3, 40.0))], cells, None)
    fig = figs.fig("x/a→b", "ping", "rtt_us.p50")
    logs = [math.log(v) for v in (30, 40, 50)]
    half = 4.303 * statistics.stdev(logs) / math.sqrt(3)  # t(0.975, 2 degrees of freedom), on the log scale
    assert (fig.median, fig.n, fig.values) == (40.0, 3, (30.0, 50.0, 40.0))
    assert fig.low == pytest.approx(math.exp(statistics.fmean(logs) - half))
    assert fig.high == pytest.approx(math.exp(statistics.fmean(logs) + half))
    assert figs.multi and figs.passes == [1, 2, 3]


def test_a_figure_needs_every_pass_to_pass_unless_it_is_not_strict():
    recs = [_timed("x/a→b", 10.0, 1), _rec("x/a→b", "ping", 2, "timeout", instantiation_us=7.0),
            _timed("x/a→b", 12.0, 3)]
    figs = Figures(recs, [_cell("x/a→b")], None)
    assert figs.status("x/a→b", "ping") == "timeout"
    assert figs.fig("x/a→b", "ping", "rtt_us.p50") is None
    assert figs.fig("x/a→b", "ping", "rtt_us.p50", strict=False).values == (10.0, 12.0)
    assert figs.fig("x/a→b", "ping", "instantiation_us", strict=False).values == (7.0,)
    assert figure([None, None]) is None


def test_the_representative_record_is_the_worst_status_then_the_first_pass():
    recs = [_rec("x/a→b", pass_no=1, status="fail"), _rec("x/a→b", pass_no=2, status="error"),
            _rec("x/a→b", pass_no=3, status="error")]
    assert representative(recs)["pass"] == 2
    assert representative([_rec("x/a→b", pass_no=p) for p in (1, 2)])["pass"] == 1


def test_cpu_total_adds_client_and_server():
    recs = [_timed("x/a→b", 10.0, p, cpu_us_per_call={"client": c, "server": 3.0}) for p, c in ((1, 1.0), (2, 2.0))]
    assert Figures(recs, [_cell("x/a→b")], None).cpu_total("x/a→b", "ping").values == (4.0, 5.0)


def test_ratio_to_the_baseline_cell_of_the_same_languages():
    cells = [_cell("raw/a→b"), _cell("raw/j→j", client_language="java", server_language="java"),
             _cell("x/a→b"), _cell("x/j2→j2", client_language="java", server_language="java")]
    recs = [_timed("raw/a→b", 10.0), _timed("x/a→b", 35.0), _timed("raw/j→j", 20.0), _timed("x/j2→j2", 30.0)]
    figs = Figures(recs, cells, "raw")
    assert figs.baseline_ratio(cells[2], "ping") == pytest.approx(3.5)
    # no raw/j2→j2: the baseline of the same languages stands in
    assert figs.baseline_cell(cells[3]) == "raw/j→j"
    assert figs.baseline_ratio(cells[3], "ping") == pytest.approx(1.5)
    assert figs.baseline_ratio(cells[2], "other") is None
    assert Figures(recs, cells, None).baseline == "raw"  # none configured: the first protocol


def test_floor_multiple_handler_share_and_wire_bytes():
    cells = [_cell("raw/c→c"), _cell("x/c→c")]
    recs = [_timed("floor/c→c", 10.0), _timed("raw/c→c", 12.0), _timed("handler/c", 3.0),
            _timed("x/c→c", 30.0, wire_per_call={"bytes_c2s": 100, "bytes_s2c": 50})]
    figs = Figures(recs, cells, "raw")
    assert figs.floor().median == 10.0 and figs.floor_multiple("raw/c→c") == pytest.approx(1.2)
    assert figs.handler_share(cells[1], "ping") == pytest.approx(0.1)
    assert figs.wire_bytes("x", "ping") == 150 and figs.wire_bytes("raw", "ping") is None


def test_warm_up_and_memory_per_cell():
    recs = [_timed("x/a→b", 10.0, p, warmup_steady={"steady": p != 2, "elapsed_ms": 1000 * p},
                   rss_kb={"client_peak": 1024 * p, "server_peak": 2048}, threads={"client": 2, "server": 10 + p})
            for p in (1, 2, 3)]
    recs.append(_rec("x/a→b", "vectors", instantiation_us=1500.0, processes={"client": "kept"}))
    figs = Figures(recs, [_cell("x/a→b")], None)
    warm = figs.warmup("x/a→b", ["ping"])
    assert (warm.steady, warm.checked, warm.elapsed_ms, warm.not_steady) == (2, 3, 2000, [("ping", 2)])
    assert warm.jit == {}
    jit = {"server": {"jit": True, "ended": "bound", "warm_s": 150, "share": 0.08}, "client": {"jit": False}}
    with_jit = Figures([_timed("x/a→b", 10.0, 1, warmup_steady={"steady": True, "elapsed_ms": 10}, warm_phase=jit)],
                   [_cell("x/a→b")], None)
    assert with_jit.warmup("x/a→b", ["ping"]).jit == {"server": [(1, "bound", 150, 0.08)]}
    mem = figs.memory("x/a→b")
    assert (mem.client_peak_kb, mem.server_peak_kb, mem.server_after_kb) == (3072, 2048, None)
    assert mem.server_threads == [11, 12, 13] and mem.client_threads == [2]
    assert mem.instantiation.median == 1500.0 and mem.kept_client
    assert figs.warmup("x/a→b", ["other"]) is None


def test_the_plain_sibling_of_a_secured_variant():
    registry = {"soap": {"family": "soap", "variant": {"security": "none"}},
                "wss": {"family": "soap", "variant": {"security": "x509"}}}
    assert plain_sibling("wss", registry, ["soap", "wss"]) == "soap"
    assert plain_sibling("soap", registry, ["soap", "wss"]) is None
    assert plain_sibling("wss", registry, ["wss"]) is None


# -- flags -------------------------------------------------------------------------------------------------

def test_unstable_repetitions_over_a_cv_of_20_percent():
    assert flags.rtt_flags([_timed("x/a→b", 10.0, rep_cv=0.25)]) == {Flag.UNSTABLE: {"rep_cv": [(1, 0.25)]}}
    assert flags.rtt_flags([_timed("x/a→b", 10.0, rep_cv=0.15)]) == {}
    assert not flags.unstable(_timed("x/a→b", 10.0, rep_cv=flags.UNSTABLE_REP_CV))


def test_two_modes_and_an_unsteady_warm_up_are_flagged_per_pass():
    modes = {"modes_us": [20, 80], "shares": [0.7, 0.3]}
    recs = [_timed("x/a→b", 10.0, 1, bimodal=modes), _timed("x/a→b", 10.0, 2, warmup_steady={"steady": False}),
            _timed("x/a→b", 10.0, 3, warmup_steady={"steady": True})]
    assert flags.rtt_flags(recs) == {Flag.BIMODAL: {"modes": [(1, modes)]}, Flag.NOT_STEADY: {"passes": [2]}}


def test_the_pinned_re_warm_decides_whether_the_warm_up_was_steady():
    # the warm phase's round (three cells on two CPUs) did not agree, the cell's pinned re-warm did: steady; and
    # the other way round: not steady, whatever the phase's round said
    calm = _timed("x/a→b", 10.0, 1, warmup_steady={"steady": False, "rewarm": {"steady": True}})
    restless = _timed("x/a→b", 10.0, 2, warmup_steady={"steady": True, "rewarm": {"steady": False}})
    assert flags.warmed_steady(calm) is True and flags.warmed_steady(restless) is False
    assert flags.rtt_flags([calm, restless]) == {Flag.NOT_STEADY: {"passes": [2]}}
    warm = Figures([calm, restless], [_cell("x/a→b")], None).warmup("x/a→b", ["ping"])
    assert (warm.steady, warm.checked, warm.not_steady) == (1, 2, [("ping", 2)])


def test_a_jit_still_compiling_while_the_calls_were_timed_is_flagged_per_side():
    busy = _timed("x/a→b", 10.0, 1, jit_cpu={"server_ms": 30.0, "server_share": 0.12, "client_ms": 0.0,
                                            "client_share": 0.0},
                  warm_phase={"server": {"jit": True, "ended": "bound"}, "client": {"jit": False}})
    assert flags.rtt_flags([busy]) == {Flag.JIT_BUSY: {"sides": [(1, "server", 0.12, "bound")]}}
    quiet = _timed("x/a→b", 10.0, 1, jit_cpu={"server_ms": 40.0, "server_share": flags.JIT_SHARE})
    one_tick = _timed("x/a→b", 10.0, 1, jit_cpu={"server_ms": 10.0, "server_share": 0.5})
    assert flags.rtt_flags([quiet]) == {} and flags.rtt_flags([one_tick]) == {}


def _cpu_flags(cpu: float, mean: float, p50: float | None = None, rep_cv: float = 0.01) -> dict:
    rec = _timed("x/a→b", p50 or mean, cpu_us_per_call={"client": cpu / 2, "server": cpu / 2,
                                                         "client_rep_cv": rep_cv, "server_rep_cv": 0.01})
    return flags.cpu_flags([rec], figure([cpu]), figure([mean]), figure([p50 or mean]))


def test_cpu_over_1_2_times_the_mean_round_trip():
    assert _cpu_flags(60.0, 40.0) == {Flag.CPU_OVER_RTT: {"cpu_us": 60.0, "rtt_mean_us": 40.0}}
    assert _cpu_flags(47.0, 40.0) == {}  # under 48 µs


def test_cpu_per_call_whose_repetitions_spread():
    assert _cpu_flags(10.0, 40.0, rep_cv=0.3) == {Flag.CPU_UNSTABLE: {"rep_cv": [0.3]}}
    assert _cpu_flags(10.0, 40.0, rep_cv=0.1) == {}


def test_a_call_waits_over_half_its_p50_and_over_1_ms_on_neither_cpu():
    assert _cpu_flags(1600.0, 44000.0) == {Flag.WAIT: {"idle_us": 42400.0, "rtt_p50_us": 44000.0}}
    assert Flag.WAIT not in _cpu_flags(45.0, 100.0)  # idle 55% of the p50, but 55 µs
    assert Flag.WAIT not in _cpu_flags(1400.0, 2500.0)  # idle 1.1 ms, but 44% of the p50
    assert Flag.WAIT in _cpu_flags(1200.0, 2500.0)  # idle 1.3 ms, 52% of the p50
    assert Flag.WAIT in _cpu_flags(100.0, 40.0, p50=2000.0)  # the p50 counts, not the mean


def test_passes_disagree_on_a_ci_half_width_over_5_percent_or_max_over_min_over_1_1():
    close, apart = figure([100.0, 100.5, 101.0]), figure([100.0, 104.0, 108.0])  # half-widths 1.2% and 9.9%
    assert not flags.disagree(close)
    raised = flags.figure_flags(apart)[Flag.DISAGREE]
    logs = [math.log(v) for v in (100, 104, 108)]
    spread = math.exp(statistics.fmean(logs)) * 2 * math.sinh(4.303 * statistics.stdev(logs) / math.sqrt(3))
    assert raised["half_width"] == pytest.approx(spread / 2, rel=1e-3) and raised["median"] == 104.0
    # ten passes: the order-statistics interval [x(2), x(9)] is a point, the spread alone decides
    assert flags.disagree(figure([100.0] * 9 + [112.0]))
    assert not flags.disagree(figure([100.0] * 9 + [109.0]))
    assert not flags.disagree(figure([100.0]))  # one pass has nothing to disagree with


def test_floor_targets_per_language():
    assert flags.meets_floor_target(1.2, "c") and not flags.meets_floor_target(1.2, "java")
    assert flags.floor_target("python") == flags.FLOOR_TARGET == 1.3


def test_probes_over_1_1_times_the_median_are_slow():
    probes = {("x/a→b", 1): 100.0, ("x/a→b", 2): 111.0, ("y/a→b", 1): 150.0, ("y/a→b", 2): 109.0}
    assert flags.slow_probes(probes, 100.0) == [(150.0, ("y/a→b", 1)), (111.0, ("x/a→b", 2))]
    assert flags.slow_probes(probes, None) == []


def test_counts_of_the_timed_workloads_each_flag_marks():
    cells = [_cell(f"x/{c}→s") for c in "abcd"]

    def cpu(c: float) -> dict:
        return {"client": c, "server": c, "client_rep_cv": 0.01, "server_rep_cv": 0.01}
    recs = [_timed("x/a→s", 44000.0, cpu_us_per_call=cpu(800.0)),  # waits
            _timed("x/b→s", 100.0, cpu_us_per_call=cpu(70.0)),  # over the bound
            _timed("x/c→s", 100.0, rep_cv=0.5),  # unstable, no CPU figures
            _rec("x/d→s", status="fail")]  # not timed
    n = flags.counts(Figures(recs, cells, None))
    assert n == flags.Counts(timed=3, with_cpu=2, unstable=1, disagree=0, cpu_over_rtt=1, wait=1, below_floor=0)


# -- text and Markdown --------------------------------------------------------------------------------------

def test_a_median_reads_with_its_ci_and_the_disagree_mark():
    assert text.median(figure([12.0])) == "12" and text.median(None) == "–"
    assert text.median(figure([100.0, 104.0, 108.0])) == "104 [94.5–114] ≠"
    assert text.median(figure([100.0, 104.0, 108.0]), flag=False) == "104 [94.5–114]"
    assert text.median(figure([2.5]), 3, 1000) == "2,500"
    assert text.num(0) == "0" and text.num(1234.5) == "1,234" and text.num(0.12345, 2) == "0.12"


def test_notes_are_numbered_in_order_of_first_reference():
    notes = Notes()
    assert [notes.ref(t) for t in ("b", "a", Text("b"))] == [NoteRef(1), NoteRef(2), NoteRef(1)]
    assert notes.texts == [Text("b"), Text("a")]


# A row of every kind of cell: code linked to a detail file, a figure across passes that disagree with a flag and
# its note, a status leading its text, strong and emphasised text, a multiple, and text with a pipe and a line break.
ROW = [Link(Code("p1"), "report/p1.md"),
       Text(Value(40.0, 20.7, 74.0, marks=(Mark(Flag.DISAGREE),)), " ", Mark(Flag.BIMODAL, NoteRef(1))),
       Text(Status("fail"), " 0/1"), Text(Strong("down"), " ", Emphasis("after")), Value(3.456, spec=".2f", prefix="×"),
       "x|y & two\nlines"]


def test_text_is_made_of_runs_flattened_and_joined():
    text = Text("a", Text("b", Code("c")), "", None, Value(1.0), "d")
    assert text.runs == ("ab", Code("c"), Value(1.0), "d") and text == Text("ab", Code("c"), Value(1.0)) + "d"
    assert Text.join(", ", [Code("x"), "y"]) == Text(Code("x"), ", y") and not Text("")
    assert text.of(Code) == [Code("c")] and Text("b", Code("c")) in text and "ab" in text and Code("d") not in text
    with pytest.raises(TypeError):
        Text(1)


def test_blocks_as_markdown():
    blocks = [Heading(2, "Title"), Paragraph("Some text."), Table(["a", "b"], [["x|y", "two\nlines"]]),
              Bullets(["one", "two"]), Numbered(["first"])]
    assert markdown.render(blocks) == ("## Title\n\nSome text.\n\n| a | b |\n|---|---|\n| x\\|y | two lines |\n\n"
                                       "- one\n- two\n\n1. first\n\n")
    assert markdown.table(["p"], [ROW])[2] == ("| [`p1`](report/p1.md) | 40 [20.7–74] ≠ ⧉[1] | ❌ 0/1 "
                                               "| **down** *after* | ×3.46 | x\\|y & two lines |")


def test_cells_as_html_plain_text_and_latex():
    # a cell that leads with a status is coloured by it, one whose figures raise flags names them on hover
    assert html.table_html(["p"], [ROW]).split("<tbody>")[1] == (
        '<tr><td><a href="#s-p1"><code>p1</code></a></td><td title="≠: disagree; ⧉: bimodal">40 [20.7–74] ≠ ⧉[1]'
        '</td><td class="fail">❌ 0/1</td><td><strong>down</strong> <em>after</em></td><td>×3.46</td>'
        "<td>x|y &amp; two\nlines</td></tr></tbody></table>")
    assert [text.plain(c) for c in ROW] == ["p1", "40 [20.7–74] ≠ ⧉[1]", "❌ 0/1", "down after", "×3.46",
                                           "x|y & two\nlines"]
    assert " & ".join(tables.latex_text(c) for c in ROW) == (
        r"\texttt{p1} & 40 [20.7–74] ≠ ⧉[1] & ❌ 0/1 & \textbf{down} \emph{after} & ×3.46 & x|y \& two" "\nlines")
