"""When a process is warm (conductor/jit.py) and how the warm phase schedules its tasks (conductor/warmup.py),
tested as data: readings of compiler threads given, no process read; the phase's tasks are functions that say what
they found."""
import threading

import pytest

from conductor import jit, warmup

PROFILE = {"jit_quiet": {"share": 0.05, "window_s": 1}, "warm_phase": {"tasks": 2}}


@pytest.fixture(autouse=True)
def no_proc(monkeypatch):
    """Compiler threads' ticks from a table the tests set, not from /proc; a clock the tests move."""
    ticks, clock = {}, {"ms": 1_000_000}
    monkeypatch.setattr(jit, "thread_ticks", lambda pid, pattern: ticks.get(pid, 0) if pattern else 0)
    monkeypatch.setattr(jit, "now_ms", lambda: clock["ms"])
    monkeypatch.setattr(jit, "CLOCK_TICKS", 100)
    return ticks, clock


def test_a_process_without_a_jit_is_warm_at_once():
    w = jit.Warmth.track(1, "", 60)
    assert w.warm(0.05, 1000) and w.done == "quiet" and w.summary(1000) == {"jit": False}


def test_quiet_once_a_whole_window_of_calls_used_under_the_share(no_proc):
    ticks, clock = no_proc
    w = jit.Warmth.track(7, "^C2", 60)
    # 600 ms of calls during which the compiler took 30 ticks (300 ms): busy
    clock["ms"] += 600
    ticks[7] = 30
    w.note(600)
    assert not w.warm(0.05, 1000)  # the window is not yet covered, and the share is 50%
    # 600 ms more with 2 ticks: the newest readings cover the window (1,200 ms) at 32 ticks over 1.2 s
    clock["ms"] += 600
    ticks[7] = 32
    w.note(600)
    share, busy = w.share(1000)
    assert busy == 1200 and share == pytest.approx(0.32 / 1.2)
    assert not w.warm(0.05, 1000)
    # two quiet readings: the window of the newest 1,200 ms holds 1 tick
    for _ in range(2):
        clock["ms"] += 600
        ticks[7] += 0.5
        w.note(600)
    assert w.warm(0.05, 1000) and w.done == "quiet" and w.took_s == 2
    summary = w.summary(1000)
    assert summary["ended"] == "quiet" and summary["share"] == pytest.approx(0.008) and summary["window_ms"] == 1200


def test_bound_after_its_seconds_of_calls_or_three_times_that_gone_by(no_proc):
    ticks, clock = no_proc
    w = jit.Warmth.track(7, "^C2", 2)
    ticks[7] = 0
    for _ in range(4):
        clock["ms"] += 500
        ticks[7] += 40  # always busy
        w.note(500)
    assert w.warm(0.05, 1000) and w.done == "bound" and w.busy_ms == 2000
    idle = jit.Warmth.track(8, "^C2", 2)
    clock["ms"] += 6000  # no calls made, but three times its bound has gone by
    assert idle.warm(0.05, 1000) and idle.done == "bound"


def test_a_round_is_quiet_under_the_share_or_under_three_ticks(no_proc):
    ticks, clock = no_proc
    w = jit.Warmth.track(7, "^C2", 60)
    assert w.round_quiet(0.05)  # no reading yet
    clock["ms"] += 1000
    ticks[7] = 2  # two ticks are no evidence
    w.note(1000)
    assert w.round_quiet(0.05)
    clock["ms"] += 1000
    ticks[7] = 12  # 10 ticks in a second: 10%
    w.note(1000)
    assert not w.round_quiet(0.05)


def test_a_warmth_is_kept_in_its_process_folder_and_a_new_pid_starts_anew(tmp_path):
    w = jit.Warmth.track(7, "^C2", 60)
    w.rounds = 2
    w.save(tmp_path)
    kept, new = jit.Warmth.load(tmp_path, 7, "^C2", 60)
    assert not new and kept == w
    other, new = jit.Warmth.load(tmp_path, 9, "^C2", 60)
    assert new and other.rounds == 0


