"""WS-Security pieces both sides use: the Timestamp, reading the signer's certificate, verifying an
envelope's signature (zeep.wsse's xmlsec-based verification) against a certificate issued by the set-up
CA, and the credentials in {secrets}.

Variants (idl/protocols.json): `username-token` (UsernameToken with password digest, nonce and created,
plus a Timestamp), `x509-signature` (a BinarySecurityToken and an RSA-SHA256 signature over Body and
Timestamp, in both directions)."""
from __future__ import annotations

import base64
import datetime
import json
from pathlib import Path

import xmlsec
from cryptography import x509
from lxml import etree
from zeep import ns
from zeep.wsse import utils as wsse_utils
from zeep.wsse.signature import BinarySignature, _verify_envelope_with_key

USERNAME_TOKEN = "username-token"
SIGNATURE = "x509-signature"
TIMESTAMP_TTL = datetime.timedelta(minutes=5)
CLOCK_SKEW = datetime.timedelta(minutes=5)  # tolerated between the two sides' clocks (WSS4J's default)

_WSU = ns.WSU
_WSSE = ns.WSSE
_DS = ns.DS
_BST = f"{{{_WSSE}}}BinarySecurityToken"


class SecurityRefused(Exception):
    """A secured message the server refuses; the text goes into the SOAP Fault."""


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def xsd_datetime(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_datetime(text: str | None, what: str) -> datetime.datetime:
    if not text:
        raise SecurityRefused(f"{what} missing")
    try:
        moment = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise SecurityRefused(f"{what} is not an xsd:dateTime: {text!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment


class Timestamp:
    """A zeep wsse plugin adding a fresh wsu:Timestamp (Created, Expires) to each message; `created`
    shifts it (the expired-timestamp attack)."""

    def __init__(self, shift: datetime.timedelta = datetime.timedelta(0)):
        self.shift = shift

    def apply(self, envelope, headers):
        security = wsse_utils.get_security_header(envelope)
        created = now() + self.shift
        stamp = wsse_utils.WSU.Timestamp(wsse_utils.WSU.Created(xsd_datetime(created)),
                                         wsse_utils.WSU.Expires(xsd_datetime(created + TIMESTAMP_TTL)))
        wsse_utils.ensure_id(stamp)
        security.append(stamp)
        return envelope, headers

    def verify(self, envelope):
        return envelope


def check_timestamp(security) -> etree._Element:
    stamp = security.find(f"{{{_WSU}}}Timestamp")
    if stamp is None:
        raise SecurityRefused("no wsu:Timestamp in the security header")
    created = parse_datetime(stamp.findtext(f"{{{_WSU}}}Created"), "Timestamp/Created")
    expires = parse_datetime(stamp.findtext(f"{{{_WSU}}}Expires"), "Timestamp/Expires")
    moment = now()
    if expires <= moment:
        raise SecurityRefused(f"the message expired at {xsd_datetime(expires)}")
    if created > moment + CLOCK_SKEW:
        raise SecurityRefused("the message was created in the future")
    return stamp


def security_header(envelope) -> etree._Element:
    security = envelope.find(f"{{*}}Header/{{{_WSSE}}}Security")
    if security is None:
        raise SecurityRefused("no wsse:Security header")
    return security


class Trust:
    """The set-up CA: a signer's certificate must be issued by it and be within its validity."""

    def __init__(self, ca_pem: bytes):
        self.ca = x509.load_pem_x509_certificate(ca_pem)

    def check(self, certificate: x509.Certificate) -> None:
        try:
            certificate.verify_directly_issued_by(self.ca)
        except Exception as e:
            raise SecurityRefused(f"the signer's certificate ({certificate.subject.rfc4514_string()}) is not "
                                  f"issued by the trusted CA: {type(e).__name__}") from None
        moment = now()
        if not certificate.not_valid_before_utc <= moment <= certificate.not_valid_after_utc:
            raise SecurityRefused("the signer's certificate is outside its validity period")


def verify_signature(envelope, trust: Trust) -> str:
    """Checks the envelope's ds:Signature: made with the key of the BinarySecurityToken's certificate,
    that certificate issued by the trusted CA, and covering both the Body and the Timestamp. Returns the
    SignatureValue (what a replay cache remembers). Raises SecurityRefused."""
    security = security_header(envelope)
    token = security.find(_BST)
    if token is None or not (token.text or "").strip():
        raise SecurityRefused("no wsse:BinarySecurityToken (signer's certificate)")
    der = base64.b64decode(token.text)
    trust.check(x509.load_der_x509_certificate(der))
    signature = security.find(f"{{{_DS}}}Signature")
    if signature is None:
        raise SecurityRefused("no ds:Signature in the security header")
    references = {ref.get("URI", "")[1:] for ref in signature.iterfind(f"{{{_DS}}}SignedInfo/{{{_DS}}}Reference")}
    body = envelope.find("{*}Body")
    stamp = security.find(f"{{{_WSU}}}Timestamp")
    for name, node in (("Body", body), ("Timestamp", stamp)):
        node_id = node.get(f"{{{_WSU}}}Id") if node is not None else None
        if node_id is None or node_id not in references:
            raise SecurityRefused(f"the signature does not cover the {name}")
        if len(envelope.xpath("//*[@wsu:Id=$id]", namespaces={"wsu": _WSU}, id=node_id)) != 1:
            raise SecurityRefused(f"the {name}'s wsu:Id is not unique")
    key = xmlsec.Key.from_memory(der, xmlsec.KeyFormat.CERT_DER, None)
    try:
        _verify_envelope_with_key(envelope, key)
    except Exception as e:
        raise SecurityRefused(f"the signature does not verify ({type(e).__name__})") from None
    return (signature.findtext(f"{{{_DS}}}SignatureValue") or "").strip()


class _Signer(BinarySignature):
    """Signs only: zeep's BinarySignature.verify checks an answer against the signer's own certificate,
    whereas answers come signed by the other side's (checked against the CA by verify_signature)."""

    def verify(self, envelope):
        return envelope


def signer(secrets: Path, name: str) -> BinarySignature:
    """zeep's BinarySignature with NAME.key/NAME.crt: RSA-SHA256 over Body and Timestamp, SHA-256 digests,
    the certificate in a BinarySecurityToken."""
    return _Signer(str(Path(secrets) / f"{name}.key"), str(Path(secrets) / f"{name}.crt"),
                           signature_method=xmlsec.Transform.RSA_SHA256, digest_method=xmlsec.Transform.SHA256)


def username_credential(secrets: Path) -> tuple[str, str]:
    with open(Path(secrets) / "username-token.json", encoding="utf-8") as f:
        credential = json.load(f)
    return credential["username"], credential["password"]
