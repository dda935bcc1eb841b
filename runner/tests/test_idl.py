"""Each protocol's IDL declares exactly the contract's operations, parameters and types (idl/contract.json).

Types follow the "Carriage" table of idl/CONTRACT.md: one mapping table per IDL below, from the contract's
types to the spelling that IDL declares. Each IDL is checked by a function of its text, so that a test can
change one type in a copy of the text and see the check fail.
"""
import json
import re
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

IDL = Path(__file__).resolve().parents[2] / "idl"
CONTRACT = json.loads((IDL / "contract.json").read_text())
REGISTRY = json.loads((IDL / "protocols.json").read_text())
STRUCTS = CONTRACT["structs"]
ERROR = CONTRACT["error"]

# The family each IDL file serves. CORBA and SOAP have no protocol in idl/protocols.json (yet): a family
# that is not registered is taken to have none of the capabilities an operation may need.
FAMILY = {"bench.proto": "grpc", "bench.thrift": "thrift", "bench.idl": "corba", "bench.wsdl": "soap"}


def family_capabilities(family: str) -> set:
    """What the protocols of a family have (a family's IDL declares an operation if any of them can serve it)."""
    return {c for p in REGISTRY["protocols"].values() if p["family"] == family for c in p["has"]}


def contract_ops(family: str) -> dict:
    """Operation name -> the contract's operation, for the operations whose needs the family has."""
    caps = family_capabilities(family)
    return {o["name"]: o for o in CONTRACT["operations"] if set(o.get("needs", [])) <= caps}


def ops(family: str) -> dict:
    """Operation name -> parameter names, for the operations a family's IDL declares."""
    return {name: [p["name"] for p in o["params"]] for name, o in contract_ops(family).items()}


def split_type(t: str) -> tuple[bool, str | None, str]:
    """A contract type as (streamed, element type of a sequence or None, the type itself without 'stream')."""
    streamed = t.startswith("stream ")
    t = t.removeprefix("stream ")
    return streamed, (t[:-2] if t.endswith("[]") else None), t


def strip_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def struct_fields(text: str, keyword: str, name: str) -> str:
    """The text between the braces of `keyword name { ... }`."""
    match = re.search(rf"\b{keyword}\s+{name}\s*{{(.*?)}}", text, re.S)
    assert match, f"no {keyword} {name}"
    return match.group(1)


def squash(t: str) -> str:
    """A declared type with its whitespace normalised: 'list< double >' -> 'list<double>',
    'long  long' -> 'long long'."""
    t = re.sub(r"\s*([<>,])\s*", r"\1", t.strip())
    return re.sub(r"\s+", " ", t)


def test_operation_ids_are_dense_and_unique():
    ids = [o["id"] for o in CONTRACT["operations"]]
    assert ids == list(range(len(ids)))
    assert len({o["name"] for o in CONTRACT["operations"]}) == len(ids)


def test_the_stream_operation_belongs_to_the_families_with_server_streaming():
    assert "randomDoublesStream" in ops("grpc")
    for family in ("thrift", "corba", "soap"):
        assert "randomDoublesStream" not in ops(family), family
    # every operation without needs is in every IDL
    plain = {o["name"] for o in CONTRACT["operations"] if not o.get("needs")}
    for family in FAMILY.values():
        assert plain <= set(ops(family)), family


def test_contract_types_are_known():
    primitives = {"bool", "int8", "int16", "int32", "int64", "float32", "float64", "string", "bytes", "timestamp"}
    known = primitives | set(STRUCTS)
    fields = [f for fs in STRUCTS.values() for f in fs] + ERROR["fields"]
    used = [f["type"] for f in fields] + [p["type"] for o in CONTRACT["operations"] for p in o["params"]]
    for t in used:
        streamed, element, t = split_type(t)
        assert not streamed and (element or t) in known, t
    for o in CONTRACT["operations"]:
        streamed, element, t = split_type(o["returns"])
        assert t == "void" and not streamed or (element or t) in known, o["name"]
        assert streamed == ("server-streaming" in o.get("needs", [])), o["name"]


# ---------------------------------------------------------------------------------------------------- proto
# Field types; a sequence is `repeated` + its element's type. int8 and int16 travel as sint32 (range-checked).
PROTO_TYPES = {"bool": "bool", "int8": "sint32", "int16": "sint32", "int32": "int32", "int64": "int64",
               "float32": "float", "float64": "double", "string": "string", "bytes": "bytes", "timestamp": "int64",
               **{s: s for s in STRUCTS}}


