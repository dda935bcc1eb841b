"""Latency under load (a profile with "load"; runner/PROTOCOL.md#load): the points a cell runs, round by round
from what its earlier points measured, and the rules that judge a point and find a server's knee. Each rule lives
here once; the fold (load_fold.py) and the report read them.

Rounds, each a timing plan the shell executes as it executes a workload's (cell.sh: time_workloads), the cgroups'
CPU and the wall clock read around every point:
1. closed loop at each of `closed` calls in flight, a connection per call in flight;
2. open loop at `open_fractions` of the closed loop's best throughput (`arrival`), with workers for the calls that
   rate keeps in flight by Little's law (`workers`);
3. up to `refine` more open-loop rates, each halving the gap between the highest rate within the knee's bound and
   the lowest beyond it; or, when even the lowest rate was beyond it, up to `descend` rates each half the lowest
   tried, none under `descend_min_calls` calls in a point's duration (`descents`);
4. overload: `overload.factor` times the knee (the best closed-loop throughput when no rate was within the bound)
   for `overload.duration_ms`, then a closed loop of one call for `overload.recovery_ms`.

A point's name is `<workload>@<mode>-<number>`: `ping@closed-8`, `ping@open-2400`, `ping@overload-4800`,
`ping@recovery-1`."""
from __future__ import annotations

import json
import math
from pathlib import Path

DEFAULTS = {
    "workload": "ping",
    "closed": [1, 2, 4, 8, 16, 32, 64],
    "open_fractions": [0.25, 0.5, 0.7, 0.85, 1.0, 1.15],
    # An open-loop point's workers (and connections): `open_headroom` times the calls its rate keeps in flight by
    # Little's law, at least `open_min_in_flight`, at most `open_in_flight`. A fixed 64 put 64 threads on the client's
    # one CPU at every rate: Java, Node and .NET clients then delayed their sends by milliseconds at rates their
    # closed loop made with 2 in flight, and no knee was found.
    "open_in_flight": 64,
    "open_min_in_flight": 2,
    "open_headroom": 2,
    "arrival": "poisson",
    "duration_ms": 1000,
    "warmup_ms": 300,
    "late_ms": 1,
    "timeout_ms": 2000,
    # The knee's bound: p99 latency within this multiple of the p50 of one call at a time (closed loop, 1): its p50,
    # not its p99, which one stall of the host can move tenfold (3.4 against 44 ms in two cells of one run).
    "p99_multiple": 10,
    "refine": 2,
    # Where a server was beyond the bound at the lowest fraction (a Python SOAP server's p99 was 15 ms at a quarter of
    # its closed loop's best, its bound 10 ms), halves of it, each point long enough for a p99 of its own.
    "descend": 3,
    "descend_min_calls": 200,
    # The rate that brings the server to this share of its CPU.
    "cpu_share": 0.8,
    "overload": {"factor": 2.0, "duration_ms": 3000, "recovery_ms": 1000},
    # After the pass, each server driven again by its protocol's fastest client (fastest_clients) where that is
    # another language's.
    "fastest_client": True,
}
# A point whose achieved rate falls under this share of the offered one did not get the load it was asked for.
ACHIEVED_SHARE = 0.97
# A client running, or with all its runnable threads waiting for its CPU, over this share of the time, per CPU it
# has, is the bottleneck: the point is the generator's, not the server's (a client starved by another process is
# as short of CPU as one using all of it; a thread waiting while another of the client runs is not).
CLIENT_BOUND_SHARE = 0.9
# Little's law (calls in flight = throughput x latency) within this relative difference in a closed loop.
LITTLE_TOLERANCE = 0.2
MORE = "timing.more"
# Recovered from overload: one call at a time right after it within this multiple of its p50 before.
RECOVERED_MULTIPLE = 2.0


def dropped(point: dict) -> bool:
    """Calls dropped beyond the window's edge: when it closes, up to one call per worker can be due and waiting for
    a worker still busy, which says nothing of the rate; more were never sent because the generator fell behind."""
    return (point.get("dropped") or 0) > (point.get("in_flight") or 0)
POINTS = "load.points.json"


def settings(profile: dict) -> dict:
    given = profile.get("load") or {}
    return DEFAULTS | given | {"overload": DEFAULTS["overload"] | given.get("overload", {})}


def point_name(workload: str, mode: str, number: float) -> str:
    return f"{workload}@{mode}-{int(round(number))}"


def parse_point(name: str) -> tuple[str, str, int] | None:
    """(workload, mode, number) of a point's name, or None for a workload's."""
    workload, at, point = name.partition("@")
    mode, _, number = point.rpartition("-")
    return (workload, mode, int(number)) if at and number.isdigit() else None


