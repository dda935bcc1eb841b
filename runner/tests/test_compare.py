"""The comparison of two runs (analysis/compare.py) on synthetic repetitions: identical distributions give
"~", a clear shift is flagged, Holm's correction changes the verdict where it should, and the command
writes COMPARE.md from run folders."""
import math
import random

import pytest

from analysis import __main__ as cli
from analysis import compare
from analysis.records import FLOOR_CELL
from analysis.report import markdown
from analysis.report.blocks import Code, Text, Value
from synthetic_run import ping_run


def reps(rng: random.Random, centre: float, n: int = 15, cv: float = 0.02) -> list[float]:
    return [centre * math.exp(rng.gauss(0, cv)) for _ in range(n)]


def test_identical_distributions_are_not_flagged():
    rng = random.Random(7)
    a = {(f"p/c{i}→s", "ping"): reps(rng, 100) for i in range(200)}
    b = {(f"p/c{i}→s", "ping"): reps(rng, 100) for i in range(200)}
    result = compare.compare_values(a, b)
    assert result["summary"]["~"] == 200
    # an interval of the median (95% for the true median) holds another sample's median less often, as that
    # median varies too: 88% here for identical distributions of 15 values (an A/A's second target is 90%)
    assert 0.8 <= result["summary"]["covered"] < 0.95
    assert result["summary"]["slower"] == result["summary"]["faster"] == 0


def test_a_20_percent_shift_with_tight_repetitions_is_flagged_with_its_interval():
    rng = random.Random(3)
    a = {("p/c→s", "ping"): reps(rng, 100), ("p/c→s", "echo"): reps(rng, 50)}
    b = {("p/c→s", "ping"): reps(rng, 120), ("p/c→s", "echo"): reps(rng, 50)}
    result = compare.compare_values(a, b)
    rows = {r["workload"]: r for r in result["rows"]}
    assert rows["ping"]["verdict"] == "slower"
    assert rows["ping"]["low"] < 0.20 < rows["ping"]["high"] or abs(rows["ping"]["hl"] - 0.20) < 0.03
    assert 0.15 < rows["ping"]["low"] <= rows["ping"]["hl"] <= rows["ping"]["high"] < 0.25
    assert rows["echo"]["verdict"] == "~"
    assert {k: v for k, v in result["summary"].items() if k != "covered"} == {
        "faster": 0, "slower": 1, "~": 1, "pairs": 2, "untestable": 0}
    # echo's intervals hold each other's median, ping's (20% apart, 2% spread) do not
    assert rows["ping"]["covered"] == (False, False) and rows["echo"]["covered"] == (True, True)
    assert result["summary"]["covered"] == 0.5
    assert "holds the other run's median in 50% of cases" in compare.summary_line(result)


def test_a_change_under_the_threshold_is_not_flagged_however_certain():
    rng = random.Random(5)
    a = {("p/c→s", "ping"): reps(rng, 100, cv=0.001)}
    b = {("p/c→s", "ping"): reps(rng, 103, cv=0.001)}
    assert compare.compare_values(a, b)["rows"][0]["verdict"] == "~"
    assert compare.compare_values(a, b, threshold=0.02)["rows"][0]["verdict"] == "slower"


def test_holm_correction_unflags_what_one_test_alone_would_flag():
    # 5 against 5 repetitions, fully separated: p = 2/252 ≈ 0.0079 < 0.05 alone, but not after Holm over 20 pairs
    rng = random.Random(11)
    a = {(f"p/c{i}→s", "ping"): reps(rng, 100, n=5, cv=0.01) for i in range(20)}
    b = dict(a)
    b[("p/c0→s", "ping")] = reps(rng, 130, n=5, cv=0.01)
    alone = compare.compare_values(a, b, correct=False)
    corrected = compare.compare_values(a, b)
    row_alone = next(r for r in alone["rows"] if r["cell"] == "p/c0→s")
    row = next(r for r in corrected["rows"] if r["cell"] == "p/c0→s")
    assert row_alone["p"] == pytest.approx(2 / 252)
    assert row_alone["verdict"] == "slower"
    assert row["p_holm"] == pytest.approx(20 * 2 / 252)
    assert row["verdict"] == "~"
    assert corrected["summary"]["untestable"] == 20


