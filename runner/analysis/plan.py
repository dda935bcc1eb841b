"""Which workloads a run times, with how many calls, per protocol: from idl/workloads.json and a profile."""
import json
from pathlib import Path

SIZES = ("small", "medium", "large")


class PlanError(ValueError):
    pass


def load_profile(idl: Path, name: str) -> dict:
    spec = json.loads((idl / "workloads.json").read_text())
    profiles = spec["profiles"]
    if name not in profiles:
        raise PlanError(f"unknown profile '{name}'; known: {', '.join(profiles)}")
    return spec, profiles[name]


def workloads_for(spec: dict, profile: dict, protocol: str) -> list[dict]:
    """The profile's workloads that belong to this protocol, in file order, with their call counts."""
    chosen = profile.get("workloads")
    known = {w["name"] for w in spec["workloads"]}
    unknown = sorted(set(chosen or ()) - known)
    if unknown:
        raise PlanError(f"profile names unknown workloads: {', '.join(unknown)}")
    plan = []
    for w in spec["workloads"]:
        if chosen is not None and w["name"] not in chosen:
            continue
        if "protocols" in w and protocol not in w["protocols"]:
            continue
        counts = profile.get(w["size"])
        if counts is None:
            continue  # the profile does not time workloads of this size
        plan.append({"name": w["name"], "size": w["size"], **counts})
    return plan


def write_plans(run: Path, idl: Path, profile_name: str, protocols: list[str]) -> None:
    spec, profile = load_profile(idl, profile_name)
    plan_dir = run / "plan"
    plan_dir.mkdir(parents=True, exist_ok=True)
    (plan_dir / "profile.json").write_text(json.dumps(
        {"name": profile_name, "command_timeout_s": profile.get("command_timeout_s", 300), **profile}, indent=1))
    for protocol in protocols:
        rows = workloads_for(spec, profile, protocol)
        lines = [f"{w['name']} {w['size']} {w['warmup']} {w['calls']} {w['repetitions']}" for w in rows]
        (plan_dir / f"{protocol}.tsv").write_text("".join(line + "\n" for line in lines))


def read_plan(run: Path, protocol: str) -> list[dict]:
    rows = []
    for line in (run / "plan" / f"{protocol}.tsv").read_text().splitlines():
        name, size, warmup, calls, reps = line.split()
        rows.append({"name": name, "size": size, "warmup": int(warmup), "calls": int(calls),
                     "repetitions": int(reps)})
    return rows
