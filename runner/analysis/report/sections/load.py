"""report/load.md: latency under load (a load profile's points; runner/conductor/load.py). Per protocol, each
cell's knee and the rate that brings its server to the stated CPU share, what overload did and how the server
recovered, then every point: offered and achieved rate, latency from the intended send (coordinated omission
corrected), service time, dispatch delay, CPU per call on each side, and the guards that make a point the load
generator's rather than the server's."""
from conductor import load as load_rules

from ..blocks import Bullets, Code, Heading, Paragraph, Strong, Table, Text
from .context import Context

LOAD = "load"  # report/load.md

GUARDS = {
    "under-offered": "the rate achieved fell under 97% of the rate offered",
    "dropped": "more calls due in the window were never sent than the one per worker its closing edge can leave",
    "errors": "calls failed",
    "hung": "calls were still outstanding long after the window",
    "client-bound": "the client's threads ran or waited for its CPU over 90% of the time: the point measures the "
                    "load generator",
    "little": "in flight differs from throughput × mean latency by over 20% (Little's law): the generator did not "
              "keep its calls in flight",
}


def _us(figures: dict | None, key: str) -> str:
    if not figures or figures.get(key) is None:
        return "–"
    value = figures[key]
    return f"{value / 1000:.2f} ms" if value >= 1000 else f"{value:.0f} µs"


def _rate(value) -> str:
    return "–" if value is None else f"{value:,.0f}/s"


def _cells(ctx: Context, protocol: str) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for rec in ctx.load_points:
        if rec["protocol"] == protocol:
            out.setdefault(rec["cell"], []).append(rec)
    return out


def knee_of(recs: list[dict], settings: dict) -> dict:
    """load.knee over the cell's records: the rule the run's search used."""
    return load_rules.knee({r["workload"]: load_rules.point_of_record(r) for r in recs if r["status"] == "pass"},
                           settings)


def cpu_rate(recs: list[dict], share: float) -> float | None:
    return load_rules.cpu_rate([(r["load"]["offered_per_s"], r["cpu_share"]["server"]) for r in recs
                                if r["status"] == "pass" and r["point"]["mode"] == "open"
                                and (r.get("cpu_share") or {}).get("server") is not None],
                               share)


def overload_text(recs: list[dict]) -> Text:
    over = next((r for r in recs if r["point"]["mode"] == "overload"), None)
    back = next((r for r in recs if r["point"]["mode"] == "recovery"), None)
    one = next((r for r in recs if r["point"]["mode"] == "closed" and r["point"]["number"] == 1), None)
    if over is None:
        return Text("not run")
    if over["status"] != "pass":
        return Text(Strong("no answer"), f": {over['reason']}")
    load = over["load"]
    parts = [f"{_rate(load['offered_per_s'])} offered, {_rate(load['achieved_per_s'])} answered, "
             f"{load['errors'] or 0} errors, {load['dropped'] or 0} dropped, {load['hung'] or 0} hung; "
             f"server peak {((over.get('rss_kb') or {}).get('server_peak') or 0) / 1024:.0f} MiB"]
    if back and back["status"] == "pass" and one and one["status"] == "pass":
        after, before = (back.get("latency_us") or {}).get("p50"), (one.get("latency_us") or {}).get("p50")
        if after and before:
            parts.append(f"; after it, one call at a time took {_us(back['latency_us'], 'p50')} p50 against "
                         f"{_us(one['latency_us'], 'p50')} before (×{after / before:.2f})")
    return Text("".join(parts))


def driver_text(ctx: Context, cell: str) -> Text:
    """Which client drives the cell's server: its own language's, or its protocol's fastest (prepare.rival)."""
    c = next((c for c in ctx.figures.cells if c["name"] == cell), {})
    driver = c.get("driver")
    if not driver:
        return Text("own language")
    return Text(Strong("fastest client"), f": {driver['client_cpu_us_per_call']:.1f} µs of its CPU per call "
                f"({driver['point']})")


def knee_table(ctx: Context, protocol: str, settings: dict) -> Table:
    rows = []
    for cell, recs in sorted(_cells(ctx, protocol).items()):
        found = knee_of(recs, settings)
        best = max((r["load"]["achieved_per_s"] or 0 for r in recs
                    if r["status"] == "pass" and r["point"]["mode"] == "closed"), default=None)
        cpu = cpu_rate(recs, settings["cpu_share"])
        beyond = Text(_rate(found["beyond"]), " (the generator's: sent late, served in time)"
                      if found["generator_bound"] else "")
        rows.append([Code(cell), driver_text(ctx, cell), _rate(best), _rate(found["rate"]), beyond,
                     _us(found, "bound_us"), _rate(cpu), overload_text(recs)])
    return Table(["cell", "client", "best closed loop", "knee", "first rate beyond", "p99 bound",
                  f"rate at {settings['cpu_share']:.0%} server CPU", "overload, then recovery"], rows)


