"""A server on another host (`--server-host USER@HOST[:PORT]`): the ssh command the shell starts each server
through, and the checks made before anything runs there: the host is reached with the key, its checkout is of this
commit (built there first with --build-remote), and its environment goes into env.json as `server_host`. The
shell (runner/lib/remote.sh) only executes: sessions, the sampler, stopping."""
import hashlib
import json
import re
import socket
import subprocess
from pathlib import Path

from . import environment

ROOT = Path(__file__).resolve().parents[2]
# Bounded: a host that does not answer fails in seconds, a connection that dies is noticed in about 6 s.
SSH_OPTIONS = ("-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "-o", "ServerAliveInterval=2",
               "-o", "ServerAliveCountMax=3", "-o", "StrictHostKeyChecking=accept-new", "-o", "LogLevel=ERROR")


class RemoteError(Exception):
    pass


def parse_host(text: str) -> tuple[str, str, int]:
    """USER@HOST[:PORT] (HOST a name, an IPv4 address or [IPv6]) as (user, host, port)."""
    match = re.fullmatch(r"([A-Za-z0-9._-]+)@(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::([0-9]{1,5}))?", text)
    if not match or not 0 < int(match[3] or 22) < 65536:
        raise RemoteError(f"--server-host takes USER@HOST[:PORT], not '{text}'")
    return match[1], match[2].strip("[]"), int(match[3] or 22)


def address(host: str) -> str:
    """The address the clients dial and the servers bind there (a server binds an address, not a name)."""
    try:
        return socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)[0][4][0]
    except OSError as e:
        raise RemoteError(f"--server-host: cannot resolve {host}: {e}") from e


def ssh_argv(user: str, host: str, port: int, key: str, known_hosts: str, control: str) -> list[str]:
    """ssh to the host with the run's key, through the run's control connection when it is up (a new session then
    costs no handshake; without it, ssh connects on its own)."""
    return ["ssh", *SSH_OPTIONS, "-o", f"UserKnownHostsFile={known_hosts}", "-o", "IdentitiesOnly=yes",
            "-o", f"ControlPath={control}", "-i", key, "-p", str(port), f"{user}@{host}"]


def _ssh(argv: list[str], command: str, timeout: int) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([*argv, command], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        raise RemoteError(f"{' '.join(argv[-1:])}: '{command}' did not finish in {timeout} s") from e


def _q(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def check(argv: list[str], checkout: str, build: bool, manifests: str = ".") -> dict:
    """Reaches the host, builds there when asked, and compares its checkout's commit and state with this one's;
    returns the host's environment. Raises RemoteError with what was tried and what failed."""
    target = argv[-1]
    done = _ssh(argv, "true", 20)
    if done.returncode != 0:
        raise RemoteError(f"cannot reach {target} over SSH (port {argv[argv.index('-p') + 1]}, key "
                          f"{argv[argv.index('-i') + 1]}, BatchMode, 5 s to connect): "
                          f"{done.stderr.strip() or f'ssh exited with status {done.returncode}'}")
    cd = f"cd {_q(checkout)}"
    if build:  # the same two commands a machine of the suite is set up and built with (README.md)
        done = _ssh(argv, f"{cd} && runner/setup.sh && runner/rpcmatrix build", 3600)
        if done.returncode != 0:
            tail = " ".join(done.stderr.strip().splitlines()[-3:])
            raise RemoteError(f"--build-remote: the build on {target} in {checkout} failed: {tail}")
    here, there = environment.code_state(ROOT), code_state(argv, checkout)
    if (here["git_commit"], here["git_diff_sha256"]) != (there["git_commit"], there["git_diff_sha256"]):
        def state(s):
            return s["git_commit"] + (f" with uncommitted changes (diff {s['git_diff_sha256'][:12]})"
                                      if s["git_dirty"] else "")
        raise RemoteError(f"the checkout on {target} ({checkout}) is of another commit: {state(there)} there, "
                          f"{state(here)} here; check out the same commit there")
    done = _ssh(argv, f"{cd} && PYTHONPATH=runner "
                      "$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 ) -m conductor.remote "
                      + _q(manifests), 120)
    try:
        there = json.loads(done.stdout)
    except json.JSONDecodeError:
        there = None
    if done.returncode != 0 or not isinstance(there, dict):
        raise RemoteError(f"{target} has no checkout of the suite at {checkout} (or it cannot run its Python): "
                          f"{' '.join(done.stderr.strip().splitlines()[-2:]) or 'no answer'}")
    return there


def code_state(argv: list[str], checkout: str) -> dict:
    """The checkout's commit there and its uncommitted changes' digest, as environment.code_state has them here,
    read with git alone (a checkout of another commit may lack this module)."""
    git = f"git -C {_q(checkout)}"
    done = _ssh(argv, f"{git} rev-parse HEAD && {git} status --porcelain --untracked-files=no", 60)
    lines = done.stdout.splitlines()
    if done.returncode != 0 or not lines:
        raise RemoteError(f"{argv[-1]} has no git checkout at {checkout}: "
                          f"{' '.join(done.stderr.strip().splitlines()[-2:]) or 'no answer'}")
    diff = _ssh(argv, f"{git} diff HEAD --no-ext-diff --binary", 60).stdout.strip() if lines[1:] else ""
    return {"git_commit": lines[0].strip(), "git_dirty": bool(lines[1:]),
            "git_diff_sha256": hashlib.sha256(diff.encode()).hexdigest() if lines[1:] else None}


def host_environment(manifests_dir: Path) -> dict:
    """env.json's `server_host`, as the other host's checkout prints it (run there): the machine, its kernel's
    network settings, its steal time and its languages' versions."""
    manifests = [json.loads(p.read_text()) for p in sorted(manifests_dir.glob("*/manifest.json"))]
    return {"hostname": socket.gethostname(), **environment.machine(ROOT), "network": environment.network(),
            "steal": environment.steal(), "versions": environment.language_versions(manifests, ROOT)}


if __name__ == "__main__":
    import sys
    print(json.dumps(host_environment(ROOT / (sys.argv[1] if len(sys.argv) > 1 else "."))))
