"""A protocol's tables of figures per timed workload (rows client→server, columns workloads): round trip,
handler time, CPU, bytes on the wire and connections, each figure with its flags' marks."""
from .. import flags
from ..blocks import Code, Heading, Mark, Paragraph, Status, Table, Text, Value
from ..flags import Flag
from ..text import modes, num, value
from .context import Context
from .host import host_of, not_timed

MARKS_LEGEND = (f"⚠ = unstable repetitions (CV of repetition means over {flags.UNSTABLE_REP_CV:.0%}); "
                "⧉ = two modes (see the note); "
                f"≠ = the passes disagree (CI half-width over {flags.PASS_HALF_WIDTH:.0%} of the median, "
                f"or max/min over {flags.PASS_MAX_MIN}); "
                "⌛ = warm-up did not reach steady state; "
                "⛔floor = p50 below the fastest repetition of every floor measured around its cell: a method error, "
                "not a result")
CPU_TITLE = ("CPU time per call, µs: client / server, from the cgroups' counters read around each repetition. "
             f"⚠cpu = the repetitions' CPU per call spreads by more than {flags.UNSTABLE_CPU_REP_CV:.0%} (CV); "
             f"⚠>rtt = client + server exceeds {flags.CPU_BOUND}× the mean round trip, impossible for a strict "
             f"ping-pong unless threads run concurrently; ⏸wait = over {flags.WAIT_SHARE:.0%} of the p50 round trip, "
             f"and over {flags.WAIT_MIN_US:g} µs, on neither side's CPU")


def tables(ctx: Context, protocol: str) -> list:
    out = [Heading(3, "Figures per timed workload")]
    if ctx.figures.multi:
        out.append(Paragraph(f"Each figure is the median across the {len(ctx.figures.passes)} passes with its 95% "
                             "confidence interval in brackets."))
    rtt_title = ("Round-trip time, µs: p50 / p99" + ("" if ctx.figures.multi else " (trimmed mean, CV)")
                 + f", from each call's time on the client's monotonic clock. {MARKS_LEGEND}")
    out += _table(ctx, protocol, rtt_title, rtt)
    out += _table(ctx, protocol, "Handler time, µs: p50 of the server language's reference behaviour timed in "
                                 "process (no transport, pass 1), and its share of the cell's p50 round trip",
                  lambda ctx, cell, w: handler(ctx, ctx.figures.cell(cell), w))
    out += _table(ctx, protocol, CPU_TITLE, cpu)
    out += _table(ctx, protocol, "Bytes per call the protocol sends (TCP payload), client→server / "
                                 "server→client, then the segments that carry them and, after “bare”, those "
                                 "that carry none (ACKs alone, SYN, FIN: how many ACKs go alone depends on how "
                                 "fast calls follow each other, so only the payload and its segments are the "
                                 "protocol's); counted in a separate counting pass with offloads and TCP's tail loss "
                                 "probes off, not during the timed repetitions; “resent” gives the segments a side "
                                 "retransmitted over the same calls, where any were (their bytes taken off the "
                                 "payload, which counts what the protocol sent once); “the library's own”: the "
                                 "bytes a client's library sent while counting on threads of its own, at moments "
                                 "its collector chose (RMI's distributed GC), taken off the payload too (its "
                                 "segments stay in the counts). Where segments could not be counted: Ethernet frames "
                                 "with every packet, marked “frames”", wire)
    out += _table(ctx, protocol, "New TCP connections per 1,000 calls, accepted by the server during the timed "
                                 "repetitions (0 = one persistent connection); where there are any, the TCP "
                                 "sockets in TIME_WAIT after them, client / server side: the side that "
                                 "closes first keeps each for 60 s, and on the client's side they hold "
                                 "ephemeral ports", connections)
    return out


def _table(ctx: Context, protocol: str, title: str, text_of) -> list:
    """One figure per cell and workload, text_of(ctx, cell, workload) where the workload passed."""
    workloads = ctx.workloads[protocol]
    rows = []
    for c in ctx.figures.cells_of(protocol):
        if c.get("unsupported"):
            continue
        row = [f"{c['client']}→{c['server']}"]
        for w in workloads:
            row.append(text_of(ctx, c["name"], w) if ctx.figures.status(c["name"], w) == "pass"
                       else not_timed(ctx, c["name"], w))
        rows.append(row)
    if not rows or not workloads:
        return []
    return [Heading(4, title), Table(["client→server"] + workloads, rows)]


def rtt(ctx: Context, cell: str, w: str) -> Text:
    figures = ctx.figures
    p50, p99 = figures.fig(cell, w, "rtt_us.p50"), figures.fig(cell, w, "rtt_us.p99")
    text = Text(value(p50), " / ", value(p99, flag=False))
    if not figures.multi:
        trimmed, cv = figures.fig(cell, w, "rtt_us.trimmed_mean"), figures.fig(cell, w, "rtt_us.cv")
        text += Text(" (", Value(trimmed and trimmed.median), ", ", Value(cv and cv.median, digits=2), ")")
    return text + Text(*(Text(" ", m) for m in rtt_marks(ctx, cell, w)))


