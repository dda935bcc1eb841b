"""The HTTP proxy a client is told to use (--proxy http): HTTP_PROXY, read as urllib and requests read it. A plain
http.client connection cannot take one, so the HTTP clients that use it open their connection to the proxy and
put the absolute URI in the request line (RFC 9112 §3.2.2), as a forward proxy expects. A proxy may close a
connection after its answer without saying so (tinyproxy 1.11 does, after every answer): before each request through
one, a connection the proxy closed is closed here too, so http.client opens a new one, as urllib3 and curl check a
kept connection before reusing it; a request that meets the close on its way (the proxy closed as it was sent) is
sent once more on a new connection, as xmlrpc.client's Transport does: the proxy read none of it."""
from __future__ import annotations

import http.client
import select
import urllib.parse
import urllib.request


def proxy_for(host: str) -> tuple[str, int] | None:
    """(host, port) of the proxy for a server at `host`, or None: no HTTP_PROXY, or NO_PROXY names it."""
    url = urllib.request.getproxies_environment().get("http")
    if not url or urllib.request.proxy_bypass_environment(host):
        return None
    parsed = urllib.parse.urlsplit(url if "://" in url else f"http://{url}")
    return parsed.hostname, parsed.port or 80


def authority(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def connection(host: str, port: int) -> tuple[http.client.HTTPConnection, str]:
    """A connection for requests to the server at host:port, through the proxy where there is one, and the prefix of
    each request's target: "" (origin form) or "http://HOST:PORT" (absolute form, for the proxy)."""
    proxy = proxy_for(host)
    if proxy is None:
        return http.client.HTTPConnection(host, port), ""
    return http.client.HTTPConnection(*proxy), f"http://{authority(host, port)}"


def reopen_if_dropped(connection: http.client.HTTPConnection) -> None:
    """Closes a kept connection its peer has closed (readable with nothing sent back: end of stream), so the next
    request opens a new one instead of failing on the dead one."""
    sock = connection.sock
    if sock is not None and select.select([sock], [], [], 0)[0]:
        connection.close()


# what a kept connection the proxy closed as the request went out raises
_CLOSED = (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected)


def post(connection: http.client.HTTPConnection, url: str, body: bytes, headers: dict) -> http.client.HTTPResponse:
    """A POST through the proxy on a kept connection: reopened where the proxy closed it, once more on a new one where
    the proxy closed it as the request went out."""
    reused = connection.sock is not None
    reopen_if_dropped(connection)
    try:
        connection.request("POST", url, body, headers)
        return connection.getresponse()
    except _CLOSED:
        if not reused:
            raise
        connection.close()
        connection.request("POST", url, body, headers)
        return connection.getresponse()
