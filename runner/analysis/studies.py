"""The five studies side by side with a run: each figure a study published (idl/studies.json) beside the
figure this run measured for it, the ratio measured / published and, where the two differ by more than 2×,
one line of reading (the figure's own or its study's: the era's hardware and network, an encoding that
differs, a setting).

Like for like, and each row says on what basis:
- the study's own stack where the suite has it (Java on both sides, for all five): `soap11` in a figure is
  the cell `soap11/java→java`; a figure may name another cell (`xmlrpc/java-lite→java`), and a list of
  protocols names alternatives, the first this run has standing in (WS-Security signed and encrypted, as
  Juric et al. ran it, else signed only);
- RTT in the study's statistic (Juric's trimmed mean, a median, a mean); a ratio of two stacks whose cost
  dwarfed the path in the study (`net_of_path`) is taken net of it: each RTT less the raw TCP baseline's for
  the same languages, the gross ratio beside it;
- bytes as the study counted them: `payload` (TCP data bytes, as tcpdump gives them), estimated from our
  Ethernet frames as bytes − 66 × packets, or `frames` (whole frames, as Ethereal counts them), ours as
  counted;
- a study's totals over a session of many calls (`per_calls`) against ours per call times as many, and a
  call of ours that makes several round trips (`round_trips`) divided to one.

A figure not measured says why: not producible by the suite (the data file's reason), its protocol not in
the run (opt-in: the registry's reason), its workload not in the profile, or its cell unsupported or failed
(the records' reason). Over several passes a figure is the median of its per-pass values with a 95%
interval (report.figures)."""
import json
import math
import statistics
from dataclasses import dataclass
from pathlib import Path

from . import records, setup
from .report import markdown
from .report.blocks import Code, Heading, Paragraph, Table, Text, Value
from .report.figures import Figure, figure
from .report.sections.context import Context
from .report.text import NONE, one_line, value

IDL = Path(__file__).resolve().parents[2] / "idl"
STUDIES_FILE = "studies.json"
STUDY_REPORT = "STUDY.md"
# What idl/studies.json may say, and what each quantity is given in.
MEASURED = ("rtt", "rtt-ratio", "instantiation-ratio", "bytes", "bytes-ratio", "packets", "cpu-client", "cpu-server",
            "order", "similar")
UNITS = {"rtt": ("ms", "s"), "rtt-ratio": ("×",), "instantiation-ratio": ("×",), "bytes": ("bytes",),
         "bytes-ratio": ("×",), "packets": ("packets",), "cpu-client": ("ms", "s"), "cpu-server": ("ms", "s"),
         "order": (None,), "similar": (None,),
         # only ever not producible: what the suite does not measure at all
         "memory": ("MB",), "code-size": ("lines",), "time-share": ("%",), "compute-time": ("s",)}
QUANTITIES = tuple(UNITS)
STATISTICS = {"p50": "median RTT", "trimmed_mean": "Juric's trimmed mean RTT", "mean": "mean RTT"}
DIRECTIONS = {"request": ("c2s",), "response": ("s2c",), "both": ("c2s", "s2c")}
BASES = ("payload", "frames")
# Headers above a TCP payload in one of our frames: Ethernet 14, IPv4 20, TCP 20 and its 12-byte timestamp
# option (tcp_timestamps is on, env.json's network). SYNs carry a few more option bytes: an estimate.
FRAME_HEADERS = 66
MICROSECONDS = {"ms": 1e3, "s": 1e6}
# A measured time is shown in the largest of these it is at least one of (the published one as printed).
TIME_UNITS = (("s", 1e6), ("ms", 1e3), ("µs", 1.0))
# Measured / published beyond these bounds gets a line of reading.
FAR = 2.0
HEADER = ["figure (source)", "published", "measured", "on", "measured / published", "reading"]
INTRO = Text("Each published figure beside this run's: on the study's own stack (Java client and server) where "
             "the suite has it, in the study's statistic and unit, and on its basis (the ", Code("on"), " column "
             "says which cells and how). Where the two differ by more than 2× a line says what differs. The suite "
             "has one path, client and server in two network namespaces on one host: a study's local and networked "
             "figures both meet it. Over several passes a measured figure is the median of its passes with a 95% "
             "interval in brackets.")


class StudyError(ValueError):
    pass


class Missing(Exception):
    """Why a figure has no measured value in this run: its one argument, text (str or blocks.Text)."""

    @property
    def text(self) -> Text:
        return Text(self.args[0])


