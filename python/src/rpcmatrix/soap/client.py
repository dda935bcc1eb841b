"""The SOAP client of `python -m rpcmatrix.soap client`: the plain zeep client (plain_client.py) at the
server's endpoint, or for WS-Security variants the signing one (wsse_client.py), an AttackClient."""
from __future__ import annotations

from rpcmatrix.soap.names import PATH
from rpcmatrix.soap.plain_client import SoapClient


def endpoint(host: str, port: int) -> str:
    authority = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return f"http://{authority}{PATH}"


def connect(options) -> SoapClient:
    variant = options.registered.variant
    version = variant.get("soap", "1.1")
    url = endpoint(options.host, options.port)
    if variant.get("security", "none") != "none":
        # Imported only here: the plain variants' clients load neither xmlsec nor the WS-Security code.
        from rpcmatrix.soap.wsse_client import SecuredSoapClient
        return SecuredSoapClient(options.idl, version, url, variant["security"], options.secrets)
    return SoapClient(options.idl, version, url)
