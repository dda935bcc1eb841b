"""The stand-in for a server elsewhere (`--server-at`): started by the runner where a server of the suite would be,
it checks that the server is there, then says ready with its port, and waits for SIGTERM. It serves nothing: the
clients call the server elsewhere. What it tried and what failed is its verdict, on stderr with exit status 1,
which the run records as the cell's reason: the name did not resolve, the connection was refused, the host was
unreachable, no answer came within the time-out, or the TLS handshake failed (with the CA trusted, the name
expected and the certificate presented).

    python -m conductor.standin --protocol P --family F --variant JSON --target T --secrets DIR --cell DIR"""
import argparse
import errno
import json
import signal
import socket
import ssl
import sys
import time
from pathlib import Path

from . import target as target_mod

# The name the suite's clients verify on a TLS server's certificate (runner/secrets.sh), unless the secrets
# folder has a `server-name` file: a server elsewhere presents a certificate for it, signed by the CA of --secrets.
TLS_NAME = "server.rpcmatrix.test"


def server_name(secrets: Path) -> str:
    given = secrets / "server-name"
    return given.read_text().strip() if given.exists() else TLS_NAME


class Unreachable(Exception):
    pass


def reach(host: str, port: int, timeout: float) -> tuple[socket.socket, str]:
    """A TCP connection to the server, or why there is none."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise Unreachable(f"the name {host} did not resolve: {e.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.settimeout(timeout)
    started = time.monotonic()
    try:
        sock.connect(address)
    except TimeoutError:
        sock.close()
        raise Unreachable(f"{address[0]}:{port} did not answer within {timeout:g} s (no SYN-ACK: a firewall drops "
                          "the connection, or the host is down)") from None
    except ConnectionRefusedError:
        sock.close()
        raise Unreachable(f"{address[0]}:{port} refused the connection: nothing listens on that port") from None
    except OSError as e:
        sock.close()
        what = "unreachable" if e.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH) else "could not be reached"
        raise Unreachable(f"{address[0]}:{port} {what}: {e.strerror}") from None
    return sock, f"TCP to {address[0]}:{port} in {(time.monotonic() - started) * 1000:.1f} ms"


def handshake(sock: socket.socket, secrets: Path, alpn: list[str]) -> str:
    """A TLS handshake as the suite's clients make it: the CA of `secrets` trusted, its server name expected, the
    client certificate presented where there is one."""
    context = ssl.create_default_context(cafile=str(secrets / "ca.crt"))
    presented = ""
    if (secrets / "client.crt").exists() and (secrets / "client.key").exists():
        context.load_cert_chain(str(secrets / "client.crt"), str(secrets / "client.key"))
        presented = f", presenting {secrets / 'client.crt'}"
    if alpn:
        context.set_alpn_protocols(alpn)
    name = server_name(secrets)
    tried = f"trusting {secrets / 'ca.crt'}, expecting the name {name}{presented}"
    try:
        with context.wrap_socket(sock, server_hostname=name) as tls:
            return f"TLS {tls.version()} {tls.cipher()[0]} ({tried})"
    except ssl.SSLCertVerificationError as e:
        raise Unreachable(f"TLS: the server's certificate was refused: {e.verify_message} ({tried})") from None
    except (ssl.SSLError, OSError) as e:
        raise Unreachable(f"TLS handshake failed: {e} ({tried})") from None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m conductor.standin")
    for flag in ("--protocol", "--family", "--variant", "--target", "--secrets", "--cell"):
        p.add_argument(flag, required=True)
    p.add_argument("--timeout", type=float, default=5.0)
    o = p.parse_args(argv)
    variant = json.loads(o.variant)
    try:
        target = target_mod.parse(o.protocol, variant, o.family, o.target)
        cell = Path(o.cell)
        for name, ior in target.iors.items():  # where the suite's CORBA clients read the references
            (cell / name).write_text(ior + "\n")
        sock, reached = reach(target.host, target.port, o.timeout)
        facts = {"target": o.target, "reached": reached}
        if variant.get("security") in ("tls", "mutual-tls"):
            facts["tls"] = handshake(sock, Path(o.secrets), ["h2"] if o.family == "grpc" else [])
        else:
            sock.close()
    except (target_mod.TargetError, Unreachable, OSError) as e:
        print(f"the server elsewhere ({o.protocol}={o.target}): {e}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(json.dumps({"ready": True, "port": target.port, "facts": facts}), flush=True)
    while True:
        signal.pause()


if __name__ == "__main__":
    sys.exit(main())
