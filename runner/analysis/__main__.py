"""Command line of the runner's analysis of finished runs: render, merge, agree, publish, studies, tables, compare,
calibrate and history (see runner/README.md). The run-time steps are the conductor's (runner/conductor).

Each command imports only the modules it uses."""
import argparse
import json
import sys
import time
from pathlib import Path


def _cells(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _run_records(run: Path, cells: list[dict]) -> list[dict]:
    """A run's records in the order of its cells, each cell's vectors first, then by pass."""
    from . import records
    order = {c["name"]: i for i, c in enumerate(cells)}
    return sorted(records.load(run), key=lambda r: (order.get(r["cell"], len(order)), r["workload"] != "vectors",
                                                    r.get("pass", 1)))


def render(args) -> int:
    from . import exports, known_failures, report
    run = Path(args.run)
    cells = _cells((run / "cells.jsonl").read_text())
    recs = _run_records(run, cells)
    try:
        entries = known_failures.load(Path(args.known_failures) if args.known_failures else None)
    except (ValueError, json.JSONDecodeError) as e:
        print(f"rpcmatrix: error: known failures: {e}", file=sys.stderr)
        return 2
    verdict = known_failures.classify(recs, entries)
    exports.write_csv(recs, run / "results.csv")
    exports.write_junit(recs, run / "junit.xml")
    exports.write_samples(run)
    (run / "verdict.json").write_text(json.dumps(verdict, indent=1, ensure_ascii=False))
    report.write(run, recs, cells, verdict)  # REPORT.md and report/<protocol>.md, report/run.md
    if args.no_html:
        print(f"rpcmatrix: {report.HTML}: not written (--no-html)", file=sys.stderr)
    else:
        started = time.monotonic()
        size = report.write_html(run, recs, cells, verdict)
        print(f"rpcmatrix: {report.HTML}: {size / 1024 / 1024:.2f} MB "
              f"(budget {report.html_budget() / 1024 / 1024:.0f} MB), "
              f"rendered in {time.monotonic() - started:.1f} s", file=sys.stderr)
    _into_history(run)
    for item in verdict["unexpected"]:
        vector = f" / {item['vector']}" if item["vector"] else ""
        print(f"rpcmatrix: UNEXPECTED {item['status']}: {item['cell']} {item['workload']}{vector}: "
              f"{item['reason'][:300]}",
              file=sys.stderr)
    for entry in verdict["stale"]:
        print(f"rpcmatrix: UNEXPECTED pass of a known failure (remove the entry): {entry['cell']}", file=sys.stderr)
    print(f"rpcmatrix: {len(recs)} records; {len(verdict['unexpected'])} unexpected failures, "
          f"{len(verdict['expected'])} expected, {len(verdict['stale'])} stale entries", file=sys.stderr)
    from . import certificate
    cert = certificate.write(run, recs, cells, entries)
    if cert is not None:  # a certification: its exit status is the certificate's
        must = cert["counts"]["MUST"]
        print(f"rpcmatrix: certificate {'EARNED' if cert['earned'] else 'NOT earned'}: MUST "
              f"{', '.join(f'{n} {k}' for k, n in sorted(must.items()))}: {run / 'certificate.md'}", file=sys.stderr)
        return 0 if cert["earned"] else 1
    return 1 if verdict["unexpected"] or verdict["stale"] else 0


def merge_runs(args) -> int:
    from . import merge
    try:
        count = merge.merge(Path(args.plan), Path(args.collected), Path(args.into))
    except (merge.MergeError, OSError, ValueError) as e:
        print(f"rpcmatrix: error: merge: {e}", file=sys.stderr)
        return 2
    print(f"rpcmatrix: {count} records into {args.into}", file=sys.stderr)
    return 0


def _into_history(run: Path) -> None:
    """The end of render: the run's records into the history database (analysis/history.py): results/history.sqlite
    beside the run, or RPCMATRIX_HISTORY ("off": not at all). A failure is reported, never fatal to the run."""
    try:
        from . import history
    except ImportError as e:  # a venv from before the requirement: set-up installs it
        print(f"rpcmatrix: warning: history: {e} (runner/setup.sh installs it)", file=sys.stderr)
        return
    db_url = history.url(None, root=run.resolve().parent)
    if db_url is None:
        return
    try:
        loaded = history.load(run, db_url)
        print(f"rpcmatrix: history: {loaded['figures']} figures of {loaded['run_id']} in {history.shown(db_url)}",
              file=sys.stderr)
    except Exception as e:  # the history is a copy: the run's own files are already written
        print(f"rpcmatrix: warning: history: the run was not loaded into {history.shown(db_url)}: {e}", file=sys.stderr)


def compare_runs(args) -> int:
    """Two runs (folders or run_ids of the history) compared as benchstat does: COMPARE.md, summary printed."""
    from . import compare
    try:
        result = compare.comparison(args.a, args.b, args.threshold, args.alpha, args.history, args.unit)
    except KeyError as e:
        print(f"rpcmatrix: error: {e.args[0]}", file=sys.stderr)
        return 2
    text = compare.render(result)
    out = Path(args.out) if args.out else (Path(args.b) / compare.COMPARE_REPORT if Path(args.b).is_dir() else None)
    if out is not None:
        out.write_text(text, encoding="utf-8")
        print(f"rpcmatrix: {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if not args.out and Path(args.b).is_dir():
        compare.save(result, Path(args.b))
        if (Path(args.b) / "report.html").exists() and not args.no_html:
            _rewrite_html(Path(args.b))
    print(compare.summary_line(result))
    return 0


def _rewrite_html(run: Path) -> None:
    """report.html of a rendered run drawn again from its files (records, cells, verdict), e.g. with the
    comparison compare just saved into it."""
    from . import report
    cells = _cells((run / "cells.jsonl").read_text())
    recs = _run_records(run, cells)
    verdict = json.loads((run / "verdict.json").read_text(encoding="utf-8"))
    size = report.write_html(run, recs, cells, verdict)
    print(f"rpcmatrix: {run / report.HTML}: drawn again with the comparison ({size / 1024 / 1024:.2f} MB)",
          file=sys.stderr)


def calibrate_runs(args) -> int:
    """compare's calibration from two runs of one commit (A, A2) and one with a slowdown injected (B)."""
    from . import calibration
    try:
        result = calibration.calibrate(Path(args.a), Path(args.a2), Path(args.b), args.threshold, args.alpha)
    except calibration.CalibrationError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else Path(args.b) / calibration.CALIBRATION_REPORT
    text = calibration.render(result)
    out.write_text(text, encoding="utf-8")
    print(f"rpcmatrix: {out}", file=sys.stderr)
    sys.stdout.write(text[:text.index("## A/B pairs")])
    return 0


def history_cmd(args) -> int:
    from . import history
    db_url = history.url(args.history)
    if db_url is None:
        print(f"rpcmatrix: error: {history.ENV}=off", file=sys.stderr)
        return 2
    if args.action == "load":
        for run in args.runs:
            loaded = history.load(Path(run), db_url)
            print(f"{loaded['run_id']}: {loaded['figures']} figures, {loaded['repetitions']} repetitions "
                  f"in {history.shown(db_url)}")
        return 0
    sys.stdout.write(history.render_show(args.cell, history.show(args.cell, db_url, args.workload, args.commit)))
    return 0


def agree(args) -> int:
    from . import agreement
    text = agreement.render([Path(r) for r in args.runs])
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0


def publish_run(args) -> int:
    from . import publish
    try:
        target = publish.publish(Path(args.run), Path(args.root), Path(args.into))
    except publish.PublishError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    print(target)
    return 0


def studies_table(args) -> int:
    """The published figures of the studies beside the run's (analysis/studies.py), printed; --write also
    writes STUDY.md. --end-of-run, for the runner: both, for a run of a study's profile, and nothing for
    any other run."""
    from . import studies, study_networks
    run = Path(args.run)
    try:
        if args.beside:  # the same study on other networks: NETWORKS.md into the last run given
            runs = [run, *map(Path, args.beside)]
            text = study_networks.text_for(runs, Path(args.idl), args.study.split(",") if args.study else None)
            (runs[-1] / study_networks.NETWORKS_REPORT).write_text(text, encoding="utf-8")
            sys.stdout.write(text)
            return 0
        text = studies.text_for(run, Path(args.idl), args.study, only_study_profile=args.end_of_run)
    except (studies.StudyError, study_networks.NetworksError) as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    if text and (args.write or args.end_of_run):
        (run / studies.STUDY_REPORT).write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


def publication_tables(args) -> int:
    """Publication tables (report/tables.py) of a finished run: printed in one format, or with --out written
    in all three (tables.md, tables.tex, tables-<n>.csv)."""
    from . import records, report
    tables = report.tables
    run = Path(args.run)
    cells = _cells((run / "cells.jsonl").read_text(encoding="utf-8"))
    ctx = report.Context.load(run, records.load(run), cells, verdict={})
    kind, name = args.kind[0], (args.kind[1] if len(args.kind) > 1 else None)
    try:
        if kind in ("protocol", "study") and not name:
            raise tables.TablesError(f"--kind {kind} needs a name")
        if not args.out:
            sys.stdout.write(tables.render(ctx, kind, name, args.format))
            return 0
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "tables.md").write_text(tables.render(ctx, kind, name, "md"), encoding="utf-8")
        (out / "tables.tex").write_text(tables.render(ctx, kind, name, "latex"), encoding="utf-8")
        for i, (title, table) in enumerate(tables.chosen(ctx, kind, name), 1):
            (out / f"tables-{i}.csv").write_text(tables.as_csv(tables.caption(ctx, title), table), encoding="utf-8")
    except tables.TablesError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    print(out)
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m analysis")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("render",
                       help="write results.csv, junit.xml, samples and REPORT.md; exit 1 on anything unexpected")
    s.add_argument("--run", required=True)
    s.add_argument("--known-failures")
    s.add_argument("--no-html", action="store_true", help="skip report.html (the charts take seconds to draw)")
    s.set_defaults(func=render)
    s = sub.add_parser("merge", help="one run folder from a cluster run's collected runs (runner/rpcmatrix k8s)")
    s.add_argument("--plan", required=True, help="the manifests' plan.json")
    s.add_argument("--collected", required=True, help="the results volume's copy (holding runs/)")
    s.add_argument("--into", required=True, help="the merged run folder, then: python -m analysis render --run")
    s.set_defaults(func=merge_runs)
    s = sub.add_parser("agree", help="how far several runs of the same matrix agree (AGREEMENT.md)")
    s.add_argument("runs", nargs="+")
    s.add_argument("--out")
    s.set_defaults(func=agree)
    s = sub.add_parser("publish", help="copy a run of a committed, clean tree into results/published/")
    s.add_argument("--run", required=True)
    s.add_argument("--root", required=True)
    s.add_argument("--into", required=True)
    s.set_defaults(func=publish_run)
    s = sub.add_parser("studies", help="the studies' published figures beside a run's (STUDY.md)")
    s.add_argument("run")
    s.add_argument("--study", help="one study (idl/studies.json; with --beside, a list); default: the run's "
                                   "profile's, else all")
    s.add_argument("--idl", default=str(Path(__file__).resolve().parents[2] / "idl"))
    s.add_argument("--write", action="store_true", help="also write STUDY.md into the run folder")
    s.add_argument("--end-of-run", action="store_true",
                   help="for a run of a study's profile write STUDY.md and print it; nothing for other runs")
    s.add_argument("--beside", action="append", default=[],
                   help="a run of the same study's profile on another network (repeatable): NETWORKS.md, each "
                        "figure on each network and how it moved from RUN's, into the last run given")
    s.set_defaults(func=studies_table)
    s = sub.add_parser("tables", help="publication tables (Markdown, CSV, LaTeX) of a run, each with its caption")
    s.add_argument("run")
    s.add_argument("--kind", nargs="+", default=["side-by-side"], metavar="KIND [NAME]",
                   help="side-by-side (default), protocol NAME or study NAME")
    s.add_argument("--format", choices=("md", "csv", "latex"), default="md")
    s.add_argument("--out", help="a folder to write every format into, instead of printing one")
    s.set_defaults(func=publication_tables)
    s = sub.add_parser("compare", help="run B against run A, benchstat-style (COMPARE.md into B or --out)")
    s.add_argument("a", help="a run folder, or a run_id of the history")
    s.add_argument("b", help="a run folder, or a run_id of the history")
    s.add_argument("--out", help="where to write COMPARE.md (default: into B's folder; printed when B is a run_id)")
    s.add_argument("--threshold", type=float, default=0.05, help="the least change that counts (0.05 = 5%%)")
    s.add_argument("--alpha", type=float, default=0.05, help="significance level after Holm's correction")
    s.add_argument("--unit", choices=("auto", "repetition", "pass"), default="auto",
                   help="the values compared: each pass's p50 (one per process instance) when the runs have "
                        "enough passes for a test on them to flag a pair, else each repetition's median "
                        "(auto, the default); or either one")
    s.add_argument("--history", help="database URL (default: $RPCMATRIX_HISTORY, else results/history.sqlite)")
    s.add_argument("--no-html", action="store_true",
                   help="do not draw B's report.html again with the comparison (compare.json is written all the same)")
    s.set_defaults(func=compare_runs)
    s = sub.add_parser("calibrate", help="compare's calibration: A/A and A/B with a known slowdown (CALIBRATION.md)")
    s.add_argument("a", help="a run folder")
    s.add_argument("a2", help="a run folder of the same commit and profile as A")
    s.add_argument("b", help="a run folder of the same commit and profile, made with --inject-server-spin")
    s.add_argument("--out", help="where to write CALIBRATION.md (default: into B's folder)")
    s.add_argument("--threshold", type=float, default=0.05, help="the least change that counts (0.05 = 5%%)")
    s.add_argument("--alpha", type=float, default=0.05, help="significance level after Holm's correction")
    s.set_defaults(func=calibrate_runs)
    s = sub.add_parser("history", help="the runs' database: load RUN..., or show CELL [--workload W]")
    hs = s.add_subparsers(dest="action", required=True)
    h = hs.add_parser("load", help="put runs into the database (again: replaced, not duplicated)")
    h.add_argument("runs", nargs="+")
    h.add_argument("--history", help="database URL (default: $RPCMATRIX_HISTORY, else results/history.sqlite)")
    h.set_defaults(func=history_cmd)
    h = hs.add_parser("show", help="one cell's median across runs with 95% intervals")
    h.add_argument("cell")
    h.add_argument("--workload")
    h.add_argument("--commit", help="only runs of this commit (a prefix)")
    h.add_argument("--history", help="database URL (default: $RPCMATRIX_HISTORY, else results/history.sqlite)")
    h.set_defaults(func=history_cmd)
    args = p.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
