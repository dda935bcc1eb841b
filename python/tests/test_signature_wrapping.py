"""The battery's signature-wrapping envelopes (rpcmatrix.battery.signature_wrapping), built from a signed-like
envelope: the signed Body moved into a header or followed by an unsigned copy, the copy keeping its Id."""
from lxml import etree

from rpcmatrix.battery import signature_wrapping as wrapping
from rpcmatrix.battery import wire

SOAP = "http://schemas.xmlsoap.org/soap/envelope/"
SIGNED = (f'<s:Envelope xmlns:s="{SOAP}" xmlns:u="urn:u"><s:Header><Security/></s:Header>'
          f'<s:Body u:Id="id-1"><echoString xmlns="urn:rpcmatrix:bench"><value>{wrapping.SIGNED}</value>'
          "</echoString></s:Body></s:Envelope>")


def _bodies(envelope) -> list:
    return envelope.findall(f".//{{{SOAP}}}Body")


def test_moved_puts_the_signed_body_in_a_header_and_an_unsigned_copy_with_its_id_in_its_place():
    envelope = etree.fromstring(wrapping.wrapped(etree.fromstring(SIGNED), "moved"))
    signed, fake = _bodies(envelope)
    assert signed.getparent().tag == "{urn:rpcmatrix:battery}Wrapper"
    assert fake.getparent() is envelope and envelope[-1] is fake
    assert signed.get("{urn:u}Id") == fake.get("{urn:u}Id") == "id-1"
    assert wrapping.UNSIGNED in etree.tostring(fake).decode() and wrapping.SIGNED in etree.tostring(signed).decode()


def test_duplicated_adds_an_unsigned_body_after_the_signed_one():
    signed, fake = _bodies(etree.fromstring(wrapping.wrapped(etree.fromstring(SIGNED), "duplicated")))
    assert signed.getparent() is fake.getparent()
    assert wrapping.SIGNED in etree.tostring(signed).decode() and wrapping.UNSIGNED in etree.tostring(fake).decode()


def test_an_answer_echoing_the_unsigned_argument_is_a_breach():
    ok = b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n<Envelope><Body><r>%s</r></Body></Envelope>"
    assert wrapping.judge(wire.Seen(ok % wrapping.UNSIGNED.encode(), "eof", 0.1)) == "executed-unsigned"
    assert wrapping.judge(wire.Seen(ok % wrapping.SIGNED.encode(), "eof", 0.1)) == "answered"
    assert wrapping.judge(wire.Seen(b"HTTP/1.1 500 Error\r\n\r\n<Fault/>", "eof", 0.1)) == "refused"
