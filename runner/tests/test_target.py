"""A server elsewhere (--server-at): the targets it takes, and the stand-in's verdicts on reaching it."""
import socket
import ssl
import struct
import threading
from pathlib import Path

import pytest

from conductor import standin, target

ROOT = Path(__file__).resolve().parents[2]
NAMING = {"reference": "naming-service", "transport": "iiop"}
BY_IOR = {"reference": "ior-file", "transport": "iiop"}


def ior(host: str, port: int, little: bool) -> str:
    """A stringified IOR with one IIOP profile, CDR-encoded as CORBA 3 (13.6) writes it."""
    o = "<" if little else ">"

    def align(buf: bytearray, n: int) -> None:
        buf.extend(b"\0" * (-len(buf) % n))

    body = bytearray([int(little), 1, 2])  # byte order, IIOP 1.2
    align(body, 4)
    body += struct.pack(o + "I", len(host) + 1) + host.encode() + b"\0"
    align(body, 2)
    body += struct.pack(o + "H", port) + b"\0\0" + struct.pack(o + "I", 3) + b"key"
    out = bytearray([int(little)])
    align(out, 4)
    type_id = b"IDL:rpcmatrix/Bench:1.0\0"
    out += struct.pack(o + "I", len(type_id)) + type_id
    align(out, 4)
    out += struct.pack(o + "I", 2)  # a profile of another kind first, then the IIOP one
    out += struct.pack(o + "II", 1, 4) + b"abcd"
    out += struct.pack(o + "II", 0, len(body)) + body
    return "IOR:" + out.hex()


@pytest.mark.parametrize("little", [True, False])
def test_an_ior_names_the_host_and_port_of_its_iiop_profile_in_either_byte_order(little):
    assert target.iiop_address(ior("server.example.org", 2809, little)) == ("server.example.org", 2809)


def test_targets_by_address_by_ior_and_by_corbaloc(tmp_path):
    assert (target.parse("grpc", {}, "grpc", "10.1.2.3:50051").host, target.parse("grpc", {}, "grpc", "h:1").port) \
        == ("10.1.2.3", 1)
    assert target.parse("grpc", {}, "grpc", "[::1]:443").host == "::1"
    found = target.parse("corba-naming", NAMING, "corba", "corbaloc::1.2@ns.example.org:2809/NameService")
    assert (found.host, found.port) == ("ns.example.org", 2809)
    bench, calculators = ior("a", 1000, True), ior("a", 1001, True)
    given = target.parse("corba-ior", BY_IOR, "corba", f"{bench},{calculators}")
    assert (given.port, given.iors) == (1000, {"bench.ior": bench, "calculators.ior": calculators})
    (tmp_path / "bench.ior").write_text(bench + "\n")
    assert target.parse("corba-ior", BY_IOR, "corba", str(tmp_path)).iors == {"bench.ior": bench}
    for protocol, variant, family, text, says in (
            ("grpc", {}, "grpc", "nohost", "not HOST:PORT"), ("grpc", {}, "grpc", "h:99999", "not a TCP port"),
            ("corba-ior", BY_IOR, "corba", "h:1", "reaches its server by IOR"),
            ("grpc", {}, "grpc", "corbaloc::h:1/NameService", "for CORBA"),
            ("corba-ior", BY_IOR, "corba", "IOR:zz", "hexadecimal"), ("grpc", {}, "grpc", "", "needs a target")):
        with pytest.raises(target.TargetError, match=says):
            target.parse(protocol, variant, family, text)


def test_the_stand_in_says_why_a_server_cannot_be_reached():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    with pytest.raises(standin.Unreachable, match=f"127.0.0.1:{closed} refused the connection"):
        standin.reach("127.0.0.1", closed, 2)
    with pytest.raises(standin.Unreachable, match="no-such-host.invalid did not resolve"):
        standin.reach("no-such-host.invalid", 80, 2)
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        sock, reached = standin.reach("127.0.0.1", listening.getsockname()[1], 2)
        sock.close()
    assert reached.startswith("TCP to 127.0.0.1:")


def test_the_stand_in_makes_the_tls_handshake_the_clients_make_and_names_what_it_trusted(tmp_path):
    secrets = ROOT / "secrets"
    if not (secrets / "server.crt").exists():
        pytest.skip("no key material: runner/setup.sh makes it")
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(str(secrets / "server.crt"), str(secrets / "server.key"))
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]

        def serve(times: int) -> None:
            for _ in range(times):
                conn, _ = listening.accept()
                try:
                    with server.wrap_socket(conn, server_side=True):
                        pass
                except (ssl.SSLError, OSError):
                    pass
        thread = threading.Thread(target=serve, args=(2,), daemon=True)
        thread.start()
        sock, _ = standin.reach("127.0.0.1", port, 2)
        assert standin.handshake(sock, secrets, []).startswith("TLS TLSv1.")
        rogue = tmp_path / "rogue"
        rogue.mkdir()
        (rogue / "ca.crt").write_bytes((secrets / "rogue-ca.crt").read_bytes())
        sock, _ = standin.reach("127.0.0.1", port, 2)
        with pytest.raises(standin.Unreachable, match=f"certificate was refused.*trusting {rogue}/ca.crt"):
            standin.handshake(sock, rogue, [])
        thread.join(5)
