"""`client --check-wsdl URL`: can zeep build a client from a server's published WSDL? Prints one JSON line,
{"ok": true|false, "reason": "..."}, and exits 0 either way (the answer is the line).

ok means zeep read the WSDL and every schema it imports, and found a binding with every operation of the
contract (the stream operation aside); the reason then names that binding."""
from __future__ import annotations

import json
import sys

import requests
import zeep
from zeep.transports import Transport

from rpcmatrix.contract.operations import OPERATIONS

TIMEOUT_S = 30


def check_wsdl(url: str) -> dict:
    wanted = {op.name for op in OPERATIONS if not op.is_stream}
    try:
        client = zeep.Client(url, transport=Transport(session=requests.Session(), timeout=TIMEOUT_S),
                             settings=zeep.Settings(strict=True, xml_huge_tree=True))
    except Exception as e:
        return {"ok": False, "reason": f"zeep cannot read the WSDL: {type(e).__name__}: {_short(e)}"}
    bindings = client.wsdl.bindings
    missing_by_binding = {}
    for name, binding in bindings.items():
        missing = wanted - set(binding._operations)
        if not missing:
            reason = f"zeep built a client; binding {name} has the contract's {len(wanted)} operations"
            return {"ok": True, "reason": reason}
        missing_by_binding[name] = sorted(missing)
    if not missing_by_binding:
        return {"ok": False, "reason": "zeep read the WSDL, but it declares no binding"}
    name, missing = min(missing_by_binding.items(), key=lambda item: len(item[1]))
    return {"ok": False, "reason": f"no binding has every operation: {name} lacks {', '.join(missing)}"}


def _short(error: Exception, limit: int = 300) -> str:
    text = " ".join(str(error).split())
    return text if len(text) <= limit else text[:limit] + "..."


def print_check(url: str) -> int:
    sys.stdout.write(json.dumps(check_wsdl(url)) + "\n")
    sys.stdout.flush()
    return 0
