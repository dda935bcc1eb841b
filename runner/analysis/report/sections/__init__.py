"""Which sections a report has, in order, each built from the run's figures and flags as blocks: REPORT.md's
summary (summary.py), then a detail file per protocol, one for hostile peers (the battery's survival matrix and
the negative tests), one for latency under load when the run has load points (load.py) and one for the
run (report/<name>.md beside it)."""
from dataclasses import replace

from ..blocks import Code, Heading, Link, Notes, Numbered, Paragraph, Text
from . import comparisons, host, hostile, load, overview, summary
from .context import Context
from .protocol import protocol

SUMMARY = "REPORT.md"


def documents(ctx: Context) -> dict[str, list]:
    """Each file of the report (its path relative to the run folder) and its blocks, each file with its own
    notes: REPORT.md first, then report/<protocol>.md in the run's order, then report/run.md."""
    out = {SUMMARY: summary.summary(replace(ctx, notes=Notes()))}
    back = Paragraph(Text("Part of the report of run ", Code(ctx.run["run_id"]), ": ",
                          Link("the summary", f"../{SUMMARY}"), "."))
    for name in ctx.figures.protocols:
        mine = replace(ctx, notes=Notes())
        blocks = protocol(mine, name)
        title = Heading(1, Text(Code(name), f" in run {ctx.run['run_id']}"))
        out[summary.detail_path(name)] = [title, back] + blocks[1:] + notes(mine)
    mine = replace(ctx, notes=Notes())
    out[summary.detail_path(hostile.HOSTILE)] = [Heading(1, f"Hostile peers in run {ctx.run['run_id']}"), back] \
        + hostile.hostile_peers(mine) + notes(mine)
    if ctx.load_points:
        mine = replace(ctx, notes=Notes())
        out[summary.detail_path(load.LOAD)] = [Heading(1, f"Latency under load in run {ctx.run['run_id']}"), back] \
            + load.load_points(mine) + notes(mine)
    mine = replace(ctx, notes=Notes())
    out[summary.detail_path(summary.RUN_DETAIL)] = [Heading(1, f"Run {ctx.run['run_id']} in detail"), back] \
        + run_detail(mine) + notes(mine)
    return out


def run_detail(ctx: Context) -> list:
    out = overview.outcomes(ctx)[1:] + overview.environment(ctx) + host.floor(ctx) + host.steal_and_probe(ctx)
    return out + comparisons.side_by_side(ctx) + comparisons.message_sizes(ctx) + comparisons.against_baseline(ctx)


def document(ctx: Context) -> list:
    """Every file's blocks in one list, in documents' order (what the tests read as one text)."""
    return [block for blocks in documents(ctx).values() for block in blocks]


def notes(ctx: Context) -> list:
    """The file's notes, last, once every section has referred to them."""
    if not ctx.notes.texts:
        return []
    return [Heading(2, "Notes"), Numbered(ctx.notes.texts)]
