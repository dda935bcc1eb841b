"""Facts: what a step observed, one line per outcome in its folder's facts.tsv (runner/FACTS.md), before the
step's fold turns them into records.

Both sides write them, the shell (a server that never got ready, a timed workload's counters, a floor) and
the conductor (the vectors, a client lost while warming, how a warm-up ended), in one format, so a step's
facts keep the order they were observed in: `<time>\\t<kind>\\t<field>=<value>\\t...`, time in UTC to the second.
A value is text without tabs or line breaks; the schema below says which fields are numbers, flags or JSON
(nested values only the conductor writes), and every other field is text. An empty value is absent.
"""
import json
import time
from pathlib import Path

FACTS = "facts.tsv"

INT, FLAG, JSON = "int", "flag", "json"
# The typed fields of each kind; any field not named is text.
SCHEMA = {
    "vectors": {"pass": INT},
    "status": {"pass": INT, "only": FLAG},
    "workload": {"pass": INT, "warmup": INT, "calls": INT, "repetitions": INT, "min_ms": INT},
    "warm": {"pass": INT, "seconds": INT, "server": JSON, "client": JSON},
    "cell_end": {"pass": INT, "steal_ticks": INT, "calibration_ns": INT},
    "floor": {"pass": INT},
    "adjacent_floor": {"pass": INT},
    "floor_after": {"pass": INT},
    "network_floor": {"pass": INT},
    "handler": {},
}


def _typed(kind: str, name: str, value: str):
    kind_of = SCHEMA.get(kind, {}).get(name)
    if kind_of == INT:
        return int(value)
    if kind_of == FLAG:
        return value == "1"
    if kind_of == JSON:
        return json.loads(value)
    return value


def parse(line: str) -> dict:
    """One line of facts as a dict: time, kind and its fields, typed by the schema."""
    observed, kind, *fields = line.rstrip("\n").split("\t")
    out = {"time": observed, "kind": kind}
    for field in fields:
        name, _, value = field.partition("=")
        if value != "":
            out[name] = _typed(kind, name, value)
    return out


def read(folder: Path) -> list[dict]:
    path = folder / FACTS
    if not path.exists():
        return []
    return [parse(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _text(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return " ".join(str(value).replace("\t", " ").splitlines())


def write(folder: Path, kind: str, **fields) -> None:
    """Appends one fact (None fields left out), as the shell's `fact` does."""
    observed = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    parts = [observed, kind] + [f"{name}={_text(value)}" for name, value in fields.items() if value is not None]
    with open(folder / FACTS, "a", encoding="utf-8") as f:
        f.write("\t".join(parts) + "\n")
