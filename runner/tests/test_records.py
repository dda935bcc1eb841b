"""Records: a step's facts folded into one final record per (cell, workload, pass), stored without the
run's environment and joined with it on load; runs of schema 2 (embedded environment, duplicates) still
read; publishing and resuming either format. The steps' files are written here as the shell and the conductor
write them (runner/FACTS.md)."""
import gzip
import json
from pathlib import Path

import pytest

from analysis import publish, records
from conductor import facts as facts_mod
from conductor import fold, plan, resume
from test_analysis import _git_tree

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "results" / "published" / "20261123T082130Z-default"
CELL = {"name": "echo/alpha→beta", "slug": "echo__alpha-to-beta", "protocol": "echo", "server": "beta",
        "client": "alpha", "server_language": "fake", "client_language": "fake", "server_library": "fakelib 2",
        "server_thread_model": "a thread per connection", "client_thread_model": "blocking",
        "server_argv": ["python3", "fake.py", "server"], "client_argv": ["python3", "fake.py", "client"]}
ENV = {"run": {"run_id": "r", "profile": {"name": "smoke"}, "cpu_model": "cpu"},
       "versions": {"fake": {"fake": "2.0"}}}


def _wire(n: int) -> dict:
    return {"bytes_c2s": 100 * n, "bytes_s2c": 200 * n, "packets_c2s": 2 * n, "packets_s2c": 2 * n}


def write_facts(folder: Path, *facts: dict) -> None:
    """Facts appended to folder/facts.tsv as the shell's `fact` and facts.write append them."""
    with open(folder / facts_mod.FACTS, "a", encoding="utf-8") as f:
        for fact in facts:
            fields = [f"{k}={facts_mod._text(v)}" for k, v in fact.items() if k not in ("time", "kind")]
            f.write("\t".join([fact.get("time", "2026-01-01T00:00:00Z"), fact["kind"], *fields]) + "\n")


def _timed(cell_dir: Path, name: str, calls: list[int], jit: dict | None = None) -> None:
    """A timed workload as the shell's timed window leaves it: its repetitions (each side's cgroup CPU around
    each) and the snapshots before and after them (connections accepted, TIME_WAIT, JIT ticks, the groups)."""
    (cell_dir / f"{name}.repetitions.tsv").write_text("".join(f"{n}\t0\t0\t\t{2 * n}\t{3 * n}\t\n" for n in calls))
    jit = jit or {}
    for when, jit_ticks in (("before", 0), ("after", 1)):
        text = ["## snmp server", "Tcp: RtoAlgorithm PassiveOpens", "Tcp: 1 5",
                "## sockstat client", "TCP: inuse 1 orphan 0 tw 0 alloc 2 mem 1",
                "## sockstat server", "TCP: inuse 1 orphan 0 tw 1 alloc 2 mem 1"]
        for role in ("client", "server"):
            text += [f"## jit {role}"] + ([str(jit[role] * jit_ticks)] if role in jit else [])
        text += ["## group client", "1 1024 2048 3", "## group server", "1 1024 2048 3"]
        (cell_dir / f"{name}.window.{when}").write_text("\n".join(text) + "\n")


def _snapshot(wire: dict, segments: dict | None = None, retransmitted: dict | None = None,
              resent: dict | None = None) -> str:
    """A counting pass's snapshot as the shell's wire_snapshot takes it, from the counters it should read as."""
    out = ["## dev", f"rpcm1c: {wire['bytes_s2c']} {wire['packets_s2c']} 0 0 0 0 0 0 {wire['bytes_c2s']} "
                     f"{wire['packets_c2s']} 0 0 0 0 0 0"]
    for d in ("c2s", "s2c") if segments else ():
        empty, data, payload = segments[f"empty_segments_{d}"], segments[f"data_segments_{d}"], segments[f"payload_{d}"]
        out += [f"## nft {d}",
                f'tcp doff 5 ip length 40 counter packets {empty} bytes {40 * empty} comment "{d} empty 5"',
                f'tcp doff 5 counter packets {empty + data} bytes {payload + 40 * (empty + data)} comment "{d} all 5"']
    for role, d in (("client", "c2s"), ("server", "s2c")) if retransmitted else ():
        out += [f"## snmp {role}", "Tcp: ActiveOpens RetransSegs", f"Tcp: 0 {retransmitted[f'retransmitted_{d}']}"]
    for d in ("c2s", "s2c") if resent is not None else ():
        out += [f"## ss {d}"] + [f"ESTAB 0 0 {key.split()[0]} {key.split()[1]} bytes_retrans:{n}"
                                 for key, n in resent[d].items()]
    return "\n".join(out) + "\n"


