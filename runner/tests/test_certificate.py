"""The certificate's rules: which check has which grade, how results are classified against a known-failures file
and across retries, when the certificate is earned, and its four forms."""
import json
from pathlib import Path
from xml.etree import ElementTree as ET

from analysis import certificate
from analysis.certificate import checks, forms

IDL = Path(__file__).resolve().parents[2] / "idl"
CONTRACT = json.loads((IDL / "contract.json").read_text())
REGISTRY = json.loads((IDL / "protocols.json").read_text())
SUBJECT = {"kind": "implementation", "implementation": "mine", "manifests": []}
CELL = {"name": "jsonrpc/python→mine", "protocol": "jsonrpc", "server": "mine", "client": "python"}
VECTORS = [
    {"id": "ping", "op": "ping", "args": []},
    {"id": "float64_nan", "op": "echoFloat64", "args": ["NaN"], "needs": ["nonfinite-float"]},
    {"id": "fresh_record", "op": "getRecord", "args": ["k"], "expect": "contract"},
    {"id": "refuse_wrong_password", "op": "ping", "args": [], "attack": "wrong-password", "needs": ["username-token"]},
    {"id": "items_1000", "op": "getItems", "args": [1000], "expect": "contract"},
]


def record(statuses: dict, status: str = "pass", pass_no: int = 1, **extra) -> dict:
    return {"cell": CELL["name"], "workload": "vectors", "status": status, "pass": pass_no, "time": "2026-11-28T00:00Z",
            "reason": "", "vectors": [{"id": k, "status": v, "reason": "" if v == "pass" else f"{k} went wrong"}
                                      for k, v in statuses.items()], **extra}


def made(attempts: list[dict], entries=(), protocol="jsonrpc") -> dict[str, checks.Check]:
    expected = checks.expected_vectors(VECTORS, CONTRACT, REGISTRY, protocol)
    out = checks.cell_checks(dict(CELL, protocol=protocol), attempts, SUBJECT, expected, list(entries),
                             {"fresh_record"})
    return {c.check: c for c in out}


def test_each_check_has_its_grade_the_protocols_lacks_are_may_and_sent_vectors_must_or_should():
    got = made([record({"ping": "pass", "float64_nan": "unsupported", "fresh_record": "pass",
                        "refuse_wrong_password": "unsupported", "items_1000": "pass"})])
    assert {k: (c.grade, c.classification) for k, c in got.items()} == {
        "cell": ("MUST", "passed"), "ping": ("MUST", "passed"), "float64_nan": ("MAY", "skipped"),
        "fresh_record": ("MUST", "passed"), "refuse_wrong_password": ("MAY", "skipped"),
        "items_1000": ("MUST", "passed")}
    assert got["float64_nan"].reason == REGISTRY["protocols"]["jsonrpc"]["lacks"]["nonfinite-float"]
    assert got["fresh_record"].drawn and got["fresh_record"].request == 'getRecord("k")'
    # an attack the protocol can carry is a SHOULD: the protocol's own rule, not the contract's values
    wss = made([record({"refuse_wrong_password": "fail"})], protocol="wss-username")
    assert (wss["refuse_wrong_password"].grade, wss["refuse_wrong_password"].classification) == \
        ("SHOULD", "unexpected failure")


def test_a_vector_missing_or_reported_unsupported_where_the_protocol_has_what_it_needs_fails():
    got = made([record({"ping": "pass", "float64_nan": "unsupported", "fresh_record": "unsupported"})])
    assert got["fresh_record"].classification == "unexpected failure"
    assert "has everything this vector needs" in got["fresh_record"].reason
    assert got["items_1000"].classification == "unexpected failure"  # not answered at all
    assert got["items_1000"].reason.startswith("not answered")


