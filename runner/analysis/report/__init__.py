"""REPORT.md: the machine's floor, then per protocol the interop matrix, the implementations and their
thread models, and the tables of latency (with the handler's share), CPU, bytes, connections, warm-up and
memory; then every protocol against the raw TCP baseline for the same pair of languages.

A run of several passes shows every figure as the median across its passes with a 95% confidence
interval (stats.median_ci), and flags the figures whose passes disagree.

One job per module: figures (the numbers, across passes), flags (thresholds and what they flag), sections
(which sections, tables and prose, as blocks), text (numbers and marks as text) and markdown (blocks as
Markdown), so that another renderer can reuse the figures, flags and sections."""
from pathlib import Path

from . import markdown, sections
from .sections.context import Context


def render(run: Path, records: list[dict], cells: list[dict], verdict: dict) -> str:
    return markdown.render(sections.document(Context.load(run, records, cells, verdict)))
