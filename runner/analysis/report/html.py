"""report.html: the report as one self-contained file, rendered from the same figures, flags and blocks as
REPORT.md. Nothing is fetched and nothing runs: styles are inline, charts are matplotlib's (Agg) inline SVG,
matrices are tables coloured as heat maps with each cell's reason in its title (and in a table), and the run's
records, cells and environment are embedded as a gzip+base64 JSON block so that the file is a complete
artifact. `compare` is the hook for another run's figures beside these (a later section's job)."""
import base64
import gzip
import html
import io
import json
import math
import multiprocessing
import os
import re

from .. import setup
from . import sections
from .blocks import Bullets, Code, Emphasis, Heading, Mark, Numbered, Paragraph, Status, Strong, Table, Text, Value
from .sections import hostile, load, summary, variant
from .sections.context import Context
from .text import MARK, STATUS_MARK, Plain, median

# The file's budget for a default run (tests hold a synthetic run of that size to it).
BUDGET_BYTES = 5 * 1024 * 1024
# The percentiles a distribution chart plots.
PERCENTILES = (0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100)
# How a status colours a cell: of a matrix, or of a table that leads with one (blocks.Status).
STATUS_CLASS = {"pass": "pass", "fail": "fail", "error": "fail", "timeout": "fail", "unsupported": "unsup"}

CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1400px;padding:0 1.5em;
color:#1b1b1b}
h1{font-size:1.6em;margin:.6em 0 .2em}h2{border-bottom:2px solid #ddd;margin-top:1.8em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:12.5px}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}th{background:#f3f3f3}
td.pass{background:#b7e4b0}td.fail{background:#f4a6a6}td.known{background:#f9d89c}td.unsup{background:#e2e2e2}
td.none{background:#fff;color:#999}
.prov td:nth-child(odd){font-weight:600;white-space:nowrap}
figure{margin:.5em 0 1.5em}figure svg{max-width:100%;height:auto}figcaption{font-size:12px;color:#555}
nav a{margin-right:.8em}code{background:#f4f4f4;padding:0 2px}.legend span{padding:1px 6px;margin-right:4px}
details summary{cursor:pointer;font-weight:600;margin:.5em 0}
"""


# -- blocks as HTML ---------------------------------------------------------------------------------------

class Html(Plain):
    """Inline text as HTML: text escaped, code, strong and emphasised text marked; a link to a detail file of the
    report (a protocol's) becomes a link to its section of the page."""

    MARKUP = {Code: ("<code>", "</code>"), Strong: ("<strong>", "</strong>"), Emphasis: ("<em>", "</em>")}

    def escape(self, text: str) -> str:
        return html.escape(text, quote=False)

    def link(self, text: str, target: str) -> str:
        name = re.sub(r"^(\.\./)?(report/)?", "", target).removesuffix(".md")
        return f'<a href="#{anchor(name)}">{text}</a>'


inline = Html()


def anchor(name: str) -> str:
    return "s-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def block_html(block, shift: int = 0) -> str:
    if isinstance(block, Heading):
        level = min(block.level + shift, 6)
        return f"<h{level}>{inline(block.text)}</h{level}>"
    if isinstance(block, Paragraph):
        return f"<p>{inline(block.text)}</p>"
    if isinstance(block, Table):
        return table_html(block.header, block.rows)
    if isinstance(block, Bullets):
        return "<ul>" + "".join(f"<li>{inline(i)}</li>" for i in block.items) + "</ul>"
    if isinstance(block, Numbered):
        return "<ol>" + "".join(f"<li>{inline(i)}</li>" for i in block.items) + "</ol>"
    raise TypeError(f"not a block: {block!r}")


def table_html(header: list, rows: list, cls: str = "") -> str:
    head = "".join(f"<th>{inline(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td{cell_attributes(c)}>{inline(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f'<table{f" class={cls!r}" if cls else ""}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def cell_attributes(cell) -> str:
    """A cell that leads with a status is coloured as the interop heat map colours it; one whose figures raise
    flags names them on hover."""
    runs = Text(cell).runs
    out = ""
    if runs and isinstance(runs[0], Status) and runs[0].status in STATUS_CLASS:
        out += f' class="{STATUS_CLASS[runs[0].status]}"'
    marks = []
    for run in runs:
        marks += run.marks if isinstance(run, Value) else [run] if isinstance(run, Mark) else []
    if marks:
        out += ' title="' + html.escape("; ".join(f"{MARK[m.flag]}: {m.flag.value}" for m in marks)) + '"'
    return out


def blocks_html(blocks: list, shift: int = 0) -> str:
    return "\n".join(block_html(b, shift) for b in blocks)


# -- charts (matplotlib, Agg, inline SVG) -----------------------------------------------------------------

def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "rpcmatrix", "font.size": 8,
                         "axes.titlesize": 8, "figure.dpi": 72})
    return plt


def svg(fig) -> str:
    """A figure as inline SVG (no XML prologue), closed."""
    plt = _plt()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def figure_html(svg_text: str, caption, name: str) -> str:
    return f'<figure class="chart" data-chart="{html.escape(name)}">{svg_text}<figcaption>{inline(caption)}' \
           "</figcaption></figure>"


def percentiles(histogram: str) -> list[tuple[float, float]]:
    """(percentile, µs) of a record's encoded HdrHistogram."""
    from hdrh.histogram import HdrHistogram

    from ..stats import values_at_percentiles
    h = HdrHistogram.decode(histogram)
    if not h.get_total_count():
        return []
    values = values_at_percentiles(h, PERCENTILES)
    return [(p, values[p] / 1000) for p in PERCENTILES]


def _x(p: float) -> float:
    """A percentile on the chart's axis: 1/(1 - p), so that the tail spreads out (HdrHistogram's plot)."""
    return 1 / (1 - min(p, 99.999) / 100)


def distribution_chart(ctx: Context, protocol: str) -> str:
    """One panel per timed cell of the protocol: each workload's percentiles, µs on a log axis, passes
    overlaid (same colour)."""
    figures = ctx.figures
    cells = [c for c in figures.cells_of(protocol)
             if any(r.get("histogram") for w in ctx.workloads[protocol] for r in figures.passing(c["name"], w))]
    if not cells:
        return ""
    plt = _plt()
    workloads = [w for w in ctx.workloads[protocol] if w != "vectors"]
    colours = {w: plt.get_cmap("tab10")(i % 10) for i, w in enumerate(workloads)}
    cols = min(4, len(cells))
    rows = math.ceil(len(cells) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(2.9 * cols, 2.1 * rows), squeeze=False, sharex=True, sharey=True)
    ticks = [0, 50, 90, 99, 99.9, 99.99]
    for ax, c in zip(axes.flat, cells, strict=False):
        for w in workloads:
            for r in figures.passing(c["name"], w):
                points = percentiles(r["histogram"]) if r.get("histogram") else []
                if points:
                    ax.plot([_x(p) for p, _ in points], [max(v, 1e-3) for _, v in points], color=colours[w],
                            lw=1, alpha=0.9 if r.get("pass", 1) == figures.passes[0] else 0.55,
                            label=w if r.get("pass", 1) == figures.passes[0] else None)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{c['client']}→{c['server']}")
        ax.set_xticks([_x(p) for p in ticks], [f"{p:g}" for p in ticks])
        ax.minorticks_off()
        ax.grid(True, which="major", lw=0.3)
    for ax in list(axes.flat)[len(cells):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=min(6, len(labels) or 1), frameon=False)
    fig.supylabel("round trip, µs (log)")
    fig.supxlabel("percentile")
    # margins by hand, in inches: tight_layout measures every tick label and took most of the time
    height = 2.1 * rows
    fig.subplots_adjust(left=0.75 / (2.9 * cols), right=0.98, bottom=0.45 / height, top=1 - 0.6 / height,
                        wspace=0.08, hspace=0.35)
    passes = ", passes overlaid (the later ones paler)" if figures.multi else ""
    return figure_html(svg(fig), Text(Code(protocol), ": the distribution of each call's round trip, percentiles "
                                      f"from each record's histogram (every call, 3 significant digits){passes}."),
                       f"distribution:{protocol}")


def resources_chart(ctx: Context, protocol: str, workload: str) -> str:
    """Per cell: bytes and packets per call each way, CPU per call on both sides, peak memory of both."""
    figures = ctx.figures
    cells = [c for c in figures.cells_of(protocol) if figures.status(c["name"], workload) == "pass"]
    if not cells:
        return ""
    names = [f"{c['client']}→{c['server']}" for c in cells]

    def values(field):
        out = []
        for c in cells:
            fig = figures.fig(c["name"], workload, field)
            out.append(fig.median if fig else 0.0)
        return out
    memory = [figures.memory(c["name"]) for c in cells]
    # the protocol's own bytes and segments where the run counted them, else frames and packets with the ACKs
    payload = any(figures.fig(c["name"], workload, "wire_per_call.payload_c2s") for c in cells)
    bytes_key, packets_key = ("payload", "data_segments") if payload else ("bytes", "packets")
    panels = [("payload bytes per call" if payload else "frame bytes per call",
               ("client→server", values(f"wire_per_call.{bytes_key}_c2s")),
               ("server→client", values(f"wire_per_call.{bytes_key}_s2c"))),
              ("data segments per call" if payload else "packets per call",
               ("client→server", values(f"wire_per_call.{packets_key}_c2s")),
               ("server→client", values(f"wire_per_call.{packets_key}_s2c"))),
              ("CPU per call, µs", ("client", values("cpu_us_per_call.client")),
               ("server", values("cpu_us_per_call.server"))),
              ("peak RSS, MiB", ("client", [(m.client_peak_kb or 0) / 1024 if m else 0 for m in memory]),
               ("server", [(m.server_peak_kb or 0) / 1024 if m else 0 for m in memory]))]
    plt = _plt()
    fig, axes = plt.subplots(1, 4, figsize=(11, 0.28 * len(cells) + 1.0), sharey=True)
    ys = range(len(cells))
    for ax, (title, (la, a), (lb, b)) in zip(axes, panels, strict=True):
        ax.barh([y - 0.2 for y in ys], a, height=0.4, label=la, color="#4c72b0")
        ax.barh([y + 0.2 for y in ys], b, height=0.4, label=lb, color="#dd8452")
        ax.set_title(title)
        ax.grid(True, axis="x", lw=0.3)
        ax.legend(fontsize=6, frameon=False, loc="lower right")
    axes[0].set_yticks(list(ys), names)
    axes[0].invert_yaxis()
    height = fig.get_figheight()
    fig.subplots_adjust(left=(max(len(n) for n in names) * 5.5 + 12) / 72 / 11, right=0.99, bottom=0.35 / height,
                        top=1 - 0.3 / height, wspace=0.12)
    return figure_html(svg(fig), Text(Code(protocol), f", {workload}: bytes and packets on the wire per call each "
                                      "way, CPU time per call on each side, and each side's peak memory (largest over "
                                      "the workloads); 0 = not measured."), f"resources:{protocol}")


def side_by_side_chart(ctx: Context) -> str:
    """The headline workloads: each protocol's p50 per language pair, µs on a log axis."""
    figures = ctx.figures
    workloads = ctx.run.get("headline_workloads") or []
    pairs = summary.language_pairs(ctx)
    data = {w: {p: [summary.headline(ctx, p, pair, w) for pair in pairs] for p in figures.protocols}
            for w in workloads}
    workloads = [w for w in workloads if any(h and h.p50 for hs in data[w].values() for h in hs)]
    if not workloads:
        return ""
    plt = _plt()
    cols = min(3, len(workloads))
    rows = math.ceil(len(workloads) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 0.22 * len(figures.protocols) * rows + 1.2 * rows),
                             squeeze=False, sharey=True)
    markers = "os^vD<>ph*"
    cmap = plt.get_cmap("tab10")
    for ax, w in zip(axes.flat, workloads, strict=False):
        for j, pair in enumerate(pairs):
            xs, ys = [], []
            for i, p in enumerate(figures.protocols):
                h = data[w][p][j]
                if h and h.p50:
                    xs.append(h.p50.median)
                    ys.append(i)
            ax.scatter(xs, ys, s=14, marker=markers[j % len(markers)], color=cmap(j % 10), label=pair)
        ax.set_xscale("log")
        ax.set_title(w)
        ax.grid(True, axis="x", lw=0.3)
        ax.set_yticks(range(len(figures.protocols)), figures.protocols)
    axes[0][0].invert_yaxis()
    for ax in list(axes.flat)[len(workloads):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=min(9, len(labels) or 1), frameon=False)
    fig.supxlabel("p50 round trip, µs (log)")
    height = fig.get_figheight()
    fig.subplots_adjust(left=(max(len(p) for p in figures.protocols) * 5.5 + 12) / 72 / fig.get_figwidth(),
                        right=0.99, bottom=0.5 / height, top=1 - 0.55 / height, wspace=0.08, hspace=0.6 / rows)
    return figure_html(svg(fig), "The protocols side by side on the headline workloads: p50 per pair of languages "
                                 "(client→server; the default implementations), µs on a log axis.", "side-by-side")


def load_chart(ctx: Context, protocol: str) -> str:
    """Latency against throughput (sections/load.py): each cell's points, p99 from the intended send against the
    rate answered, closed loop and open loop apart; guarded points hollow."""
    recs = [r for r in ctx.load_points if r["protocol"] == protocol and r["status"] == "pass" and r.get("latency_us")
            and r["point"]["mode"] in ("closed", "open")]
    if not recs:
        return ""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    cmap = plt.get_cmap("tab10")
    for i, cell in enumerate(sorted({r["cell"] for r in recs})):
        for mode, marker, line in (("closed", "s", ":"), ("open", "o", "-")):
            mine = sorted((r for r in recs if r["cell"] == cell and r["point"]["mode"] == mode),
                          key=lambda r: r["load"]["achieved_per_s"] or 0)
            if not mine:
                continue
            xs = [r["load"]["achieved_per_s"] or 0 for r in mine]
            ys = [r["latency_us"]["p99"] for r in mine]
            ax.plot(xs, ys, line, color=cmap(i % 10), lw=0.8, label=f"{cell} ({mode})")
            for x, y, r in zip(xs, ys, mine, strict=True):
                ax.scatter([x], [y], marker=marker, s=16, color=cmap(i % 10),
                           facecolors="none" if r.get("guards") else cmap(i % 10))
    ax.set_yscale("log")
    ax.set_xlabel("calls answered per second")
    ax.set_ylabel("p99 latency, µs (log)")
    ax.grid(True, lw=0.3)
    ax.legend(fontsize=6, frameon=False, loc="upper left")
    fig.tight_layout()
    return figure_html(svg(fig), Text(Code(protocol), ": p99 latency from each call's intended send against the "
                                      "rate answered; dotted: closed loop (1 to 64 in flight), solid: open loop; "
                                      "hollow: a guarded point."), f"load-{protocol}")


# -- a comparison with another run (compare.json, written by `compare A B` into B) ------------------------

VERDICT_COLOURS = {"slower": "#c0392b", "faster": "#1e8449", "~": "#9a9a9a"}


def compare_chart(data: dict) -> str:
    """Every pair's change of the median with its 95% interval, sorted by change, coloured by verdict, the
    practical threshold as a band: where the pairs moved and which of the moves are more than noise."""
    rows = sorted(data.get("rows") or [], key=lambda r: r["change"])
    if not rows:
        return ""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(10, 3.2))
    threshold = data.get("threshold", 0.05) * 100
    ax.axhspan(-threshold, threshold, color="#eeeeee", lw=0)
    ax.axhline(0, color="#666666", lw=0.5)
    for verdict, colour in VERDICT_COLOURS.items():
        xs = [i for i, r in enumerate(rows) if r["verdict"] == verdict]
        if not xs:
            continue
        mid = [rows[i]["change"] * 100 for i in xs]
        low = [max(0.0, (rows[i]["change"] - rows[i]["low"]) * 100) for i in xs]
        high = [max(0.0, (rows[i]["high"] - rows[i]["change"]) * 100) for i in xs]
        ax.errorbar(xs, mid, yerr=[low, high], fmt="o", ms=2.5, lw=0.6, color=colour,
                    label=f"{verdict} ({len(xs)})")
    ax.set_xlim(-1, len(rows))
    ax.set_xticks([])
    ax.set_xlabel(f"the {len(rows)} (cell, workload) pairs, sorted by change")
    ax.set_ylabel("change of the median, %")
    ax.grid(True, axis="y", lw=0.3)
    ax.legend(loc="upper left", frameon=False, fontsize=7)
    fig.subplots_adjust(left=0.07, right=0.99, top=0.95, bottom=0.12)
    return figure_html(svg(fig), f"B against A: each pair's change of the median (B / A − 1) with its 95% interval "
                                 f"(Hodges–Lehmann); grey band: under the {threshold:g}% threshold.", "compare")


def compare_sections(data: dict) -> list[tuple[str, str]]:
    """The "compared with" section of report.html from compare.json: the summary, the environment's (floor's)
    move, the chart, the pairs flagged, and every pair in a collapsed table."""
    from ..compare import ROW_HEADER as header  # the rows as COMPARE.md writes them
    from ..compare import row_cells, summary_line, unit_text
    a, b = data.get("a") or {}, data.get("b") or {}
    rows = sorted(data.get("rows") or [], key=lambda r: (r["verdict"] == "~", -abs(r["change"])))
    flagged = [r for r in rows if r["verdict"] != "~"]
    body = [block_html(Paragraph(Text("B is this run (", Code(str(b.get("run_id"))), "), A is ",
                                      Code(str(a.get("run_id"))), " (commit ", Code(str(a.get("commit"))[:12]),
                                      " dirty" if a.get("dirty") else "", ", profile ", Code(str(a.get("profile"))),
                                      "), as ", Code("just compare"), " wrote it (COMPARE.md)."))),
            block_html(Paragraph(Strong(summary_line(data)))),
            block_html(Paragraph(unit_text(data)))]
    if data.get("floor"):
        body.append("<h3>The environment (the machine's floor)</h3>"
                    + table_html(header, [row_cells(r) for r in data["floor"]]))
    body.append(compare_chart(data))
    body.append(f"<h3>Pairs flagged ({len(flagged)})</h3>"
                + (table_html(header, [row_cells(r) for r in flagged]) if flagged else "<p>None.</p>"))
    body.append(f"<details><summary>Every pair ({len(rows)})</summary>"
                f"{table_html(header, [row_cells(r) for r in rows])}</details>")
    return [(f"Compared with {a.get('run_id')}", "".join(body))]


# -- matrices as heat maps --------------------------------------------------------------------------------

def interop_heatmap(ctx: Context, protocol: str) -> str:
    """Rows clients, columns servers; each cell coloured by its outcome (pass, fail, known failure,
    unsupported) with the reason in its title, and the reasons again in a table below."""
    figures = ctx.figures
    cells = figures.cells_of(protocol)
    known = {i["cell"] for i in ctx.verdict.get("expected", [])}
    unexpected = {i["cell"] for i in ctx.verdict.get("unexpected", [])}
    servers = list(dict.fromkeys(c["server"] for c in cells))
    reasons: list[str] = []
    body = ""
    for client in dict.fromkeys(c["client"] for c in cells):
        body += f"<tr><th>{html.escape(client)}</th>"
        for server in servers:
            name = f"{protocol}/{client}→{server}"
            rec = figures.record(name, "vectors") if name in figures.cell_names else None
            if rec is None:
                body += '<td class="none" title="no such cell">–</td>' if name not in figures.cell_names \
                    else '<td class="none" title="not run">not run</td>'
                continue
            status = rec["status"]
            cls = STATUS_CLASS.get(status, "fail")
            if cls == "fail" and name in known and name not in unexpected:
                cls = "known"
            vectors = rec.get("vectors") or []
            passed = sum(1 for v in vectors if v["status"] == "pass")
            text = f"{STATUS_MARK.get(status, status)} {passed}/{len(vectors)}" if vectors else \
                f"{STATUS_MARK.get(status, status)} {status}"
            reason = " ".join((rec.get("reason") or "").split())
            title = reason or f"{passed} of {len(vectors)} vectors pass"
            if reason and cls != "pass":
                if reason not in reasons:
                    reasons.append(reason)
                text += f" [{reasons.index(reason) + 1}]"
            label = {"known": "known failure", "unsup": "unsupported"}.get(cls, cls)
            body += f'<td class="{cls}" title="{html.escape(label + ": " + title)}">{html.escape(text)}</td>'
        body += "</tr>"
    head = "".join(f"<th>{html.escape(s)}</th>" for s in servers)
    out = (f'<table class="matrix interop" data-protocol="{html.escape(protocol)}"><thead><tr><th>client \\ server'
           f"</th>{head}</tr></thead><tbody>{body}</tbody></table>")
    if reasons:
        out += table_html(["", "reason"], [[str(i), r] for i, r in enumerate(reasons, 1)], "reasons")
    return out


def ratio_colour(ratio: float | None) -> str:
    """A multiple of the baseline as a colour of matplotlib's RdYlGn (reversed), log scale from 1 to 100."""
    if ratio is None:
        return "#ffffff"
    from matplotlib import colormaps
    from matplotlib.colors import LogNorm, to_hex
    return to_hex(colormaps["RdYlGn_r"](LogNorm(1, 100, clip=True)(max(ratio, 1.0))))


def latency_heatmap(ctx: Context, protocol: str, workload: str) -> str:
    figures = ctx.figures
    cells = [c for c in figures.cells_of(protocol)]
    servers = list(dict.fromkeys(c["server"] for c in cells))
    body, any_value = "", False
    for client in dict.fromkeys(c["client"] for c in cells):
        body += f"<tr><th>{html.escape(client)}</th>"
        for server in servers:
            name = f"{protocol}/{client}→{server}"
            if name not in figures.cell_names:
                body += '<td class="none">–</td>'
                continue
            p50 = figures.fig(name, workload, "rtt_us.p50")
            if p50 is None:
                status = figures.status(name, workload)
                body += f'<td class="none" title="{html.escape(status or "not run")}">' \
                        f'{STATUS_MARK.get(status, "–") if status else "–"}</td>'
                continue
            any_value = True
            ratio = 1.0 if protocol == figures.baseline else figures.baseline_ratio(figures.cell(name), workload)
            text = median(p50) + (f" ×{ratio:.1f}" if ratio is not None and protocol != figures.baseline else "")
            p99 = figures.fig(name, workload, "rtt_us.p99")
            title = f"{name} {workload}: p50 {median(p50)} µs, p99 {median(p99, flag=False)} µs" + \
                (f", ×{ratio:.2f} {figures.baseline}" if ratio is not None else "")
            body += f'<td style="background:{ratio_colour(ratio)}" title="{html.escape(title)}">' \
                    f"{html.escape(text)}</td>"
        body += "</tr>"
    if not any_value:
        return ""
    head = "".join(f"<th>{html.escape(s)}</th>" for s in servers)
    return (f"<h4>{html.escape(workload)}: p50 µs, × {html.escape(figures.baseline or '')}</h4>"
            f'<table class="matrix latency" data-protocol="{html.escape(protocol)}"><thead><tr><th>client \\ server'
            f"</th>{head}</tr></thead><tbody>{body}</tbody></table>")


# -- the page ---------------------------------------------------------------------------------------------

def provenance(ctx: Context) -> str:
    run = ctx.run
    times = sorted(r["time"] for r in ctx.figures.records if r.get("time"))
    prof = run.get("profile") or {}
    rows = [["run", run.get("run_id", "?")],
            ["commit", f"{run.get('git_commit', '?')} "
                       + ("(with local changes)" if run.get("git_dirty") else "(clean tree)")],
            ["machine", f"{run.get('cpu_model')} ({run.get('cpus')} CPUs, governor {run.get('cpu_governor')}), "
                        f"{run.get('memory')}"],
            ["OS, kernel", f"{run.get('os')}, {run.get('kernel')}"],
            ["profile, passes, seed", f"{prof.get('name')}, {len(ctx.figures.passes)}, {prof.get('seed', '–')}"],
            ["start, end", f"{times[0] if times else '?'} – {times[-1] if times else '?'}"],
            ["hosts", setup.hosts(run)], ["pinning", setup.pin(run)]]
    if variant.words(run.get("variant")):
        rows.append(["variant of the cells", variant.words(run.get("variant"))])
    if run.get("injected_server_spin_us"):
        rows.append(["injected slowdown (calibration run)",
                     ", ".join(f"{lang} servers spin {us} µs per call"
                               for lang, us in sorted(run["injected_server_spin_us"].items()))])
    versions = sorted(ctx.env.get("versions", {}).items())
    rows.append(["runtimes", ", ".join(f"{k} {v}" for _, vs in versions for k, v in list(vs.items())[:1])])
    # two facts a row, to keep the summary near the top of the page
    pairs = [rows[i:i + 2] for i in range(0, len(rows), 2)]
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(a))}</td><td>{html.escape(str(b))}</td>" for a, b in pair)
                   + "</tr>" for pair in pairs)
    libraries = "".join(f"<tr><td>{html.escape(lang)}</td>"
                        f"<td>{html.escape(', '.join(f'{k} {v}' for k, v in vs.items()))}"
                        "</td></tr>" for lang, vs in versions)
    return (f'<table class="prov"><tbody>{body}</tbody></table><details><summary>Runtimes and library versions'
            f'</summary><table class="prov versions"><tbody>{libraries}</tbody></table></details>')


