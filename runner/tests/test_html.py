"""report.html: self-contained (no network, no script that runs), every matrix and chart there, the records
embedded, within its size budget on a run of a default run's size; and opened in headless Chromium through
the DevTools protocol (Playwright, Debian's chromium: runner/setup.sh installs it), where every matrix and chart
must render with no script error and no request, with a screenshot kept (/tmp/report_screenshot.png)."""
import json
import re
import shutil
import time
from pathlib import Path

import pytest

from analysis import __main__ as cli
from analysis import compare, report
from analysis.report import html
from synthetic_run import build

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOT = Path("/tmp/report_screenshot.png")
UNSUPPORTED = {"p1/dotnet→java": "no p1 in .NET", "p1/dotnet→python": "no p1 in .NET"}
FAILING = {"p2/java→java": "v1: got 2, wanted 3"}
KNOWN = {"expected": [{"cell": "p2/java→java", "workload": "vectors", "vector": "v1", "status": "fail",
                       "reason": "known"}], "unexpected": [], "stale": []}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html")
    run, recs, cells = build(folder, protocols=3, passes=2, workloads=("ping", "echoString"), calls=100,
                             unsupported=UNSUPPORTED, failing=FAILING)
    # as after `just compare BEFORE RUN`: the comparison saved into the run, drawn as a section of its own
    before, _, _ = build(folder / "before", protocols=3, passes=2, workloads=("ping", "echoString"), calls=100,
                         unsupported=UNSUPPORTED, failing=FAILING, seed=2)
    compare.save(compare.comparison(before, run), run)
    page = report.render_html(run, recs, cells, KNOWN)
    (run / report.HTML).write_text(page, encoding="utf-8")
    return run, recs, cells, page


def test_the_html_report_needs_nothing_from_outside_and_runs_no_script(small):
    page = small[3]
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"\b(src|href)=\"(https?:)?//", page)
    # the one script element is data (the records), which a browser does not run
    assert re.findall(r"<script[^>]*>", page) == [
        '<script type="application/json" id="rpcmatrix-records" data-encoding="gzip+base64">']
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_every_protocol_has_its_matrices_and_charts(small):
    run, recs, cells, page = small
    for p in ("rawtcp", "p1", "p2"):
        assert f'<table class="matrix interop" data-protocol="{p}">' in page
        assert f'<table class="matrix latency" data-protocol="{p}">' in page
        assert f'data-chart="distribution:{p}"' in page and f'data-chart="resources:{p}"' in page
    assert 'data-chart="side-by-side"' in page and 'data-chart="compare"' in page
    assert page.count("<svg") == 2 * 3 + 2
    # an outcome's reason on hover and in the table below; a known failure coloured as one
    assert 'class="unsup" title="unsupported: no p1 in .NET"' in page
    assert re.search(r'<td class="known" title="known failure: [^"]*v1: got 2, wanted 3', page)
    # the latency matrix coloured by the multiple of the baseline
    assert re.search(r'<td style="background:#[0-9a-f]{6}" title="p1/java→java ping: p50 [^"]+×[0-9.]+ rawtcp"', page)
    # the comparison compare saved: its summary, the environment's move, the pairs flagged and every pair
    section = page.split('<section id="compare">')[1].split("</section>")[0]
    assert "<h2>Compared with 20260101T000000Z-synthetic</h2>" in section
    pairs = re.search(r"<strong>\d+ slower, \d+ faster, \d+ ~ of (\d+) \(cell, workload\) pairs", section)
    assert pairs and "The environment (the machine's floor)" in section and "Pairs flagged (" in section
    assert f"<summary>Every pair ({pairs[1]})</summary>" in section and "kept no raw samples" in section
    # hostile peers: the survival matrix's place (no battery attached to this run) and the negative tests
    assert '<section id="s-hostile-peers"><h2>Hostile peers</h2>' in page and "No battery was attached" in page


