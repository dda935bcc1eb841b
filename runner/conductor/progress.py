"""How far a run has come: its journal (progress.jsonl: the steps it finished, each written only after all its
records are), the estimated work of its cells, and the progress line printed after each cell with the time
left, from the work the remaining cells have, scaled by how long the work done so far really took."""
import json
import sys
import time
from pathlib import Path

from .cells import can_run
from .plan import read_plan, read_profile

JOURNAL = "progress.jsonl"
PLANNED = "planned"


def estimate_seconds(run: Path, cell: dict, warm_s: float | None = None) -> int:
    """A rough cost of one cell, for the progress line: start-up and vectors, the cell's warm-up (a share of
    each workload's bound, or the JIT warm-up its new processes still need when longer: `warm_s`, or half
    the larger of its sides' `warmup_max_s` when not given), then per workload the fixed warm-up and the
    repetitions' minimum time."""
    if not can_run(cell):
        return 0
    profile = read_profile(run)
    steady_s = profile["steady"]["max_ms"] / 1000
    rows = read_plan(run, cell["protocol"])
    least_s = max(jit_estimate_s(cell, "server"), jit_estimate_s(cell, "client")) if warm_s is None else warm_s
    if not profile["implementation_warmup"]:
        least_s = 0
    total = 6.0 + max(least_s, 0.25 * steady_s * len(rows))
    for w in rows:
        total += 0.5 + w["repetitions"] * max(w["min_ms"] / 1000, 0.05)
    return int(total)


def jit_estimate_s(cell: dict, role: str) -> float:
    """What a new process of the cell's ROLE is expected to spend warming its JIT, for the time left: half its
    bound (`warmup_max_s`), none without a JIT (`jit_threads`)."""
    if not cell.get(f"{role}_jit_threads"):
        return 0
    return (cell.get(f"{role}_warmup_max_s") or 0) / 2


def estimate_run(run: Path, cells: list[dict], passes: int, kept: bool) -> int:
    """The cost of every pass over `cells` when processes are kept across cells: each server and each
    client implementation of a protocol warms its JIT once per pass, not once per cell."""
    if not kept:
        return passes * sum(estimate_seconds(run, c) for c in cells)
    warmed: set = set()
    total = 0
    for cell in cells:
        server, client = (cell["protocol"], "server", cell["server"]), (cell["protocol"], "client", cell["client"])
        least = max(0 if server in warmed else jit_estimate_s(cell, "server"),
                    0 if client in warmed else jit_estimate_s(cell, "client"))
        if can_run(cell):
            warmed |= {server, client}
        total += estimate_seconds(run, cell, least)
    return passes * total


def estimate_done(run: Path, cell: dict, pass_no: int) -> int:
    """The cost of a cell just run, with the warm-up its processes needed then (connect.json says which
    were new to it)."""
    connect = run / "cells" / cell.get("slug", "") / f"pass{pass_no}" / "connect.json"
    processes = json.loads(connect.read_text()).get("processes") if connect.exists() else None
    if not processes:
        return estimate_seconds(run, cell)
    least = max(0 if processes.get("server") == "kept" else jit_estimate_s(cell, "server"),
                0 if processes.get("client") == "kept" else jit_estimate_s(cell, "client"))
    return estimate_seconds(run, cell, least)



def finished(run: Path) -> set[tuple[int, str]]:
    """(pass, what) of every step the run finished: a cell's name, "stage:floor" or "stage:handlers"."""
    done = set()
    path = run / JOURNAL
    if path.exists():
        for text in path.read_text(encoding="utf-8").splitlines():
            try:
                step = json.loads(text)
            except ValueError:
                continue  # blank, or torn by the kill that interrupted the run: that step starts again
            done.add((step["pass"], step["cell"] if "cell" in step else f"stage:{step['stage']}"))
    return done


def journal(run: Path, pass_no: int, cell: str | None = None, stage: str | None = None, work: int = 0,
            lane: int = 0) -> None:
    """A step is finished: one line, appended once its records are written."""
    entry = {"pass": pass_no, **({"cell": cell} if cell else {"stage": stage}), "work": work, "lane": lane,
             "t": int(time.time())}
    with open(run / JOURNAL, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, ensure_ascii=False) + "\n")


def finished_work(run: Path, cells: list[dict]) -> int:
    """The estimated seconds of the cells already finished, so that the time left counts only the rest."""
    by_name = {c["name"]: c for c in cells}
    return sum(estimate_done(run, by_name[name], p) for p, name in finished(run) if name in by_name)


def human_seconds(s: int) -> str:
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def time_left(run: Path, since: int, lane: int, pass_no: int) -> int:
    """Seconds left of the session begun at `since` (or of a lane's share of its pass), from the work its
    finished cells had and how long they really took."""
    planned_file = (run / "plan" / "lanes" / f"pass{pass_no}" / PLANNED) if lane else run / "plan" / PLANNED
    planned = int(planned_file.read_text()) if planned_file.exists() else 0
    done = 0
    for text in (run / JOURNAL).read_text(encoding="utf-8").splitlines() if (run / JOURNAL).exists() else []:
        try:
            entry = json.loads(text)
        except ValueError:
            continue
        if entry.get("t", 0) >= since and entry.get("lane", 0) == lane:
            done += entry.get("work", 0)
    if done <= 0 or planned <= done:
        return 0
    return int((time.time() - since) * (planned - done) / done)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def cell_line(run: Path, index: int, total: int, name: str, summary: str, since: int, lane: int, pass_no: int) -> str:
    """The cell's progress line: its outcome and the time left; in a lane, whole, as other lanes print theirs
    meanwhile (the runner printed the index and name of a cell outside lanes when it began)."""
    left = human_seconds(time_left(run, since, lane, pass_no))
    if lane:
        return f"[{index}/{total}] {name} {summary} (lane {lane}: about {left} left)"
    return f"{summary} (about {left} left)"
