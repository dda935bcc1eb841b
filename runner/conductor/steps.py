"""The steps a run executes, in order, written once before the first (plan/steps.tsv): which floors to take
and when, the languages' handlers, each pass's cells in a seeded random order, grouped so that processes are
kept across a protocol's cells, the warm phases that start and warm a group of protocols' processes together,
the processes to retire when a protocol is done, and the lanes' queue of groups for a profile that measures
nothing. The shell reads one step a line and executes it (runner/lib/run.sh); it decides nothing the steps
say. A resumed run writes them again without the steps its journal lists as finished.

A step is one line of tab-separated columns, its kind first; an empty column is "-":

    handler  LANGUAGE  CLIENT_KEY  ARGV
    floor    PASS  FOLDER  KIND
    fold     PASS  FOLDER  STAGE
    warm     PASS  PHASE_FILE
    cell     PASS  INDEX  TOTAL  SLUG  NAME  SERVER_KEY  CLIENT_KEY  SERVER_ARGV  CLIENT_ARGV  SCRATCH
             CELL_LINK  SERVER_JIT  CLIENT_JIT  TIMED  FLOOR_BEFORE  FLOOR_AFTER
    declined PASS  TOTAL  INDEX:SLUG,...
    retire   PROTOCOL (or * for every protocol)
    retry    PASS   (the steps prepare.retry plans once PASS has run: plan/retry-PASS.tsv)
    rival    PASS   (the steps prepare.rival plans once PASS has run: plan/rival-PASS.tsv)
    lanes    PASS  FOLDER

A process key is `<role>|<protocol>|<implementation>`; ARGV is a file of the process's arguments, each ended by
a NUL, every placeholder filled but a client's {port} (its server's, known once that is ready). A warm phase's
file lists its processes (`server KEY ARGV SCRATCH`, `client KEY ARGV CELL_LINK SERVER_KEYS`: the servers of its
cells, in order) and its cells (`cell SLUG NAME SERVER_KEY`); a lane's group file holds the steps of one
protocol's cells.
"""
import json
import random
from dataclasses import dataclass
from pathlib import Path

from . import load, plan, variant
from .cells import can_run, jit_threads_read

STEPS = "steps.tsv"


def shuffled(cells: list[dict], seed: int, pass_no: int) -> list[dict]:
    """The cells in a random order of their own for each pass, reproducible from the run's seed, grouped so
    that the runner can keep processes across cells: the protocols in a random order, within a protocol its
    servers in a random order, and within a server its clients in a random order."""
    rng = random.Random(seed * 1009 + pass_no)
    protocols = list(dict.fromkeys(c["protocol"] for c in cells))
    rng.shuffle(protocols)
    order = []
    for protocol in protocols:
        servers = list(dict.fromkeys(c["server"] for c in cells if c["protocol"] == protocol))
        rng.shuffle(servers)
        for server in servers:
            group = [c for c in cells if c["protocol"] == protocol and c["server"] == server]
            rng.shuffle(group)
            order += group
    return order


def warm_chunks(cells: list[dict], max_processes: int) -> list[int]:
    """The warm phase each cell of a pass belongs to (0, 1, ...), in the pass's order: consecutive protocols
    are warmed together until their processes (one per server and per client implementation that runs) would
    pass `max_processes`, which bounds the memory of the processes alive at once; a protocol with more forms a
    phase of its own. Cells that cannot run go with their protocol."""
    processes: dict[str, set] = {}
    for c in cells:
        sides = processes.setdefault(c["protocol"], set())
        if can_run(c):
            sides |= {("server", c["server"]), ("client", c["client"])}
    chunk_of, chunk, used = {}, 0, 0
    for protocol in dict.fromkeys(c["protocol"] for c in cells):
        need = len(processes[protocol])
        if used and used + need > max_processes:
            chunk, used = chunk + 1, 0
        chunk_of[protocol] = chunk
        used += need
    return [chunk_of[c["protocol"]] for c in cells]


def lane_queue(cells: list[dict]) -> list[int]:
    """The place in the lanes' queue (0 first) of each cell of a pass, in the pass's order: a protocol's cells
    are one group (its processes are kept across them), the protocols largest first (by cells that run, plus
    one for the declined; the pass's order among equals). Each lane takes the next group when it is done with
    one, so a lane of slow stacks takes fewer: dealt beforehand by cell counts, one lane of certify's three had
    156 s of cells against 116 and 119, and the run waited for it."""
    weight: dict[str, int] = {}
    for c in cells:
        weight[c["protocol"]] = weight.get(c["protocol"], 1) + (1 if can_run(c) else 0)
    place = {protocol: i for i, protocol in enumerate(sorted(weight, key=lambda p: -weight[p]))}
    return [place[c["protocol"]] for c in cells]