def _counted(cell_dir: Path, name: str, answer: dict, before: str, after: str) -> None:
    """A workload's counting pass: its snapshots and the client's answer."""
    (cell_dir / "wire").mkdir(exist_ok=True)
    (cell_dir / "wire" / f"{name}.before").write_text(before)
    (cell_dir / "wire" / f"{name}.after").write_text(after)
    (cell_dir / "wire" / f"{name}.answer").write_text(json.dumps(answer) + "\n")


def _run_with_a_cell(tmp_path: Path) -> tuple[Path, Path]:
    """A run folder with one cell's pass as the shell leaves it at the cell's end: answers, samples and
    facts (its vectors, ping timed, echoInt32 failed, the cell's end), and its server's exit noted."""
    run = tmp_path / "20260101T000000Z-smoke"
    (run / "plan").mkdir(parents=True)
    (run / "plan" / "profile.json").write_text(json.dumps(plan.resolve("smoke", {})))
    (run / "plan" / "echo.tsv").write_text("ping small 1 2 2 0 2\nechoInt32 small 1 2 2 0 2\n")
    (run / "env.json").write_text(json.dumps(ENV))
    (run / "cells.jsonl").write_text(json.dumps(CELL, ensure_ascii=False) + "\n")
    cell_dir = run / "cells" / CELL["slug"] / "pass1"
    cell_dir.mkdir(parents=True)
    (cell_dir.parent / "cell.json").write_text(json.dumps(CELL, ensure_ascii=False))
    (cell_dir / "server.out").write_text('{"ready": true, "port": 1, "facts": {"fake": "echo"}}\n')
    (cell_dir / "connect.json").write_text(json.dumps({"ok": True, "instantiation_ns": 5000,
                                                       "processes": {"client": "new", "server": "new"}}))
    (cell_dir / "vectors.json").write_text(json.dumps({"results": [{"id": "v", "status": "pass"}]}))
    with gzip.open(cell_dir / "ping.samples.json.gz", "wt") as f:  # compressed before the fold, as run_cell does
        f.write(json.dumps({"samples_ns": [[1000, 2000], [1500, 2500]]}))
    _counted(cell_dir, "ping", {"ok": True, "calls": 2}, _snapshot(_wire(1)), _snapshot(_wire(3)))
    _timed(cell_dir, "ping", [2, 2])
    write_facts(cell_dir, {"time": "2026-01-01T00:00:01Z", "kind": "vectors", "pass": 1},
                {"time": "2026-01-01T00:00:02Z", "kind": "workload", "pass": 1, "workload": "ping", "size": "small",
                 "warmup": 1, "calls": 2, "repetitions": 2, "min_ms": 0},
                {"kind": "status", "pass": 1, "status": "fail", "reason": "differs", "from": "echoInt32", "only": True})
    (run / "server_exits.tsv").write_text(f"1\t{CELL['name']}\t137\n")
    return run, cell_dir


def _end(cell_dir: Path, **more) -> None:
    """The cell's end, as the conductor writes it."""
    write_facts(cell_dir, {"kind": "cell_end", "pass": 1, "steal_ticks": 0, "calibration_ns": 123, **more})


def end_cell(run: Path, cell_dir: Path, **more) -> tuple[int, str]:
    _end(cell_dir, **more)
    return fold.end_cell(run, cell_dir)


def _stored_lines(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "results.jsonl").read_text(encoding="utf-8").splitlines()]


