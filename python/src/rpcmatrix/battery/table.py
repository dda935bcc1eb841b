"""Which attacks apply to which protocol family, in the order they run. A protocol of a family not listed
here is not attacked (yet)."""
from __future__ import annotations

from types import ModuleType

from rpcmatrix.battery import (
    deep_nesting,
    entity_expansion,
    external_dtd,
    foreign_class,
    gzip_bomb,
    huge_count,
    huge_length,
    idle,
    invalid_document,
    java_serialization,
    jsonrpc_spec,
    random_bytes,
    signature_wrapping,
    stall,
    truncated_frame,
    wrong_content_type,
    xxe,
)

ATTACKS: dict[str, ModuleType] = {
    "random-bytes": random_bytes,
    "half-request-stall": stall,
    "idle-64": idle,
    "declared-4gb": huge_length,
    "gzip-bomb": gzip_bomb,
    "wrong-content-type": wrong_content_type,
    "invalid-document": invalid_document,
    "xxe-file": xxe,
    "external-dtd": external_dtd,
    "entity-expansion": entity_expansion,
    "deep-nesting": deep_nesting,
    "jsonrpc-spec": jsonrpc_spec,
    "foreign-class": foreign_class,
    "java-serialization": java_serialization,
    "truncated-frame": truncated_frame,
    "huge-count": huge_count,
    "signature-wrapping": signature_wrapping,
}

# What any TCP server must take, whatever its protocol: garbage, half a request, idle connections.
_TCP = ["random-bytes", "half-request-stall", "idle-64"]
_HTTP = _TCP + ["declared-4gb"]
_FRAMED = _TCP + ["declared-4gb", "truncated-frame", "huge-count"]

_XML = ["wrong-content-type", "invalid-document", "xxe-file", "external-dtd", "entity-expansion", "deep-nesting"]

BY_FAMILY: dict[str, list[str]] = {
    "xmlrpc": _HTTP + _XML,
    "jsonrpc": _HTTP + ["wrong-content-type", "invalid-document", "deep-nesting", "jsonrpc-spec"],
    "hessian": _HTTP + ["foreign-class"],
    "burlap": _HTTP + _XML + ["foreign-class"],
    "httpinvoker": _HTTP + ["java-serialization"],
    "soap": _HTTP + _XML,
    "rawtcp": _FRAMED,
    "thrift": _FRAMED,
    # gRPC (HTTP/2 with its own 4 MiB message limit), Java RMI (JRMP, with its deserialization filter), CORBA
    # (GIOP) and .NET Remoting: the transport-level attacks only, so far
    "grpc": _TCP,
    "rmi": _TCP,
    "corba": _TCP,
    "dotnet-remoting": _TCP,
}

# Only where request bodies may be compressed.
BY_PROTOCOL_EXTRA: dict[str, list[str]] = {
    "xmlrpc-gzip": ["gzip-bomb"],
    "jsonrpc-gzip": ["gzip-bomb"],
    "wss-sign": ["signature-wrapping"],
}

# The protocols the battery takes: every registered protocol a server implements (rmi-http has none).
PROTOCOLS = ("rawtcp", "xmlrpc", "xmlrpc-gzip", "thrift-binary", "thrift-compact", "soap11", "soap12", "wss-username",
             "wss-sign", "wss-sign-encrypt", "httpinvoker", "hessian1", "hessian2", "burlap", "jsonrpc", "jsonrpc-gzip",
             "grpc", "grpc-tls", "rmi", "rmi-tls", "corba-ior", "corba-naming", "remoting-tcp")


def attacks_for(protocol: str, family: str) -> list[str]:
    return list(BY_FAMILY.get(family, [])) + BY_PROTOCOL_EXTRA.get(protocol, [])
