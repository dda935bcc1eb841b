"""The report of a run: REPORT.md, a summary of what a reader came for (sections/summary.py), with a detail
file per protocol and one for the run under report/ (the machine's floor, per protocol the interop matrix,
the implementations and their thread models, and the tables of latency, CPU, bytes, connections, warm-up
and memory; every protocol against the raw TCP baseline), and report.html, the same figures with charts.

A run of several passes shows every figure as the median across its passes with a 95% confidence
interval (stats.median_ci), and flags the figures whose passes disagree.

One job per module: figures (the numbers, across passes), flags (thresholds and what they flag), blocks (the
pieces of a report as data: headings, paragraphs, tables and lists, their text a sequence of typed runs and their
cells figures, statuses, code, links, strong or plain text), sections (which sections, tables and prose, as
blocks), text (how figures, statuses and marks read, and text as plain text), markdown (blocks as Markdown), html
(blocks and charts as one self-contained HTML file) and tables (publication tables as Markdown, CSV or LaTeX).
Each renderer formats the blocks itself: none reads another's output."""
import json
from pathlib import Path

from ..records import COMPARE_DATA
from . import markdown, sections, tables  # noqa: F401 (tables: reached as report.tables)
from .sections.context import Context

HTML = "report.html"


def files(run: Path, records: list[dict], cells: list[dict], verdict: dict) -> dict[str, str]:
    """Each Markdown file of the report (path relative to the run folder) and its text, REPORT.md first."""
    ctx = Context.load(run, records, cells, verdict)
    return {path: markdown.render(blocks) for path, blocks in sections.documents(ctx).items()}


def render(run: Path, records: list[dict], cells: list[dict], verdict: dict) -> str:
    """REPORT.md: the summary (files() gives the detail files too)."""
    return files(run, records, cells, verdict)[sections.SUMMARY]


def write(run: Path, records: list[dict], cells: list[dict], verdict: dict) -> dict[str, str]:
    """Write REPORT.md and report/*.md into the run folder; return them."""
    texts = files(run, records, cells, verdict)
    for path, text in texts.items():
        (run / path).parent.mkdir(parents=True, exist_ok=True)
        (run / path).write_text(text, encoding="utf-8")
    return texts


def render_html(run: Path, records: list[dict], cells: list[dict], verdict: dict) -> str:
    """report.html (html.render): the same figures, flags and blocks with charts, in one self-contained file,
    with the run's comparison with another when `compare` saved one into its folder (COMPARE_DATA)."""
    from . import html
    saved = run / COMPARE_DATA
    compare = html.compare_sections(json.loads(saved.read_text(encoding="utf-8"))) if saved.exists() else None
    return html.render(Context.load(run, records, cells, verdict), compare)


def html_budget() -> int:
    from . import html
    return html.BUDGET_BYTES


def write_html(run: Path, records: list[dict], cells: list[dict], verdict: dict) -> int:
    """Write report.html into the run folder; return its size in bytes."""
    text = render_html(run, records, cells, verdict).encode("utf-8")
    (run / HTML).write_bytes(text)
    return len(text)
