"""The run's cell variant (--connection per-call, --proxy http: runner/conductor/variant.py) in words: said at the
top of the summary and above each protocol's figures, since every figure of such a run includes it."""
from ..blocks import Code, Paragraph, Strong, Text


def words(variant: dict | None) -> str:
    """'a connection per call, through tinyproxy 1.11.1', or '' for the default cell."""
    parts = (["a connection per call (connect, call, close)"] if (variant or {}).get("connection") == "per-call"
             else []) + ([f"through an HTTP proxy ({variant['proxy']}) in the clients' namespace"]
                         if (variant or {}).get("proxy") else [])
    return ", ".join(parts)


def note(run: dict) -> list:
    said = words(run.get("variant"))
    if not said:
        return []
    flags = " ".join(f"--{k} {'http' if k == 'proxy' else v}" for k, v in run["variant"].items())
    return [Paragraph(Text(Strong("Variant of the cells:"), f" every timed call of this run is made with {said} (",
                           Code(flags), "); the cells that cannot take it are unsupported, with the reason. Its "
                           "figures are not those of the default cell."))]
