"""REPORT.md's summary, what a reader came for in one screenful or two: the run in one line, the interop
overview (protocol × language pair), the headline latency against the baseline, bytes per call, the few
anomalies worth reading, how far to trust the run, and where the detail is. The numbers are data
(overview, headline, anomalies, trust); the blocks word them."""
from dataclasses import dataclass

from .. import flags
from ..blocks import Bullets, Code, Heading, Link, Mark, Paragraph, Status, Strong, Table, Text, Value
from ..flags import Flag
from ..text import MARK, NONE, STATUS_MARK, num, plain, times, value
from . import hostile, load, studies, variant
from .comparisons import message_sizes
from .context import Context

# How many anomalies the summary shows; the rest are in the detail files.
MAX_ANOMALIES = 8
DETAIL = "report"  # the folder of the detail files, beside REPORT.md
RUN_DETAIL = "run"  # report/run.md: outcomes, environment, floor, host, comparisons


def detail_path(name: str) -> str:
    """The detail file of a protocol (or RUN_DETAIL), relative to REPORT.md."""
    return f"{DETAIL}/{name}.md"


def language_pair(cell: dict) -> str:
    return f"{cell.get('client_language', cell['client'])}→{cell.get('server_language', cell['server'])}"


def language_pairs(ctx: Context) -> list[str]:
    return sorted(dict.fromkeys(language_pair(c) for c in ctx.figures.cells))


# -- the figures, as data ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Interop:
    """A protocol's cells for one language pair (or all of them): how many passed their vectors of those
    that could run, and how many are unsupported, for how many distinct reasons."""
    passing: int
    runnable: int
    unsupported: int
    reasons: int
    not_run: int


def interop(ctx: Context, protocol: str, pair: str | None = None) -> Interop | None:
    cells = [c for c in ctx.figures.cells_of(protocol) if pair is None or language_pair(c) == pair]
    if not cells:
        return None
    passing = runnable = unsupported = not_run = 0
    reasons = set()
    for c in cells:
        rec = ctx.figures.record(c["name"], "vectors")
        if rec is None:
            not_run += 1
        elif rec["status"] == "unsupported" or c.get("unsupported"):
            unsupported += 1
            reasons.add(rec.get("reason") or c.get("unsupported") or "")
        else:
            runnable += 1
            passing += rec["status"] == "pass"
    return Interop(passing, runnable, unsupported, len(reasons), not_run)


def representative_cell(ctx: Context, protocol: str, pair: str) -> dict | None:
    """The cell that stands for a protocol and language pair: the one whose implementations are named as
    their languages (the default ones), else the first in the run's order."""
    cells = [c for c in ctx.figures.cells_of(protocol) if language_pair(c) == pair]
    plain = [c for c in cells if f"{c['client']}→{c['server']}" == pair]
    return (plain or cells or [None])[0]


@dataclass(frozen=True)
class Headline:
    """A (protocol, language pair)'s p50 in µs across passes (figures.Figure) and as a multiple of the
    baseline's for the same pair (across passes too, when both have a value per pass)."""
    cell: str
    p50: object  # figures.Figure or None
    ratio: object  # figures.Figure or None
    status: str | None  # the cell's status for the workload when it has no p50


def headline(ctx: Context, protocol: str, pair: str, workload: str) -> Headline | None:
    figures = ctx.figures
    cell = representative_cell(ctx, protocol, pair)
    if cell is None:
        return None
    p50 = figures.fig(cell["name"], workload, "rtt_us.p50")
    ratio = None
    base = figures.baseline_cell(cell)
    if p50 is not None and base is not None and protocol != figures.baseline:
        base_p50 = figures.fig(base, workload, "rtt_us.p50")
        if base_p50 is not None:
            ratio = _ratio(figures, cell["name"], base, workload)
    return Headline(cell["name"], p50, ratio, figures.status(cell["name"], workload))


def _ratio(figures, cell: str, base: str, workload: str):
    """The cell's p50 over the baseline's, per pass where both passed, as a figure across those passes."""
    from ..figures import figure
    mine = {r.get("pass", 1): r["rtt_us"]["p50"] for r in figures.passing(cell, workload) if r.get("rtt_us")}
    theirs = {r.get("pass", 1): r["rtt_us"]["p50"] for r in figures.passing(base, workload) if r.get("rtt_us")}
    return figure([mine[p] / theirs[p] for p in sorted(mine) if p in theirs and theirs[p]])


