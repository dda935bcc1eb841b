"""What the shell executes, as the conductor writes it: the facts' lines (conductor/facts.py), the steps of a run
(conductor/steps.py) and a cell's timing plan (conductor/cell.py), and the client session over FIFOs the conductor
speaks (conductor/session.py) against a client that answers, fails, hangs or exits."""
import json
import os
import subprocess
import sys
from pathlib import Path

from conductor import cell, facts, plan, session, steps

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_a_fact_reads_back_typed_whoever_wrote_it(tmp_path):
    facts.write(tmp_path, "warm", **{"pass": 2, "seconds": 40, "server": {"jit": True, "share": 0.01},
                                     "client": {"jit": False}})
    facts.write(tmp_path, "status", **{"pass": 1, "status": "fail", "reason": "a\ttab and\na break", "from": "ping",
                                       "only": True, "blocked_by": None})
    # as the shell's fact writes a line: text only, an empty value absent
    with open(tmp_path / facts.FACTS, "a") as f:
        f.write("2026-01-01T00:00:00Z\tworkload\tpass=1\tworkload=ping\tsize=small\twarmup=3\tcalls=10\t"
                "repetitions=5\tmin_ms=50\n2026-01-01T00:00:01Z\tfloor\tpass=1\terror=\n")
    warm, status, workload, floor = facts.read(tmp_path)
    assert warm["kind"] == "warm" and warm["pass"] == 2 and warm["server"] == {"jit": True, "share": 0.01}
    assert status["reason"] == "a tab and a break" and status["only"] is True and "blocked_by" not in status
    assert workload == {"time": "2026-01-01T00:00:00Z", "kind": "workload", "pass": 1, "workload": "ping",
                        "size": "small", "warmup": 3, "calls": 10, "repetitions": 5, "min_ms": 50}
    assert floor == {"time": "2026-01-01T00:00:01Z", "kind": "floor", "pass": 1}


def context(tmp_path: Path, profile_name: str, cells: list[dict], keep: bool = True, finished=frozenset(),
            failed=None) -> steps.Context:
    idl = FIXTURES / "idl"
    profile = plan.resolve(profile_name, plan.load_profile(idl, profile_name)[1], seed=4)
    plan.write_plans(tmp_path, idl, profile, sorted({c["protocol"] for c in cells}))
    return steps.Context(run=tmp_path, profile=profile, cells=cells, all_cells=cells, baseline="echo",
                         host="198.18.0.2", fixed_port=0, keep_processes=keep, idl=idl, secrets=tmp_path / "secrets",
                         root=tmp_path, server_spin={"beta": 7}, finished=set(finished), failed_builds=failed or {})


def fixture_cells(protocols: str) -> list[dict]:
    from conductor import cells, manifests
    loaded = manifests.load(FIXTURES / "matrix")
    return cells.select_cells(cells.expand_cells(loaded, "echo", plan.load_registry(FIXTURES / "idl")), protocols)


def kinds(lines: list[str]) -> list[list[str]]:
    return [line.rstrip("\n").split("\t") for line in lines]


def test_a_timed_pass_warms_its_phases_then_runs_each_cell_between_its_floors(tmp_path):
    cells = fixture_cells("echo,gap")
    ctx = context(tmp_path, "smoke", cells)
    steps.write(ctx)
    lines = kinds((tmp_path / "plan" / "steps.tsv").read_text().splitlines())
    # the handlers first, then the pass's floor and its fold
    assert [s[0] for s in lines[:2]] == ["handler", "handler"] and lines[2] == ["fold", "1", "handlers", "handlers"]
    assert lines[3] == ["floor", "1", "floor/pass1", "floor"] and lines[4] == ["fold", "1", "floor/pass1", "floor"]
    assert lines[5][0] == "warm" and lines[-1] == ["retire", "*"]
    runs = [s for s in lines if s[0] == "cell"]
    assert len(runs) == sum(1 for c in cells if not c.get("unsupported"))
    declined = [e for s in lines if s[0] == "declined" for e in s[3].split(",")]
    assert len(declined) == sum(1 for c in cells if c.get("unsupported"))
    # every cell's index once, in the seeded order
    indexes = sorted([int(s[2]) for s in runs] + [int(e.split(":")[0]) for e in declined])
    assert indexes == list(range(1, len(cells) + 1))
    # a floor before each server group's first cell, and one after every timed cell; processes retire when their
    # protocol is done
    group_floor = None
    for s in lines:
        if s[0] == "floor" and s[3] == "adjacent_floor":
            group_floor = s[2]
        if s[0] == "cell":
            assert s[-1] == f"floor/pass1/after-{s[4]}"
            assert s[-2] == group_floor  # every cell of a server group refers to the floor before its first
    groups = [(s[5].split("/")[0], s[6]) for s in lines if s[0] == "cell"]
    assert len({s[-2] for s in lines if s[0] == "cell"}) == len(dict.fromkeys(groups))
    protocols = [s[5].split("/")[0] for s in lines if s[0] == "cell"]
    retired = [s[1] for s in lines if s[0] == "retire"]
    assert retired[:-1] == [p for i, p in enumerate(protocols[:-1]) if protocols[i + 1] != p]
    # each process's argv, every placeholder filled but a client's {port}; the spin goes to beta's servers
    server = (tmp_path / "plan" / "argv" / "server-echo-beta").read_bytes().split(b"\0")[:-1]
    assert server[:2] == [b"env", b"RPCMATRIX_SERVER_SPIN_US=7"] and b"198.18.0.2" in server and b"{port}" not in server
    client = (tmp_path / "plan" / "argv" / "client-echo-alpha").read_bytes().split(b"\0")[:-1]
    assert b"{port}" in client and b"{cell}" not in client
    # the warm phase starts each server and client once, and lists its cells
    phase = kinds(Path(lines[5][2]).read_text().splitlines())
    runnable = [c for c in cells if not c.get("unsupported")]
    assert [p[1] for p in phase if p[0] == "server"] == list(dict.fromkeys(steps.key("server", c) for c in runnable)) \
        or sorted(p[1] for p in phase if p[0] == "server") == sorted({steps.key("server", c) for c in runnable})
    assert sorted(p[1] for p in phase if p[0] == "client") == sorted({steps.key("client", c) for c in runnable})
    assert len([p for p in phase if p[0] == "cell"]) == len(runs)


