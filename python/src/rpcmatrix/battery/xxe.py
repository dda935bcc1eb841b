"""XXE file read: an external entity naming a canary file (a random token in a file of the battery's own under
/tmp), used as echoString's argument. "leaked" when the token comes back: the parser read the file."""
from __future__ import annotations

import os
import secrets
import tempfile

from rpcmatrix.battery import documents
from rpcmatrix.battery.target import Target


def run(target: Target) -> dict:
    token = "rpcmatrix-canary-" + secrets.token_hex(8)
    fd, path = tempfile.mkstemp(prefix="rpcmatrix-canary-", suffix=".txt")
    try:
        os.write(fd, token.encode())
        os.close(fd)
        doctype = f'<!DOCTYPE {documents.root_name(target.family)} [<!ENTITY xxe SYSTEM "file://{path}">]>'
        seen = documents.post(target, documents.xml_call(target.family, "&xxe;", doctype))
    finally:
        os.unlink(path)
    during = target.served()
    if token.encode() in seen.data:
        return documents.result(seen, during, "leaked", "the canary file's token came back: ")
    return documents.result(seen, during)