def payload_workload(ctx: Context) -> str | None:
    """The headline workload other than ping that the most cells timed: the summary's payload."""
    candidates = [w for w in ctx.run.get("headline_workloads") or [] if w != "ping"]
    timed = {w: sum(1 for c in ctx.figures.cells if ctx.figures.fig(c["name"], w, "rtt_us.p50")) for w in candidates}
    return max(candidates, key=lambda w: (timed[w], -candidates.index(w)), default=None)


@dataclass(frozen=True)
class Anomaly:
    rank: int  # lower is more important
    weight: float  # within a rank, higher first
    protocol: str | None
    text: Text


def anomalies(ctx: Context) -> list[Anomaly]:
    """Everything worth reading, most important first: unexpected failures, stale known failures, raw
    baselines off the floor's target, calls that wait, CPU over the round trip, unstable repetitions,
    passes that disagree, two modes."""
    figures, out = ctx.figures, []
    for i in ctx.verdict.get("unexpected", []):
        out.append(Anomaly(0, 0, i["cell"].split("/")[0],
                           Text(f"unexpected {i['status']}: ", Code(i["cell"]), f" {i['workload']}",
                                " / " + i["vector"] if i.get("vector") else "")))
    for e in ctx.verdict.get("stale", []):
        out.append(Anomaly(1, 0, e["cell"].split("/")[0], Text("known failure now passes (remove it): ",
                                                                 Code(e["cell"]))))
    floor = figures.floor()
    if floor and figures.baseline:
        for c in figures.cells_of(figures.baseline):
            multiple = figures.floor_multiple(c["name"]) if c["client"] == c["server"] else None
            lang = c.get("server_language", c["server"])
            if multiple and multiple < 1:
                continue  # below the floor: a method error, listed with the others below
            if multiple and not flags.meets_floor_target(multiple, lang):
                out.append(Anomaly(2, multiple, None, Text(Code(c["name"]), " ping is ", times(multiple), " the "
                                                           f"machine's floor (target ≤ {flags.floor_target(lang)}×)")))
    for cell, w in figures.timed_keys():
        protocol = cell.split("/")[0]
        cpu = flags.workload_cpu_flags(figures, cell, w)
        rtt = flags.workload_rtt_flags(figures, cell, w)
        if Flag.WAIT in cpu:
            f = cpu[Flag.WAIT]
            out.append(Anomaly(3, f["idle_us"], protocol, _flagged(Flag.WAIT, cell, w, Value(f["idle_us"], unit=" µs"),
                                                                   " of its ", Value(f["rtt_p50_us"], unit=" µs"),
                                                                   " p50 on neither side's CPU")))
        if Flag.CPU_OVER_RTT in cpu:
            f = cpu[Flag.CPU_OVER_RTT]
            share = f["cpu_us"] / f["rtt_mean_us"]
            out.append(Anomaly(4, share, protocol, _flagged(Flag.CPU_OVER_RTT, cell, w, "CPU per call ",
                                                            times(share, ".1f"), " the mean round trip")))
        if Flag.BELOW_FLOOR in rtt:
            worst = min(v / f for _, v, f in rtt[Flag.BELOW_FLOOR]["passes"])
            out.append(Anomaly(2, 1 / worst, protocol, _flagged(Flag.BELOW_FLOOR, cell, w, "p50 ", times(worst),
                                                                " the floors around it, a method error (the floor is "
                                                                "not the fastest path, or the host changed)")))
        if Flag.UNSTABLE in rtt:
            cv = max(v for _, v in rtt[Flag.UNSTABLE]["rep_cv"])
            out.append(Anomaly(5, cv, protocol, _flagged(Flag.UNSTABLE, cell, w, "repetitions spread (CV ",
                                                         Value(cv, spec=".0%"), ")")))
        p50 = figures.fig(cell, w, "rtt_us.p50")
        raised = flags.figure_flags(p50)
        if Flag.DISAGREE in raised:
            spread = raised[Flag.DISAGREE]["max_over_min"]
            out.append(Anomaly(6, spread, protocol, _flagged(Flag.DISAGREE, cell, w, "passes disagree (max/min ",
                                                             times(spread), ")")))
    return sorted(out, key=lambda a: (a.rank, -a.weight, plain(a.text)))


