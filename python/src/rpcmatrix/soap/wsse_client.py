"""The WS-Security client: zeep with zeep.wsse plugins (a fresh Timestamp, then a UsernameToken with a
password digest, or zeep's BinarySignature: RSA-SHA256 over Body and Timestamp with xmlsec), verifying
signed answers against the set-up CA. It is an AttackClient (harness/attacks.py): it can send each defect
of CONTRACT.md's attack vectors, built from the same zeep message and plugins."""
from __future__ import annotations

import datetime
from pathlib import Path

import requests
from lxml import etree
from zeep.wsse.compose import Compose
from zeep.wsse.username import UsernameToken

from rpcmatrix.contract.operations import BY_NAME, Operation
from rpcmatrix.soap.mapping import to_wire
from rpcmatrix.soap.names import TNS
from rpcmatrix.soap.plain_client import TIMEOUT_S, SoapClient, zeep_client
from rpcmatrix.soap.wsse_common import (
    SIGNATURE,
    USERNAME_TOKEN,
    SecurityRefused,
    Timestamp,
    Trust,
    check_timestamp,
    security_header,
    signer,
    username_credential,
    verify_signature,
)

_EXPIRED_SHIFT = datetime.timedelta(minutes=-10)  # created 10 minutes ago, so expired 5 minutes ago
_PING = BY_NAME["ping"]


class _VerifyAnswers:
    """Checks a signed answer: fresh Timestamp, signature by a certificate of the set-up CA over Body and
    Timestamp. A Fault is let through unchecked: it carries no result, and a server's security refusals
    cannot be signed for a client it has not authenticated."""

    def __init__(self, trust: Trust):
        self.trust = trust

    def apply(self, envelope, headers):
        return envelope, headers

    def verify(self, envelope):
        if envelope.find("{*}Body/{*}Fault") is not None:
            return envelope
        try:
            check_timestamp(security_header(envelope))
            verify_signature(envelope, self.trust)
        except SecurityRefused as e:
            raise SecurityRefused(f"the server's answer: {e}") from None
        return envelope


class SecuredSoapClient(SoapClient):
    def __init__(self, idl: Path, version: str, url: str, security: str, secrets: Path | None):
        if security not in (USERNAME_TOKEN, SIGNATURE):
            raise ValueError(f"security {security!r} is not implemented by this client")
        if secrets is None:
            raise ValueError("--secrets is required for WS-Security")
        self.security, self.secrets, self.url, self.idl = security, Path(secrets), url, idl
        plugins = [Timestamp(), self.credential()]
        if security == SIGNATURE:
            plugins.append(_VerifyAnswers(Trust((self.secrets / "ca.crt").read_bytes())))
        super().__init__(idl, version, url, wsse=Compose(plugins))
        self.facts["wsse"] = security
        self._plain = None  # a zeep client without wsse, which builds the attacks' messages

    def credential(self, password_suffix: str = "", signer_name: str = "client"):
        if self.security == USERNAME_TOKEN:
            username, password = username_credential(self.secrets)
            return UsernameToken(username, password + password_suffix, use_digest=True)
        return signer(self.secrets, signer_name)

    # AttackClient

    def attack(self, attack: str, operation: Operation, args: list) -> str | None:
        fresh = Timestamp()
        plugins = {
            "missing-security-header": [],
            "expired-timestamp": [Timestamp(_EXPIRED_SHIFT), self.credential()],
            "replayed-message": [fresh, self.credential()],
            "wrong-password": [fresh, self.credential(password_suffix="-wrong")],
            "tampered-body": [fresh, self.credential()],
            "unknown-certificate": [fresh, self.credential(signer_name="rogue-client")],
        }.get(attack)
        if plugins is None:
            raise ValueError(f"unknown attack {attack!r}")
        if attack in ("wrong-password",) and self.security != USERNAME_TOKEN:
            raise ValueError(f"{attack} needs a UsernameToken variant")
        if attack in ("tampered-body", "unknown-certificate") and self.security != SIGNATURE:
            raise ValueError(f"{attack} needs a signing variant")
        message = self.message(operation, args, plugins)
        if attack == "tampered-body":
            message = _tampered(message, args)
        if attack == "replayed-message":
            first = self.post(operation, message)
            if first is not None:
                raise RuntimeError(f"the first copy was already refused: {first}")
        return self.post(operation, message)

    def ping_after_attack(self) -> None:
        self.session.close()  # the next call opens a new connection
        self.call(_PING, ())

    def message(self, operation: Operation, args: list, plugins: list) -> bytes:
        if self._plain is None:
            self._plain = zeep_client(self.idl, self.session)
        service = self._plain.create_service(self.service._binding.name, self.url)
        kwargs = {p.name: to_wire(p.type)(arg) for p, arg in zip(operation.params, args, strict=True)}
        envelope = self._plain.create_message(service, operation.name, **kwargs)
        for plugin in plugins:
            envelope, _ = plugin.apply(envelope, {})
        return etree.tostring(envelope, xml_declaration=True, encoding="UTF-8")

    def post(self, operation: Operation, message: bytes) -> str | None:
        """Sends a message as it is; the refusal seen, or None when the server answered it."""
        headers = {"Content-Type": "text/xml; charset=utf-8", "SOAPAction": f'"{TNS}:{operation.name}"'}
        try:
            response = self.session.post(self.url, data=message, headers=headers, timeout=TIMEOUT_S)
        except requests.ConnectionError as e:
            return f"connection closed: {e}"
        return _refusal(response)


def _tampered(message: bytes, args: list) -> bytes:
    """The signed message with the first argument's text changed in the Body ("signed" -> "tampered")."""
    envelope = etree.fromstring(message)
    changed = 0
    for node in envelope.find("{*}Body").iter():
        if node.text == args[0]:
            node.text = "tampered"
            changed += 1
    if changed != 1:
        raise ValueError(f"cannot find the argument {args[0]!r} in the signed body")
    return etree.tostring(envelope, xml_declaration=True, encoding="UTF-8")


def _refusal(response: requests.Response) -> str | None:
    try:
        envelope = etree.fromstring(response.content)
    except etree.XMLSyntaxError:
        envelope = None
    fault = envelope.find("{*}Body/{*}Fault") if envelope is not None else None
    if fault is not None:
        code = fault.findtext("faultcode") or fault.findtext("{*}Code/{*}Value") or ""
        reason = fault.findtext("faultstring") or fault.findtext("{*}Reason/{*}Text") or ""
        return f"SOAP Fault {code.strip()}: {reason.strip()}"
    if response.status_code != 200 or envelope is None:
        return f"HTTP {response.status_code} without a SOAP Fault"
    return None