def test_fresh_processes_retire_after_every_cell_and_a_resumed_run_skips_what_it_finished(tmp_path):
    cells = fixture_cells("echo")
    done = {(1, cells[0]["name"]), (1, "stage:floor"), (1, "stage:handlers")}
    ctx = context(tmp_path, "smoke", cells, keep=False, finished=done)
    steps.write(ctx)
    lines = kinds((tmp_path / "plan" / "steps.tsv").read_text().splitlines())
    assert not [s for s in lines if s[0] in ("warm", "handler")] and ["floor", "1", "floor/pass1", "floor"] not in lines
    runs = [i for i, s in enumerate(lines) if s[0] == "cell"]
    assert len(runs) == len(cells) - 1 and cells[0]["name"] not in [lines[i][5] for i in runs]
    assert all(lines[i + 2] == ["retire", "*"] or lines[i + 1] == ["retire", "*"] for i in runs)


def test_a_failed_build_declines_its_languages_cells_and_a_profile_with_lanes_queues_them(tmp_path):
    cells = fixture_cells("echo,gap,nope")
    ctx = context(tmp_path, "lanes", cells, failed={"beta": "beta: no compiler "})
    assert steps.declined_reason(ctx, next(c for c in cells if c["name"] == "echo/alpha→beta")) == \
        "build of beta failed: beta: no compiler "
    steps.write(ctx)
    lines = kinds((tmp_path / "plan" / "steps.tsv").read_text().splitlines())
    assert lines == [["lanes", "1", str(tmp_path / "plan" / "lanes" / "pass1")]]
    groups = sorted((tmp_path / "plan" / "lanes" / "pass1").glob("group*.tsv"))
    assert len(groups) == 3  # a group per protocol
    echo = kinds(groups[0].read_text().splitlines())  # the largest
    assert [s[5] for s in echo if s[0] == "cell"] == ["echo/alpha→alpha", "echo/alpha-fast→alpha"] or \
        {s[5] for s in echo if s[0] == "cell"} == {"echo/alpha→alpha", "echo/alpha-fast→alpha"}
    assert int((tmp_path / "plan" / "lanes" / "pass1" / "planned").read_text()) >= 0


def test_the_timing_plan_holds_each_workload_s_commands_as_the_client_reads_them():
    profile = {"count_ms": 100, "count_calls": 3000}
    name, size, warmup, calls, reps, min_ms, *commands = cell.timing_line(
        {"name": "ping", "size": "small", "warmup": 200, "calls": 10, "repetitions": 5, "min_ms": 50,
         "max_calls": 20000}, 42, profile).rstrip("\n").split("\t")
    assert (name, size, warmup, calls, reps, min_ms) == ("ping", "small", "42", "10", "5", "50")
    assert [json.loads(c) for c in commands] == [
        {"cmd": "prepare", "workload": "ping"}, {"cmd": "warmup", "workload": "ping", "calls": 42},
        {"cmd": "measure", "workload": "ping", "calls": 10, "min_ms": 50, "max_calls": 20000},
        {"cmd": "samples", "workload": "ping"},
        {"cmd": "measure", "workload": "ping", "calls": 1, "min_ms": 100, "max_calls": 3000}]


CLIENT = """
import json, sys, time
for line in sys.stdin:
    cmd = json.loads(line)["cmd"]
    if cmd == "hang":
        time.sleep(30)
    if cmd == "exit":
        sys.exit(0)
    answer = {"ok": cmd != "bad", **({"error": "no such command"} if cmd == "bad" else {"said": cmd})}
    print(json.dumps(answer), flush=True)
"""


def test_the_session_tells_an_answer_a_refusal_a_hung_client_and_a_gone_one(tmp_path):
    for fifo in ("client.in", "client.out"):
        os.mkfifo(tmp_path / fifo)
    # as the shell starts a client: its ends opened read-write while it starts, then the runner's own ends held
    hold_in = os.open(tmp_path / "client.in", os.O_RDWR)
    hold_out = os.open(tmp_path / "client.out", os.O_RDWR)
    client = subprocess.Popen([sys.executable, "-c", CLIENT], stdin=hold_in, stdout=hold_out)
    runner_in = os.open(tmp_path / "client.in", os.O_WRONLY)
    runner_out = os.open(tmp_path / "client.out", os.O_RDONLY)
    os.close(hold_in)
    os.close(hold_out)
    try:
        with session.Session(tmp_path, 5) as s:
            ok = s.call({"cmd": "ping"})
            assert ok.status == session.OK and ok.data == {"ok": True, "said": "ping"}
            bad = s.call({"cmd": "bad"})
            assert bad.status == session.FAILED and bad.error == "no such command" and not bad.lost
            hung = s.call({"cmd": "hang"}, timeout_s=0.3)
            assert hung.status == session.HUNG and hung.lost and hung.error == "client did not answer within 0.3s"
        client.kill()
        client.wait()
        with session.Session(tmp_path, 5) as s:
            gone = s.call({"cmd": "ping"})
            assert gone.status == session.GONE and gone.lost
    finally:
        client.kill()
        os.close(runner_in)
        os.close(runner_out)
