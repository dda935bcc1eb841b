"""Latency under load: the rounds a cell runs (conductor/load.py) and a point's record (conductor/load_fold.py)."""
import json

import pytest
from hdrh.histogram import HdrHistogram

from conductor import load, load_fold

S = load.settings({"load": {"closed": [1, 4], "open_fractions": [0.5, 1.0], "refine": 1}})


def answer(mode, in_flight, achieved, latency_ns, offered=None, **counts):
    h = HdrHistogram(1, 60_000_000_000, 3)
    for value in latency_ns:
        h.record_value(value)
    out = {"ok": True, "mode": mode, "in_flight": in_flight, "connections": in_flight, "achieved_per_s": achieved,
           "calls": len(latency_ns), "errors": 0, "dropped": 0, "hung": 0, "late": 0, "timeouts": 0,
           "latency": h.encode().decode(), "service": h.encode().decode(), "dispatch": h.encode().decode()}
    if offered is not None:
        out["offered_per_s"] = offered
    return out | counts


def point(*args, **counts):
    return load.point_of(answer(*args, **counts))


def test_point_names_read_back():
    assert load.point_name("ping", "open", 2400.4) == "ping@open-2400"
    assert load.parse_point("ping@open-2400") == ("ping", "open", 2400)
    assert load.parse_point("ping") is None and load.parse_point("getItems100") is None


def test_rounds_closed_then_open_at_fractions_of_the_best_then_the_knee_then_overload():
    assert load.first_round(S) == [("closed", 1), ("closed", 4)]
    points = {"ping@closed-1": point("closed", 1, 10_000, [100_000] * 100),
              "ping@closed-4": point("closed", 4, 20_000, [200_000] * 100)}
    assert load.next_round(points, S) == [("open", 10_000), ("open", 20_000)]
    # 10,000/s within the bound (10 x the 100 µs p99 of one call at a time), 20,000/s beyond it: one rate between
    points["ping@open-10000"] = point("open", 64, 10_000, [300_000] * 100, offered=10_000)
    points["ping@open-20000"] = point("open", 64, 15_000, [5_000_000] * 100, offered=20_000)
    assert load.next_round(points, S) == [("open", 15_000)]
    points["ping@open-15000"] = point("open", 64, 15_000, [400_000] * 100, offered=15_000)
    assert load.knee(points, S)["rate"] == 15_000
    # refine is spent: twice the knee, then one call at a time to see the server recover
    assert load.next_round(points, S) == [("overload", 30_000), ("recovery", 1)]
    points["ping@overload-30000"] = point("open", 64, 12_000, [9_000_000] * 100, offered=30_000)
    points["ping@recovery-1"] = point("closed", 1, 9_000, [110_000] * 100)
    assert load.next_round(points, S) == []


def test_no_closed_point_answered_ends_the_load():
    assert load.next_round({}, S) == []


@pytest.mark.parametrize("counts, within", [
    ({}, True),
    ({"errors": 1}, False),
    ({"dropped": 3}, True),  # at most one per worker (64) is the window's closing edge
    ({"dropped": 65}, False),
    ({"achieved_per_s": 9_000}, False),  # under 97% of the 10,000 offered
])
def test_a_rate_is_within_the_knee_only_when_nothing_went_wrong(counts, within):
    given = point("open", 64, 10_000, [300_000] * 100, offered=10_000) | counts
    assert load.within(given, 1_000) is within


def test_the_commands_state_every_setting():
    closed = load.command(S, "closed", 4)
    assert closed["connections"] == closed["in_flight"] == 4 and "rate" not in closed
    opened = load.command(S, "open", 2400)
    assert opened["rate"] == 2400 and opened["arrival"] == "poisson" and opened["in_flight"] == 64
    assert load.command(S, "overload", 4800)["duration_ms"] == 3000
    line = load.timing_line(S, "open", 2400).rstrip("\n").split("\t")
    assert line[0] == "ping@open-2400" and json.loads(line[8]) == opened