def points_table(recs: list[dict]) -> Table:
    rows = []
    order = {"closed": 0, "open": 1, "overload": 2, "recovery": 3}
    for r in sorted(recs, key=lambda r: (order.get(r["point"]["mode"], 9), r["point"]["number"])):
        if r["status"] != "pass":
            rows.append([Code(r["workload"]), Strong(r["status"]), r["reason"][:120], "", "", "", "", "", "", ""])
            continue
        load, cpu = r["load"], r.get("cpu_us_per_call") or {}
        rows.append([Code(r["workload"]), f"{load['in_flight']} / {load['connections']}",
                     _rate(load.get("offered_per_s")), _rate(load["achieved_per_s"]),
                     " · ".join(_us(r["latency_us"], key) for key in ("p50", "p99", "p99_9")),
                     _us(r.get("service_us"), "p99"), _us(r.get("dispatch_us"), "p99"),
                     " · ".join(f"{cpu[s]:.1f}" if cpu.get(s) is not None else "–" for s in ("client", "server")),
                     f"{load['errors'] or 0} / {load['dropped'] or 0} / {load['late'] or 0}",
                     ", ".join(r["guards"]) or "–"])
    return Table(["point", "in flight / connections", "offered", "achieved", "latency p50 · p99 · p99.9",
                  "service p99", "dispatch p99", "CPU µs/call client · server", "errors / dropped / late", "guards"],
                 rows)


def generators(ctx: Context, protocol: str) -> Bullets:
    """Each client's generator, with the most workers it ran."""
    seen: dict[str, dict] = {}
    for r in ctx.load_points:
        if r["protocol"] == protocol and r.get("generator"):
            g = r["generator"]
            best = seen.get(r["client"])
            if best is None or (g.get("threads") or 0) > (best.get("threads") or 0):
                seen[r["client"]] = g
    lines = []
    for client, g in seen.items():
        workers = "an event loop" if g.get("event_loop") else f"up to {g.get('threads', '?')} threads"
        lines.append(f"{client}: {g.get('name', '?')} ({g.get('version', '?')}), {workers}, "
                     f"{g.get('histogram', '?')}, {g.get('clock', '?')}, on {g.get('client_cpus', '?')} CPU")
    return Bullets(lines or ["no generator answered"])


def load_points(ctx: Context) -> list:
    settings = load_rules.settings(ctx.run.get("profile") or {})
    out = [Paragraph(Text(
        "Each server driven by its own language's clients, and then by its protocol's fastest client (the one whose "
        "closed loop spent the least of its CPU per call) where that is another language's; one workload (",
        Code(settings["workload"]), "): a closed "
        f"loop at {', '.join(map(str, settings['closed']))} calls in flight (a connection each), then open-loop "
        f"{settings['arrival']} rates at fractions of the closed loop's best (where even the lowest was beyond the "
        f"knee's bound, up to {settings['descend']} halves of it, none under {settings['descend_min_calls']} calls in "
        "a point), each call timed from when it should "
        "have been sent (coordinated omission corrected, as wrk2), the service time from when it was, by "
        f"{settings['open_headroom']} times the workers the rate keeps busy by Little's law (the rate times the "
        "latency the closed loop had at that throughput), at least "
        f"{settings['open_min_in_flight']} and at most {settings['open_in_flight']}, a connection each. The knee is "
        f"the highest rate whose p99 stays within {settings['p99_multiple']} times the p50 of one call at a time, "
        "with every rate below it within too, nothing failed or dropped and 97% of the rate achieved; a first rate "
        "beyond it whose calls the server served within the bound (service p99) but the generator sent late "
        "(dispatch) is the generator's: the knee is at least the rate before it. Overload: "
        f"{settings['overload']['factor']} times the knee for {settings['overload']['duration_ms']} ms, then one call "
        "at a time again. CPU: each side's cgroup CPU read around the point's command, as a share of one CPU over "
        f"the time its load ran ({settings['warmup_ms']} ms before the window and the window: opening 64 connections "
        "can take seconds of the command's wall clock), and per call answered.")),
        Bullets([Text(Strong(name), f": {why}") for name, why in GUARDS.items()])]
    for protocol in sorted({r["protocol"] for r in ctx.load_points}):
        out += [Heading(2, Code(protocol)), knee_table(ctx, protocol, settings), Heading(3, "Generators"),
                generators(ctx, protocol)]
        for cell, recs in sorted(_cells(ctx, protocol).items()):
            out += [Heading(3, Code(cell)), points_table(recs)]
    return out


def summary_line(ctx: Context) -> str:
    cells = {r["cell"] for r in ctx.load_points}
    guarded = sum(1 for r in ctx.load_points if r.get("guards"))
    return f"{len(ctx.load_points)} points over {len(cells)} cells, {guarded} guarded"
