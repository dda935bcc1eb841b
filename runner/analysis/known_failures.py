"""Expected failures, keyed by cell (and optionally workload or vector), each with its reason.

A run's exit status is non-zero only for what is unexpected: a failure with no entry, or an entry whose
cell now passes (a stale entry, to be removed).
"""
import json
from pathlib import Path

BAD = ("fail", "error", "timeout")


def load(path: Path | None) -> list[dict]:
    if path is None or not path.exists():
        return []
    entries = json.loads(path.read_text()).get("failures", [])
    for e in entries:
        if not e.get("cell") or not e.get("reason"):
            raise ValueError(f"{path}: every entry needs a cell and a reason: {e}")
    return entries


def _matches(entry: dict, rec: dict, vector: dict | None = None) -> bool:
    if entry["cell"] != rec["cell"]:
        return False
    if "workload" in entry and entry["workload"] != rec["workload"]:
        return False
    if "vector" in entry:
        return vector is not None and entry["vector"] == vector["id"]
    return True


def classify(records: list[dict], entries: list[dict]) -> dict:
    """Sorts the run's bad outcomes into expected and unexpected, and finds stale entries."""
    expected, unexpected, used = [], [], set()
    for rec in records:
        if rec["status"] not in BAD or rec.get("blocked_by"):
            continue  # a part not run because another part failed is not a failure of its own
        bad_vectors = [v for v in rec.get("vectors", []) if v["status"] in BAD] or [None]
        for vector in bad_vectors:
            hit = next((i for i, e in enumerate(entries) if _matches(e, rec, vector)), None)
            item = {"cell": rec["cell"], "workload": rec["workload"], "status": rec["status"],
                    "vector": vector["id"] if vector else None,
                    "reason": (vector or rec).get("reason", "")}
            if hit is None:
                unexpected.append(item)
            else:
                used.add(hit)
                expected.append({**item, "known_reason": entries[hit]["reason"]})
    # a cell that did not run (unsupported: in this run, by a variant, say) says nothing of its entries
    ran = {r["cell"] for r in records if r["status"] != "unsupported"}
    stale = [e for i, e in enumerate(entries) if i not in used and e["cell"] in ran]
    return {"expected": expected, "unexpected": unexpected, "stale": stale}


def vectors_allow_timing(entries: list[dict], cell: str, vectors: dict) -> bool:
    """A cell's workloads are timed when its vectors all passed or are unsupported, or every one that failed is
    a known failure of that vector in this cell (an entry naming the vector: a documented defect of a stack,
    e.g. one value it cannot write, should not hide what the stack costs; the report still lists it). An
    entry for the whole cell does not let its workloads be timed."""
    failed = [v["id"] for v in vectors.get("results", []) if v.get("status") not in ("pass", "unsupported")]
    rec = {"cell": cell, "workload": "vectors"}
    return all(any("vector" in e and _matches(e, rec, {"id": v}) for e in entries) for v in failed)
