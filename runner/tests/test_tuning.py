"""Every implementation that runs has its settings audited against its library's own (tuning.json,
runner/PROTOCOL.md#manifests), and the report prints the audit under each protocol that uses it."""
import json
from pathlib import Path

import pytest

from conductor import environment, manifests

ROOT = Path(__file__).resolve().parents[2]
VERDICTS = {"as the reference", "differs", "no reference"}


def _running_implementations() -> list[tuple[str, tuple]]:
    """(implementation id, protocols) of every manifest entry with a server or a client to start."""
    out = []
    for m in manifests.load(ROOT):
        for e in m["implementations"]:
            if e.get("unsupported") is None and any(isinstance(e.get(r), list) for r in ("server", "client")):
                ident = f"{m['language']}-{e['name']}" if e.get("name") else m["language"]
                out.append((ident, tuple(e["protocols"])))
    return out


AUDITS = environment.tuning_audits(ROOT)


@pytest.mark.parametrize("ident,protocols", _running_implementations(), ids=lambda v: str(v))
def test_every_running_implementation_is_audited(ident, protocols):
    audits = [a for a in AUDITS if a["implementation"] == ident and tuple(a["protocols"]) == protocols]
    assert len(audits) == 1, f"{ident} {protocols}: {len(audits)} entries in its language's tuning.json"
    entries = audits[0]["tuning"]
    assert len(entries) >= 3, f"{ident} {protocols}: only {len(entries)} settings audited"
    for t in entries:
        assert all((t.get(k) or "").strip() for k in ("setting", "reference", "ours")), t
        assert t["verdict"] in VERDICTS, t
        if t["verdict"] != "as the reference":
            assert (t.get("why") or "").strip(), f"{ident}: '{t['setting']}' {t['verdict']} says not why"


def test_every_audit_names_an_implementation_that_exists():
    running = set(_running_implementations())
    for a in AUDITS:
        assert (a["implementation"], tuple(a["protocols"])) in running, a["implementation"]


def test_the_report_prints_the_audit_of_the_implementations_a_protocol_uses(tmp_path):
    from analysis.report.blocks import Code, Heading
    from analysis.report.text import plain
    from test_analysis import _rec, _report, _run_dir, _table
    run = _run_dir(tmp_path)
    env = json.loads((run / "env.json").read_text())
    env["tuning"] = [
        {"implementation": "a", "protocols": ["x"], "tuning": [
            {"setting": "server executor", "reference": "the library's benchmark: a pool",
             "ours": "Server.java: a pool", "verdict": "as the reference"}]},
        {"implementation": "b", "protocols": ["x"], "tuning": [
            {"setting": "b's executor", "reference": "r", "ours": "o", "verdict": "differs", "why": "w"}]}]
    (run / "env.json").write_text(json.dumps(env))
    cells = [{"name": "x/a→a", "protocol": "x", "client": "a", "server": "a"},
             {"name": "raw/a→a", "protocol": "raw", "client": "a", "server": "a"}]
    recs = [_rec(c["name"], "vectors", "pass", vectors=[{"id": "v", "status": "pass"}]) for c in cells]
    docs = _report(run, recs, cells)
    audit = _table(docs["report/x.md"], "Settings against the libraries' own")
    assert audit.rows == [[Code("a"), "server executor", "as the reference", "Server.java: a pool",
                           "the library's benchmark: a pool", ""]]  # b takes no part in x's cells
    headings = [plain(b.text) for blocks in docs.values() for b in blocks if isinstance(b, Heading)]
    assert headings.count("Settings against the libraries' own") == 1  # under x only