def test_a_rate_beyond_the_knee_only_because_the_generator_sent_late_is_the_generators():
    points = {"ping@closed-1": point("closed", 1, 10_000, [100_000] * 100),
              "ping@open-5000": point("open", 4, 5_000, [150_000] * 100, offered=5_000)}
    # 10,000/s: the latency from the intended send is 5 ms, the service 200 µs: the generator's schedule slipped
    late = point("open", 4, 10_000, [5_000_000] * 100, offered=10_000) | {"service_p99_us": 200.0}
    found = load.knee(points | {"ping@open-10000": late}, S)
    assert (found["rate"], found["beyond"], found["generator_bound"]) == (5_000, 10_000, True)
    # served late too: the server's
    slow = late | {"service_p99_us": 4_000.0}
    assert load.knee(points | {"ping@open-10000": slow}, S)["generator_bound"] is False
    # calls dropped: not a clean point, not the generator's alone
    assert load.knee(points | {"ping@open-10000": late | {"dropped": 500}}, S)["generator_bound"] is False


def test_open_loop_workers_follow_littles_law_from_the_closed_loop():
    # one call in flight made 10,000/s (100 µs each), four made 20,000/s (200 µs each)
    points = {"ping@closed-1": point("closed", 1, 10_000, [100_000] * 100),
              "ping@closed-4": point("closed", 4, 20_000, [200_000] * 100)}
    # 5,000/s at 100 µs keeps 0.5 in flight: twice that, and never under the minimum of 2
    assert load.workers(points, S, 5_000) == 2
    # 15,000/s needs the latency of 4 in flight (10,000/s is short of it): 15,000 x 200 µs = 3 in flight, twice
    assert load.workers(points, S, 15_000) == 6
    # beyond the best closed loop: at its latency, 40,000/s x 200 µs = 8, twice; bounded by open_in_flight
    assert load.workers(points, S, 40_000) == 16
    assert load.workers(points, S, 400_000) == S["open_in_flight"]
    # a failed closed point says nothing; none at all: the most workers
    assert load.workers({"ping@closed-1": {"mode": "closed", "failed": True}}, S, 5_000) == S["open_in_flight"]
    assert load.command(S, "open", 15_000, points)["in_flight"] == load.command(S, "open", 15_000, points)[
        "connections"] == 6


def test_the_rate_at_a_cpu_share_is_interpolated():
    shares = [(1000, 0.2), (2000, 0.6), (3000, 1.0)]
    assert load.cpu_rate(shares, 0.8) == pytest.approx(2500)
    assert load.cpu_rate(shares, 0.1) == 1000
    assert load.cpu_rate(shares[:2], 0.8) is None


def test_percentiles_from_a_histogram_or_from_raw_samples():
    encoded = answer("closed", 1, 1000, [1000 * i for i in range(1, 101)])
    raw = {"latency_samples_ns": [1000 * i for i in range(1, 101)]}
    for given in (encoded, raw):
        found = load_fold.percentiles(given, "latency")
        assert found["p50"] == pytest.approx(50, rel=0.01) and found["p99"] == pytest.approx(99, rel=0.01)
        assert found["count"] == 100
    assert load_fold.percentiles({}, "latency") is None


def test_guards():
    rep = {"client_cpu_us_before": 0, "client_cpu_us_after": 950_000, "server_cpu_us_before": 0,
           "server_cpu_us_after": 400_000, "wall_us_before": 0, "wall_us_after": 1_000_000}
    shares = load_fold.cpu_shares(rep)
    assert shares["client"] == pytest.approx(0.95) and shares["server"] == pytest.approx(0.4)
    # over the time the load ran, not the seconds its connections took to open
    slow_open = rep | {"wall_us_after": 9_000_000}
    assert load_fold.cpu_shares(slow_open, 1000)["server"] == pytest.approx(0.4)
    assert load_fold.cpu_shares(slow_open)["server"] == pytest.approx(0.4 / 9)
    # a client at 95% of its one CPU is the bottleneck, whatever the server does
    assert "client-bound" in load_fold.guards(answer("closed", 1, 10_000, [100_000] * 10), shares, 1)
    assert "client-bound" not in load_fold.guards(answer("closed", 1, 10_000, [100_000] * 10), shares, 2)
    # a client that ran 60% of the time and waited for its CPU another 35% (another process had it) is as short
    starved = load_fold.cpu_shares(rep | {"client_cpu_us_after": 600_000, "client_wait_us_before": 0,
                                          "client_wait_us_after": 350_000})
    assert starved["client_waiting"] == pytest.approx(0.35)
    assert "client-bound" in load_fold.guards(answer("closed", 1, 10_000, [100_000] * 10), starved, 1)
    # Little's law: 8 in flight at 10,000/s and 800 µs each holds; at 100 µs each it cannot
    assert "little" not in load_fold.guards(answer("closed", 8, 10_000, [800_000] * 10), None, 1)
    assert "little" in load_fold.guards(answer("closed", 8, 10_000, [100_000] * 10), None, 1)
    assert load_fold.guards(answer("open", 64, 5_000, [1] * 10, offered=10_000, dropped=200), None, 1) == [
        "under-offered", "dropped"]
    assert load_fold.guards(answer("open", 64, 10_000, [1] * 10, offered=10_000, dropped=2), None, 1) == []


