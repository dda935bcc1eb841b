"""Deep nesting: a parameter nested 100,000 levels deep (XML-RPC arrays, SOAP or Burlap elements, JSON
arrays), about 2 MB; a parser that recurses per level overflows its stack."""
from __future__ import annotations

from rpcmatrix.battery import documents
from rpcmatrix.battery.target import Target

DEPTH = 100_000


def body(family: str) -> bytes:
    if family == "xmlrpc":
        inner = "<value><array><data>" * DEPTH + "</data></array></value>" * DEPTH
        return ('<?xml version="1.0"?><methodCall><methodName>echoString</methodName><params><param>'
                + inner + "</param></params></methodCall>").encode()
    if family == "soap":
        return documents.xml_call(family, "<b:x>" * DEPTH + "</b:x>" * DEPTH)
    if family == "burlap":
        return ("<burlap:call><method>echoString</method>" + "<list><type></type><length>1</length>" * DEPTH
                + "</list>" * DEPTH + "</burlap:call>").encode()
    return ('{"jsonrpc": "2.0", "method": "echoString", "id": 1, "params": ' + "[" * DEPTH + "]" * DEPTH
            + "}").encode()


def run(target: Target) -> dict:
    seen = documents.post(target, body(target.family))
    return documents.result(seen, target.served())
