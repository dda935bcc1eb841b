"""Requests written out by hand for the document attacks: an echoString call in each text family (XML-RPC,
SOAP 1.1, Burlap, JSON-RPC), with a DOCTYPE or a payload of the attack's choosing, sent on a new connection;
and how the answer is judged."""
from __future__ import annotations

from rpcmatrix.battery import wire
from rpcmatrix.battery.target import Target

XML_FAMILIES = ("xmlrpc", "soap", "burlap")
SECONDS = 5.0


def xml_call(family: str, payload: str, doctype: str = "") -> bytes:
    """echoString(payload) (payload is inserted as is: entity references stay references)."""
    if family == "xmlrpc":
        body = (f"<methodCall><methodName>echoString</methodName><params><param><value><string>{payload}"
                "</string></value></param></params></methodCall>")
    elif family == "soap":
        body = ('<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>'
                f'<b:echoString xmlns:b="urn:rpcmatrix:bench"><b:value>{payload}</b:value></b:echoString>'
                "</soap:Body></soap:Envelope>")
    elif family == "burlap":
        body = f"<burlap:call><method>echoString</method><string>{payload}</string></burlap:call>"
    else:
        raise ValueError(f"no XML call for {family}")
    return ('<?xml version="1.0"?>' + doctype + body).encode("utf-8")


def root_name(family: str) -> str:
    return {"xmlrpc": "methodCall", "soap": "soap:Envelope", "burlap": "burlap:call"}[family]


def post(target: Target, body: bytes, content_type: str | None = None, extra: dict | None = None,
         seconds: float = SECONDS) -> wire.Seen:
    head = wire.http_head(target.family, target.host, target.port, len(body), extra, content_type)
    if target.family == "soap":
        head = head.replace(b'SOAPAction: ""', b'SOAPAction: "urn:rpcmatrix:bench:echoString"')
    with wire.connect(target.host, target.port, timeout=seconds) as sock:
        stopped = wire.send_all(sock, head + body)
        seen = wire.read_answer(sock, seconds)
    if stopped and not seen.data:
        seen.state = "reset"
    return seen


def result(seen: wire.Seen, during: dict | None, outcome: str | None = None, note: str = "") -> dict:
    answer = seen.excerpt() or seen.state
    return {"outcome": outcome or wire.judge(seen), "answer": (note + answer) if note else answer,
            "served_during": during}


def body_of(seen: wire.Seen) -> bytes:
    return seen.data.partition(b"\r\n\r\n")[2]