def test_a_point_record():
    rep = {"client_cpu_us_before": 0, "client_cpu_us_after": 300_000, "server_cpu_us_before": 0,
           "server_cpu_us_after": 500_000, "wall_us_before": 0, "wall_us_after": 1_000_000}
    rec = load_fold.point_record({}, "ping@open-10000", answer("open", 64, 10_000, [200_000] * 10, offered=10_000),
                                 rep, 1)
    assert rec["kind"] == "load" and rec["status"] == "pass"
    assert rec["point"] == {"mode": "open", "number": 10_000}
    assert rec["cpu_us_per_call"]["server"] == pytest.approx(50)  # half a CPU over 10,000 calls a second
    assert rec["latency_us"]["p99"] == pytest.approx(200, rel=0.01) and rec["guards"] == []
    missing = load_fold.point_record({}, "ping@closed-1", None, rep, 1)
    assert missing["status"] == "error"


def test_the_report_gives_each_cell_its_knee_overload_and_points():
    from types import SimpleNamespace

    from analysis.report import markdown
    from analysis.report.sections import load as section

    def rec(name, answer_, server_share=0.5):
        rep = {"client_cpu_us_before": 0, "client_cpu_us_after": 200_000, "server_cpu_us_before": 0,
               "server_cpu_us_after": int(server_share * 1e6), "wall_us_before": 0, "wall_us_after": 1_000_000}
        base = {"protocol": "rawtcp", "cell": "rawtcp/python→python", "client": "python", "workload": name,
                "status": None, "reason": "", "rss_kb": {"server_peak": 40_960}}
        return load_fold.point_record(base, name, answer_, rep, 1)

    recs = [rec("ping@closed-1", answer("closed", 1, 10_000, [100_000] * 100)),
            rec("ping@closed-4", answer("closed", 4, 20_000, [200_000] * 100)),
            rec("ping@open-10000", answer("open", 64, 10_000, [300_000] * 100, offered=10_000), 0.4),
            rec("ping@open-20000", answer("open", 64, 15_000, [5_000_000] * 100, offered=20_000), 1.0),
            rec("ping@overload-20000", answer("open", 64, 12_000, [9_000_000] * 100, offered=20_000, errors=3), 1.0),
            rec("ping@recovery-1", answer("closed", 1, 9_000, [120_000] * 100))]
    driver = {"client": "java", "client_cpu_us_per_call": 11.5, "point": "rawtcp/java→java ping@closed-4"}
    cells = [{"name": "rawtcp/python→python"}, {"name": "rawtcp/java→python", "driver": driver}]
    ctx = SimpleNamespace(run={"profile": {"load": {"closed": [1, 4], "open_fractions": [0.5, 1.0]}}},
                          load_points=recs, figures=SimpleNamespace(cells=cells))
    text = markdown.render(section.load_points(ctx))
    assert "own language" in text and "11.5 µs" in markdown_of(section.driver_text(ctx, "rawtcp/java→python"))
    knee_row = next(line for line in text.splitlines() if line.startswith("| `rawtcp/python→python`"))
    assert "20,000/s" in knee_row and "10,000/s" in knee_row  # best closed loop, knee
    assert "×1.20" in knee_row and "3 errors" in knee_row  # recovery against one call at a time; overload's errors
    assert "rate at 80% server CPU" in text and "16,667/s" in knee_row  # 0.4 at 10,000/s, 1.0 at 20,000/s
    assert "under-offered" in text  # 15,000 of 20,000
    assert section.summary_line(ctx) == "6 points over 1 cells, 2 guarded"