def workers(points: dict[str, dict], s: dict, rate: float) -> int:
    """The workers of an open-loop point at `rate`: the calls that rate keeps in flight (Little's law: the rate times
    the latency at that load, which the closed loop measured as in-flight / throughput at the fewest calls in flight
    whose throughput reached the rate, or at its best throughput when none did), times the headroom a Poisson
    burst needs, within the settings' bounds."""
    closed = sorted((p["in_flight"], p.get("achieved_per_s") or 0) for n, p in points.items()
                    if parse_point(n) and parse_point(n)[1] == "closed" and not p.get("failed")
                    and not p.get("errors") and p.get("in_flight"))
    closed = [(n, x) for n, x in closed if x > 0]
    if not closed:
        return s["open_in_flight"]
    n, throughput = next(((n, x) for n, x in closed if x >= rate), max(closed, key=lambda c: c[1]))
    in_flight = rate * n / throughput
    return max(s["open_min_in_flight"], min(s["open_in_flight"], math.ceil(s["open_headroom"] * in_flight)))


def command(s: dict, mode: str, number: float, points: dict[str, dict] | None = None) -> dict:
    """The load command of a point (runner/PROTOCOL.md#load); an open-loop point's workers from `points` (workers)."""
    common = {"cmd": "load", "workload": s["workload"], "warmup_ms": s["warmup_ms"], "late_ms": s["late_ms"],
              "timeout_ms": s["timeout_ms"], "duration_ms": s["duration_ms"]}
    if mode in ("closed", "recovery"):
        in_flight = int(number)
        out = common | {"connections": in_flight, "in_flight": in_flight}
        if mode == "recovery":
            out["duration_ms"] = s["overload"]["recovery_ms"]
        return out
    in_flight = workers(points or {}, s, number)
    out = common | {"connections": in_flight, "in_flight": in_flight, "rate": int(round(number)),
                    "arrival": s["arrival"], "seed": int(round(number))}
    if mode == "overload":
        out["duration_ms"] = s["overload"]["duration_ms"]
    return out


def timing_line(s: dict, mode: str, number: float, points: dict[str, dict] | None = None) -> str:
    """One point as a line of the timing plan the shell executes (cell.timing_line's columns): a few checked
    calls first (the fixed warm-up: the connection still answers rightly), the point's load command once, between
    two readings of the counters; nothing counted on the wire."""
    name = point_name(s["workload"], mode, number)
    commands = [{"cmd": "prepare", "workload": s["workload"]}, {"cmd": "warmup", "workload": s["workload"], "calls": 3},
                command(s, mode, number, points), {"cmd": "samples", "workload": s["workload"]},
                {"cmd": "samples", "workload": s["workload"]}]
    columns = [name, "load", 3, 1, 1, 0]
    return "\t".join([*map(str, columns), *(json.dumps(c) for c in commands)]) + "\n"


POINT_COUNTS = ("mode", "in_flight", "offered_per_s", "achieved_per_s", "errors", "dropped", "hung")


def _point(counts: dict, latency: dict | None, service: dict | None) -> dict:
    latency, service = latency or {}, service or {}
    return {key: counts.get(key) for key in POINT_COUNTS} | {
        "p50_us": latency.get("p50"), "p99_us": latency.get("p99"), "service_p99_us": service.get("p99")}


def point_of(answer: dict) -> dict:
    """What the rules below read of a point: its counts, its latency p50 and p99 and its service p99 (µs), from a
    client's answer."""
    from .load_fold import percentiles  # reading the histograms lives with the fold
    return _point(answer, percentiles(answer, "latency"), percentiles(answer, "service"))


def point_of_record(rec: dict) -> dict:
    """The same from a point's record (load_fold.point_record), for the report."""
    return _point(rec["load"], rec.get("latency_us"), rec.get("service_us"))


def answers(cell_dir: Path) -> dict[str, dict]:
    """Every point run so far in the cell's pass, by name (point_of; the shell keeps each repetition's answer in
    <name>.answers.jsonl); a point whose command failed is there too, `failed`, so that no round repeats it."""
    out = {}
    for path in sorted(cell_dir.glob("*@*.answers.jsonl")):
        lines = path.read_text().splitlines()
        name = path.name.removesuffix(".answers.jsonl")
        answer = json.loads(lines[-1]) if lines else {}
        out[name] = point_of(answer) if answer.get("ok") else {"mode": parse_point(name)[1], "failed": True}
    return out


