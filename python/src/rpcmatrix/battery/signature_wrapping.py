"""XML signature wrapping against WS-Security signatures (wss-sign): an echoString call signed by a trusted
client, then rearranged so that what is signed is not what a careless server executes. Two variants, both
keeping the signed Body's wsu:Id on the copy, as the classic attack does:
- moved: the signed Body goes into a header of its own, and an unsigned Body with another argument takes
  its place (the signature's reference still finds the signed element by its Id);
- duplicated: a second, unsigned Body follows the signed one.
A server that echoes the unsigned argument executed what nobody signed: "executed-unsigned", a breach. One
that echoes the signed argument took an envelope SOAP does not allow (one Body, the Envelope's last child
but for its header) and executed what was signed: "answered". A strict server refuses both."""
from __future__ import annotations

import copy

from lxml import etree

from rpcmatrix.battery import documents, wire
from rpcmatrix.battery.target import Target
from rpcmatrix.contract.operations import BY_NAME

SIGNED, UNSIGNED = "signed-canary", "unsigned-canary"
_WRAPPER = "{urn:rpcmatrix:battery}Wrapper"


def signed_call(target: Target) -> etree._Element:
    """An echoString(SIGNED) envelope signed as the suite's Python WS-Security client signs its calls."""
    from rpcmatrix.soap.client import endpoint
    from rpcmatrix.soap.wsse_client import SecuredSoapClient
    from rpcmatrix.soap.wsse_common import Timestamp
    pinger = target.pinger
    variant = pinger.registered.variant
    client = SecuredSoapClient(pinger.idl, variant.get("soap", "1.1"), endpoint(target.host, target.port),
                               variant["security"], pinger.secrets)
    try:
        message = client.message(BY_NAME["echoString"], [SIGNED], [Timestamp(), client.credential()])
    finally:
        client.close()
    return etree.fromstring(message)


def _unsigned_copy(body: etree._Element) -> etree._Element:
    fake = copy.deepcopy(body)
    for node in fake.iter():
        if node.text == SIGNED:
            node.text = UNSIGNED
    return fake


def wrapped(envelope: etree._Element, variant: str) -> bytes:
    """The signed envelope rearranged: "moved" or "duplicated" (see the module's text)."""
    envelope = copy.deepcopy(envelope)
    body = envelope.find("{*}Body")
    if variant == "moved":
        header = envelope.find("{*}Header")
        envelope.remove(body)
        etree.SubElement(header, _WRAPPER).append(body)
        envelope.append(_unsigned_copy(body))
    elif variant == "duplicated":
        envelope.append(_unsigned_copy(body))
    else:
        raise ValueError(f"unknown wrapping {variant!r}")
    return etree.tostring(envelope, xml_declaration=True, encoding="UTF-8")


def judge(seen: wire.Seen) -> str:
    outcome = wire.judge(seen)
    if outcome != "answered":
        return outcome
    payload = documents.body_of(seen)
    if UNSIGNED.encode() in payload:
        return "executed-unsigned"
    return "answered"


def run(target: Target) -> dict:
    outcomes, answers = [], []
    for variant in ("moved", "duplicated"):
        # each from a message signed for it: one signed message sent twice is a replay, refused as such
        seen = documents.post(target, wrapped(signed_call(target), variant))
        outcome = judge(seen)
        outcomes.append(outcome)
        answers.append(f"{variant}: {outcome} {seen.excerpt()[-120:]}")
    during = target.served()
    worst = next((o for o in ("executed-unsigned", "answered") if o in outcomes), outcomes[0])
    return {"outcome": worst, "answer": " | ".join(answers), "served_during": during}