def test_overload_joins_the_survival_matrix():
    from analysis import battery

    def rec(name, answer_, peak_kb):
        base = {"protocol": "rawtcp", "server": "python", "cell": "rawtcp/python→python", "client": "python",
                "client_language": "python", "server_language": "python", "workload": name, "status": None,
                "reason": "", "rss_kb": {"server_peak": peak_kb}}
        return load_fold.point_record(base, name, answer_, None, 1)

    def run(overload, recovery_ns, overload_peak_kb=40_960):
        return [rec("ping@closed-1", answer("closed", 1, 10_000, [100_000] * 100), 40_960),
                rec("ping@open-5000", answer("open", 4, 5_000, [150_000] * 100, offered=5_000), 45_000),
                rec("ping@overload-20000", overload, overload_peak_kb),
                rec("ping@recovery-1", answer("closed", 1, 9_000, [recovery_ns] * 100), 40_960)]

    served = answer("open", 64, 12_000, [9_000_000] * 100, offered=20_000)
    [line] = battery.overload_lines(run(served, 120_000))
    assert (line["attack"], line["protocol"], line["server"], line["outcome"]) == ("overload", "rawtcp", "python",
                                                                                   "served")
    assert line["served_after"] is True and line["rss_before_kb"] == 45_000  # 120 µs against 100 µs: within 2x
    assert markdown_of(battery.verdict(line)).strip() == "served"  # a survived outcome, not in bold
    refused = answer("open", 64, 12_000, [9_000_000] * 100, offered=20_000, errors=3)
    assert battery.overload_lines(run(refused, 120_000))[0]["outcome"] == "refused"
    # calls lost, slow after, memory grown by 100 MiB: each shown as the battery shows an attack's harm
    hung = answer("open", 64, 12_000, [9_000_000] * 100, offered=20_000, hung=5)
    [bad] = battery.overload_lines(run(hung, 500_000, 45_000 + 100 * 1024))
    assert bad["outcome"] == "hung" and bad["served_after"] is False
    shown = markdown_of(battery.verdict(bad))
    assert "**hung**" in shown and "**down after**" in shown and "**+100 MiB**" in shown
    header, rows = battery.matrix_table([line])
    assert header == ["protocol/server", "overload"]  # no sigterm column without a battery


def markdown_of(text) -> str:
    from analysis.report import markdown
    from analysis.report.blocks import Paragraph
    return markdown.render([Paragraph(text)])


def test_failed_points_are_never_planned_again_so_a_failing_cell_ends(tmp_path):
    # an open round whose commands all failed: it is not asked for again (a failing stack looped on it for minutes)
    (tmp_path / "ping@closed-1.answers.jsonl").write_text(json.dumps(answer("closed", 1, 10_000, [100_000] * 10)))
    (tmp_path / "ping@closed-4.answers.jsonl").write_text(json.dumps(answer("closed", 4, 20_000, [100_000] * 10)))
    for rate in (10_000, 20_000):
        (tmp_path / f"ping@open-{rate}.answers.jsonl").write_text('{"ok": false, "error": "ORB has shut down"}\n')
    points = load.answers(tmp_path)
    assert points["ping@open-10000"] == {"mode": "open", "failed": True}
    assert load.knee(points, S)["rate"] is None
    assert load.next_round(points, S) == [("overload", 40_000), ("recovery", 1)]
    for name in ("ping@overload-40000", "ping@recovery-1"):
        (tmp_path / f"{name}.answers.jsonl").write_text('{"ok": false, "error": "ORB has shut down"}\n')
    assert load.next_round(load.answers(tmp_path), S) == []


