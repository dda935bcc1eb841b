"""The battery's survival matrix (issue 23): <run>/battery.jsonl (one line per attack on one server, written
by python -m rpcmatrix.battery) and <run>/lifecycle.tsv (a line per server that did not start and per SIGTERM,
written by runner/lib/battery.sh) rendered as BATTERY.md, checked against the expected outcomes
(runner/battery-expected.json). With --vectors-run, the security negative tests of a matrix run (the attack
vectors of idl/vectors.json, as the report shows them) are collected beside it; with --attach, the survival matrix
goes into that run's report, when the run is of the commit the battery ran at.

    python -m analysis.battery --run RESULTS_DIR [--expected FILE] [--vectors-run RUN] [--attach RUN]
    python -m analysis.battery --run RESULTS_DIR --write-expected FILE   # a first expected file, from a run

Exits 1 on a regression: a server that refused, closed or held an attack the expected file lists and now
answers it as if it were a correct call, one the attack now achieves something on (a canary file read, a
DTD fetched, entities expanded, a foreign class instantiated) where it did not, a server no longer served after
an attack it survived, one that
no longer stops on SIGTERM within 5 s, or an attack that can no longer be made."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from .report import markdown
from .report.blocks import Bullets, Code, Heading, Paragraph, Strong, Table, Text

GROWTH_KB = 64 * 1024  # a VmRSS rise this large after one attack is flagged as memory growth
DENIED = ("refused", "closed", "held")
# What an attack achieved, beyond an answer: a file's canary read, a DTD fetched, entities expanded, a foreign
# class instantiated, content nobody signed executed.
BREACHES = ("leaked", "fetched", "expanded", "instantiated", "executed-unsigned")


LEGEND = Text("Each attack runs on its own against one server process per protocol and server implementation "
              "(python/src/rpcmatrix/battery), bounded to seconds. ", Strong("refused"), ": an error came back; ",
              Strong("closed"), ": the server closed without a word; ", Strong("held"), ": the connection was still "
              "open, unanswered, at the attack's time bound; ", Strong("answered"), ": the server took the hostile "
              "request as a correct one. Flags: not served during (a valid ping on a new connection failed while the "
              "attack's connections were open), down after (it failed after), +N MiB (VmRSS of the server's process "
              f"group rose by {GROWTH_KB // 1024} MiB or more). sigterm: the time from SIGTERM to the end of the "
              "process group (killed after 5 s). ", Strong("overload"), " (from a load run, ", Code("just load"),
              "): the server offered twice its knee for seconds by its own language's client: ", Strong("served"),
              " every call, ", Strong("refused"), " some with errors, none lost, or ", Strong("hung"), ": calls still "
              "unanswered long after; down after: one call at a time right after it took over twice its p50 before; "
              "+N MiB: its peak memory in overload above its peak at the rates before.")
EXPECTED = Path(__file__).resolve().parents[1] / "battery-expected.json"


ROOT = Path(__file__).resolve().parents[2]
LIFECYCLE = "lifecycle.tsv"


def load_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def lifecycle(run: Path) -> list[dict]:
    """The runner's lines (lifecycle.tsv): protocol, server, `start` (a server that did not start) or `sigterm`,
    outcome, answer, and the times SIGTERM was sent and the process group was gone (seconds since the epoch)."""
    path = run / LIFECYCLE
    out = []
    for line in (path.read_text(encoding="utf-8").splitlines() if path.exists() else []):
        protocol, server, attack, outcome, answer, sent, gone = (line.split("\t") + [""] * 7)[:7]
        seconds = round(float(gone) - float(sent), 3) if sent and gone else None
        out.append({"attack": attack, "protocol": protocol, "server": server, "outcome": outcome, "answer": answer,
                    "seconds": seconds})
    return out


def run_lines(run: Path) -> list[dict]:
    """Every line of a battery's folder: the attacks', then the runner's."""
    return load_lines(run / "battery.jsonl") + lifecycle(run)


