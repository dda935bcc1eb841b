"""What the machine itself gave: the floor (a C ping-pong no stack can beat) with each language's raw
baseline against it, and the steal time and CPU probe around each cell."""
from ... import stats
from ...records import FLOOR_CELL
from .. import flags
from ..blocks import Code, Heading, Paragraph, Status, Table, Text, Value
from ..flags import FLOOR_TARGET, FLOOR_TARGETS, SLOW_PROBE
from ..text import NONE, met, modes, times, value
from .context import Context


def not_timed(ctx: Context, cell: str, workload: str) -> Text:
    """The status mark of a (cell, workload) without figures, and the pass that failed."""
    rec = ctx.figures.record(cell, workload)
    if rec is None:
        return Text("not run")
    failed = rec["status"] != "pass" and rec["status"] != "unsupported"
    return Text(Status(rec["status"]), ctx.pass_label(rec.get("pass", 1)) if failed else "")


def floor(ctx: Context) -> list:
    figures = ctx.figures
    floors = figures.runs(FLOOR_CELL, "ping")
    if not floors:
        return []
    rows = []
    for r in floors:
        if r["status"] == "pass":
            rows.append([str(r.get("pass", 1)), Value(r["rtt_us"]["p50"]), Value(r["rtt_us"]["p99"]),
                         "two modes: " + modes(r["bimodal"]) if r.get("bimodal") else ""])
        else:
            rows.append([str(r.get("pass", 1)), Status(r["status"]), "", r.get("reason", "")])
    out = [Heading(2, "The machine's floor"),
           Paragraph("A C ping-pong (runner/floor) over the same path, CPUs and pinning as the cells, measured at the "
                     "start of each pass with the small workloads' counts: no RPC stack can do better on this "
                     "machine."),
           Table(["pass", "p50, µs", "p99, µs", ""], rows)]
    adjacent = figures.adjacent_floors()
    if adjacent:
        rows = []
        for p in figures.passes:
            p50s = sorted(f["p50"] for f in adjacent.values() if f["pass"] == p)
            if p50s:
                rows.append([str(p), str(len(p50s)), Value(p50s[0]), Value(stats.median_ci(p50s)["median"]),
                             Value(p50s[-1]), times(p50s[-1] / p50s[0])])
        out += [Paragraph("The floor again before each server group's first cell, and a short one right after each "
                          "cell: each cell's multiple of the floor is of the lowest p50 around it, and it is ⛔floor "
                          "where it is under the fastest repetition of each of them. Here those before each group: "
                          "how far the path's own latency moved within each pass."),
                Table(["pass", "groups", "lowest p50, µs", "median", "highest", "highest / lowest"], rows)]
    floor_p50 = figures.floor()
    if floor_p50 is None or not figures.baseline:
        return out
    rows = []
    for c in figures.cells_of(figures.baseline):
        if c["client"] != c["server"]:
            continue
        lang = c.get("server_language", c["server"])
        target = flags.floor_target(lang)
        p50 = figures.fig(c["name"], "ping", "rtt_us.p50")
        if p50 is None:
            rows.append([Code(c["name"]), not_timed(ctx, c["name"], "ping"), NONE, f"≤ {target}×", NONE])
            continue
        multiple = figures.floor_multiple(c["name"])
        rows.append([Code(c["name"]), value(p50), times(multiple), f"≤ {target}×",
                     "⛔ below the floor: method error" if multiple < 1
                     else met(flags.meets_floor_target(multiple, lang))])
    if rows:
        out += [Paragraph(Text("Each language's ", Code(figures.baseline), " ping (the same implementation as client "
                               "and server) against its floor: the one taken before its server group where the run "
                               "took one, else the pass's (", Value(floor_p50.median),
                               f" µs{', median of the passes' if figures.multi else ''}). "
                               f"Targets: every language within {FLOOR_TARGET}× of the floor, "
                               + ", ".join(f"{k.capitalize()} within {v}×" for k, v in FLOOR_TARGETS.items()) + ".")),
                Table(["cell", "ping p50, µs", "multiple of the floor", "target", ""], rows)]
    return out


def host_of(ctx: Context, cell: str) -> str:
    """The host around each run of the cell: its steal time and CPU probe, per pass."""
    figures, parts = ctx.figures, []
    for p in figures.passes:
        steal, probe = figures.steal.get((cell, p)), figures.probe.get((cell, p))
        if steal is None and probe is None:
            continue
        found = [f"{steal / 1000:.1f} s of steal"] if steal is not None else []
        if probe and figures.probe_median:
            found.append(f"CPU probe ×{probe / figures.probe_median:.2f} the median")
        parts.append(("pass " + str(p) + ": " if figures.multi else "") + ", ".join(found))
    return "; ".join(parts) or "steal and CPU probe not recorded"


def steal_and_probe(ctx: Context) -> list:
    figures = ctx.figures
    if not figures.probe and not figures.steal:
        return []
    rows = []
    med = figures.probe_median
    if figures.probe:
        values = sorted(figures.probe.values())
        rows.append(["CPU probe, ms", Value(values[0] / 1e6), Value(med / 1e6), Value(values[-1] / 1e6),
                     Text("max/min ", times(values[-1] / values[0])) if values[0] else ""])
    if figures.steal:
        values = sorted(figures.steal.values())
        rows.append(["steal per cell, ms", Value(values[0]), Value(stats.median_ci(values)["median"]),
                     Value(values[-1]), Text("total ", Value(sum(values)), f" ms over {len(values)} cell runs")])
    out = [Heading(2, "Steal time and CPU probe"),
           Paragraph(Text("Before each cell the runner times a fixed CPU loop (runner/floor ", Code("spin"),
                          ", 20 million iterations) and reads the machine's steal time (CPU time the hypervisor gave "
                          "to others) around the cell: a slow phase of the host shows as a slow probe or as steal.")),
           Table(["", "min", "median", "max", ""], rows)]
    slow = flags.slow_probes(figures.probe, med)
    if slow:
        out.append(Paragraph(Text(f"Cells whose probe ran more than {SLOW_PROBE - 1:.0%} slower than the median: ",
                                  Text.join(", ", [Text(Code(k[0]), ctx.pass_label(k[1]), " ", times(v / med))
                                                   for v, k in slow[:10]]),
                                  " …" if len(slow) > 10 else "", ".")))
    return out
