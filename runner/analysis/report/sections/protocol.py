"""A protocol's section: its interop matrix and published metadata, what it cannot carry or run, its
implementations and their thread models, its figures per timed workload (metrics), warm-up and memory."""
from ..blocks import Bullets, Code, Heading, Paragraph, Status, Strong, Table, Text, Value
from ..text import NONE, facts, value
from . import metrics, variant
from .context import Context


def protocol(ctx: Context, name: str) -> list:
    return ([Heading(2, name), Heading(3, "Interop: vectors per cell"), interop_matrix(ctx, name)]
            + metadata_matrix(ctx, name) + unsupported_vectors(ctx, name) + unsupported_workloads(ctx, name)
            + implementations(ctx, name) + stack_notes(ctx, name) + tuning(ctx, name)
            + variant.note(ctx.run) + metrics.tables(ctx, name) + warmup(ctx, name) + memory(ctx, name))


def interop_matrix(ctx: Context, protocol: str) -> Table:
    cells = ctx.figures.cells_of(protocol)
    servers = list(dict.fromkeys(c["server"] for c in cells))
    rows = [[Strong(client)] + [matrix_cell(ctx, f"{protocol}/{client}→{server}") for server in servers]
            for client in dict.fromkeys(c["client"] for c in cells)]
    return Table(["client \\ server"] + servers, rows)


def matrix_cell(ctx: Context, name: str) -> Text:
    """The cell's vectors: how many passed, or its status with a note on why."""
    rec = ctx.figures.record(name, "vectors")
    if rec is None:
        return Text("not run")
    status = Status(rec["status"])
    where = ctx.pass_label(rec.get("pass", 1)) if rec["status"] not in ("pass", "unsupported") else ""
    if rec.get("vectors"):
        passed = sum(1 for v in rec["vectors"] if v["status"] == "pass")
        unsup = sum(1 for v in rec["vectors"] if v["status"] == "unsupported")
        text = Text(status, f" {passed}/{len(rec['vectors'])} pass", f", {unsup} unsupported" if unsup else "")
        if rec["status"] != "pass":
            text += Text(where, " ", ctx.notes.ref(rec["reason"]))
        return text
    return Text(status, f" {rec['status']}{where} ", ctx.notes.ref(rec["reason"]))


def metadata_matrix(ctx: Context, protocol: str) -> list:
    """Whether each client stack could build its client from each server's published metadata (a SOAP
    server's ?wsdl), beside the calls, which use the contract's own IDL."""
    figures = ctx.figures
    cells = [c for c in figures.cells_of(protocol) if "metadata" in (figures.record(c["name"], "vectors") or {})]
    if not cells:
        return []
    servers = list(dict.fromkeys(c["server"] for c in cells))
    rows = []
    for client in dict.fromkeys(c["client"] for c in cells):
        row = [Strong(client)]
        for server in servers:
            m = (figures.record(f"{protocol}/{client}→{server}", "vectors") or {}).get("metadata")
            if m is None:
                row.append(NONE)
            else:
                mark = {True: Text(Status("pass")), False: Text(Status("fail")),
                        None: Text(Status("error"), " not checked")}[m["consumable"]]
                row.append(Text(mark, " ", ctx.notes.ref(m["reason"])) if m["reason"] else mark)
        rows.append(row)
    return [Heading(3, "Published metadata"),
            Paragraph("Can the client's stack build a working client from the metadata the server publishes (not "
                      "the contract's own file, which the calls use)?"),
            Table(["client \\ server"] + servers, rows)]


def unsupported_vectors(ctx: Context, protocol: str) -> list:
    reasons: dict[str, set] = {}
    for c in ctx.figures.cells_of(protocol):
        for v in (ctx.figures.record(c["name"], "vectors") or {}).get("vectors", []):
            if v["status"] == "unsupported":
                reasons.setdefault(v.get("reason", ""), set()).add(v["id"])
    if not reasons:
        return []
    return [Paragraph(Text("Vectors this protocol cannot carry (reported ", Code("unsupported"), " by every client):")),
            Bullets([f"{', '.join(sorted(ids))}: {reason}" for reason, ids in sorted(reasons.items())])]


def unsupported_workloads(ctx: Context, protocol: str) -> list:
    lacks = ctx.unsupported[protocol]
    if not lacks:
        return []
    return [Paragraph("Workloads of the profile this protocol cannot run (idl/protocols.json):"),
            Bullets([f"{name}: {reason}" for name, reason in lacks.items()])]


def implementations(ctx: Context, protocol: str) -> list:
    """Every server and client implementation of the protocol: library, thread model, settings and what
    it reported about itself at run time."""
    seen: dict[tuple, list] = {}
    reported: dict[tuple, list[str]] = {}
    for c in ctx.figures.cells_of(protocol):
        for role in ("server", "client"):
            key = (c[role], role)
            if key not in seen:
                seen[key] = [c.get(f"{role}_language", c[role]), c.get(f"{role}_library") or "",
                             c.get(f"{role}_thread_model") or "not given", c.get(f"{role}_settings") or ""]
            for r in ctx.figures.runs(c["name"], "vectors"):
                f = (r.get("facts") or {}).get(role)
                if f:
                    text = facts(f)
                    if text not in reported.setdefault(key, []):
                        reported[key].append(text)
    if not seen:
        return []
    rows = [[Code(impl), role, *values, "; ".join(reported.get((impl, role), [])) or NONE]
            for (impl, role), values in sorted(seen.items(), key=lambda kv: (kv[0][1] != "server", kv[0][0]))]
    return [Heading(3, "Implementations and thread models"),
            Paragraph("From the manifests; the last column is what each stack reported about itself at run time."),
            Table(["implementation", "role", "language", "library", "thread model", "settings", "reported at run time"],
                  rows)]