@dataclass(frozen=True)
class Measure:
    """A figure as this run measured it: per pass, in the study's unit (a claim: its worst ratio)."""
    values: dict
    cells: list
    basis: Text | str


@dataclass(frozen=True)
class Row:
    """A figure's row: each cell a str, a Value or a Text."""
    figure: str
    published: object
    measured: object
    on: object
    ratio: object
    reading: object

    def cells(self) -> list:
        return [self.figure, self.published, self.measured, self.on, self.ratio, self.reading]


# -- the data file -----------------------------------------------------------------------------------------

def load(idl: Path = IDL) -> list[dict]:
    return json.loads((idl / STUDIES_FILE).read_text(encoding="utf-8"))["studies"]


def named(studies: list[dict], name: str) -> dict:
    found = next((s for s in studies if s["name"] == name), None)
    if found is None:
        raise StudyError(f"unknown study '{name}'; known: {', '.join(s['name'] for s in studies)}")
    return found


def of_profile(studies: list[dict], profile: str) -> list[dict]:
    """The studies whose experiments the profile runs."""
    return [s for s in studies if s["profile"] == profile]


# -- which cells, and why one has no figure ------------------------------------------------------------------

def cell_name(member: str, stack: dict) -> str:
    """A protocol on the study's own stack, or a cell named in full as it is."""
    return member if "/" in member else f"{member}/{stack['client']}→{stack['server']}"


def chosen(ctx: Context, member, stack: dict) -> str:
    """The cell a member stands for; of alternatives (a list), the first this run has, else the first."""
    names = [cell_name(m, stack) for m in (member if isinstance(member, list) else [member])]
    return next((n for n in names if n in ctx.figures.cell_names), names[0])


def why_missing(ctx: Context, cell: str, workload: str) -> Text:
    """Why this run has no figure for (cell, workload), from the run's cells, records and plan."""
    figures, protocol = ctx.figures, cell.split("/")[0]
    if protocol not in figures.protocols:
        left_out = next((e["reason"] for e in ctx.run.get("left_out") or []
                         if e["protocol"] == protocol and not e.get("implementation")), None)
        return Text(Code(protocol), " is not in this run", f" (opt-in: {left_out})" if left_out else "")
    if cell not in figures.cell_names:
        return Text("this run has no cell ", Code(cell))
    for part in (workload, "vectors"):
        rec = figures.record(cell, part)
        if rec is not None and rec["status"] != "pass":
            return Text(f"{rec['status']} on ", Code(cell), f": {one_line(rec.get('reason') or '')}")
    if workload in ctx.unsupported.get(protocol, {}):
        return Text(Code(workload), " unsupported on ", Code(protocol), f": {ctx.unsupported[protocol][workload]}")
    if workload != "vectors" and workload not in ctx.workloads.get(protocol, []):
        return Text(Code(workload), " is not in profile ", Code(ctx.run["profile"]["name"]))
    return Text("no record of ", Code(workload), " on ", Code(cell))


def per_pass(ctx: Context, cell: str, workload: str, value_of, what: str) -> dict:
    """The value of each pass whose record of (cell, workload) passed and has one; Missing when none has."""
    passing = ctx.figures.passing(cell, workload)
    values = {r.get("pass", 1): value_of(r) for r in passing}
    values = {p: v for p, v in values.items() if v is not None}
    if values:
        return values
    if not passing:
        raise Missing(why_missing(ctx, cell, workload))
    why = f" ({setup.wire(ctx.run)})" if what == "wire" and not setup.wire_measured(ctx.run) else ""
    raise Missing(Text(f"{what} not measured on ", Code(cell), why))


def combine(parts: list[dict], how) -> dict:
    """Per pass, `how` over the parts' values, for the passes every part has."""
    common = set.intersection(*(set(p) for p in parts))
    if not common:
        raise Missing("no pass has every part of the figure")
    return {p: how([part[p] for part in parts]) for p in sorted(common)}


def geomean(values: list) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


# -- the measures, one per quantity ----------------------------------------------------------------------------

def rtt(ctx: Context, cell: str, workload: str, stat: str) -> dict:
    return per_pass(ctx, cell, workload, lambda r: (r.get("rtt_us") or {}).get(stat), "RTT")


def baseline_of(ctx: Context, cell: str) -> str:
    base = ctx.figures.baseline_cell(ctx.figures.cell(cell)) if cell in ctx.figures.cell_names else None
    if base is None:
        raise Missing(Text("no ", Code(str(ctx.figures.baseline)), " cell for the languages of ", Code(cell),
                           ", to take the path off"))
    return base


