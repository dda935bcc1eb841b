"""REPORT.md: the machine's floor, then per protocol the interop matrix, the implementations and their
thread models, and the tables of latency (with the handler's share), CPU, bytes, connections, warm-up and
memory; then every protocol against the raw TCP baseline for the same pair of languages.

A run of several passes shows every figure as the median across its passes with a 95% confidence
interval (stats.median_ci), and flags the figures whose passes disagree."""
import json
from pathlib import Path

from . import stats

STATUS_MARK = {"pass": "✅", "fail": "❌", "error": "💥", "timeout": "⏱", "unsupported": "➖"}
BAD_ORDER = ("error", "timeout", "fail", "unsupported")
# Repetitions whose means spread more than this (CV of the kept repetition means) did not measure one
# steady state: the figure is flagged rather than trusted.
UNSTABLE_REP_CV = 0.2
# CPU per call whose repetitions spread more than this is flagged ⚠cpu.
UNSTABLE_CPU_REP_CV = 0.2
# Client + server CPU per call above this multiple of the mean round trip: impossible for a strict
# ping-pong unless threads run concurrently (⚠>rtt).
CPU_BOUND = 1.2
# A typical call (the p50) that spends more than this share of its round trip, and more than WAIT_MIN_US, on
# neither side's CPU waits for something (a delayed ACK that Nagle's algorithm holds the last segment for, a
# timer, a lock): ⏸wait. The p50, not the mean, so that steal time hitting a few calls does not count; on a
# host whose steal hits most calls it still does, so the report points to each cell's steal. The fastest call
# tells neither apart: a Nagle stall lets some calls through (quick ACKs), as steal does.
WAIT_SHARE = 0.5
WAIT_MIN_US = 1000.0
# Passes disagree when the CI's half-width is over 5% of the median or the largest value is over 1.1x the
# smallest.
PASS_HALF_WIDTH = 0.05
PASS_MAX_MIN = 1.1
FLOOR_CELL = "floor/c→c"
FLOOR_TARGET = 1.3
FLOOR_TARGETS = {"java": 1.1}
MARKS_LEGEND = ("⚠ = unstable repetitions (CV of repetition means over 20%); ⧉ = two modes (see the note); "
                "≠ = the passes disagree (CI half-width over 5% of the median, or max/min over 1.1); "
                "⌛ = warm-up did not reach steady state")


def unstable(rec: dict) -> bool:
    return (rec.get("rtt_us") or {}).get("rep_cv") is not None and rec["rtt_us"]["rep_cv"] > UNSTABLE_REP_CV


def baseline_ratio(rec: dict | None, base: dict | None) -> float | None:
    """A record's median RTT over the baseline's for the same cell languages and workload, when both passed."""
    if rec and base and rec["status"] == "pass" and base["status"] == "pass":
        return rec["rtt_us"]["p50"] / base["rtt_us"]["p50"]
    return None


def _num(x, digits: int = 3) -> str:
    if x is None:
        return "–"
    if x == 0:
        return "0"
    if abs(x) >= 10 ** digits:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in row) + " |" for row in rows]
    return out + [""]


def _cell_text(text: str) -> str:
    """Text on one line, for a table cell (_table escapes the pipes)."""
    return " ".join(text.split())


def _get(rec: dict, dotted: str):
    value = rec
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def disagree(ci: dict | None) -> bool:
    """Whether the passes behind a median disagree: CI half-width over 5% of the median, or max/min over 1.1."""
    if not ci or ci["n"] < 2 or not ci["median"]:
        return False
    values = ci.get("values") or []
    spread = max(values) / min(values) if values and min(values) > 0 else 1.0
    return (ci["high"] - ci["low"]) / 2 > PASS_HALF_WIDTH * abs(ci["median"]) or spread > PASS_MAX_MIN


def _facts_text(facts) -> str:
    if isinstance(facts, dict):
        return ", ".join(f"{k} {_facts_text(v)}" for k, v in facts.items())
    if isinstance(facts, list):
        return "/".join(_facts_text(v) for v in facts)
    return str(facts)