def rtt_marks(ctx: Context, cell: str, w: str) -> list[Mark]:
    """⚠, ⧉ with a note on the two modes, ⌛, ⚙jit and ⛔floor with theirs."""
    raised = flags.workload_rtt_flags(ctx.figures, cell, w)
    marks = []
    if Flag.UNSTABLE in raised:
        marks.append(Mark(Flag.UNSTABLE))
    if Flag.BIMODAL in raised:
        where = "; ".join(f"{'pass ' + str(p) + ': ' if ctx.figures.multi else ''}{modes(b)}"
                          for p, b in raised[Flag.BIMODAL]["modes"])
        marks.append(Mark(Flag.BIMODAL, ctx.notes.ref(Text(Code(cell), f" {w}: two modes of the round-trip time, "
                                                                        f"{where}."))))
    if Flag.NOT_STEADY in raised:
        marks.append(Mark(Flag.NOT_STEADY))
    if Flag.JIT_BUSY in raised:
        where = "; ".join(f"{'pass ' + str(p) + ': ' if ctx.figures.multi else ''}the {side}'s {share:.0%}"
                          + (" (its warm-up stopped at its bound)" if ended == "bound" else "")
                          for p, side, share, ended in raised[Flag.JIT_BUSY]["sides"])
        marks.append(Mark(Flag.JIT_BUSY, ctx.notes.ref(Text(
            Code(cell), f" {w}: JIT still compiling while the calls were timed: its compiler threads took {where} of "
            "the CPU over the repetitions."))))
    if Flag.BELOW_FLOOR in raised:
        slack = raised[Flag.BELOW_FLOOR]["slack_us"]
        less = (f" less {num(slack)} µs, how far the delay line's typical crossing moved over the run" if slack
                else "")
        where = "; ".join(f"pass {p}: {num(v)} µs against {num(f)} µs{less}"
                          for p, v, f in raised[Flag.BELOW_FLOOR]["passes"])
        marks.append(Mark(Flag.BELOW_FLOOR, ctx.notes.ref(Text(
            Code(cell), f" {w}: p50 below the floor ({where}; the lower of the floors taken before and after its "
            "server group), a method error: the floor did not take the fastest path this cell took, or the host "
            "changed between them."))))
    return marks


def handler(ctx: Context, cell: dict, w: str) -> Text:
    """The in-process handler's p50 for the server's language, and its share of the round trip."""
    figures = ctx.figures
    fig = figures.fig(figures.handler_cell(cell), w, "rtt_us.p50")
    if fig is None:
        rec = figures.record(figures.handler_cell(cell), w)
        return Text("not measured" if rec is None else Status(rec["status"]))
    share = figures.handler_share(cell, w)
    return Text(Value(fig.median), Text(" (", Value(share, spec=".0%"), ")") if share is not None else "")


def cpu(ctx: Context, cell: str, w: str) -> Text:
    figures = ctx.figures
    client = figures.fig(cell, w, "cpu_us_per_call.client")
    server = figures.fig(cell, w, "cpu_us_per_call.server")
    if client is None and server is None:
        return Text("not measured")
    raised = flags.workload_cpu_flags(figures, cell, w)
    text = Text(value(client), " / ", value(server))
    text += Text(*(Text(" ", Mark(f)) for f in (Flag.CPU_UNSTABLE, Flag.CPU_OVER_RTT) if f in raised))
    if Flag.WAIT in raised:
        p50, fastest = figures.fig(cell, w, "rtt_us.p50"), figures.fig(cell, w, "rtt_us.min")
        text += Text(" ", Mark(Flag.WAIT, ctx.notes.ref(Text(
            Code(cell), f" {w}: p50 ", value(p50, flag=False), " µs, fastest call ", value(fastest, flag=False),
            f" µs; the host around the cell: {host_of(ctx, cell)}."))))
    return text


def wire(ctx: Context, cell: str, w: str) -> Text:
    figures = ctx.figures
    if figures.fig(cell, w, "wire_per_call.bytes_c2s") is None and figures.fig(cell, w,
                                                                         "wire_per_call.payload_c2s") is None:
        return Text("not measured")

    def per_call(name: str, digits: int) -> Value:
        fig = figures.fig(cell, w, f"wire_per_call.{name}")
        return Value(fig.median if fig else None, digits=digits)

    def both(name: str, digits: int) -> Text:
        """The figure of `name` each way: client→server / server→client."""
        return Text(per_call(f"{name}_c2s", digits), " / ", per_call(f"{name}_s2c", digits))

    def any_above_zero(name: str) -> bool:
        """Whether either direction's figure of `name` (c2s, s2c) is over zero."""
        return any(f is not None and f.median > 0
                   for f in (figures.fig(cell, w, f"wire_per_call.{name}_{d}") for d in ("c2s", "s2c")))
    if figures.fig(cell, w, "wire_per_call.payload_c2s") is None:
        return Text("frames ", both("bytes", 4), " (", both("packets", 2), ")")
    resent_bytes = (Text(" = ", both("resent_payload", 4), " B, not in the payload")
                    if figures.fig(cell, w, "wire_per_call.resent_payload_c2s") is not None else "")
    resends = Text("; resent ", both("retransmitted", 2), resent_bytes) if any_above_zero("retransmitted") else ""
    apart = (Text("; the library's own ", both("background_payload", 4), " B, not in the payload")
             if any_above_zero("background_payload") else "")
    if figures.fig(cell, w, "wire_per_call.data_segments_c2s") is None:  # counted on the clients' host alone
        return Text(both("payload", 4), " (bare ", both("empty_segments", 2), resends, apart, ")")
    return Text(both("payload", 4), " (", both("data_segments", 2), "; bare ", both("empty_segments", 2), resends,
                apart, ")")


def connections(ctx: Context, cell: str, w: str) -> Text:
    """New connections per 1,000 calls, and where there are any, the sockets left in TIME_WAIT."""
    figures = ctx.figures
    conn = figures.fig(cell, w, "wire_per_call.connections")
    if not conn:
        return Text("not measured")
    text = Text(value(conn, 3, 1000))
    tw_client, tw_server = (figures.fig(cell, w, f"time_wait.{side}") for side in ("client", "server"))
    if conn.median > 0 and tw_client and tw_server:
        text += Text(" (TIME_WAIT ", Value(tw_client.median), " / ", Value(tw_server.median), ")")
    return text
