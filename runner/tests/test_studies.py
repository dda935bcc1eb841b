"""idl/studies.json and analysis/studies.py: each published figure names what the suite has (protocols,
workloads, profiles) in the vocabulary the module reads, and is set beside a run's figure on synthetic
records: measured, missing with its reason, its ratio, the reading past 2×; and the CLI on a tiny run."""
import json
from pathlib import Path

import pytest

from analysis import report, studies
from analysis.__main__ import main
from analysis.report import markdown
from analysis.report.blocks import Code, Notes, Table, Text, Value
from analysis.report.figures import Figures
from analysis.report.sections.context import Context
from analysis.report.text import plain

IDL = Path(__file__).resolve().parents[2] / "idl"
STUDIES = studies.load(IDL)
PROTOCOLS = json.loads((IDL / "protocols.json").read_text())["protocols"]
SPEC = json.loads((IDL / "workloads.json").read_text())
WORKLOADS = {w["name"] for w in SPEC["workloads"]}
FIGURES = [(s, f) for s in STUDIES for f in s["figures"]]
JAVA = {"client": "java", "server": "java"}
# How many members each quantity compares: one cell, or a numerator and a denominator.
MEMBERS = {"rtt": 1, "bytes": 1, "packets": 1, "cpu-client": 1, "cpu-server": 1, "rtt-ratio": 2,
           "instantiation-ratio": 2, "bytes-ratio": 2}


def members(spec: dict) -> list:
    """Every protocol or cell a figure names, its lists of alternatives flattened."""
    named = spec.get("protocols", []) + spec.get("faster", []) + spec.get("slower", [])
    return [m for member in named for m in (member if isinstance(member, list) else [member])]


# -- the data file --------------------------------------------------------------------------------------------

def test_the_five_studies_each_run_by_a_profile():
    assert [s["name"] for s in STUDIES] == ["juric", "rozman", "allman", "gray", "gredler"]
    for study in STUDIES:
        assert study["profile"] in SPEC["profiles"], study["name"]
        assert study["stack"] == JAVA, study["name"]
        for key in ("title", "seed", "conditions", "reading"):
            assert study[key].strip(), (study["name"], key)
        assert any(not f.get("not_producible") for f in study["figures"]), study["name"]


