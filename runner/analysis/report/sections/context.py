"""What every section reads: the run's environment and plan, its figures, the verdict on its failures,
and the report's notes."""
import json
from dataclasses import dataclass, field
from pathlib import Path

from conductor import network

from ... import battery
from .. import flags
from ..blocks import Notes
from ..figures import Figures

BATTERY_LINES = "battery.jsonl"


@dataclass
class Context:
    env: dict  # env.json: "run" (the run's settings and host) and "versions"
    figures: Figures
    verdict: dict  # known_failures.classify: "unexpected", "expected", "stale"
    workloads: dict  # protocol -> its planned workloads, in plan order
    unsupported: dict  # protocol -> {workload of the profile it cannot run: why}
    notes: Notes
    battery: list = field(default_factory=list)  # battery.jsonl attached to the run (analysis/battery.py)
    load_points: list = field(default_factory=list)  # a load profile's point records (kind "load"; sections/load.py)
    delay_line: dict | None = None  # what the delay line added beyond the asked delay (conductor/network.delay_line)

    @classmethod
    def load(cls, run: Path, records: list[dict], cells: list[dict], verdict: dict) -> "Context":
        env = json.loads((run / "env.json").read_text())
        points = [r for r in records if r.get("kind") == "load"]
        records = [r for r in records if r.get("kind") != "load"]
        delay_line = network.delay_line(run)
        figures = Figures(records, cells, env["run"].get("baseline"), flags.path_slack_us(delay_line))
        return cls(env=env, figures=figures, verdict=verdict, delay_line=delay_line,
                   workloads={p: _planned(run, p) for p in figures.protocols},
                   unsupported={p: _unsupported(run, p) for p in figures.protocols}, notes=Notes(),
                   battery=battery.load_lines(run / BATTERY_LINES), load_points=points)

    @property
    def run(self) -> dict:
        return self.env["run"]

    def pass_label(self, pass_no: int) -> str:
        """Which pass, in a run of several: " (pass n)"."""
        return f" (pass {pass_no})" if self.figures.multi else ""


def _planned(run: Path, protocol: str) -> list[str]:
    path = run / "plan" / f"{protocol}.tsv"
    if not path.exists():
        return []
    return [line.split()[0] for line in path.read_text().splitlines() if line.strip()]


def _unsupported(run: Path, protocol: str) -> dict:
    path = run / "plan" / f"{protocol}.unsupported.json"
    try:
        return json.loads(path.read_text()) if path.exists() else {}
    except ValueError:
        return {}