def net_ratio(values: list) -> float | None:
    """(a − path of a) / (b − path of b); None when either is no slower than its path."""
    a, path_a, b, path_b = values
    return (a - path_a) / (b - path_b) if a > path_a and b > path_b else None


def workload_mean(spec: dict, stat_of) -> str:
    n = len(spec["workloads"])
    return stat_of + (f", geometric mean over {n} workloads" if n > 1 else "")


def measure_rtt(ctx: Context, study: dict, spec: dict) -> Measure:
    cell, stat = chosen(ctx, spec["protocols"][0], study["stack"]), spec.get("statistic", "p50")
    values = combine([rtt(ctx, cell, w, stat) for w in spec["workloads"]], geomean)
    scale = MICROSECONDS[spec["unit"]]
    return Measure({p: v / scale for p, v in values.items()}, [cell], workload_mean(spec, STATISTICS[stat]))


def measure_rtt_ratio(ctx: Context, study: dict, spec: dict) -> Measure:
    a, b = (chosen(ctx, m, study["stack"]) for m in spec["protocols"])
    stat = spec.get("statistic", "p50")
    gross = combine([combine([rtt(ctx, a, w, stat), rtt(ctx, b, w, stat)], lambda v: v[0] / v[1])
                     for w in spec["workloads"]], geomean)
    basis = workload_mean(spec, STATISTICS[stat])
    if not spec.get("net_of_path"):
        return Measure(gross, [a, b], basis)
    # the study's stacks cost far more than its path; ours cost so little that the path would drown them
    base_a, base_b = baseline_of(ctx, a), baseline_of(ctx, b)
    per_workload = [combine([rtt(ctx, c, w, stat) for c in (a, base_a, b, base_b)], net_ratio)
                    for w in spec["workloads"]]
    defined = [{p: v for p, v in part.items() if v is not None} for part in per_workload]
    if not all(defined):
        raise Missing(Text("no net of the path: ", Code(a), " or ", Code(b), " is no slower than the baseline (gross ",
                           Value(median_of(gross).median, prefix="×"), ")"))
    net = combine(defined, geomean)
    paths = Text.join(" and ", [Code(c) for c in dict.fromkeys((base_a, base_b))])
    return Measure(net, [a, b], Text(basis, ", net of the path (less ", paths, "); gross ",
                                     Value(median_of(gross).median, prefix="×")))


def measure_instantiation(ctx: Context, study: dict, spec: dict) -> Measure:
    a, b = (chosen(ctx, m, study["stack"]) for m in spec["protocols"])
    parts = [per_pass(ctx, c, "vectors", lambda r: r.get("instantiation_us"), "instantiation") for c in (a, b)]
    return Measure(combine(parts, lambda v: v[0] / v[1]), [a, b], "instantiation: creating the stub to the first ping")


def wire_value(spec: dict, counted: str):
    """A record's bytes or packets per call, in the figure's direction and basis."""
    sides = DIRECTIONS[spec.get("direction", "both")]

    def value(rec: dict) -> float | None:
        wire = rec.get("wire_per_call")
        if not wire or any(f"packets_{s}" not in wire for s in sides):  # not counted (a run cut short: connections)
            return None
        packets = sum(wire[f"packets_{s}"] for s in sides)
        if counted == "packets":
            return packets
        if spec.get("basis") == "payload" and all(f"payload_{s}" in wire for s in sides):
            return sum(wire[f"payload_{s}"] for s in sides)  # counted segment by segment (runner/lib/netns.sh)
        frames = sum(wire[f"bytes_{s}"] for s in sides)
        return frames - FRAME_HEADERS * packets if spec.get("basis") == "payload" else frames
    return value


def wire_basis(spec: dict, counted: str) -> str:
    side = {"request": "client to server", "response": "server to client", "both": "both directions"}
    text = f"{counted} per call, {side[spec.get('direction', 'both')]}"
    if counted == "bytes" and spec.get("basis") == "payload":
        text += f": TCP payload, estimated as frame bytes − {FRAME_HEADERS} × packets"
    elif counted == "bytes":
        text += ": Ethernet frames, headers included"
    return text


def scaled(spec: dict, values: dict, unit_us: float = 1.0) -> tuple[dict, str]:
    """Per call values to the study's own terms: one round trip of ours, times the calls of its totals."""
    factor, notes = 1.0 / unit_us, []
    if spec.get("round_trips"):
        factor /= spec["round_trips"]
        notes.append(f"÷ {spec['round_trips']} round trips per call")
    if spec.get("per_calls"):
        factor *= spec["per_calls"]
        notes.append(f"× {spec['per_calls']:,} calls, the study's session")
    return {p: v * factor for p, v in values.items()}, "; ".join(notes)