def attach(lines: list[dict], run: Path) -> None:
    """The survival matrix into a matrix run's report (report/hostile-peers.md, and so into what `publish` copies),
    when that run was made at the commit the battery ran at: its battery.jsonl, then its report rendered again,
    against the known failures it was made with and with its report.html only if it had one."""
    commit = json.loads((run / "env.json").read_text()).get("run", {}).get("git_commit") or ""
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    if not commit or commit != head:
        print(f"rpcmatrix: warning: battery: not attached to {run}: that run is of commit {commit[:12] or 'unknown'}, "
              f"the battery of {head[:12] or 'unknown'}", file=sys.stderr)
        return
    (run / "battery.jsonl").write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                                       encoding="utf-8")
    saved = json.loads((run / "options.json").read_text()) if (run / "options.json").exists() else []
    known = saved[saved.index("--known-failures") + 1] if "--known-failures" in saved[:-1] else \
        str(ROOT / "runner" / "known-failures.json")
    html = ["--no-html"] if "--no-html" in saved else []
    done = subprocess.run([sys.executable, "-m", "analysis", "render", "--run", str(run), "--known-failures", known,
                           *html], capture_output=True)
    # 1: rendered, with unexpected failures of the run's own (its verdict, not the battery's)
    if done.returncode > 1:
        print(f"rpcmatrix: warning: battery: attached to {run}, but its report could not be rendered again "
              f"(python -m analysis render --run {run})", file=sys.stderr)
        return
    print(f"rpcmatrix: battery: attached to {run} (report/hostile-peers.md)", file=sys.stderr)


OVERLOAD = "overload"  # a load run's overload and recovery, as an attack of the matrix (conductor/load.py)
OVERLOAD_SURVIVED = ("served", "refused")


def overload_lines(points: list[dict], run: str = "") -> list[dict]:
    """A load run's point records (kind "load") as the matrix's lines of attack `overload`, one per server: its
    own language's client's cell (a server driven by its protocol's fastest client too has two; the first
    stands), judged by conductor/load.py: overload_outcome. `run` names the load run in each answer."""
    from conductor import load
    by_cell: dict[str, list[dict]] = {}
    for rec in points:
        by_cell.setdefault(rec["cell"], []).append(rec)
    out, seen = [], set()
    for cell, recs in sorted(by_cell.items(), key=lambda kv: kv[1][0]["client_language"]
                             != kv[1][0]["server_language"]):
        first = recs[0]
        pair = (first["protocol"], first["server"])
        judged = load.overload_outcome(recs)
        if pair in seen or judged is None:
            continue
        seen.add(pair)
        out.append({"attack": OVERLOAD, "protocol": pair[0], "server": pair[1], "seconds": None,
                    **judged, "answer": f"{cell}{f' in {run}' if run else ''}: {judged['answer']}"})
    return out


def load_run_lines(run: Path) -> list[dict]:
    """A load run's overload lines (overload_lines), none for another run."""
    from analysis.records import stored
    return overload_lines([r for r in stored(run) if r.get("kind") == "load"], run.name)


def key(line: dict) -> tuple[str, str, str]:
    return line["attack"], line["protocol"], line["server"]


def growth_kb(line: dict) -> int | None:
    before, after = line.get("rss_before_kb"), line.get("rss_after_kb")
    if before is None or after is None:
        return None
    return after - before


def verdict(line: dict) -> Text:
    """One matrix cell: the outcome, then what went wrong besides (in bold, as an outcome that is not a denial)."""
    if line["attack"] == "sigterm":
        if line["outcome"] == "stopped":
            return Text(f"stopped {line['seconds']:.1f} s")
        return Text(Strong(line["outcome"]), f" ({line.get('answer', '')})")
    wrong = [what for what, side in (("not served during", "served_during"), ("down after", "served_after"))
             if line.get(side) is False]
    grown = growth_kb(line)
    if grown is not None and grown >= GROWTH_KB:
        wrong.append(f"+{grown // 1024} MiB")
    fine = OVERLOAD_SURVIVED if line["attack"] == OVERLOAD else DENIED
    return Text(line["outcome"] if line["outcome"] in fine else Strong(line["outcome"]),
                *(Text(", ", Strong(what)) for what in wrong))


