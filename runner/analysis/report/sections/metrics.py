"""A protocol's tables of figures per timed workload (rows client→server, columns workloads): round trip,
handler time, CPU, bytes on the wire and connections, each figure with its flags' marks."""
from .. import flags
from ..blocks import Heading, Paragraph, Table
from ..flags import Flag
from ..text import MARK, STATUS_MARK, median, modes, num
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


def rtt(ctx: Context, cell: str, w: str) -> str:
    figures = ctx.figures
    p50, p99 = figures.fig(cell, w, "rtt_us.p50"), figures.fig(cell, w, "rtt_us.p99")
    text = f"{median(p50)} / {median(p99, flag=False)}"
    if not figures.multi:
        trimmed, cv = figures.fig(cell, w, "rtt_us.trimmed_mean"), figures.fig(cell, w, "rtt_us.cv")
        text += f" ({num(trimmed and trimmed.median)}, {num(cv and cv.median, 2)})"
    return text + rtt_marks(ctx, cell, w)


def rtt_marks(ctx: Context, cell: str, w: str) -> str:
    """⚠, ⧉ with a note on the two modes, ⌛."""
    raised = flags.workload_rtt_flags(ctx.figures, cell, w)
    marks = ""
    if Flag.UNSTABLE in raised:
        marks += " " + MARK[Flag.UNSTABLE]
    if Flag.BIMODAL in raised:
        where = "; ".join(f"{'pass ' + str(p) + ': ' if ctx.figures.multi else ''}{modes(b)}"
                          for p, b in raised[Flag.BIMODAL]["modes"])
        marks += " " + MARK[Flag.BIMODAL] + ctx.notes.ref(f"`{cell}` {w}: two modes of the round-trip time, {where}.")
    if Flag.NOT_STEADY in raised:
        marks += " " + MARK[Flag.NOT_STEADY]
    if Flag.JIT_BUSY in raised:
        where = "; ".join(f"{'pass ' + str(p) + ': ' if ctx.figures.multi else ''}the {side}'s {share:.0%}"
                          + (" (its warm-up stopped at its bound)" if ended == "bound" else "")
                          for p, side, share, ended in raised[Flag.JIT_BUSY]["sides"])
        marks += " " + MARK[Flag.JIT_BUSY] + ctx.notes.ref(
            f"`{cell}` {w}: JIT still compiling while the calls were timed: its compiler threads took {where} of "
            "the CPU over the repetitions.")
    if Flag.BELOW_FLOOR in raised:
        where = "; ".join(f"pass {p}: {num(v)} µs against {num(f)} µs"
                          for p, v, f in raised[Flag.BELOW_FLOOR]["passes"])
        marks += " " + MARK[Flag.BELOW_FLOOR] + ctx.notes.ref(
            f"`{cell}` {w}: p50 below the floor ({where}; the lower of the floors taken before and after its "
            "server group), a method error: the floor did not take the fastest path this cell took, or the host "
            "changed between them.")
    return marks


def handler(ctx: Context, cell: dict, w: str) -> str:
    """The in-process handler's p50 for the server's language, and its share of the round trip."""
    figures = ctx.figures
    fig = figures.fig(figures.handler_cell(cell), w, "rtt_us.p50")
    if fig is None:
        rec = figures.record(figures.handler_cell(cell), w)
        return "not measured" if rec is None else STATUS_MARK.get(rec["status"], "?")
    share = figures.handler_share(cell, w)
    return num(fig.median) + (f" ({share:.0%})" if share is not None else "")


def cpu(ctx: Context, cell: str, w: str) -> str:
    figures = ctx.figures
    client = figures.fig(cell, w, "cpu_us_per_call.client")
    server = figures.fig(cell, w, "cpu_us_per_call.server")
    if client is None and server is None:
        return "not measured"
    raised = flags.workload_cpu_flags(figures, cell, w)
    text = f"{median(client)} / {median(server)}"
    text += "".join(" " + MARK[f] for f in (Flag.CPU_UNSTABLE, Flag.CPU_OVER_RTT) if f in raised)
    if Flag.WAIT in raised:
        p50, fastest = figures.fig(cell, w, "rtt_us.p50"), figures.fig(cell, w, "rtt_us.min")
        text += " " + MARK[Flag.WAIT] + ctx.notes.ref(
            f"`{cell}` {w}: p50 {median(p50, flag=False)} µs, fastest call {median(fastest, flag=False)} µs; "
            f"the host around the cell: {host_of(ctx, cell)}.")
    return text


def wire(ctx: Context, cell: str, w: str) -> str:
    figures = ctx.figures
    if figures.fig(cell, w, "wire_per_call.bytes_c2s") is None:
        return "not measured"

    def per_call(name: str, digits: int) -> str:
        fig = figures.fig(cell, w, f"wire_per_call.{name}")
        return num(fig.median, digits) if fig else "–"

    def any_above_zero(name: str) -> bool:
        """Whether either direction's figure of `name` (c2s, s2c) is over zero."""
        return any(f is not None and f.median > 0
                   for f in (figures.fig(cell, w, f"wire_per_call.{name}_{d}") for d in ("c2s", "s2c")))
    if figures.fig(cell, w, "wire_per_call.payload_c2s") is None:
        return (f"frames {per_call('bytes_c2s', 4)} / {per_call('bytes_s2c', 4)} "
                f"({per_call('packets_c2s', 2)} / {per_call('packets_s2c', 2)})")
    resent_bytes = (f" = {per_call('resent_payload_c2s', 4)} / {per_call('resent_payload_s2c', 4)} B, "
                    "not in the payload"
                    if figures.fig(cell, w, "wire_per_call.resent_payload_c2s") is not None else "")
    resends = (f"; resent {per_call('retransmitted_c2s', 2)} / {per_call('retransmitted_s2c', 2)}{resent_bytes}"
               if any_above_zero("retransmitted") else "")
    apart = (f"; the library's own {per_call('background_payload_c2s', 4)} / "
             f"{per_call('background_payload_s2c', 4)} B, not in the payload"
             if any_above_zero("background_payload") else "")
    return (f"{per_call('payload_c2s', 4)} / {per_call('payload_s2c', 4)} "
            f"({per_call('data_segments_c2s', 2)} / {per_call('data_segments_s2c', 2)}; "
            f"bare {per_call('empty_segments_c2s', 2)} / {per_call('empty_segments_s2c', 2)}{resends}{apart})")


def connections(ctx: Context, cell: str, w: str) -> str:
    """New connections per 1,000 calls, and where there are any, the sockets left in TIME_WAIT."""
    figures = ctx.figures
    conn = figures.fig(cell, w, "wire_per_call.connections")
    if not conn:
        return "not measured"
    text = median(conn, 3, 1000)
    tw_client, tw_server = (figures.fig(cell, w, f"time_wait.{side}") for side in ("client", "server"))
    if conn.median > 0 and tw_client and tw_server:
        text += f" (TIME_WAIT {num(tw_client.median, 3)} / {num(tw_server.median, 3)})"
    return text
