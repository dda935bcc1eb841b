"""A cell's untimed part and its end, driven from the conductor while the shell holds the processes: the client
connects to the cell's server, answers the contract's vectors and, where the registry names published metadata,
says whether it can build a client from it; the workloads are timed only when the vectors allow it, after the
cell's warm-up; then the timing plan for the shell's timed window (timing.tsv). A cell with nothing to time is
ended here: its facts folded into records, journalled, its progress line printed. Also the cells that cannot
run, the warm phase's tasks and the languages' handlers."""
import gzip
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from analysis import known_failures

from . import facts, fold, jit, load, plan, progress, proxy, variant, warmup
from .cells import jit_threads_read
from .session import HUNG, Answer, Session

TIMED, LOST, ENDED = 0, 3, 4  # cell-start's exit status: time the workloads; the client is lost; nothing to time
TIMING = "timing.tsv"


@dataclass
class Run:
    """The run a step belongs to, with what every step reads: its resolved options and profile."""
    dir: Path
    options: dict
    profile: dict

    @classmethod
    def load(cls, run: Path) -> "Run":
        return cls(run, json.loads((run / "plan" / "run.json").read_text()), plan.read_profile(run))

    @property
    def timeout_s(self) -> int:
        return self.options["command_timeout"]

    def rows(self, protocol: str) -> list[dict]:
        return plan.read_plan(self.dir, protocol)

    def has_metadata(self, protocol: str) -> bool:
        registry = json.loads((Path(self.options["idl"]) / "protocols.json").read_text())["protocols"]
        return bool(registry.get(protocol, {}).get("metadata"))

    def allows_timing(self, cell: dict, vectors: dict) -> bool:
        """The cell's vectors all passed or are unsupported, or the ones that failed are known failures of it."""
        entries = known_failures.load(Path(self.options["known_failures"]))
        return known_failures.vectors_allow_timing(entries, cell["name"], vectors)

    def pattern(self, cell: dict, role: str) -> str:
        """The compiler threads a warm-up waits for (cells.jit_threads_read): none when the profile skips the
        implementations' JIT warm-up."""
        read = jit_threads_read(cell, role, bool(self.options.get("remote")))
        return read if self.profile["implementation_warmup"] else ""


def read_cell(run: Path, slug: str) -> dict:
    return json.loads((run / "cells" / slug / "cell.json").read_text())


def point_scratch(run: Path, cell: dict) -> None:
    """The client's {cell} is now its server's scratch folder (a relative link: both are in processes/)."""
    link = run / "processes" / f"cell-{cell['protocol']}-{cell['client']}"
    link.parent.mkdir(parents=True, exist_ok=True)
    fresh = link.with_name(link.name + ".new")
    fresh.unlink(missing_ok=True)
    fresh.symlink_to(f"scratch-{cell['protocol']}-{cell['server']}")
    fresh.replace(link)


def link_logs(cell_dir: Path, process_dir: Path, *names: str) -> None:
    """The cell's own view of a process's files, as relative links (as runner/lib/live.sh makes them)."""
    for name in names:
        link = cell_dir / name
        link.unlink(missing_ok=True)
        link.symlink_to(os.path.relpath(process_dir / name, cell_dir))


def lost_reason(answer: Answer, server_pid: int | None) -> str:
    """Why the client failed, and whether its server had gone by then."""
    gone = answer.status != HUNG and server_pid and not jit.group_alive(server_pid)
    return answer.error + ("; the server had exited" if gone else "")


def record_lost(cell_dir: Path, pass_no: int, answer: Answer, prefix: str, start: str, server_pid: int | None):
    """The rest of the cell, from `start` on, as the client's failure: an error when it is gone, a time-out when it
    hangs, or (a wrong answer) an error."""
    status = "timeout" if answer.status == HUNG else "error"
    facts.write(cell_dir, "status", **{"pass": pass_no, "status": status, "from": start,
                                       "reason": prefix + lost_reason(answer, server_pid)})


