"""The protocol registry (idl/protocols.json) and the needs/lacks rule."""
import dataclasses

import pytest

from rpcmatrix.contract.catalog import UnknownProtocol, load_protocol, load_protocols, load_vectors, load_workloads


def test_every_protocol_has_a_family_and_a_variant(idl):
    protocols = load_protocols(idl)
    assert {"rawtcp", "xmlrpc", "grpc", "grpc-tls", "thrift-binary", "thrift-compact"} <= set(protocols)
    assert protocols["grpc-tls"].family == "grpc" and protocols["grpc-tls"].variant["security"] == "tls"
    assert protocols["thrift-compact"].variant["encoding"] == "compact"


def test_an_unregistered_protocol_is_refused_with_the_registry_message(idl):
    with pytest.raises(UnknownProtocol, match="protocol 'carrier-pigeon' is not in idl/protocols.json"):
        load_protocol(idl, "carrier-pigeon")


def test_a_need_the_protocol_lacks_gives_the_registry_reason(idl):
    xmlrpc, grpc = load_protocol(idl, "xmlrpc"), load_protocol(idl, "grpc")
    vectors = {v.id: v for v in load_vectors(idl)}
    assert xmlrpc.unsupported_reason(vectors["float64_nan"].needs) == xmlrpc.lacks["nonfinite-float"]
    assert xmlrpc.unsupported_reason(vectors["ping"].needs) is None
    assert grpc.unsupported_reason(vectors["random_doubles_stream_50k"].needs) is None
    stream = load_workloads(idl)["randomDoublesStream50k"]
    for name in ("rawtcp", "xmlrpc", "thrift-binary", "thrift-compact"):
        assert load_protocol(idl, name).unsupported_reason(stream.needs) == \
            load_protocol(idl, name).lacks["server-streaming"]


def test_the_compression_variant_is_read_and_an_unknown_one_refused(idl):
    assert load_protocol(idl, "xmlrpc-gzip").gzip() is True
    assert load_protocol(idl, "xmlrpc").gzip() is False
    odd = dataclasses.replace(load_protocol(idl, "xmlrpc"), variant={"compression": "brotli"})
    with pytest.raises(ValueError, match="unknown compression"):
        odd.gzip()
