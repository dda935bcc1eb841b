"""Which workloads a run times, with how many calls, per protocol: from idl/workloads.json, the protocol
registry idl/protocols.json and a profile."""
import json
import random
from pathlib import Path

COLUMNS = ("warmup", "calls", "repetitions", "min_ms", "max_calls")
# A warm phase (runner/lib/warm.sh) starts the processes of consecutive protocols until there are `processes` of
# them (their memory is alive at once: about 5-6 GB for the default run's 62 at once, measured) and runs up to
# `tasks` cells' warm-up at once, on every CPU. The phases are CPU-bound: the default run's 56 processes warmed in
# 465 s in four phases of at most 16 and in 401 s in two of at most 32, where JVMs of the larger phases got so few
# turns that seven of them stopped at the wall-clock guard (three times warmup_max_s) still compiling; the cells'
# timing then took longer, and the run as long (943 s of records either way).
WARM_PHASE = {"processes": 16, "tasks": 3}
# A JIT runtime's process is warm when its compiler threads used less than `share` of a CPU over its last
# `window_s` seconds of calls (thread CPU is read in clock ticks, 10 ms: a window of seconds resolves a few %).
JIT_QUIET = {"share": 0.05, "window_s": 5}
# A cell's own warm-up, just before it is timed (runner/lib/cell.sh: warm_cell), re-warms processes the warm phase
# already brought to steady state: batches of the workload's least calls until steady for at most `rewarm_ms`
# each (the phase's first rounds take up to `max_ms`); never longer than `max_ms`. At 100 ms instead of 250, the
# re-warm took 74 s of a default run instead of 91, and left 121 of 318 workloads unsteady (⌛) instead of 81: a
# batch of a slow workload's least calls fills 100 ms two or three times.
REWARM_MS = 250
# The warm phase's rounds that only keep calls coming run each workload for at most `phase_max_ms`: the round of a
# cell whose two processes have no JIT compiler threads to wait for (no manifest `jit_threads`: Python, Mono),
# which only pays their first calls' costs, and every round after a cell's first, which feeds a compiler not yet
# quiet and is followed by a look at its threads (a shorter round looks sooner). Steadiness is judged later,
# pinned, by the cell's re-warm: with three cells on two CPUs the phase's batch medians agree by chance. In the
# default run of 8458818, the 22 cells without a JIT took 205 task-seconds of the phases' 945 (50 of their 132
# workloads stopping at `max_ms`, 2.5 s, unsteady), the rounds after the first 319.
PHASE_MAX_MS = 500


def steady_of(profile: dict) -> dict:
    """The profile's steady-state bounds with the cell re-warm's (`rewarm_ms`) and the bound of the warm phase's
    rounds that only keep calls coming (`phase_max_ms`) filled in."""
    steady = {"tolerance": 0.1, "max_ms": 0} | (profile.get("steady") or {})
    steady.setdefault("rewarm_ms", min(REWARM_MS, steady["max_ms"]))
    steady.setdefault("phase_max_ms", min(PHASE_MAX_MS, steady["max_ms"]))
    return steady


class PlanError(ValueError):
    pass


def load_profile(idl: Path, name: str) -> tuple[dict, dict]:
    spec = json.loads((idl / "workloads.json").read_text())
    profiles = spec["profiles"]
    if name not in profiles:
        raise PlanError(f"unknown profile '{name}'; known: {', '.join(profiles)}")
    return spec, profiles[name]


def load_registry(idl: Path) -> dict:
    return json.loads((idl / "protocols.json").read_text())


def needs_of(workload: dict, contract: dict) -> list[str]:
    """A workload needs its own capabilities and its operation's."""
    op = next((o for o in contract["operations"] if o["name"] == workload.get("op")), {})
    return list(dict.fromkeys(workload.get("needs", []) + op.get("needs", [])))


