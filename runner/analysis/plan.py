"""Which workloads a run times, with how many calls, per protocol: from idl/workloads.json, the protocol
registry idl/protocols.json and a profile."""
import json
import random
from pathlib import Path

COLUMNS = ("warmup", "calls", "repetitions", "min_ms", "max_calls")


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
               "min_ms": counts.get("min_ms", 0), "max_calls": max(counts.get("max_calls", counts["calls"]), counts["calls"])}
        rows.append({"name": w["name"], "size": w["size"], **row})
    return rows, unsupported


def write_plans(run: Path, idl: Path, profile_name: str, protocols: list[str], passes: int, seed: int) -> None:
    spec, profile = load_profile(idl, profile_name)
    registry = load_registry(idl)
    contract = json.loads((idl / "contract.json").read_text())
    plan_dir = run / "plan"
    plan_dir.mkdir(parents=True, exist_ok=True)
    (plan_dir / "profile.json").write_text(json.dumps(
        {"name": profile_name, "command_timeout_s": profile.get("command_timeout_s", 300), **profile,
         "passes": passes, "seed": seed}, indent=1))
    for protocol in protocols:
        rows, unsupported = workloads_for(spec, profile, protocol, registry, contract)
        lines = [" ".join([w["name"], w["size"]] + [str(w[c]) for c in COLUMNS]) for w in rows]
        (plan_dir / f"{protocol}.tsv").write_text("".join(line + "\n" for line in lines))
        (plan_dir / f"{protocol}.unsupported.json").write_text(json.dumps(unsupported, indent=1))


def read_plan(run: Path, protocol: str) -> list[dict]:
    path = run / "plan" / f"{protocol}.tsv"
    rows = []
    for line in (path.read_text().splitlines() if path.exists() else []):
        name, size, *numbers = line.split()
        rows.append({"name": name, "size": size, **dict(zip(COLUMNS, map(int, numbers)))})
    return rows


def estimate_seconds(run: Path, cell: dict, owed_s: float | None = None) -> int:
    """A rough cost of one cell, for the progress line: start-up and vectors, the cell's warm-up (a share of
    each workload's bound, or the least warm-up time its processes still owe when longer: `owed_s`, or
    the cell's own `warmup_s` when not given), then per workload the fixed warm-up and the repetitions'
    minimum time."""
    if cell.get("unsupported") or cell.get("error"):
        return 0
    profile = json.loads((run / "plan" / "profile.json").read_text())
    steady_s = (profile.get("steady") or {}).get("max_ms", 0) / 1000
    rows = read_plan(run, cell["protocol"])
    least_s = (cell.get("warmup_s") or 0) if owed_s is None else owed_s
    if not profile.get("implementation_warmup", True):
        least_s = 0
    total = 6.0 + max(least_s, 0.25 * steady_s * len(rows))
    for w in rows:
        total += 0.5 + w["repetitions"] * max(w["min_ms"] / 1000, 0.05)
    return int(total)


def estimate_run(run: Path, cells: list[dict], passes: int, kept: bool) -> int:
    """The cost of every pass over `cells` when processes are kept across cells: each server and each
    client implementation of a protocol owes its least warm-up once per pass, not once per cell."""
    if not kept:
        return passes * sum(estimate_seconds(run, c) for c in cells)
    warmed: set = set()
    total = 0
    for cell in cells:
        server, client = (cell["protocol"], "server", cell["server"]), (cell["protocol"], "client", cell["client"])
        owed = max(_owed(cell, "server", server in warmed), _owed(cell, "client", client in warmed))
        if not (cell.get("unsupported") or cell.get("error")):
            warmed |= {server, client}
        total += estimate_seconds(run, cell, owed)
    return passes * total


def estimate_done(run: Path, cell: dict, pass_no: int) -> int:
    """The cost of a cell just run, with the warm-up its processes owed then (connect.json says which
    were new to it)."""
    connect = run / "cells" / cell.get("slug", "") / f"pass{pass_no}" / "connect.json"
    processes = json.loads(connect.read_text()).get("processes") if connect.exists() else None
    if not processes:
        return estimate_seconds(run, cell)
    owed = max(_owed(cell, "server", processes.get("server") == "kept"),
               _owed(cell, "client", processes.get("client") == "kept"))
    return estimate_seconds(run, cell, owed)


def _owed(cell: dict, role: str, warmed: bool) -> float:
    """The least warm-up a process of the cell owes: its warmup_s when new; once warmed, its peer_warmup_s
    (the re-warm its implementation needs with each new peer, none by default)."""
    if warmed:
        return cell.get(f"{role}_peer_warmup_s") or 0
    return cell.get(f"{role}_warmup_s", cell.get("warmup_s") or 0)


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
        for server in servers:
            group = [line for line, c in cells if c["protocol"] == protocol and c["server"] == server]
            rng.shuffle(group)
            order += group
    return order