def test_each_server_meets_its_protocols_fastest_client():
    from conductor import cells

    def rec(cell, client, cpu, mode="closed", errors=0):
        return {"kind": "load", "status": "pass", "protocol": cell.split("/")[0], "cell": cell, "client": client,
                "workload": f"ping@{mode}-4", "point": {"mode": mode, "number": 4}, "load": {"errors": errors},
                "cpu_us_per_call": {"client": cpu, "server": 5.0}}

    recs = [rec("grpc/java→java", "java", 30.0), rec("grpc/java→java", "java", 12.0),
            rec("grpc/python→python", "python", 8.0, errors=2),  # a point with errors ranks nothing
            rec("grpc/python→python", "python", 6.0, mode="open"),  # nor an open-loop one (its rate was given)
            rec("grpc/node→node", "node", 20.0), rec("rmi/java→java", "java", 9.0)]
    fastest = load.fastest_clients(recs)
    assert fastest["grpc"] == {"client": "java", "client_cpu_us_per_call": 12.0,
                               "point": "grpc/java→java ping@closed-4"}

    def cell(client, server, protocol="grpc", **more):
        return {"name": f"{protocol}/{client}→{server}", "protocol": protocol, "client": client,
                "server": server} | more

    chosen = [cell("java", "java"), cell("python", "python"), cell("node", "node", unsupported="no library"),
              cell("java", "java", "rmi")]
    every = chosen + [cell("java", "python"), cell("java", "node"), cell("python", "java"),
                      cell("java", "dotnet")]  # dotnet's server was not in the run
    rivals = cells.rival_cells(chosen, every, fastest, 1)
    # python's server meets java's client; node's cannot run; java's own pair ran; rmi's fastest is its own
    assert [c["name"] for c in rivals] == ["grpc/java→python"]
    assert rivals[0]["rival"] == 1 and rivals[0]["driver"]["client"] == "java"


def test_a_server_beyond_the_bound_at_every_fraction_is_tried_at_halves_of_the_lowest_then_refined():
    s = load.settings({"load": {"closed": [1], "open_fractions": [0.5, 1.0], "refine": 1, "descend": 3,
                                "descend_min_calls": 200, "duration_ms": 1000}})
    points = {"ping@closed-1": point("closed", 1, 2_000, [1_000_000] * 100)}  # bound: 10 x 1 ms
    assert load.next_round(points, s) == [("open", 1_000), ("open", 2_000)]
    for rate in (1_000, 2_000):
        points[f"ping@open-{rate}"] = point("open", 8, rate, [15_000_000] * 100, offered=rate)
    assert load.knee(points, s)["rate"] is None
    # halves of the lowest, none under 200 calls in the point's second: 500, 250, then 200
    assert load.descents(points, s) == [500, 250, 200]
    assert load.next_round(points, s) == [("open", 500)]
    points["ping@open-500"] = point("open", 4, 500, [12_000_000] * 100, offered=500)
    assert load.next_round(points, s) == [("open", 250)]
    points["ping@open-250"] = point("open", 4, 250, [3_000_000] * 100, offered=250)
    found = load.knee(points, s)
    assert (found["rate"], found["beyond"]) == (250, 500)
    # a knee found: the descent stops, refine halves the gap once, then overload at twice the knee
    assert load.next_round(points, s) == [("open", 375)]
    points["ping@open-375"] = point("open", 4, 375, [4_000_000] * 100, offered=375)
    assert load.next_round(points, s) == [("overload", 750), ("recovery", 1)]


def test_a_descent_ends_at_its_least_rate_without_a_knee():
    s = load.settings({"load": {"closed": [1], "open_fractions": [1.0], "descend": 3, "descend_min_calls": 200,
                                "duration_ms": 1000}})
    points = {"ping@closed-1": point("closed", 1, 300, [1_000_000] * 100),
              "ping@open-300": point("open", 4, 300, [50_000_000] * 100, offered=300)}
    assert load.descents(points, s) == [200]
    assert load.next_round(points, s) == [("open", 200)]
    points["ping@open-200"] = point("open", 4, 200, [50_000_000] * 100, offered=200)
    # no knee: overload at twice the closed loop's best
    assert load.next_round(points, s) == [("overload", 600), ("recovery", 1)]
