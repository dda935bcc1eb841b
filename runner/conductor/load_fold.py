"""A load point's record (kind "load"): the client's answer (runner/PROTOCOL.md#load) read into percentiles with
HdrHistogram, each side's CPU from the cgroups and the wall clock around the command, and the guards that say
whether the point measures the server or the load generator (load.py holds their thresholds)."""
from __future__ import annotations

from hdrh.histogram import HdrHistogram

from . import load

PERCENTILES = {"p50": 50, "p90": 90, "p99": 99, "p99_9": 99.9}
LOWEST_NS, HIGHEST_NS, DIGITS = 1, 60_000_000_000, 3


def histogram(answer: dict, name: str) -> HdrHistogram | None:
    """The answer's histogram `name` (latency, service, dispatch): decoded, or recorded from raw samples."""
    if isinstance(answer.get(name), str):
        return HdrHistogram.decode(answer[name])
    samples = answer.get(f"{name}_samples_ns")
    if samples is None:
        return None
    h = HdrHistogram(LOWEST_NS, HIGHEST_NS, DIGITS)
    for value in samples:
        h.record_value(min(max(int(value), LOWEST_NS), HIGHEST_NS))
    return h


def percentiles(answer: dict, name: str) -> dict | None:
    """p50, p90, p99, p99.9, max and mean of a histogram, in µs; None when it is absent or empty."""
    h = histogram(answer, name)
    if h is None or h.get_total_count() == 0:
        return None
    out = {key: h.get_value_at_percentile(p) / 1000 for key, p in PERCENTILES.items()}
    out.update(max=h.get_max_value() / 1000, mean=h.get_mean_value() / 1000, count=h.get_total_count())
    return out


def cpu_shares(rep: dict, active_ms: float | None = None) -> dict | None:
    """Each side's CPU over the point, as a share of one CPU: the cgroups' µs read around the command, over the
    time the load ran (`active_ms`: its warm-up and its window) or else the command's wall clock. The command also
    opens and closes its connections, whose wall time (up to seconds for 64 of them) would dilute the share, and
    whose CPU is small beside the load's: counted, so a share errs high, never low."""
    wall = (rep.get("wall_us_after") or 0) - (rep.get("wall_us_before") or 0)
    readings = [rep.get(k) for k in ("client_cpu_us_before", "client_cpu_us_after", "server_cpu_us_before",
                                     "server_cpu_us_after")]
    if wall <= 0 or None in readings:
        return None
    over = min(wall, active_ms * 1000) if active_ms else wall
    shares = {"client": (readings[1] - readings[0]) / over, "server": (readings[3] - readings[2]) / over,
              "wall_ms": wall / 1000, "active_ms": over / 1000}
    waited = [rep.get("client_wait_us_before"), rep.get("client_wait_us_after")]
    if None not in waited:  # every runnable thread of the client waiting for its CPU (cpu.pressure's "full")
        shares["client_waiting"] = (waited[1] - waited[0]) / over
    return shares


def guards(answer: dict, shares: dict | None, client_cpus: int) -> list[str]:
    """What makes a point not the server's alone, each a short name the report explains:
    `under-offered` (open loop: achieved under 97% of offered), `dropped` (beyond the window's edge: load.dropped),
    `errors`, `hung`, `client-bound` (the client's threads running or waiting for a CPU over 90% of the time, per
    CPU it has), `little` (closed loop: in flight differs from throughput x mean latency by over 20%)."""
    found = []
    offered = answer.get("offered_per_s")
    if offered and answer.get("achieved_per_s", 0) < load.ACHIEVED_SHARE * offered:
        found.append("under-offered")
    if load.dropped(answer):
        found.append("dropped")
    for key in ("errors", "hung"):
        if answer.get(key):
            found.append(key)
    demand = shares["client"] + shares.get("client_waiting", 0) if shares is not None else 0
    if demand >= load.CLIENT_BOUND_SHARE * client_cpus:
        found.append("client-bound")
    if answer.get("mode") == "closed":
        latency = percentiles(answer, "latency")
        in_flight = answer.get("in_flight") or 0
        if latency and in_flight:
            little = answer.get("achieved_per_s", 0) * latency["mean"] / 1e6
            if abs(little - in_flight) > load.LITTLE_TOLERANCE * in_flight:
                found.append("little")
    return found


def point_record(rec: dict, name: str, answer: dict | None, rep: dict | None, client_cpus: int,
                 warmup_ms: float = 0) -> dict:
    """Fills the base record `rec` of point `name` from its answer and its repetition's counters; `warmup_ms`: the
    load the command ran before its window."""
    _, mode, number = load.parse_point(name)
    rec.update(kind="load", point={"mode": mode, "number": number})
    if answer is None:
        rec.update(status="error", reason="the client gave no load answer")
        return rec
    active = warmup_ms + answer["elapsed_ms"] if answer.get("elapsed_ms") else None
    shares = cpu_shares(rep or {}, active)
    achieved = answer.get("achieved_per_s") or 0
    rec.update(
        status="pass", calls=answer.get("calls", 0),
        load={key: answer.get(key) for key in ("mode", "connections", "in_flight", "offered_per_s", "arrival",
                                               "seed", "achieved_per_s", "errors", "timeouts", "hung", "late",
                                               "dropped", "elapsed_ms", "first_error")},
        latency_us=percentiles(answer, "latency"), service_us=percentiles(answer, "service"),
        dispatch_us=percentiles(answer, "dispatch"),
        cpu_share=shares,
        cpu_us_per_call=({"client": shares["client"] * 1e6 / achieved, "server": shares["server"] * 1e6 / achieved}
                         if shares and achieved else None),
        generator={**(answer.get("generator") or {}), "client_cpus": client_cpus},
        guards=guards(answer, shares, client_cpus))
    return rec
