"""Which sections a report has, in order, each built from the run's figures and flags as blocks."""
from ..blocks import Heading, Numbered
from . import comparisons, host, overview, studies
from .context import Context
from .protocol import protocol


def document(ctx: Context) -> list:
    out = overview.outcomes(ctx) + overview.environment(ctx) + host.floor(ctx) + host.steal_and_probe(ctx)
    for name in ctx.figures.protocols:
        out += protocol(ctx, name)
    out += (comparisons.negative_tests(ctx) + comparisons.side_by_side(ctx) + comparisons.message_sizes(ctx)
            + comparisons.against_baseline(ctx) + studies.against_the_study(ctx))
    # last, once every section has referred to its notes
    return out + notes(ctx)


def notes(ctx: Context) -> list:
    if not ctx.notes.texts:
        return []
    return [Heading(2, "Notes"), Numbered(ctx.notes.texts)]
