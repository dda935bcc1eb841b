"""A run's profile with every default filled in, and which workloads it times per protocol with how many calls:
from idl/workloads.json, the protocol registry idl/protocols.json and a profile. Nothing else applies a
profile's defaults: the shell, the steps and the report read plan/profile.json as this module wrote it."""
import hashlib
import json
from pathlib import Path

from . import fresh

COLUMNS = ("warmup", "calls", "repetitions", "min_ms", "max_calls")
# A warm phase (warmup.py) starts the processes of consecutive protocols until there are `processes` of
# them (their memory is alive at once: about 5-6 GB for the default run's 62 at once, measured) and runs up to
# `tasks` cells' warm-up at once, on every CPU. The phases are CPU-bound: the default run's 56 processes warmed in
# 465 s in four phases of at most 16 and in 401 s in two of at most 32, where JVMs of the larger phases got so few
# turns that seven of them stopped at the wall-clock guard (three times warmup_max_s) still compiling; the cells'
# timing then took longer, and the run as long (943 s of records either way).
WARM_PHASE = {"processes": 16, "tasks": 3}
# A JIT runtime's process is warm when its compiler threads used less than `share` of a CPU over its last
# `window_s` seconds of calls (thread CPU is read in clock ticks, 10 ms: a window of seconds resolves a few %).
JIT_QUIET = {"share": 0.05, "window_s": 5}
# A cell's own warm-up, just before it is timed (warmup.warm_cell), re-warms processes the warm phase
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


def resolve(profile_name: str, profile: dict, passes: int | None = None, seed: int = 0) -> dict:
    """The profile as a run executes it: every key a step reads, with its default when the profile has none."""
    return {"name": profile_name, **profile,
            "command_timeout_s": profile.get("command_timeout_s", 300),
            "lanes": lanes(profile),
            "warm_phase": WARM_PHASE | profile.get("warm_phase", {}),
            "jit_quiet": JIT_QUIET | profile.get("jit_quiet", {}),
            "steady": steady_of(profile),
            # the fixed warm-up right before a workload's repetitions: at most this many ms of its calls (0: no bound)
            "warmup_max_ms": profile.get("warmup_max_ms", 0),
            # the counting pass: each workload for at least count_ms, at most count_calls calls (0: no counting)
            "count_ms": profile.get("count_ms", 100), "count_calls": profile.get("count_calls", 0),
            # a profile that only proves the paths may skip waiting for the implementations' JIT compilers
            "implementation_warmup": profile.get("implementation_warmup", True) is not False,
            "floor": bool(profile.get("floor")), "handler": bool(profile.get("handler")),
            "large_vectors": profile.get("large_vectors", True) is not False,
            "fresh_vectors": bool(profile.get("fresh_vectors")),
            "passes": passes if passes is not None else profile.get("passes", 1), "seed": seed}


def write_plans(run: Path, idl: Path, profile: dict, protocols: list[str]) -> None:
    """plan/profile.json (the resolved profile) and, per protocol, the workloads it times (<protocol>.tsv) and
    those it cannot, with the registry's reason (<protocol>.unsupported.json)."""
    spec = json.loads((idl / "workloads.json").read_text())
    registry = load_registry(idl)
    contract = json.loads((idl / "contract.json").read_text())
    plan_dir = run / "plan"
    plan_dir.mkdir(parents=True, exist_ok=True)
    (plan_dir / "profile.json").write_text(json.dumps(profile, indent=1))
    for protocol in protocols:
        rows, unsupported = workloads_for(spec, profile, protocol, registry, contract)
        lines = [" ".join([w["name"], w["size"]] + [str(w[c]) for c in COLUMNS]) for w in rows]
        (plan_dir / f"{protocol}.tsv").write_text("".join(line + "\n" for line in lines))
        (plan_dir / f"{protocol}.unsupported.json").write_text(json.dumps(unsupported, indent=1))


def read_profile(run: Path) -> dict:
    return json.loads((run / "plan" / "profile.json").read_text())


def write_contract_view(run: Path, idl: Path, profile: dict) -> tuple[list[str], list[dict]]:
    """The contract as a run's processes see it ({idl}): idl/ itself, or run/idl: every file of idl/ linked and
    vectors.json rewritten, for a profile with `"large_vectors": false` (smoke, calibration, the main job) without
    the vectors marked `"size": "large"` (50,000 values, 1 MiB), which cost most of a proving run's time and which
    certify and the studies still send, and for one with `"fresh_vectors": true` (certify) with vectors drawn for
    this run (fresh.py). Returns the ids left out and the vectors drawn."""
    if profile["large_vectors"] and not profile["fresh_vectors"]:
        return [], []
    view = run / "idl"
    view.mkdir(exist_ok=True)
    for entry in idl.iterdir():
        link = view / entry.name
        if entry.name != "vectors.json" and not link.is_symlink():
            link.symlink_to(entry.resolve())
    vectors = json.loads((idl / "vectors.json").read_text())
    left_out = [] if profile["large_vectors"] else [v["id"] for v in vectors["vectors"] if v.get("size") == "large"]
    drawn = fresh.draw() if profile["fresh_vectors"] else []
    vectors["vectors"] = [v for v in vectors["vectors"] if v["id"] not in left_out] + drawn
    (view / "vectors.json").write_text(json.dumps(vectors, indent=1, ensure_ascii=False))
    return left_out, drawn


# The files of idl/ that are not the contract: the profiles and the studies' index.
NOT_CONTRACT = ("workloads.json", "studies.json")


def contract_digest(idl: Path) -> str:
    """SHA-256 over every file of the contract (idl/ but the profiles and the studies), name and content, by name:
    a certificate names the contract it was earned against."""
    digest = hashlib.sha256()
    for path in sorted(p for p in idl.iterdir() if p.is_file() and p.name not in NOT_CONTRACT):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def read_plan(run: Path, protocol: str) -> list[dict]:
    path = run / "plan" / f"{protocol}.tsv"
    rows = []
    for line in (path.read_text().splitlines() if path.exists() else []):
        name, size, *numbers = line.split()
        rows.append({"name": name, "size": size, **dict(zip(COLUMNS, map(int, numbers), strict=True))})
    return rows