def regressions(lines: list[dict], expected: list[dict]) -> tuple[list[str], list[str]]:
    """(regressions, changes): what fails the check, and what changed without being worse."""
    now = {key(line): line for line in lines}
    bad, changed = [], []
    now = {k: line for k, line in now.items() if k[0] != OVERLOAD}  # a load run's, not the battery's to check
    for entry in expected:
        line = now.get(key(entry))
        if line is None:
            continue  # not run this time (a subset)
        name = "{} on {}/{}".format(*key(entry))
        was, is_ = entry["outcome"], line["outcome"]
        if entry["attack"] == "sigterm":
            if was == "stopped" and is_ != "stopped":
                bad.append(f"{name}: stopped on SIGTERM before, now {is_} ({line.get('answer', '')})")
            continue
        if is_ in BREACHES and was not in BREACHES:
            bad.append(f"{name}: {was} before, now {is_}: {line.get('answer', '')[:160]}")
        elif was in DENIED and is_ not in DENIED:
            bad.append(f"{name}: {was} before, now {is_}: {line.get('answer', '')[:160]}")
        elif was != "error" and is_ == "error":
            bad.append(f"{name}: the attack could not be made: {line.get('answer', '')[:160]}")
        elif was != is_:
            changed.append(f"{name}: {was} before, now {is_}")
        if entry.get("served_after", True) and line.get("served_after") is False:
            bad.append(f"{name}: served after it before, now not: {line.get('served_after_reason', '')[:160]}")
    failed = {(line["protocol"], line["server"]): line for line in lines if line["attack"] == "start"}
    for pair in dict.fromkeys((e["protocol"], e["server"]) for e in expected):
        if pair in failed:
            bad.append(f"{pair[0]}/{pair[1]} did not start: {failed[pair].get('answer', '')[:160]}")
    listed = {key(e) for e in expected}
    new = ["{} on {}/{}".format(*k) for k in now if k not in listed and k[0] != "start"]
    if new:
        changed.append(f"{len(new)} not in the expected file: " + ", ".join(new[:8]) + (", …" if len(new) > 8 else ""))
    return bad, changed


def matrix_table(lines: list[dict]) -> tuple[list[str], list[list]]:
    """The survival matrix as a header and rows: one row per server, one column per attack, sigterm last."""
    attacks = list(dict.fromkeys(line["attack"] for line in lines if line["attack"] not in ("sigterm", "start")))
    if any(line["attack"] == "sigterm" for line in lines):
        attacks.append("sigterm")
    servers = list(dict.fromkeys((line["protocol"], line["server"]) for line in lines))
    by_key = {key(line): line for line in lines}
    rows = []
    for protocol, server in servers:
        start = by_key.get(("start", protocol, server))
        if start is not None:
            rows.append([Code(f"{protocol}/{server}"), f"did not start: {_one_line(start['answer'])}"]
                        + [""] * (len(attacks) - 1))
            continue
        rows.append([Code(f"{protocol}/{server}")] + [verdict(by_key[(a, protocol, server)])
                                                      if (a, protocol, server) in by_key else "–" for a in attacks])
    return ["protocol/server", *attacks], rows


def answers(lines: list[dict]) -> Table:
    rows = []
    for line in lines:
        if line["attack"] in ("sigterm", "start"):
            continue
        rss = f"{_mib(line.get('rss_before_kb'))} → {_mib(line.get('rss_after_kb'))}"
        served = Text(_yes(line.get("served_during")), " / ", _yes(line.get("served_after")))
        rows.append([line["attack"], Code(f"{line['protocol']}/{line['server']}"), line["outcome"],
                     _one_line(line.get("answer", ""))[:160], served, rss,
                     "–" if line.get("seconds") is None else str(line["seconds"])])
    return Table(["attack", "protocol/server", "outcome", "answer (excerpt)", "served during / after",
                  "VmRSS before → after", "s"], rows)


