"""Command line of the runner's analysis: prepare, resume, fold, cell-end, estimate, shuffle, render, agree,
publish, compare and history (see runner/README.md).

Each command imports only the modules it uses: the runner calls cell-end once per cell, and importing every
module (the report, the environment's probes) doubled its CPU time."""
import argparse
import json
import sys
import time
from pathlib import Path


def _cells(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def prepare(args) -> int:
    from . import environment, plan
    run = Path(args.run)
    cells = _cells(Path(args.cells).read_text())
    protocols = list(dict.fromkeys(c["protocol"] for c in cells))
    try:
        plan.write_plans(run, Path(args.idl), args.profile, protocols, args.passes, args.seed)
    except plan.PlanError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    profile = json.loads((run / "plan" / "profile.json").read_text())
    env = environment.write_env(run, Path(args.manifests), profile, args.wire_note, args.cpu_note, args.pin_note)
    workloads = json.loads((Path(args.idl) / "workloads.json").read_text())
    env["run"]["baseline"] = workloads.get("baseline")
    env["run"]["headline_workloads"] = [w["name"] for w in workloads["workloads"] if w.get("headline")]
    vectors = json.loads((Path(args.idl) / "vectors.json").read_text())["vectors"]
    # the report's table of negative tests: which vectors are attacks, and on what
    env["run"]["attack_vectors"] = {v["id"]: v["attack"] for v in vectors if "attack" in v}
    env["run"]["vectors_left_out"] = plan.write_contract_view(run, Path(args.idl), profile)
    registry = json.loads((Path(args.idl) / "protocols.json").read_text())["protocols"]
    env["run"]["registry"] = {name: {"family": p["family"], "variant": p.get("variant", {})}
                              for name, p in registry.items() if name in protocols}
    # opt-in protocols the profile did not take: the report names them with the registry's reason
    env["run"]["left_out"] = json.loads(args.left_out)
    env["run"]["processes"] = args.processes_note or "not recorded"
    spin = dict(entry.split("=", 1) for entry in args.server_spin.split(",") if entry)
    if spin:  # a calibration run (--inject-server-spin): its servers were made slower on purpose
        env["run"]["injected_server_spin_us"] = {lang: int(us) for lang, us in spin.items()}
    (run / "env.json").write_text(json.dumps(env, indent=1, ensure_ascii=False))
    (run / "cells.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cells))
    return 0


def fold_step(args) -> int:
    """The final records of a step without a progress line of its own: a pass's floor, the handlers, or the
    cell an interruption cut short."""
    from . import fold
    fold.fold_into_results(Path(args.run), Path(args.dir))
    return 0


def cell_end(args) -> int:
    """Each cell's final records, and "<seconds of work>\t<summary>" for its progress line, one per --dir."""
    from . import fold
    for d in args.dir:
        print(fold.end_cell(Path(args.run), Path(d)))
    return 0


def estimate(args) -> int:
    from . import plan
    run = Path(args.run)
    if args.finished:
        from . import resume
        print(resume.finished_work(run))
        return 0
    cells = _cells(sys.stdin.read())
    print(plan.estimate_run(run, cells, args.passes, not args.fresh_processes))
    return 0


def resume_run(args) -> int:
    from . import resume
    run, root = Path(args.run), Path(args.root)
    try:
        if args.check:
            resume.check(run, root)
            done, total = resume.progress(run)
            print(f"{done} of {total} cells finished")
        else:
            print(resume.resume(run, root))
    except resume.ResumeError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    return 0


def plan_cells(args) -> int:
    """The plan of cells (plan.write_cells): files in --out for the shell; messages on stderr."""
    from . import manifests, plan
    try:
        messages = plan.write_cells(Path(args.out), Path(args.manifests), Path(args.idl), args.profile,
                                    args.protocol, args.server, args.client, args.cell)
    except (manifests.ManifestError, plan.PlanError) as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    for message in messages:
        print(f"rpcmatrix: {message}", file=sys.stderr)
    return 0


def expand(args) -> int:
    """The older interface of the plan, for the battery: manifests (a JSON array) on stdin or --manifests
    DIR, the cells of --protocol and --server on stdout, one JSON line each."""
    from . import manifests, plan
    if args.select_only:  # the cells on stdin, one JSON line each, selected
        cells = plan.select_cells(_cells(sys.stdin.read()), args.protocol, args.server, args.client, args.cell)
        sys.stdout.write("".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) + "\n" for c in cells))
        return 0
    try:
        loaded = manifests.load(Path(args.manifests)) if args.manifests else json.load(sys.stdin)
    except manifests.ManifestError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    if args.print_manifests:
        print(json.dumps(loaded, ensure_ascii=False))
        return 0
    registry = json.loads(Path(args.registry).read_text())
    cells = plan.select_cells(plan.expand_cells(loaded, args.baseline, registry), args.protocol, args.server,
                              args.client, args.cell)
    sys.stdout.write("".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) + "\n" for c in cells))
    return 0


def allow_timing(args) -> int:
    """Exit 0 when the cell's workloads may be timed after its vectors (known_failures.vectors_allow_timing)."""
    from . import known_failures
    entries = known_failures.load(Path(args.known_failures))
    try:
        vectors = json.loads(Path(args.vectors).read_text())
    except (OSError, ValueError):
        return 1
    return 0 if known_failures.vectors_allow_timing(entries, args.cell, vectors) else 1


