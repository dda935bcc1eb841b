"""Warming the processes before anything is timed: a cell's warm-up round over its workloads, the cell's own
warm-up right before it is timed, and the warm phase that warms a group of protocols' processes together.

A round is, per workload, `warmup ... until_steady` (runner/PROTOCOL.md) then one untimed repetition of it
exactly as it will be timed (prepare, measure with the plan's calls, min_ms and max_calls, samples dropped), so
that the timing loop is compiled too: JIT clients warmed with warm-up batches alone compiled their measure loop
(as an on-stack replacement, after thousands of iterations) in their first timed repetitions.

A profile that times workloads warms a group of protocols' processes together, as their calls are not timed
(the warm phase): every cell's connect, vectors and a warm-up round, up to `warm_phase.tasks` cells at once on
every CPU, then more rounds for the processes whose compilers are still busy (jit.py). Their cells are then
timed one at a time, each after a short warm-up of its own (warm_cell).
"""
import concurrent.futures
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import jit
from .session import Session

# At most this many passes of a cell's own warm-up over its workloads for processes the warm phase warmed, while
# their compiler threads still took over the profile's share of a CPU in the last pass: a JIT runtime back from
# idling recompiles what its first calls take differently (measured on Apache HttpClient after 60 s idle:
# uncommon traps on the pool's stale-connection check, 20-27% of the client's CPU for a second).
WARM_CELL_ROUNDS = 4


def _ms_since(t0: float) -> int:
    return int((time.monotonic() - t0) * 1000)


def warm_round(session: Session, rows: list[dict], steady: dict, out: Path, mode: str = "full",
               medians: dict | None = None):
    """One warm-up round of the client over the workloads: each until its batch medians agree (bounded by
    `steady`), its answer appended to `out` as it came, then one untimed repetition. A batch is the workload's
    warm-up count of calls, or its least calls per repetition when larger. With mode "rewarm" (processes a full
    round already brought to steady state), batches of the least calls, and the untimed repetition only its least
    calls, not min_ms of them: the full round compiled its loop, and 50 ms a workload were 19 s of a default run.
    A wrong answer is left to the workload's own warm-up, which records it; returns the Answer of a client that
    is gone or hangs, at once, else None. `medians` gets each workload's last batch median (ns)."""
    rewarm = mode == "rewarm"
    for w in rows:
        batch = w["calls"] if rewarm else max(w["warmup"], w["calls"])
        answer = session.call({"cmd": "warmup", "workload": w["name"], "calls": batch, "until_steady": steady})
        if answer.lost:
            return answer
        if answer.status:
            continue
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"workload": w["name"], "answer": answer.data, **({"rewarm": True} if rewarm else {})})
                    + "\n")
        batch_medians = answer.data.get("batch_medians_ns") or []
        if medians is not None and batch_medians:
            medians[w["name"]] = batch_medians[-1]
        for command in ({"cmd": "prepare", "workload": w["name"]},
                        {"cmd": "measure", "workload": w["name"], "calls": w["calls"],
                         "min_ms": 0 if rewarm else w["min_ms"], "max_calls": w["max_calls"]},
                        {"cmd": "samples", "workload": w["name"]}):
            answer = session.call(command)
            if answer.lost:
                return answer
    return None


def steady_bounds(profile: dict, mode: str) -> dict:
    """The until_steady bounds of a full round, of a cell's re-warm (rewarm_ms) and of the warm phase's rounds
    that only keep calls coming (phase_max_ms)."""
    steady = profile["steady"]
    max_ms = {"full": steady["max_ms"], "rewarm": steady["rewarm_ms"], "phase": steady["phase_max_ms"]}[mode]
    return {"tolerance": steady["tolerance"], "max_ms": max_ms}


@dataclass
class CellWarmth:
    """What a cell's own warm-up came to: the client that was lost (its Answer), the seconds it took when a new
    process warmed its JIT here (for the warm fact), and each workload's last batch median (ns)."""
    lost: object = None
    warmed_s: int | None = None
    medians: dict = field(default_factory=dict)


def warm_cell(session: Session, rows: list[dict], profile: dict, server: jit.Warmth, client: jit.Warmth,
              out: Path) -> CellWarmth:
    """Warms every workload of the cell before any is measured: JIT compilers (and their threads, on the same
    cores) would otherwise still be busy with the whole cell's code while the first workloads are timed.
    Processes that have made a full round (the warm phase's, or an earlier cell's) are only re-warmed, now that
    they are pinned; the passes repeat while a process started for this cell still warms its JIT, and, for
    processes the warm phase warmed, while their compiler threads took over the profile's share of a CPU in the
    last pass (at most WARM_CELL_ROUNDS). Then the compiles the last pass queued drain (jit.settle)."""
    quiet, window_ms = profile["jit_quiet"]["share"], int(profile["jit_quiet"]["window_s"] * 1000)
    started, result = time.monotonic(), CellWarmth()
    warming = not (server.warm(quiet, window_ms) and client.warm(quiet, window_ms))
    rounds = 0
    while True:
        rewarm = not warming and server.rounds > 0 and client.rounds > 0
        mode = "rewarm" if rewarm else "full"
        t0 = time.monotonic()
        lost = warm_round(session, rows, steady_bounds(profile, mode), out, mode, result.medians)
        if lost is not None:
            result.lost = lost
            return result
        if not rewarm:
            server.rounds, client.rounds = server.rounds + 1, client.rounds + 1
        busy = _ms_since(t0)
        server.note(busy)
        client.note(busy)
        rounds += 1
        if warming:
            if server.warm(quiet, window_ms) and client.warm(quiet, window_ms):
                break
        elif rounds >= WARM_CELL_ROUNDS or (server.round_quiet(quiet) and client.round_quiet(quiet)):
            break
    if warming:
        result.warmed_s = int(time.monotonic() - started)
    jit.settle(server.pid, server.pattern)
    jit.settle(client.pid, client.pattern)
    return result


