"""A run's cell variant (issue 39): a connection per call (--connection per-call: handshakes paid where users pay
them) and a real HTTP proxy in the path (--proxy http, conductor/proxy.py). Which cells can take it (the registry's
`http-proxy` capability; each client's manifest entry: `variants` says how its stack takes one, with the `env` it is
started with, `variants_unsupported` why it cannot), what the client is told (`connection` in the connect command,
PROTOCOL.md), and the evidence each timed record must show (a connection accepted per call; requests the proxy
relayed for the cell): a client that ignores the variant is an error, never a silent pass."""
from pathlib import Path

from . import proxy as proxy_mod

CONNECTIONS = ("kept", "per-call")
PROXIES = ("", "http")
PER_CALL, HTTP_PROXY = "per-call", "http-proxy"  # the manifest's names of the two (`variants`)
# Accepted connections per timed call below which a per-call client kept a connection (one per call when it did not).
LEAST_CONNECTIONS_PER_CALL = 0.99


def of(connection: str, proxy: str, proxy_version: str) -> dict:
    """The variant every record and env.json carry: {} for the default cell."""
    return ({"connection": connection} if connection != "kept" else {}) | ({"proxy": proxy_version} if proxy else {})


def wanted(variant: dict) -> list[str]:
    """The manifest's names of what a variant asks of a client."""
    return ([PER_CALL] if variant.get("connection") == "per-call" else []) + ([HTTP_PROXY] if variant.get("proxy")
                                                                             else [])


def _reason(cell: dict, need: str, registry: dict) -> str | None:
    """Why a cell cannot take one part of the variant, or None."""
    flag = "--connection per-call" if need == PER_CALL else "--proxy http"
    lacks = registry["protocols"].get(cell["protocol"], {}).get("lacks", {})
    if need == HTTP_PROXY and HTTP_PROXY in lacks:
        return f"{flag}: {lacks[HTTP_PROXY]}"
    said = (cell.get("client_variants_unsupported") or {}).get(need)
    if said:
        return f"{flag}: {said}"
    if need not in (cell.get("client_variants") or {}):
        return f"{flag}: the manifest of {cell['client']} declares no way for its {cell['protocol']} client to take it"
    return None


def apply(cells: list[dict], variant: dict, registry: dict) -> None:
    """Each cell carries the variant; one whose protocol or client cannot take it is unsupported, with the reason."""
    for c in cells:
        c["variant"] = variant
        reasons = [r for r in (_reason(c, need, registry) for need in wanted(variant)) if r]
        if reasons and not c.get("unsupported") and not c.get("error"):
            c["unsupported"] = "; ".join(reasons)


def env(cell: dict, proxy_address: str) -> list[str]:
    """`NAME=VALUE` words the client is started with (after `env`), as its manifest entry says for the variant;
    {proxy_host} and {proxy_port} are the proxy's, {proxy} both. A name both parts set (JAVA_TOOL_OPTIONS) gets both
    values, a space between."""
    host, _, port = proxy_address.partition(":")
    values = {"{proxy}": proxy_address, "{proxy_host}": host, "{proxy_port}": port}
    out: dict[str, list[str]] = {}
    for need in wanted(cell.get("variant") or {}):
        for name, value in ((cell.get("client_variants") or {}).get(need, {}).get("env") or {}).items():
            for key, text in values.items():
                value = value.replace(key, text)
            out.setdefault(name, []).append(value)
    return [f"{name}={' '.join(parts)}" for name, parts in out.items()]


def connect_fields(cell: dict) -> dict:
    """What the connect command adds for the variant (PROTOCOL.md: connect)."""
    return {"connection": "per-call"} if (cell.get("variant") or {}).get("connection") == "per-call" else {}


def unacknowledged(cell: dict, answer: dict) -> str | None:
    """A client asked for a connection per call must say so in its connect answer; why not, or None."""
    asked = connect_fields(cell).get("connection")
    if asked and answer.get("connection") != asked:
        return (f"the client did not acknowledge a connection per call (its connect answer has connection "
                f"{answer.get('connection')!r}): it would time kept connections as per-call ones")
    return None


def check(rec: dict, cell: dict, cell_dir: Path, run: Path) -> None:
    """A timed record's evidence that the variant was there (`variant_evidence`); an error where it was not."""
    variant = cell.get("variant") or {}
    evidence, wrong = {}, []
    if variant.get("connection") == "per-call":
        per_call = (rec.get("wire_per_call") or {}).get("connections")
        evidence["connections_per_call"] = per_call
        if per_call is not None and per_call < LEAST_CONNECTIONS_PER_CALL:
            wrong.append(f"--connection per-call: the server accepted {per_call:.3f} connections per timed call: the "
                         "client kept its connection")
    if variant.get("proxy"):
        relayed = proxy_mod.relayed_since(run, cell_dir)
        evidence["proxy_requests"] = relayed
        if relayed == 0:
            wrong.append("--proxy http: the proxy relayed no request to the cell's server: the client went around it")
    if evidence:
        rec["variant_evidence"] = evidence
    if wrong and rec.get("status") == "pass":
        rec.update(status="error", reason="; ".join(wrong))