def handler_cells(all_cells: list[dict], chosen: list[dict], baseline: str) -> list[dict]:
    """For each language that serves a chosen cell, the cell whose client measures its handlers in process: one
    of its clients, of the baseline protocol where it has one (runner/PROTOCOL.md, handler)."""
    out = []
    for language in sorted({c["server_language"] for c in chosen if can_run(c)}):
        mine = [c for c in all_cells if c["client_language"] == language and can_run(c)]
        mine.sort(key=lambda c: c["protocol"] != baseline)
        if mine:
            out.append(mine[0])
    return out


@dataclass
class Context:
    """What the steps are made from: the run, its resolved profile and options, the address the servers get."""
    run: Path
    profile: dict
    cells: list[dict]
    all_cells: list[dict]
    baseline: str
    host: str
    fixed_port: int
    keep_processes: bool
    idl: Path            # the contract as the processes see it ({idl})
    secrets: Path
    root: Path
    server_spin: dict    # language -> µs (--inject-server-spin)
    finished: set        # (pass, step) the journal lists
    failed_builds: dict  # language -> the build's last lines
    retries: int = 0     # times a cell whose vectors failed runs again (--retries)
    remote_root: Path | None = None  # the checkout on the servers' host (--server-host), for this one's paths
    proxy: str = ""      # HOST:PORT of the proxy of --proxy http

    @property
    def plan_dir(self) -> Path:
        return self.run / "plan"


def _col(value) -> str:
    return "-" if value in (None, "") else str(value)


def line(*columns) -> str:
    return "\t".join(_col(c) for c in columns) + "\n"


def key(role: str, cell: dict) -> str:
    impl = cell["server"] if role == "server" else cell["client"]
    return f"{role}|{cell['protocol']}|{impl}"


def scratch(ctx: Context, cell: dict) -> Path:
    """The {cell} folder of a server process: empty when it starts; it may leave an object reference there."""
    return ctx.run / "processes" / f"scratch-{cell['protocol']}-{cell['server']}"


def cell_link(ctx: Context, cell: dict) -> Path:
    """A client's {cell}: a link the conductor points at the scratch folder of the server it connects to."""
    return ctx.run / "processes" / f"cell-{cell['protocol']}-{cell['client']}"


def fill(template: list[str], values: dict[str, str]) -> list[str]:
    out = []
    for arg in template:
        for name, value in values.items():
            arg = arg.replace("{" + name + "}", value)
        out.append(arg)
    return out


def argv(ctx: Context, cell: dict, role: str, host: str | None = None, folder: Path | None = None,
         port: str | None = None) -> list[str]:
    """A cell's role's argv, every placeholder filled but a client's {port} (unless given)."""
    # a server elsewhere (--server-at) is dialled at its own address
    values = {"protocol": cell["protocol"], "host": host or cell.get("server_host") or ctx.host, "idl": str(ctx.idl),
              "secrets": str(ctx.secrets), "root": str(ctx.root)}
    if role == "server":
        values |= {"port": str(ctx.fixed_port), "cell": str(folder or scratch(ctx, cell))}
    else:
        values["cell"] = str(folder or cell_link(ctx, cell))
        if port is not None:
            values["port"] = port
    if role == "server" and ctx.remote_root:  # its argv runs from the checkout there
        values = {k: str(ctx.remote_root) + v[len(str(ctx.root)):] if v.startswith(f"{ctx.root}/") or v == str(ctx.root)
                  else v for k, v in values.items()}
    out = fill(cell[f"{role}_argv"], values)
    spin = ctx.server_spin.get(cell["server_language"]) if role == "server" else None
    if spin:
        out = ["env", f"RPCMATRIX_SERVER_SPIN_US={spin}", *out]
    told = variant.env(cell, ctx.proxy) if role == "client" else []
    if told:  # the variant as the client's manifest entry says its stack takes it
        out = ["env", *told, *out]
    # an outside manifest's implementation runs from its manifest's folder (the suite's from the repository)
    return ["env", "-C", cell[f"{role}_home"], *out] if cell.get(f"{role}_home") else out