def fixed_warmup(row: dict, median_ns: int, warmup_max_ms: int) -> int:
    """A workload's fixed warm-up right before its repetitions: the plan's count, or, with the profile's
    warmup_max_ms, as many calls as that many milliseconds hold at the median of the workload's last warm-up batch
    (at least the repetition's calls): the cell's re-warm has just run the workload, and 200 calls of a
    WS-Security stack are 2 s."""
    if warmup_max_ms <= 0 or median_ns <= 0:
        return row["warmup"]
    cap = max(warmup_max_ms * 1_000_000 // median_ns, row["calls"])
    return min(row["warmup"], cap)


# ------------------------------------------------------------------------------------------------ warm phase
@dataclass
class PhaseCell:
    """One cell of a warm phase and the state of its tasks."""
    slug: str
    dir: Path
    server: str  # the keys of its processes
    client: str
    first_done: bool = False


@dataclass
class Process:
    key: str
    pid: int
    dir: Path
    warmth: jit.Warmth
    port: int | None = None
    failed: str = ""  # a server that never got ready: why
    lost: bool = False
    seen: bool = False  # taken by a first task already: its next first tasks find it kept
    first_left: int = 0
    busy: bool = False


class Phase:
    """The warm phase's scheduler: tasks of cells, up to `tasks` at once, each with a client and a server no other
    running task has; first each cell's connect, vectors and first round, then rounds of cells whose server or
    client is not yet warm, taken in turn. The first tasks go in the order of their processes' longest JIT bound,
    longest first (the pass's order among equals): their compilers' work is the phase's longest path."""

    def __init__(self, cells: list[PhaseCell], processes: dict[str, Process], profile: dict, first_task, round_task):
        self.cells, self.processes, self.profile = cells, processes, profile
        self.first_task, self.round_task = first_task, round_task
        self.quiet = profile["jit_quiet"]["share"]
        self.window_ms = int(profile["jit_quiet"]["window_s"] * 1000)

    def bound(self, cell: PhaseCell) -> float:
        """The longest JIT bound (warmup_max_s, at least 1) of the cell's processes with a JIT to wait for, 0 when
        neither has one."""
        bounds = [max(p.warmth.max_s, 1) for p in (self.processes[cell.server], self.processes[cell.client])
                  if p.warmth.pattern]
        return max(bounds, default=0)

    def free(self, cell: PhaseCell) -> bool:
        server, client = self.processes[cell.server], self.processes[cell.client]
        return not (server.busy or client.busy or client.lost or server.failed)

    def wanted(self, cell: PhaseCell) -> bool:
        """Its server or client still warms: all of its first tasks done, its JIT not yet quiet."""
        return any(p.first_left == 0 and not p.warmth.warm(self.quiet, self.window_ms)
                   for p in (self.processes[cell.server], self.processes[cell.client]))

    def run(self, settled, timing) -> None:
        """Runs every task; settled(cell) and timing(cell) say what a cell's first task found."""
        pending = sorted((c for c in self.cells if not settled(c)), key=lambda c: -self.bound(c))
        for c in pending:
            self.processes[c.server].first_left += 1
            self.processes[c.client].first_left += 1
        running: dict = {}
        following = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.profile["warm_phase"]["tasks"]) as pool:
            while True:
                still = []
                for c in pending:
                    if len(running) < self.profile["warm_phase"]["tasks"] and self.free(c):
                        running[self._start(pool, c, True)] = (c, True)
                    else:
                        still.append(c)
                pending = still
                n, tries = len(self.cells), 0
                while len(running) < self.profile["warm_phase"]["tasks"] and tries < n:
                    c = self.cells[(following + tries) % n]
                    tries += 1
                    if timing(c) and not settled(c) and self.free(c) and self.wanted(c):
                        running[self._start(pool, c, False)] = (c, False)
                        following = (self.cells.index(c) + 1) % n
                if not running:
                    break
                done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    cell, first = running.pop(future)
                    self._finished(cell, first, *future.result(), timing(cell))
        for c in self.cells:  # how each process's warm-up ended: quiet, at its bound, or unfinished
            for key in (c.server, c.client):
                self.processes[key].warmth.warm(self.quiet, self.window_ms)

    def _start(self, pool, cell: PhaseCell, first: bool):
        server, client = self.processes[cell.server], self.processes[cell.client]
        ages = ("kept" if client.seen else "new", "kept" if server.seen else "new")
        if first:
            client.seen = server.seen = True
        server.busy = client.busy = True
        task = self.first_task if first else self.round_task
        return pool.submit(task, cell, self.bound(cell), *ages)

    def _finished(self, cell: PhaseCell, first: bool, lost: bool, busy_ms: int, full_round: bool, timing: bool):
        server, client = self.processes[cell.server], self.processes[cell.client]
        server.busy = client.busy = False
        if first:
            server.first_left -= 1
            client.first_left -= 1
        if full_round and timing:
            server.warmth.rounds += 1
            client.warmth.rounds += 1
        server.warmth.note(busy_ms)
        if lost:
            # its other cells start a client of their own when they are timed, and warm up there
            client.lost, client.first_left = True, 0
        else:
            client.warmth.note(busy_ms)