def connect_vectors(run: Run, session: Session, cell: dict, cell_dir: Path, pass_no: int, host: str, port: int,
                    ages: tuple[str, str], server_pid: int | None) -> Answer | None:
    """The client connects to the server, answers the contract's vectors and, where the registry names published
    metadata, whether it can consume it; the connect answer (with each process's age: new or kept), the vectors
    and the metadata are the cell's. Returns the Answer that ended the cell (its rest recorded), or None."""
    answer = session.call({"cmd": "connect", "host": host, "port": port, **variant.connect_fields(cell)})
    if answer.status:
        record_lost(cell_dir, pass_no, answer, "connect: ", "vectors", server_pid)
        return answer
    connect = answer.data | {"processes": {"client": ages[0], "server": ages[1]}}
    (cell_dir / "connect.json").write_text(json.dumps(connect) + "\n")
    refused = variant.unacknowledged(cell, answer.data)
    if refused:
        facts.write(cell_dir, "status", **{"pass": pass_no, "status": "error", "from": "vectors",
                                           "reason": f"connect: {refused}"})
        return answer
    answer = session.call({"cmd": "vectors", "protocol": cell["protocol"]})
    if answer.status:
        record_lost(cell_dir, pass_no, answer, "vectors: ", "vectors", server_pid)
        return answer
    (cell_dir / "vectors.json").write_text(json.dumps(answer.data) + "\n")
    if run.has_metadata(cell["protocol"]):
        metadata = session.call({"cmd": "metadata", "protocol": cell["protocol"]})
        if metadata.lost:
            facts.write(cell_dir, "vectors", **{"pass": pass_no})
            record_lost(cell_dir, pass_no, metadata, "metadata: ", "workloads", server_pid)
            return metadata
        (cell_dir / "metadata.json").write_text(json.dumps(metadata.data or {"ok": False, "error": metadata.error})
                                                + "\n")
    facts.write(cell_dir, "vectors", **{"pass": pass_no})
    return None


def timed_next(run: Run, cell: dict, cell_dir: Path, pass_no: int) -> bool:
    """After the vectors: whether the cell's workloads are timed (else why not is recorded)."""
    if not run.rows(cell["protocol"]):
        return False
    vectors = json.loads((cell_dir / "vectors.json").read_text())
    if run.allows_timing(cell, vectors):
        return True
    facts.write(cell_dir, "status", **{"pass": pass_no, "status": "fail", "from": "workloads", "blocked_by": "vectors",
                                       "reason": "not timed: the cell's vectors did not all pass (correctness before "
                                                 "speed)"})
    return False


@dataclass
class Live:
    """A process the shell started: its pid (the group's), its folder, and whether it was started for this cell."""
    pid: int
    dir: Path
    new: bool
    port: int | None = None


def start(run: Run, slug: str, pass_no: int, host: str, server: Live, client: Live) -> int:
    """The cell's untimed part (see the module's text); returns TIMED with timing.tsv written, LOST (the client is
    gone or hangs: the shell retires it) or ENDED."""
    cell = read_cell(run.dir, slug)
    host = cell.get("server_host") or host  # a server elsewhere (--server-at) is dialled at its own address
    cell_dir = run.dir / "cells" / slug / f"pass{pass_no}"
    point_scratch(run.dir, cell)
    proxy.mark(run.dir, cell_dir)  # the requests the proxy relays from here on are the cell's (variant.check)
    server_warmth, _ = jit.Warmth.load(server.dir, server.pid, run.pattern(cell, "server"),
                                       cell["server_warmup_max_s"])
    client_warmth, _ = jit.Warmth.load(client.dir, client.pid, run.pattern(cell, "client"),
                                       cell["client_warmup_max_s"])
    with Session(client.dir, run.timeout_s) as session:
        if (cell_dir / ".timing").exists():  # the warm phase ran its vectors: it reconnects to be timed
            answer = session.call({"cmd": "connect", "host": host, "port": server.port, **variant.connect_fields(cell)})
            if answer.status:
                record_lost(cell_dir, pass_no, answer, "connect: ", "vectors", server.pid)
                return LOST if answer.lost else ENDED
        else:
            ages = ("new" if client.new else "kept", "new" if server.new else "kept")
            ended = connect_vectors(run, session, cell, cell_dir, pass_no, host, server.port, ages, server.pid)
            if ended is not None:
                return LOST if ended.lost else ENDED
            if not timed_next(run, cell, cell_dir, pass_no):
                return ENDED
        rows = run.rows(cell["protocol"])
        warmed = warmup.warm_cell(session, rows, run.profile, server_warmth, client_warmth, cell_dir / "warmup.jsonl")
    server_warmth.save(server.dir)
    client_warmth.save(client.dir)
    if warmed.lost is not None:
        record_lost(cell_dir, pass_no, warmed.lost, "warm-up: ", "workloads", server.pid)
        return LOST
    window_ms = int(run.profile["jit_quiet"]["window_s"] * 1000)
    if warmed.warmed_s is not None:
        facts.write(cell_dir, "warm", **{"pass": pass_no, "seconds": warmed.warmed_s,
                                         "server": server_warmth.summary(window_ms),
                                         "client": client_warmth.summary(window_ms)})
    if run.profile.get("load"):  # latency under load: the first round of points (load.py)
        s = load.settings(run.profile)
        load.write_round(cell_dir, cell_dir / TIMING, s, load.first_round(s))
        return TIMED
    (cell_dir / TIMING).write_text("".join(timing_line(w, warmup.fixed_warmup(
        w, warmed.medians.get(w["name"], 0), run.profile["warmup_max_ms"]), run.profile) for w in rows))
    return TIMED


