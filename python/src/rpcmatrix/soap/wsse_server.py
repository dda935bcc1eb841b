"""WS-Security in front of the spyne service: a WSGI middleware that refuses, with a SOAP Fault, every
request whose security header does not hold (present, Timestamp fresh, not replayed, password digest or
signature valid by a certificate the set-up CA issued), and signs the answers of the x509-signature
variant. Verification is xmlsec's (through zeep.wsse); the middleware only decides what must be there."""
from __future__ import annotations

import base64
import collections
import hashlib
import hmac
import io
import threading
import time
from pathlib import Path

from lxml import etree
from zeep import ns

from rpcmatrix.soap.wsse_common import (
    CLOCK_SKEW,
    SIGNATURE,
    TIMESTAMP_TTL,
    USERNAME_TOKEN,
    SecurityRefused,
    Timestamp,
    Trust,
    check_timestamp,
    now,
    parse_datetime,
    security_header,
    signer,
    username_credential,
    verify_signature,
)

_WSSE = ns.WSSE
_WSU = ns.WSU
_SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
_PASSWORD_DIGEST = "#PasswordDigest"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, remove_blank_text=False)


class ReplayCache:
    """What was seen (a nonce, a signature value) until it could no longer pass the freshness check. Every
    entry is kept for the same time, so entries expire in the order they came: each call drops the expired
    ones from the front, at a constant cost per entry whatever the cache holds (rebuilding it whole on each
    call once it is large made every call slower as the calls added up)."""

    def __init__(self, keep_s: float, clock=time.monotonic):
        self.keep_s = keep_s
        self.clock = clock
        self.seen: dict[str, float] = {}
        self.order: collections.deque[tuple[float, str]] = collections.deque()
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.seen)

    def remember(self, key: str) -> None:
        """Raises SecurityRefused when `key` was seen less than keep_s ago."""
        moment = self.clock()
        with self.lock:
            while self.order and self.order[0][0] <= moment:
                del self.seen[self.order.popleft()[1]]
            if key in self.seen:
                raise SecurityRefused("the message replays one already received")
            self.seen[key] = moment + self.keep_s
            self.order.append((moment + self.keep_s, key))


def fault_envelope(code: str, reason: str) -> bytes:
    """A SOAP 1.1 Fault with a WS-Security fault code (wsse:InvalidSecurity, wsse:FailedAuthentication...)."""
    envelope = etree.Element(f"{{{_SOAP11}}}Envelope", nsmap={"soap": _SOAP11, "wsse": _WSSE})
    fault = etree.SubElement(etree.SubElement(envelope, f"{{{_SOAP11}}}Body"), f"{{{_SOAP11}}}Fault")
    etree.SubElement(fault, "faultcode").text = f"wsse:{code}"
    etree.SubElement(fault, "faultstring").text = reason
    return etree.tostring(envelope, xml_declaration=True, encoding="UTF-8")


class SecuredApp:
    def __init__(self, app, security: str, secrets: Path, version: str):
        if version != "1.1":
            raise ValueError("the WS-Security variants are SOAP 1.1")
        if security not in (USERNAME_TOKEN, SIGNATURE):
            raise ValueError(f"security {security!r} is not served here")
        if secrets is None:
            raise ValueError("--secrets is required for WS-Security")
        self.app, self.security, secrets = app, security, Path(secrets)
        self.replays = ReplayCache((TIMESTAMP_TTL + 2 * CLOCK_SKEW).total_seconds())
        if security == USERNAME_TOKEN:
            self.username, self.password = username_credential(secrets)
        else:
            self.trust = Trust((secrets / "ca.crt").read_bytes())
            self.answer_signer = signer(secrets, "server")

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "POST":
            return self.app(environ, start_response)  # the WSDL
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length)
        try:
            self.check(etree.fromstring(body, _PARSER))
        except SecurityRefused as refused:
            return self.refuse(start_response, "InvalidSecurity", str(refused))
        except etree.XMLSyntaxError as e:
            return self.refuse(start_response, "InvalidSecurity", f"not XML: {e}")
        environ["wsgi.input"] = io.BytesIO(body)
        if self.security != SIGNATURE:
            return self.app(environ, start_response)
        return self.signed_answer(environ, start_response)

    def check(self, envelope) -> None:
        security = security_header(envelope)
        check_timestamp(security)
        if self.security == USERNAME_TOKEN:
            self.replays.remember("nonce:" + self.check_username(security))
        else:
            self.replays.remember("signature:" + verify_signature(envelope, self.trust))

    def check_username(self, security) -> str:
        """Checks the UsernameToken's password digest, Base64(SHA-1(nonce + created + password)), and its
        Created; returns the nonce."""
        token = security.find(f"{{{_WSSE}}}UsernameToken")
        if token is None:
            raise SecurityRefused("no wsse:UsernameToken")
        password = token.find(f"{{{_WSSE}}}Password")
        nonce_text = token.findtext(f"{{{_WSSE}}}Nonce")
        created_text = token.findtext(f"{{{_WSU}}}Created")
        if password is None or not (password.get("Type") or "").endswith(_PASSWORD_DIGEST):
            raise SecurityRefused("the UsernameToken has no password digest")
        if not nonce_text or not created_text:
            raise SecurityRefused("the UsernameToken has no nonce or no created")
        created = parse_datetime(created_text, "UsernameToken/Created")
        moment = now()
        if not moment - TIMESTAMP_TTL - CLOCK_SKEW <= created <= moment + CLOCK_SKEW:
            raise SecurityRefused("the UsernameToken is not fresh")
        expected = base64.b64encode(hashlib.sha1(base64.b64decode(nonce_text) + created_text.encode("utf-8")
                                                 + self.password.encode("utf-8")).digest()).decode("ascii")
        if (token.findtext(f"{{{_WSSE}}}Username") or "") != self.username or not hmac.compare_digest(
                expected, (password.text or "").strip()):
            raise SecurityRefused("the username or the password is wrong")
        return nonce_text.strip()

    def signed_answer(self, environ, start_response):
        answer = {}

        def remember(status, headers, exc_info=None):
            answer["status"], answer["headers"] = status, headers

        body = b"".join(self.app(environ, remember))
        envelope = etree.fromstring(body, _PARSER)
        Timestamp().apply(envelope, {})
        self.answer_signer.apply(envelope, {})
        body = etree.tostring(envelope, xml_declaration=True, encoding="UTF-8")
        headers = [(k, v) for k, v in answer["headers"] if k.lower() != "content-length"]
        start_response(answer["status"], headers + [("Content-Length", str(len(body)))])
        return [body]

    @staticmethod
    def refuse(start_response, code: str, reason: str):
        body = fault_envelope("FailedAuthentication" if "password" in reason else code, reason)
        start_response("500 Internal Server Error",
                       [("Content-Type", "text/xml; charset=utf-8"), ("Content-Length", str(len(body)))])
        return [body]


def secured(app, security: str, secrets, version: str) -> SecuredApp:
    return SecuredApp(app, security, secrets, version)
