"""One run folder from the runs of a run on a cluster (`runner/rpcmatrix k8s`, runner/README.md#kubernetes): each
client pod's rounds ran against servers elsewhere (`P/C→elsewhere`); the manifests' plan.json says which server each
round's target was, so the merged folder holds the planned cells under their own names (`P/C→S`) with every
record of the collected runs renamed to them, which `python -m analysis render` folds as any run.

    python -m analysis merge --plan MANIFESTS/plan.json --collected DIR --into RUN"""
import json
import shutil
from pathlib import Path

from conductor import fold
from conductor.cells import can_run

from . import records

ELSEWHERE = "elsewhere"  # the conductor's name for a server elsewhere (conductor/cells.py)


class MergeError(ValueError):
    pass


def _renamed(rec: dict, servers: dict[str, str], cells: dict[str, dict]) -> dict:
    """A record of a round under its planned cell's name (its server's own), or as it was (the floor, handlers)."""
    protocol = rec.get("protocol")
    if rec.get("server") != ELSEWHERE or protocol not in servers:
        return rec
    name = f"{protocol}/{rec['client']}→{servers[protocol]}"
    cell = cells.get(name)
    if cell is None:
        raise MergeError(f"a record of {rec['cell']} has no planned cell {name} (plan.json is of another run?)")
    return rec | {"cell": name, "server": cell["server"], "server_language": cell["server_language"]}


def declined_records(into: Path, cells: list[dict]) -> list[dict]:
    """The planned cells that could not run (unsupported, an error of the plan) as a local run records them (the
    conductor's declined step): their status and reason for the vectors and each workload their protocol plans."""
    out = []
    for cell in cells:
        status, reason = ("error", cell["error"]) if cell.get("error") else ("unsupported", cell.get("unsupported"))
        plan_file = into / "plan" / f"{cell['protocol']}.tsv"
        workloads = [line.split()[0] for line in plan_file.read_text().splitlines() if line.strip()] \
            if plan_file.exists() else []
        for workload in ["vectors", *workloads]:
            out.append(fold.base_record(into, cell, workload, 1, {}) | {"status": status, "reason": reason or ""})
    return out


def merge(plan_path: Path, collected: Path, into: Path) -> int:
    """Writes INTO (cells.jsonl, results.jsonl, env.json, plan/); returns the records merged."""
    plan = json.loads(plan_path.read_text(encoding="utf-8"))
    if into.exists() and any(into.iterdir()):
        raise MergeError(f"{into} is not empty")
    cells = {c["name"]: c for c in plan["cells"]}
    merged, missing, first = [], [], None
    (into / "plan").mkdir(parents=True, exist_ok=True)
    for folder, servers in plan["runs"].items():
        run = collected / folder
        if not (run / "env.json").exists():
            missing.append(folder)
            continue
        first = first or run
        merged += [_renamed(rec, servers, cells) for rec in records.stored(run)]
        for path in sorted((run / "plan").glob("*.tsv")) + sorted((run / "plan").glob("*.unsupported.json")):
            if not (into / "plan" / path.name).exists():  # a protocol's workloads, the same in every round
                shutil.copy(path, into / "plan" / path.name)
    if first is None:
        raise MergeError(f"none of plan.json's run folders is under {collected} (kubectl cp copies them: "
                         "runner/README.md#kubernetes)")
    env = json.loads((first / "env.json").read_text(encoding="utf-8"))
    env["k8s"] = {key: plan[key] for key in ("commit", "profile", "options", "kubernetes_version", "cpu", "memory",
                                             "server_node", "client_node")} | {"runs": sorted(plan["runs"]),
                                                                              "missing": missing}
    (into / "env.json").write_text(json.dumps(env, indent=1, ensure_ascii=False))
    if (first / "plan" / "run.json").exists():
        run_json = json.loads((first / "plan" / "run.json").read_text(encoding="utf-8"))
        # the servers were the suite's own: the merged run certifies no server elsewhere
        (into / "plan" / "run.json").write_text(json.dumps(run_json | {"server_at": {}}, indent=1, ensure_ascii=False))
    if (first / "plan" / "profile.json").exists():
        shutil.copy(first / "plan" / "profile.json", into / "plan" / "profile.json")
    ran = {rec["cell"] for rec in merged}
    declined = [c for c in plan["cells"] if c["name"] not in ran and not can_run(c)]
    merged += declined_records(into, declined)
    (into / "cells.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in plan["cells"]
                                              if c["name"] in ran or c in declined))
    (into / records.RESULTS).write_text("".join(json.dumps(rec, ensure_ascii=False) + "\n" for rec in merged))
    return len(merged)
