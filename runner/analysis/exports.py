"""Machine-readable forms of a run besides results.jsonl: a flat CSV and a JUnit XML file for CI systems."""
import csv
from pathlib import Path
from xml.etree import ElementTree as ET

CSV_FIELDS = [
    "protocol", "server", "client", "cell", "workload", "status", "reason", "calls", "warmup", "repetitions",
    "rtt_us.min", "rtt_us.p50", "rtt_us.p90", "rtt_us.p99", "rtt_us.p999", "rtt_us.max", "rtt_us.mean",
    "rtt_us.cv", "rtt_us.trimmed_mean", "rtt_us.rep_cv", "instantiation_us",
    "cpu_us_per_call.client", "cpu_us_per_call.server", "rss_kb.client_peak", "rss_kb.server_peak",
    "wire_per_call.bytes_c2s", "wire_per_call.bytes_s2c", "wire_per_call.packets_c2s", "wire_per_call.packets_s2c",
]


def _get(rec: dict, dotted: str):
    value = rec
    for key in dotted.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def write_csv(records: list[dict], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for rec in records:
            w.writerow(["" if _get(rec, k) is None else _get(rec, k) for k in CSV_FIELDS])


def _case(suite: ET.Element, classname: str, name: str, status: str, reason: str) -> None:
    case = ET.SubElement(suite, "testcase", classname=classname, name=name)
    if status == "fail":
        ET.SubElement(case, "failure", message=reason[:500]).text = reason
    elif status in ("error", "timeout"):
        ET.SubElement(case, "error", message=f"{status}: {reason[:500]}").text = reason
    elif status == "unsupported":
        ET.SubElement(case, "skipped", message=reason[:500])


def write_junit(records: list[dict], path: Path) -> None:
    """One test case per cell and vector, and one per cell and timed workload."""
    root = ET.Element("testsuites", name="rpcmatrix")
    for protocol in sorted({r["protocol"] for r in records}):
        suite = ET.SubElement(root, "testsuite", name=protocol)
        for rec in (r for r in records if r["protocol"] == protocol):
            vectors = rec.get("vectors")
            if rec["workload"] == "vectors" and vectors:
                for v in vectors:
                    _case(suite, rec["cell"], f"vector {v['id']}", v["status"], v.get("reason", ""))
            else:
                _case(suite, rec["cell"], rec["workload"], rec["status"], rec.get("reason", ""))
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        suite.set("errors", str(sum(1 for c in cases if c.find("error") is not None)))
        suite.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
