"""Where a server elsewhere is (`--server-at PROTOCOL=TARGET`): a host and port (`HOST:PORT`, `[IPv6]:PORT`), or for
CORBA an object reference: stringified IORs (`IOR:…`, the Bench object's, then optionally the CalculatorFactory's,
comma-separated), a file or folder holding them (bench.ior, calculators.ior: what the suite's CORBA servers write),
or the naming service's `corbaloc::HOST:PORT/NameService`."""
import ipaddress
import struct
from dataclasses import dataclass, field
from pathlib import Path


class TargetError(ValueError):
    pass


@dataclass
class Target:
    text: str                    # as the user wrote it
    host: str
    port: int
    iors: dict[str, str] = field(default_factory=dict)  # file name in the cell's folder -> stringified IOR


def _port(text: str, where: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise TargetError(f"{where}: '{text}' is not a TCP port (1-65535)")
    return int(text)


def host_port(text: str) -> tuple[str, int]:
    """HOST:PORT or [IPv6]:PORT."""
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]:")
        if not sep:
            raise TargetError(f"'{text}': write an IPv6 address as [ADDRESS]:PORT")
        ipaddress.IPv6Address(host)
        return host, _port(rest, text)
    host, sep, port = text.rpartition(":")
    if not sep or not host:
        raise TargetError(f"'{text}' is not HOST:PORT")
    return host, _port(port, text)


def iiop_address(ior: str) -> tuple[str, int]:
    """The host and port of an IOR's first IIOP profile (CORBA 3, 13.6: a CDR encapsulation)."""
    try:
        data = bytes.fromhex(ior.strip().removeprefix("IOR:"))
    except ValueError:
        raise TargetError("an IOR is 'IOR:' and hexadecimal digits") from None
    try:
        return _iiop(data)
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        raise TargetError(f"the IOR could not be read: {e}") from None


def _iiop(data: bytes) -> tuple[str, int]:
    order = "<" if data[0] else ">"
    pos = 1

    def ulong(at: int) -> tuple[int, int]:
        at = (at + 3) & ~3
        return struct.unpack_from(order + "I", data, at)[0], at + 4

    length, pos = ulong(pos)  # the repository id
    pos += length
    profiles, pos = ulong(pos)
    for _ in range(profiles):
        tag, pos = ulong(pos)
        length, pos = ulong(pos)
        body, pos = data[pos:pos + length], pos + length
        if tag != 0:  # TAG_INTERNET_IOP
            continue
        inner = "<" if body[0] else ">"
        at = 4  # byte order, then the IIOP version (two octets), aligned to 4 for the host's length
        host_len = struct.unpack_from(inner + "I", body, at)[0]
        host = body[at + 4:at + 4 + host_len].rstrip(b"\0").decode()
        at = (at + 4 + host_len + 1) & ~1
        return host, struct.unpack_from(inner + "H", body, at)[0]
    raise TargetError("the IOR has no IIOP profile (no host and port to reach)")


def _iors(text: str) -> dict[str, str]:
    if not text.startswith("IOR:"):  # a folder or a file of them (an IOR itself may be longer than a path may be)
        path = Path(text)
        if path.is_dir():
            found = {name: (path / name).read_text().strip() for name in ("bench.ior", "calculators.ior")
                     if (path / name).exists()}
            if "bench.ior" not in found:
                raise TargetError(f"{path} holds no bench.ior")
            return found
        if path.is_file():
            text = path.read_text().strip()
    parts = [p.strip() for p in text.split(",")]
    if not parts[0].startswith("IOR:"):
        raise TargetError(f"'{text[:60]}' is neither an IOR nor a file or folder of IORs")
    return dict(zip(("bench.ior", "calculators.ior"), parts, strict=False))


def parse(protocol: str, variant: dict, family: str, text: str) -> Target:
    """A target for a protocol of the registry (its family and variant decide which forms it takes)."""
    if not text:
        raise TargetError(f"--server-at {protocol}= needs a target")
    by_ior = variant.get("reference") == "ior-file"
    if by_ior and not (text.startswith("IOR:") or Path(text).exists()):
        raise TargetError(f"{protocol} reaches its server by IOR: give IOR:… (then optionally the calculators' "
                          "IOR after a comma), or a file or folder holding bench.ior")
    if family == "corba" and (text.startswith("IOR:") or Path(text).exists()):
        iors = _iors(text)
        host, port = iiop_address(iors["bench.ior"])
        return Target(text, host, port, iors)
    if text.startswith("corbaloc:"):
        if family != "corba":
            raise TargetError(f"a corbaloc reference is for CORBA, not {protocol}")
        address = text.removeprefix("corbaloc:").removeprefix(":").removeprefix("iiop:").split("/", 1)[0]
        address = address.split("@", 1)[-1]  # a version prefix such as 1.2@
        host, port = host_port(address)
        return Target(text, host, port)
    host, port = host_port(text)
    return Target(text, host, port)
