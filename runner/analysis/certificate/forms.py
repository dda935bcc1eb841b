"""A certificate's four forms, from its data (certificate.json): Markdown and one offline HTML page from the same
blocks as the report's (analysis/report/blocks.py), and JUnit XML for CI systems."""
import html as html_mod
from xml.etree import ElementTree as ET

from ..report import html as report_html
from ..report import markdown as report_markdown
from ..report.blocks import Code, Heading, Paragraph, Status, Strong, Table, Text

# A check's mark in the matrices: its last attempt's status, and a word where the classification adds one.
WORD = {"expected failure": " known", "unexpected success": " stale entry", "flaky": " flaky"}


def _who(cert: dict) -> Text:
    s = cert["subject"]
    if s["kind"] == "server elsewhere":
        targets = [Text(Code(f"{p}={t}")) for p, t in sorted(s["targets"].items())]
        return Text("the server at ", Text.join(", ", targets))
    where = " (manifest " + ", ".join(s["manifests"]) + ")" if s["manifests"] else ""
    return Text("the implementation ", Code(s["implementation"]), where)


def _tally(counts: dict) -> str:
    return ", ".join(f"{n} {what}" for what, n in sorted(counts.items())) or "none"


def _mark(check: dict) -> Text:
    status = check["attempts"][-1] if check["grade"] != "MAY" else "unsupported"
    if check["classification"] == "unexpected failure" and status == "pass":
        status = "fail"
    return Text(Status(status), WORD.get(check["classification"], ""))


def blocks(cert: dict) -> list:
    verdict = "earned" if cert["earned"] else "NOT earned"
    out = [Heading(1, Text("Certificate: ", _who(cert), f": {verdict}")),
           Paragraph(Text(
               f"Crossed with every implementation of {', '.join(cert['protocols'])} in this suite "
               f"({', '.join(cert['peers'])}), in each role it takes: every vector of the contract and "
               f"{len(cert['drawn_vectors'])} drawn for this certification. ",
               Strong(f"The certificate is {verdict}"),
               ": every MUST check passed." if cert["earned"] else
               ": a MUST check failed (below), or none ran. A known failure is still a failure of the contract.")),
           Table(["stamp", "value"], [
               ["suite commit", Text(Code(cert["suite"]["commit"] or "unknown"),
                                     " with local changes" if cert["suite"]["dirty"] else "")],
               ["contract (SHA-256 of idl/ but the profiles)", Code(cert["contract_sha256"] or "unknown")],
               ["date", cert["date"] or "no record"], ["run", Code(cert["run_id"] or "")],
               ["known failures", Code(cert["known_failures"]) if cert["known_failures"] else "none"],
               ["retries of a failed cell", str(cert["retries"])]]),
           Heading(2, "Checks by grade"),
           Table(["grade", "what it checks", "checks"], [
               ["MUST", "the contract's values, errors and remote objects; the cell ran",
                _tally(cert["counts"]["MUST"])],
               ["SHOULD", "the protocol's own rules the suite checks: refusing the secured variants' attacks, "
                          "published metadata a client can be built from", _tally(cert["counts"]["SHOULD"])],
               ["MAY", "what the protocol lacks (the registry's reason): not sent", _tally(cert["counts"]["MAY"])]])]
    bad = [c for c in cert["checks"] if c["classification"] not in ("passed", "skipped")]
    out.append(Heading(2, "Failures and surprises"))
    if bad:
        out.append(Table(["cell", "check", "grade", "result", "request", "answer (what the client saw)", "known"],
                         [[Code(c["cell"]), Code(c["check"]), c["grade"], Text(_mark(c), f" {c['classification']}"),
                           Code(c["request"]) if c["request"] else "", c["reason"], c["known"]] for c in bad]))
    else:
        out.append(Paragraph("None: every check passed or was skipped."))
    out.append(Heading(2, "Values drawn for this certification"))
    out.append(Paragraph("Drawn afresh for this run (an answer recorded in an earlier run cannot pass them): "
                         "the operation and its arguments as idl/vectors.json writes values."))
    out.append(Table(["vector", "call"], [[Code(v["id"]), Code(_call(v))] for v in cert["drawn_vectors"]]))
    out += _matrices(cert)
    return out


def _call(vector: dict) -> str:
    import json
    return f"{vector['op']}({', '.join(json.dumps(a, ensure_ascii=False) for a in vector['args'])})"


def _matrices(cert: dict) -> list:
    """Per protocol, every check (rows) against every cell (columns)."""
    out = [Heading(2, "Every check against every peer")]
    for protocol in cert["protocols"]:
        mine = [c for c in cert["checks"] if c["protocol"] == protocol]
        cells = list(dict.fromkeys(c["cell"] for c in mine))
        rows: dict[str, dict] = {}
        for c in mine:
            rows.setdefault(c["check"], {})[c["cell"]] = c
        out.append(Heading(3, protocol))
        out.append(Table(["check", "grade", *[Code(c) for c in cells]],
                         [[Code(check), " or ".join(dict.fromkeys(x["grade"] for x in by.values())),
                           *[_mark(by[c]) if c in by else "" for c in cells]] for check, by in rows.items()]))
    return out


def markdown(cert: dict) -> str:
    return report_markdown.render(blocks(cert))


def html(cert: dict) -> str:
    title = html_mod.escape(report_markdown.inline(blocks(cert)[0].text))
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{title}</title>"
            f"<style>{report_html.CSS}</style></head><body>{report_html.blocks_html(blocks(cert))}</body></html>\n")


def junit(cert: dict, path) -> None:
    """A test suite per protocol and a test case per check: an unexpected failure of a MUST check is a failure,
    a SHOULD check not met and an expected failure are skipped with why (CI stays as the exit status says), MAY
    checks are skipped with the registry's reason."""
    root = ET.Element("testsuites", name=f"rpcmatrix certificate: {cert['subject']['implementation']}")
    for protocol in cert["protocols"]:
        suite = ET.SubElement(root, "testsuite", name=protocol)
        for c in (c for c in cert["checks"] if c["protocol"] == protocol):
            case = ET.SubElement(suite, "testcase", classname=c["cell"], name=f"[{c['grade']}] {c['check']}")
            message = f"{c['classification']}: {c['reason']}" + (f" (request: {c['request']})" if c["request"] else "")
            if c["grade"] == "MUST" and c["classification"] == "unexpected failure":
                ET.SubElement(case, "failure", message=message[:2000])
            elif c["classification"] not in ("passed", "flaky"):
                ET.SubElement(case, "skipped", message=message[:2000])
            if c["classification"] == "flaky":
                ET.SubElement(case, "system-out").text = f"flaky: attempts {', '.join(c['attempts'])}"
        cases = suite.findall("testcase")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for x in cases if x.find("failure") is not None)))
        suite.set("skipped", str(sum(1 for x in cases if x.find("skipped") is not None)))
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)

