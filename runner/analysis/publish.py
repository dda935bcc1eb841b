"""Publishing a run: a curated copy of a run of a committed, clean tree into results/published/<run>/."""
import gzip
import json
import shutil
import subprocess
from pathlib import Path

from . import records

FILES = ("REPORT.md", "env.json", "verdict.json", "junit.xml", "results.csv", "cells.jsonl")
# Written by render for every run since the report was split (report.html, the per-protocol files), or only
# for some runs (a study's STUDY.md, AGREEMENT.md, COMPARE.md with its compare.json and CALIBRATION.md when made,
# the servers' exits of a schema-3 run, a battery attached).
OPTIONAL = ("AGREEMENT.md", "STUDY.md", "COMPARE.md", records.COMPARE_DATA, "CALIBRATION.md", "report.html",
            records.SERVER_EXITS, "battery.jsonl")
OPTIONAL_FOLDERS = ("report",)
SAMPLES_LIMIT = 2 * 1024 * 1024
# No file committed over 2 MiB: the records of a full run (4,629 with their histograms) are 4.4 MB gzipped,
# so they go in parts of at most this size (records.PUBLISHED_PART), each a whole number of lines; any other
# file over it (report.html) is committed gzipped.
PART_LIMIT = 2 * 1024 * 1024
# The exports a full run makes are several MB of text: over this size they are committed gzipped.
EXPORTS = ("results.csv", "junit.xml")
GZIP_EXPORTS_ABOVE = 1024 * 1024


class PublishError(Exception):
    pass


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise PublishError(f"cannot run git in {root}: {e}") from e
    if done.returncode != 0:
        raise PublishError(f"git {' '.join(args)} failed in {root}: {done.stderr.strip()[:300]}")
    return done.stdout


def check(run: Path, root: Path) -> dict:
    """The run's env.json, if the run may be published: made from a clean tree whose commit is HEAD, and the
    tree still clean now. Raises PublishError saying why not."""
    try:
        env = json.loads((run / "env.json").read_text())
    except (OSError, ValueError) as e:
        raise PublishError(f"{run} has no readable env.json: {e}") from e
    info = env.get("run", {})
    if info.get("git_dirty"):
        raise PublishError(f"run {run.name} was made from a tree with uncommitted changes (env.json git_dirty): "
                           "commit, run again, then publish")
    changed = _git(root, "status", "--porcelain", "--untracked-files=no").rstrip("\n")
    if changed.strip():
        files = ", ".join(line[3:] for line in changed.splitlines()[:5])
        raise PublishError(f"the tree has uncommitted changes to tracked files ({files}"
                           f"{', …' if len(changed.splitlines()) > 5 else ''}): commit or discard them first")
    head = _git(root, "rev-parse", "HEAD").strip()
    commit = info.get("git_commit") or "unknown"
    if commit != head:
        raise PublishError(f"run {run.name} was made at commit {commit[:12]}, but HEAD is {head[:12]}: "
                           "publish runs of the commit checked out")
    return env