def test_figure_ids_are_unique():
    ids = [f["id"] for _, f in FIGURES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("study,spec", FIGURES, ids=[f["id"] for _, f in FIGURES])
def test_a_figure_has_its_source_quantity_and_unit(study, spec):
    for key in ("id", "source", "quote", "what", "quantity"):
        assert isinstance(spec.get(key), str) and spec[key].strip(), key
    assert spec["quantity"] in studies.QUANTITIES
    assert spec.get("unit") in studies.UNITS[spec["quantity"]]
    if spec["quantity"] in ("order", "similar"):
        assert "published" not in spec  # a claim read off charts: there is no number to print
    else:
        assert isinstance(spec["published"], (int, float)) and spec["published"] > 0
    if spec.get("not_producible") is not None:
        assert spec["not_producible"].strip()
    else:
        assert spec["quantity"] in studies.MEASURED
    for key in ("reading", "note", "conditions"):
        assert key not in spec or spec[key].strip(), key


@pytest.mark.parametrize("study,spec", [(s, f) for s, f in FIGURES if not f.get("not_producible")],
                         ids=[f["id"] for _, f in FIGURES if not f.get("not_producible")])
def test_a_measurable_figure_names_what_the_suite_has(study, spec):
    for member in members(spec):
        protocol, _, pair = member.partition("/")
        assert protocol in PROTOCOLS, member
        assert not pair or "→" in pair, member
    profile = SPEC["profiles"][study["profile"]]
    assert set(spec.get("workloads", [])) <= set(profile["workloads"]) & WORKLOADS
    quantity = spec["quantity"]
    if quantity in MEMBERS:
        assert len(spec["protocols"]) == MEMBERS[quantity]
    if quantity != "instantiation-ratio":
        assert spec["workloads"]
    if quantity == "order":
        assert spec["faster"] and spec["slower"]
    if quantity == "similar":
        assert len(spec["protocols"]) >= 2 and spec["within"] > 1
    if quantity in ("bytes", "bytes-ratio"):
        assert spec["basis"] in studies.BASES
    if quantity in ("bytes", "packets"):
        assert spec["direction"] in studies.DIRECTIONS
    assert spec.get("statistic", "p50") in studies.STATISTICS
    for key in ("per_calls", "round_trips"):
        if key in spec:
            assert isinstance(spec[key], int) and spec[key] > 1 and spec[f"{key}_why"].strip(), key


def test_the_rozman_profile_times_juric_s_workloads_as_juric_does():
    juric, rozman = SPEC["profiles"]["juric"], SPEC["profiles"]["rozman"]
    assert rozman["workloads"] == juric["workloads"] and rozman["small"] == juric["small"]
    # its addition, RMI through HTTP, is in the main job's protocols: every profile takes it
    assert "opt_in" not in PROTOCOLS["rmi-http"]


# -- the table on synthetic records ----------------------------------------------------------------------------

def _cell(protocol: str, client: str = "java", server: str = "java") -> dict:
    return {"name": f"{protocol}/{client}→{server}", "protocol": protocol, "client": client, "server": server}


def _rec(cell: str, workload: str, pass_no: int = 1, status: str = "pass", **extra) -> dict:
    return {"cell": cell, "workload": workload, "pass": pass_no, "status": status, "reason": "", **extra}


def _timed(cell: str, workload: str, rtt_us: float, pass_no: int = 1, **extra) -> dict:
    stats = {"p50": rtt_us, "trimmed_mean": rtt_us, "mean": rtt_us}
    return _rec(cell, workload, pass_no, rtt_us=stats, **extra)


def _context(recs: list, protocols: list, planned: list, unsupported: dict | None = None,
             left_out: list | None = None) -> Context:
    cells = [_cell(p) for p in protocols]
    env = {"run": {"run_id": "r", "profile": {"name": "juric"}, "baseline": "rawtcp", "wire": "veth",
                   "left_out": left_out or []}}
    return Context(env=env, figures=Figures(recs, cells, "rawtcp"), verdict={},
                   workloads={p: planned for p in protocols}, unsupported=unsupported or {}, notes=Notes())


def _study(*figures: dict) -> dict:
    return {"name": "t", "title": "T", "stack": JAVA, "conditions": "then", "reading": "another era",
            "figures": list(figures)}


def _value(cell) -> Value:
    """The one figure of a cell."""
    (value,) = Text(cell).of(Value)
    return value


def _ratio(published: float, **more) -> dict:
    return {"id": "x", "source": "Fig. 1", "quote": "q", "what": "WS / RMI", "quantity": "rtt-ratio",
            "published": published, "unit": "×", "protocols": ["soap11", "rmi"], "workloads": ["echoInt32"],
            "statistic": "trimmed_mean", **more}


ECHO = [_timed("rawtcp/java→java", "echoInt32", 40.0), _timed("rmi/java→java", "echoInt32", 50.0),
        _timed("soap11/java→java", "echoInt32", 130.0)]
ECHO_RUN = ["rawtcp", "rmi", "soap11"]


def test_a_ratio_net_of_the_path_with_the_gross_one_beside_it():
    ctx = _context(ECHO, ECHO_RUN, ["echoInt32"])
    spec = _ratio(9.0, net_of_path=True)
    row = studies.row(ctx, _study(spec), spec)
    # (130 − 40) / (50 − 40): the stacks' own cost, as the study's, whose path was a small share
    published, measured, ratio = _value(row.published), _value(row.measured), _value(row.ratio)
    assert (published.value, published.prefix, measured.prefix) == (9.0, "×", "×") and row.reading == ""
    assert measured.value == pytest.approx(9.0) and (measured.low, measured.high) == (None, None)  # one pass
    assert ratio.value == pytest.approx(1.0) and ratio.digits == 2
    assert Text(Code("soap11/java→java"), " ÷ ", Code("rmi/java→java")) in row.on
    assert Text("net of the path (less ", Code("rawtcp/java→java"), "); gross ") in row.on
    gross = row.on.of(Value)[-1]
    assert gross.value == pytest.approx(2.6) and gross.prefix == "×"
    row = studies.row(ctx, _study(_ratio(2.6)), _ratio(2.6))
    assert _value(row.measured).value == pytest.approx(2.6) and "net" not in plain(row.on)


def test_a_figure_more_than_2x_off_gets_a_line_of_reading():
    ctx = _context(ECHO, ECHO_RUN, ["echoInt32"])
    spec = _ratio(100.0, net_of_path=True)
    assert studies.row(ctx, _study(spec), spec).reading == "another era"  # the study's
    spec = _ratio(2.0, net_of_path=True, reading="encoded against literal")
    row = studies.row(ctx, _study(spec), spec)
    assert _value(row.ratio).value == pytest.approx(4.5) and row.reading == "encoded against literal"  # its own
    assert studies.row(ctx, _study(_ratio(5.0)), _ratio(5.0)).reading == ""  # 2.6 / 5: within 2×


def test_a_figure_not_measured_says_why():
    recs = ECHO + [_rec("rmi-http/java→java", "vectors", status="unsupported", reason="removed in JDK 9"),
                   _rec("rmi-http/java→java", "echoInt32", status="unsupported", reason="removed in JDK 9")]
    ctx = _context(recs, ECHO_RUN + ["rmi-http"], ["echoInt32"],
                   unsupported={"soap11": {"calculatorSession": "no remote objects"}},
                   left_out=[{"protocol": "xmlrpc-gzip", "reason": "a compression setting"}])

    def reading(**changes) -> Text:
        spec = _ratio(32.0) | changes
        return Text(studies.row(ctx, _study(spec), spec).reading)

    assert reading(protocols=["rmi-http", "rmi"]) == \
        Text("not measured: unsupported on ", Code("rmi-http/java→java"), ": removed in JDK 9")
    assert reading(protocols=["xmlrpc-gzip", "rmi"]) == \
        Text("not measured: ", Code("xmlrpc-gzip"), " is not in this run (opt-in: a compression setting)")
    assert reading(workloads=["echoString"]) == \
        Text("not measured: ", Code("echoString"), " is not in profile ", Code("juric"))
    assert reading(workloads=["calculatorSession"]) == \
        Text("not measured: ", Code("calculatorSession"), " unsupported on ", Code("soap11"), ": no remote objects")
    assert reading(not_producible="RPC/encoded: no stack speaks it") == \
        Text("not producible: RPC/encoded: no stack speaks it")


def test_bytes_on_the_study_s_basis_and_totals_per_session():
    wire = {"bytes_c2s": 111.0, "bytes_s2c": 92.0, "packets_c2s": 1.0, "packets_s2c": 1.0}
    ctx = _context([_timed("rmi/java→java", "getRecord", 50.0, wire_per_call=wire,
                           cpu_us_per_call={"client": 130.0, "server": 26.0})], ["rmi"], ["getRecord"])
    payload = {"id": "p", "source": "Table 5", "quote": "q", "what": "request", "quantity": "bytes",
               "published": 45, "unit": "bytes", "protocols": ["rmi"], "workloads": ["getRecord"],
               "direction": "request", "basis": "payload"}
    row = studies.row(ctx, _study(payload), payload)
    measured = _value(row.measured)  # 111 − 66 (Ethernet, IPv4, TCP with timestamps)
    assert (measured.value, measured.unit, _value(row.ratio).value) == (45, " bytes", 1)
    assert "TCP payload, estimated as frame bytes − 66 × packets" in plain(row.on)
    frames = payload | {"direction": "both", "basis": "frames", "published": 78_077, "per_calls": 5000,
                        "round_trips": 13}
    row = studies.row(ctx, _study(frames), frames)
    assert row.published == Text(Value(78_077, spec=",", unit=" bytes"), " per 5,000 calls")
    assert (_value(row.measured).value, _value(row.measured).unit) == (pytest.approx(78_077), " bytes")
    assert "÷ 13 round trips per call; × 5,000 calls" in plain(row.on)
    cpu = {"id": "c", "source": "Table 3", "quote": "q", "what": "client CPU", "quantity": "cpu-client",
           "published": 2.3, "unit": "s", "protocols": ["rmi"], "workloads": ["getRecord"], "per_calls": 5000,
           "round_trips": 13}
    row = studies.row(ctx, _study(cpu), cpu)
    measured = _value(row.measured)  # shown in the largest unit it has one of
    assert (measured.value, measured.unit) == (pytest.approx(50), " ms") and row.reading == "another era"
    assert _value(row.ratio).value == pytest.approx(0.05 / 2.3)
    # a cell whose counting pass did not happen (a run cut short) has the connections only: not measured
    uncounted = _context([_timed("rmi/java→java", "getRecord", 50.0, wire_per_call={"connections": 0})], ["rmi"],
                         ["getRecord"])
    reading = plain(studies.row(uncounted, _study(payload), payload).reading)
    assert reading == "not measured: wire not measured on rmi/java→java"


def test_an_alternative_stands_in_and_says_so():
    recs = ECHO + [_timed("wss-sign/java→java", "echoInt32", 4040.0)]
    ctx = _context(recs, ECHO_RUN + ["wss-sign"], ["echoInt32"])
    spec = _ratio(100.0, protocols=[["wss-sign-encrypt", "wss-sign"], "soap11"], net_of_path=True)
    row = studies.row(ctx, _study(spec), spec)
    assert _value(row.measured).value == pytest.approx(4000 / 90)  # (4040 − 40) / (130 − 40)
    assert Text(Code("wss-sign/java→java"), " stands in for ", Code("wss-sign-encrypt/java→java"),
                ", which this run has not") in row.on


def test_claims_of_order_and_of_likeness():
    recs = [_timed(f"{p}/java→java", w, us) for p, w, us in (
        ("rmi", "getItems10", 100.0), ("hessian2", "getItems10", 120.0), ("burlap", "getItems10", 300.0),
        ("rmi", "getItems100", 400.0), ("hessian2", "getItems100", 500.0), ("burlap", "getItems100", 450.0))]
    ctx = _context(recs, ["rmi", "hessian2", "burlap"], ["getItems10", "getItems100"])
    order = {"id": "o", "source": "obs. 1", "quote": "q", "what": "binary first", "quantity": "order",
             "faster": ["rmi", "hessian2"], "slower": ["burlap"], "workloads": ["getItems10"], "statistic": "mean"}
    row = studies.row(ctx, _study(order), order)
    assert (row.published, row.ratio, row.reading) == (Text("claimed (charts without numbers)"), "–", "")
    assert row.measured == Text("holds: worst ", Value(0.4, prefix="×"))  # 120 / 300
    both = order | {"workloads": ["getItems10", "getItems100", "getItems1000"]}  # 1000 not in the profile
    row = studies.row(ctx, _study(both), both)
    assert row.measured.runs[0] == "does not hold: worst " and _value(row.measured).value == pytest.approx(500 / 450)
    assert row.reading == "another era" and "worst of getItems10, getItems100" in plain(row.on)
    assert Text("worst on getItems100: ", Code("hessian2/java→java"), " against ", Code("burlap/java→java")) in row.on
    even = {"id": "s", "source": "obs. 5", "quote": "q", "what": "even", "quantity": "similar", "within": 1.5,
            "protocols": ["rmi", "hessian2"], "workloads": ["getItems10", "getItems100"]}
    assert studies.row(ctx, _study(even), even).measured == Text("holds: worst ", Value(1.25, prefix="×"))


def test_several_passes_give_a_median_with_its_interval():
    recs = [_timed(f"{p}/java→java", "echoInt32", us + n, pass_no=n)
            for n in (1, 2, 3) for p, us in (("rawtcp", 40.0), ("rmi", 50.0))]
    ctx = _context(recs, ["rawtcp", "rmi"], ["echoInt32"])
    spec = {"id": "r", "source": "§4.1", "quote": "q", "what": "RMI", "quantity": "rtt", "published": 0.21,
            "unit": "ms", "protocols": ["rmi"], "workloads": ["echoInt32"], "statistic": "trimmed_mean"}
    row = studies.row(ctx, _study(spec), spec)
    measured = _value(row.measured)  # 51, 52, 53 µs: the median with its t-interval, in µs
    assert (measured.value, measured.unit) == (pytest.approx(52), " µs") and measured.low < 52 < measured.high
    assert _value(row.ratio).value == pytest.approx(0.052 / 0.21)


# -- a run folder: the CLI and the report ------------------------------------------------------------------

def _run_folder(tmp_path: Path, profile: str, network: str = "", rmi_us: float = 52.5) -> Path:
    run = tmp_path / (profile + network)
    (run / "plan").mkdir(parents=True)
    basic = ["echoBool", "echoInt8", "echoInt16", "echoInt32", "echoInt64", "echoFloat32", "echoFloat64"]
    for p in ("rawtcp", "rmi"):
        (run / "plan" / f"{p}.tsv").write_text("".join(f"{w} small 1000 1000 12 0 1000\n" for w in basic))
    env = {"run": {"run_id": f"r-{profile}", "profile": {"name": profile}, "git_commit": "abc", "cpu_model": "cpu",
                   "cpus": 2, "cpu_governor": "-", "memory": "1 kB", "os": "os", "kernel": "k", "wire": "veth",
                   "cpu_source": "c", "memory_source": "m", "rtt_source": "r", "baseline": "rawtcp",
                   "headline_workloads": []}, "versions": {}}
    if network:
        env["run"]["setup"] = {"network": {"scenario": {"name": network}}}
    (run / "env.json").write_text(json.dumps(env))
    cells = [_cell(p) for p in ("rawtcp", "rmi")]
    (run / "cells.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cells))
    recs = [_rec(c["name"], "vectors") for c in cells]
    recs += [_timed(f"{p}/java→java", w, us) for w in basic for p, us in (("rawtcp", 40.0), ("rmi", rmi_us))]
    (run / "results.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs))
    return run


def test_the_cli_prints_a_study_and_writes_study_md_at_the_end_of_a_study_s_run(tmp_path, capsys):
    run = _run_folder(tmp_path, "juric")
    assert main(["studies", str(run), "--study", "juric"]) == 0
    text = capsys.readouterr().out
    blocks = studies.document(studies.load_run(run), [studies.named(STUDIES, "juric")])
    assert text == markdown.render(blocks) and "## Juric, Rozman, Brumen, Colnaric, Hericko" in text
    table = next(b for b in blocks if isinstance(b, Table))
    row = table.row("RMI RTT, basic types, local (§4.1, Fig. 1)")
    assert (_value(row[1]).value, _value(row[1]).unit) == (0.21, " ms")
    assert (_value(row[2]).value, _value(row[2]).unit) == (52.5, " µs")
    assert Text(row[3]).runs[0] == Code("rmi/java→java")
    assert any(Text("not measured: ", Code("soap11"), " is not in this run") in Text(r[5]) for r in table.rows)
    assert not (run / studies.STUDY_REPORT).exists()
    assert main(["studies", str(run), "--end-of-run"]) == 0
    assert capsys.readouterr().out == (run / studies.STUDY_REPORT).read_text(encoding="utf-8") != ""
    assert main(["studies", str(run), "--study", "nope"]) == 2


def test_the_end_of_any_other_run_prints_and_writes_nothing(tmp_path, capsys):
    run = _run_folder(tmp_path, "full")
    assert main(["studies", str(run), "--end-of-run"]) == 0
    assert capsys.readouterr().out == "" and not (run / studies.STUDY_REPORT).exists()
    # asked for, a run of any profile gets every study
    assert main(["studies", str(run)]) == 0
    assert capsys.readouterr().out.count("\n## ") == len(STUDIES)
    # a contract without studies (a test's fixture) ends a run quietly
    assert main(["studies", str(run), "--idl", str(tmp_path), "--end-of-run"]) == 0


def test_the_report_of_a_study_s_run_carries_the_study(tmp_path):
    for profile, expected in (("juric", 1), ("full", 0)):
        run = _run_folder(tmp_path, profile)
        ctx = studies.load_run(run)
        text = report.render(run, ctx.figures.records, ctx.figures.cells, {"expected": [], "unexpected": [],
                                                                            "stale": []})
        assert text.count("## The published study side by side") == expected, profile


def test_a_study_on_its_networks_each_figure_per_network_and_how_it_moved(tmp_path, capsys):
    loopback = _run_folder(tmp_path, "juric")
    lan = _run_folder(tmp_path, "juric", "lan100", rmi_us=420.0)
    assert main(["studies", str(loopback), "--beside", str(lan)]) == 0
    text = capsys.readouterr().out
    assert text == (lan / "NETWORKS.md").read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| figure"))
    assert "loopback: measured" in header and "lan100: measured" in header and "lan100 ÷ loopback" in header
    row = next(line for line in text.splitlines() if line.startswith("| RMI RTT, basic types, local"))
    assert "52.5 µs (×0.25)" in row and "420 µs (×2)" in row and row.endswith("| ×8 |")  # 420 / 52.5
    # a run of Juric's profile serves Rozman's study too
    assert main(["studies", str(loopback), "--beside", str(lan), "--study", "juric,rozman"]) == 0
    assert capsys.readouterr().out.count("\n## ") == 2
    # runs of different profiles, or of no study's, are refused
    other = _run_folder(tmp_path, "full")
    assert main(["studies", str(loopback), "--beside", str(other)]) == 2
    assert main(["studies", str(other), "--beside", str(_run_folder(tmp_path, "full", "wan"))]) == 2
