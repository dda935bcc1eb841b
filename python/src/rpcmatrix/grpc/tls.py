"""The TLS material made at set-up by runner/secrets.sh (or given for a server elsewhere): a CA, and a
server certificate for SERVER_NAME and 127.0.0.1 with its PKCS#8 key.

Clients verify the certificate against a name (grpc.ssl_target_name_override) rather than the address they
dial, because the server may sit in a network namespace at an address the certificate cannot know: the
secrets folder's `server-name` when it has one (a server elsewhere, runner/README.md#certification), else
SERVER_NAME."""
from __future__ import annotations

from pathlib import Path

SERVER_NAME = "server.rpcmatrix.test"


def _read(secrets: Path | None, name: str) -> bytes:
    if secrets is None:
        raise ValueError("TLS needs --secrets DIR")
    return (secrets / name).read_bytes()


def ca_certificate(secrets: Path | None) -> bytes:
    return _read(secrets, "ca.crt")


def server_key_and_certificate(secrets: Path | None) -> tuple[bytes, bytes]:
    return _read(secrets, "server.key"), _read(secrets, "server.crt")


def enabled(options) -> bool:
    """True when the registry variant of --protocol says TLS (grpc-tls: {"security": "tls"})."""
    security = options.registered.variant.get("security", "none")
    if security not in ("tls", "none"):
        raise ValueError(f"unknown gRPC security variant {security!r}")
    return security == "tls"


def server_credentials(options):
    import grpc
    return grpc.ssl_server_credentials([server_key_and_certificate(options.secrets)])


def channel_credentials(options):
    import grpc
    return grpc.ssl_channel_credentials(root_certificates=ca_certificate(options.secrets))


def server_name(secrets: Path | None) -> str:
    given = secrets / "server-name" if secrets is not None else None
    return given.read_text().strip() if given is not None and given.exists() else SERVER_NAME


def channel_options(options) -> list[tuple[str, str]]:
    """Verify the certificate's name, not the dialled address (see above)."""
    return [("grpc.ssl_target_name_override", server_name(options.secrets))]