def test_holm_adjusted_p_values():
    assert compare.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_the_interval_has_the_exact_coverage_of_the_u_distribution():
    # 5 against 5: the 95% interval runs from the 3rd to the 23rd of the 25 ordered pairwise ratios
    k, coverage = compare._hl_rank(5, 5)
    assert k == 3 and coverage == pytest.approx(1 - 2 * 4 / 252)  # P(U ≤ 2) = (1 + 1 + 2) / 252
    assert sum(compare._u_counts(6, 4)) == math.comb(10, 4)


def test_the_floor_is_the_environment_not_a_pair():
    rng = random.Random(2)
    a = {(FLOOR_CELL, "ping"): reps(rng, 20), ("p/c→s", "ping"): reps(rng, 100)}
    b = {(FLOOR_CELL, "ping"): reps(rng, 30), ("p/c→s", "ping"): reps(rng, 100)}
    result = compare.compare_values(a, b)
    assert [r["cell"] for r in result["rows"]] == ["p/c→s"]
    assert result["floor"][0]["verdict"] == "slower"
    assert "the environment (floor) moved +" in compare.summary_line(result)


def _run(path, run_id, centre, floor=20.0, seed=0, pass_shift=0.0, passes=3):
    """Two cells and the floor over 3 passes (each pass moved by pass_shift × (pass − 2), as a host whose
    loopback changes between passes)."""
    run = {"run_id": run_id, "git_commit": "c0ffee" * 6 + "abcd", "git_dirty": False, "profile": "default",
           "cpu_model": "X", "cpus": 2}
    centres = [(cell, [base * (1 + pass_shift * (p - 2)) for p in range(1, passes + 1)])
               for cell, base in ((FLOOR_CELL, floor), ("grpc/java→java", centre), ("rawtcp/c→c", 30.0))]
    return ping_run(path, run, centres, seed, cpu_us_per_call={"client": 5.0, "server": 6.0})


