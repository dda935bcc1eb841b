"""A certification's checks, graded and classified: for the one implementation certified (or the one server
elsewhere), every vector of the run against every peer, as data the certificate's forms print.

Grades, as the A2A test kit grades its checks:
- MUST: the contract's values, errors and remote objects (every vector but the attacks), the vectors drawn for
  this run among them, and that the cell ran at all (its server got ready, its client connected);
- SHOULD: the protocol's own rules where the suite checks them: refusing the attacks of the secured variants and
  publishing metadata (a WSDL) from which a client can be built;
- MAY: what the protocol lacks, with the registry's reason (not sent).

Classifications, as Apache Thrift's cross test makes them against a known-failures file: passed, unexpected
failure, expected failure (an entry names it), unexpected success (an entry names it, but it passed: remove the
entry), flaky (failed, then passed on a retry), skipped (MAY), and not run (a vector of a cell that never ran,
whose own check failed). The certificate is earned when no MUST check failed,
expected or not: a known failure is still a failure of the contract."""
from dataclasses import asdict, dataclass, field

from conductor.plan import needs_of

GRADES = ("MUST", "SHOULD", "MAY")
BAD = ("fail", "error", "timeout")
REQUEST_CHARS = 240  # an excerpt, not the whole request: 1 MiB vectors exist


@dataclass
class Check:
    cell: str
    protocol: str
    peer: str        # the implementation on the other side ("itself" when it meets itself)
    role: str        # the certified side's role in the cell: server, client, or both
    check: str       # a vector id, "metadata", or "cell" (the cell ran at all)
    grade: str
    classification: str
    attempts: list[str] = field(default_factory=list)  # the status of each attempt, in order
    reason: str = ""     # why it failed, or what it needs (MAY), or how it passed
    request: str = ""    # what was sent: the operation and its arguments, an excerpt
    known: str = ""      # the known-failures entry's reason, where one names it
    drawn: bool = False  # a vector drawn for this run

    def as_dict(self) -> dict:
        return asdict(self)


def request_of(vector: dict) -> str:
    """The call a vector makes, as the contract writes its values (vectors.json), cut to an excerpt."""
    import json
    if "session" in vector:
        text = f"{vector['session']} session, script {vector['script']} (idl/CONTRACT.md#vectors)"
    else:
        text = f"{vector['op']}({', '.join(json.dumps(a, ensure_ascii=False) for a in vector.get('args', []))})"
        if "attack" in vector:
            text += f" with the defect {vector['attack']}"
    return text if len(text) <= REQUEST_CHARS else text[:REQUEST_CHARS] + f"… ({len(text)} characters)"


def expected_vectors(vectors: list[dict], contract: dict, registry: dict, protocol: str) -> list[tuple[dict, str]]:
    """Every vector of the run with, where the protocol lacks what it needs, the registry's reason (else "")."""
    lacks = registry["protocols"].get(protocol, {}).get("lacks", {})
    out = []
    for v in vectors:
        missing = [n for n in needs_of(v, contract) if n in lacks]
        out.append((v, lacks[missing[0]] if missing else ""))
    return out


def _known(entries: list[dict], cell: str, check: str) -> dict | None:
    """The known-failures entry for a check: one naming its vector, else one for its whole cell."""
    mine = [e for e in entries if e["cell"] == cell and e.get("workload", "vectors") == "vectors"]
    return next((e for e in mine if e.get("vector") == check), None) or next((e for e in mine if "vector" not in e),
                                                                              None)


def classify(grade: str, attempts: list[str], entry: dict | None) -> str:
    if grade == "MAY":
        return "skipped"
    failed_first, last = attempts[0] in BAD, attempts[-1]
    if failed_first and last not in BAD:
        return "flaky"
    if last in BAD:
        return "expected failure" if entry else "unexpected failure"
    return "unexpected success" if entry else "passed"


def failed(check: Check) -> bool:
    return check.classification in ("unexpected failure", "expected failure")


def earned(checks: list[Check]) -> bool:
    """The certificate: no MUST check failed (a known failure is still a failure of the contract), and at least
    one MUST check ran."""
    must = [c for c in checks if c.grade == "MUST"]
    return bool(must) and not any(failed(c) for c in must)