def shuffle(args) -> int:
    from . import plan
    lines = plan.shuffled([line for line in sys.stdin.read().splitlines() if line.strip()], args.seed, args.pass_no)
    if args.lane_queue:
        groups = plan.lane_queue(lines)
    elif args.warm_processes is not None:
        groups = plan.warm_chunks(lines, args.warm_processes)
    else:
        sys.stdout.write("".join(line + "\n" for line in lines))
        return 0
    sys.stdout.write("".join(f"{group}\t{line}\n" for group, line in zip(groups, lines, strict=True)))
    return 0


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
    return 1 if verdict["unexpected"] or verdict["stale"] else 0


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
    from . import studies
    run = Path(args.run)
    try:
        text = studies.text_for(run, Path(args.idl), args.study, only_study_profile=args.end_of_run)
    except studies.StudyError as e:
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
    s = sub.add_parser("prepare", help="write the run's plan, environment and cell list")
    for flag in ("--run", "--idl", "--profile", "--manifests", "--cells"):
        s.add_argument(flag, required=True)
    s.add_argument("--wire-note", default="")
    s.add_argument("--cpu-note", default="")
    s.add_argument("--pin-note", default="")
    s.add_argument("--passes", type=int, default=1)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--left-out", default="[]", help="JSON list of {protocol, reason} the profile left out")
    s.add_argument("--processes-note", default="", help="how servers and clients live across cells")
    s.add_argument("--server-spin", default="", help="LANGUAGE=US,...: the slowdown injected into servers")
    s.set_defaults(func=prepare)
    s = sub.add_parser("fold", help="append the final records of a finished step from its facts.jsonl")
    s.add_argument("--run", required=True)
    s.add_argument("--dir", required=True, help="the step's folder: floor/pass<N>, handlers, cells/<slug>/pass<N>")
    s.set_defaults(func=fold_step)
    s = sub.add_parser("cell-end", help="append cells' final records of a pass; print their progress lines")
    s.add_argument("--run", required=True)
    s.add_argument("--dir", required=True, action="append",
                   help="a cell's folder of the pass: cells/<slug>/pass<N> (repeatable, folded in order)")
    s.set_defaults(func=cell_end)
    s = sub.add_parser("estimate", help="seconds of work of the cells on stdin (JSON lines)")
    s.add_argument("--run", required=True)
    s.add_argument("--passes", type=int, default=1)
    s.add_argument("--fresh-processes", action="store_true", help="a new server and client for every cell")
    s.add_argument("--finished", action="store_true", help="of the cells the run's journal lists as finished")
    s.set_defaults(func=estimate)
    s = sub.add_parser("resume", help="check an interrupted run and trim what it left half done")
    s.add_argument("--run", required=True)
    s.add_argument("--root", required=True, help="the repository, whose code must be the run's")
    s.add_argument("--check", action="store_true", help="only check, change nothing")
    s.set_defaults(func=resume_run)
    s = sub.add_parser("cells", help="expand the manifests into cells and select them (plan/cells.jsonl)")
    for flag in ("--out", "--manifests", "--idl", "--profile"):
        s.add_argument(flag, required=True)
    for flag in ("--protocol", "--server", "--client", "--cell"):
        s.add_argument(flag, default="", help="comma-separated (empty: all)")
    s.set_defaults(func=plan_cells)
    s = sub.add_parser("expand", help="the cells of manifests (stdin or --manifests) on stdout, selected")
    s.add_argument("--manifests", default="", help="a folder of */manifest.json (default: a JSON array on stdin)")
    s.add_argument("--print-manifests", action="store_true", help="print the resolved manifests only")
    s.add_argument("--select-only", action="store_true", help="select the cells on stdin (JSON lines)")
    s.add_argument("--registry", default="idl/protocols.json")
    s.add_argument("--baseline", default="")
    for flag in ("--protocol", "--server", "--client", "--cell"):
        s.add_argument(flag, default="", help="comma-separated (empty: all)")
    s.set_defaults(func=expand)
    s = sub.add_parser("allow-timing", help="exit 0 when a cell's vectors let its workloads be timed")
    for flag in ("--known-failures", "--cell", "--vectors"):
        s.add_argument(flag, required=True)
    s.set_defaults(func=allow_timing)
    s = sub.add_parser("shuffle", help="the cells on stdin in the pass's seeded random order")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--pass", dest="pass_no", type=int, required=True)
    s.add_argument("--lane-queue", action="store_true",
                   help="also each cell's place in the lanes' queue: '<place>\\t<cell>' lines")
    s.add_argument("--warm-processes", type=int,
                   help="also say each cell's warm phase, at most this many processes each: '<phase>\\t<cell>' lines")
    s.set_defaults(func=shuffle)
    s = sub.add_parser("render",
                       help="write results.csv, junit.xml, samples and REPORT.md; exit 1 on anything unexpected")
    s.add_argument("--run", required=True)
    s.add_argument("--known-failures")
    s.add_argument("--no-html", action="store_true", help="skip report.html (the charts take seconds to draw)")
    s.set_defaults(func=render)
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
    s.add_argument("--study", help="one study (idl/studies.json); default: the run's profile's, else all")
    s.add_argument("--idl", default=str(Path(__file__).resolve().parents[2] / "idl"))
    s.add_argument("--write", action="store_true", help="also write STUDY.md into the run folder")
    s.add_argument("--end-of-run", action="store_true",
                   help="for a run of a study's profile write STUDY.md and print it; nothing for other runs")
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
