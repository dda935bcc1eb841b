"""compare's calibration (analysis/calibration.py) on synthetic runs: a spin the B run's servers of one
language got is found where it is large, not where there is none, and the runs must fit together."""
import json

import pytest

from analysis import __main__ as cli
from analysis import calibration
from analysis.report import markdown
from analysis.report.blocks import Code, Strong, Table, Text, Value
from synthetic_run import ping_run

# (cell, server language, µs): the Java servers' pings of 50 µs, a Python one's of 400 µs
CELLS = [("rawtcp/java→java", "java", 50.0), ("rawtcp/python→java", "java", 60.0),
         ("rawtcp/java→python", "python", 400.0), ("rawtcp/python→python", "python", 420.0),
         ("grpc/java→java", "java", 2000.0)]


def _run(path, run_id, seed, spin=None, commit="c0ffee" * 6 + "abcd", profile="calibration"):
    """Each cell's ping over 3 passes, every call of a spun language's server longer by its spin."""
    run = {"run_id": run_id, "git_commit": commit, "git_dirty": False, "profile": {"name": profile},
           "cpu_model": "X", "cpus": 2}
    if spin:
        run["injected_server_spin_us"] = spin
    cells = "".join(json.dumps({"name": c, "protocol": c.split("/")[0], "server_language": lang}) + "\n"
                    for c, lang, _ in CELLS)
    centres = [(cell, [base + (spin or {}).get(lang, 0)] * 3) for cell, lang, base in CELLS]
    return ping_run(path, run, centres, seed, cells)


@pytest.fixture
def runs(tmp_path):
    return (_run(tmp_path / "A", "A-calibration", 1), _run(tmp_path / "A2", "A2-calibration", 2),
            _run(tmp_path / "B", "B-calibration", 3, spin={"java": 20}))


def test_the_spin_is_found_where_it_is_large_and_nowhere_else(runs):
    result = calibration.calibrate(*runs)
    rows = {r["cell"]: r for r in result["units"]["repetition"]["ab_rows"]}
    # 20 µs on 50 and 60 µs pings: affected; on a 2 ms one: weakly; the Python servers: not at all
    assert rows["rawtcp/java→java"]["group"] == "affected" and rows["rawtcp/java→java"]["verdict"] == "slower"
    assert rows["rawtcp/java→java"]["expected"] == pytest.approx(0.4, rel=0.05)
    assert rows["grpc/java→java"]["group"] == "weakly affected"
    assert rows["rawtcp/java→python"]["group"] == "unaffected" and rows["rawtcp/java→python"]["verdict"] == "~"
    f = result["units"]["repetition"]["figures"]
    assert f["detected"] == {"n": 2, "hits": 2, "share": 1.0}
    assert f["false_alarms"]["hits"] == 0 and f["aa_flagged"]["hits"] == 0
    assert f["met"] == {"aa_flagged": True, "aa_covered": f["aa_covered"] >= 0.9, "detected": True,
                        "false_alarms": True}
    assert f["measured_over_expected"] == pytest.approx(1.0, abs=0.1)
    # 3 passes against 3: nothing can be flagged by the passes' p50s, and the table says so
    assert result["units"]["pass"]["figures"]["detected"]["hits"] == 0
    assert result["units"]["pass"]["figures"]["aa_untestable"] == len(CELLS)
    assert result["instances"]["A"]["share"] == 1.0


def test_the_command_writes_calibration_md_into_b(runs, capsys):
    assert cli.main(["calibrate", *map(str, runs)]) == 0
    text = (runs[2] / calibration.CALIBRATION_REPORT).read_text()
    blocks = calibration.blocks(calibration.calibrate(*runs))
    assert text == markdown.render(blocks) and "B's servers of java 20 µs busy-waited" in text
    targets, pairs = (b for b in blocks if isinstance(b, Table))
    # 3 passes a run: compare's default takes the repetitions here, and the table says which column that is
    assert targets.header == ["", "target", "repetitions' medians (benchstat) (compare's default on these runs)",
                              "passes' p50s"]
    assert targets.row("A/B: affected pairs flagged slower")[1:] == \
        ["≥ 80%", Text(Value(1.0, spec=".1%"), " (2 of 2), met"), Text(Value(0.0, spec=".1%"), " (0 of 2), ",
                                                                      Strong("not met"))]
    injected = pairs.cell(Code("rawtcp/java→java"), "injected").of(Value)[0]
    assert injected.value == pytest.approx(0.4, rel=0.05) and pairs.cell(Code("rawtcp/java→java"), "verdict") == \
        Text("slower (affected)")
    assert "# Calibration of compare" in capsys.readouterr().out


def test_runs_that_do_not_fit_are_refused(tmp_path, capsys):
    a = _run(tmp_path / "A", "A", 1)
    plain_b = _run(tmp_path / "B", "B", 2)
    other = _run(tmp_path / "C", "C", 3, spin={"java": 20}, commit="f" * 40)
    spun_a = _run(tmp_path / "D", "D", 4, spin={"java": 20})
    other_profile = _run(tmp_path / "E", "E", 5, spin={"java": 20}, profile="default")
    for args, message in (((a, a, plain_b), "has no slowdown injected"),
                          ((a, a, other), "must be of one commit"),
                          ((spun_a, a, spun_a), "A and A2 must be plain runs"),
                          ((a, a, other_profile), "must be of one profile")):
        with pytest.raises(calibration.CalibrationError, match=message):
            calibration.calibrate(*args)
    assert cli.main(["calibrate", str(a), str(a), str(plain_b)]) == 2
    assert "no slowdown injected" in capsys.readouterr().err
