"""Two runs compared the way benchstat compares benchmarks (`python -m analysis compare A B`, COMPARE.md).

For each (cell, workload) timed in both runs: the medians of the repetitions of each run, the change of B's
median against A's with a 95% confidence interval (Hodges–Lehmann: the median of every pairwise ratio
b/a of repetition medians, the interval from the exact Mann–Whitney distribution), and a two-sided
Mann–Whitney U test on the repetition medians. The p-values of all the pairs of the matrix are corrected
together (Holm–Bonferroni): a pair is called faster or slower when its corrected p is under alpha AND its
change is at least the practical threshold (5% by default); anything else is "~". The machine's floor
(records.FLOOR_CELL) is compared the same way but kept apart: it is how much the environment itself moved.

The values compared (the unit): each repetition's median call time from the run's raw samples
(samples.jsonl.gz, or the history's repetitions table), passes × repetitions values, as benchstat does; or each
pass's p50, one value per process instance. On this project's hosts the variance is between instances (a
pass starts every process anew), so repetitions are not independent draws and a test on them flags instance
noise; the default ("auto") takes the passes whenever there are enough of them for the test to flag anything
after Holm's correction over the matrix (about eight passes a run for a hundred pairs), the repetitions
otherwise. Without raw samples (a published run keeps none) the passes are all there is.

`comparison(a, b)` returns the comparison as data (for the HTML report); `blocks` words it as the report's blocks,
and `render` writes those as Markdown.
"""
import gzip
import json
import math
import statistics
from functools import lru_cache
from pathlib import Path

from scipy.stats import kruskal, mannwhitneyu

from . import records, stats
from .records import FLOOR_CELL
from .report import markdown
from .report.blocks import Bullets, Code, Heading, Paragraph, Strong, Table, Text, Value

THRESHOLD = 0.05
ALPHA = 0.05
# the share of pairs whose passes differ (Kruskal–Wallis p < 0.05) past which the summary warns: 5% expected
HETEROGENEITY_WARN = 0.15
COMPARE_REPORT = "COMPARE.md"


# --- a run's repetitions ----------------------------------------------------------------------------

def timed(rec: dict) -> bool:
    return (rec.get("workload") != "vectors" and rec.get("status") == "pass"
            and bool((rec.get("rtt_us") or {}).get("p50")))


def repetitions_by_pass(run: Path) -> dict:
    """{(cell, workload): {pass: [µs, ...]}}: each repetition's median, from the run's raw samples (empty
    when the run kept none), for the records that passed."""
    run = Path(run)
    path = run / records.SAMPLES
    groups: dict[tuple, dict[int, list[float]]] = {}
    if not path.exists():
        return groups
    passed = {(r["cell"], r["workload"], r.get("pass", 1)) for r in records.load(run) if timed(r)}
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            row = json.loads(line)
            p = row.get("pass", 1)
            if (row["cell"], row["workload"], p) not in passed:
                continue
            # a median of 0 ns (an in-process handler's call within one tick of the clock) counts as the
            # histograms' lowest value, 1 ns: the change is a ratio of times, and its interval takes logs
            medians = [max(statistics.median(rep), stats.LOWEST_NS) / 1000.0 for rep in row["samples_ns"] if rep]
            groups.setdefault((row["cell"], row["workload"]), {}).setdefault(p, []).extend(medians)
    return groups


def _flatten(groups: dict) -> dict:
    return {k: [v for p in sorted(by_pass) for v in by_pass[p]] for k, by_pass in groups.items()}


def repetitions_of_run(run: Path, unit: str = "repetition") -> tuple[dict, str]:
    """{(cell, workload): [µs, ...]} and what the values are: each repetition's median from the run's raw
    samples when the run kept them (unit "repetition"), else (or with unit "pass") each pass's p50 from its
    records."""
    run = Path(run)
    if unit == "repetition":
        groups = repetitions_by_pass(run)
        if groups:
            return _flatten(groups), "repetition medians"
    values: dict[tuple, list[float]] = {}
    for rec in records.load(run):
        if timed(rec):
            values.setdefault((rec["cell"], rec["workload"]), []).append(float(rec["rtt_us"]["p50"]))
    return values, "pass p50s"