def argv_file(ctx: Context, name: str, args: list[str]) -> Path:
    path = ctx.plan_dir / "argv" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(a.encode() + b"\0" for a in args))
    return path


def process_argv(ctx: Context, cell: dict, role: str) -> Path:
    impl = cell["server"] if role == "server" else cell["client"]
    return argv_file(ctx, f"{role}-{cell['protocol']}-{impl}".replace("/", "_"), argv(ctx, cell, role))


def times_workloads(ctx: Context, protocol: str) -> bool:
    return bool(plan.read_plan(ctx.run, protocol))


def declined_reason(ctx: Context, cell: dict) -> str | None:
    """Why a cell of the plan cannot run, or None: unsupported, an error of the plan, or a failed build."""
    if not can_run(cell):
        return cell.get("error") or cell.get("unsupported")
    for language in (cell["server_language"], cell["client_language"]):
        if language in ctx.failed_builds:
            return f"build of {language} failed: {ctx.failed_builds[language]}"
    return None


class PassWriter:
    """The steps of one pass (or of one lane's group), with what they have to remember between cells: the
    protocol whose processes live, the server group the last floor was taken for and its folder (every cell of the
    group refers to it), the declined cells not yet written."""

    def __init__(self, ctx: Context, pass_no: int, total: int):
        self.ctx, self.pass_no, self.total = ctx, pass_no, total
        self.out: list[str] = []
        self.declined: list[str] = []
        self.live_protocol = ""
        self.floor_group = self.floor_before = ""

    def flush_declined(self) -> None:
        if self.declined:
            self.out.append(line("declined", self.pass_no, self.total, ",".join(self.declined)))
            self.declined = []

    def cell(self, index: int, cell: dict) -> None:
        ctx, pass_no = self.ctx, self.pass_no
        if (pass_no, cell["name"]) in ctx.finished:
            return
        if declined_reason(ctx, cell) is not None:
            self.declined.append(f"{index}:{cell['slug']}")
            return
        self.flush_declined()
        if self.live_protocol and cell["protocol"] != self.live_protocol:
            self.out.append(line("retire", self.live_protocol))
        self.live_protocol = cell["protocol"]
        floor_after = None
        if ctx.profile["floor"]:
            group = f"{cell['protocol']}|{cell['server']}"
            if group != self.floor_group:
                # the path's latency moves within a pass on a virtual machine: every cell is set against a floor
                # taken minutes, not a pass, away from it, before its server group's first cell
                self.floor_group = group
                self.floor_before = f"floor/pass{pass_no}/before-{cell['slug']}"
                self.out.append(line("floor", pass_no, self.floor_before, "adjacent_floor"))
            # and against one right after it: the latency can change within a cell (in one default run a cell's
            # echoString took 27.0 µs p50 in its first repetition and 19.2 µs in the next four)
            floor_after = f"floor/pass{pass_no}/after-{cell['slug']}"
        self.out.append(line(
            "cell", pass_no, index, self.total, cell["slug"], cell["name"], key("server", cell), key("client", cell),
            process_argv(ctx, cell, "server"), process_argv(ctx, cell, "client"), scratch(ctx, cell),
            cell_link(ctx, cell), jit_threads_read(cell, "server", bool(ctx.remote_root)),
            jit_threads_read(cell, "client", bool(ctx.remote_root)),
            int(times_workloads(ctx, cell["protocol"])), self.floor_before if ctx.profile["floor"] else None,
            floor_after))
        if not ctx.keep_processes:
            self.out.append(line("retire", "*"))

    def end(self) -> list[str]:
        self.flush_declined()
        self.out.append(line("retire", "*"))
        return self.out


def warm_phase_file(ctx: Context, pass_no: int, phase: int, cells: list[dict]) -> Path | None:
    """The processes and cells a warm phase starts and warms: the runnable, unfinished cells of the phase."""
    cells = [c for c in cells if (pass_no, c["name"]) not in ctx.finished and declined_reason(ctx, c) is None]
    if not cells:
        return None
    rows, seen = [], set()
    for c in cells:
        server, client = key("server", c), key("client", c)
        if server not in seen:
            rows.append(line("server", server, process_argv(ctx, c, "server"), scratch(ctx, c)))
            seen.add(server)
    for c in cells:
        client = key("client", c)
        if client not in seen:
            servers = ",".join(dict.fromkeys(key("server", d) for d in cells if key("client", d) == client))
            rows.append(line("client", client, process_argv(ctx, c, "client"), cell_link(ctx, c), servers))
            seen.add(client)
    rows += [line("cell", c["slug"], c["name"], key("server", c)) for c in cells]
    path = ctx.plan_dir / "phases" / f"pass{pass_no}-{phase}.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(rows))
    return path