def _flagged(flag: Flag, cell: str, workload: str, *what) -> Text:
    """An anomaly a flag marks: its mark, the cell and workload, then what it is."""
    return Text(Mark(flag), " ", Code(cell), f" {workload}: ", *what)


@dataclass(frozen=True)
class Trust:
    floor: object  # figures.Figure of the floor's p50, or None
    baselines_met: int  # raw baselines (same language both sides) within their floor target
    baselines: int
    counts: flags.Counts
    passes: int
    probe_spread: float | None  # slowest / fastest CPU probe
    steal_ms: float | None  # total over the cell runs


def trust(ctx: Context) -> Trust:
    figures = ctx.figures
    met = total = 0
    if figures.floor() and figures.baseline:
        for c in figures.cells_of(figures.baseline):
            multiple = figures.floor_multiple(c["name"]) if c["client"] == c["server"] else None
            if multiple:
                total += 1
                met += 1 <= multiple and flags.meets_floor_target(multiple, c.get("server_language", c["server"]))
    probes = sorted(figures.probe.values())
    return Trust(floor=figures.floor(), baselines_met=met, baselines=total, counts=flags.counts(figures),
                 passes=len(figures.passes), probe_spread=probes[-1] / probes[0] if probes and probes[0] else None,
                 steal_ms=sum(figures.steal.values()) if figures.steal else None)


# -- the blocks -------------------------------------------------------------------------------------------

MARKS = (f"{STATUS_MARK['pass']} pass, {STATUS_MARK['fail']} fail, {STATUS_MARK['error']} error, "
         f"{STATUS_MARK['timeout']} timeout, {STATUS_MARK['unsupported']} unsupported, {NONE} no such cell; "
         f"{MARK[Flag.UNSTABLE]} unstable repetitions (CV over {flags.UNSTABLE_REP_CV:.0%}), "
         f"{MARK[Flag.BIMODAL]} two modes, {MARK[Flag.NOT_STEADY]} warm-up not steady, "
         f"{MARK[Flag.DISAGREE]} passes disagree (CI half-width over {flags.PASS_HALF_WIDTH:.0%} of the median "
         f"or max/min over {flags.PASS_MAX_MIN}), {MARK[Flag.CPU_UNSTABLE]} CPU per call unstable, "
         f"{MARK[Flag.CPU_OVER_RTT]} client + server CPU over {flags.CPU_BOUND}× the mean round trip, "
         f"{MARK[Flag.WAIT]} over {flags.WAIT_SHARE:.0%} of the p50 on neither side's CPU, "
         f"{MARK[Flag.BELOW_FLOOR]} p50 below the fastest repetition of every floor taken around its cell "
         "(through a delay line, less how far its typical crossing moved over the run: a method error), "
         f"{MARK[Flag.JIT_BUSY]} a JIT's compiler threads over {flags.JIT_SHARE:.0%} of a side's CPU while timed; "
         "[lo–hi] the 95% confidence interval across passes.")


def summary(ctx: Context) -> list:
    # a run of a study's profile came for the study: its figures beside the run's (nothing for other runs)
    return (opening(ctx) + interop_overview(ctx) + headline_tables(ctx) + bytes_per_call(ctx)
            + anomaly_list(ctx) + trust_blocks(ctx) + studies.against_the_study(ctx) + contents(ctx)
            + [Heading(2, "Marks"), Paragraph(MARKS)])