def chosen_workloads(spec: dict, profile: dict) -> list[dict]:
    chosen = profile.get("workloads")
    if chosen == "headline":
        return [w for w in spec["workloads"] if w.get("headline")]
    known = {w["name"] for w in spec["workloads"]}
    unknown = sorted(set(chosen or ()) - known)
    if unknown:
        raise PlanError(f"profile names unknown workloads: {', '.join(unknown)}")
    return [w for w in spec["workloads"] if chosen is None or w["name"] in chosen]


def workloads_for(spec: dict, profile: dict, protocol: str, registry: dict, contract: dict) -> tuple[list, dict]:
    """The profile's workloads this protocol can run, in file order, with their call counts; and those it
    cannot, with the registry's reason."""
    lacks = registry["protocols"].get(protocol, {}).get("lacks", {})
    rows, unsupported = [], {}
    for w in chosen_workloads(spec, profile):
        counts = profile.get(w["size"])
        if counts is None:
            continue  # the profile does not time workloads of this size
        missing = [n for n in needs_of(w, contract) if n in lacks]
        if missing:
            unsupported[w["name"]] = lacks[missing[0]]
            continue
        row = {"warmup": counts["warmup"], "calls": counts["calls"], "repetitions": counts["repetitions"],
               "min_ms": counts.get("min_ms", 0),
               "max_calls": max(counts.get("max_calls", counts["calls"]), counts["calls"])}
        rows.append({"name": w["name"], "size": w["size"], **row})
    return rows, unsupported


