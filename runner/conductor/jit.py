"""When a process is warm. A JIT runtime (the JVM) compiles hot code in threads of its own for seconds to minutes;
until they go quiet they share the CPU with the calls being timed. How long differs by stack (measured on this
project's machine: Java raw TCP about 6 s, the HTTP stacks 16-27 s, CXF SOAP about 50 s), so no fixed time fits:
a process is warm when its compiler threads (the manifest's `jit_threads`, thread names in
/proc/<pid>/task/*/comm) used less than the profile's `jit_quiet.share` of a CPU over its last `window_s` seconds
of calls, or once it has made `warmup_max_s` seconds of calls.

Each process's warm-up is a Warmth, kept in its process folder (warmth.json) from one step of the run to the
next: the warm phase, then each cell it serves.
"""
import json
import math
import os
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
WARMTH = "warmth.json"


def group_pids(pgid: int) -> list[int]:
    """The processes of a process group, from /proc."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            rest = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(rest[2]) == pgid:  # after the name: state, ppid, pgrp
            out.append(int(stat.parent.name))
    return out


def group_alive(pgid: int) -> bool:
    """Any process of the group is left that is not a zombie."""
    for pid in group_pids(pgid):
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                return True
        except (OSError, IndexError):
            continue
    return False


def thread_ticks(pgid: int, pattern: str) -> int:
    """The CPU time (user + system, clock ticks) of the group's threads whose name matches pattern."""
    if not pattern:
        return 0
    regex, total = re.compile(pattern), 0
    for pid in group_pids(pgid):
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                comm = (task / "comm").read_text().rstrip("\n")
                rest = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if regex.search(comm):
                total += int(rest[11]) + int(rest[12])
    return total


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Warmth:
    """One process's warm-up: the pattern of its compiler threads ("" when it has none followed), its bound
    (seconds of calls), when it started, its compiler ticks at the last reading and when that was, the ms of
    calls it made, its readings [busy_ms, wall_ms, ticks] (newest last), how it ended (quiet or bound) and the
    seconds it took, and the full warm-up rounds it has made (any process: one brings it to steady state, a
    cell's own warm-up then only re-warms it)."""
    pid: int
    pattern: str = ""
    max_s: float = 0
    started_ms: int = field(default_factory=lambda: now_ms())
    last_ticks: int = 0
    last_ms: int = field(default_factory=lambda: now_ms())
    busy_ms: int = 0
    history: list = field(default_factory=list)
    done: str = ""
    took_s: int | None = None
    rounds: int = 0

    @classmethod
    def track(cls, pid: int, pattern: str, max_s: float) -> "Warmth":
        """A new process, followed from now."""
        return cls(pid=pid, pattern=pattern, max_s=max_s or 0, last_ticks=thread_ticks(pid, pattern))

    @classmethod
    def load(cls, process_dir: Path, pid: int, pattern: str, max_s: float) -> tuple["Warmth", bool]:
        """The process's warm-up so far, and whether it is new (never followed before)."""
        path = Path(process_dir) / WARMTH
        if path.exists():
            saved = cls(**json.loads(path.read_text()))
            if saved.pid == pid:
                return saved, False
        return cls.track(pid, pattern, max_s), True

    def save(self, process_dir: Path) -> None:
        (Path(process_dir) / WARMTH).write_text(json.dumps(asdict(self)))

    def note(self, busy_ms: int) -> None:
        """The process made calls for busy_ms since its last reading: its compiler threads' ticks since then, and
        the time since then, go into its history."""
        if not self.pattern:
            return
        ticks, now = thread_ticks(self.pid, self.pattern), now_ms()
        # a compiler thread that exited took its ticks with it (the JVM stops extra ones when idle)
        self.history.append([busy_ms, now - self.last_ms, max(ticks - self.last_ticks, 0)])
        self.last_ticks, self.last_ms = ticks, now
        self.busy_ms += busy_ms

    def share(self, window_ms: int) -> tuple[float, int]:
        """Over the newest readings whose calls cover the window (all of them when they cover less): the compiler
        threads' CPU as a share of the time those readings span, and the ms of calls they hold. Against the time,
        not the calls: a process that takes turns with others compiles between its calls too."""
        busy = wall = ticks = 0
        for b, w, t in reversed(self.history):
            if busy >= window_ms:
                break
            busy, wall, ticks = busy + b, wall + w, ticks + t
        return (ticks / CLOCK_TICKS * 1000 / wall if wall > 0 else 0.0), busy

    def round_quiet(self, quiet_share: float) -> bool:
        """Its compiler threads took less than the share of a CPU over its last reading, or less than three clock
        ticks (one or two are no evidence), or it has no JIT followed."""
        if not self.pattern or not self.history:
            return True
        _, wall, ticks = self.history[-1]
        return ticks < 3 or wall <= 0 or ticks / CLOCK_TICKS * 1000 / wall < quiet_share

    def warm(self, quiet_share: float, window_ms: int) -> bool:
        """It needs no more warm-up: no JIT to wait for, its compiler threads went quiet over a whole window of
        calls, or it has made calls for its bound (or, as a guard, three times that has gone by). Marks it done."""
        if self.done:
            return True
        elapsed_s = (now_ms() - self.started_ms) // 1000
        if not self.pattern:
            self.done = "quiet"
        else:
            share, busy = self.share(window_ms)
            if busy >= window_ms and share < quiet_share:
                self.done = "quiet"
            elif self.busy_ms >= self.max_s * 1000 or elapsed_s >= 3 * self.max_s:
                self.done = "bound"
            else:
                return False
        self.took_s = elapsed_s
        return True

    def summary(self, window_ms: int) -> dict:
        """How its warm-up came out (runner/FACTS.md, kind warm)."""
        if not self.pattern:
            return {"jit": False}
        share, busy = self.share(window_ms)
        took = self.took_s if self.took_s is not None else (now_ms() - self.started_ms) // 1000
        return {"jit": True, "ended": self.done or "unfinished", "share": math.floor(share * 1000) / 1000,
                "window_ms": busy,
                "warm_s": took, "busy_s": self.busy_ms // 1000}


def settle(pgid: int, pattern: str) -> None:
    """Waits (at most 3 s) until the group's compiler threads took no CPU over 0.2 s with the calls stopped: the
    compiles the last warm-up round queued drain before the first timed repetition, not during it."""
    if not pattern:
        return
    last, still = -1, 0
    for _ in range(30):
        ticks = thread_ticks(pgid, pattern)
        still = still + 1 if ticks == last else 0
        last = ticks
        if still >= 2:
            return
        time.sleep(0.1)