def pass_heterogeneity(groups: dict) -> dict | None:
    """Whether a run's passes differ beyond their repetitions: for each pair with two passes or more of two
    repetitions or more, Kruskal–Wallis across the passes. If repetitions were independent draws of the
    run's distribution (what the test on repetitions assumes), about 5% would have p < 0.05; far more means
    the run's environment moves between passes, and so between runs: then a change between runs is partly
    the environment's, and `--unit pass` over many passes is the calibrated comparison. None: no such pair."""
    ps = []
    for by_pass in groups.values():
        samples = [v for v in by_pass.values() if len(v) >= 2]
        if len(samples) >= 2 and len({x for v in samples for x in v}) > 1:
            ps.append(float(kruskal(*samples).pvalue))
    if not ps:
        return None
    return {"pairs": len(ps), "share": sum(p < 0.05 for p in ps) / len(ps)}


# --- statistics ---------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _u_counts(m: int, n: int) -> tuple[int, ...]:
    """How many of the C(m+n, m) orderings give each value of U (0 .. m·n), no ties: the exact null
    distribution of the Mann–Whitney statistic."""
    # f[i][j][u]: orderings of i a's and j b's with U = u, built up one element at a time
    prev_row = [[1] for _ in range(n + 1)]  # i = 0: U is 0 whatever j
    for i in range(1, m + 1):
        row = [[1]]  # j = 0
        for j in range(1, n + 1):
            # the largest element is an a (adds j to U) or a b (adds nothing)
            with_a = [0] * j + prev_row[j]
            with_b = row[j - 1]
            size = i * j + 1
            row.append([(with_a[u] if u < len(with_a) else 0) + (with_b[u] if u < len(with_b) else 0)
                        for u in range(size)])
        prev_row = row
    return tuple(prev_row[n])


def _hl_rank(m: int, n: int, level: float = 0.95) -> tuple[int, float]:
    """k, coverage: the interval [D_(k), D_(mn-k+1)] of the sorted pairwise differences covers the shift
    with the coverage returned (>= level when k >= 1; k = 1 with less coverage when no k reaches it)."""
    if m * n > 2500:  # normal approximation of U's quantile
        z = 1.959963984540054
        k = int(math.floor(m * n / 2 - z * math.sqrt(m * n * (m + n + 1) / 12)))
        return max(k, 1), level
    counts = _u_counts(m, n)
    total = sum(counts)
    k, tail = 0, 0
    while tail + counts[k] <= (1 - level) / 2 * total:
        tail += counts[k]
        k += 1
    if k == 0:
        return 1, 1 - 2 * counts[0] / total
    return k, 1 - 2 * tail / total


def change_interval(a: list[float], b: list[float]) -> dict:
    """B against A as a ratio: the change of the medians (median(b)/median(a) − 1), the Hodges–Lehmann
    estimate of the shift of log(time) and its 95% interval, as changes (ratio − 1)."""
    diffs = sorted(math.log(y) - math.log(x) for x in a for y in b)
    k, coverage = _hl_rank(len(a), len(b))
    return {"change": statistics.median(b) / statistics.median(a) - 1,
            "hl": math.exp(statistics.median(diffs)) - 1,
            "low": math.exp(diffs[k - 1]) - 1, "high": math.exp(diffs[len(diffs) - k]) - 1,
            "coverage": round(coverage, 4)}


def u_test(a: list[float], b: list[float]) -> float:
    """Two-sided Mann–Whitney U p-value (exact without ties on small samples, as scipy chooses)."""
    if len(a) < 2 or len(b) < 2:
        return 1.0
    if len(set(a) | set(b)) == 1:
        return 1.0
    # exact whenever there are no ties and the sizes allow (scipy's "auto" turns asymptotic from 8 values on,
    # which at 10 against 10 gives 1.8e-4 for a complete separation instead of 1.1e-5)
    exact = len(set(a) | set(b)) == len(a) + len(b) and len(a) * len(b) <= 2500
    return float(mannwhitneyu(a, b, alternative="two-sided", method="exact" if exact else "asymptotic").pvalue)


