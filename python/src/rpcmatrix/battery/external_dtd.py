"""External DTD: a DOCTYPE whose DTD is at a canary listener on 127.0.0.1 (a socket of the battery's own that
answers nothing and is closed after the attack). "fetched" when the server connected to it."""
from __future__ import annotations

import socket
import threading

from rpcmatrix.battery import documents
from rpcmatrix.battery.target import Target


def run(target: Target) -> dict:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    hits: list[bytes] = []
    stop = threading.Event()

    def accept():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(0.5)
                try:
                    hits.append(conn.recv(200))
                except OSError:
                    hits.append(b"")

    watcher = threading.Thread(target=accept, daemon=True)
    watcher.start()
    try:
        doctype = f'<!DOCTYPE {documents.root_name(target.family)} SYSTEM "http://127.0.0.1:{port}/canary.dtd">'
        seen = documents.post(target, documents.xml_call(target.family, "canary", doctype), seconds=4.0)
        during = target.served()
    finally:
        stop.set()
        watcher.join(1.0)
        listener.close()
    if hits:
        first = hits[0].split(b"\r\n")[0].decode("latin-1")
        return documents.result(seen, during, "fetched", f"the server fetched the DTD ({first!r}); then: ")
    return documents.result(seen, during)
