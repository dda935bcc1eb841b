"""Continuing an interrupted run: what it had finished (its journal, progress.jsonl), a check that the
code is still the same, and a run folder trimmed of everything half done, so that the runner can go on
from the first unfinished cell of the seeded order."""
import json
import shutil
import time
from pathlib import Path

from analysis.records import FLOOR_CELL, RESULTS, SERVER_EXITS, server_exits

from . import environment
from .progress import JOURNAL, finished


class ResumeError(ValueError):
    pass


def _cells(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "cells.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def check(run: Path, root: Path) -> dict:
    """The run's env.json, if the run can be resumed from this tree: prepared, not finished, and the same
    code (commit and uncommitted changes) as when it began. Raises ResumeError saying why not."""
    try:
        env = json.loads((run / "env.json").read_text(encoding="utf-8"))
        cells = _cells(run)
    except (OSError, ValueError) as e:
        raise ResumeError(f"{run} is not a run that got as far as its first cell (env.json, cells.jsonl): {e}") from e
    info = env["run"]
    now = environment.code_state(root)
    if now["git_commit"] != info.get("git_commit"):
        raise ResumeError(f"run {run.name} was made at commit {str(info.get('git_commit'))[:12]}, but HEAD is "
                          f"{now['git_commit'][:12]}: a run's figures come from one commit; "
                          "check that one out to resume")
    if now["git_dirty"] != info.get("git_dirty") or now["git_diff_sha256"] != info.get("git_diff_sha256"):
        raise ResumeError(f"the tracked files differ from what run {run.name} was made with (uncommitted changes "
                          "added, removed or changed): a run's figures come from one version of the code")
    passes = info["profile"].get("passes", 1)
    if all((p, c["name"]) in finished(run) for p in range(1, passes + 1) for c in cells):
        raise ResumeError(f"run {run.name} finished every cell of its {passes} pass(es): nothing to resume")
    return env


def progress(run: Path) -> tuple[int, int]:
    """Cells finished and cells in all, over every pass."""
    env = json.loads((run / "env.json").read_text(encoding="utf-8"))
    passes = env["run"]["profile"].get("passes", 1)
    names = [c["name"] for c in _cells(run)]
    done = finished(run)
    return sum((p, n) in done for p in range(1, passes + 1) for n in names), passes * len(names)


def _kept(rec: dict, done: set) -> bool:
    if rec["cell"] == FLOOR_CELL:
        return (rec.get("pass", 1), "stage:floor") in done
    if rec["cell"].startswith("handler/"):
        return (1, "stage:handlers") in done
    return (rec.get("pass", 1), rec["cell"]) in done


def _rewrite(path: Path, keep) -> int:
    """Rewrites a JSON Lines file with the lines keep() accepts, and none torn by the kill that interrupted
    the run (they belong to the step it cut short); returns how many lines went."""
    if not path.exists():
        return 0
    kept, dropped = [], 0
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            ok = keep(json.loads(line))
        except ValueError:
            ok = False
        if ok:
            kept.append(line + "\n")
        elif line.strip():
            dropped += 1
    fresh = path.with_name(path.name + ".trimmed")
    fresh.write_text("".join(kept), encoding="utf-8")
    fresh.replace(path)
    return dropped


def trim(run: Path) -> int:
    """Drops the records, server exits and folders (with their facts) of every step the journal does not
    list as finished (a cell the interruption cut short starts again from nothing); returns how many
    records went."""
    done = finished(run)
    dropped = _rewrite(run / RESULTS, lambda rec: _kept(rec, done))
    exits = [f"{p}\t{c}\t{s}\n" for p, c, s in server_exits(run) if (p, c) in done]
    if (run / SERVER_EXITS).exists():
        (run / SERVER_EXITS).write_text("".join(exits), encoding="utf-8")
    # the journal too loses a line torn by the kill, so that the next lines start on a line of their own
    _rewrite(run / JOURNAL, lambda step: True)
    for cell_json in (run / "cells").glob("*/cell.json"):
        name = json.loads(cell_json.read_text(encoding="utf-8"))["name"]
        for pass_dir in cell_json.parent.glob("pass*"):
            if (int(pass_dir.name[4:]), name) not in done:
                shutil.rmtree(pass_dir)
    for pass_dir in (run / "floor").glob("pass*"):
        if (int(pass_dir.name[4:]), "stage:floor") not in done:
            shutil.rmtree(pass_dir)
    if (1, "stage:handlers") not in done and (run / "handlers").exists():
        shutil.rmtree(run / "handlers")
    return dropped


def resume(run: Path, root: Path) -> str:
    """Checks, trims and notes in env.json (run.resumed) when, on which boot of which machine, and after how
    many cells the run went on; returns a line for the runner to print."""
    env = check(run, root)
    dropped = trim(run)
    done, total = progress(run)
    entry = {"time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cells_finished": done,
             "cells_total": total, "records_dropped": dropped, **environment.host()}
    env["run"].setdefault("resumed", []).append(entry)
    (run / "env.json").write_text(json.dumps(env, indent=1, ensure_ascii=False), encoding="utf-8")
    return f"resuming {run.name}: {done} of {total} cells finished; {dropped} records of unfinished steps dropped"