def test_the_fixed_warm_up_is_bounded_by_the_time_it_holds_at_the_last_batch_median():
    row = {"warmup": 200, "calls": 10}
    assert warmup.fixed_warmup(row, 0, 100) == 200  # no median: the plan's count
    assert warmup.fixed_warmup(row, 2_000_000, 0) == 200  # no bound
    assert warmup.fixed_warmup(row, 2_000_000, 100) == 50  # 100 ms of 2 ms calls
    assert warmup.fixed_warmup(row, 50_000_000, 100) == 10  # at least the repetition's calls
    assert warmup.fixed_warmup(row, 100_000, 100) == 200  # never more than the plan's


def phase_of(cells: list[tuple[str, str, str]], jit_of: dict[str, float]):
    """A phase of cells (slug, server key, client key) whose processes have a JIT bound of jit_of[key] (none when
    absent)."""
    processes = {}
    for _, server, client in cells:
        for key in (server, client):
            if key not in processes:
                pid = len(processes) + 100
                processes[key] = warmup.Process(key, pid, None, jit.Warmth.track(pid, "^C2" if key in jit_of else "",
                                                                                jit_of.get(key, 0)))
    return [warmup.PhaseCell(slug, None, s, c) for slug, s, c in cells], processes


def test_the_phase_starts_the_cells_with_the_longest_jit_first_and_never_shares_a_process(no_proc):
    ticks, clock = no_proc
    cells, processes = phase_of([("a", "s|p|x", "c|p|x"), ("b", "s|p|x", "c|p|y"), ("c", "s|q|z", "c|q|z"),
                                 ("d", "s|q|z", "c|q|w")], {"c|p|y": 30, "s|q|z": 60})
    timing, started, running, lock = set(), [], set(), threading.Lock()

    def task(kind):
        def run(cell, bound, client_age, server_age):
            with lock:
                assert not running & {cell.server, cell.client}, "a process in two tasks at once"
                running.update({cell.server, cell.client})
                started.append((kind, cell.slug, bound, client_age, server_age))
            clock["ms"] += 1000
            with lock:
                running.difference_update({cell.server, cell.client})
                timing.add(cell.slug)
            return False, 1000, True
        return run
    phase = warmup.Phase(cells, processes, PROFILE, task("first"), task("round"))
    phase.run(settled=lambda c: False, timing=lambda c: c.slug in timing)
    firsts = [(slug, bound, ages) for kind, slug, bound, *ages in started if kind == "first"]
    # c and d wait on z's 60 s server, b on y's 30 s client; a has no JIT: last
    assert [slug for slug, _, _ in firsts][:2] == ["c", "b"] and firsts[-1][0] == "a"
    assert dict((slug, bound) for slug, bound, _ in firsts) == {"a": 0, "b": 30, "c": 60, "d": 60}
    # a process is new to the first task that takes it, kept for the next
    ages = {slug: tuple(age) for slug, _, age in firsts}
    assert ages["c"] == ("new", "new") and ages["d"] == ("new", "kept")
    # the compilers stayed busy (no tick was quiet: ticks never move, but the window needs calls): rounds of the
    # cells whose processes still warmed went on until each was quiet, and every process ended its warm-up
    assert all(p.warmth.done for p in processes.values())
    assert processes["c|p|x"].warmth.done == "quiet" and processes["c|p|x"].warmth.rounds >= 1


def test_a_client_lost_in_its_first_task_takes_no_more_rounds(no_proc):
    ticks, clock = no_proc
    cells, processes = phase_of([("a", "s|p|x", "c|p|x"), ("b", "s|p|y", "c|p|x")], {"s|p|x": 10, "s|p|y": 10})
    calls, settled = [], set()

    def first(cell, bound, *ages):
        calls.append(("first", cell.slug))
        clock["ms"] += 100
        settled.add(cell.slug)  # its client is lost: the cell is settled
        return True, 100, False

    def round_(cell, bound, *ages):
        calls.append(("round", cell.slug))
        clock["ms"] += 100
        return False, 100, True
    warmup.Phase(cells, processes, PROFILE, first, round_).run(settled=lambda c: c.slug in settled,
                                                               timing=lambda c: False)
    assert calls == [("first", "a")]  # its client gone, b (the same client) is never free; no rounds
    assert processes["c|p|x"].lost