def proto_type(t: str) -> str:
    _, element, t = split_type(t)
    return f"repeated {PROTO_TYPES[element]}" if element else PROTO_TYPES[t]


def proto_messages(text: str) -> dict:
    """Message name -> [(field name, field type with 'repeated ')], checking fields are numbered 1, 2, ..."""
    messages = {}
    for name, body in re.findall(r"\bmessage\s+(\w+)\s*{([^{}]*)}", text):
        fields = re.findall(r"((?:repeated\s+)?\w+)\s+(\w+)\s*=\s*(\d+)\s*;", body)
        assert [int(n) for _, _, n in fields] == list(range(1, len(fields) + 1)), name
        assert len(fields) == body.count(";"), f"message {name} has a field this test cannot read"
        messages[name] = [(f, squash(t)) for t, f, _ in fields]
    return messages


def check_proto(text: str) -> None:
    text = strip_comments(text)
    messages = proto_messages(text)
    rpcs = {name: (arg, bool(stream), ret) for name, arg, stream, ret in
            re.findall(r"\brpc\s+(\w+)\s*\(\s*(\w+)\s*\)\s*returns\s*\(\s*(stream\s+)?(\w+)\s*\)", text)}
    contract = contract_ops("grpc")
    assert set(rpcs) == set(contract)
    for struct, fields in STRUCTS.items():
        assert messages[struct] == [(f["name"], proto_type(f["type"])) for f in fields], struct
    assert messages[ERROR["name"]] == [(f["name"], proto_type(f["type"])) for f in ERROR["fields"]]
    for name, op in contract.items():
        arg, streamed, ret = rpcs[name]
        params = [(p["name"], proto_type(p["type"])) for p in op["params"]]
        # one parameter may travel in a shared wrapper message (Int8Value, Doubles) under its own name or `value`
        assert messages[arg] == params or len(params) == 1 and messages[arg] == [("value", params[0][1])], name
        is_stream, element, t = split_type(op["returns"])
        assert streamed == is_stream, name
        if t == "void":
            assert messages[ret] == [], name
        elif t in STRUCTS:
            assert ret == t, name
        else:  # through a wrapper message of one field: BoolValue, Doubles, Books
            assert len(messages[ret]) == 1 and messages[ret][0][1] == proto_type(t), name


def test_proto_declares_the_contract():
    check_proto((IDL / "bench.proto").read_text())


# --------------------------------------------------------------------------------------------------- thrift
# Thrift has no 32-bit float: float32 travels as double, checked by the receiver. `byte` is Thrift's old
# spelling of i8 and is read as i8.
THRIFT_TYPES = {"bool": "bool", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "float32": "double",
                "float64": "double", "string": "string", "bytes": "binary", "timestamp": "i64", "void": "void",
                **{s: s for s in STRUCTS}}
THRIFT_TYPE = r"[\w.]+(?:\s*<[^>]*>)?"


def thrift_type(t: str) -> str:
    _, element, t = split_type(t)
    return f"list<{THRIFT_TYPES[element]}>" if element else THRIFT_TYPES[t]


def thrift_declared(t: str) -> str:
    return re.sub(r"\bbyte\b", "i8", squash(t))


def thrift_fields(body: str) -> list:
    """[(name, type)] of a field list `1: i64 id, 2: list<string> tags`, checking ids are 1, 2, ..."""
    fields = re.findall(rf"(\d+)\s*:\s*(?:required\s+|optional\s+)?({THRIFT_TYPE})\s+(\w+)", body)
    assert [int(n) for n, _, _ in fields] == list(range(1, len(fields) + 1)), body
    return [(f, thrift_declared(t)) for _, t, f in fields]