def write_records(target: Path, recs: list[dict], limit: int | None = None) -> list[str]:
    """The records, one JSON line each, gzipped into target/results.jsonl.gz, or, when that would be over
    `limit`, into as few parts of whole lines under it as split evenly (records.PUBLISHED_PART; a record over
    it alone would be a part of its own). Returns the names written."""
    limit = limit or PART_LIMIT
    lines = [json.dumps(rec, ensure_ascii=False) + "\n" for rec in recs]
    whole = gzip.compress("".join(lines).encode("utf-8"), mtime=0)
    if len(whole) <= limit:
        (target / records.PUBLISHED_RESULTS).write_bytes(whole)
        return [records.PUBLISHED_RESULTS]
    count = -(-len(whole) // int(limit * 0.9))
    while True:
        size = -(-len(lines) // count)
        parts = [gzip.compress("".join(lines[i:i + size]).encode("utf-8"), mtime=0)
                 for i in range(0, len(lines), size)]
        if all(len(part) <= limit for part in parts) or size == 1:
            break
        count += 1
    names = [records.PUBLISHED_PART.format(i) for i in range(1, len(parts) + 1)]
    for name, part in zip(names, parts, strict=True):
        (target / name).write_bytes(part)
    return names


def publish(run: Path, root: Path, into: Path) -> Path:
    """Copies the run's report (REPORT.md, its per-protocol files in report/, report.html), environment,
    verdict, exports, cells, plan (and AGREEMENT.md, STUDY.md, and the servers' exits its records refer to)
    into into/<run folder name>/, results.jsonl gzipped with only the last record of each (cell, workload,
    pass) (in parts when over PART_LIMIT), results.csv and junit.xml gzipped when over 1 MiB,
    samples.jsonl.gz only if under 2 MiB. Returns the folder."""
    run = run.resolve()
    env = check(run, root)
    missing = [name for name in (*FILES, "results.jsonl") if not (run / name).exists()]
    if not (run / "plan").is_dir():
        missing.append("plan/")
    if missing:
        raise PublishError(f"run {run.name} lacks {', '.join(missing)}: render it first (python -m analysis render)")
    target = into / run.name
    if target.exists():
        raise PublishError(f"{target} exists already: remove it to publish this run again")
    target.mkdir(parents=True)
    zipped = []
    for name in FILES + OPTIONAL:
        if not (run / name).exists():
            continue
        size = (run / name).stat().st_size
        if (name in EXPORTS and size > GZIP_EXPORTS_ABOVE) or size > PART_LIMIT:
            with open(run / name, "rb") as src, gzip.open(target / f"{name}.gz", "wb") as dst:
                shutil.copyfileobj(src, dst)
            zipped.append(name)
        else:
            shutil.copy2(run / name, target / name)
    shutil.copytree(run / "plan", target / "plan")
    for name in OPTIONAL_FOLDERS:
        if (run / name).is_dir():
            shutil.copytree(run / name, target / name)
    # The records as stored, not joined with env.json and cells.jsonl, which are published beside them. A
    # run of schema 2 appended a cell's records again as later facts arrived: only the last one is kept.
    parts = write_records(target, records.stored(run))
    samples = run / records.SAMPLES
    lines = [f"# Published run {run.name}", "",
             f"Commit `{env['run'].get('git_commit')}`, profile `{(env['run'].get('profile') or {}).get('name')}`. "
             "The per-cell folders (logs, answers) stay with the run.", ""]
    if zipped:
        lines += [f"{' and '.join(f'`{n}`' for n in zipped)} {'are' if len(zipped) > 1 else 'is'} gzipped "
                  f"(`{zipped[0]}.gz`): the exports over {GZIP_EXPORTS_ABOVE // 2**20} MiB, any file over "
                  f"{PART_LIMIT // 2**20} MiB (a default run's report.html is about 2.5 MB).", ""]
    if len(parts) > 1:
        lines += [f"The records are in {len(parts)} parts, `{parts[0]}` to `{parts[-1]}` (read in that order), "
                  f"each under {PART_LIMIT // 2**20} MiB.", ""]
    if samples.exists() and samples.stat().st_size < SAMPLES_LIMIT:
        shutil.copy2(samples, target / samples.name)
        lines.append("Every raw per-call sample is in `samples.jsonl.gz` (one line per cell, workload and pass).")
    elif samples.exists():
        lines.append(f"Raw samples stay with the run, not published: `samples.jsonl.gz` is "
                     f"{samples.stat().st_size / 2**20:.1f} MiB (the limit is {SAMPLES_LIMIT // 2**20} MiB). "
                     "Each record's `histogram` keeps every call at 3 significant digits.")
    else:
        lines.append("The run has no `samples.jsonl.gz` (render it to make one); raw samples are not published.")
    (target / "PUBLISHED.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target
