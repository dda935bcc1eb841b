"""The figures of a run, as plain data: its records grouped by (cell, workload) across passes, each figure
the median across the passes with its 95% confidence interval (stats.median_ci), and the ratios to the
baseline and to the machine's floor. Nothing here is text: the sections word it, the renderers format it."""
import functools
from dataclasses import dataclass

from .. import stats
from ..exports import field
from ..records import FLOOR_CELL
from . import flags

# The order in which a (cell, workload) that failed in several passes shows its worst status.
BAD_ORDER = ("error", "timeout", "fail", "unsupported")


@dataclass(frozen=True)
class Figure:
    """One figure across passes: the median of the values, its 95% CI [low, high], and the values."""
    median: float
    low: float
    high: float
    n: int
    values: tuple
    method: str


def figure(values: list) -> Figure | None:
    """The figure of the values that are not None; None if there are none."""
    values = [v for v in values if v is not None]
    if not values:
        return None
    ci = stats.median_ci(values)
    return Figure(ci["median"], ci["low"], ci["high"], ci["n"], tuple(values), ci["method"])


def representative(recs: list[dict]) -> dict:
    """The (cell, workload)'s record for its status: the first pass that did not pass, else the first."""
    bad = [r for r in recs if r["status"] != "pass"]
    if bad:
        return min(bad, key=lambda r: (BAD_ORDER.index(r["status"]) if r["status"] in BAD_ORDER else 9,
                                       r.get("pass", 1)))
    return recs[0]


def _cpu_total(rec: dict) -> float | None:
    """Client + server CPU time per call of one record."""
    try:
        cpu = rec.get("cpu_us_per_call")
        return cpu["client"] + cpu["server"] if cpu else None
    except (KeyError, TypeError):
        return None


@dataclass(frozen=True)
class WarmUp:
    """A cell's warm-up over its workloads and passes."""
    steady: int  # workload runs whose warm-up reached a steady state
    checked: int  # workload runs whose warm-up was checked
    elapsed_ms: float  # the median across passes of a pass's total warm-up time
    not_steady: list  # (workload, pass) of the runs that did not reach it
    jit: dict  # side -> how its JIT warm-up ended in each pass: [(pass, ended, seconds, share)], sides with a JIT


@dataclass(frozen=True)
class Memory:
    """A cell's instantiation, largest memory and thread counts over its workloads."""
    instantiation: Figure | None  # µs, over every pass that has it
    instantiation_stub: Figure | None  # µs, from a stub in hand
    kept_client: bool  # the client process had served another server of the protocol before
    client_peak_kb: int | None
    server_peak_kb: int | None
    server_after_kb: int | None
    server_threads: list  # the distinct counts at the end of each workload, sorted
    client_threads: list