def stack_notes(ctx: Context, protocol: str) -> list:
    """The manifests' notes on each language's implementation of this protocol, once per language."""
    notes: dict[str, list[str]] = {}
    for c in ctx.figures.cells_of(protocol):
        for role in ("server", "client"):
            texts = notes.setdefault(c[role], [])
            texts += [text for text in c.get(f"{role}_notes") or [] if text not in texts]
    if not any(notes.values()):
        return []
    return [Paragraph("Behaviour of these stacks that configuration cannot change (see the figures below):"),
            Bullets([f"{language}: {text}" for language, texts in notes.items() for text in texts])]


def tuning(ctx: Context, protocol: str) -> list:
    """Each implementation's settings against its library's own documentation and benchmarks (tuning.json)."""
    used = {c[role] for c in ctx.figures.cells_of(protocol) for role in ("server", "client")}
    rows = [[Code(entry["implementation"]), t["setting"], t["verdict"], t["ours"], t["reference"], t.get("why", "")]
            for entry in ctx.env.get("tuning", [])
            if protocol in entry.get("protocols", []) and entry.get("implementation") in used
            for t in entry.get("tuning", [])]
    if not rows:
        return []
    return [Heading(3, "Settings against the libraries' own"),
            Paragraph("How each implementation is set where it shapes latency, CPU or bytes, against what its "
                      "library's authors document or run in their own benchmarks (the languages' tuning.json)."),
            Table(["implementation", "setting", "verdict", "here", "the library's own", "why"], rows)]


def warmup(ctx: Context, protocol: str) -> list:
    rows = []
    for c in ctx.figures.cells_of(protocol):
        w = ctx.figures.warmup(c["name"], ctx.workloads[protocol])
        if w is None:
            continue
        not_steady = sorted({name + ctx.pass_label(p) for name, p in w.not_steady})
        rows.append([f"{c['client']}→{c['server']}", f"{w.steady}/{w.checked}", Value(w.elapsed_ms / 1000),
                     ", ".join(not_steady) or NONE, _jit_warmup(ctx, w.jit)])
    if not rows:
        return []
    return [Heading(4, "Warm-up"),
            Paragraph("Whether each workload's last warm-up before its timing (batches until their medians agree, "
                      "bounded per workload: the cell's re-warm, pinned, of processes the warm phase warmed, else its "
                      "full round) reached a steady state, and how long the full round took per pass; the workloads "
                      "that did not are marked ⌛ in the round-trip table. The last column is how the warm-up of "
                      "each JIT runtime's process ended before: quiet (its compiler threads under 5% of a CPU over "
                      "its last window of calls) or at its bound, after how many seconds, and the compiler threads' "
                      "share of a CPU over that last window."),
            Table(["client→server", "workloads steady", "warm-up, s", "not steady", "JIT warm-up"], rows)]


def _jit_warmup(ctx: Context, jit: dict) -> Text:
    """How each side's JIT warm-up ended, per pass: `server quiet after 23 s (1%)`."""
    parts = []
    for side in ("server", "client"):
        for p, ended, seconds, share in jit.get(side, []):
            how = {"quiet": "quiet after", "bound": "stopped at its bound,"}.get(ended, "unfinished after")
            parts.append(Text(f"{side}{ctx.pass_label(p)} {how} ", Value(seconds, unit=" s"),
                              Text(" (", Value(share, spec=".0%"), ")") if isinstance(share, (int, float)) else ""))
    return Text.join("; ", parts) or Text(NONE)


def memory(ctx: Context, protocol: str) -> list:
    rows = []
    for c in ctx.figures.cells_of(protocol):
        m = ctx.figures.memory(c["name"])
        if m is None:
            continue
        inst = m.instantiation
        stub = m.instantiation_stub
        rows.append([f"{c['client']}→{c['server']}",
                     Text(value(inst, 3, 1 / 1000), Text(" (", value(stub, 3, 1 / 1000), " from a stub in hand)")
                          if stub else "", " ♻" if m.kept_client and inst else ""),
                     _mib(m.client_peak_kb), _mib(m.server_peak_kb), _mib(m.server_after_kb),
                     _span(m.server_threads), _span(m.client_threads)])
    if not rows:
        return []
    return [Heading(4, "Instantiation, memory and threads"),
            Paragraph("Instantiation is the client's connect, to the first reply; ♻ marks a client process that had "
                      "already served another server of the protocol in that pass (its code loaded and compiled), so "
                      "compare it with the new ones only as a warm connect. "
                      "Peaks are reset before each workload's repetitions; shown is the largest over the workloads. "
                      "Threads: the processes' threads at the end of each workload (range over the workloads)."),
            Table(["client→server", "instantiation, ms (stub, with any registry or naming lookup, to first reply)",
                   "client peak RSS, MiB", "server peak RSS, MiB", "server RSS after, MiB", "server threads",
                   "client threads"], rows)]


def _mib(kb: int | None) -> Value:
    return Value(kb / 1024 if kb else None)


def _span(values: list) -> str:
    """One value, or the range of sorted values."""
    return NONE if not values else (str(values[0]) if len(values) == 1 else f"{values[0]}–{values[-1]}")