def opening(ctx: Context) -> list:
    run, figures = ctx.run, ctx.figures
    prof = run["profile"]
    passes = f", {len(figures.passes)} passes (seed {prof.get('seed')})" if figures.multi else ""
    v = ctx.verdict
    return [Heading(1, f"rpcmatrix report: run {run['run_id']}"), *variant.note(run),
            Paragraph(Text("Profile ", Code(prof["name"]), f"{passes}, commit ", Code(run["git_commit"][:12]),
                           f"{' (with local changes)' if run.get('git_dirty') else ' (clean tree)'}, "
                           f"{run['cpu_model']} ({run['cpus']} CPUs), {run['os']}, kernel {run['kernel']}; "
                           f"{len(figures.protocols)} protocols, {len(figures.cells)} cells. "
                           f"Unexpected failures: {len(v.get('unexpected', []))}, known: "
                           f"{len(v.get('expected', []))}, stale known-failure entries: {len(v.get('stale', []))}. "
                           "Cells are ", Code("protocol/client→server"), "."))
            ] + injected_spin(run)


def injected_spin(run: dict) -> list:
    """A calibration run's warning: its servers were made slower on purpose (--inject-server-spin)."""
    spin = run.get("injected_server_spin_us")
    if not spin:
        return []
    named = ", ".join(f"{lang} {us} µs" for lang, us in sorted(spin.items()))
    return [Paragraph(Text(Strong("Calibration run, not a measurement of the stacks:"), " a slowdown was injected on "
                           "purpose (", Code("--inject-server-spin"), "): every contract call of these languages' "
                           f"servers busy-waits first ({named}). It exists to check that ", Code("compare"),
                           " finds a known change."))]


def interop_cell(i: Interop | None) -> Text:
    if i is None:
        return Text(NONE)
    parts = []
    if i.runnable:
        parts.append(Text(Status("pass" if i.passing == i.runnable else "fail"), f" {i.passing}/{i.runnable}"))
    if i.unsupported:
        parts.append(Text(Status("unsupported"), f" {i.unsupported}"))
    if i.not_run:
        parts.append(f"{i.not_run} not run")
    return Text.join(" ", parts)


def interop_overview(ctx: Context) -> list:
    pairs = language_pairs(ctx)
    rows = []
    for p in ctx.figures.protocols:
        total = interop(ctx, p)
        reasons = f" ({total.reasons} reason{'s' if total.reasons != 1 else ''})" if total.unsupported else ""
        rows.append([Link(Code(p), detail_path(p))] + [interop_cell(interop(ctx, p, pair)) for pair in pairs]
                    + [interop_cell(total) + reasons])
    return [Heading(2, "Interop"),
            Paragraph(Text("Cells whose vectors all passed, of those that could run, per protocol and pair of "
                           "languages (client→server); ➖ n: cells unsupported (the last column counts their distinct "
                           "reasons). Each protocol's matrix, with every reason, is in its detail file.",
                           _vectors_left_out(ctx.run))),
            Table(["protocol"] + pairs + ["all"], rows)]


def _vectors_left_out(run: dict) -> Text:
    left = run.get("vectors_left_out") or []
    return Text(" Profile ", Code(str(run["profile"].get("name"))), f" left out the {len(left)} large vectors (50,000 "
                "values or 1 MiB each): ", Code("just certify"), " sends them.") if left else Text()


def headline_text(h: Headline | None, baseline: bool) -> Text:
    """The p50 across passes and, but for the baseline, its multiple of the baseline's."""
    if h is None:
        return Text(NONE)
    if h.p50 is None:
        return Text(Status(h.status) if h.status else NONE)
    if not baseline and h.ratio is not None:
        return Text(value(h.p50), " ", value(h.ratio, 2, flag=False, prefix="×"))
    return Text(value(h.p50))


def headline_tables(ctx: Context) -> list:
    figures = ctx.figures
    pairs = language_pairs(ctx)
    out = [Heading(2, "Latency: the headline"),
           Paragraph(Text("Median round-trip time (p50) in µs, and × that of ", Code(str(figures.baseline)),
                          " for the same pair of languages and workload",
                          ", each the median across passes with its 95% interval" if figures.multi else "",
                          ". Where a language has several implementations the default one (named as the language) "
                          "stands for it."))]
    for w in [w for w in ("ping", payload_workload(ctx)) if w]:
        rows = []
        for p in figures.protocols:
            values = [headline(ctx, p, pair, w) for pair in pairs]
            if any(h is not None and h.p50 is not None for h in values):
                rows.append([Code(p)] + [headline_text(h, p == figures.baseline) for h in values])
        if rows:
            out += [Heading(3, w), Table(["protocol"] + pairs, rows)]
    return out