def holm(pvalues: list[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the order given (each ≤ 1, monotone in the sorted order)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def _row(cell: str, workload: str, a: list[float], b: list[float]) -> dict:
    row = {"cell": cell, "workload": workload, "n_a": len(a), "n_b": len(b),
           "median_a": statistics.median(a), "median_b": statistics.median(b)}
    row.update(change_interval(a, b))
    row["p"] = u_test(a, b)
    # whether each run's 95% interval of its median covers the other run's median (an A/A run's second target)
    ci_a, ci_b = stats.median_ci(a), stats.median_ci(b)
    row["covered"] = (ci_a["low"] <= row["median_b"] <= ci_a["high"], ci_b["low"] <= row["median_a"] <= ci_b["high"])
    # the least p-value U can give at these sizes: above alpha, no change can ever be detected
    row["min_p"] = 2 / math.comb(len(a) + len(b), len(a)) if len(a) >= 2 and len(b) >= 2 else 1.0
    return row


def compare_values(a: dict, b: dict, threshold: float = THRESHOLD, alpha: float = ALPHA,
                   correct: bool = True) -> dict:
    """The comparison of two runs' {(cell, workload): [values]}: {"rows", "floor", "summary", "threshold",
    "alpha", "tests"}. Each row: cell, workload, n_a, n_b, median_a, median_b, change, hl, low, high,
    coverage, p, p_holm, min_p, verdict ("faster", "slower" or "~")."""
    shared = [k for k in a if k in b and a[k] and b[k]]
    floor_keys = [k for k in shared if k[0] == FLOOR_CELL]
    keys = [k for k in shared if k[0] != FLOOR_CELL]
    rows = [_row(c, w, a[(c, w)], b[(c, w)]) for c, w in keys]
    adjusted = holm([r["p"] for r in rows]) if correct else [r["p"] for r in rows]
    for r, p in zip(rows, adjusted, strict=True):
        r["p_holm"] = p
        significant = p < alpha and abs(r["change"]) >= threshold
        r["verdict"] = ("slower" if r["change"] > 0 else "faster") if significant else "~"
    floor = [_row(c, w, a[(c, w)], b[(c, w)]) for c, w in floor_keys]
    for r in floor:  # the environment: tested alone, no correction
        r["p_holm"] = r["p"]
        changed = r["p"] < alpha and abs(r["change"]) >= threshold
        r["verdict"] = ("slower" if r["change"] > 0 else "faster") if changed else "~"
    summary = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("faster", "slower", "~")}
    summary["pairs"] = len(rows)
    summary["untestable"] = sum(1 for r in rows if r["min_p"] * (len(rows) if correct else 1) >= alpha)
    # the share of (pair, side) where one run's interval holds the other's median
    sides = [c for r in rows for c in r["covered"]]
    summary["covered"] = sum(sides) / len(sides) if sides else None
    return {"rows": rows, "floor": floor, "summary": summary, "threshold": threshold, "alpha": alpha,
            "correction": "Holm–Bonferroni" if correct else "none"}


def run_info(run: Path) -> dict:
    env = json.loads((run / "env.json").read_text(encoding="utf-8")) if (run / "env.json").exists() else {}
    settings = env.get("run", {})
    return {"run_id": settings.get("run_id", run.name), "commit": settings.get("git_commit"),
            "dirty": settings.get("git_dirty"), "profile": (settings.get("profile") or {}).get("name")
            if isinstance(settings.get("profile"), dict) else settings.get("profile"), "path": str(run)}


def instances_suffice(a: dict, b: dict, alpha: float = ALPHA) -> bool:
    """Whether two runs' passes ({(cell, workload): [p50 per pass]}) are enough for a test on them to flag a
    pair: at the pairs' usual pass counts, the least p-value Mann–Whitney can give (a complete separation,
    2 / C(m+n, m)) survives Holm's correction over all the pairs (its strictest step, alpha / pairs)."""
    keys = [k for k in a if k in b and a[k] and b[k] and k[0] != FLOOR_CELL]
    if not keys:
        return False
    m = statistics.median_low(len(a[k]) for k in keys)
    n = statistics.median_low(len(b[k]) for k in keys)
    return m >= 2 and n >= 2 and 2 / math.comb(m + n, m) < alpha / len(keys)


def auto_unit(a: dict, b: dict, alpha: float = ALPHA) -> tuple[str, str]:
    """The unit `--unit auto` takes for two runs' passes ({(cell, workload): [p50 per pass]}), and why: the
    passes when instances_suffice, else the repetitions."""
    if instances_suffice(a, b, alpha):
        return "pass", "enough passes for a test on the process instances to flag a pair after Holm's correction"
    return "repetition", ("too few passes for a test on the process instances to flag any pair after Holm's "
                          "correction (so the repetitions, which understate the noise between instances)")


def _side(run, history: str | None, unit: str) -> tuple[dict, dict]:
    """One run's values in the unit and what they are, with the run's info."""
    if Path(run).is_dir():
        groups = repetitions_by_pass(Path(run)) if unit == "repetition" else {}
        values, kind = (_flatten(groups), "repetition medians") if groups else repetitions_of_run(Path(run), "pass")
        info = run_info(Path(run))
        info["pass_heterogeneity"] = pass_heterogeneity(groups)
    else:
        from . import history as hist
        values, kind, info = hist.repetitions_of(str(run), history, unit)
    info["values"] = kind
    return values, info


def comparison(run_a, run_b, threshold: float = THRESHOLD, alpha: float = ALPHA, history: str | None = None,
               unit: str = "auto") -> dict:
    """The comparison of two runs as data, for COMPARE.md and the HTML report. A run is a folder, or a
    run_id of the history database (history.url(history) names it) when no such folder exists. unit:
    "repetition" (each repetition's median, as benchstat), "pass" (each pass's p50: the unit where runs differ
    by more than their repetitions do, as on this project's hosts; it needs many passes), or "auto" (the
    passes when instances_suffice, else the repetitions). result["unit"] says which was taken and why."""
    sides = None
    if unit == "auto":
        by_pass = [_side(run, history, "pass") for run in (run_a, run_b)]
        chosen, why = auto_unit(by_pass[0][0], by_pass[1][0], alpha)
        if chosen == "pass":  # read once
            sides = by_pass
    else:
        chosen, why = unit, "as asked"
    sides = sides or [_side(run, history, chosen) for run in (run_a, run_b)]
    if chosen == "repetition" and all(info["values"] == "pass p50s" for _, info in sides):
        chosen, why = "pass", "the runs kept no raw samples (a published run keeps none), so the passes' p50s"
    result = compare_values(sides[0][0], sides[1][0], threshold, alpha)
    result["a"], result["b"] = sides[0][1], sides[1][1]
    result["unit"] = {"asked": unit, "taken": chosen, "why": why}
    return result


def save(result: dict, folder: Path) -> Path:
    """The comparison as data (records.COMPARE_DATA) in B's run folder, for that run's report.html."""
    path = Path(folder) / records.COMPARE_DATA
    data = {key: result[key] for key in ("a", "b", "unit", "summary", "threshold", "alpha", "correction",
                                         "floor", "rows") if key in result}
    data["summary_line"], data["unit_line"] = summary_line(result), markdown.inline(unit_text(result))
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False), encoding="utf-8")
    return path


