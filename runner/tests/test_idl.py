"""Each protocol's IDL declares exactly the contract's operations, parameters and types (idl/contract.json)."""
import json
import re
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

IDL = Path(__file__).resolve().parents[2] / "idl"
CONTRACT = json.loads((IDL / "contract.json").read_text())


def ops(protocol: str | None = None) -> dict:
    """Operation name -> parameter names, for the operations every protocol has (plus protocol-only ones)."""
    return {o["name"]: [p["name"] for p in o["params"]] for o in CONTRACT["operations"]
            if "only" not in o or protocol in o["only"]}


def strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def struct_fields(text: str, keyword: str, name: str) -> str:
    """The text between the braces of `keyword name { ... }`."""
    return re.search(rf"\b{keyword}\s+{name}\s*{{(.*?)}}", text, re.S).group(1)


def test_operation_ids_are_dense_and_unique():
    ids = [o["id"] for o in CONTRACT["operations"]]
    assert ids == list(range(len(ids)))
    assert len({o["name"] for o in CONTRACT["operations"]}) == len(ids)


def test_proto_declares_the_contract():
    text = strip_comments((IDL / "bench.proto").read_text())
    rpcs = dict(re.findall(r"rpc\s+(\w+)\s*\(\s*(\w+)\s*\)", text))
    assert set(rpcs) == set(ops("grpc"))
    for struct, fields in CONTRACT["structs"].items():
        body = struct_fields(text, "message", struct)
        assert re.findall(r"(\w+)\s*=\s*\d+;", body) == [f["name"] for f in fields], struct
    for name, params in ops("grpc").items():
        if params:
            body = struct_fields(text, "message", rpcs[name])
            declared = re.findall(r"(\w+)\s*=\s*\d+;", body)
            assert declared == params or declared == ["value"] and len(params) == 1, name


def test_thrift_declares_the_contract():
    text = strip_comments((IDL / "bench.thrift").read_text())
    service = struct_fields(text, "service", "Bench")
    declared = {m: re.findall(r"\d+:\s*[\w<>]+\s+(\w+)", args)
                for m, args in re.findall(r"[\w<>]+\s+(\w+)\s*\(([^)]*)\)", service)}
    assert declared == ops()
    for struct, fields in CONTRACT["structs"].items():
        body = struct_fields(text, "struct", struct)
        assert re.findall(r"\d+:\s*[\w<>]+\s+(\w+)", body) == [f["name"] for f in fields], struct
    assert re.search(r"exception\s+BenchError", text)
    assert "throws (1: BenchError error)" in service


def test_corba_idl_declares_the_contract():
    text = strip_comments((IDL / "bench.idl").read_text())
    interface = struct_fields(text, "interface", "Bench")
    declared = {m: re.findall(r"in\s+\w+(?:\s+long)?\s+(\w+)", args)
                for m, args in re.findall(r"(\w+)\s*\(([^)]*)\)", interface) if m != "raises"}
    assert declared == ops()
    for struct, fields in CONTRACT["structs"].items():
        body = struct_fields(text, "struct", struct)
        assert re.findall(r"(\w+)\s*;", body) == [f["name"] for f in fields], struct
    assert "raises (BenchError)" in interface


XS = "{http://www.w3.org/2001/XMLSchema}"
WSDL = "{http://schemas.xmlsoap.org/wsdl/}"


def test_xsd_and_wsdl_declare_the_contract():
    schema = ET.parse(IDL / "bench.xsd").getroot()
    elements = {e.get("name"): e for e in schema.findall(f"{XS}element")}
    for name, params in ops().items():
        inner = [e.get("name") for e in elements[name].iter(f"{XS}element")][1:]  # iter() yields the element itself first
        assert inner == params, name
        assert f"{name}Response" in elements
    for struct, fields in CONTRACT["structs"].items():
        ctype = schema.find(f"{XS}complexType[@name='{struct}']")
        assert [e.get("name") for e in ctype.iter(f"{XS}element")] == [f["name"] for f in fields], struct
    wsdl = ET.parse(IDL / "bench.wsdl").getroot()
    port_ops = {o.get("name") for o in wsdl.find(f"{WSDL}portType").findall(f"{WSDL}operation")}
    assert port_ops == set(ops())
    binding = wsdl.find(f"{WSDL}binding")
    assert binding.find("{http://schemas.xmlsoap.org/wsdl/soap/}binding").get("style") == "document"


@pytest.mark.parametrize("name", ["vectors.json", "workloads.json"])
def test_vectors_and_workloads_name_contract_operations(name):
    data = json.loads((IDL / name).read_text())
    items = data.get("vectors") or data.get("workloads")
    known = {o["name"]: len(o["params"]) for o in CONTRACT["operations"]}
    for item in items:
        assert item["op"] in known, item
        assert len(item["args"]) == known[item["op"]], item


def test_every_vector_tag_limit_is_a_known_tag():
    tags = {t for v in json.loads((IDL / "vectors.json").read_text())["vectors"] for t in v.get("tags", [])}
    limits = json.loads((IDL / "protocol-limits.json").read_text())["limits"]
    for protocol, by_tag in limits.items():
        assert set(by_tag) <= tags, protocol


def test_every_operation_that_raises_declares_it_in_each_idl():
    raising = {o["name"] for o in CONTRACT["operations"] if o.get("raises") and "only" not in o}
    assert {"fail", "randomDoubles", "searchBooks", "getItems"} <= raising
    thrift = strip_comments((IDL / "bench.thrift").read_text())
    corba = strip_comments((IDL / "bench.idl").read_text())
    wsdl = ET.parse(IDL / "bench.wsdl").getroot()
    faulting = {o.get("name") for o in wsdl.find(f"{WSDL}portType").findall(f"{WSDL}operation")
                if o.find(f"{WSDL}fault") is not None}
    for name in ops():
        declares_thrift = re.search(rf"\b{name}\([^)]*\)\s*throws \(1: BenchError error\)", thrift) is not None
        declares_corba = re.search(rf"\b{name}\([^)]*\)\s*raises \(BenchError\)", corba) is not None
        assert declares_thrift == declares_corba == (name in faulting) == (name in raising), name
