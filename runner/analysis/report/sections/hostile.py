"""report/hostile-peers.md: how the servers take bad and malicious input. The battery's survival matrix when a
battery was attached to the run (`runner/rpcmatrix battery --vectors-run RUN`), and the security negative
tests every cell ran (the attack vectors of idl/vectors.json)."""
import json

from ... import battery
from ..blocks import Bullets, Code, Heading, Paragraph, Strong, Table, Text
from . import comparisons
from .context import Context

HOSTILE = "hostile-peers"  # report/hostile-peers.md


def regressions(ctx: Context) -> tuple[list[str], list[str]]:
    """Against runner/battery-expected.json: what now fails that held, and what changed otherwise."""
    expected = json.loads(battery.EXPECTED.read_text())["expected"] if battery.EXPECTED.exists() else []
    return battery.regressions(ctx.battery, expected)


def survival(ctx: Context) -> list:
    overload = battery.overload_lines(ctx.load_points)
    if not ctx.battery and overload:
        header, rows = battery.matrix_table(overload)
        return [Heading(2, "Survival matrix"),
                Paragraph(Text(f"Overload of this load run's {len(rows)} servers (report/load.md). ", battery.LEGEND,
                               " No battery was attached to this run: ", Code("just battery"), " after it adds every "
                               "attack beside.")),
                Table(header, rows)]
    if not ctx.battery:
        return [Heading(2, "Survival matrix"),
                Paragraph(Text("No battery was attached to this run: ", Code("just battery"), " after a run attacks "
                               "every server of every protocol it takes and attaches its survival matrix to ",
                               Code("results/latest"), "."))]
    header, rows = battery.matrix_table(ctx.battery + overload)
    servers = len(rows)
    attacks = sum(1 for line in ctx.battery if line["attack"] not in ("start", "sigterm"))
    bad, changed = regressions(ctx)
    out = [Heading(2, "Survival matrix"),
           Paragraph(Text(f"{attacks} attacks on {servers} servers, each server a process of its own started as the "
                          "cells start theirs. ", battery.LEGEND)),
           Table(header, rows),
           Heading(3, "Against the expected outcomes (runner/battery-expected.json)"),
           Bullets([Text(Strong("regression"), f": {b}") for b in bad] or ["no regression"]),
           ]
    if changed:
        out.append(Bullets([f"changed: {c}" for c in changed]))
    return out


def summary_line(ctx: Context) -> str:
    """The summary's link to this file, with what it holds."""
    if not ctx.battery and ctx.load_points:
        return "overload's outcome per server (no battery attached)"
    if not ctx.battery:
        return "negative tests of the secured protocols (no battery attached)"
    bad, _ = regressions(ctx)
    servers = len({(line["protocol"], line["server"]) for line in ctx.battery})
    return (f"the battery's survival matrix ({servers} servers, "
            f"{'no regression' if not bad else f'{len(bad)} regressions'}) and the negative tests")


def hostile_peers(ctx: Context) -> list:
    return survival(ctx) + comparisons.negative_tests(ctx)