# --- blocks and Markdown -------------------------------------------------------------------------------

def _pct(x: float) -> str:
    return f"{x * 100:+.1f}%"


def _change(x: float) -> Value:
    """A change as a signed percentage: +12.3%."""
    return Value(x, spec="+.1%")


def summary_line(result: dict) -> str:
    s = result["summary"]
    line = (f"{s['slower']} slower, {s['faster']} faster, {s['~']} ~ of {s['pairs']} (cell, workload) pairs "
            f"(Holm-corrected p < {result['alpha']} and |change| ≥ {result['threshold'] * 100:g}%)")
    if result["floor"]:
        f = result["floor"][0]
        line += f"; the environment (floor) moved {_pct(f['change'])}"
    if s["untestable"]:
        line += f"; {s['untestable']} pairs have too few repetitions to ever be flagged"
    if s.get("covered") is not None:
        line += (f"; each run's 95% interval of a pair's median holds the other run's median in "
                 f"{s['covered'] * 100:.0f}% of cases")
    moving = [f"{name} {h['share'] * 100:.0f}%" for name, h in
              (("A", result.get("a", {}).get("pass_heterogeneity")),
               ("B", result.get("b", {}).get("pass_heterogeneity")))
              if h and h["share"] > HETEROGENEITY_WARN]
    if moving:
        line += (f"; WARNING: passes differ beyond their repetitions in {' and '.join(moving)} of pairs "
                 "(5% expected): flags include the environment's moves (try --unit pass)")
    return line


