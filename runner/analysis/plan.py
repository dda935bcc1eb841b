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


def estimate_seconds(run: Path, cell: dict) -> int:
    """A rough cost of one cell, for the progress line: start-up and vectors, the cell's warm-up (a share of
    each workload's bound, or the implementations' least warm-up time when longer), then per workload the
    fixed warm-up and the repetitions' minimum time."""
    if cell.get("unsupported") or cell.get("error"):
        return 0
    profile = json.loads((run / "plan" / "profile.json").read_text())
    steady_s = (profile.get("steady") or {}).get("max_ms", 0) / 1000
    rows = read_plan(run, cell["protocol"])
    least_s = cell.get("warmup_s") or 0 if profile.get("implementation_warmup", True) else 0
    total = 6.0 + max(least_s, 0.25 * steady_s * len(rows))
    for w in rows:
        total += 0.5 + w["repetitions"] * max(w["min_ms"] / 1000, 0.05)
    return int(total)


def shuffled(lines: list[str], seed: int, pass_no: int) -> list[str]:
    """The cells in a random order of their own for each pass, reproducible from the run's seed."""
    order = list(lines)
    random.Random(seed * 1009 + pass_no).shuffle(order)
    return order
