"""The battery's survival matrix and its check against the expected outcomes (analysis/battery.py)."""
import json

from analysis import battery


def line(attack, outcome, served_after=True, before=100_000, after=100_500, protocol="xmlrpc", server="java"):
    return {"attack": attack, "protocol": protocol, "server": server, "outcome": outcome, "answer": "HTTP/1.1 400",
            "served_during": True, "served_after": served_after, "served_after_reason": "" if served_after else "down",
            "rss_before_kb": before, "rss_after_kb": after, "seconds": 0.1}


def expect(attack, outcome, protocol="xmlrpc", server="java"):
    return {"attack": attack, "protocol": protocol, "server": server, "outcome": outcome, "reason": "test"}


def test_a_server_that_now_answers_what_it_refused_is_a_regression():
    bad, _ = battery.regressions([line("random-bytes", "answered")], [expect("random-bytes", "refused")])
    assert len(bad) == 1 and "refused before, now answered" in bad[0]


def test_refused_becoming_closed_is_a_change_not_a_regression():
    bad, changed = battery.regressions([line("random-bytes", "closed")], [expect("random-bytes", "refused")])
    assert bad == [] and changed == ["random-bytes on xmlrpc/java: refused before, now closed"]


def test_down_after_an_attack_and_no_stop_on_sigterm_are_regressions():
    sigterm = {"attack": "sigterm", "protocol": "xmlrpc", "server": "java", "outcome": "killed",
               "answer": "exit status 137", "seconds": 5.0}
    bad, _ = battery.regressions([line("idle-64", "held", served_after=False), sigterm],
                                 [expect("idle-64", "held"), expect("sigterm", "stopped")])
    assert len(bad) == 2


def test_entries_not_run_are_skipped_and_new_lines_are_noted():
    bad, changed = battery.regressions([line("idle-64", "held")], [expect("random-bytes", "refused")])
    assert bad == [] and changed == ["1 not in the expected file: idle-64 on xmlrpc/java"]


def test_matrix_flags_memory_growth_and_down_after(tmp_path):
    lines = [line("gzip-bomb", "refused", before=100_000, after=400_000),
             line("idle-64", "held", served_after=False),
             {"attack": "sigterm", "protocol": "xmlrpc", "server": "java", "outcome": "stopped", "answer": "",
              "seconds": 0.25}]
    (tmp_path / "battery.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({"expected": [expect("gzip-bomb", "refused")]}))
    assert battery.main(["--run", str(tmp_path), "--expected", str(expected)]) == 0
    text = (tmp_path / "BATTERY.md").read_text()
    assert "refused, **+292 MiB**" in text and "held, **down after**" in text and "stopped 0.2 s" in text


def test_a_regression_fails_the_check(tmp_path):
    (tmp_path / "battery.jsonl").write_text(json.dumps(line("declared-4gb", "answered")) + "\n")
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({"expected": [expect("declared-4gb", "refused")]}))
    assert battery.main(["--run", str(tmp_path), "--expected", str(expected)]) == 1
    assert "REGRESSION: declared-4gb on xmlrpc/java" in (tmp_path / "BATTERY.md").read_text()


def test_the_expected_file_gives_a_reason_for_every_entry():
    from pathlib import Path
    data = json.loads((Path(__file__).resolve().parents[1] / "battery-expected.json").read_text())
    for entry in data["expected"]:
        assert {"attack", "protocol", "server", "outcome"} <= entry.keys() and entry.get("reason"), entry


def test_an_attack_that_now_achieves_something_is_a_regression_even_from_answered():
    bad, _ = battery.regressions([line("xxe-file", "leaked")], [expect("xxe-file", "answered")])
    assert len(bad) == 1 and "now leaked" in bad[0]


def test_a_server_that_did_not_start_fails_the_check_when_it_has_expected_outcomes():
    start = {"attack": "start", "protocol": "xmlrpc", "server": "java", "outcome": "error",
             "answer": "server exited before it was ready", "seconds": None}
    bad, _ = battery.regressions([start], [expect("random-bytes", "refused")])
    assert bad == ["xmlrpc/java did not start: server exited before it was ready"]