def embedded(ctx: Context) -> str:
    """The run's records (without the environment they are joined with on load), cells and env.json as
    gzip+base64 JSON: `python -c "import base64,gzip,json,sys; ..."` reads them back (see records_of)."""
    data = {"env": ctx.env, "cells": ctx.figures.cells,
            "records": [{k: v for k, v in r.items() if k != "env"} for r in ctx.figures.records]}
    packed = base64.b64encode(gzip.compress(json.dumps(data, ensure_ascii=False).encode(), 9, mtime=0)).decode()
    return f'<script type="application/json" id="rpcmatrix-records" data-encoding="gzip+base64">"{packed}"</script>'


def records_of(page: str) -> dict:
    """The embedded env, cells and records of a report.html's text."""
    m = re.search(r'<script type="application/json" id="rpcmatrix-records"[^>]*>"([^"]*)"</script>', page)
    return json.loads(gzip.decompress(base64.b64decode(m.group(1))))


# The context the chart workers read: set before they fork, so nothing is pickled but the protocols' names
# and the charts' SVG.
_CHART_CONTEXT: Context | None = None


def _protocol_charts(protocol: str) -> str:
    return distribution_chart(_CHART_CONTEXT, protocol) + resources_chart(_CHART_CONTEXT, protocol, "ping")


