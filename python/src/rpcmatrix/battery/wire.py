"""What the attacks share: connecting, reading what a server does with a defective request (answers,
closes, holds), the HTTP request line and headers of each protocol, and the frames of the TCP ones."""
from __future__ import annotations

import socket
import time
from dataclasses import dataclass

# Per protocol family: the path and content type of its POSTs (the servers' own constants).
HTTP = {
    "xmlrpc": ("/RPC2", "text/xml"),
    "jsonrpc": ("/jsonrpc", "application/json"),
    "hessian": ("/hessian", "application/x-hessian"),
    "burlap": ("/burlap", "text/xml"),
    "httpinvoker": ("/httpinvoker", "application/x-java-serialized-object"),
    "soap": ("/bench", "text/xml; charset=utf-8"),
}
# Length-prefixed TCP framings: a u32 big-endian length, then the body (idl/rawtcp.md, Thrift framed).
FRAMED = ("rawtcp", "thrift")

EXCERPT = 200


@dataclass
class Seen:
    """What came back on an attack's connection within its time bound."""
    data: bytes
    state: str  # "eof" (closed after data or without), "reset", "timeout" (still open), "error"
    seconds: float

    def excerpt(self) -> str:
        text = self.data[:EXCERPT].decode("latin-1")
        return "".join(c if c.isprintable() else "." for c in text)


def connect(host: str, port: int, timeout: float = 3.0) -> socket.socket:
    sock = socket.create_connection((host, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def send_all(sock: socket.socket, data: bytes) -> str | None:
    """Sends; returns None, or how the server stopped taking bytes (it may close early: that is an answer)."""
    try:
        sock.sendall(data)
        return None
    except (BrokenPipeError, ConnectionResetError) as e:
        return type(e).__name__
    except TimeoutError:
        return "send timed out (the server stopped reading)"


def read_answer(sock: socket.socket, seconds: float, limit: int = 64 * 1024) -> Seen:
    """Reads until the server closes, `limit` bytes came, or `seconds` passed."""
    started = time.monotonic()
    deadline = started + seconds
    data = bytearray()
    state = "timeout"
    while len(data) < limit:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock.settimeout(left)
        try:
            chunk = sock.recv(limit - len(data))
        except TimeoutError:
            break
        except ConnectionResetError:
            state = "reset"
            break
        except OSError:
            state = "error"
            break
        if not chunk:
            state = "eof"
            break
        data += chunk
        if _complete_http(data):
            state = "eof" if _says_close(data) else "answered"
            break
    return Seen(bytes(data), state, time.monotonic() - started)


def _complete_http(data: bytearray) -> bool:
    """A whole HTTP response with a Content-Length (or none and a body): enough to judge it."""
    if not data.startswith(b"HTTP/"):
        return False
    head, sep, body = bytes(data).partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"transfer-encoding" and b"chunked" in value.lower():
            return body.endswith(b"0\r\n\r\n")
        if name.strip().lower() == b"content-length":
            try:
                return len(body) >= int(value.strip())
            except ValueError:
                return True
    return False


def _says_close(data: bytearray) -> bool:
    return b"\r\nconnection: close" in bytes(data).split(b"\r\n\r\n")[0].lower()


def http_status(data: bytes) -> int | None:
    if not data.startswith(b"HTTP/"):
        return None
    try:
        return int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


# Signs of an error inside a 200 answer: an XML-RPC or SOAP fault, a JSON-RPC error, a Hessian/Burlap fault.
_FAULTS = (b"<fault>", b"fault>", b'"error"', b"Fault", b"faultcode", b"Exception")


def judge(seen: Seen, accepted_if_ok: bool = True) -> str:
    """The outcome of one defective request: refused (an error came back), closed (nothing came back and
    the server closed), held (the connection is still open, nothing came back), answered (the server
    answered the defective request as if it were right)."""
    if seen.data:
        status = http_status(seen.data)
        if status is not None and 200 <= status < 300 and accepted_if_ok:
            body = seen.data.partition(b"\r\n\r\n")[2]
            # an empty 200 (jsonrpc4j's answer to what it cannot read) gives no result: not an answer
            if body.strip() and not any(mark in body for mark in _FAULTS):
                return "answered"
        return "refused"
    if seen.state in ("eof", "reset"):
        return "closed"
    if seen.state == "error":
        return "closed"
    return "held"


def http_head(family: str, host: str, port: int, length: int | str, extra: dict | None = None,
              content_type: str | None = None) -> bytes:
    path, default_type = HTTP[family]
    headers = {"Host": f"{host}:{port}", "Content-Type": content_type or default_type,
               "Content-Length": str(length)}
    if family == "soap":
        headers["SOAPAction"] = '""'
    headers.update(extra or {})
    lines = [f"POST {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")