def timing_next(run: Run, slug: str, pass_no: int) -> bool:
    """A load profile's next round of points, planned from those the cell ran (load.py); False when none is left."""
    cell_dir = run.dir / "cells" / slug / f"pass{pass_no}"
    s = load.settings(run.profile)
    points = load.answers(cell_dir)
    return load.write_round(cell_dir, cell_dir / TIMING, s, load.next_round(points, s), points)


def timing_line(w: dict, fixed_warmup: int, profile: dict) -> str:
    """One workload of the timing plan the shell executes (runner/lib/cell.sh: time_workloads, count_wire): its
    name, size, fixed warm-up, calls, repetitions and min_ms (for its fact), then each command it sends as the
    client reads it: prepare, the fixed warm-up, one repetition, samples, and the counting pass's repetition (at
    least count_ms, at least one call, at most count_calls)."""
    name = w["name"]
    commands = [{"cmd": "prepare", "workload": name}, {"cmd": "warmup", "workload": name, "calls": fixed_warmup},
                {"cmd": "measure", "workload": name, "calls": w["calls"], "min_ms": w["min_ms"],
                 "max_calls": w["max_calls"]},
                {"cmd": "samples", "workload": name},
                {"cmd": "measure", "workload": name, "calls": 1, "min_ms": profile["count_ms"],
                 "max_calls": profile["count_calls"]}]
    columns = [name, w["size"], fixed_warmup, w["calls"], w["repetitions"], w["min_ms"]]
    return "\t".join([*map(str, columns), *(json.dumps(c) for c in commands)]) + "\n"


