"""The history of runs in a database (schema: results/README.md, "History database").

Every rendered run's records also go into an embedded SQLite database, results/history.sqlite (beside the
run folders), or into the database a URL names: `--history URL` or RPCMATRIX_HISTORY (a team's PostgreSQL:
postgresql://user@host:port/db; RPCMATRIX_HISTORY=off turns the render's loading off). SQLAlchemy Core, so
the same statements run on both. Loading a run again replaces its rows (keyed by run_id) in one
transaction: nothing is duplicated. The commit is a column of runs: queries and `show --commit` filter on it.
"""
import json
import os
import statistics
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    delete,
    insert,
    select,
)
from sqlalchemy.engine import make_url

from . import records, stats

ENV = "RPCMATRIX_HISTORY"
FILE = "history.sqlite"
DEFAULT_ROOT = Path(__file__).resolve().parents[2] / "results"

metadata = MetaData()
runs = Table(
    "runs", metadata,
    Column("run_id", String(200), primary_key=True),
    Column("commit", String(64), index=True),
    Column("dirty", Boolean),
    Column("machine", String(400)),
    Column("boot_id", String(64)),
    Column("profile", String(64)),
    Column("started", DateTime(timezone=True)),
    Column("passes", Integer),
    Column("record_schema", Integer),
    Column("floor_p50_us", Float),
    Column("source", String(1000)),
    Column("loaded", DateTime(timezone=True)),
)
figures = Table(
    "figures", metadata,
    Column("run_id", String(200), ForeignKey("runs.run_id", ondelete="CASCADE"), primary_key=True),
    Column("cell", String(300), primary_key=True),
    Column("workload", String(100), primary_key=True),
    Column("pass", Integer, primary_key=True),
    Column("protocol", String(100), index=True),
    Column("status", String(20)),
    Column("calls", Integer),
    Column("repetitions", Integer),
    Column("p50_us", Float), Column("p90_us", Float), Column("p99_us", Float), Column("mean_us", Float),
    Column("trimmed_mean_us", Float), Column("rep_cv", Float),
    Column("cpu_client_us", Float), Column("cpu_server_us", Float),
    Column("bytes_per_call", Float),
    Column("steal_ms", Float),
)
repetitions = Table(
    "repetitions", metadata,
    Column("run_id", String(200), ForeignKey("runs.run_id", ondelete="CASCADE"), primary_key=True),
    Column("cell", String(300), primary_key=True),
    Column("workload", String(100), primary_key=True),
    Column("pass", Integer, primary_key=True),
    Column("repetition", Integer, primary_key=True),
    Column("median_us", Float),
    Column("calls", Integer),
)


def url(given: str | None = None, root: Path | None = None) -> str | None:
    """The database: the URL given, else RPCMATRIX_HISTORY, else <root>/history.sqlite (root: results/).
    None when RPCMATRIX_HISTORY is "off"."""
    chosen = given or os.environ.get(ENV)
    if chosen == "off":
        return None
    if not chosen:
        return f"sqlite:///{(root or DEFAULT_ROOT) / FILE}"
    if chosen.startswith(("postgresql://", "postgres://")):  # psycopg 3, not SQLAlchemy's default psycopg2
        chosen = "postgresql+psycopg://" + chosen.split("://", 1)[1]
    return chosen


def shown(db_url: str) -> str:
    """The URL to print: its password hidden."""
    return make_url(db_url).render_as_string(hide_password=True)


def engine(db_url: str):
    eng = create_engine(db_url, future=True)
    metadata.create_all(eng)
    return eng