def bytes_per_call(ctx: Context) -> list:
    blocks = message_sizes(ctx)
    if not blocks:
        return []
    return [Heading(2, "Bytes per call")] + blocks[1:]


def anomaly_list(ctx: Context) -> list:
    found = anomalies(ctx)
    if not found:
        return [Heading(2, "Anomalies"), Paragraph("None flagged.")]
    shown = pick(found)
    items = [a.text + (Text(" (", Link("detail", detail_path(a.protocol)), ")")
                       if a.protocol in ctx.figures.protocols else "") for a in shown]
    more = len(found) - len(shown)
    return [Heading(2, "Anomalies"),
            Paragraph(f"The {len(shown)} most important of {len(found)} flagged, most important first (unexpected "
                      "failures, raw baselines off the floor and figures below it, waits, CPU over the round trip, "
                      "unstable repetitions, passes that disagree)"
                      + (f"; {more} more in the detail files." if more else ".")),
            Bullets(items)]


def pick(found: list[Anomaly], per_kind: int = 3) -> list[Anomaly]:
    """At most MAX_ANOMALIES, most important first, and at most per_kind of a kind while others wait (every
    unexpected failure first, though)."""
    shown = [a for a in found if a.rank == 0][:MAX_ANOMALIES]
    taken: dict[int, int] = {}
    for a in found:
        if len(shown) >= MAX_ANOMALIES:
            break
        if a.rank != 0 and taken.get(a.rank, 0) < per_kind:
            shown.append(a)
            taken[a.rank] = taken.get(a.rank, 0) + 1
    for a in found:  # room left: the next of any kind
        if len(shown) >= MAX_ANOMALIES:
            break
        if a not in shown:
            shown.append(a)
    return sorted(shown, key=found.index)


def trust_blocks(ctx: Context) -> list:
    t = trust(ctx)
    n = t.counts
    items = []
    if t.floor:
        items.append(Text("Floor (a C ping-pong on the same path): ", value(t.floor), f" µs p50; {t.baselines_met} of "
                          f"{t.baselines} raw baselines within their target of it",
                          f"; {n.below_floor} of {n.timed} timed workloads below it ({MARK[Flag.BELOW_FLOOR]}, a "
                          "method error: their figures are not results)." if n.below_floor else "; none below it."))
    else:
        items.append("Floor: not measured.")
    items.append(f"Stability: {n.unstable} of {n.timed} timed workloads have unstable repetitions "
                 f"({MARK[Flag.UNSTABLE]}); {n.cpu_over_rtt} of {n.with_cpu} break the CPU bound, {n.wait} wait.")
    if t.passes > 1:
        items.append(f"Passes: {t.passes}; the p50 of {n.disagree} of {n.timed} timed workloads disagrees across them "
                     f"({MARK[Flag.DISAGREE]}).")
    else:
        items.append("Passes: 1, so no interval: differences under about 5% are noise.")
    host = []
    if t.probe_spread:
        host.append(f"the CPU probe before each cell spread ×{t.probe_spread:.2f} slowest/fastest")
    if t.steal_ms is not None:
        host.append(f"{num(t.steal_ms / 1000)} s of steal over the run")
    if host:
        items.append("Host: " + ", ".join(host) + ".")
    return [Heading(2, "How far to trust this run"), Bullets(items)]


def contents(ctx: Context) -> list:
    run = Text(Link("the run in detail", detail_path(RUN_DETAIL)), ": outcomes and failures, environment and method, "
               "the floor, steal and CPU probe, every protocol side by side and against the baseline; ",
               Link("hostile peers", detail_path(hostile.HOSTILE)), f": {hostile.summary_line(ctx)}")
    if ctx.load_points:
        run = Text(run, "; ", Link("latency under load", detail_path(load.LOAD)), f": {load.summary_line(ctx)}")
    protocols = Text.join(", ", [Link(Code(p), detail_path(p)) for p in ctx.figures.protocols])
    return [Heading(2, "Detail"), Paragraph(Text(run, ". Per protocol (interop matrix, implementations, latency, CPU, "
                                                 "bytes, connections, warm-up, memory): ", protocols, "."))]