def protocol_charts(ctx: Context, protocols: list[str]) -> list[str]:
    """Each protocol's distribution and resources charts, drawn by as many forked workers as there are CPUs
    (matplotlib draws on one CPU: a default run's 33 figures took 25 s on one): the report is rendered
    after the run's processes have stopped, so nothing measured shares the CPUs with it."""
    global _CHART_CONTEXT
    workers = min(len(os.sched_getaffinity(0)), len(protocols))
    _CHART_CONTEXT = ctx
    try:
        if workers > 1:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                return pool.map(_protocol_charts, protocols, chunksize=1)
        return [_protocol_charts(p) for p in protocols]
    finally:
        _CHART_CONTEXT = None


def render(ctx: Context, compare: list | None = None) -> str:
    """report.html. compare: (title, HTML) sections showing another run against this one (compare_sections),
    placed after the summary."""
    docs = sections.documents(ctx)
    summary_blocks = docs[sections.SUMMARY]
    protocols = ctx.figures.protocols
    payload = summary.payload_workload(ctx)
    nav = "".join(f'<a href="#{anchor(p)}">{html.escape(p)}</a>' for p in protocols)
    parts = [f"<h1>{inline(summary_blocks[0].text)}</h1>",
             f'<section id="provenance"><h2>Provenance</h2>{provenance(ctx)}</section>',
             f"<nav>Protocols: {nav} <a href=\"#{anchor(hostile.HOSTILE)}\">hostile peers</a> "
             f"<a href=\"#{anchor(summary.RUN_DETAIL)}\">the run in detail</a></nav>",
             '<section id="summary"><h2>Summary</h2>' + blocks_html(summary_blocks[2:], shift=1) + "</section>",
             '<section id="side-by-side"><h2>Protocols side by side</h2>' + side_by_side_chart(ctx) + "</section>"]
    # the comparison with another run, when `compare` saved one into this run's folder
    parts.append('<section id="compare">' + "".join(f"<h2>{html.escape(t)}</h2>{body}" for t, body in compare or [])
                 + "</section>")
    legend = ('<p class="legend">Interop: <span class="pass-l" style="background:#b7e4b0">pass</span>'
              '<span style="background:#f4a6a6">fail</span><span style="background:#f9d89c">known failure</span>'
              '<span style="background:#e2e2e2">unsupported</span> (hover a cell for its reason). Latency: coloured by '
              f'the multiple of {html.escape(ctx.figures.baseline or "the baseline")} for the same pair, '
              f'<span style="background:{ratio_colour(1.5)}">×1</span><span style="background:{ratio_colour(10)}">×10'
              f'</span><span style="background:{ratio_colour(100)}">×100 and over</span>.</p>')
    for p, charts in zip(protocols, protocol_charts(ctx, protocols), strict=True):
        detail = docs[summary.detail_path(p)]
        latency = "".join(latency_heatmap(ctx, p, w) for w in dict.fromkeys(["ping", payload]) if w)
        parts.append(f'<section id="{anchor(p)}" class="protocol"><h2>{html.escape(p)}</h2>{legend}'
                     f"<h3>Interop</h3>{interop_heatmap(ctx, p)}"
                     + (f"<h3>Latency against the baseline</h3>{latency}" if latency else "")
                     + charts
                     + "<details><summary>Every table of the protocol</summary>"
                     + blocks_html(detail[2:]) + "</details>"
                     + "</section>")
    hostile_peers = docs[summary.detail_path(hostile.HOSTILE)]
    parts.append(f'<section id="{anchor(hostile.HOSTILE)}"><h2>Hostile peers</h2>'
                 + blocks_html(hostile_peers[2:], shift=1) + "</section>")
    load_detail = docs.get(summary.detail_path(load.LOAD))
    if load_detail:
        charts = "".join(load_chart(ctx, p) for p in sorted({r["protocol"] for r in ctx.load_points}))
        parts.append(f'<section id="{anchor(load.LOAD)}"><h2>Latency under load</h2>{charts}'
                     + blocks_html(load_detail[2:], shift=1) + "</section>")
    run_detail = docs[summary.detail_path(summary.RUN_DETAIL)]
    parts.append(f'<section id="{anchor(summary.RUN_DETAIL)}"><h2>The run in detail</h2>'
                 + blocks_html(run_detail[2:], shift=1) + "</section>")
    parts.append(embedded(ctx))
    title = html.escape(f"rpcmatrix {ctx.run.get('run_id', '')}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            "img-src data:\">"
            f"<title>{title}</title><style>{CSS}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n")


def size_text(n: int) -> str:
    return f"{n / 1024 / 1024:.2f} MB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KB"