def pass_steps(ctx: Context, pass_no: int, passes: int) -> list[str]:
    profile = ctx.profile
    cells = [c for c in ctx.cells if not c.get("rival")]  # a rival step plans those (prepare.rival)
    total = len(cells) * passes
    first = (pass_no - 1) * len(cells) + 1
    order = shuffled(cells, profile["seed"], pass_no)
    out = []
    if profile["floor"] and (pass_no, "stage:floor") not in ctx.finished:
        folder = f"floor/pass{pass_no}"
        out += [line("floor", pass_no, folder, "floor"), line("fold", pass_no, folder, "floor")]
    if profile["lanes"] > 1:
        return out + lanes(ctx, pass_no, order, first, total)
    writer = PassWriter(ctx, pass_no, total)
    timed = any(times_workloads(ctx, c["protocol"]) for c in cells)
    if ctx.keep_processes and timed:
        phases = warm_chunks(order, profile["warm_phase"]["processes"])
        for phase in dict.fromkeys(phases):
            mine = [(i, c) for i, (c, p) in enumerate(zip(order, phases, strict=True)) if p == phase]
            phase_file = warm_phase_file(ctx, pass_no, phase, [c for _, c in mine])
            if phase_file is not None:
                writer.flush_declined()
                writer.out.append(line("warm", pass_no, phase_file))
            for i, c in mine:
                writer.cell(first + i, c)
    else:
        for i, c in enumerate(order):
            writer.cell(first + i, c)
    return out + writer.end()


def lanes(ctx: Context, pass_no: int, order: list[dict], first: int, total: int) -> list[str]:
    """The pass's cells as a queue of groups, one per protocol, largest first; each lane takes the next group
    when it is done with one. A group's file holds its steps; `planned` the estimated work of a lane."""
    folder = ctx.plan_dir / "lanes" / f"pass{pass_no}"
    folder.mkdir(parents=True, exist_ok=True)
    places = lane_queue(order)
    index = first
    for place in sorted(set(places)):
        writer = PassWriter(ctx, pass_no, total)
        for c, p in zip(order, places, strict=True):
            if p == place:
                writer.cell(index, c)
                index += 1
        (folder / f"group{place:04d}.tsv").write_text("".join(writer.end()))
    from . import progress
    planned = progress.estimate_run(ctx.run, order, 1, ctx.keep_processes)
    (folder / "planned").write_text(f"{planned // ctx.profile['lanes']}\n")
    return [line("lanes", pass_no, folder)]


def handler_steps(ctx: Context) -> list[str]:
    if not ctx.profile["handler"] or (1, "stage:handlers") in ctx.finished:
        return []
    out = []
    for cell in handler_cells(ctx.all_cells, ctx.cells, ctx.baseline):
        language = cell["client_language"]
        if language in ctx.failed_builds:
            continue
        folder = ctx.run / "handlers" / language
        # a client started without a server: it is never told to connect
        args = argv(ctx, cell, "client", host="127.0.0.1", folder=folder, port="9")
        out.append(line("handler", language, f"handler|{language}", argv_file(ctx, f"handler-{language}", args)))
    return out + [line("fold", 1, "handlers", "handlers")]


def write(ctx: Context) -> Path:
    """plan/steps.tsv: every step of the run, the finished ones left out."""
    passes = ctx.profile["passes"]
    out = handler_steps(ctx)
    for pass_no in range(1, passes + 1):
        out += pass_steps(ctx, pass_no, passes)
        if ctx.profile.get("load") and load.settings(ctx.profile)["fastest_client"]:
            out.append(line("rival", pass_no))  # its servers driven by their protocol's fastest client (prepare.rival)
    # after the last pass, each retry runs again the cells whose vectors failed in the pass before it (prepare.retry)
    out += [line("retry", passes + attempt - 1) for attempt in range(1, ctx.retries + 1)]
    path = ctx.plan_dir / STEPS
    path.write_text("".join(out))
    return path


def read_cells(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "cells.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