def steal_ticks() -> int:
    """The machine's steal time so far, in clock ticks (the eighth CPU column of /proc/stat): time a hypervisor
    gave this machine's virtual CPUs to someone else."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    return int(fields[8]) if len(fields) > 8 else 0


def finish(run: Run, slug: str, pass_no: int, steal_before: int | None, floor_before: str | None,
           floor_after: str | None) -> tuple[int, str]:
    """The cell is over: its end as a fact (steal time, the CPU probe run before it, the floors around it), its
    facts folded into records; returns the work it had and its summary for the progress line."""
    cell_dir = run.dir / "cells" / slug / f"pass{pass_no}"
    probe = cell_dir / "calibration.json"
    calibration = None
    if probe.exists():
        try:
            calibration = json.loads(probe.read_text()).get("ns")
        except ValueError:
            pass
    if floor_after:
        facts.write(cell_dir, "floor_after", **{"pass": pass_no, "floor": floor_after})
    steal = steal_ticks() - steal_before if steal_before is not None else 0
    facts.write(cell_dir, "cell_end", **{"pass": pass_no, "steal_ticks": steal, "calibration_ns": calibration,
                                         "floor": floor_before})
    for samples in cell_dir.glob("*.samples.json"):
        with open(samples, "rb") as f, gzip.open(f"{samples}.gz", "wb") as g:
            g.write(f.read())
        samples.unlink()
    return fold.end_cell(run.dir, cell_dir)


def declined(run: Run, pass_no: int, entries: list[tuple[int, str]], total: int, lane: int) -> None:
    """The cells that cannot run (unsupported, an error of the plan, a failed build): each one's reason as its
    records, folded together, journalled, one progress line each."""
    for index, slug in entries:
        cell = read_cell(run.dir, slug)
        cell_dir = run.dir / "cells" / slug / f"pass{pass_no}"
        cell_dir.mkdir(parents=True, exist_ok=True)
        status, reason = "error", cell.get("error")
        if not reason and cell.get("unsupported"):
            status, reason = "unsupported", cell["unsupported"]
        if not reason:
            reason = build_failure(run.dir, cell)
        facts.write(cell_dir, "status", **{"pass": pass_no, "status": status, "reason": reason, "from": "vectors"})
        work, summary = fold.end_cell(run.dir, cell_dir)
        progress.journal(run.dir, pass_no, cell=cell["name"], work=work, lane=lane)
        progress.say(f"[{index}/{total}] {cell['name']} {summary}")


def build_failure(run: Path, cell: dict) -> str:
    for language in (cell["server_language"], cell["client_language"]):
        log = run / "build" / f"{language}.log"
        if (run / "build" / f"{language}.failed").exists():
            last = log.read_text(errors="replace").splitlines()[-3:] if log.exists() else []
            return f"build of {language} failed: {' '.join(last)} "
    return "not run"


# ------------------------------------------------------------------------------------------------ warm phase
def warm_phase(run: Run, pass_no: int, phase_file: Path, live_file: Path, host: str) -> list[str]:
    """The phase's processes, started by the shell (live_file: `server KEY PID PORT DIR` and `client KEY PID -
    DIR`, or `server KEY - - DIR REASON` for one that never got ready), warmed together: each cell's connect,
    vectors and first round, then rounds while a process's JIT is busy. A cell whose server never got ready, or
    whose client failed or hung here, has its facts settled (.settled); the others may be timed (.timing).
    Returns the keys of the clients lost (the shell retires them)."""
    started = time.monotonic()
    processes: dict[str, warmup.Process] = {}
    cells: list[warmup.PhaseCell] = []
    patterns = {}
    for row in phase_file.read_text().splitlines():
        kind, *cols = row.split("\t")
        if kind == "cell":
            cell = read_cell(run.dir, cols[0])
            cell_dir = run.dir / "cells" / cols[0] / f"pass{pass_no}"
            cell_dir.mkdir(parents=True, exist_ok=True)
            for marker in (".settled", ".timing"):
                (cell_dir / marker).unlink(missing_ok=True)
            server_key = f"server|{cell['protocol']}|{cell['server']}"
            client_key = f"client|{cell['protocol']}|{cell['client']}"
            patterns[server_key] = (run.pattern(cell, "server"), cell["server_warmup_max_s"])
            patterns[client_key] = (run.pattern(cell, "client"), cell["client_warmup_max_s"])
            cells.append(warmup.PhaseCell(cols[0], cell_dir, server_key, client_key))
    for row in live_file.read_text().splitlines():
        role, key, pid, port, folder, *why = row.split("\t")
        pattern, max_s = patterns.get(key, ("", 0))
        warmth = jit.Warmth.track(int(pid), pattern, max_s) if pid != "-" else jit.Warmth(pid=0)
        processes[key] = warmup.Process(key, int(pid) if pid != "-" else 0, Path(folder), warmth,
                                        int(port) if port != "-" else None, why[0] if why else "")
    for c in cells:  # a server that never got ready ends each of its cells here
        server = processes[c.server]
        link_logs(c.dir, server.dir, "server.out", "server.log")
        if c.client in processes:
            link_logs(c.dir, processes[c.client].dir, "client.log")
        if server.failed:
            facts.write(c.dir, "status", **{"pass": pass_no, "status": "error", "reason": server.failed,
                                            "from": "vectors"})
            (c.dir / ".settled").touch()
    by_slug = {c.slug: read_cell(run.dir, c.slug) for c in cells}
    protocols = " ".join(sorted({cell["protocol"] for cell in by_slug.values()}))
    progress.say(f"rpcmatrix: warming {protocols} ({len(cells)} cells) on every CPU")

    def first_task(c: warmup.PhaseCell, bound: float, client_age: str, server_age: str):
        """A cell's connect, vectors and published metadata as run_cell would record them, whether its workloads
        may be timed (.timing) or the cell is settled (.settled); then, when they may be timed, one warm-up round:
        bounded by the profile's max_ms where a process has a JIT to wait for, else by its phase_max_ms."""
        t0, cell = time.monotonic(), by_slug[c.slug]
        server, client = processes[c.server], processes[c.client]
        point_scratch(run.dir, cell)
        with Session(client.dir, run.timeout_s) as session:
            ended = connect_vectors(run, session, cell, c.dir, pass_no, cell.get("server_host") or host, server.port,
                                    (client_age, server_age), server.pid)
            if ended is not None:
                (c.dir / ".settled").touch()
                return ended.lost, warmup._ms_since(t0), False
            if not timed_next(run, cell, c.dir, pass_no):
                (c.dir / ".settled").touch()
                return False, warmup._ms_since(t0), True
            (c.dir / ".timing").touch()
            mode = "full" if bound > 0 else "phase"
            lost = warmup.warm_round(session, run.rows(cell["protocol"]), warmup.steady_bounds(run.profile, mode),
                                     c.dir / "warm-phase.jsonl", mode)
        if lost is not None:
            record_lost(c.dir, pass_no, lost, "warm-up: ", "workloads", server.pid)
            (c.dir / ".settled").touch()
            return True, warmup._ms_since(t0), False
        return False, warmup._ms_since(t0), True

    def round_task(c: warmup.PhaseCell, bound: float, *_ages):
        """Another round that only keeps calls coming (phase_max_ms) for a process whose compiler is not quiet."""
        t0, cell = time.monotonic(), by_slug[c.slug]
        server, client = processes[c.server], processes[c.client]
        point_scratch(run.dir, cell)
        with Session(client.dir, run.timeout_s) as session:
            answer = session.call({"cmd": "connect", "host": cell.get("server_host") or host, "port": server.port,
                                   **variant.connect_fields(cell)})
            if answer.status:
                return answer.lost, warmup._ms_since(t0), False
            lost = warmup.warm_round(session, run.rows(cell["protocol"]), warmup.steady_bounds(run.profile, "phase"),
                                     c.dir / "warm-phase.jsonl", "phase")
        return lost is not None, warmup._ms_since(t0), lost is None

    phase = warmup.Phase(cells, processes, run.profile, first_task, round_task)
    phase.run(settled=lambda c: (c.dir / ".settled").exists(), timing=lambda c: (c.dir / ".timing").exists())
    window_ms = int(run.profile["jit_quiet"]["window_s"] * 1000)
    seconds = int(time.monotonic() - started)
    for c in cells:
        if (c.dir / ".timing").exists():
            facts.write(c.dir, "warm", **{"pass": pass_no, "seconds": seconds,
                                          "server": processes[c.server].warmth.summary(window_ms),
                                          "client": processes[c.client].warmth.summary(window_ms)})
    for p in processes.values():
        if p.pid:
            p.warmth.save(p.dir)
    progress.say(f"rpcmatrix: warmed in {int(time.monotonic() - started)} s")
    return [p.key for p in processes.values() if p.lost]


# ------------------------------------------------------------------------------------------------ handlers
def handlers(run: Run, language: str, client_dir: Path) -> None:
    """The language's reference behaviour timed in process by one of its clients, started without a server, for
    every workload its cells time (runner/PROTOCOL.md, handler); one fact each."""
    cells = [json.loads(x) for x in (run.dir / "cells.jsonl").read_text().splitlines() if x.strip()]
    protocols = sorted({c["protocol"] for c in cells if c["server_language"] == language
                        and not (c.get("unsupported") or c.get("error"))})
    rows = {w["name"]: w for p in protocols for w in run.rows(p)}
    folder = run.dir / "handlers" / language
    folder.mkdir(parents=True, exist_ok=True)
    with Session(client_dir, run.timeout_s) as session:
        for name in sorted(rows):
            w = rows[name]
            answer = session.call({"cmd": "handler", "workload": name, "calls": w["calls"], "min_ms": w["min_ms"],
                                   "max_calls": w["max_calls"], "repetitions": w["repetitions"]})
            if answer.status == 0:
                with gzip.open(folder / f"{name}.samples.json.gz", "wt") as f:
                    f.write(json.dumps(answer.data))
            facts.write(run.dir / "handlers", "handler", language=language, workload=name, size=w["size"],
                        error=answer.error or None)
            if answer.lost:
                break


def fold_stage(run: Run, folder: str, pass_no: int, stage: str) -> None:
    """A step without a progress line of its own (a pass's floor, the handlers): its records, then the journal."""
    path = run.dir / folder
    path.mkdir(parents=True, exist_ok=True)
    fold.fold_into_results(run.dir, path)
    progress.journal(run.dir, pass_no, stage=stage)


def fold_unfinished(run: Run) -> None:
    """After an interruption: the records of every step it cut short, from the facts gathered so far (its cell,
    the warm phase's cells not yet timed, a floor), so that the report shows them; a resumed run drops them."""
    done = progress.finished(run.dir)
    for cell_json in sorted((run.dir / "cells").glob("*/cell.json")):
        name = json.loads(cell_json.read_text())["name"]
        for pass_dir in sorted(cell_json.parent.glob("pass*")):
            if (int(pass_dir.name[4:]), name) not in done and (pass_dir / facts.FACTS).exists():
                fold.fold_into_results(run.dir, pass_dir)
    for pass_dir in sorted((run.dir / "floor").glob("pass*")):
        if (int(pass_dir.name[4:]), "stage:floor") not in done and (pass_dir / facts.FACTS).exists():
            fold.fold_into_results(run.dir, pass_dir)
    if os.path.exists(run.dir / "handlers" / facts.FACTS) and (1, "stage:handlers") not in done:
        fold.fold_into_results(run.dir, run.dir / "handlers")