def lanes(profile: dict) -> int:
    """How many cells of different protocols the profile runs at once (`"lanes": N`, 1 by default). Cells
    that share the CPUs disturb each other's figures, so only a profile that measures nothing may have more
    than one: no workloads, no floor, no handlers, no bytes counted (certify)."""
    count = profile.get("lanes", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise PlanError(f"lanes takes a whole number of 1 or more, not {count!r}")
    measured = [key for key in ("workloads", "floor", "handler", "count_calls") if profile.get(key)]
    if profile.get("workloads") is None:
        measured.insert(0, "workloads")  # no list: every workload
    if count > 1 and measured:
        raise PlanError(f"a profile with lanes > 1 must measure nothing, but it sets {', '.join(measured)}: "
                        "cells running at once would disturb each other's figures")
    return count


def write_plans(run: Path, idl: Path, profile_name: str, protocols: list[str], passes: int, seed: int) -> None:
    spec, profile = load_profile(idl, profile_name)
    lanes(profile)
    registry = load_registry(idl)
    contract = json.loads((idl / "contract.json").read_text())
    plan_dir = run / "plan"
    plan_dir.mkdir(parents=True, exist_ok=True)
    (plan_dir / "profile.json").write_text(json.dumps(
        {"name": profile_name, "command_timeout_s": profile.get("command_timeout_s", 300), **profile,
         "warm_phase": WARM_PHASE | profile.get("warm_phase", {}),
         "jit_quiet": JIT_QUIET | profile.get("jit_quiet", {}),
         "steady": steady_of(profile),
         "passes": passes, "seed": seed}, indent=1))
    for protocol in protocols:
        rows, unsupported = workloads_for(spec, profile, protocol, registry, contract)
        lines = [" ".join([w["name"], w["size"]] + [str(w[c]) for c in COLUMNS]) for w in rows]
        (plan_dir / f"{protocol}.tsv").write_text("".join(line + "\n" for line in lines))
        (plan_dir / f"{protocol}.unsupported.json").write_text(json.dumps(unsupported, indent=1))


def write_contract_view(run: Path, idl: Path, profile: dict) -> list[str]:
    """The contract as a run's processes see it ({idl}): idl/ itself, or, for a profile with
    `"large_vectors": false` (smoke, calibration, the main job), run/idl: every file of idl/ linked, and
    vectors.json without the vectors marked `"size": "large"` (50,000 values, 1 MiB), which cost most of a
    proving run's time and which certify and the studies still send. Returns the ids left out."""
    if profile.get("large_vectors", True):
        return []
    view = run / "idl"
    view.mkdir(exist_ok=True)
    for entry in idl.iterdir():
        link = view / entry.name
        if entry.name != "vectors.json" and not link.is_symlink():
            link.symlink_to(entry.resolve())
    vectors = json.loads((idl / "vectors.json").read_text())
    left_out = [v["id"] for v in vectors["vectors"] if v.get("size") == "large"]
    vectors["vectors"] = [v for v in vectors["vectors"] if v.get("size") != "large"]
    (view / "vectors.json").write_text(json.dumps(vectors, indent=1, ensure_ascii=False))
    return left_out


def read_plan(run: Path, protocol: str) -> list[dict]:
    path = run / "plan" / f"{protocol}.tsv"
    rows = []
    for line in (path.read_text().splitlines() if path.exists() else []):
        name, size, *numbers = line.split()
        rows.append({"name": name, "size": size, **dict(zip(COLUMNS, map(int, numbers), strict=True))})
    return rows


def estimate_seconds(run: Path, cell: dict, warm_s: float | None = None) -> int:
    """A rough cost of one cell, for the progress line: start-up and vectors, the cell's warm-up (a share of
    each workload's bound, or the JIT warm-up its new processes still need when longer: `warm_s`, or half
    the larger of its sides' `warmup_max_s` when not given), then per workload the fixed warm-up and the
    repetitions' minimum time."""
    if not can_run(cell):
        return 0
    profile = json.loads((run / "plan" / "profile.json").read_text())
    steady_s = (profile.get("steady") or {}).get("max_ms", 0) / 1000
    rows = read_plan(run, cell["protocol"])
    least_s = max(jit_estimate_s(cell, "server"), jit_estimate_s(cell, "client")) if warm_s is None else warm_s
    if not profile.get("implementation_warmup", True):
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


def can_run(cell: dict) -> bool:
    """A cell runs unless it is unsupported or its plan has an error (both are rows with their reasons)."""
    return not (cell.get("unsupported") or cell.get("error"))


def warm_chunks(lines: list[str], max_processes: int) -> list[int]:
    """The warm-up phase each cell of a pass belongs to (0, 1, ...), in the pass's order: consecutive protocols
    are warmed together until their processes (one per server and per client implementation that runs) would
    pass `max_processes`, which bounds the memory of the processes alive at once; a protocol with more forms a
    phase of its own. Cells that cannot run go with their protocol."""
    cells = [json.loads(line) for line in lines]
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


def shuffled(lines: list[str], seed: int, pass_no: int) -> list[str]:
    """The cells in a random order of their own for each pass, reproducible from the run's seed, grouped so
    that the runner can keep processes across cells: the protocols in a random order, within a protocol its
    servers in a random order, and within a server its clients in a random order."""
    rng = random.Random(seed * 1009 + pass_no)
    cells = [(line, json.loads(line)) for line in lines]
    protocols = list(dict.fromkeys(c["protocol"] for _, c in cells))
    rng.shuffle(protocols)
    order = []
    for protocol in protocols:
        servers = list(dict.fromkeys(c["server"] for _, c in cells if c["protocol"] == protocol))
        rng.shuffle(servers)
        groups = []
        for server in servers:
            group = [(line, c) for line, c in cells if c["protocol"] == protocol and c["server"] == server]
            rng.shuffle(group)
            groups.append(group)
        order += [line for group in groups for line, _ in group]
    return order


def lane_queue(lines: list[str]) -> list[int]:
    """The place in the lanes' queue (0 first) of each cell of a pass, in the pass's order: a protocol's cells
    are one group (its processes are kept across them), the protocols largest first (by cells that run, plus
    one for the declined; the pass's order among equals). Each lane takes the next group when it is done with
    one (runner/lib/run.sh: run_lane), so a lane of slow stacks takes fewer: dealt beforehand by cell counts,
    one lane of certify's three had 156 s of cells against 116 and 119, and the run waited for it."""
    cells = [json.loads(line) for line in lines]
    weight: dict[str, int] = {}
    for c in cells:
        weight[c["protocol"]] = weight.get(c["protocol"], 1) + (1 if can_run(c) else 0)
    place = {protocol: i for i, protocol in enumerate(sorted(weight, key=lambda p: -weight[p]))}
    return [place[c["protocol"]] for c in cells]


# ------------------------------------------------------------------------------------------------ cells
def _given(value) -> bool:
    """A manifest's value counts unless absent, null or false (as the registry and manifests are read)."""
    return value is not None and value is not False


def _or(value, default):
    return value if _given(value) else default


def implementations(manifests: list[dict]) -> list[dict]:
    """Every (language, protocol, implementation) of the resolved manifests, with its id."""
    out = []
    for m in manifests:
        for e in m["implementations"]:
            for p in _or(e.get("protocols"), [e.get("protocol")]):
                out.append({"language": m["language"], "protocol": p, "entry": e,
                            "id": f"{m['language']}-{e['name']}" if _given(e.get("name")) else m["language"]})
    return out


def _side(impl: dict, role: str) -> dict:
    """What one side of a cell runs, or why it cannot (`reason`), or what is wrong (`error`)."""
    e = impl["entry"]
    if e is None:
        return {"reason": f"not implemented in {impl['language']}"}
    if _given(e.get("unsupported")):
        return {"reason": e["unsupported"]}
    if _given(e.get(f"{role}_unsupported")):
        return {"reason": e[f"{role}_unsupported"]}
    if not isinstance(e.get(role), list):
        return {"reason": f"{impl['id']} declares no {role} for {impl['protocol']}"}
    if _or((e.get("thread_model") or {}).get(role), "") == "":
        return {"error": f"the manifest of {impl['language']} gives no thread_model.{role} for {impl['protocol']}"}
    return {"argv": e[role], "library": _or(e.get("library"), ""), "settings": _or(e.get("settings"), ""),
            "opt_in": _or(e.get("opt_in"), None),
            "notes": _or(e.get("notes"), []), "thread_model": e["thread_model"][role],
            "jit_threads": _or(e.get("jit_threads"), ""),
            "warmup_max_s": _per_protocol(_or(e.get("warmup_max_s"), 0), impl["protocol"])}


def _per_protocol(value, protocol: str):
    """A manifest value given for all the entry's protocols, or per protocol: {"<protocol>": ..., "*": ...}."""
    if isinstance(value, dict):
        return value.get(protocol, value.get("*"))
    return value


def _takes_part(e: dict, role: str) -> bool:
    return _given(e.get("unsupported")) or _given(e.get(f"{role}_unsupported")) or isinstance(e.get(role), list)


def _joined(items: list) -> str | None:
    items = sorted({i for i in items if i is not None})
    return "; ".join(items) if items else None


def expand_cells(manifests: list[dict], baseline: str, registry: dict) -> list[dict]:
    """The cells: every implementation with a client (a row) crossed with every implementation with a server
    (a column) of the same protocol. A language with no entry for a protocol still gets a row and a column,
    unsupported: a gap is a row with a reason, never a missing row. A protocol missing from the registry, or
    a declared role without its thread model, makes its cells errors. The baseline protocol comes first,
    then the protocols in registry order, then the unregistered ones in manifest order."""
    langs = [m["language"] for m in manifests]
    impls = implementations(manifests)
    known = list(registry["protocols"])
    named = {i["protocol"] for i in impls}
    protocols = list(dict.fromkeys(p for p in [baseline, *known, *(i["protocol"] for i in impls)] if p in named))

    def members(protocol: str, role: str) -> list[dict]:
        present = [i for i in impls if i["protocol"] == protocol and _takes_part(i["entry"], role)]
        absent = [{"language": lang, "protocol": protocol, "entry": None, "id": lang} for lang in langs
                  if not any(i["protocol"] == protocol and i["language"] == lang for i in impls)]
        return present + absent

    cells = []
    for p in protocols:
        unregistered = None if p in known else f"protocol '{p}' is not in idl/protocols.json"
        for c in members(p, "client"):
            for s in members(p, "server"):
                srv, cli = _side(s, "server"), _side(c, "client")
                cells.append({
                    "name": f"{p}/{c['id']}→{s['id']}", "slug": f"{p}__{c['id']}-to-{s['id']}", "protocol": p,
                    "client": c["id"], "server": s["id"],
                    "client_language": c["language"], "server_language": s["language"],
                    "server_argv": srv.get("argv"), "client_argv": cli.get("argv"),
                    "server_library": srv.get("library"), "client_library": cli.get("library"),
                    "server_settings": srv.get("settings"), "client_settings": cli.get("settings"),
                    "server_thread_model": srv.get("thread_model"), "client_thread_model": cli.get("thread_model"),
                    "server_jit_threads": srv.get("jit_threads") or "",
                    "client_jit_threads": cli.get("jit_threads") or "",
                    "server_warmup_max_s": srv.get("warmup_max_s") or 0,
                    "client_warmup_max_s": cli.get("warmup_max_s") or 0,
                    "server_notes": srv.get("notes") or [], "client_notes": cli.get("notes") or [],
                    "server_opt_in": srv.get("opt_in"), "client_opt_in": cli.get("opt_in"),
                    "error": _joined([unregistered, srv.get("error"), cli.get("error")]),
                    "unsupported": _joined([srv.get("reason"), cli.get("reason")])})
    return cells


def _pick(chosen: str, *values: str) -> bool:
    return chosen == "" or any(v in chosen.split(",") for v in values)


def select_cells(cells: list[dict], protocols: str = "", servers: str = "", clients: str = "",
                 names: str = "") -> list[dict]:
    """The cells whose protocol, server, client and name are in the comma-separated lists (empty = all). A
    server or client list may name implementations (python-aio) or languages (python: all of its own)."""
    return [c for c in cells if _pick(protocols, c["protocol"]) and _pick(servers, c["server"], c["server_language"])
            and _pick(clients, c["client"], c["client_language"]) and _pick(names, c["name"])]


def unknown_names(cells: list[dict], protocols: str, servers: str, clients: str, names: str) -> list[str]:
    """A warning for each name in a selection that no cell knows, naming the known ones."""
    known = {"protocol": sorted({c["protocol"] for c in cells}),
             "implementation": sorted({v for c in cells for v in (c["server"], c["client"], c["server_language"])}),
             "cell": [c["name"] for c in cells]}
    warnings = []
    for what, chosen in (("protocol", protocols), ("implementation", servers), ("implementation", clients),
                         ("cell", names)):
        for name in chosen.split(",") if chosen else []:
            if name not in known[what]:
                warnings.append(f"unknown {what} '{name}'; known: {' '.join(known[what])}")
    return warnings


def opt_in_left_out(cells: list[dict], registry: dict, profile: dict, protocols: str) -> list[dict]:
    """The protocols of `cells` that the profile leaves out as opt-in (a setting off in every stack's
    defaults, such as compression, or a further variant of a protocol the main job times), with the
    registry's reason; none when the profile takes them ("opt_in": true) or --protocol names protocols."""
    if protocols or profile.get("opt_in"):
        return []
    return [{"protocol": p, "reason": registry["protocols"][p]["opt_in"]}
            for p in sorted({c["protocol"] for c in cells}) if _given(registry["protocols"].get(p, {}).get("opt_in"))]


def implementations_left_out(cells: list[dict], profile: dict, servers: str, clients: str, names: str) -> list[dict]:
    """The implementations of `cells` that the profile leaves out as opt-in (a further transport, thread model or
    API of a library another implementation of the same language already times: its manifest's `opt_in`), with
    the reason, each once; none when the profile takes every opt-in ("opt_in": true) or these
    ("opt_in_implementations": true), or the selection names servers, clients or cells."""
    if servers or clients or names or profile.get("opt_in") or profile.get("opt_in_implementations"):
        return []
    out = {}
    for c in cells:
        for role in ("server", "client"):
            if _given(c.get(f"{role}_opt_in")):
                out[(c["protocol"], c[role])] = {"protocol": c["protocol"], "implementation": c[role],
                                                 "reason": c[f"{role}_opt_in"]}
    return list(out.values())


def cover_language_pairs(cells: list[dict]) -> list[dict]:
    """A covering subset of the runnable cells of each protocol: one cell for every pair of client and server
    languages, chosen so that every client and every server implementation takes part at least once (a pair's
    cell is the one that brings the most implementations not yet covered, then the first by name; an
    implementation still left out gets a cell of its own). Cells that cannot run stay, with their reasons. For
    a profile that proves the paths (smoke): `just certify` crosses every pair."""
    runnable = [c for c in cells if can_run(c)]
    keep: set[str] = set()
    for protocol in dict.fromkeys(c["protocol"] for c in runnable):
        mine = sorted((c for c in runnable if c["protocol"] == protocol), key=lambda c: c["name"])
        covered: set[tuple] = set()

        def new_sides(c: dict, covered=covered) -> int:
            return len({("client", c["client"]), ("server", c["server"])} - covered)
        for pair in dict.fromkeys((c["client_language"], c["server_language"]) for c in mine):
            best = max((c for c in mine if (c["client_language"], c["server_language"]) == pair), key=new_sides)
            keep.add(best["name"])
            covered |= {("client", best["client"]), ("server", best["server"])}
        for c in mine:
            if new_sides(c):
                keep.add(c["name"])
                covered |= {("client", c["client"]), ("server", c["server"])}
    return [c for c in cells if c["name"] in keep or not can_run(c)]


def write_cells(out: Path, manifests_dir: Path, idl: Path, profile_name: str, protocols: str = "",
                servers: str = "", clients: str = "", names: str = "") -> list[str]:
    """The plan of cells, for the shell: in `out`, all.jsonl (every cell), cells.jsonl (the selected ones,
    opt-in protocols left out), left-out.json and manifests.json (resolved); returns the messages for the
    person running the suite (unknown names, protocols left out)."""
    from . import manifests as manifests_mod
    spec = json.loads((idl / "workloads.json").read_text())
    loaded = manifests_mod.load(manifests_dir, bool(spec["profiles"].get(profile_name, {}).get("quick_start")))
    registry = load_registry(idl)
    cells = expand_cells(loaded, spec.get("baseline") or "", registry)
    messages = [f"warning: {w}" for w in unknown_names(cells, protocols, servers, clients, names)]
    chosen = select_cells(cells, protocols, servers, clients, names)
    left_out = opt_in_left_out(chosen, registry, spec["profiles"].get(profile_name, {}), protocols)
    if left_out:
        messages.append(f"opt-in protocols left out of profile {profile_name} (name them with --protocol): "
                        + " ".join(x["protocol"] for x in left_out))
        dropped = {x["protocol"] for x in left_out}
        chosen = [c for c in chosen if c["protocol"] not in dropped]
    implementations = implementations_left_out(chosen, spec["profiles"].get(profile_name, {}), servers, clients, names)
    if implementations:
        messages.append(f"opt-in implementations left out of profile {profile_name} (name them with --server or "
                        "--client): " + " ".join(f"{x['protocol']}/{x['implementation']}" for x in implementations))
        dropped_sides = {(x["protocol"], x["implementation"]) for x in implementations}
        chosen = [c for c in chosen if not {(c["protocol"], c["server"]), (c["protocol"], c["client"])} & dropped_sides]
        left_out += implementations
    if spec["profiles"].get(profile_name, {}).get("cover") == "language pairs" and not names:
        before = sum(1 for c in chosen if can_run(c))
        chosen = cover_language_pairs(chosen)
        after = sum(1 for c in chosen if can_run(c))
        messages.append(f"profile {profile_name} crosses each pair of languages of each protocol once, every "
                        f"implementation on each side at least once: {after} of {before} runnable cells "
                        "(just certify, or --cell, crosses every pair)")
    out.mkdir(parents=True, exist_ok=True)

    def lines(items):
        return "".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) + "\n" for c in items)
    (out / "all.jsonl").write_text(lines(cells))
    (out / "cells.jsonl").write_text(lines(chosen))
    (out / "left-out.json").write_text(json.dumps(left_out, ensure_ascii=False, separators=(",", ":")))
    (out / "manifests.json").write_text(json.dumps(loaded, ensure_ascii=False))
    return messages