class Figures:
    """A run's records across passes: which record stands for a (cell, workload), and its figures."""

    def __init__(self, records: list[dict], cells: list[dict], baseline: str | None, path_slack_us: float = 0.0):
        self.records = records
        self.path_slack_us = path_slack_us  # what the floor rule allows for the delay line (flags.path_slack_us)
        self.cells = cells
        self.cell_names = {c["name"] for c in cells}
        self.groups: dict[tuple, list[dict]] = {}
        for r in sorted(records, key=lambda r: r.get("pass", 1)):
            self.groups.setdefault((r["cell"], r["workload"]), []).append(r)
        self.passes = sorted({r.get("pass", 1) for r in records if r["cell"] in self.cell_names}) or [1]
        self.multi = len(self.passes) > 1
        self.by_key = {k: representative(v) for k, v in self.groups.items()}
        self.protocols = list(dict.fromkeys(c["protocol"] for c in cells))
        self.baseline = baseline or (self.protocols[0] if self.protocols else None)
        # the host around each cell run: steal (ms) and the CPU probe (ns), keyed by (cell, pass)
        self.steal: dict[tuple, float] = {}
        self.probe: dict[tuple, float] = {}
        for r in records:
            if r["cell"] in self.cell_names:
                key = (r["cell"], r.get("pass", 1))
                if r.get("steal_ms") is not None:
                    self.steal[key] = r["steal_ms"]
                if r.get("calibration_ns") is not None:
                    self.probe[key] = r["calibration_ns"]
        self.probe_median = stats.median_ci(list(self.probe.values()))["median"] if self.probe else None

    # -- records ---------------------------------------------------------------------------------------
    def runs(self, cell: str, workload: str) -> list[dict]:
        """The (cell, workload)'s record of every pass, in pass order."""
        return self.groups.get((cell, workload), [])

    def record(self, cell: str, workload: str) -> dict | None:
        return self.by_key.get((cell, workload))

    def status(self, cell: str, workload: str) -> str | None:
        rec = self.record(cell, workload)
        return rec["status"] if rec else None

    def passing(self, cell: str, workload: str) -> list[dict]:
        return [r for r in self.runs(cell, workload) if r["status"] == "pass"]

    def cell(self, name: str) -> dict:
        return next(c for c in self.cells if c["name"] == name)

    def cells_of(self, protocol: str) -> list[dict]:
        return [c for c in self.cells if c["protocol"] == protocol]

    def timed_keys(self) -> list[tuple]:
        """The (cell, workload)s of the matrix that passed everywhere and have round-trip times."""
        return [(c, w) for (c, w), recs in self.groups.items()
                if c in self.cell_names and w != "vectors" and self.status(c, w) == "pass"
                and any(r.get("rtt_us") for r in recs)]

    # -- figures ---------------------------------------------------------------------------------------
    def fig(self, cell: str, workload: str, name: str, strict: bool = True) -> Figure | None:
        """The figure of a record field (dotted, as in results.csv) across passes: over the passes that
        passed, and only if all did (strict), or over every pass that has it."""
        return self._across(cell, workload, lambda r: field(r, name), strict)

    def cpu_total(self, cell: str, workload: str) -> Figure | None:
        """Client + server CPU time per call, µs."""
        return self._across(cell, workload, _cpu_total, strict=True)

    def _across(self, cell: str, workload: str, value_of, strict: bool) -> Figure | None:
        if strict and self.status(cell, workload) != "pass":
            return None
        return figure([value_of(r) for r in (self.passing(cell, workload) if strict else self.runs(cell, workload))])

    def floor(self) -> Figure | None:
        """The p50 of the machine's floor (the C ping-pong), over the passes that timed it."""
        return self.fig(FLOOR_CELL, "ping", "rtt_us.p50", strict=False)

    def floor_by_pass(self) -> dict[int, float]:
        """The floor's p50 in each pass that timed it."""
        return {r.get("pass", 1): r["rtt_us"]["p50"] for r in self.passing(FLOOR_CELL, "ping")
                if (r.get("rtt_us") or {}).get("p50") is not None}

    def on_the_wire(self, cell: str) -> bool:
        """Whether the cell's calls cross the path the floor measures (a matrix cell, not the floor itself or
        a language's in-process handler)."""
        return cell in self.cell_names

    def adjacent_floors(self) -> dict[str, dict]:
        """The floors taken before each server group (records' floor_us), by folder: {pass, p50, min}, and
        the p50 of its fastest repetition where the fold gave it (fastest_repetition_p50)."""
        out = {}
        for r in self.records:
            f = r.get("floor_us") or {}
            if f.get("p50") is not None:
                out.setdefault(f["folder"], {"pass": r.get("pass", 1),
                                             **{k: f[k] for k in ("p50", "min", "fastest_repetition_p50") if k in f}})
        return out

    def following_floors(self, fastest: bool = False) -> dict[str, float]:
        """For each floor taken before a server group (by folder), the p50 of the next one taken in its pass
        (before the next group), or with `fastest` that of its fastest repetition: with it, the two floors
        bracket the group's cells. The last group of a pass has none. Records are in the order the run wrote
        them, so the folders are in the order taken. Read once per (cell, workload) flagged: computed once."""
        return self._following_floors[fastest]

    @functools.cached_property
    def _following_floors(self) -> dict[bool, dict[str, float]]:
        taken: dict[int, list] = {}
        for folder, f in self.adjacent_floors().items():
            taken.setdefault(f["pass"], []).append((folder, f))
        following = {floors[i][0]: floors[i + 1][1] for floors in taken.values() for i in range(len(floors) - 1)}
        return {False: {k: f["p50"] for k, f in following.items()},
                True: {k: f.get("fastest_repetition_p50", f["p50"]) for k, f in following.items()}}

    def floor_multiple(self, cell: str, workload: str = "ping") -> float | None:
        """The cell's p50 as a multiple of its floor (the lower of those taken before and after its server
        group where the run took them, else its pass's: flags.floor_of), median over the passes."""
        if self.status(cell, workload) != "pass":
            return None
        by_pass, following = self.floor_by_pass(), self.following_floors()
        ratios = [r["rtt_us"]["p50"] / f for r in self.passing(cell, workload)
                  if (r.get("rtt_us") or {}).get("p50") is not None and (f := flags.floor_of(r, by_pass, following))]
        return stats.median_ci(ratios)["median"] if ratios else None

    def baseline_cell(self, cell: dict) -> str | None:
        """The baseline's cell for the same client and server languages (the same implementations if any)."""
        same = f"{self.baseline}/{cell['client']}→{cell['server']}"
        if same in self.cell_names:
            return same
        for c in self.cells:
            if c["protocol"] == self.baseline and _language(c, "client") == _language(cell, "client") \
                    and _language(c, "server") == _language(cell, "server"):
                return c["name"]
        return None

    def baseline_ratio(self, cell: dict, workload: str) -> float | None:
        """The cell's median p50 over its baseline cell's, when both have one."""
        base = self.baseline_cell(cell)
        if base is None:
            return None
        a, b = self.fig(cell["name"], workload, "rtt_us.p50"), self.fig(base, workload, "rtt_us.p50")
        return a.median / b.median if a and b and b.median else None

    def handler_cell(self, cell: dict) -> str:
        """The pseudo-cell of the in-process handler of the cell's server language."""
        return f"handler/{cell.get('server_language', cell['server'])}"

    def handler_share(self, cell: dict, workload: str) -> float | None:
        """The handler's p50 as a share of the cell's p50 round trip."""
        handler = self.fig(self.handler_cell(cell), workload, "rtt_us.p50")
        p50 = self.fig(cell["name"], workload, "rtt_us.p50")
        return handler.median / p50.median if handler and p50 and p50.median else None

    def wire_bytes(self, protocol: str, workload: str) -> float | None:
        """The protocol's bytes per call (TCP payload where counted, else Ethernet frames), both directions,
        median over the protocol's cells that counted them."""
        values = []
        for c in self.cells_of(protocol):
            kind = "payload" if self.fig(c["name"], workload, "wire_per_call.payload_c2s") else "bytes"
            up, down = (self.fig(c["name"], workload, f"wire_per_call.{kind}_{d}") for d in ("c2s", "s2c"))
            if up and down:
                values.append(up.median + down.median)
        return stats.median_ci(values)["median"] if values else None

    def warmup(self, cell: str, workloads: list[str]) -> WarmUp | None:
        entries = [(w, r) for w in workloads for r in self.runs(cell, w) if r.get("warmup_steady")]
        if not entries:
            return None
        per_pass: dict[int, float] = {}
        for _, r in entries:
            per_pass[r.get("pass", 1)] = per_pass.get(r.get("pass", 1), 0) + (r["warmup_steady"].get("elapsed_ms") or 0)
        jit: dict[str, dict] = {}
        for _, r in entries:
            for side in ("server", "client"):
                w = (r.get("warm_phase") or {}).get(side) or {}
                if w.get("jit"):
                    jit.setdefault(side, {})[r.get("pass", 1)] = (r.get("pass", 1), w.get("ended"), w.get("warm_s"),
                                                                  w.get("share"))
        return WarmUp(steady=sum(1 for _, r in entries if flags.warmed_steady(r)), checked=len(entries),
                      elapsed_ms=stats.median_ci(list(per_pass.values()))["median"],
                      not_steady=[(w, r.get("pass", 1)) for w, r in entries if not flags.warmed_steady(r)],
                      jit={side: sorted(by_pass.values()) for side, by_pass in jit.items()})

    def memory(self, cell: str) -> Memory | None:
        recs = [r for (c, _), rs in self.groups.items() if c == cell for r in rs
                if r["status"] == "pass" and r.get("rss_kb")]
        inst = self.fig(cell, "vectors", "instantiation_us", strict=False)
        if not recs and inst is None:
            return None
        return Memory(instantiation=inst,
                      instantiation_stub=self.fig(cell, "vectors", "instantiation_stub_us", strict=False),
                      kept_client=any((r.get("processes") or {}).get("client") == "kept"
                                      for r in self.runs(cell, "vectors")),
                      client_peak_kb=_largest(recs, "client_peak"), server_peak_kb=_largest(recs, "server_peak"),
                      server_after_kb=_largest(recs, "server_after"), server_threads=_threads(recs, "server"),
                      client_threads=_threads(recs, "client"))


def _language(cell: dict, role: str) -> str:
    return cell.get(f"{role}_language", cell[role])


def _largest(recs: list[dict], key: str) -> int | None:
    """The largest memory figure (rss_kb) over the records, None if none is above 0."""
    return max((r["rss_kb"].get(key) or 0 for r in recs), default=0) or None


def _threads(recs: list[dict], side: str) -> list[int]:
    return sorted({(r.get("threads") or {}).get(side) for r in recs} - {None})


def plain_sibling(protocol: str, registry: dict, protocols: list[str]) -> str | None:
    """The protocol of the same family and variant but without security (SOAP for WS-Security)."""
    me = registry.get(protocol)
    if not me or me["variant"].get("security", "none") == "none":
        return None
    plain = {**me["variant"], "security": "none"}
    return next((name for name, p in registry.items()
                 if p["family"] == me["family"] and p["variant"] == plain and name in protocols), None)
