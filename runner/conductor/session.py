"""A client process's command loop (runner/PROTOCOL.md), spoken from the conductor: one JSON command per line
into the process's client.in FIFO, one JSON answer per line out of client.out.

The shell started the client and holds both FIFOs' other ends for the whole run (runner/lib/client.sh): a
client that dies shows here as a FIFO without a reader (a write fails) or as end of file. The shell speaks on
the same FIFOs in the timed window, never at the same time as the conductor; one command has one answer, so
nothing is read beyond the answer of the command sent.
"""
import errno
import json
import os
import select
import time
from dataclasses import dataclass
from pathlib import Path

OK, FAILED, GONE, HUNG = 0, 1, 2, 3


@dataclass
class Answer:
    status: int  # OK, FAILED (ok: false), GONE (the client exited), HUNG (no answer in time)
    data: dict
    error: str = ""

    @property
    def lost(self) -> bool:
        """The client is gone or hangs: it cannot serve another command."""
        return self.status >= GONE


class Session:
    def __init__(self, process_dir: Path, timeout_s: float):
        self.dir = Path(process_dir)
        self.timeout_s = timeout_s
        self._in = self._out = None

    def _open(self) -> str:
        """Opens both FIFOs without blocking: a FIFO with no reader refuses a writer (ENXIO)."""
        try:
            self._in = os.open(self.dir / "client.in", os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            return "client exited (could not send the command)" if e.errno == errno.ENXIO else str(e)
        os.set_blocking(self._in, True)
        self._out = os.open(self.dir / "client.out", os.O_RDONLY | os.O_NONBLOCK)
        return ""

    def close(self) -> None:
        for fd in (self._in, self._out):
            if fd is not None:
                os.close(fd)
        self._in = self._out = None

    def call(self, command: dict, timeout_s: float | None = None) -> Answer:
        if self._in is None:
            problem = self._open()
            if problem:
                return Answer(GONE, {}, problem)
        try:
            os.write(self._in, (json.dumps(command) + "\n").encode())
        except OSError:
            return Answer(GONE, {}, "client exited (could not send the command)")
        line = self._read_line(self.timeout_s if timeout_s is None else timeout_s)
        if isinstance(line, Answer):
            return line
        try:
            data = json.loads(line)
        except ValueError:
            return Answer(FAILED, {}, f"not a JSON answer: {line[:200]}")
        if data.get("ok") is True:
            return Answer(OK, data)
        return Answer(FAILED, data, str(data.get("error") or "answer without ok"))

    def _read_line(self, timeout_s: float):
        chunks, deadline = [], time.monotonic() + timeout_s
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._out], [], [], max(left, 0))
            if not ready:
                return Answer(HUNG, {}, f"client did not answer within {timeout_s:g}s")
            chunk = os.read(self._out, 65536)
            if not chunk:
                return Answer(GONE, {}, "client exited without answering")
            chunks.append(chunk)
            if chunk.endswith(b"\n"):
                return b"".join(chunks).decode("utf-8", "replace").rstrip("\n")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