def test_known_failures_retries_and_unexpected_successes_are_classified_as_thrift_does():
    entries = [{"cell": CELL["name"], "vector": "items_1000", "reason": "too big"},
               {"cell": CELL["name"], "vector": "ping", "reason": "stale"}]
    first = record({"ping": "pass", "fresh_record": "fail", "items_1000": "fail"}, status="fail")
    second = record({"ping": "pass", "fresh_record": "pass", "items_1000": "fail"}, status="fail", pass_no=2)
    got = made([first, second], entries)
    assert got["items_1000"].classification == "expected failure" and got["items_1000"].known == "too big"
    assert got["ping"].classification == "unexpected success"
    assert got["fresh_record"].classification == "flaky" and got["fresh_record"].attempts == ["fail", "pass"]
    assert not checks.failed(got["fresh_record"])


def test_the_certificate_is_earned_only_when_every_must_passed_a_known_failure_included():
    ok = list(made([record({v["id"]: "pass" for v in VECTORS if "needs" not in v})]).values())
    assert checks.earned(ok)
    known = list(made([record({"ping": "pass", "fresh_record": "pass", "items_1000": "fail"}, status="fail")],
                      [{"cell": CELL["name"], "vector": "items_1000", "reason": "known"}]).values())
    assert not checks.earned(known)
    should_only = [c for c in ok if c.grade != "MUST"] + [checks.Check(
        cell="x", protocol="wss-sign", peer="p", role="server", check="refuse_tampered_body", grade="SHOULD",
        classification="unexpected failure", attempts=["fail"])]
    assert not checks.earned(should_only), "no MUST check ran: nothing was certified"
    assert checks.earned(ok + should_only[-1:]), "a SHOULD not met does not refuse the certificate"


def test_a_cell_that_never_ran_fails_its_cell_check_and_sends_nothing():
    got = made([record({}, status="error", reason="server exited before it was ready: refused", vectors=[])])
    assert got["cell"].classification == "unexpected failure" and "refused" in got["cell"].reason
    assert got["ping"].classification == "not run" and got["float64_nan"].classification == "skipped"
    unsupported = made([{"cell": CELL["name"], "workload": "vectors", "status": "unsupported",
                         "reason": "serves only", "pass": 1, "time": "t"}])
    assert list(unsupported) == ["cell"] and unsupported["cell"].grade == "MAY"


def test_the_certificate_of_a_run_in_its_four_forms(tmp_path):
    run = tmp_path / "run"
    (run / "plan").mkdir(parents=True)
    (run / "plan" / "run.json").write_text(json.dumps({"idl": str(IDL), "implementation": "mine",
                                                       "known_failures": "", "retries": 0}))
    (run / "idl").mkdir()
    (run / "idl" / "vectors.json").write_text(json.dumps({"vectors": VECTORS}))
    drawn = [VECTORS[2]]
    (run / "env.json").write_text(json.dumps({"run": {"git_commit": "a" * 40, "git_dirty": False, "run_id": "r",
                                                      "contract_sha256": "b" * 64, "fresh_vectors": drawn}}))
    rec = record({"ping": "pass", "fresh_record": "fail", "items_1000": "pass"}, status="fail")
    cert = certificate.write(run, [rec], [CELL], [])
    assert not cert["earned"] and cert["suite"]["commit"] == "a" * 40 and cert["drawn_vectors"] == drawn
    assert cert["counts"]["MUST"] == {"passed": 3, "unexpected failure": 1}
    md = (run / "certificate.md").read_text()
    assert md.startswith("# Certificate: the implementation `mine`: NOT earned")
    assert '`getRecord("k")`' in md and "fresh_record went wrong" in md
    junit = ET.parse(run / "certificate.junit.xml").getroot()
    assert junit.find("testsuite").get("failures") == "1"
    assert "<table>" in (run / "certificate.html").read_text()
    assert json.loads((run / "certificate.json").read_text())["checks"][0]["check"] == "cell"
    assert forms.markdown(cert) == md


def test_a_run_that_certifies_nothing_in_particular_has_no_certificate(tmp_path):
    (tmp_path / "plan").mkdir()
    (tmp_path / "plan" / "run.json").write_text(json.dumps({"idl": str(IDL), "implementation": ""}))
    assert certificate.write(tmp_path, [], [], []) is None
    assert not (tmp_path / "certificate.md").exists()