def check_thrift(text: str) -> None:
    text = strip_comments(text)
    service = struct_fields(text, "service", "Bench")
    methods = {name: (thrift_declared(ret), thrift_fields(args), throws) for ret, name, args, throws in
               re.findall(rf"({THRIFT_TYPE})\s+(\w+)\s*\(([^)]*)\)\s*(throws\s*\([^)]*\))?", service)}
    contract = contract_ops("thrift")
    assert set(methods) == set(contract)
    for struct, fields in STRUCTS.items():
        assert thrift_fields(struct_fields(text, "struct", struct)) == \
            [(f["name"], thrift_type(f["type"])) for f in fields], struct
    assert thrift_fields(struct_fields(text, "exception", ERROR["name"])) == \
        [(f["name"], thrift_type(f["type"])) for f in ERROR["fields"]]
    for name, op in contract.items():
        ret, params, throws = methods[name]
        assert params == [(p["name"], thrift_type(p["type"])) for p in op["params"]], name
        assert ret == thrift_type(op["returns"]), name
        assert " ".join(throws.split()) == ("throws (1: BenchError error)" if op.get("raises") else ""), name


def test_thrift_declares_the_contract():
    check_thrift((IDL / "bench.thrift").read_text())


# ---------------------------------------------------------------------------------------------------- CORBA
# CORBA has no signed 8-bit type: int8 travels as an octet holding the two's-complement bits. Sequences are
# declared through typedefs (Doubles, Books), which are expanded before comparing.
CORBA_TYPES = {"bool": "boolean", "int8": "octet", "int16": "short", "int32": "long", "int64": "long long",
               "float32": "float", "float64": "double", "string": "string", "bytes": "sequence<octet>",
               "timestamp": "long long", "void": "void", **{s: s for s in STRUCTS}}


def corba_type(t: str) -> str:
    _, element, t = split_type(t)
    return f"sequence<{CORBA_TYPES[element]}>" if element else CORBA_TYPES[t]


def corba_resolver(text: str):
    typedefs = {name: squash(t) for t, name in re.findall(r"\btypedef\s+([^;]+?)\s+(\w+)\s*;", text)}

    def resolve(t: str) -> str:
        t = squash(t)
        for _ in range(10):  # typedefs of typedefs
            t = re.sub(r"\w+", lambda m: typedefs.get(m.group(0), m.group(0)), t)
        return t
    return resolve


def corba_members(body: str, resolve) -> list:
    """[(name, type)] of `type name;` statements."""
    members = [re.fullmatch(r"(.+?)\s+(\w+)", s.strip(), re.S) for s in body.split(";") if s.strip()]
    assert all(members), body
    return [(m.group(2), resolve(m.group(1))) for m in members]


def corba_methods(text: str, resolve, name: str) -> dict:
    """Operation name -> (return type, [(param, type)], raises clause) of IDL interface `name`."""
    interface = struct_fields(text, "interface", name)
    methods = {}
    for statement in filter(None, (s.strip() for s in interface.split(";"))):
        m = re.fullmatch(r"(.+?)\s+(\w+)\s*\(([^)]*)\)\s*(raises\s*\([^)]*\))?", statement, re.S)
        assert m, statement
        params = []
        for arg in filter(None, (a.strip() for a in re.split(r",(?![^<]*>)", m.group(3)))):
            a = re.fullmatch(r"(in|out|inout)\s+(.+?)\s+(\w+)", arg, re.S)
            assert a and a.group(1) == "in", arg
            params.append((a.group(3), resolve(a.group(2))))
        methods[m.group(2)] = (resolve(m.group(1)), params, " ".join((m.group(4) or "").split()))
    return methods


def check_corba(text: str) -> None:
    text = strip_comments(text)
    resolve = corba_resolver(text)
    methods = corba_methods(text, resolve, "Bench")
    contract = contract_ops("corba")
    assert set(methods) == set(contract)
    for struct, fields in STRUCTS.items():
        assert corba_members(struct_fields(text, "struct", struct), resolve) == \
            [(f["name"], corba_type(f["type"])) for f in fields], struct
    assert corba_members(struct_fields(text, "exception", ERROR["name"]), resolve) == \
        [(f["name"], corba_type(f["type"])) for f in ERROR["fields"]]
    for name, op in contract.items():
        ret, params, raises = methods[name]
        assert params == [(p["name"], corba_type(p["type"])) for p in op["params"]], name
        assert ret == corba_type(op["returns"]), name
        assert raises == ("raises (BenchError)" if op.get("raises") else ""), name
    # the remote objects (CONTRACT.md#objects): interface types travel as references
    interfaces = {i["name"] for i in CONTRACT["objects"]["interfaces"]}
    for interface in CONTRACT["objects"]["interfaces"]:
        declared = corba_methods(text, lambda t: t if t in interfaces else resolve(t), interface["name"])
        assert set(declared) == {o["name"] for o in interface["operations"]}, interface["name"]
        for op in interface["operations"]:
            ret, params, raises = declared[op["name"]]
            assert params == [(p["name"], corba_type(p["type"])) for p in op["params"]], op["name"]
            assert ret == (op["returns"] if op["returns"] in interfaces else corba_type(op["returns"])), op["name"]
            assert raises == "", op["name"]