def within(point: dict, bound: float | None) -> bool:
    """An open-loop point within the knee's bound: its p99 under the bound, the rate it was offered achieved,
    nothing failed, dropped or hung."""
    p99 = point.get("p99_us")
    return (bound is not None and p99 is not None and p99 <= bound and not point.get("errors")
            and not dropped(point) and not point.get("hung")
            and (point.get("achieved_per_s") or 0) >= ACHIEVED_SHARE * (point.get("offered_per_s") or 0))


def knee(points: dict[str, dict], s: dict) -> dict:
    """The highest offered rate within the bound below which every rate tried is within it too, and the lowest
    rate beyond it: {"rate", "beyond", "bound_us", "generator_bound": whether that rate is beyond only because the
    generator sent late (generator_late)} (None where there is none)."""
    one = points.get(point_name(s["workload"], "closed", 1))
    base = one.get("p50_us") if one else None
    bound = base * s["p99_multiple"] if base is not None else None
    rates = sorted(((parse_point(name)[2], point) for name, point in points.items()
                    if parse_point(name) and parse_point(name)[1] == "open"), key=lambda x: x[0])
    rate = beyond = None
    for offered, point in rates:
        if within(point, bound):
            rate = offered
        else:
            beyond = offered
            break
    beyond_point = dict(rates).get(beyond) if beyond is not None else None
    return {"rate": rate, "beyond": beyond, "bound_us": bound,
            "generator_bound": bool(beyond_point) and generator_late(beyond_point, bound)}


def generator_late(point: dict, bound: float | None) -> bool:
    """A point beyond the bound only because the generator sent its calls late: their service time's p99 within the
    bound, nothing failed or lost, the rate achieved, the latency from the intended send beyond it. The server kept
    up and the client's schedule slipped (its workers all busy when a Poisson burst came, or woken late): the first
    rate beyond the knee is the generator's, not the server's, and the knee is at least the rate before it."""
    service = point.get("service_p99_us")
    return (bound is not None and service is not None and service <= bound < (point.get("p99_us") or 0)
            and not point.get("errors") and not dropped(point) and not point.get("hung")
            and (point.get("achieved_per_s") or 0) >= ACHIEVED_SHARE * (point.get("offered_per_s") or 0))


def best_closed(points: dict[str, dict]) -> float:
    """The closed loop's best throughput over its points without errors."""
    return max((p.get("achieved_per_s") or 0 for n, p in points.items()
                if parse_point(n) and parse_point(n)[1] == "closed" and not p.get("errors")), default=0.0)


def cpu_rate(shares: list[tuple[float, float]], share: float) -> float | None:
    """The offered rate at which the server's CPU reaches `share` of a CPU, interpolated between the open-loop
    points (offered rate, server CPU share) around it; None when no point reached it."""
    shares = sorted(shares)
    if shares and shares[0][1] >= share:
        return shares[0][0]
    for (r0, s0), (r1, s1) in zip(shares, shares[1:], strict=False):
        if s0 < share <= s1:
            return r0 + (share - s0) / (s1 - s0) * (r1 - r0)
    return None


def next_round(points: dict[str, dict], s: dict) -> list[tuple[str, float]]:
    """The points of the next round (see the module's text), or none: the cell's load is done. A point already
    run (answered or failed) is never planned again, so a cell whose points fail still ends."""
    planned = [(mode, number) for mode, number in _plan(points, s)
               if point_name(s["workload"], mode, number) not in points]
    return planned


def _plan(points: dict[str, dict], s: dict) -> list[tuple[str, float]]:
    ran = {parse_point(n)[1:] for n in points if parse_point(n)}
    modes = {mode for mode, _ in ran}
    if "open" not in modes and "overload" not in modes:
        best = best_closed(points)
        if best <= 0:
            return []  # no closed-loop point answered: nothing to offer a rate against
        return [("open", max(1, best * f)) for f in s["open_fractions"]]
    if "overload" not in modes:
        found = knee(points, s)
        opened = {n for mode, n in ran if mode == "open"}
        descent = descents(points, s)
        lower = [rate for rate in descent if rate not in opened]
        lowest = points.get(point_name(s["workload"], "open", min(opened))) if opened else None
        if found["rate"] is None and lower and lowest and not lowest.get("failed"):
            return [("open", lower[0])]  # answered, beyond the bound at every rate so far: a lower one
        # the rates tried beyond the fractions and the descent
        best = best_closed(points)
        refined = len(opened - {int(round(max(1, best * f))) for f in s["open_fractions"]} - set(descent))
        if found["rate"] is not None and found["beyond"] is not None and refined < s["refine"]:
            middle = (found["rate"] + found["beyond"]) / 2
            if int(round(middle)) not in opened:
                return [("open", middle)]
        target = found["rate"] or best
        return [("overload", max(1, target * s["overload"]["factor"])), ("recovery", 1)] if target else []
    return []


