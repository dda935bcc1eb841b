"""The HTTP proxy of --proxy http: Debian's tinyproxy, a real forward proxy, in the clients' namespace on the clients'
own address. The conductor writes its configuration and argv into the run folder (the shell starts it as a process
group of the run, stopped with the others at the end and on Ctrl-C), says when it listens, and reads its log for
the requests it relayed to a cell's server: the evidence that a client went through it (variant.py)."""
import re
import subprocess
import time
from pathlib import Path

PORT = 3128  # the clients' namespace is the run's own: no other listener there
PROGRAM = "tinyproxy"
OFFSET = "proxy.offset"  # in a cell's pass folder: the log's size when the cell's part began


class ProxyError(Exception):
    pass


def version() -> str | None:
    """'tinyproxy 1.11.1', or None where it is not installed."""
    try:
        out = subprocess.run([PROGRAM, "-v"], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = (out.stdout or out.stderr).split()
    return f"{PROGRAM} {words[-1]}" if out.returncode == 0 and words else None


def folder(run: Path) -> Path:
    return run / "proxy"


def write(run: Path, listen: str) -> str:
    """The proxy's configuration (proxy/tinyproxy.conf) and argv (plan/proxy.argv) for the clients' address `listen`;
    returns the address the clients are given, HOST:PORT."""
    if not listen:
        raise ProxyError("--proxy http needs the run's network namespaces (the proxy runs in the clients' one)")
    home = folder(run)
    home.mkdir(parents=True, exist_ok=True)
    # Connect-level logging: a line per relayed request, the evidence the variant reads; bounded time-outs and
    # clients; no upstream (it forwards to the servers itself); only the clients' address may use it.
    (home / "tinyproxy.conf").write_text(
        f"Port {PORT}\nListen {listen}\nTimeout 30\nMaxClients 64\nAllow {listen}\nLogLevel Connect\n"
        f'LogFile "{home / "tinyproxy.log"}"\n')
    argv = [PROGRAM, "-d", "-c", str(home / "tinyproxy.conf")]
    (run / "plan" / "proxy.argv").write_bytes(b"".join(a.encode() + b"\0" for a in argv))
    return f"{listen}:{PORT}"


def _listening(pid: int) -> bool:
    """Whether the process's namespace has a socket listening on the proxy's port (state 0A of /proc/net/tcp)."""
    try:
        lines = Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return False
    return any(f[1].endswith(f":{PORT:04X}") and f[3] == "0A" for f in (line.split() for line in lines))


def wait_ready(run: Path, pid: int, timeout_s: float = 10) -> None:
    """Returns once the proxy listens; raises with its log's last lines when it exits or takes over `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists():
            break
        if _listening(pid):
            return
        time.sleep(0.05)
    log = folder(run) / "proxy.log"
    last = " ".join(log.read_text(errors="replace").splitlines()[-3:]) if log.exists() else ""
    raise ProxyError(f"the proxy ({PROGRAM}, pid {pid}) did not listen on port {PORT} within {timeout_s:.0f}s: {last}")


def _log(run: Path) -> Path:
    return folder(run) / "tinyproxy.log"


def mark(run: Path, cell_dir: Path) -> None:
    """Notes where the log stands as a cell's part begins."""
    log = _log(run)
    if log.parent.is_dir() and cell_dir.is_dir():
        (cell_dir / OFFSET).write_text(f"{log.stat().st_size if log.exists() else 0}\n")


def _server_port(cell_dir: Path) -> int | None:
    """The port of the cell's server, from its ready line (the cell's server.out)."""
    try:
        return int(re.search(r'"port":\s*(\d+)', (cell_dir / "server.out").read_text())[1])
    except (OSError, TypeError):
        return None


def relayed_since(run: Path, cell_dir: Path) -> int | None:
    """The requests the proxy relayed to the cell's server since the cell's part began (a forwarded request, or a
    CONNECT tunnel), or None where that cannot be read."""
    offset, port = cell_dir / OFFSET, _server_port(cell_dir)
    if not offset.exists() or port is None or not _log(run).exists():
        return None
    with _log(run).open("rb") as f:
        f.seek(int(offset.read_text()))
        text = f.read().decode(errors="replace")
    return len(re.findall(rf"Request \(file descriptor \d+\): \S+ (?:http://)?[^\s/]+:{port}[/\s]", text))