def test_corba_idl_declares_the_contract():
    check_corba((IDL / "bench.idl").read_text())


# ------------------------------------------------------------------------------------------------ XSD, WSDL
# Document/literal wrapped: one element per operation holding the parameters, one `<op>Response` element
# holding `result` (nothing for void). A sequence is a repeated element (minOccurs 0, maxOccurs unbounded);
# a struct is a complex type of the target namespace; timestamps are xs:long milliseconds.
XS = "{http://www.w3.org/2001/XMLSchema}"
WSDL = "{http://schemas.xmlsoap.org/wsdl/}"
SOAP = "{http://schemas.xmlsoap.org/wsdl/soap/}"
TNS = "urn:rpcmatrix:bench"
XSD_TYPES = {"bool": "boolean", "int8": "byte", "int16": "short", "int32": "int", "int64": "long",
             "float32": "float", "float64": "double", "string": "string", "bytes": "base64Binary",
             "timestamp": "long"}


def xsd_type(t: str) -> tuple[str, bool]:
    """(the element's type as {namespace}name, whether the element repeats)."""
    _, element, t = split_type(t)
    base = element or t
    qname = f"{{{TNS}}}{base}" if base in STRUCTS else f"{XS}{XSD_TYPES[base]}"
    return qname, element is not None


def parse_xml(text: str):
    """The root element and, for each element, the prefixes in scope (ElementTree drops them)."""
    from io import StringIO
    scopes, stack, root = {}, [{}], None
    pending = {}
    for event, item in ET.iterparse(StringIO(text), events=("start-ns", "start", "end")):
        if event == "start-ns":
            pending[item[0]] = item[1]
        elif event == "start":
            stack.append({**stack[-1], **pending})
            pending = {}
            scopes[item] = stack[-1]
            root = item if root is None else root
        else:
            stack.pop()
    return root, scopes


def qname(value: str, element, scopes) -> str:
    prefix, _, local = value.rpartition(":")
    return f"{{{scopes[element][prefix]}}}{local}"


def xsd_children(element, scopes) -> list:
    """[(name, type, repeats)] of the elements of a complex type's sequence, checking their occurrences."""
    sequence = element.find(f"{XS}sequence") if element.tag == f"{XS}complexType" else \
        element.find(f"{XS}complexType/{XS}sequence")
    assert sequence is not None and len(sequence) == len(sequence.findall(f"{XS}element")), element.get("name")
    children = []
    for child in sequence:
        repeats = child.get("maxOccurs", "1") == "unbounded"
        occurs = (child.get("minOccurs", "1"), child.get("maxOccurs", "1"))
        assert occurs == (("0", "unbounded") if repeats else ("1", "1")), child.get("name")
        children.append((child.get("name"), qname(child.get("type"), child, scopes), repeats))
    return children