def measure_wire(ctx: Context, study: dict, spec: dict, counted: str) -> Measure:
    cell = chosen(ctx, spec["protocols"][0], study["stack"])
    values = combine([per_pass(ctx, cell, w, wire_value(spec, counted), "wire") for w in spec["workloads"]], sum)
    values, how = scaled(spec, values)
    return Measure(values, [cell], "; ".join(filter(None, [wire_basis(spec, counted), how])))


def measure_bytes_ratio(ctx: Context, study: dict, spec: dict) -> Measure:
    a, b = (chosen(ctx, m, study["stack"]) for m in spec["protocols"])
    bytes_of = wire_value(spec, "bytes")
    ratios = [combine([per_pass(ctx, c, w, bytes_of, "wire") for c in (a, b)], lambda v: v[0] / v[1])
              for w in spec["workloads"]]
    return Measure(combine(ratios, geomean), [a, b], workload_mean(spec, wire_basis(spec, "bytes")))


def measure_cpu(ctx: Context, study: dict, spec: dict) -> Measure:
    side = spec["quantity"].removeprefix("cpu-")
    cell = chosen(ctx, spec["protocols"][0], study["stack"])
    values = combine([per_pass(ctx, cell, w, lambda r: (r.get("cpu_us_per_call") or {}).get(side), "CPU")
                      for w in spec["workloads"]], sum)
    values, how = scaled(spec, values, MICROSECONDS[spec["unit"]])
    return Measure(values, [cell], "; ".join(filter(None, [f"{side} CPU per call (cgroup)", how])))


def member_rtts(ctx: Context, study: dict, spec: dict, members: list) -> tuple[dict, list]:
    """Each member's RTT per pass for each workload of the figure this run has, and why a member has none."""
    stat, found, dropped = spec.get("statistic", "p50"), {}, []
    for member in members:
        cell, values, why = chosen(ctx, member, study["stack"]), {}, None
        for w in spec["workloads"]:
            try:
                values[w] = rtt(ctx, cell, w, stat)
            except Missing as missing:
                why = why or missing.text
        if values:
            found[cell] = values
        else:
            dropped.append(Text("without ", Code(cell), ": ", why))
    return found, dropped


def shared_workloads(spec: dict, groups: list[dict]) -> list[str]:
    """The figure's workloads that every member found has: a claim is checked on those alone."""
    return [w for w in spec["workloads"] if all(w in values for group in groups for values in group.values())]


def worst(workloads: list[str], groups: list[dict], ratio_of) -> dict:
    """Per pass, the worst over the workloads of ratio_of(the values of each group's members)."""
    per_workload = []
    for w in workloads:
        parts = [values[w] for group in groups for values in group.values()]
        per_workload.append(combine(parts, lambda v: ratio_of(v, [len(g) for g in groups])))
    return combine(per_workload, max)


def claim_basis(spec: dict, how: str, workloads: list[str], worst_case: Text, dropped: list[Text]) -> Text:
    return Text.join("; ", [f"{STATISTICS[spec.get('statistic', 'p50')]}: {how}, worst of {', '.join(workloads)}",
                            worst_case] + dropped)


def medians(group: dict, workload: str) -> dict:
    """Each member's median across passes for the workload."""
    return {cell: statistics.median(values[workload].values()) for cell, values in group.items()}


def worst_case(workloads: list[str], top_group: dict, bottom_group: dict) -> str:
    """Where a claim comes closest to failing, or fails most: the workload, the slowest of the top group
    and the fastest of the bottom one (for `similar`, one group: its slowest and fastest)."""
    def gap(w: str) -> tuple:
        top, bottom = medians(top_group, w), medians(bottom_group, w)
        slowest, fastest = max(top, key=top.get), min(bottom, key=bottom.get)
        return top[slowest] / bottom[fastest], w, slowest, fastest
    _, w, slowest, fastest = max(gap(w) for w in workloads)
    return Text(f"worst on {w}: ", Code(slowest), " against ", Code(fastest))


def first_reason(dropped: list[Text]) -> Text:
    if not dropped:
        return Text("no member")
    return Text(dropped[0], f" (and {len(dropped) - 1} more)" if len(dropped) > 1 else "")