def negative_tests(run: Path) -> list:
    """The attack vectors of a matrix run's cells (the report's "Negative tests"), one row per cell that ran one."""
    from analysis.records import attacks_ran, stored
    vectors = json.loads((Path(__file__).resolve().parents[2] / "idl" / "vectors.json").read_text())["vectors"]
    attacks = {v["id"]: v["attack"] for v in vectors if "attack" in v}
    shown, ran_per_cell = attacks_ran([(rec["cell"], rec) for rec in stored(run)
                                       if rec.get("workload") == "vectors" and rec.get("pass", 1) == 1], attacks)
    if not ran_per_cell:
        return [Paragraph(Text("No attack vector ran in ", Code(str(run)), "."))]
    rows = [[Code(cell)] + ["–" if (v := ran.get(i)) is None
                            else f"{v['status']}: {_one_line(v.get('reason', ''))[:60]}" for i in shown]
            for cell, ran in ran_per_cell]
    return [Table(["cell"] + [attacks[i] for i in shown], rows)]


def render(lines: list[dict], bad: list[str], changed: list[str], vectors_run: Path | None) -> str:
    header, rows = matrix_table(lines)
    out = [Heading(1, "Battery: what each server does with hostile input"), Paragraph(LEGEND),
           Heading(2, "Survival matrix"), Table(header, rows),
           Heading(2, "Against the expected outcomes (runner/battery-expected.json)"),
           Bullets(([f"REGRESSION: {b}" for b in bad] or ["no regression"]) + [f"changed: {c}" for c in changed]),
           Heading(2, "Every answer"), answers(lines)]
    if vectors_run is not None:
        out += [Heading(2, Text("Negative tests of the matrix run ", Code(vectors_run.name))),
                Paragraph("The attack vectors of idl/vectors.json each cell ran (the report's \"Negative tests\"): "
                          "each defective call must be refused and a correct call served right after.")]
        out += negative_tests(vectors_run)
    return markdown.render(out)


def expected_from(lines: list[dict], run: str) -> dict:
    entries = []
    for line in lines:
        if line["attack"] == "start":
            continue
        entry = {"attack": line["attack"], "protocol": line["protocol"], "server": line["server"],
                 "outcome": line["outcome"]}
        if line["attack"] != "sigterm":
            entry["served_after"] = bool(line.get("served_after"))
        # a pipe escaped as the answers' table once had it, so that a file written again reads the same
        entry["reason"] = f"measured in {run}: " + _one_line(line.get("answer", "")).replace("|", "\\|")[:140]
        entries.append(entry)
    return {"note": "The battery's expected outcome per (attack, protocol, server), each with its reason "
                    "(runner/lib/battery.sh, python -m analysis.battery). A server that refused, closed or held an "
                    "attack and now answers it, that an attack now achieves something on (leaked, fetched, expanded, "
                    "instantiated), that is down after an attack it survived, or that no longer stops on SIGTERM, "
                    "fails the check.",
            "expected": entries}


def _mib(kb: int | None) -> str:
    return "?" if kb is None else f"{kb / 1024:.0f} MiB"


def _yes(value: bool | None):
    return {True: "yes", False: Strong("no"), None: "–"}[value]


def _one_line(text) -> str:
    return " ".join(str(text).split())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.battery")
    parser.add_argument("--run", type=Path, required=True, help="the folder holding battery.jsonl")
    parser.add_argument("--expected", type=Path, default=None, help="expected outcomes, each with its reason")
    parser.add_argument("--vectors-run", type=Path, default=None,
                        help="a matrix run whose negative tests to show (a load run: its overload joins the matrix)")
    parser.add_argument("--write-expected", type=Path, default=None,
                        help="write the run's outcomes as an expected file (reasons from the answers, to edit)")
    parser.add_argument("--attach", type=Path, default=None, help="a matrix run of this commit to attach it to")
    options = parser.parse_args(argv)
    lines = run_lines(options.run)
    if options.write_expected:
        options.write_expected.write_text(json.dumps(expected_from(lines, options.run.name), indent=1,
                                                     ensure_ascii=False) + "\n", encoding="utf-8")
        return 0
    expected = json.loads(options.expected.read_text())["expected"] if options.expected else []
    bad, changed = regressions(lines, expected)
    shown = lines + (load_run_lines(options.vectors_run) if options.vectors_run else [])
    (options.run / "BATTERY.md").write_text(render(shown, bad, changed, options.vectors_run), encoding="utf-8")
    print(f"battery: {options.run / 'BATTERY.md'}", file=sys.stderr)
    for b in bad:
        print(f"REGRESSION: {b}", file=sys.stderr)
    if options.attach:
        attach(lines, options.attach)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