def check_xsd_and_wsdl(xsd_text: str, wsdl_text: str) -> None:
    schema, scopes = parse_xml(xsd_text)
    assert schema.get("targetNamespace") == TNS
    elements = {e.get("name"): e for e in schema.findall(f"{XS}element")}
    contract = contract_ops("soap")
    for struct, fields in STRUCTS.items():
        ctype = schema.find(f"{XS}complexType[@name='{struct}']")
        assert ctype is not None, struct
        assert xsd_children(ctype, scopes) == [(f["name"], *xsd_type(f["type"])) for f in fields], struct
    assert xsd_children(elements[ERROR["name"]], scopes) == [(f["name"], *xsd_type(f["type"])) for f in ERROR["fields"]]
    wrappers = {name for name in contract} | {f"{name}Response" for name in contract}
    assert set(elements) == wrappers | {ERROR["name"]}
    for name, op in contract.items():
        assert xsd_children(elements[name], scopes) == [(p["name"], *xsd_type(p["type"])) for p in op["params"]], name
        expected = [] if op["returns"] == "void" else [("result", *xsd_type(op["returns"]))]
        assert xsd_children(elements[f"{name}Response"], scopes) == expected, name

    wsdl, wscopes = parse_xml(wsdl_text)
    messages = {m.get("name"): m.find(f"{WSDL}part") for m in wsdl.findall(f"{WSDL}message")}

    def element_of(io) -> str:
        part = messages[qname(io.get("message"), io, wscopes).removeprefix(f"{{{TNS}}}")]
        return qname(part.get("element"), part, wscopes)

    port_ops = {o.get("name"): o for o in wsdl.find(f"{WSDL}portType").findall(f"{WSDL}operation")}
    assert set(port_ops) == set(contract)
    for name, operation in port_ops.items():
        assert element_of(operation.find(f"{WSDL}input")) == f"{{{TNS}}}{name}", name
        assert element_of(operation.find(f"{WSDL}output")) == f"{{{TNS}}}{name}Response", name
        faults = operation.findall(f"{WSDL}fault")
        raised = [f"{{{TNS}}}{ERROR['name']}"] if contract[name].get("raises") else []
        assert [element_of(f) for f in faults] == raised, name
    binding = wsdl.find(f"{WSDL}binding")
    assert binding.find(f"{SOAP}binding").get("style") == "document"
    assert {o.get("name") for o in binding.findall(f"{WSDL}operation")} == set(contract)
    for operation in binding.findall(f"{WSDL}operation"):
        for io in ("input", "output"):
            assert operation.find(f"{WSDL}{io}/{SOAP}body").get("use") == "literal", operation.get("name")


def test_xsd_and_wsdl_declare_the_contract():
    check_xsd_and_wsdl((IDL / "bench.xsd").read_text(), (IDL / "bench.wsdl").read_text())


# ------------------------------------------------------------------------------------ the checks can fail
def xsd_check(xsd_text: str) -> None:
    check_xsd_and_wsdl(xsd_text, (IDL / "bench.wsdl").read_text())


def wsdl_check(wsdl_text: str) -> None:
    check_xsd_and_wsdl((IDL / "bench.xsd").read_text(), wsdl_text)


MUTATIONS = [
    ("bench.proto", check_proto, "message Int8Value { sint32 value = 1; }", "message Int8Value { int32 value = 1; }"),
    ("bench.proto", check_proto, "float weight = 10;", "double weight = 10;"),
    ("bench.proto", check_proto, "returns (stream Doubles)", "returns (Doubles)"),
    ("bench.proto", check_proto, "rpc isPrime(IsPrimeRequest) returns (BoolValue)",
     "rpc isPrime(IsPrimeRequest) returns (Int32Value)"),
    ("bench.proto", check_proto, "message Books { repeated Book books = 1; }", "message Books { Book books = 1; }"),
    ("bench.thrift", check_thrift, "2: i64 seed", "2: i32 seed"),
    ("bench.thrift", check_thrift, "i16 echoInt16", "i32 echoInt16"),
    ("bench.thrift", check_thrift, "6: i64 created", "6: i32 created"),
    ("bench.thrift", check_thrift, "binary echoBytes(1: binary value)", "string echoBytes(1: string value)"),
    ("bench.idl", check_corba, "float weight;", "double weight;"),
    ("bench.idl", check_corba, "Doubles logTransform", "Strings logTransform"),
    ("bench.idl", check_corba, "typedef sequence<octet> Bytes;", "typedef sequence<char> Bytes;"),
    ("bench.idl", check_corba, "short echoInt16(in short value)", "short echoInt16(in long value)"),
    ("bench.xsd", xsd_check, '<xs:element name="weight" type="xs:float"/>',
     '<xs:element name="weight" type="xs:double"/>'),
    ("bench.xsd", xsd_check, '<xs:element name="seed" type="xs:long"/>', '<xs:element name="seed" type="xs:int"/>'),
    ("bench.xsd", xsd_check, '<xs:element name="result" type="tns:Item" minOccurs="0" maxOccurs="unbounded"/>',
     '<xs:element name="result" type="tns:Item"/>'),
    ("bench.wsdl", wsdl_check, 'element="tns:echoInt8Response"', 'element="tns:echoInt16Response"'),
]


@pytest.mark.parametrize("file, check, old, new", MUTATIONS, ids=[f"{m[0]}:{m[2][:40]}" for m in MUTATIONS])
def test_a_changed_type_fails_the_check(file, check, old, new):
    text = (IDL / file).read_text()
    assert text.count(old) == 1, f"{file} no longer holds {old!r}: update this mutation"
    check(text)  # the real file passes (its own test says why if not) ...
    with pytest.raises(AssertionError):
        check(text.replace(old, new))  # ... and the changed one does not