def measure_order(ctx: Context, study: dict, spec: dict) -> Measure:
    faster, dropped = member_rtts(ctx, study, spec, spec["faster"])
    slower, more = member_rtts(ctx, study, spec, spec["slower"])
    workloads = shared_workloads(spec, [faster, slower])
    if not faster or not slower or not workloads:
        raise Missing(first_reason(dropped + more) if not faster or not slower
                      else "no workload of the figure measured on every member")
    # the slowest of the faster side over the fastest of the slower: below 1 the order holds
    values = worst(workloads, [faster, slower], lambda v, n: max(v[:n[0]]) / min(v[n[0]:]))
    return Measure(values, list(faster) + list(slower),
                   claim_basis(spec, f"the slowest of the first {len(faster)} over the fastest of the rest",
                               workloads, worst_case(workloads, faster, slower), dropped + more))


def measure_similar(ctx: Context, study: dict, spec: dict) -> Measure:
    found, dropped = member_rtts(ctx, study, spec, spec["protocols"])
    workloads = shared_workloads(spec, [found])
    if len(found) < 2 or not workloads:
        raise Missing(first_reason(dropped) if len(found) < 2 else "no workload of the figure measured on every member")
    values = worst(workloads, [found], lambda v, n: max(v) / min(v))
    return Measure(values, list(found), claim_basis(spec, "slowest over fastest", workloads,
                                                    worst_case(workloads, found, found), dropped))


MEASURES = {"rtt": measure_rtt, "rtt-ratio": measure_rtt_ratio, "instantiation-ratio": measure_instantiation,
            "bytes": lambda c, s, f: measure_wire(c, s, f, "bytes"),
            "packets": lambda c, s, f: measure_wire(c, s, f, "packets"), "bytes-ratio": measure_bytes_ratio,
            "cpu-client": measure_cpu, "cpu-server": measure_cpu, "order": measure_order,
            "similar": measure_similar}


def median_of(values: dict) -> Figure:
    return figure(list(values.values()))


# -- a row per figure ----------------------------------------------------------------------------------------

def with_unit(unit: str | None) -> dict:
    """A figure's unit as Value's prefix (×) or unit."""
    return {"prefix": "×"} if unit == "×" else {"unit": f" {unit}"} if unit else {}


def published_text(spec: dict) -> Text:
    if spec["quantity"] == "order":
        return Text("claimed (charts without numbers)")
    if spec["quantity"] == "similar":
        return Text("claimed; read as within ", Value(spec["within"], spec="g", prefix="×"))
    return Text(Value(spec["published"], spec=",", **with_unit(spec.get("unit"))),
                f" per {spec['per_calls']:,} calls" if spec.get("per_calls") else "")


def is_claim(spec: dict) -> bool:
    return spec["quantity"] in ("order", "similar")


def claim_holds(spec: dict, fig: Figure) -> bool:
    return fig.median < 1 if spec["quantity"] == "order" else fig.median <= spec["within"]


def readable_time(fig: Figure, unit: str) -> Value:
    """A time in the largest unit it has at least one of: 0.000111 s reads 111 µs."""
    in_us = fig.median * MICROSECONDS[unit]
    name, size = next(((n, size) for n, size in TIME_UNITS if in_us >= size), TIME_UNITS[-1])
    return value(fig, scale=MICROSECONDS[unit] / size, unit=f" {name}")


def measured_text(spec: dict, fig: Figure) -> Text:
    if is_claim(spec):
        return Text(f"{'holds' if claim_holds(spec, fig) else 'does not hold'}: worst ", value(fig, prefix="×"))
    if spec.get("unit") in MICROSECONDS:
        return Text(readable_time(fig, spec["unit"]))
    return Text(value(fig, digits=4 if spec["quantity"] in ("bytes", "packets") else 3, **with_unit(spec.get("unit"))))


def stand_ins(ctx: Context, study: dict, spec: dict) -> list[Text]:
    """For each list of alternatives whose first this run has not, which cell stood in."""
    members = spec.get("protocols", []) + spec.get("faster", []) + spec.get("slower", [])
    notes = []
    for member in (m for m in members if isinstance(m, list)):
        used, first = chosen(ctx, member, study["stack"]), cell_name(member[0], study["stack"])
        if used != first:
            notes.append(Text(Code(used), " stands in for ", Code(first), ", which this run has not"))
    return list(dict.fromkeys(notes))


