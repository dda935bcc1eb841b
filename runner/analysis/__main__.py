"""Command line of the runner's analysis: prepare, resume, fold, cell-end, estimate, shuffle, render, agree
and publish (see runner/README.md).

Each command imports only the modules it uses: the runner calls cell-end once per cell, and importing every
module (the report, the environment's probes) doubled its CPU time."""
import argparse
import json
import sys
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
    registry = json.loads((Path(args.idl) / "protocols.json").read_text())["protocols"]
    env["run"]["registry"] = {name: {"family": p["family"], "variant": p.get("variant", {})}
                              for name, p in registry.items() if name in protocols}
    # opt-in protocols the profile did not take: the report names them with the registry's reason
    env["run"]["left_out"] = json.loads(args.left_out)
    env["run"]["processes"] = args.processes_note or "not recorded"
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
    """The cell's final records, and "<seconds of work>\t<summary>" for the progress line."""
    from . import fold
    print(fold.end_cell(Path(args.run), Path(args.dir)))
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


def shuffle(args) -> int:
    from . import plan
    lines = [line for line in sys.stdin.read().splitlines() if line.strip()]
    sys.stdout.write("".join(line + "\n" for line in plan.shuffled(lines, args.seed, args.pass_no)))
    return 0


def render(args) -> int:
    from . import exports, known_failures, records, report
    run = Path(args.run)
    cells = _cells((run / "cells.jsonl").read_text())
    order = {c["name"]: i for i, c in enumerate(cells)}
    recs = sorted(records.load(run), key=lambda r: (order.get(r["cell"], len(order)), r["workload"] != "vectors",
                                                    r.get("pass", 1)))
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
    (run / "REPORT.md").write_text(report.render(run, recs, cells, verdict), encoding="utf-8")
    for item in verdict["unexpected"]:
        vector = f" / {item['vector']}" if item["vector"] else ""
        print(f"rpcmatrix: UNEXPECTED {item['status']}: {item['cell']} {item['workload']}{vector}: {item['reason'][:300]}",
              file=sys.stderr)
    for entry in verdict["stale"]:
        print(f"rpcmatrix: UNEXPECTED pass of a known failure (remove the entry): {entry['cell']}", file=sys.stderr)
    print(f"rpcmatrix: {len(recs)} records; {len(verdict['unexpected'])} unexpected failures, "
          f"{len(verdict['expected'])} expected, {len(verdict['stale'])} stale entries", file=sys.stderr)
    return 1 if verdict["unexpected"] or verdict["stale"] else 0


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
    s.set_defaults(func=prepare)
    s = sub.add_parser("fold", help="append the final records of a finished step from its facts.jsonl")
    s.add_argument("--run", required=True)
    s.add_argument("--dir", required=True, help="the step's folder: floor/pass<N>, handlers, cells/<slug>/pass<N>")
    s.set_defaults(func=fold_step)
    s = sub.add_parser("cell-end", help="append a cell's final records of a pass; print its progress line")
    s.add_argument("--run", required=True)
    s.add_argument("--dir", required=True, help="the cell's folder of the pass: cells/<slug>/pass<N>")
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
    s = sub.add_parser("shuffle", help="the cells on stdin in the pass's seeded random order")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--pass", dest="pass_no", type=int, required=True)
    s.set_defaults(func=shuffle)
    s = sub.add_parser("render", help="write results.csv, junit.xml, samples and REPORT.md; exit 1 on anything unexpected")
    s.add_argument("--run", required=True)
    s.add_argument("--known-failures")
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
    args = p.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