# ------------------------------------------------------------------------------------ vectors, workloads, errors
@pytest.mark.parametrize("name", ["vectors.json", "workloads.json"])
def test_vectors_and_workloads_name_contract_operations(name):
    data = json.loads((IDL / name).read_text())
    items = data.get("vectors") or data.get("workloads")
    assert items
    known = {o["name"]: len(o["params"]) for o in CONTRACT["operations"]}
    for item in items:
        if "session" in item:  # a session on the contract's remote objects, not one operation
            assert "op" not in item and item["session"] == "calculator", item
            assert CONTRACT["objects"]["needs"] == ["remote-references"] and "remote-references" in item["needs"], item
            continue
        assert item["op"] in known, item
        assert len(item["args"]) == known[item["op"]], item


SCRIPTS = {"session", "isolation", "released"}
ATTACKS = {"missing-security-header": "ws-security", "expired-timestamp": "ws-security",
           "replayed-message": "ws-security", "wrong-password": "username-token",
           "tampered-body": "message-signature", "unknown-certificate": "message-signature",
           "no-client-certificate": "client-certificate", "untrusted-client-certificate": "client-certificate"}


def test_session_and_attack_vectors_are_the_ones_the_contract_describes():
    vectors = json.loads((IDL / "vectors.json").read_text())["vectors"]
    assert {v["script"] for v in vectors if "session" in v} == SCRIPTS
    attacks = {v["attack"]: v["needs"] for v in vectors if "attack" in v}
    assert attacks == {a: [need] for a, need in ATTACKS.items()}
    text = (IDL / "CONTRACT.md").read_text()
    for name in [*SCRIPTS, *ATTACKS]:
        assert f"`{name}`" in text, name


def test_every_operation_that_raises_declares_it_in_each_idl():
    raising = {o["name"] for o in CONTRACT["operations"] if o.get("raises")}
    assert {"fail", "randomDoubles", "searchBooks", "getItems", "randomDoublesStream"} <= raising
    assert all(o["raises"] == ERROR["name"] for o in CONTRACT["operations"] if o.get("raises"))
    thrift = strip_comments((IDL / "bench.thrift").read_text())
    corba = strip_comments((IDL / "bench.idl").read_text())
    wsdl = ET.parse(IDL / "bench.wsdl").getroot()
    faulting = {o.get("name") for o in wsdl.find(f"{WSDL}portType").findall(f"{WSDL}operation")
                if o.find(f"{WSDL}fault") is not None}
    for family in ("thrift", "corba", "soap"):
        assert set(ops(family)) == set(ops("thrift")), family  # the three declare the same operations
    for name in ops("thrift"):
        declares_thrift = re.search(rf"\b{name}\([^)]*\)\s*throws \(1: BenchError error\)", thrift) is not None
        declares_corba = re.search(rf"\b{name}\([^)]*\)\s*raises \(BenchError\)", corba) is not None
        assert declares_thrift == declares_corba == (name in faulting) == (name in raising), name


def test_the_vectors_of_50000_values_or_a_mib_and_only_they_are_marked_large():
    """A profile that proves the paths leaves the `size: large` vectors out (CONTRACT.md#vectors): each of
    them sends or asks for 50,000 values or 1 MiB (a generator's count or length, an array's length, or an
    argument the contract names `count`), and every other vector is smaller."""
    def generated(value):
        if isinstance(value, dict):
            return max([value.get("count", 0), value.get("length", 0)] + [generated(v) for v in value.values()])
        if isinstance(value, list):
            return max([len(value)] + [generated(v) for v in value])
        return 0
    params = {o["name"]: [p["name"] for p in o["params"]] for o in CONTRACT["operations"]}
    vectors = json.loads((IDL / "vectors.json").read_text())["vectors"]
    assert {v.get("size", "small") for v in vectors} == {"small", "large"}
    for v in vectors:
        args = v.get("args", [])
        named = zip(params.get(v.get("op"), []), args, strict=False)  # a session has no operation
        counts = [a for name, a in named if name == "count" and isinstance(a, int)]
        size = max([generated(args)] + counts)
        assert (v.get("size") == "large") == (size >= 50_000), (v["id"], size)
