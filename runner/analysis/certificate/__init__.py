"""The certificate of a certification run (`just certify --implementation NAME` or `--server-at PROTOCOL=ADDRESS`):
one verdict for the implementation or the server elsewhere, every vector against every peer, in four forms
(certificate.md, certificate.html, certificate.json, certificate.junit.xml), stamped with the suite's commit, the
contract's digest and the date. Earned, and the run's exit status 0, only when every MUST check passed."""
import json
from pathlib import Path

from . import checks, forms

FILES = ("certificate.md", "certificate.html", "certificate.json", "certificate.junit.xml")


def subject_of(options: dict) -> dict | None:
    """What the run certifies (plan/run.json), or None for a run that certifies nothing in particular."""
    if options.get("server_at"):
        return {"kind": "server elsewhere", "implementation": "elsewhere", "targets": options["server_at"],
                "secrets": options.get("secrets_dir") or "the suite's own (set-up made them)"}
    if options.get("implementation"):
        return {"kind": "implementation", "implementation": options["implementation"],
                "manifests": options.get("outside_manifests") or []}
    return None


def _vectors(run: Path, options: dict) -> list[dict]:
    view = run / "idl" / "vectors.json"
    path = view if view.exists() else Path(options["idl"]) / "vectors.json"
    return json.loads(path.read_text(encoding="utf-8"))["vectors"]


def build(run: Path, records: list[dict], cells: list[dict], entries: list[dict]) -> dict | None:
    """The certificate as data (certificate.json's content), or None when the run certifies nothing."""
    options = json.loads((run / "plan" / "run.json").read_text(encoding="utf-8"))
    subject = subject_of(options)
    if subject is None:
        return None
    idl = Path(options["idl"])
    env = json.loads((run / "env.json").read_text(encoding="utf-8"))["run"]
    contract = json.loads((idl / "contract.json").read_text(encoding="utf-8"))
    registry = json.loads((idl / "protocols.json").read_text(encoding="utf-8"))
    vectors = _vectors(run, options)
    drawn = {v["id"] for v in env.get("fresh_vectors") or []}
    all_checks: list[checks.Check] = []
    for cell in cells:
        attempts = sorted((r for r in records if r["cell"] == cell["name"] and r["workload"] == "vectors"),
                          key=lambda r: r.get("pass", 1))
        expected = checks.expected_vectors(vectors, contract, registry, cell["protocol"])
        all_checks += checks.cell_checks(cell, attempts, subject, expected, entries, drawn)
    first = min((r["time"] for r in records), default=None)
    return {
        "schema": 1,
        "subject": subject,
        "earned": checks.earned(all_checks),
        "suite": {"commit": env.get("git_commit"), "dirty": env.get("git_dirty")},
        "contract_sha256": env.get("contract_sha256"),
        "date": first,
        "run_id": env.get("run_id"),
        "known_failures": options.get("known_failures") or None,
        "retries": options.get("retries", 0),
        "drawn_vectors": env.get("fresh_vectors") or [],
        "protocols": sorted({c["protocol"] for c in cells}),
        "peers": sorted({c.peer for c in all_checks}),
        "counts": checks.counts(all_checks),
        "checks": [c.as_dict() for c in all_checks],
    }


def write(run: Path, records: list[dict], cells: list[dict], entries: list[dict]) -> dict | None:
    """The four forms into the run's folder; the certificate as data, or None when the run certifies nothing."""
    cert = build(run, records, cells, entries)
    if cert is None:
        return None
    (run / "certificate.json").write_text(json.dumps(cert, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (run / "certificate.md").write_text(forms.markdown(cert), encoding="utf-8")
    (run / "certificate.html").write_text(forms.html(cert), encoding="utf-8")
    forms.junit(cert, run / "certificate.junit.xml")
    return cert