def test_the_provenance_and_the_embedded_records(small):
    run, recs, cells, page = small
    head = page.split('<section id="summary">')[0]
    for text in ("0123456789abcdef (clean tree)", "Synthetic CPU (2 CPUs", "Debian 12, 6.1.0", "default, 2, 7",
                 "2026-01-01T00:01:00Z – 2026-01-01T00:02:", "jetty 9.4", "mono 6.8"):
        assert text in head, text
    data = html.records_of(page)
    assert len(data["records"]) == len(recs) and data["cells"] == cells and data["env"]["run"]["baseline"] == "rawtcp"


def test_compare_draws_its_section_into_the_run_s_html_report(tmp_path):
    run, recs, cells = build(tmp_path, protocols=2, passes=1, workloads=("ping",), calls=50)
    before, _, _ = build(tmp_path / "before", protocols=2, passes=1, workloads=("ping",), calls=50, seed=3)
    verdict = {"expected": [], "unexpected": [], "stale": []}
    (run / "verdict.json").write_text(json.dumps(verdict))
    report.write_html(run, recs, cells, verdict)
    assert '<section id="compare"></section>' in (run / report.HTML).read_text()
    # --no-html: the comparison saved (COMPARE.md, compare.json), the page left as it was
    assert cli.main(["compare", str(before), str(run), "--no-html"]) == 0
    saved = json.loads((run / "compare.json").read_text())
    assert saved["summary"]["pairs"] == 2 * 9 and saved["a"]["run_id"] == "20260101T000000Z-synthetic"
    assert '<section id="compare"></section>' in (run / report.HTML).read_text()
    # without it, the page is drawn again with the section; a run rendered later keeps it
    assert cli.main(["compare", str(before), str(run)]) == 0
    page = (run / report.HTML).read_text()
    assert 'data-chart="compare"' in page and html.inline(saved["summary_line"].split(";")[0]) in page
    assert "<p>Values compared: each pass's p50 (one value per process instance); the runs kept no raw" in page
    assert 'data-chart="compare"' in report.render_html(run, recs, cells, verdict)


def test_a_default_sized_run_stays_within_the_budget(tmp_path, capsys):
    # as many protocols and pairs as the published default run (16 and 9), five workloads, one pass
    run, recs, cells = build(tmp_path, protocols=16, passes=1, calls=100)
    started = time.monotonic()
    size = report.write_html(run, recs, cells, {"expected": [], "unexpected": [], "stale": []})
    with capsys.disabled():
        print(f"\nreport.html of a default-sized synthetic run: {html.size_text(size)} "
              f"(budget {html.size_text(html.BUDGET_BYTES)}), {time.monotonic() - started:.1f} s")
    assert size == (run / report.HTML).stat().st_size < html.BUDGET_BYTES


def test_the_html_report_renders_in_chromium(small, tmp_path):
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium: runner/setup.sh installs Debian's chromium for this test")
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright (runner/requirements.txt) missing")
    run, _, _, _ = small
    errors, requests = [], []
    with playwright.sync_playwright() as p:
        # Debian's chromium, never a downloaded one
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("request", lambda r: requests.append(r.url))
            page.goto((run / report.HTML).as_uri())
            page.wait_for_load_state("load")
            charts = page.locator("figure.chart svg")
            assert charts.count() == 8
            for i in range(charts.count()):
                box = charts.nth(i).bounding_box()
                assert box and box["width"] > 100 and box["height"] > 50, i
            assert page.locator("table.matrix.interop").count() == 3
            assert page.locator("table.matrix.latency").count() == 3 * 2
            assert page.locator("#summary table").count() >= 4
            # a matrix's reason is on hover
            assert page.locator('td.unsup[title="unsupported: no p1 in .NET"]').count() == 2
            shot = tmp_path / "report.png"
            page.screenshot(path=str(shot))
        finally:
            browser.close()
    assert errors == []
    assert requests == [(run / report.HTML).as_uri()]  # the page itself, nothing else
    assert shot.stat().st_size > 10_000
    shutil.copy(shot, SCREENSHOT)
