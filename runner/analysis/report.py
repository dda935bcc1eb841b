"""REPORT.md: per protocol the interop matrix and the tables of latency, CPU, memory and bytes, then
every protocol against the raw TCP baseline for the same pair of languages."""
import json
from pathlib import Path

STATUS_MARK = {"pass": "✅", "fail": "❌", "error": "💥", "timeout": "⏱", "unsupported": "➖"}
# Repetitions whose means spread more than this (CV of the kept repetition means) did not measure one
# steady state: the figure is flagged rather than trusted.
UNSTABLE_REP_CV = 0.2


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


class Report:
    def __init__(self, run: Path, records: list[dict], cells: list[dict], verdict: dict):
        self.run = run
        self.env = json.loads((run / "env.json").read_text())
        self.records = records
        self.cells = cells
        self.verdict = verdict
        self.by_key = {(r["cell"], r["workload"]): r for r in records}
        self.protocols = list(dict.fromkeys(c["protocol"] for c in cells))
        self.baseline = self.env["run"].get("baseline") or (self.protocols[0] if self.protocols else None)
        self.notes: list[str] = []

    def note(self, text: str) -> str:
        if text not in self.notes:
            self.notes.append(text)
        return f"[{self.notes.index(text) + 1}]"

    def workloads(self, protocol: str) -> list[str]:
        names = []
        for line in (self.run / "plan" / f"{protocol}.tsv").read_text().splitlines():
            names.append(line.split()[0])
        return names

    def render(self) -> str:
        out = self.header() + self.environment()
        for protocol in self.protocols:
            out += self.protocol_section(protocol)
        out += self.side_by_side() + self.baseline_section() + self.footnotes()
        return "\n".join(out) + "\n"

    def header(self) -> list[str]:
        run = self.env["run"]
        counts: dict[str, int] = {}
        for r in self.records:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        v = self.verdict
        out = [f"# rpcmatrix report: run {run['run_id']}", "",
               f"Profile `{run['profile']['name']}`, commit `{run['git_commit'][:12]}`"
               f"{' (with local changes)' if run.get('git_dirty') else ''}, {len(self.cells)} cells. "
               "Cells are named `protocol/client→server`; in the matrices rows are clients, columns servers.", "",
               "Outcomes (one per cell and workload; the vectors count as one): "
               + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ". "
               + f"Unexpected failures: {len(v['unexpected'])}; expected (known) failures: {len(v['expected'])}; "
               + f"stale known-failure entries: {len(v['stale'])}.", ""]
        missing = [c["name"] for c in self.cells if (c["name"], "vectors") not in self.by_key]
        if missing:
            out += [f"**Not run** (the run was interrupted): {', '.join(missing)}.", ""]
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
                ["Bytes on the wire", run["wire"]], ["CPU time", run["cpu_source"]],
                ["Memory", run["memory_source"]], ["Round-trip time", run["rtt_source"]]]
        for lang, versions in sorted(self.env["versions"].items()):
            rows.append([f"{lang} versions", ", ".join(f"{k} {v}" for k, v in versions.items())])
        prof = run["profile"]
        counts = "; ".join(f"{s}: {prof[s]['warmup']} warm-up, {prof[s]['calls']} calls × {prof[s]['repetitions']} repetitions"
                           for s in ("small", "medium", "large") if s in prof)
        rows.append(["Calls per workload", counts])
        rows.append(["Warm-up", f"every workload of a cell warmed, for at least {prof.get('cell_warmup_s', 0)} s, before the "
                                "first is measured (JIT compilers settle); then each workload's own warm-up calls"])
        out = ["## Environment and method", ""] + _table(["", ""], rows)
        timed = [r for r in self.records if r.get("rtt_us")]
        shaky = sum(1 for r in timed if unstable(r))
        out += ["Every process's argv (JVM and runtime flags included), library and settings are in each record's "
                "`env` in `results.jsonl`. RTT statistics: p50/p90/p99 from HdrHistogram; `cv` is the coefficient "
                "of variation of all calls; the trimmed mean (Juric et al.) drops the fastest and slowest "
                "repetition. Differences under about 5% are noise: do not rank on them.", "",
                f"**Stability**: {shaky} of {len(timed)} timed workloads are marked ⚠: the means of their "
                f"repetitions spread by more than {UNSTABLE_REP_CV:.0%} (coefficient of variation), so they did not "
                "measure one steady state. On a shared or virtual machine, loopback latency can switch between "
                "modes (for example about 20 µs and about 80 µs for the same pair of processes, whatever the "
                "stack) as the host schedules the CPUs; compare ⚠ figures only after a re-run agrees.", ""]
        return out

    def cells_of(self, protocol: str) -> list[dict]:
        return [c for c in self.cells if c["protocol"] == protocol]

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

    def matrix_cell(self, name: str) -> str:
        rec = self.by_key.get((name, "vectors"))
        if rec is None:
            return "not run"
        mark = STATUS_MARK.get(rec["status"], rec["status"])
        if rec.get("vectors"):
            passed = sum(1 for v in rec["vectors"] if v["status"] == "pass")
            unsup = sum(1 for v in rec["vectors"] if v["status"] == "unsupported")
            text = f"{mark} {passed}/{len(rec['vectors'])} pass"
            if unsup:
                text += f", {unsup} unsupported"
            if rec["status"] != "pass":
                text += " " + self.note(rec["reason"])
            return text
        return f"{mark} {rec['status']} {self.note(rec['reason'])}"

    def metric_table(self, protocol: str, title: str, fmt) -> list[str]:
        workloads = self.workloads(protocol)
        rows = []
        for c in self.cells_of(protocol):
            if c.get("unsupported"):
                continue
            row = [f"{c['client']}→{c['server']}"]
            for w in workloads:
                rec = self.by_key.get((c["name"], w))
                row.append(fmt(rec) if rec and rec["status"] == "pass" else
                           (STATUS_MARK.get(rec["status"], "?") if rec else "not run"))
            rows.append(row)
        if not rows:
            return []
        return [f"#### {title}", ""] + _table(["client→server"] + workloads, rows)

    def protocol_section(self, protocol: str) -> list[str]:
        out = [f"## {protocol}", "", "### Interop: vectors per cell", ""] + self.interop_matrix(protocol)
        out += self.unsupported_vectors(protocol) + self.stack_notes(protocol)
        out += ["### Figures per timed workload", ""]
        out += self.metric_table(protocol, "Round-trip time, µs: p50 / p99 (trimmed mean, CV); ⚠ = unstable repetitions",
                                 lambda r: f"{_num(r['rtt_us']['p50'])} / {_num(r['rtt_us']['p99'])} "
                                           f"({_num(r['rtt_us']['trimmed_mean'])}, {_num(r['rtt_us']['cv'], 2)})"
                                           + (" ⚠" if unstable(r) else ""))
        out += self.metric_table(protocol, "CPU time per call, µs: client / server",
                                 lambda r: f"{_num(r['cpu_us_per_call']['client'])} / {_num(r['cpu_us_per_call']['server'])}")
        out += self.metric_table(protocol, "Bytes per call on the wire: client→server / server→client (packets)",
                                 lambda r: (f"{_num(r['wire_per_call']['bytes_c2s'], 4)} / {_num(r['wire_per_call']['bytes_s2c'], 4)} "
                                            f"({_num(r['wire_per_call']['packets_c2s'], 2)} / {_num(r['wire_per_call']['packets_s2c'], 2)})")
                                 if r.get("wire_per_call") else "not measured")
        out += self.metric_table(protocol, "New TCP connections per 1,000 calls (0 = one persistent connection)",
                                 lambda r: _num(r["wire_per_call"].get("connections", 0) * 1000, 3)
                                 if r.get("wire_per_call") else "not measured")
        out += self.memory_table(protocol)
        return out

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

    def memory_table(self, protocol: str) -> list[str]:
        rows = []
        for c in self.cells_of(protocol):
            recs = [r for (cell, w), r in self.by_key.items() if cell == c["name"] and r.get("rss_kb")]
            vec = self.by_key.get((c["name"], "vectors"))
            if not recs and not (vec and vec.get("instantiation_us")):
                continue
            peak_c = max((r["rss_kb"]["client_peak"] for r in recs), default=None)
            peak_s = max((r["rss_kb"]["server_peak"] for r in recs), default=None)
            rows.append([f"{c['client']}→{c['server']}",
                         _num(vec["instantiation_us"] / 1000 if vec and vec.get("instantiation_us") else None),
                         _num(peak_c / 1024 if peak_c else None), _num(peak_s / 1024 if peak_s else None)])
        if not rows:
            return []
        return ["#### Instantiation and memory", ""] + _table(
            ["client→server", "instantiation, ms (stub to first reply)", "client peak RSS, MiB", "server peak RSS, MiB"], rows)

    def side_by_side(self) -> list[str]:
        """The headline workloads with every protocol (each variant its own column) for each language pair."""
        headline = self.env["run"].get("headline_workloads") or []
        if not headline or len(self.protocols) < 2:
            return []
        out = ["## Protocols side by side", "",
               "Median round-trip time in µs, and in brackets as a multiple of the baseline for the same pair "
               "of languages; rows are client→server.", ""]
        pairs = list(dict.fromkeys((c["client"], c["server"]) for c in self.cells))
        for w in headline:
            rows = []
            for client, server in pairs:
                row, any_value = [f"{client}→{server}"], False
                base = self.by_key.get((f"{self.baseline}/{client}→{server}", w))
                for p in self.protocols:
                    rec = self.by_key.get((f"{p}/{client}→{server}", w))
                    if rec and rec["status"] == "pass":
                        cell = _num(rec["rtt_us"]["p50"]) + (" ⚠" if unstable(rec) else "")
                        ratio = baseline_ratio(rec, base)
                        if p != self.baseline and ratio is not None:
                            cell += f" (×{ratio:.1f})"
                        row.append(cell)
                        any_value = True
                    else:
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
                base_name = f"{self.baseline}/{c['client']}→{c['server']}"
                row, any_value = [f"{protocol}/{c['client']}→{c['server']}"], False
                for w in workloads:
                    ratio = baseline_ratio(self.by_key.get((c["name"], w)), self.by_key.get((base_name, w)))
                    row.append("–" if ratio is None else f"×{ratio:.2f}")
                    any_value = any_value or ratio is not None
                if any_value:
                    rows.append(row)
        if not rows:
            return out + ["No cell has figures on both sides yet.", ""]
        return out + _table(["cell"] + workloads, rows)

    def footnotes(self) -> list[str]:
        if not self.notes:
            return []
        return ["## Notes", ""] + [f"{i + 1}. {text}" for i, text in enumerate(self.notes)] + [""]


def render(run: Path, records: list[dict], cells: list[dict], verdict: dict) -> str:
    return Report(run, records, cells, verdict).render()