def test_compare_command_writes_compare_md_into_run_b(tmp_path, capsys):
    a = _run(tmp_path / "A", "20260101T000000Z-default", 100, seed=1)
    b = _run(tmp_path / "B", "20260102T000000Z-default", 125, floor=21, seed=2)
    assert cli.main(["compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 slower, 0 faster, 1 ~ of 2 (cell, workload) pairs (Holm-corrected p < 0.05 and "
                          "|change| ≥ 5%); the environment (floor) moved +")
    text = (b / compare.COMPARE_REPORT).read_text()
    blocks = compare.blocks(compare.comparison(a, b))
    assert text == markdown.render(blocks) and "values: repetition medians" in text
    pairs = blocks[-1]  # every pair, the ones flagged first: grpc's 25% slower
    assert pairs.row(Code("grpc/java→java"))[1] == "ping" and pairs.cell(Code("grpc/java→java"), "") == Text("slower")
    change = pairs.cell(Code("grpc/java→java"), "change").of(Value)[0]
    assert change.value == pytest.approx(0.25, abs=0.05) and change.spec == "+.1%"
    data = compare.comparison(a, b)
    assert {r["cell"]: r["n_a"] for r in data["rows"]} == {"grpc/java→java": 15, "rawtcp/c→c": 15}


def test_ten_against_ten_uses_the_exact_distribution():
    # a complete separation of 10 against 10: exact p = 2 / C(20, 10), not the normal approximation's 1.8e-4
    assert compare.u_test(list(range(10)), list(range(10, 20))) == pytest.approx(2 / math.comb(20, 10))


def test_the_pass_as_unit_takes_each_pass_p50(tmp_path):
    a = _run(tmp_path / "A", "20260101T000000Z-default", 100, seed=1)
    b = _run(tmp_path / "B", "20260102T000000Z-default", 125, seed=2)
    result = compare.comparison(a, b, unit="pass")
    assert result["a"]["values"] == "pass p50s"
    assert {r["n_a"] for r in result["rows"]} == {3}
    assert result["summary"]["untestable"] == 2  # 3 against 3: p ≥ 0.1, nothing can be flagged


def test_auto_takes_the_passes_only_when_a_test_on_them_can_flag_a_pair(tmp_path):
    # 3 against 3 passes can never give p < 0.05 / 2 pairs: the repetitions, and the report says why
    a = _run(tmp_path / "A3", "20260101T000000Z-default", 100, seed=1)
    b = _run(tmp_path / "B3", "20260102T000000Z-default", 125, seed=2)
    result = compare.comparison(a, b)
    assert result["unit"]["taken"] == "repetition" and result["a"]["values"] == "repetition medians"
    assert "too few passes" in compare.render(result)
    # 8 against 8: a complete separation gives 2 / C(16, 8) = 1.6e-4, under 0.05 / 2: the passes
    a = _run(tmp_path / "A8", "20260101T000000Z-default", 100, seed=1, passes=8)
    b = _run(tmp_path / "B8", "20260102T000000Z-default", 125, seed=2, passes=8)
    result = compare.comparison(a, b)
    assert result["unit"]["taken"] == "pass" and {r["n_a"] for r in result["rows"]} == {8}
    assert {r["cell"]: r["verdict"] for r in result["rows"]} == {"grpc/java→java": "slower", "rawtcp/c→c": "~"}
    assert "each pass's p50 (one value per process instance)" in compare.render(result)
    # asked for, the repetitions all the same
    assert compare.comparison(a, b, unit="repetition")["unit"]["taken"] == "repetition"


def test_instances_suffice_follows_holm_over_the_pairs():
    def runs(pairs, passes):
        return {(f"p/c{i}→s", "ping"): [1.0] * passes for i in range(pairs)}
    assert compare.instances_suffice(runs(54, 7), runs(54, 7))  # 5.8e-4 < 0.05 / 54
    assert not compare.instances_suffice(runs(102, 7), runs(102, 7))  # 5.8e-4 > 0.05 / 102
    assert compare.instances_suffice(runs(102, 8), runs(102, 8))  # 1.6e-4 < 4.9e-4
    assert not compare.instances_suffice(runs(1, 3), runs(1, 3)) and not compare.instances_suffice({}, {})


def test_passes_that_differ_beyond_their_repetitions_are_warned_of(tmp_path):
    a = _run(tmp_path / "A", "20260101T000000Z-default", 100, seed=1)
    b = _run(tmp_path / "B", "20260102T000000Z-default", 100, seed=2, pass_shift=0.1)
    result = compare.comparison(a, b)
    assert result["a"]["pass_heterogeneity"]["share"] == 0.0
    assert result["b"]["pass_heterogeneity"] == {"pairs": 3, "share": 1.0}  # the floor too
    assert "WARNING: passes differ beyond their repetitions in B 100% of pairs" in compare.summary_line(result)


def test_a_repetition_median_of_zero_ns_counts_as_one_ns(tmp_path):
    # an in-process handler's call can fall within one tick of the clock: its repetitions' medians are 0 ns,
    # while its record's p50 (from the histogram) is at least 1 ns
    run = {"git_commit": "c0ffee" * 6 + "abcd", "git_dirty": False, "profile": "default", "cpu_model": "X", "cpus": 2}
    runs = [ping_run(tmp_path / name, run | {"run_id": f"2026010{i}T000000Z-default"},
                     [("handler/dotnet", [0.0003])], i, rtt_us={"p50": 0.001, "p99": 0.001, "mean": 0.0003})
            for i, name in ((1, "A"), (2, "B"))]
    result = compare.comparison(*runs, compare.THRESHOLD, compare.ALPHA)
    (row,) = result["rows"]
    assert row["median_a"] == row["median_b"] == 0.001 and row["change"] == 0 and row["verdict"] == "~"