def descents(points: dict[str, dict], s: dict) -> list[int]:
    """The rates a descent tries in turn below the lowest fraction of the closed loop's best: each half the one
    before, at least `descend_min_calls` calls in a point's duration, at most `descend` of them."""
    rate = int(round(max(1, best_closed(points) * min(s["open_fractions"]))))
    least = s["descend_min_calls"] * 1000 / s["duration_ms"]
    out: list[int] = []
    while len(out) < s["descend"] and rate > least:
        rate = int(round(max(rate / 2, least)))
        out.append(rate)
    return out


def fastest_clients(recs: list[dict]) -> dict[str, dict]:
    """Per protocol, its fastest client as a load generator: the one whose closed loop spent the least of its own CPU
    per call answered (so one of its CPUs offers the most calls), over the points of its cells (load records) that
    answered without errors: {protocol: {"client", "client_cpu_us_per_call", "point"}}. Throughput alone would
    rank the pairs, and a fast client of a slow server would rank low."""
    best: dict[str, dict] = {}
    for rec in recs:
        cpu = (rec.get("cpu_us_per_call") or {}).get("client")
        if (rec.get("kind") != "load" or rec.get("status") != "pass" or rec["point"]["mode"] != "closed"
                or (rec.get("load") or {}).get("errors") or not cpu):
            continue
        if rec["protocol"] not in best or cpu < best[rec["protocol"]]["client_cpu_us_per_call"]:
            best[rec["protocol"]] = {"client": rec["client"], "client_cpu_us_per_call": round(cpu, 2),
                                     "point": f"{rec['cell']} {rec['workload']}"}
    return best


def overload_outcome(recs: list[dict]) -> dict | None:
    """What overload did to a cell's server, from its point records, as the battery's survival matrix has an
    attack's: `outcome` served (every call answered), refused (some answered with an error, none lost) or hung (calls
    still outstanding long after: lost silently), or error (no answer); `served_after` whether one call at a time
    right after took at most RECOVERED_MULTIPLE times its p50 before; the server's memory (`rss_before_kb`: its peak
    over the points before, `rss_after_kb`: its peak in overload); `answer`: the figures in words. None without an
    overload point."""
    over = next((r for r in recs if r["point"]["mode"] == "overload"), None)
    if over is None:
        return None
    if over["status"] != "pass":
        return {"outcome": "error", "served_after": None, "answer": over.get("reason", "")}
    back = next((r for r in recs if r["point"]["mode"] == "recovery" and r["status"] == "pass"), None)
    one = next((r for r in recs if r["point"]["mode"] == "closed" and r["point"]["number"] == 1
                and r["status"] == "pass"), None)
    figures = over["load"]
    outcome = "hung" if figures.get("hung") else "refused" if figures.get("errors") else "served"
    before = (one or {}).get("latency_us", {}).get("p50") if one else None
    after = (back.get("latency_us") or {}).get("p50") if back and not back["load"].get("errors") else None
    peaks = [(r.get("rss_kb") or {}).get("server_peak") for r in recs if r["point"]["mode"] in ("closed", "open")]
    peaks = [p for p in peaks if p]
    # a generator that could not send the rate did not put the server under it: said with the figures
    short = (f", {figures.get('dropped') or 0} never sent"
             + (" (the client was the bottleneck)" if "client-bound" in over.get("guards", []) else "")
             if dropped(figures) else "")
    answer = (f"{figures['offered_per_s']:,.0f}/s offered, {figures['achieved_per_s']:,.0f}/s answered, "
              f"{figures.get('errors') or 0} errors, {figures.get('hung') or 0} hung{short}"
              + (f"; after: one call {after:.0f} µs p50 against {before:.0f} µs before" if after and before else ""))
    return {"outcome": outcome, "answer": answer,
            "served_after": (after <= RECOVERED_MULTIPLE * before) if after and before else False,
            "rss_before_kb": max(peaks) if peaks else None,
            "rss_after_kb": (over.get("rss_kb") or {}).get("server_peak")}


def first_round(s: dict) -> list[tuple[str, float]]:
    return [("closed", n) for n in s["closed"]]


def write_round(cell_dir: Path, timing: Path, s: dict, round_points: list[tuple[str, float]],
                points: dict[str, dict] | None = None) -> bool:
    """The round's timing plan (from the `points` run before it), and the mark that the shell asks for another after
    it; False when none is left."""
    more = cell_dir / MORE
    if not round_points:
        timing.write_text("")
        more.unlink(missing_ok=True)
        return False
    timing.write_text("".join(timing_line(s, mode, number, points) for mode, number in round_points))
    more.touch()
    return True
