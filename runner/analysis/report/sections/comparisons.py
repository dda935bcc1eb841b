"""The sections across protocols: what secured servers refuse, the headline workloads side by side, the
message size on the wire, and every protocol against the raw baseline."""
from ...records import attacks_ran
from ..blocks import Code, Heading, Mark, Paragraph, Status, Table, Text, Value
from ..figures import plain_sibling
from ..flags import Flag, unstable
from ..text import NONE, one_line, times
from .context import Context


def negative_tests(ctx: Context) -> list:
    """The attack vectors (CONTRACT.md#vectors) of every cell whose protocol has what they need: each must
    be refused, and the server must serve a correct call right after."""
    attacks = ctx.run.get("attack_vectors") or {}
    shown, ran_per_cell = attacks_ran([(c["name"], ctx.figures.record(c["name"], "vectors"))
                                       for c in ctx.figures.cells], attacks)
    if not ran_per_cell:
        return []
    rows = []
    for name, ran in ran_per_cell:
        row = [Code(name)]
        for i in shown:
            v = ran.get(i)
            if v is None:
                row.append(NONE)
                continue
            status, reason = Status(v["status"]), one_line(v.get("reason", ""))
            # how a refusal looked fits in the table; why a test failed goes to the notes, whole
            row.append(Text(status) if not reason else Text(status, f" {reason[:90]}") if v["status"] == "pass"
                       else Text(status, " ", ctx.notes.ref(v["reason"])))
        rows.append(row)
    return [Heading(2, "Negative tests: what secured servers refuse"),
            Paragraph("Each defective call must be refused (the note says how) and a correct call on a new connection "
                      "must succeed right after (CONTRACT.md, attacks). – = the protocol does not have what the test "
                      "needs."),
            Table(["cell"] + [attacks[i] for i in shown], rows)]


def side_by_side(ctx: Context) -> list:
    """The headline workloads with every protocol (each variant its own column) for each language pair."""
    figures = ctx.figures
    headline = ctx.run.get("headline_workloads") or []
    if not headline or len(figures.protocols) < 2:
        return []
    out = [Heading(2, "Protocols side by side"),
           Paragraph("Median round-trip time in µs (median across passes when there are several), and in brackets as "
                     "a multiple of the baseline for the same pair of languages; rows are client→server.")]
    pairs = list(dict.fromkeys((c["client"], c["server"]) for c in figures.cells))
    for w in headline:
        rows = []
        for client, server in pairs:
            row, any_value = [f"{client}→{server}"], False
            for p in figures.protocols:
                name = f"{p}/{client}→{server}"
                p50 = figures.fig(name, w, "rtt_us.p50")
                if p50 is None:
                    rec = figures.record(name, w)
                    row.append(Status(rec["status"]) if rec else NONE)
                    continue
                marks = (Mark(Flag.UNSTABLE),) if any(unstable(r) for r in figures.passing(name, w)) else ()
                ratio = figures.baseline_ratio(figures.cell(name), w) if name in figures.cell_names else None
                row.append(Text(Value(p50.median, marks=marks), Text(" (", times(ratio, ".1f"), ")")
                                if p != figures.baseline and ratio is not None else ""))
                any_value = True
            if any_value:
                rows.append(row)
        if rows:
            out += [Heading(3, w), Table(["client→server"] + figures.protocols, rows)]
    return out


def message_sizes(ctx: Context) -> list:
    figures = ctx.figures
    baseline = figures.baseline
    headline = ctx.run.get("headline_workloads", [])
    sizes = {(p, w): figures.wire_bytes(p, w) for p in figures.protocols for w in headline}
    workloads = [w for w in headline if any(sizes[(p, w)] for p in figures.protocols)]
    if not workloads:
        return []
    rows = []
    for protocol in figures.protocols:
        row, any_value = [Code(protocol)], False
        sibling = plain_sibling(protocol, ctx.run.get("registry") or {}, figures.protocols)
        for w in workloads:
            size = sizes[(protocol, w)]
            if size is None:
                row.append(NONE)
                continue
            any_value = True
            text = Text(Value(size, digits=4))
            base = sizes.get((baseline, w))
            if base and protocol != baseline:
                plain = sizes.get((sibling, w))
                text += Text(" (", times(size / base, ".1f"), f" {baseline}",
                             Text(", ", times(size / plain, ".1f"), f" {sibling}") if plain else "", ")")
            row.append(text)
        if any_value:
            rows.append(row)
    payload = any(figures.fig(c["name"], w, "wire_per_call.payload_c2s")
                  for p in figures.protocols for c in figures.cells_of(p) for w in workloads)
    basis = ("TCP payload: what the protocol sends, a connection's handshakes included, bare ACKs not, as they "
             "depend on timing" if payload else
             "Ethernet frames: headers, handshakes and acknowledgements included")
    return [Heading(2, "Message size on the wire"),
            Paragraph(Text(f"Bytes per call, both directions ({basis}), median over each protocol's cells; in "
                           "brackets as a multiple of ", Code(str(baseline)), " and, for a secured variant, of the "
                           "same protocol without security.")),
            Table(["protocol"] + workloads, rows)]


def against_baseline(ctx: Context) -> list:
    figures = ctx.figures
    baseline = figures.baseline
    if not baseline:
        return []
    out = [Heading(2, Text("Every protocol against the ", Code(baseline), " baseline")),
           Paragraph(Text("Median round-trip time as a multiple of ", Code(baseline), "'s for the same client and "
                          "server languages and the same workload (1.0 = as fast as the hand-written baseline)."))]
    workloads = list(dict.fromkeys(w for p in figures.protocols for w in ctx.workloads[p]))
    rows = []
    for protocol in figures.protocols:
        if protocol == baseline:
            continue
        for c in figures.cells_of(protocol):
            ratios = [figures.baseline_ratio(c, w) for w in workloads]
            if any(r is not None for r in ratios):
                rows.append([f"{protocol}/{c['client']}→{c['server']}"]
                            + [times(r) for r in ratios])
    if not rows:
        return out + [Paragraph("No cell has figures on both sides yet.")]
    return out + [Table(["cell"] + workloads, rows)]