class Report:
    def __init__(self, run: Path, records: list[dict], cells: list[dict], verdict: dict):
        self.run = run
        self.env = json.loads((run / "env.json").read_text())
        self.records = records
        self.cells = cells
        self.verdict = verdict
        self.cell_names = {c["name"] for c in cells}
        self.groups: dict[tuple, list[dict]] = {}
        for r in sorted(records, key=lambda r: r.get("pass", 1)):
            self.groups.setdefault((r["cell"], r["workload"]), []).append(r)
        self.passes = sorted({r.get("pass", 1) for r in records if r["cell"] in self.cell_names}) or [1]
        self.multi = len(self.passes) > 1
        self.by_key = {k: self.representative(v) for k, v in self.groups.items()}
        self.protocols = list(dict.fromkeys(c["protocol"] for c in cells))
        self.baseline = self.env["run"].get("baseline") or (self.protocols[0] if self.protocols else None)
        self.notes: list[str] = []
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

    # -- records across passes -------------------------------------------------------------------------
    @staticmethod
    def representative(recs: list[dict]) -> dict:
        """The (cell, workload)'s record for its status: the first pass that did not pass, else the first."""
        bad = [r for r in recs if r["status"] != "pass"]
        if bad:
            return min(bad, key=lambda r: (BAD_ORDER.index(r["status"]) if r["status"] in BAD_ORDER else 9,
                                           r.get("pass", 1)))
        return recs[0]

    def passing(self, cell: str, workload: str) -> list[dict]:
        return [r for r in self.groups.get((cell, workload), []) if r["status"] == "pass"]

    def fig(self, cell: str, workload: str, getter, strict: bool = True) -> dict | None:
        """The median across passes of getter(record), with its 95% CI: over the passes that passed, and
        only if all did (strict), or over every pass that has the figure."""
        if strict and self.status(cell, workload) != "pass":
            return None
        values = []
        for r in (self.passing(cell, workload) if strict else self.groups.get((cell, workload), [])):
            try:
                v = getter(r) if callable(getter) else _get(r, getter)
            except (KeyError, TypeError):
                v = None
            if v is not None:
                values.append(v)
        if not values:
            return None
        ci = stats.median_ci(values)
        ci["values"] = values
        return ci

    def status(self, cell: str, workload: str) -> str | None:
        rec = self.by_key.get((cell, workload))
        return rec["status"] if rec else None

    def fmt(self, ci: dict | None, digits: int = 3, scale: float = 1.0, flag: bool = True) -> str:
        """A median, with its CI in brackets when there are several passes, ≠ when they disagree (flag)."""
        if ci is None:
            return "–"
        text = _num(ci["median"] * scale, digits)
        if ci["n"] > 1:
            text += f" [{_num(ci['low'] * scale, digits)}–{_num(ci['high'] * scale, digits)}]"
            if flag and disagree(ci):
                text += " ≠"
        return text

    def not_timed(self, cell: str, workload: str) -> str:
        rec = self.by_key.get((cell, workload))
        if rec is None:
            return "not run"
        mark = STATUS_MARK.get(rec["status"], "?")
        if self.multi and rec["status"] != "pass" and rec["status"] != "unsupported":
            mark += f" (pass {rec.get('pass', 1)})"
        return mark

    def workloads(self, protocol: str) -> list[str]:
        path = self.run / "plan" / f"{protocol}.tsv"
        if not path.exists():
            return []
        return [line.split()[0] for line in path.read_text().splitlines() if line.strip()]

    def unsupported_workloads(self, protocol: str) -> dict:
        path = self.run / "plan" / f"{protocol}.unsupported.json"
        try:
            return json.loads(path.read_text()) if path.exists() else {}
        except ValueError:
            return {}

    def note(self, text: str) -> str:
        if text not in self.notes:
            self.notes.append(text)
        return f"[{self.notes.index(text) + 1}]"

    def cells_of(self, protocol: str) -> list[dict]:
        return [c for c in self.cells if c["protocol"] == protocol]

    def timed_keys(self) -> list[tuple]:
        return [(c, w) for (c, w), recs in self.groups.items()
                if c in self.cell_names and w != "vectors" and self.status(c, w) == "pass"
                and any(r.get("rtt_us") for r in recs)]

    def baseline_cell(self, cell: dict) -> str | None:
        """The baseline's cell for the same client and server languages (the same implementations if any)."""
        same = f"{self.baseline}/{cell['client']}→{cell['server']}"
        if same in self.cell_names:
            return same
        lang = lambda c, role: c.get(f"{role}_language", c[role])
        for c in self.cells:
            if c["protocol"] == self.baseline and lang(c, "client") == lang(cell, "client") \
                    and lang(c, "server") == lang(cell, "server"):
                return c["name"]
        return None

    # -- flags ----------------------------------------------------------------------------------------
    def rtt_marks(self, cell: str, workload: str) -> str:
        recs = self.passing(cell, workload)
        marks = ""
        if any(unstable(r) for r in recs):
            marks += " ⚠"
        bimodal = [(r.get("pass", 1), r["bimodal"]) for r in recs if r.get("bimodal")]
        if bimodal:
            where = "".join(f"{'; ' if i else ''}{'pass ' + str(p) + ': ' if self.multi else ''}"
                            f"{b['modes_us'][0]:g} µs ({b['shares'][0]:.0%}) and {b['modes_us'][1]:g} µs ({b['shares'][1]:.0%})"
                            for i, (p, b) in enumerate(bimodal))
            marks += " ⧉" + self.note(f"`{cell}` {workload}: two modes of the round-trip time, {where}.")
        if any((r.get("warmup_steady") or {}).get("steady") is False for r in recs):
            marks += " ⌛"
        return marks

    def cpu_flags(self, cell: str, workload: str) -> tuple[bool, bool, bool]:
        """(per-repetition CPU disagrees, client + server CPU over 1.2x the mean RTT, the call waits: over half
        of the p50 RTT and over 1 ms on neither side's CPU)."""
        recs = self.passing(cell, workload)
        shaky = any(((r.get("cpu_us_per_call") or {}).get(k) or 0) > UNSTABLE_CPU_REP_CV
                    for r in recs for k in ("client_rep_cv", "server_rep_cv"))
        total = self.fig(cell, workload, lambda r: (r["cpu_us_per_call"]["client"] + r["cpu_us_per_call"]["server"])
                         if r.get("cpu_us_per_call") else None)
        mean = self.fig(cell, workload, "rtt_us.mean")
        over = bool(total and mean and mean["median"] and total["median"] > CPU_BOUND * mean["median"])
        p50 = self.fig(cell, workload, "rtt_us.p50")
        idle = p50["median"] - total["median"] if total and p50 and p50["median"] else 0.0
        waits = idle > WAIT_MIN_US and idle > WAIT_SHARE * p50["median"]
        return shaky, over, waits

    def cpu_flag_counts(self) -> tuple[int, int, int]:
        """(workloads over the CPU bound, workloads that wait, timed workloads with CPU figures)."""
        keys = [k for k in self.timed_keys() if any(r.get("cpu_us_per_call") for r in self.passing(*k))]
        flags = [self.cpu_flags(*k) for k in keys]
        return sum(1 for f in flags if f[1]), sum(1 for f in flags if f[2]), len(keys)

    # -- the document -----------------------------------------------------------------------------------
    def render(self) -> str:
        out = self.header() + self.environment() + self.floor_section() + self.host_section()
        for protocol in self.protocols:
            out += self.protocol_section(protocol)
        out += self.negative_tests() + self.side_by_side() + self.message_sizes() + self.baseline_section() + self.footnotes()
        return "\n".join(out) + "\n"

    def header(self) -> list[str]:
        run = self.env["run"]
        counts: dict[str, int] = {}
        for r in self.records:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        v = self.verdict
        passes = f", {len(self.passes)} passes" if self.multi else ""
        out = [f"# rpcmatrix report: run {run['run_id']}", "",
               f"Profile `{run['profile']['name']}`, commit `{run['git_commit'][:12]}`"
               f"{' (with local changes)' if run.get('git_dirty') else ''}, {len(self.cells)} cells{passes}. "
               "Cells are named `protocol/client→server`; in the matrices rows are clients, columns servers.", "",
               "Outcomes (one per cell, workload and pass; the vectors count as one): "
               + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ". "
               + f"Unexpected failures: {len(v['unexpected'])}; expected (known) failures: {len(v['expected'])}; "
               + f"stale known-failure entries: {len(v['stale'])}.", ""]
        missing = [c["name"] for c in self.cells if (c["name"], "vectors") not in self.by_key]
        if missing:
            out += [f"**Not run** (the run was interrupted): {', '.join(missing)}.", ""]
        exits = [r for r in self.records if r.get("server_exit_note")]
        if exits:
            out += ["**Servers that did not exit cleanly** (status after SIGTERM):", ""]
            out += [f"- `{r['cell']}`{' pass ' + str(r.get('pass', 1)) if self.multi else ''}: {r['server_exit_note']}"
                    for r in sorted(exits, key=lambda r: (r["cell"], r.get("pass", 1)))] + [""]
        for title, items in (("Unexpected failures", v["unexpected"]), ("Known failures", v["expected"])):
            if items:
                out += [f"## {title}", ""]
                out += [f"- `{i['cell']}` {i['workload']}{' / ' + i['vector'] if i['vector'] else ''}: "
                        f"{i['status']}: {i['reason']}" for i in items[:50]] + [""]
        if v["stale"]:
            out += ["## Stale known failures (these now pass: remove them)", ""]
            out += [f"- `{e['cell']}`: {e['reason']}" for e in v["stale"]] + [""]
        return out

    def environment(self) -> list[str]:
        run = self.env["run"]
        rows = [["CPU", f"{run['cpu_model']} ({run['cpus']} CPUs, governor {run['cpu_governor']})"],
                ["Memory", run["memory"]], ["OS, kernel", f"{run['os']}, {run['kernel']}"],
                ["CPU pinning", run.get("pin") or "not recorded"],
                ["Processes", run.get("processes") or "not recorded"],
                ["Bytes on the wire", run["wire"]], ["CPU time", run["cpu_source"]],
                ["Memory", run["memory_source"]], ["Round-trip time", run["rtt_source"]]]
        net = run.get("network") or {}
        if net:
            rows.append(["Kernel TCP / loopback", ", ".join(f"{k} {v}" for k, v in net.items() if v is not None)])
        steal = run.get("steal") or {}
        if steal:
            rows.append(["Steal time", ("reported by the kernel" if steal.get("available") else "not reported")
                         + ("; a hypervisor is present" if steal.get("hypervisor") else "")])
        for lang, versions in sorted(self.env["versions"].items()):
            rows.append([f"{lang} versions", ", ".join(f"{k} {v}" for k, v in versions.items())])
        prof = run["profile"]
        counts = "; ".join(f"{s}: {prof[s]['warmup']} warm-up, {prof[s]['repetitions']} repetitions of "
                           + (f"at least {prof[s]['calls']} calls and {prof[s]['min_ms']} ms each"
                              if prof[s].get("min_ms") else f"{prof[s]['calls']} calls each")
                           for s in ("small", "medium", "large") if s in prof)
        rows.append(["Calls per workload", counts])
        for i, r in enumerate(run.get("resumed") or [], 1):
            same = "the same boot" if r.get("boot_id") == run.get("boot_id") else "another boot"
            rows.append([f"Resumed ({i})", f"at {r['time']} after {r['cells_finished']} of {r['cells_total']} cells, on "
                         f"{same} ({r.get('cpu_model')}, kernel {r.get('kernel')}): a cell cut short ran again "
                         "from its start, and new processes served the cells after it"])
        for left in run.get("left_out") or []:
            rows.append([f"Left out: `{left['protocol']}`", f"opt-in, not in profile {prof.get('name')}: {left['reason']}"])
        steady = prof.get("steady") or {}
        rows.append(["Warm-up", "every workload of a cell warmed in turn, in batches, until the batch medians agree "
                                f"within {steady.get('tolerance', 0):.0%} (at most {steady.get('max_ms', 0)} ms each), "
                                "before the first is measured (JIT compilers settle); then each workload's own "
                                "warm-up calls"])
        rows.append(["Passes", f"{len(self.passes)}" + (f", the cells in a new random order each (seed {prof.get('seed')}); "
                                                         "figures are medians across passes with a 95% confidence "
                                                         "interval (t-interval on the mean for up to 5 passes, order "
                                                         "statistics beyond)" if self.multi else "")])
        out = ["## Environment and method", ""] + _table(["", ""], rows)
        timed = [k for k in self.timed_keys()]
        shaky = sum(1 for k in timed if any(unstable(r) for r in self.passing(*k)))
        over, waiting, with_cpu = self.cpu_flag_counts()
        out += ["Every process's argv (JVM and runtime flags included), library and settings are in each record's "
                "`env` in `results.jsonl`. RTT statistics: p50/p90/p99 from HdrHistogram; `cv` is the coefficient "
                "of variation of all calls; the trimmed mean (Juric et al.) drops the fastest and slowest "
                "repetition. Differences under about 5% are noise: do not rank on them.", "",
                f"**Stability**: {shaky} of {len(timed)} timed workloads are marked ⚠: the means of their "
                f"repetitions spread by more than {UNSTABLE_REP_CV:.0%} (coefficient of variation), so they did not "
                "measure one steady state. On a shared or virtual machine, loopback latency can switch between "
                "modes (for example about 20 µs and about 80 µs for the same pair of processes, whatever the "
                "stack) as the host schedules the CPUs; such distributions are marked ⧉; compare ⚠ and ⧉ figures "
                "only after a re-run agrees.", "",
                f"**CPU bound**: {over} of {with_cpu} timed workloads with CPU figures break the bound of a strict "
                f"ping-pong: their client + server CPU time per call exceeds {CPU_BOUND}× the mean round trip, "
                "which is impossible unless threads of the stacks run concurrently (I/O threads, garbage "
                "collectors, JIT compilers); they are marked ⚠>rtt.", "",
                f"**Waits**: {waiting} of {with_cpu} timed workloads spend more than {WAIT_SHARE:.0%} of their p50 "
                f"round trip, and more than {WAIT_MIN_US:g} µs per call, on neither side's CPU: their calls wait "
                "for something other than work (a delayed ACK for which Nagle's algorithm holds a last small "
                "segment, a timer, a lock) or for a virtual CPU the hypervisor did not run; they are marked "
                "⏸wait, with a note giving the cell's steal time and CPU probe, to read before blaming the "
                "stack.", ""]
        if self.multi:
            diff = sum(1 for k in timed if disagree(self.fig(*k, "rtt_us.p50")))
            out += [f"**Passes**: the p50 of {diff} of {len(timed)} timed workloads disagrees across passes (≠).", ""]
        return out

    def floor_section(self) -> list[str]:
        floors = self.groups.get((FLOOR_CELL, "ping"), [])
        if not floors:
            return []
        out = ["## The machine's floor", "",
               "A C ping-pong (runner/floor) over the same path, CPUs and pinning as the cells, measured at the start "
               "of each pass with the small workloads' counts: no RPC stack can do better on this machine.", ""]
        rows = []
        for r in floors:
            if r["status"] == "pass":
                rows.append([str(r.get("pass", 1)), _num(r["rtt_us"]["p50"]), _num(r["rtt_us"]["p99"]),
                             ("two modes: " + " and ".join(f"{m:g} µs ({s:.0%})" for m, s in
                                                           zip(r["bimodal"]["modes_us"], r["bimodal"]["shares"])))
                             if r.get("bimodal") else ""])
            else:
                rows.append([str(r.get("pass", 1)), STATUS_MARK.get(r["status"], "?"), "", r.get("reason", "")])
        out += _table(["pass", "p50, µs", "p99, µs", ""], rows)
        floor = self.fig(FLOOR_CELL, "ping", "rtt_us.p50", strict=False)
        if floor is None or not self.baseline:
            return out
        rows = []
        for c in self.cells_of(self.baseline):
            if c["client"] != c["server"]:
                continue
            p50 = self.fig(c["name"], "ping", "rtt_us.p50")
            lang = c.get("server_language", c["server"])
            target = FLOOR_TARGETS.get(lang, FLOOR_TARGET)
            if p50 is None:
                rows.append([f"`{c['name']}`", self.not_timed(c["name"], "ping"), "–", f"≤ {target}×", "–"])
                continue
            multiple = p50["median"] / floor["median"]
            rows.append([f"`{c['name']}`", self.fmt(p50), f"×{multiple:.2f}", f"≤ {target}×",
                         "✅ met" if multiple <= target else "❌ not met"])
        if rows:
            out += [f"Each language's `{self.baseline}` ping (the same implementation as client and server) against "
                    f"the floor's p50 ({_num(floor['median'])} µs{', median of the passes' if self.multi else ''}). "
                    f"Targets: every language within {FLOOR_TARGET}× of the floor, "
                    + ", ".join(f"{k.capitalize()} within {v}×" for k, v in FLOOR_TARGETS.items()) + ".", ""]
            out += _table(["cell", "ping p50, µs", "multiple of the floor", "target", ""], rows)
        return out

    def host_of(self, cell: str) -> str:
        """The host around each run of the cell: its steal time and CPU probe, per pass."""
        parts = []
        for p in self.passes:
            steal, probe = self.steal.get((cell, p)), self.probe.get((cell, p))
            if steal is None and probe is None:
                continue
            text = ("pass " + str(p) + ": " if self.multi else "") + ", ".join(
                ([f"{steal / 1000:.1f} s of steal"] if steal is not None else [])
                + ([f"CPU probe ×{probe / self.probe_median:.2f} the median"] if probe and self.probe_median else []))
            parts.append(text)
        return "; ".join(parts) or "steal and CPU probe not recorded"

    def host_section(self) -> list[str]:
        if not self.probe and not self.steal:
            return []
        out = ["## Steal time and CPU probe", "",
               "Before each cell the runner times a fixed CPU loop (runner/floor `spin`, 20 million iterations) and "
               "reads the machine's steal time (CPU time the hypervisor gave to others) around the cell: a slow "
               "phase of the host shows as a slow probe or as steal.", ""]
        rows = []
        med = self.probe_median
        if self.probe:
            values = sorted(self.probe.values())
            rows.append(["CPU probe, ms", _num(values[0] / 1e6), _num(med / 1e6), _num(values[-1] / 1e6),
                         f"max/min ×{values[-1] / values[0]:.2f}" if values[0] else ""])
        if self.steal:
            values = sorted(self.steal.values())
            rows.append(["steal per cell, ms", _num(values[0]), _num(stats.median_ci(values)["median"]),
                         _num(values[-1]), f"total {_num(sum(values))} ms over {len(values)} cell runs"])
        out += _table(["", "min", "median", "max", ""], rows)
        if self.probe:
            slow = sorted(((v, k) for k, v in self.probe.items() if med and v > 1.1 * med),
                          key=lambda x: (-x[0], x[1]))
            if slow:
                out += ["Cells whose probe ran more than 10% slower than the median: "
                        + ", ".join(f"`{k[0]}`{' (pass ' + str(k[1]) + ')' if self.multi else ''} ×{v / med:.2f}"
                                    for v, k in slow[:10]) + (" …" if len(slow) > 10 else "") + ".", ""]
        return out

    def interop_matrix(self, protocol: str) -> list[str]:
        cells = self.cells_of(protocol)
        servers = list(dict.fromkeys(c["server"] for c in cells))
        clients = list(dict.fromkeys(c["client"] for c in cells))
        rows = []
        for client in clients:
            row = [f"**{client}**"]
            for server in servers:
                name = f"{protocol}/{client}→{server}"
                row.append(self.matrix_cell(name))
            rows.append(row)
        return _table(["client \\ server"] + servers, rows)

    def metadata_matrix(self, protocol: str) -> list[str]:
        """Whether each client stack could build its client from each server's published metadata (a SOAP
        server's ?wsdl), beside the calls, which use the contract's own IDL."""
        cells = [c for c in self.cells_of(protocol) if "metadata" in (self.by_key.get((c["name"], "vectors")) or {})]
        if not cells:
            return []
        servers = list(dict.fromkeys(c["server"] for c in cells))
        rows = []
        for client in dict.fromkeys(c["client"] for c in cells):
            row = [f"**{client}**"]
            for server in servers:
                m = (self.by_key.get((f"{protocol}/{client}→{server}", "vectors")) or {}).get("metadata")
                if m is None:
                    row.append("–")
                else:
                    mark = {True: "✅", False: "❌", None: "💥 not checked"}[m["consumable"]]
                    row.append(f"{mark} {self.note(m['reason'])}" if m["reason"] else mark)
            rows.append(row)
        return ["### Published metadata", "",
                "Can the client's stack build a working client from the metadata the server publishes (not "
                "the contract's own file, which the calls use)?", ""] + _table(["client \\ server"] + servers, rows)

    def negative_tests(self) -> list[str]:
        """The attack vectors (CONTRACT.md#vectors) of every cell whose protocol has what they need: each must
        be refused, and the server must serve a correct call right after."""
        attacks = self.env["run"].get("attack_vectors") or {}
        rows, shown = [], []
        for c in self.cells:
            rec = self.by_key.get((c["name"], "vectors"))
            results = {v["id"]: v for v in (rec or {}).get("vectors", []) if v["id"] in attacks}
            ran = {i: v for i, v in results.items() if v["status"] != "unsupported"}
            if ran:
                shown += [i for i in attacks if i in ran and i not in shown]
                rows.append((c["name"], ran))
        if not rows:
            return []
        shown = [i for i in attacks if i in shown]
        table = []
        for name, ran in rows:
            cells = []
            for i in shown:
                v = ran.get(i)
                if v is None:
                    cells.append("–")
                else:
                    mark, reason = STATUS_MARK.get(v["status"], v["status"]), _cell_text(v.get("reason", ""))
                    # how a refusal looked fits in the table; why a test failed goes to the notes, whole
                    cells.append(mark if not reason else f"{mark} {reason[:90]}" if v["status"] == "pass"
                                 else f"{mark} {self.note(v['reason'])}")
            table.append([f"`{name}`"] + cells)
        return ["## Negative tests: what secured servers refuse", "",
                "Each defective call must be refused (the note says how) and a correct call on a new connection "
                "must succeed right after (CONTRACT.md, attacks). – = the protocol does not have what the test "
                "needs.", ""] + _table(["cell"] + [attacks[i] for i in shown], table)

    def matrix_cell(self, name: str) -> str:
        rec = self.by_key.get((name, "vectors"))
        if rec is None:
            return "not run"
        mark = STATUS_MARK.get(rec["status"], rec["status"])
        where = f" (pass {rec.get('pass', 1)})" if self.multi and rec["status"] not in ("pass", "unsupported") else ""
        if rec.get("vectors"):
            passed = sum(1 for v in rec["vectors"] if v["status"] == "pass")
            unsup = sum(1 for v in rec["vectors"] if v["status"] == "unsupported")
            text = f"{mark} {passed}/{len(rec['vectors'])} pass"
            if unsup:
                text += f", {unsup} unsupported"
            if rec["status"] != "pass":
                text += where + " " + self.note(rec["reason"])
            return text
        return f"{mark} {rec['status']}{where} {self.note(rec['reason'])}"

    def metric_table(self, protocol: str, title: str, fmt) -> list[str]:
        workloads = self.workloads(protocol)
        rows = []
        for c in self.cells_of(protocol):
            if c.get("unsupported"):
                continue
            row = [f"{c['client']}→{c['server']}"]
            for w in workloads:
                row.append(fmt(c["name"], w) if self.status(c["name"], w) == "pass" else self.not_timed(c["name"], w))
            rows.append(row)
        if not rows or not workloads:
            return []
        return [f"#### {title}", ""] + _table(["client→server"] + workloads, rows)

    def rtt_text(self, cell: str, w: str) -> str:
        p50, p99 = self.fig(cell, w, "rtt_us.p50"), self.fig(cell, w, "rtt_us.p99")
        trimmed, cv = self.fig(cell, w, "rtt_us.trimmed_mean"), self.fig(cell, w, "rtt_us.cv")
        text = f"{self.fmt(p50)} / {self.fmt(p99, flag=False)}"
        if not self.multi:
            text += f" ({_num(trimmed and trimmed['median'])}, {_num(cv and cv['median'], 2)})"
        return text + self.rtt_marks(cell, w)

    def handler_text(self, cell: dict, w: str) -> str:
        lang = cell.get("server_language", cell["server"])
        handler = self.fig(f"handler/{lang}", w, "rtt_us.p50")
        if handler is None:
            rec = self.by_key.get((f"handler/{lang}", w))
            return "not measured" if rec is None else STATUS_MARK.get(rec["status"], "?")
        p50 = self.fig(cell["name"], w, "rtt_us.p50")
        share = f" ({handler['median'] / p50['median']:.0%})" if p50 and p50["median"] else ""
        return f"{_num(handler['median'])}{share}"

    def cpu_text(self, cell: str, w: str) -> str:
        client = self.fig(cell, w, "cpu_us_per_call.client")
        server = self.fig(cell, w, "cpu_us_per_call.server")
        if client is None and server is None:
            return "not measured"
        shaky, over, waits = self.cpu_flags(cell, w)
        wait = ""
        if waits:
            p50, fastest = self.fig(cell, w, "rtt_us.p50"), self.fig(cell, w, "rtt_us.min")
            wait = " ⏸wait" + self.note(
                f"`{cell}` {w}: p50 {self.fmt(p50, flag=False)} µs, fastest call {self.fmt(fastest, flag=False)} µs; "
                f"the host around the cell: {self.host_of(cell)}.")
        return (f"{self.fmt(client)} / {self.fmt(server)}" + (" ⚠cpu" if shaky else "") + (" ⚠>rtt" if over else "")
                + wait)

    def wire_text(self, cell: str, w: str) -> str:
        if self.fig(cell, w, "wire_per_call.bytes_c2s") is None:
            return "not measured"
        f = lambda k, d: _num(self.fig(cell, w, f"wire_per_call.{k}")["median"], d) \
            if self.fig(cell, w, f"wire_per_call.{k}") else "–"
        return f"{f('bytes_c2s', 4)} / {f('bytes_s2c', 4)} ({f('packets_c2s', 2)} / {f('packets_s2c', 2)})"

    def connections_text(self, cell: str, w: str) -> str:
        conn = self.fig(cell, w, "wire_per_call.connections")
        if not conn:
            return "not measured"
        text = self.fmt(conn, 3, 1000)
        tw_client, tw_server = (self.fig(cell, w, f"time_wait.{side}") for side in ("client", "server"))
        if conn["median"] > 0 and tw_client and tw_server:
            text += f" (TIME_WAIT {_num(tw_client['median'], 3)} / {_num(tw_server['median'], 3)})"
        return text

    def protocol_section(self, protocol: str) -> list[str]:
        out = [f"## {protocol}", "", "### Interop: vectors per cell", ""] + self.interop_matrix(protocol)
        out += self.metadata_matrix(protocol) + self.unsupported_vectors(protocol) + self.unsupported_workload_list(protocol)
        out += self.implementations(protocol) + self.stack_notes(protocol)
        out += ["### Figures per timed workload", ""]
        if self.multi:
            out += [f"Each figure is the median across the {len(self.passes)} passes with its 95% confidence "
                    "interval in brackets.", ""]
        rtt_title = ("Round-trip time, µs: p50 / p99" + ("" if self.multi else " (trimmed mean, CV)")
                     + f", from each call's time on the client's monotonic clock. {MARKS_LEGEND}")
        out += self.metric_table(protocol, rtt_title, self.rtt_text)
        out += self.metric_table(protocol, "Handler time, µs: p50 of the server language's reference behaviour timed in "
                                           "process (no transport, pass 1), and its share of the cell's p50 round trip",
                                 lambda cell, w: self.handler_text(next(c for c in self.cells if c["name"] == cell), w))
        out += self.metric_table(protocol, "CPU time per call, µs: client / server, from the cgroups' counters read around "
                                           "each repetition. ⚠cpu = the repetitions' CPU per call spreads by more than "
                                           f"{UNSTABLE_CPU_REP_CV:.0%} (CV); ⚠>rtt = client + server exceeds {CPU_BOUND}× "
                                           "the mean round trip, impossible for a strict ping-pong unless threads run "
                                           f"concurrently; ⏸wait = over {WAIT_SHARE:.0%} of the p50 round trip, and "
                                           f"over {WAIT_MIN_US:g} µs, on neither side's CPU", self.cpu_text)
        out += self.metric_table(protocol, "Bytes per call on the wire: client→server / server→client (packets), counted "
                                           "in a separate counting pass with offloads off (not during the timed "
                                           "repetitions)", self.wire_text)
        out += self.metric_table(protocol, "New TCP connections per 1,000 calls, accepted by the server during the timed "
                                           "repetitions (0 = one persistent connection); where there are any, the TCP "
                                           "sockets in TIME_WAIT after them, client / server side: the side that "
                                           "closes first keeps each for 60 s, and on the client's side they hold "
                                           "ephemeral ports", self.connections_text)
        out += self.warmup_table(protocol) + self.memory_table(protocol)
        return out

    def implementations(self, protocol: str) -> list[str]:
        """Every server and client implementation of the protocol: library, thread model, settings and what
        it reported about itself at run time."""
        seen: dict[tuple, list] = {}
        facts: dict[tuple, list[str]] = {}
        for c in self.cells_of(protocol):
            for role in ("server", "client"):
                key = (c[role], role)
                if key not in seen:
                    seen[key] = [c.get(f"{role}_language", c[role]), c.get(f"{role}_library") or "",
                                 c.get(f"{role}_thread_model") or "not given", c.get(f"{role}_settings") or ""]
                for r in self.groups.get((c["name"], "vectors"), []):
                    f = (r.get("facts") or {}).get(role)
                    if f:
                        text = _facts_text(f)
                        if text not in facts.setdefault(key, []):
                            facts[key].append(text)
        if not seen:
            return []
        rows = [[f"`{impl}`", role, *values, "; ".join(facts.get((impl, role), [])) or "–"]
                for (impl, role), values in sorted(seen.items(), key=lambda kv: (kv[0][1] != "server", kv[0][0]))]
        return ["### Implementations and thread models", "",
                "From the manifests; the last column is what each stack reported about itself at run time.", ""] + _table(
            ["implementation", "role", "language", "library", "thread model", "settings", "reported at run time"], rows)

    def stack_notes(self, protocol: str) -> list[str]:
        """The manifests' notes on each language's implementation of this protocol, once per language."""
        notes: dict[str, list[str]] = {}
        for c in self.cells_of(protocol):
            for role in ("server", "client"):
                texts = notes.setdefault(c[role], [])
                texts += [text for text in c.get(f"{role}_notes") or [] if text not in texts]
        if not any(notes.values()):
            return []
        return ["Behaviour of these stacks that configuration cannot change (see the figures below):", ""] + [
            f"- {language}: {text}" for language, texts in notes.items() for text in texts] + [""]

    def unsupported_vectors(self, protocol: str) -> list[str]:
        reasons: dict[str, set] = {}
        for c in self.cells_of(protocol):
            rec = self.by_key.get((c["name"], "vectors"))
            for v in (rec or {}).get("vectors", []):
                if v["status"] == "unsupported":
                    reasons.setdefault(v.get("reason", ""), set()).add(v["id"])
        if not reasons:
            return []
        out = ["Vectors this protocol cannot carry (reported `unsupported` by every client):", ""]
        out += [f"- {', '.join(sorted(ids))}: {reason}" for reason, ids in sorted(reasons.items())]
        return out + [""]

    def unsupported_workload_list(self, protocol: str) -> list[str]:
        lacks = self.unsupported_workloads(protocol)
        if not lacks:
            return []
        return ["Workloads of the profile this protocol cannot run (idl/protocols.json):", ""] + [
            f"- {name}: {reason}" for name, reason in lacks.items()] + [""]

    def warmup_table(self, protocol: str) -> list[str]:
        rows = []
        for c in self.cells_of(protocol):
            entries = [(w, r) for w in self.workloads(protocol) for r in self.groups.get((c["name"], w), [])
                       if r.get("warmup_steady")]
            if not entries:
                continue
            steady = sum(1 for _, r in entries if r["warmup_steady"].get("steady"))
            per_pass: dict[int, float] = {}
            for _, r in entries:
                per_pass[r.get("pass", 1)] = per_pass.get(r.get("pass", 1), 0) + (r["warmup_steady"].get("elapsed_ms") or 0)
            not_steady = sorted({w + (f" (pass {r.get('pass', 1)})" if self.multi else "")
                                 for w, r in entries if not r["warmup_steady"].get("steady")})
            rows.append([f"{c['client']}→{c['server']}", f"{steady}/{len(entries)}",
                         _num(stats.median_ci(list(per_pass.values()))["median"] / 1000, 3),
                         ", ".join(not_steady) or "–"])
        if not rows:
            return []
        return ["#### Warm-up", "", "Whether the cell's warm-up (batches until their medians agree, bounded per "
                                   "workload) reached a steady state, and how long it took per pass; the workloads that "
                                   "did not are marked ⌛ in the round-trip table.", ""] + _table(
            ["client→server", "workloads steady", "warm-up, s", "not steady"], rows)

    def memory_table(self, protocol: str) -> list[str]:
        rows = []
        for c in self.cells_of(protocol):
            recs = [r for (cell, w), rs in self.groups.items() if cell == c["name"] for r in rs
                    if r["status"] == "pass" and r.get("rss_kb")]
            inst = self.fig(c["name"], "vectors", "instantiation_us", strict=False)
            stub = self.fig(c["name"], "vectors", "instantiation_stub_us", strict=False)
            if not recs and inst is None:
                continue
            peak = lambda k: max((r["rss_kb"].get(k) or 0 for r in recs), default=0) or None
            threads = lambda k: sorted({(r.get("threads") or {}).get(k) for r in recs} - {None})
            span = lambda v: "–" if not v else (str(v[0]) if len(v) == 1 else f"{v[0]}–{v[-1]}")
            kept = any((r.get("processes") or {}).get("client") == "kept"
                       for r in self.groups.get((c["name"], "vectors"), []))
            rows.append([f"{c['client']}→{c['server']}", self.fmt(inst, 3, 1 / 1000)
                         + (f" ({self.fmt(stub, 3, 1 / 1000)} from a stub in hand)" if stub else "")
                         + (" ♻" if kept and inst else ""),
                         _num(peak("client_peak") / 1024 if peak("client_peak") else None),
                         _num(peak("server_peak") / 1024 if peak("server_peak") else None),
                         _num(peak("server_after") / 1024 if peak("server_after") else None),
                         span(threads("server")), span(threads("client"))])
        if not rows:
            return []
        return ["#### Instantiation, memory and threads", "",
                "Instantiation is the client's connect, to the first reply; ♻ marks a client process that had "
                "already served another server of the protocol in that pass (its code loaded and compiled), so "
                "compare it with the new ones only as a warm connect. "
                "Peaks are reset before each workload's repetitions; shown is the largest over the workloads. "
                "Threads: the processes' threads at the end of each workload (range over the workloads).", ""] + _table(
            ["client→server", "instantiation, ms (stub, with any registry or naming lookup, to first reply)", "client peak RSS, MiB", "server peak RSS, MiB",
             "server RSS after, MiB", "server threads", "client threads"], rows)

    def ratio(self, cell: dict, w: str) -> float | None:
        base = self.baseline_cell(cell)
        if base is None:
            return None
        a, b = self.fig(cell["name"], w, "rtt_us.p50"), self.fig(base, w, "rtt_us.p50")
        return a["median"] / b["median"] if a and b and b["median"] else None

    def side_by_side(self) -> list[str]:
        """The headline workloads with every protocol (each variant its own column) for each language pair."""
        headline = self.env["run"].get("headline_workloads") or []
        if not headline or len(self.protocols) < 2:
            return []
        out = ["## Protocols side by side", "",
               "Median round-trip time in µs (median across passes when there are several), and in brackets as a "
               "multiple of the baseline for the same pair of languages; rows are client→server.", ""]
        pairs = list(dict.fromkeys((c["client"], c["server"]) for c in self.cells))
        by_name = {c["name"]: c for c in self.cells}
        for w in headline:
            rows = []
            for client, server in pairs:
                row, any_value = [f"{client}→{server}"], False
                for p in self.protocols:
                    name = f"{p}/{client}→{server}"
                    p50 = self.fig(name, w, "rtt_us.p50")
                    if p50 is not None:
                        cell = _num(p50["median"]) + (" ⚠" if any(unstable(r) for r in self.passing(name, w)) else "")
                        ratio = self.ratio(by_name[name], w) if name in by_name else None
                        if p != self.baseline and ratio is not None:
                            cell += f" (×{ratio:.1f})"
                        row.append(cell)
                        any_value = True
                    else:
                        rec = self.by_key.get((name, w))
                        row.append(STATUS_MARK.get(rec["status"], "–") if rec else "–")
                if any_value:
                    rows.append(row)
            if rows:
                out += [f"### {w}", ""] + _table(["client→server"] + self.protocols, rows)
        return out

    def baseline_section(self) -> list[str]:
        if not self.baseline:
            return []
        out = [f"## Every protocol against the `{self.baseline}` baseline", "",
               f"Median round-trip time as a multiple of `{self.baseline}`'s for the same client and server "
               "languages and the same workload (1.0 = as fast as the hand-written baseline).", ""]
        workloads = list(dict.fromkeys(w for p in self.protocols for w in self.workloads(p)))
        rows = []
        for protocol in self.protocols:
            if protocol == self.baseline:
                continue
            for c in self.cells_of(protocol):
                row, any_value = [f"{protocol}/{c['client']}→{c['server']}"], False
                for w in workloads:
                    ratio = self.ratio(c, w)
                    row.append("–" if ratio is None else f"×{ratio:.2f}")
                    any_value = any_value or ratio is not None
                if any_value:
                    rows.append(row)
        if not rows:
            return out + ["No cell has figures on both sides yet.", ""]
        return out + _table(["cell"] + workloads, rows)

    def wire_bytes(self, protocol: str, w: str) -> float | None:
        """Bytes per call, both directions, median over the protocol's cells that counted them."""
        values = []
        for c in self.cells_of(protocol):
            up, down = (self.fig(c["name"], w, f"wire_per_call.bytes_{d}") for d in ("c2s", "s2c"))
            if up and down:
                values.append(up["median"] + down["median"])
        return stats.median_ci(values)["median"] if values else None

    def plain_sibling(self, protocol: str) -> str | None:
        """The protocol of the same family and variant but without security (SOAP for WS-Security)."""
        registry = self.env["run"].get("registry") or {}
        me = registry.get(protocol)
        if not me or me["variant"].get("security", "none") == "none":
            return None
        plain = {**me["variant"], "security": "none"}
        return next((name for name, p in registry.items()
                     if p["family"] == me["family"] and p["variant"] == plain and name in self.protocols), None)

    def message_sizes(self) -> list[str]:
        headline = self.env["run"].get("headline_workloads", [])
        sizes = {(p, w): self.wire_bytes(p, w) for p in self.protocols for w in headline}
        workloads = [w for w in headline if any(sizes[(p, w)] for p in self.protocols)]
        if not workloads:
            return []
        rows = []
        for protocol in self.protocols:
            row, any_value = [f"`{protocol}`"], False
            sibling = self.plain_sibling(protocol)
            for w in workloads:
                size = sizes[(protocol, w)]
                if size is None:
                    row.append("–")
                    continue
                any_value = True
                text = _num(size, 4)
                base = sizes.get((self.baseline, w))
                if base and protocol != self.baseline:
                    text += f" (×{size / base:.1f} {self.baseline}"
                    plain = sizes.get((sibling, w))
                    text += f", ×{size / plain:.1f} {sibling})" if plain else ")"
                row.append(text)
            if any_value:
                rows.append(row)
        return ["## Message size on the wire", "",
                f"Bytes per call, both directions (Ethernet frames: headers, handshakes and acknowledgements "
                f"included), median over each protocol's cells; in brackets as a multiple of `{self.baseline}` and, "
                "for a secured variant, of the same protocol without security.", ""] + _table(
            ["protocol"] + workloads, rows)

    def footnotes(self) -> list[str]:
        if not self.notes:
            return []
        return ["## Notes", ""] + [f"{i + 1}. {text}" for i, text in enumerate(self.notes)] + [""]


def render(run: Path, records: list[dict], cells: list[dict], verdict: dict) -> str:
    return Report(run, records, cells, verdict).render()