def side(cell: dict, subject: dict) -> tuple[str, str]:
    """The certified side's role in a cell and its peer."""
    name = subject["implementation"]
    if cell["server"] == name and cell["client"] == name:
        return "both", "itself"
    if cell["server"] == name:
        return "server", cell["client"]
    return "client", cell["server"]


def cell_checks(cell: dict, attempts: list[dict], subject: dict, vectors: list[tuple[dict, str]],
                entries: list[dict], drawn: set[str]) -> list[Check]:
    """One cell's checks from its records, one per attempt (pass) in order."""
    role, peer = side(cell, subject)
    base = {"cell": cell["name"], "protocol": cell["protocol"], "peer": peer, "role": role}

    def make(check: str, grade: str, statuses: list[str], reason: str, request: str = "", is_drawn=False) -> Check:
        entry = _known(entries, cell["name"], check) if grade != "MAY" else None
        return Check(**base, check=check, grade=grade, classification=classify(grade, statuses, entry),
                     attempts=statuses, reason=reason, request=request, known=(entry or {}).get("reason", ""),
                     drawn=is_drawn)

    if not attempts or attempts[0]["status"] == "unsupported":
        reason = attempts[0]["reason"] if attempts else cell.get("unsupported") or "no record"
        return [make("cell", "MAY" if attempts else "MUST", [attempts[0]["status"] if attempts else "error"], reason)]
    out = []
    # the cell itself: its server got ready and its client connected and answered (error, timeout: it did not)
    cell_statuses = [a["status"] if a["status"] in ("error", "timeout") and not a.get("vectors") else "pass"
                     for a in attempts]
    out.append(make("cell", "MUST", cell_statuses, _reason_of(attempts, cell_statuses) or "ran"))
    by_attempt = [{v["id"]: v for v in (a.get("vectors") or [])} for a in attempts]
    if not any(by_attempt):  # the cell never ran: its cell check failed, its vectors were not sent
        why = f"not sent: the cell did not run ({_reason_of(attempts, cell_statuses)})"
        return out + [Check(**base, check=v["id"], grade="MAY" if lacking else "SHOULD" if "attack" in v else "MUST",
                            classification="skipped" if lacking else "not run", attempts=["not run"],
                            reason=lacking or why, request=request_of(v), drawn=v["id"] in drawn)
                      for v, lacking in vectors]
    for vector, lacking in vectors:
        vid, request = vector["id"], request_of(vector)
        grade = "SHOULD" if "attack" in vector else "MUST"
        if lacking:
            reported = [b.get(vid, {}).get("status") for b in by_attempt]
            if all(s in ("unsupported", None) for s in reported):
                out.append(make(vid, "MAY", ["unsupported"], lacking, request))
                continue
        statuses, reasons = [], []
        for a, b in zip(attempts, by_attempt, strict=True):
            result = b.get(vid)
            if result is None:
                statuses.append("error")
                reasons.append(f"not answered: the cell ended before it ({a.get('reason') or a['status']})")
            elif result["status"] == "unsupported" and not lacking:
                statuses.append("fail")
                reasons.append(f"reported unsupported ({result.get('reason', '')}), but {cell['protocol']} has "
                               "everything this vector needs (idl/protocols.json)")
            else:
                statuses.append(result["status"])
                reasons.append(result.get("reason", ""))
        reason = next((r for s, r in zip(statuses, reasons, strict=True) if s in BAD), "")
        out.append(make(vid, grade, statuses, reason, request, vid in drawn))
    metadata = [a.get("metadata") for a in attempts]
    if any(m is not None for m in metadata):
        statuses = ["pass" if (m or {}).get("consumable") else "fail" for m in metadata]
        reason = next(((m or {}).get("reason", "not checked") for m, s in zip(metadata, statuses, strict=True)
                       if s == "fail"), (metadata[-1] or {}).get("reason", ""))
        out.append(make("metadata", "SHOULD", statuses, reason,
                        "the description the server publishes (idl/protocols.json metadata)"))
    return out


def _reason_of(attempts: list[dict], statuses: list[str]) -> str:
    return next((a.get("reason", "") for a, s in zip(attempts, statuses, strict=True) if s != "pass"), "")


def counts(checks: list[Check]) -> dict:
    """How many checks of each grade ended in each classification."""
    out = {g: {} for g in GRADES}
    for c in checks:
        out[c.grade][c.classification] = out[c.grade].get(c.classification, 0) + 1
    return out