def test_a_cells_facts_fold_into_one_record_per_workload_without_the_environment(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    work, summary = end_cell(run, cell_dir)
    assert work > 0 and summary == "pass: 1 pass; 1/2 workloads timed"
    lines = _stored_lines(run)
    assert [(r["cell"], r["workload"], r["pass"]) for r in lines] == [
        (CELL["name"], "vectors", 1), (CELL["name"], "ping", 1), (CELL["name"], "echoInt32", 1)]
    assert all(r["schema"] == 3 and r["run_id"] == run.name and "env" not in r for r in lines)
    assert all("server_exit_status" not in r for r in lines)  # joined on load, from server_exits.tsv
    vectors, ping, echo = lines
    assert vectors["time"] == "2026-01-01T00:00:01Z" and vectors["facts"] == {"server": {"fake": "echo"}}
    assert ping["status"] == "pass" and ping["calls"] == 4 and ping["rtt_us"]["p50"] > 0
    assert ping["cpu_us_per_call"]["client"] == 2 and ping["cpu_us_per_call"]["server"] == 3
    assert ping["rss_kb"] == {"client_peak": 2048, "server_peak": 2048, "client_after": 1024, "server_after": 1024}
    assert ping["wire_per_call"] == {"connections": 0.0, "bytes_c2s": 100.0, "bytes_s2c": 200.0, "packets_c2s": 2.0,
                                     "packets_s2c": 2.0, "counted_calls": 2}
    assert ping["time_wait"] == {"client": 0, "server": 1} and ping["calibration_ns"] == 123
    assert echo["status"] == "fail" and echo["reason"] == "differs" and echo["steal_ms"] == 0


def test_the_counting_pass_segments_fold_into_payload_and_bare_segments_per_call(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    segments = {"payload_c2s": 40, "payload_s2c": 90, "data_segments_c2s": 4, "data_segments_s2c": 6,
                "empty_segments_c2s": 1, "empty_segments_s2c": 3}
    _counted(cell_dir, "ping", {"ok": True, "calls": 2},
             _snapshot(_wire(1), {k: 1 for k in segments}, {"retransmitted_c2s": 7, "retransmitted_s2c": 46}),
             _snapshot(_wire(3), {k: v + 1 for k, v in segments.items()},
                       {"retransmitted_c2s": 7, "retransmitted_s2c": 49}))
    end_cell(run, cell_dir)
    ping = next(r for r in _stored_lines(run) if r["workload"] == "ping")
    assert {k: ping["wire_per_call"][k] for k in segments} == {k: v / 2 for k, v in segments.items()}
    # the resends over the same calls, per call: their bytes are in the payload
    assert ping["wire_per_call"]["retransmitted_c2s"] == 0 and ping["wire_per_call"]["retransmitted_s2c"] == 1.5
    assert ping["wire_per_call"]["bytes_c2s"] == 100.0  # the frames stay beside them
    assert records.bytes_per_call(ping["wire_per_call"]) == 65.0
    assert records.bytes_per_call({"bytes_c2s": 10, "bytes_s2c": 5, "packets_c2s": 1, "packets_s2c": 1}) == 15
    assert records.bytes_per_call({"connections": 0.0}) is None


def test_bytes_tcp_sent_again_come_off_the_payload_the_counters_saw_twice(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    segments = {"payload_c2s": 400, "payload_s2c": 2_100_000, "data_segments_c2s": 4, "data_segments_s2c": 1460,
                "empty_segments_c2s": 700, "empty_segments_s2c": 3}
    # the server resent 40 segments (57,920 bytes) on its connection, a closed connection's count is gone, a
    # connection of another cell resent nothing in between, and the client's sockets none
    a, b = "198.18.0.2:1", "198.18.0.1"
    before = {"c2s": {}, "s2c": {f"{a} {b}:2": 1448, f"{a} {b}:9": 5000, f"{a} {b}:3": 100}}
    after = {"c2s": {}, "s2c": {f"{a} {b}:2": 1448 + 57_920, f"{a} {b}:3": 100}}
    _counted(cell_dir, "ping", {"ok": True, "calls": 2},
             _snapshot(_wire(1), {k: 0 for k in segments}, {"retransmitted_c2s": 0, "retransmitted_s2c": 0}, before),
             _snapshot(_wire(3), segments, {"retransmitted_c2s": 0, "retransmitted_s2c": 40}, after))
    end_cell(run, cell_dir)
    wire = next(r for r in _stored_lines(run) if r["workload"] == "ping")["wire_per_call"]
    assert wire["payload_s2c"] == (2_100_000 - 57_920) / 2 and wire["resent_payload_s2c"] == 57_920 / 2
    assert wire["payload_c2s"] == 200 and wire["resent_payload_c2s"] == 0
    assert wire["data_segments_s2c"] == 1460 / 2 and wire["retransmitted_s2c"] == 40 / 2  # copies counted
    # without the connections' counts (no ss), the payload stays as counted
    line = {"calls": 2, "before": _wire(1), "after": _wire(3), "segments_before": {k: 0 for k in segments},
            "segments_after": segments, "resent_bytes_before": before, "resent_bytes_after": None}
    assert fold._wire_counts_line(line)["payload_s2c"] == 2_100_000 / 2


def test_bytes_the_clients_library_sent_on_its_own_come_off_the_payload_apart(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    segments = {"payload_c2s": 12_000, "payload_s2c": 9_000, "data_segments_c2s": 40, "data_segments_s2c": 30,
                "empty_segments_c2s": 1, "empty_segments_s2c": 1}
    line = {"workload": "ping", "calls": 10, "before": _wire(1), "after": _wire(3),
            "segments_before": {k: 0 for k in segments}, "segments_after": segments,
            # RMI's distributed GC cleaned references during the count: 1,500 bytes out, 300 back
            "answer": {"ok": True, "calls": 10, "background": {"c2s": 1_500, "s2c": 300}}}
    _counted(cell_dir, "ping", line["answer"], _snapshot(_wire(1), line["segments_before"]),
             _snapshot(_wire(3), segments))
    end_cell(run, cell_dir)
    wire = next(r for r in _stored_lines(run) if r["workload"] == "ping")["wire_per_call"]
    assert wire["payload_c2s"] == 1_050 and wire["background_payload_c2s"] == 150
    assert wire["payload_s2c"] == 870 and wire["background_payload_s2c"] == 30
    # a client that counts nothing apart (no background in its answer) leaves the payload as counted
    line["answer"] = {"ok": True, "calls": 10}
    assert fold._wire_counts_line(line)["payload_c2s"] == 1_200
    assert "background_payload_c2s" not in fold._wire_counts_line(line)


def _with_floor_before_the_group(run: Path, cell_dir: Path, floor_facts: list[dict], samples: list | None) -> None:
    """The floor taken before the cell's server group, and the cell's end naming its folder."""
    folder = run / "floor" / "pass1" / "before-echo__alpha-to-beta"
    folder.mkdir(parents=True)
    write_facts(folder, *floor_facts)
    if samples is not None:
        (folder / "ping.samples.json").write_text(json.dumps({"samples_ns": samples}))
    _end(cell_dir, floor="floor/pass1/before-echo__alpha-to-beta")


def test_the_timed_records_carry_the_floor_taken_before_their_server_group(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    _with_floor_before_the_group(run, cell_dir, [{"kind": "adjacent_floor", "pass": 1}],
                                 [[30_000, 40_000, 50_000], [20_000, 40_000, 60_000]])
    fold.end_cell(run, cell_dir)
    by_workload = {r["workload"]: r for r in _stored_lines(run)}
    floor = by_workload["ping"]["floor_us"]
    assert floor["folder"] == "floor/pass1/before-echo__alpha-to-beta"
    assert floor["min"] == 20.0 and 39.0 < floor["p50"] < 41.0
    assert "floor_us" not in by_workload["vectors"] and "floor_us" not in by_workload["echoInt32"]


def test_a_floor_carries_the_p50_of_its_fastest_repetition(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    _with_floor_before_the_group(run, cell_dir, [{"kind": "adjacent_floor", "pass": 1}],
                                 [[24_000, 25_000, 26_000], [19_000, 20_000, 21_000], [23_000, 24_000, 25_000]])
    fold.end_cell(run, cell_dir)
    floor = next(r for r in _stored_lines(run) if r["workload"] == "ping")["floor_us"]
    assert floor["fastest_repetition_p50"] == 20.0 and 23.0 < floor["p50"] < 25.0


def test_the_timed_records_carry_the_floor_taken_right_after_their_cell(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    _with_floor_before_the_group(run, cell_dir, [{"kind": "adjacent_floor", "pass": 1}], [[40_000, 40_000]])
    after = run / "floor" / "pass1" / "after-echo__alpha-to-beta"
    after.mkdir(parents=True)
    write_facts(after, {"kind": "adjacent_floor", "pass": 1})
    (after / "ping.samples.json").write_text(json.dumps({"samples_ns": [[19_000, 20_000, 21_000]]}))
    write_facts(cell_dir, {"kind": "floor_after", "pass": 1, "floor": "floor/pass1/after-echo__alpha-to-beta"})
    fold.end_cell(run, cell_dir)
    by_workload = {r["workload"]: r for r in _stored_lines(run)}
    assert by_workload["ping"]["floor_after_us"]["folder"] == "floor/pass1/after-echo__alpha-to-beta"
    assert 19.9 < by_workload["ping"]["floor_after_us"]["p50"] < 20.1
    assert by_workload["ping"]["floor_after_us"]["fastest_repetition_p50"] == 20.0
    assert 39.9 < by_workload["ping"]["floor_us"]["p50"] < 40.1
    assert "floor_after_us" not in by_workload["vectors"]


def test_a_floor_that_failed_before_the_group_is_carried_as_its_error(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    _with_floor_before_the_group(run, cell_dir, [{"kind": "adjacent_floor", "pass": 1, "error": "the floor failed"}],
                                 None)
    fold.end_cell(run, cell_dir)
    ping = next(r for r in _stored_lines(run) if r["workload"] == "ping")
    assert ping["floor_us"] == {"folder": "floor/pass1/before-echo__alpha-to-beta", "error": "the floor failed"}


def test_the_warm_up_answers_say_whether_a_workload_got_steady(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    answer = {"ok": True, "checked": 6, "batches": 3, "steady": True, "elapsed_ms": 12, "batch_medians_ns": [1, 1, 1]}
    (cell_dir / "warmup.jsonl").write_text("".join(
        json.dumps({"workload": w, "answer": dict(answer, steady=w == "ping")}) + "\n" for w in ("echoInt32", "ping")))
    end_cell(run, cell_dir)
    ping = next(r for r in _stored_lines(run) if r["workload"] == "ping")
    assert ping["warmup_steady"] == {"steady": True, "batches": 3, "elapsed_ms": 12, "checked": 6}


def test_a_kept_process_s_steady_state_is_its_warm_phase_s_full_round_and_the_cell_s_re_warm_comes_beside(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    full = {"ok": True, "checked": 800, "batches": 4, "steady": True, "elapsed_ms": 900}
    short = {"ok": True, "checked": 50, "batches": 5, "steady": False, "elapsed_ms": 250}
    (cell_dir / "warm-phase.jsonl").write_text("".join(
        json.dumps({"workload": "ping", "answer": dict(full, batches=b)}) + "\n" for b in (9, 4)))
    (cell_dir / "warmup.jsonl").write_text(json.dumps({"workload": "ping", "answer": short, "rewarm": True}) + "\n")
    end_cell(run, cell_dir)
    ping = next(r for r in _stored_lines(run) if r["workload"] == "ping")
    # the last full round counts for the steady state (⌛ when it did not get there); the short re-warm's
    # bound cuts it off often and says nothing against the state the full rounds reached
    assert ping["warmup_steady"] == {"steady": True, "batches": 4, "elapsed_ms": 900, "checked": 800,
                                     "rewarm": {"steady": False, "batches": 5, "elapsed_ms": 250, "checked": 50}}
    # a full round of the cell's own (a process new to the cell) comes after the warm phase's and counts
    (cell_dir / "warmup.jsonl").write_text(json.dumps({"workload": "ping", "answer": dict(full, steady=False)}) + "\n")
    assert fold._steady(cell_dir, "ping") == {"steady": False, "batches": 4, "elapsed_ms": 900, "checked": 800}


def test_the_timed_records_carry_the_warm_up_of_their_processes_and_the_jit_s_cpu_while_timed(tmp_path, monkeypatch):
    run, cell_dir = _run_with_a_cell(tmp_path)
    warm = {"kind": "warm", "pass": 1, "seconds": 40, "client": {"jit": False},
            "server": {"jit": True, "ended": "quiet", "share": 0.01, "window_ms": 5200, "warm_s": 31}}
    write_facts(cell_dir, warm)
    # the server's compiler threads took 2 ticks (20 ms at 100 a second) over ping's repetitions, in which its
    # cgroup used 12 µs
    _timed(cell_dir, "ping", [2, 2], jit={"server": 2})
    monkeypatch.setattr(fold, "CLOCK_TICKS", 100)
    end_cell(run, cell_dir)
    by_workload = {r["workload"]: r for r in _stored_lines(run)}
    ping = by_workload["ping"]
    assert ping["warm_phase"] == {k: warm[k] for k in ("seconds", "server", "client")}
    assert ping["jit_cpu"] == {"server_ms": 20.0, "server_share": 1.0}  # no more than all of the side's CPU
    assert "warm_phase" not in by_workload["vectors"] and "warm_phase" not in by_workload["echoInt32"]
    # a run whose facts have neither (no JIT, or an earlier run) folds as before
    run2, cell_dir2 = _run_with_a_cell(tmp_path / "plain")
    end_cell(run2, cell_dir2)
    ping = next(r for r in _stored_lines(run2) if r["workload"] == "ping")
    assert "warm_phase" not in ping and "jit_cpu" not in ping


def test_load_joins_the_environment_and_the_servers_exit(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    end_cell(run, cell_dir)
    recs = {r["workload"]: r for r in records.load(run)}
    env = recs["ping"]["env"]
    assert env["cpu_model"] == "cpu" and env["profile"] == {"name": "smoke"}
    assert env["server"] == {"implementation": "beta", "language": "fake", "library": "fakelib 2", "settings": None,
                             "thread_model": "a thread per connection", "argv": ["python3", "fake.py", "server"],
                             "versions": {"fake": "2.0"}}
    assert env["client"]["thread_model"] == "blocking" and env["client"]["library"] is None
    assert recs["vectors"]["env"] is env  # one view per cell, not a copy per record
    assert all(r["server_exit_status"] == 137 for r in recs.values())
    assert "had to be killed" in recs["vectors"]["server_exit_note"] and "server_exit_note" not in recs["ping"]


def test_the_floor_and_the_handlers_fold_as_pseudo_cells(tmp_path):
    run, _ = _run_with_a_cell(tmp_path)
    floor = run / "floor" / "pass1"
    floor.mkdir(parents=True)
    (floor / "ping.samples.json").write_text(json.dumps({"samples_ns": [[900, 1100]]}))
    write_facts(floor, {"kind": "floor", "pass": 1})
    handlers = run / "handlers"
    (handlers / "fake").mkdir(parents=True)
    with gzip.open(handlers / "fake" / "ping.samples.json.gz", "wt") as f:
        f.write(json.dumps({"samples_ns": [[10, 20]]}))
    write_facts(handlers, {"kind": "handler", "language": "fake", "workload": "ping", "size": "small"},
                {"kind": "handler", "language": "fake", "workload": "stream", "size": "small", "error": "no stream"})
    fold.fold_into_results(run, floor)
    fold.fold_into_results(run, handlers)
    recs = {(r["cell"], r["workload"]): r for r in records.load(run)}
    assert recs[("floor/c→c", "ping")]["status"] == "pass"
    assert recs[("floor/c→c", "ping")]["env"]["server"]["library"] == "runner/floor/floor.c"
    assert recs[("handler/fake", "ping")]["env"]["server"]["versions"] == {"fake": "2.0"}
    assert recs[("handler/fake", "stream")]["reason"] == "handler: no stream"
    assert len(_stored_lines(run)) == 3


def test_a_later_fact_about_a_workload_replaces_the_earlier_record(tmp_path):
    # the metadata check failed after the vectors: the vectors record stays, the workloads are marked
    run, cell_dir = _run_with_a_cell(tmp_path)
    (cell_dir / facts_mod.FACTS).unlink()
    write_facts(cell_dir, {"kind": "vectors", "pass": 1},
                {"kind": "status", "pass": 1, "status": "error", "reason": "gone", "from": "workloads"},
                {"kind": "status", "pass": 1, "status": "timeout", "reason": "hangs", "from": "echoInt32"})
    recs = fold.fold(run, cell_dir)
    assert [(r["workload"], r["status"]) for r in recs] == [("vectors", "pass"), ("ping", "error"),
                                                            ("echoInt32", "timeout")]


def test_a_run_killed_before_the_fold_has_none_of_the_cells_records_and_resume_drops_its_exit(tmp_path):
    root, _ = _git_tree(tmp_path)
    run, cell_dir = _run_with_a_cell(tmp_path)
    env = json.loads((run / "env.json").read_text())
    env["run"].update(resume.environment.code_state(root), profile={"name": "smoke", "passes": 1})
    (run / "env.json").write_text(json.dumps(env))
    assert not (run / "results.jsonl").exists() and records.load(run) == []
    resume.trim(run)  # the journal lists no finished step
    assert (run / "server_exits.tsv").read_text() == "" and not cell_dir.exists()


def test_a_torn_last_line_is_skipped(tmp_path):
    run, cell_dir = _run_with_a_cell(tmp_path)
    end_cell(run, cell_dir)
    with open(run / "results.jsonl", "a", encoding="utf-8") as f:
        f.write('{"cell": "echo/alpha→beta", "workl')
    assert len(records.load(run)) == 3


# -- schema 2: the environment in every record, a cell's records appended again as facts arrived ----------

def _schema2_run(tmp_path: Path) -> tuple[Path, list[dict]]:
    run = tmp_path / "20250101T000000Z-old"
    run.mkdir()
    (run / "env.json").write_text(json.dumps(ENV))
    (run / "cells.jsonl").write_text(json.dumps(CELL, ensure_ascii=False) + "\n")
    side = {"implementation": "beta", "language": "fake", "library": "fakelib 2", "settings": None,
            "thread_model": "a thread per connection", "argv": CELL["server_argv"], "versions": {"fake": "2.0"}}
    embedded = {**ENV["run"], "server": side, "client": {**side, "implementation": "alpha"}}
    base = {"schema": 2, "run_id": run.name, "pass": 1, "cell": CELL["name"], "protocol": "echo", "server": "beta",
            "client": "alpha", "status": "pass", "reason": "", "env": embedded}
    lines = [dict(base, workload="vectors"), dict(base, workload="ping", calls=4),
             dict(base, workload="vectors", steal_ms=1.0), dict(base, workload="ping", calls=4, steal_ms=1.0),
             dict(base, workload="vectors", steal_ms=1.0, server_exit_status=0)]
    (run / "results.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))
    return run, lines


def test_schema_2_reads_as_the_last_record_of_each_part_with_the_environment_joined(tmp_path):
    run, lines = _schema2_run(tmp_path)
    recs = records.load(run)
    assert [(r["workload"], r.get("server_exit_status"), r.get("steal_ms")) for r in recs] == [
        ("vectors", 0, 1.0), ("ping", None, 1.0)]
    # the embedded copy gives way to the view of env.json and cells.jsonl, which holds the same
    assert recs[0]["env"]["server"] == lines[-1]["env"]["server"] and recs[0]["env"]["cpu_model"] == "cpu"
    assert recs[0]["schema"] == 2 and "env" in records.stored(run)[0]  # stored() gives them as written


@pytest.mark.skipif(not PUBLISHED.exists(), reason="the published run is not in this checkout")
def test_a_published_schema_2_run_reads_as_it_was_stored():
    # results.jsonl.gz read in place; each (cell, workload, pass) once, the last line of it; the joined
    # environment's sides equal those the record embedded
    raw: dict[tuple, dict] = {}
    with gzip.open(PUBLISHED / "results.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            raw[records.key(rec)] = rec
    recs = records.load(PUBLISHED)
    assert len(recs) == len(raw) == 1078
    for rec in recs:
        stored = raw[records.key(rec)]
        assert {k: v for k, v in rec.items() if k != "env"} == {k: v for k, v in stored.items() if k != "env"}
        assert rec["env"]["server"] == stored["env"]["server"] and rec["env"]["client"] == stored["env"]["client"]
        assert rec["env"]["git_commit"] == stored["env"]["git_commit"]


# -- publishing ----------------------------------------------------------------------------------------

def _publishable(run: Path, commit: str) -> Path:
    env = json.loads((run / "env.json").read_text())
    env["run"].update(git_commit=commit, git_dirty=False)
    (run / "env.json").write_text(json.dumps(env))
    for name in ("REPORT.md", "verdict.json", "junit.xml", "results.csv"):
        (run / name).write_text(name)
    (run / "plan").mkdir(exist_ok=True)
    return run


def test_publish_a_schema_3_run_with_what_its_records_refer_to(tmp_path):
    root, head = _git_tree(tmp_path)
    run, cell_dir = _run_with_a_cell(tmp_path)
    end_cell(run, cell_dir)
    target = publish.publish(_publishable(run, head), root, tmp_path / "pub")
    published = [json.loads(line) for line in gzip.open(target / "results.jsonl.gz", "rt", encoding="utf-8")]
    assert published == _stored_lines(run)
    assert (target / "server_exits.tsv").exists() and (target / "cells.jsonl").exists()
    assert records.load(target) == records.load(run)


def test_publish_a_schema_2_run_keeps_the_last_record_of_each_part_as_stored(tmp_path):
    root, head = _git_tree(tmp_path)
    run, lines = _schema2_run(tmp_path)
    target = publish.publish(_publishable(run, head), root, tmp_path / "pub")
    published = [json.loads(line) for line in gzip.open(target / "results.jsonl.gz", "rt", encoding="utf-8")]
    assert published == [lines[4], lines[3]]
    assert not (target / "server_exits.tsv").exists()
    assert records.load(target) == records.load(run)


def test_records_over_the_part_limit_are_published_in_parts_read_back_in_order(tmp_path):
    import random

    from analysis import publish
    rng = random.Random(3)
    # incompressible histograms, as a full run's are: about 60 KB gzipped in all
    recs = [{"cell": f"p/a→b{i % 7}", "workload": f"w{i}", "pass": 1, "histogram": rng.randbytes(300).hex()}
            for i in range(100)]
    one = tmp_path / "one"
    one.mkdir()
    assert publish.write_records(one, recs) == ["results.jsonl.gz"]
    split = tmp_path / "split"
    split.mkdir()
    names = publish.write_records(split, recs, limit=20_000)
    assert len(names) >= 2 and names == [f"results-{i:02d}.jsonl.gz" for i in range(1, len(names) + 1)]
    assert all((split / n).stat().st_size <= 20_000 for n in names)
    assert sorted(p.name for p in split.iterdir()) == names
    assert records.stored(split) == records.stored(one) == recs


def test_attacks_ran_keeps_the_attacks_order_and_the_cells_that_ran_one():
    from analysis.records import attacks_ran
    attacks = {"refuse_a": "a", "refuse_b": "b", "refuse_c": "c"}

    def vectors(*items):
        return {"vectors": [{"id": i, "status": s} for i, s in items]}
    shown, rows = attacks_ran([("p/x→y", vectors(("refuse_b", "pass"), ("ping", "pass"))),
                               ("p/y→y", vectors(("refuse_a", "unsupported"))),
                               ("p/y→x", None),
                               ("q/x→x", vectors(("refuse_a", "fail"), ("refuse_b", "pass")))], attacks)
    assert shown == ["refuse_a", "refuse_b"]  # as the attacks are listed; refuse_c ran nowhere
    assert [cell for cell, _ in rows] == ["p/x→y", "q/x→x"]  # unsupported only, or no record: no row
    assert set(rows[0][1]) == {"refuse_b"} and rows[1][1]["refuse_a"]["status"] == "fail"