def blocks(result: dict) -> list:
    """COMPARE.md's blocks: the runs, the summary, the environment's (floor's) move and every pair, the pairs
    flagged first."""
    a, b = result.get("a", {}), result.get("b", {})
    out = [Heading(1, f"Comparison: {b.get('run_id', 'B')} against {a.get('run_id', 'A')}")]
    out.append(Bullets([Text(f"{name}: ", Code(str(side.get("run_id"))), ", commit ",
                             Code((side.get("commit") or "?")[:7]), " (dirty)" if side.get("dirty") else "",
                             ", profile ", Code(str(side.get("profile"))), f", values: {side.get('values')}",
                             _heterogeneity(side))
                        for name, side in (("A", a), ("B", b)) if side]))
    out += [Paragraph(Strong(summary_line(result))),
            Paragraph(Text(unit_text(result), "\nChange: median B / median A − 1; interval: Hodges–Lehmann 95% on "
                           "the ratio; p: two-sided Mann–Whitney U, Holm-corrected over the pairs below; ", Code("~"),
                           f": no change beyond noise or under {result['threshold'] * 100:g}%."))]
    if result["floor"]:
        out += [Heading(2, "The environment (the machine's floor)"),
                Table(ROW_HEADER[:6] + ["p", ""], [row_cells(r) for r in result["floor"]])]
    rows = sorted(result["rows"], key=lambda r: (r["verdict"] == "~", -abs(r["change"])))
    return out + [Heading(2, "Every pair"), Table(ROW_HEADER[:7] + [""], [row_cells(r) for r in rows])]


def render(result: dict) -> str:
    return markdown.render(blocks(result))


def unit_text(result: dict) -> Text:
    """Which values were compared, and why (result["unit"], as compare.json keeps it too)."""
    unit = result.get("unit") or {}
    taken = {"pass": "each pass's p50 (one value per process instance)",
             "repetition": "each repetition's median"}.get(unit.get("taken"), "each repetition's median")
    return Text(f"Values compared: {taken}; {unit.get('why', 'as asked')} (", Code("--unit"), "). ")


def _heterogeneity(side: dict) -> str:
    h = side.get("pass_heterogeneity")
    if not h:
        return ""
    return (f"; its passes differ beyond their repetitions (Kruskal–Wallis p < 0.05) in {h['share'] * 100:.0f}% "
            f"of {h['pairs']} pairs (5% if the repetitions were independent)")


ROW_HEADER = ["cell", "workload", "A µs", "B µs", "change", "95% interval", "p (Holm)", "verdict"]


def row_cells(r: dict) -> list:
    """A pair's row (ROW_HEADER's columns), for COMPARE.md and report.html's section."""
    interval = Text(_change(r["low"]), " … ", _change(r["high"]))
    if min(r["n_a"], r["n_b"]) < 2:
        interval = Text("– (one value)")
    elif r["coverage"] < 0.95:
        interval += f" ({r['coverage'] * 100:.0f}%)"
    return [Code(r["cell"]), r["workload"], Text(Value(r["median_a"], spec=".4g"), f" (n={r['n_a']})"),
            Text(Value(r["median_b"], spec=".4g"), f" (n={r['n_b']})"), _change(r["change"]), interval,
            Value(r["p_holm"], spec=".2g"), r["verdict"] if r["verdict"] in ("slower", "faster") else "~"]