def on_text(ctx: Context, study: dict, spec: dict, measure: Measure) -> Text:
    cells = Text.join(" ÷ " if spec["quantity"].endswith("-ratio") else ", ", [Code(c) for c in measure.cells])
    return Text.join("; ", [part for part in [cells, measure.basis, spec.get("note")] + stand_ins(ctx, study, spec)
                            if part])


def far_apart(ratio: float) -> bool:
    return ratio > FAR or ratio < 1 / FAR


def row(ctx: Context, study: dict, spec: dict) -> Row:
    """One published figure beside this run's, or why this run has none."""
    label = f"{spec['what']} ({spec['source']})"
    if spec.get("not_producible"):
        return Row(label, published_text(spec), NONE, NONE, NONE, f"not producible: {spec['not_producible']}")
    try:
        measure = MEASURES[spec["quantity"]](ctx, study, spec)
    except Missing as why:
        return Row(label, published_text(spec), NONE, NONE, NONE, Text("not measured: ", why.text))
    fig = median_of(measure.values)
    reading = spec.get("reading") or study["reading"]
    if is_claim(spec):
        return Row(label, published_text(spec), measured_text(spec, fig), on_text(ctx, study, spec, measure), NONE,
                   "" if claim_holds(spec, fig) else reading)
    ratio = fig.median / spec["published"]
    return Row(label, published_text(spec), measured_text(spec, fig), on_text(ctx, study, spec, measure),
               Value(ratio, digits=2), reading if far_apart(ratio) else "")


# -- blocks and text -------------------------------------------------------------------------------------------

def this_run(ctx: Context) -> Text:
    run = ctx.run
    path = ("client and server on one host, in two network namespaces joined by a veth pair"
            if setup.wire_measured(run) else "client and server over 127.0.0.1")
    scenario = ((run.get("setup") or {}).get("network") or {}).get("scenario")
    if scenario and scenario.get("spec"):
        path += f", the network {scenario['name']} between them ({scenario['spec']})"
    connection = ("each call on a new connection (--connection per-call)"
                  if (run.get("variant") or {}).get("connection") == "per-call" else "one kept connection per cell")
    passes = len(ctx.figures.passes)
    return Text("This run: ", Code(str(run.get("run_id", "?"))), ", profile ", Code(run["profile"]["name"]),
                f", {passes} pass{'es' if passes > 1 else ''}; {run.get('cpus', '?')} × {run.get('cpu_model', '?')}, "
                f"kernel {run.get('kernel', '?')}; {path}; {connection}.")


def study_blocks(ctx: Context, study: dict, level: int) -> list:
    rows = [row(ctx, study, spec).cells() for spec in study["figures"]]
    return [Heading(level, study["title"]), Paragraph(f"The study: {study['conditions']}"), Paragraph(this_run(ctx)),
            Table(HEADER, rows)]


def document(ctx: Context, studies: list[dict]) -> list:
    """STUDY.md: the given studies beside the run."""
    out = [Heading(1, Text("The studies side by side with run ", Code(str(ctx.run.get("run_id", "?"))))),
           Paragraph(INTRO)]
    for study in studies:
        out += study_blocks(ctx, study, 2)
    return out


def report_section(ctx: Context, idl: Path = IDL) -> list:
    """REPORT.md's section for a run of a study's profile: that study beside the run; nothing otherwise."""
    if not (idl / STUDIES_FILE).exists():
        return []
    out = []
    for study in of_profile(load(idl), ctx.run["profile"]["name"]):
        out += [Heading(2, "The published study side by side"), Paragraph(INTRO)] + study_blocks(ctx, study, 3)
    return out


def load_run(run: Path) -> Context:
    """The run's records, cells and figures, read as `python -m analysis render` reads them."""
    cells = [json.loads(line) for line in (run / "cells.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip()]
    return Context.load(run, records.load(run), cells, verdict={})


def text_for(run: Path, idl: Path = IDL, name: str | None = None, only_study_profile: bool = False) -> str:
    """STUDY.md's text for the run: the named study, else the study of the run's profile, else all five;
    nothing when only_study_profile and the run's profile is no study's (or the IDL folder has no studies,
    as a test's fixture contract)."""
    if only_study_profile and not (idl / STUDIES_FILE).exists():
        return ""
    studies = load(idl)
    ctx = load_run(run)
    mine = of_profile(studies, ctx.run["profile"]["name"])
    if name:
        chosen_studies = [named(studies, name)]
    elif only_study_profile:
        chosen_studies = mine
    else:
        chosen_studies = mine or studies
    return markdown.render(document(ctx, chosen_studies)) if chosen_studies else ""