def _started(run_id: str) -> datetime | None:
    try:
        return datetime.strptime(run_id.split("-")[0], "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def _f(x):
    return float(x) if isinstance(x, (int, float)) else None


def rows_of_run(run: Path) -> tuple[dict, list[dict], list[dict]]:
    """The run's row, its figures' rows and its repetitions' rows (those only with raw samples)."""
    run = Path(run)
    env = json.loads((run / "env.json").read_text(encoding="utf-8")) if (run / "env.json").exists() else {}
    s = env.get("run", {})
    recs = records.load(run)
    run_id = s.get("run_id") or (recs[0]["run_id"] if recs else run.name)
    profile = s.get("profile")
    floor = [r["rtt_us"]["p50"] for r in recs if r["cell"] == records.FLOOR_CELL and (r.get("rtt_us") or {}).get("p50")]
    run_row = {"run_id": run_id, "commit": s.get("git_commit"), "dirty": bool(s.get("git_dirty")),
               "machine": ", ".join(str(s[k]) for k in ("cpu_model", "cpus", "kernel", "os") if s.get(k)) or None,
               "boot_id": s.get("boot_id"),
               "profile": profile.get("name") if isinstance(profile, dict) else profile,
               "started": _started(run_id), "passes": max((r.get("pass", 1) for r in recs), default=None),
               "record_schema": max((r.get("schema", 0) for r in recs), default=None),
               "floor_p50_us": statistics.median(floor) if floor else None, "source": str(run.resolve()),
               "loaded": datetime.now(timezone.utc)}
    fig_rows = []
    for r in recs:
        if r["workload"] == "vectors":
            continue
        rtt, cpu, wire = r.get("rtt_us") or {}, r.get("cpu_us_per_call") or {}, r.get("wire_per_call") or {}
        nbytes = records.bytes_per_call(wire)
        fig_rows.append({"run_id": run_id, "cell": r["cell"], "workload": r["workload"], "pass": r.get("pass", 1),
                         "protocol": r.get("protocol"), "status": r.get("status"), "calls": r.get("calls"),
                         "repetitions": r.get("repetitions"), "p50_us": _f(rtt.get("p50")),
                         "p90_us": _f(rtt.get("p90")),
                         "p99_us": _f(rtt.get("p99")), "mean_us": _f(rtt.get("mean")),
                         "trimmed_mean_us": _f(rtt.get("trimmed_mean")), "rep_cv": _f(rtt.get("rep_cv")),
                         "cpu_client_us": _f(cpu.get("client")), "cpu_server_us": _f(cpu.get("server")),
                         "bytes_per_call": _f(nbytes), "steal_ms": _f(r.get("steal_ms"))})
    rep_rows = []
    passed = {(f["cell"], f["workload"], f["pass"]) for f in fig_rows if f["status"] == "pass"}
    samples = run / records.SAMPLES
    if samples.exists():
        import gzip
        with gzip.open(samples, "rt", encoding="utf-8") as lines:
            for line in lines:
                if not line.strip():
                    continue
                row = json.loads(line)
                k = (row["cell"], row["workload"], row.get("pass", 1))
                if k not in passed:
                    continue
                for i, rep in enumerate(row["samples_ns"], 1):
                    if rep:
                        rep_rows.append({"run_id": run_id, "cell": k[0], "workload": k[1], "pass": k[2],
                                         "repetition": i, "median_us": statistics.median(rep) / 1000.0,
                                         "calls": len(rep)})
    return run_row, fig_rows, rep_rows


def load(run: Path, db_url: str) -> dict:
    """Puts a run into the database, replacing what it held of the same run_id. Returns counts."""
    run_row, fig_rows, rep_rows = rows_of_run(run)
    eng = engine(db_url)
    try:
        with eng.begin() as conn:
            rid = run_row["run_id"]
            for table in (repetitions, figures, runs):
                conn.execute(delete(table).where(table.c.run_id == rid))
            conn.execute(insert(runs), [run_row])
            if fig_rows:
                conn.execute(insert(figures), fig_rows)
            if rep_rows:
                conn.execute(insert(repetitions), rep_rows)
    finally:
        eng.dispose()
    return {"run_id": run_row["run_id"], "figures": len(fig_rows), "repetitions": len(rep_rows)}


def repetitions_of(run_id: str, db_url: str | None = None, unit: str = "repetition") -> tuple[dict, str, dict]:
    """A run of the database as compare reads a folder: {(cell, workload): [µs]}, what they are, the run."""
    eng = engine(url(db_url))
    try:
        with eng.connect() as conn:
            row = conn.execute(select(runs).where(runs.c.run_id == run_id)).mappings().first()
            if row is None:
                raise KeyError(f"no run {run_id!r} in the history")
            values: dict[tuple, list[float]] = {}
            reps = (select(repetitions.c.cell, repetitions.c.workload, repetitions.c.median_us)
                    .where(repetitions.c.run_id == run_id)
                    .order_by(repetitions.c["pass"], repetitions.c.repetition))
            for r in (conn.execute(reps) if unit == "repetition" else ()):
                values.setdefault((r.cell, r.workload), []).append(r.median_us)
            kind = "repetition medians"
            if not values:
                kind = "pass p50s"
                for r in conn.execute(select(figures.c.cell, figures.c.workload, figures.c.p50_us)
                                      .where(figures.c.run_id == run_id, figures.c.status == "pass",
                                             figures.c.p50_us.is_not(None))
                                      .order_by(figures.c["pass"])):
                    values.setdefault((r.cell, r.workload), []).append(r.p50_us)
    finally:
        eng.dispose()
    info = {"run_id": row["run_id"], "commit": row["commit"], "dirty": row["dirty"], "profile": row["profile"],
            "path": db_url or "history"}
    return values, kind, info


def show(cell: str, db_url: str, workload: str | None = None, commit: str | None = None) -> list[dict]:
    """One cell's median across runs (oldest first) with its 95% interval (stats.median_ci over the run's
    repetition medians, or its passes' p50s), per workload."""
    eng = engine(db_url)
    out = []
    try:
        with eng.connect() as conn:
            q = select(runs).order_by(runs.c.started, runs.c.run_id)
            if commit:
                q = q.where(runs.c.commit.startswith(commit))
            for run in conn.execute(q).mappings():
                fq = select(figures.c.workload, figures.c.p50_us).where(
                    figures.c.run_id == run["run_id"], figures.c.cell == cell, figures.c.status == "pass",
                    figures.c.p50_us.is_not(None))
                rq = select(repetitions.c.workload, repetitions.c.median_us).where(
                    repetitions.c.run_id == run["run_id"], repetitions.c.cell == cell)
                if workload:
                    fq = fq.where(figures.c.workload == workload)
                    rq = rq.where(repetitions.c.workload == workload)
                by_workload: dict[str, list[float]] = {}
                kind = "repetition medians"
                for r in conn.execute(rq):
                    by_workload.setdefault(r.workload, []).append(r.median_us)
                if not by_workload:
                    kind = "pass p50s"
                    for r in conn.execute(fq):
                        by_workload.setdefault(r.workload, []).append(r.p50_us)
                for w, vals in sorted(by_workload.items()):
                    ci = stats.median_ci(vals)
                    out.append({"run_id": run["run_id"], "commit": run["commit"], "dirty": run["dirty"],
                                "profile": run["profile"], "workload": w, "median_us": ci["median"],
                                "low": ci["low"], "high": ci["high"], "n": ci["n"], "values": kind,
                                "floor_p50_us": run["floor_p50_us"]})
    finally:
        eng.dispose()
    return out


def render_show(cell: str, rows: list[dict]) -> str:
    lines = [f"# {cell}: median across runs (95% interval)", "",
             "| run | commit | profile | workload | median µs | 95% interval | n | values | floor µs |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        commit = (r["commit"] or "?")[:7] + (" (dirty)" if r["dirty"] else "")
        floor = f"{r['floor_p50_us']:.4g}" if r["floor_p50_us"] else "–"
        lines.append(f"| {r['run_id']} | `{commit}` | {r['profile']} | {r['workload']} | {r['median_us']:.4g} "
                     f"| {r['low']:.4g} – {r['high']:.4g} | {r['n']} | {r['values']} | {floor} |")
    if not rows:
        lines.append("| (no run of this cell in the history) | | | | | | | | |")
    return "\n".join(lines) + "\n"
