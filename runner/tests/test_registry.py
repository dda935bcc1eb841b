"""The protocol registry (idl/protocols.json), the capabilities the data needs, the languages' manifests
(runner/PROTOCOL.md#manifests) and the golden answers (idl/golden.json) agree with each other and with the
contract (idl/contract.json). Operations and argument counts of vectors and workloads: test_idl.py."""
import json
import re
from pathlib import Path

import pytest

from conductor import manifests

ROOT = Path(__file__).resolve().parents[2]
IDL = ROOT / "idl"
REGISTRY = json.loads((IDL / "protocols.json").read_text())
CAPABILITIES = REGISTRY["capabilities"]
PROTOCOLS = REGISTRY["protocols"]
CONTRACT = json.loads((IDL / "contract.json").read_text())
OPERATIONS = {o["name"]: o for o in CONTRACT["operations"]}
VECTORS = json.loads((IDL / "vectors.json").read_text())["vectors"]
WORKLOADS = json.loads((IDL / "workloads.json").read_text())["workloads"]
MANIFESTS = sorted(ROOT.glob("*/manifest.json"))
ROLES = ("server", "client")
PLACEHOLDERS = {"protocol", "host", "port", "idl", "secrets", "root", "cell"}


# ------------------------------------------------------------------------------------------------ registry
def test_capabilities_are_described():
    assert CAPABILITIES
    for name, about in CAPABILITIES.items():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name), name
        assert isinstance(about, str) and about.strip(), name


@pytest.mark.parametrize("protocol", sorted(PROTOCOLS))
def test_protocol_addresses_every_capability_once(protocol):
    entry = PROTOCOLS[protocol]
    assert isinstance(entry["family"], str) and entry["family"].strip()
    assert isinstance(entry["variant"], dict)
    has, lacks = entry["has"], entry["lacks"]
    assert isinstance(has, list) and isinstance(lacks, dict)
    assert len(has) == len(set(has)), "a capability listed twice in has"
    assert not set(has) & set(lacks), "in both has and lacks"
    assert set(has) | set(lacks) == set(CAPABILITIES), "has + lacks must be exactly the capabilities"
    for capability, reason in lacks.items():
        assert isinstance(reason, str) and reason.strip(), capability


def test_family_and_variant_name_one_protocol():
    """An adapter learns its variant from the registry: two protocols with the same family and variant could not
    be told apart."""
    seen = {}
    for protocol, entry in PROTOCOLS.items():
        key = (entry["family"], json.dumps(entry["variant"], sort_keys=True))
        assert key not in seen, f"{protocol} and {seen.get(key)}"
        seen[key] = protocol


def test_opt_in_protocols_say_why_and_some_profile_takes_them():
    """An opt-in protocol is left out of profiles without "opt_in": true; certification must still reach it."""
    profiles = json.loads((IDL / "workloads.json").read_text())["profiles"]
    for name, profile in profiles.items():
        assert isinstance(profile.get("opt_in", False), bool), name
    assert profiles["certify"].get("opt_in") is True
    assert profiles["smoke"].get("opt_in") is True
    assert not profiles["default"].get("opt_in", False), "the main job compares protocols as deployed by default"
    # the further implementations of a library (another transport, thread model or API) are the full run's
    assert profiles["full"].get("opt_in_implementations") is True
    assert not profiles["default"].get("opt_in_implementations")
    for protocol, entry in PROTOCOLS.items():
        if "opt_in" in entry:
            assert isinstance(entry["opt_in"], str) and entry["opt_in"].strip(), protocol
            plain = [p for p, e in PROTOCOLS.items() if e["family"] == entry["family"] and "opt_in" not in e]
            assert plain, f"{protocol}: an opt-in variant of a family with no protocol run by default"


# ------------------------------------------------------------------------------------------------ needs
NEEDERS = [(f"contract:{o['name']}", o) for o in CONTRACT["operations"]] + \
          [(f"vectors:{v['id']}", v) for v in VECTORS] + [(f"workloads:{w['name']}", w) for w in WORKLOADS]


@pytest.mark.parametrize("where, item", [n for n in NEEDERS if "needs" in n[1]],
                         ids=[n[0] for n in NEEDERS if "needs" in n[1]])
def test_needs_name_known_capabilities(where, item):
    needs = item["needs"]
    assert isinstance(needs, list) and needs, where
    assert len(needs) == len(set(needs)), where
    assert set(needs) <= set(CAPABILITIES), where


def test_nothing_still_uses_the_old_keys():
    """`only` (operations), `tags` (vectors) and `protocols` (vectors, workloads) gave way to `needs`: a reader
    ignores them now, so one left behind would silently stop doing its work."""
    assert not [o["name"] for o in CONTRACT["operations"] if "only" in o]
    assert not [v["id"] for v in VECTORS if "tags" in v or "protocols" in v]
    assert not [w["name"] for w in WORKLOADS if "protocols" in w]
    assert not (IDL / "protocol-limits.json").exists()


def test_the_stream_operation_needs_server_streaming():
    assert "server-streaming" in OPERATIONS["randomDoublesStream"].get("needs", [])
    assert [p for p, e in PROTOCOLS.items() if "server-streaming" in e["has"]], "no protocol can serve it"


# ------------------------------------------------------------------------------------------------ manifests
def test_there_are_manifests():
    assert MANIFESTS


def implementations():
    """(manifest folder, language, index, implementation) for every implementation of every manifest, resolved
    with its manifest's defaults as the runner reads it (conductor/manifests.py)."""
    for path in MANIFESTS:
        manifest = manifests.resolve(json.loads(path.read_text()))
        for index, impl in enumerate(manifest.get("implementations", [])):
            yield path.parent.name, manifest.get("language"), index, impl


def served(impl: dict) -> list:
    return impl["protocols"] if "protocols" in impl else [impl["protocol"]]


def impl_id(language: str, impl: dict) -> str:
    return f"{language}-{impl['name']}" if impl.get("name") else language


@pytest.mark.parametrize("path", MANIFESTS, ids=[p.parent.name for p in MANIFESTS])
def test_manifest_shape(path):
    manifest = json.loads(path.read_text())
    assert isinstance(manifest.get("language"), str) and re.fullmatch(r"[a-z0-9]+", manifest["language"])
    for key in ("build", "versions"):
        assert isinstance(manifest[key], list) and manifest[key] and all(isinstance(a, str) for a in manifest[key]), key
    assert isinstance(manifest.get("implementations"), list) and manifest["implementations"]


DEFAULT_KEYS = {"argv_prefix", "quick_start_argv", "notes", "jit_threads", "warmup_max_s", "library", "settings",
                "thread_model"}


@pytest.mark.parametrize("path", MANIFESTS, ids=[p.parent.name for p in MANIFESTS])
def test_manifest_defaults(path):
    """`defaults` (optional) states once what every implementation of the manifest inherits; an implementation
    declines some of it by name (`no_defaults`), and only what the defaults give."""
    manifest = json.loads(path.read_text())
    defaults = manifest.get("defaults", {})
    assert isinstance(defaults, dict) and set(defaults) <= DEFAULT_KEYS, set(defaults) - DEFAULT_KEYS
    if "argv_prefix" in defaults:
        prefix = defaults["argv_prefix"]
        assert isinstance(prefix, list) and prefix and all(isinstance(a, str) for a in prefix)
    if "quick_start_argv" in defaults:
        assert "argv_prefix" in defaults, "quick_start_argv goes after an argv_prefix"
        quick = defaults["quick_start_argv"]
        assert isinstance(quick, list) and quick and all(isinstance(a, str) for a in quick)
    if "notes" in defaults:
        assert isinstance(defaults["notes"], list) and all(isinstance(n, str) and n.strip() for n in defaults["notes"])
    for impl in manifest["implementations"]:
        declined = impl.get("no_defaults", [])
        assert isinstance(declined, list) and set(declined) <= set(defaults), declined
        resolved = manifests.resolve_implementation(impl, defaults)
        assert "no_defaults" not in resolved
        for note in resolved.get("notes", []):
            assert resolved["notes"].count(note) == 1, f"a note given twice (own and inherited): {note[:60]}"
        if "argv_prefix" in defaults and "argv_prefix" not in declined:
            for role in ROLES:
                if role in impl:
                    assert impl[role][:len(defaults["argv_prefix"])] != defaults["argv_prefix"], \
                        f"{role} repeats the argv_prefix the defaults give"


def test_defaults_resolve_as_documented():
    defaults = {"argv_prefix": ["java", "-Xmx1m"], "notes": ["every JVM"], "warmup_max_s": 60}
    impl = {"protocol": "p", "server": ["-jar", "s.jar"], "client": ["-jar", "c.jar"], "notes": ["own"]}
    assert manifests.resolve_implementation(impl, defaults) == {
        "protocol": "p", "server": ["java", "-Xmx1m", "-jar", "s.jar"], "client": ["java", "-Xmx1m", "-jar", "c.jar"],
        "notes": ["own", "every JVM"], "warmup_max_s": 60}
    # its own value wins; it may decline what it does not take; an unsupported entry takes nothing
    own = {"protocol": "p", "warmup_max_s": 150, "no_defaults": ["notes"]}
    assert manifests.resolve_implementation(own, defaults) == {"protocol": "p", "warmup_max_s": 150}
    assert manifests.resolve_implementation({"protocol": "p", "unsupported": "why"}, defaults) == \
        {"protocol": "p", "unsupported": "why"}
    assert manifests.resolve({"language": "x", "defaults": defaults, "implementations": []}) == \
        {"language": "x", "implementations": []}


def test_quick_start_argv_only_in_a_quick_start_profile():
    """A profile that times nothing worth publishing (smoke, certify) puts the quick-start flags after the
    argv_prefix; every other profile runs the argv as declared, and the key itself is never inherited."""
    defaults = {"argv_prefix": ["java", "-Xmx1m"], "quick_start_argv": ["-XX:TieredStopAtLevel=1"]}
    impl = {"protocol": "p", "server": ["-jar", "s.jar"]}
    assert manifests.resolve_implementation(impl, defaults) == \
        {"protocol": "p", "server": ["java", "-Xmx1m", "-jar", "s.jar"]}
    assert manifests.resolve_implementation(impl, defaults, quick_start=True) == \
        {"protocol": "p", "server": ["java", "-Xmx1m", "-XX:TieredStopAtLevel=1", "-jar", "s.jar"]}
    assert manifests.resolve_implementation({**impl, "no_defaults": ["argv_prefix"]}, defaults, quick_start=True) == \
        {"protocol": "p", "server": ["-jar", "s.jar"]}
    spec = json.loads((IDL / "workloads.json").read_text())["profiles"]
    quick = {name for name, p in spec.items() if p.get("quick_start")}
    assert quick == {"smoke", "certify"}, "only profiles whose figures are not published may start quickly"


def test_languages_are_unique():
    languages = [json.loads(p.read_text()).get("language") for p in MANIFESTS]
    assert len(languages) == len(set(languages)), languages


@pytest.mark.parametrize("folder, language, index, impl", list(implementations()),
                         ids=[f"{f}#{i}" for f, _, i, _ in implementations()])
def test_implementation(folder, language, index, impl):
    # one of protocol / protocols, naming registered protocols
    assert ("protocol" in impl) != ("protocols" in impl), "exactly one of protocol and protocols"
    protocols = served(impl)
    assert isinstance(protocols, list) and protocols and all(isinstance(p, str) for p in protocols)
    assert len(protocols) == len(set(protocols))
    unknown = [p for p in protocols if p not in PROTOCOLS]
    assert not unknown, f"not in idl/protocols.json: {unknown}"
    if "name" in impl:
        assert isinstance(impl["name"], str) and re.fullmatch(r"[A-Za-z0-9_.]+(-[A-Za-z0-9_.]+)*", impl["name"])
    for key in ("unsupported", "server_unsupported", "client_unsupported"):
        if key in impl:
            assert isinstance(impl[key], str) and impl[key].strip(), key
    for role in ROLES:
        if role not in impl:
            continue
        argv = impl[role]
        assert isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv), role
        # thread_model is required for each role declared
        assert isinstance(impl.get("thread_model"), dict), "thread_model missing"
        assert isinstance(impl["thread_model"].get(role), str) and impl["thread_model"][role].strip(), \
            f"thread_model.{role} missing"
        # an argv and a refusal of the same role contradict each other
        assert "unsupported" not in impl and f"{role}_unsupported" not in impl, f"{role} both given and unsupported"
        placeholders = {p for a in argv for p in re.findall(r"{(\w+)}", a)}
        assert placeholders <= PLACEHOLDERS, placeholders - PLACEHOLDERS
        if len(protocols) > 1:
            assert "protocol" in placeholders, f"{role} serves {protocols} but its argv has no {{protocol}}"
    has_role = any(role in impl for role in ROLES)
    refuses = any(k in impl for k in ("unsupported", "server_unsupported", "client_unsupported"))
    assert has_role or refuses, "neither a server, a client nor an unsupported reason"


def test_implementation_ids_are_unique_per_protocol_and_role():
    """A cell is `protocol/client-impl→server-impl`: two implementations with one id for the same protocol and
    role (running it or declaring it unsupported) would make one cell of two."""
    claims = {}
    for folder, language, index, impl in implementations():
        for role in ROLES:
            if role in impl or "unsupported" in impl or f"{role}_unsupported" in impl:
                for protocol in served(impl) if "protocol" in impl or "protocols" in impl else []:
                    key = (protocol, role, impl_id(language, impl))
                    assert key not in claims, f"{key} in {folder}#{index} and {claims[key]}"
                    claims[key] = f"{folder}#{index}"


# ------------------------------------------------------------------------------------------------ golden
GOLDEN = json.loads((IDL / "golden.json").read_text())


@pytest.mark.parametrize("case", GOLDEN["answers"], ids=[f"{c['op']}{i}" for i, c in enumerate(GOLDEN["answers"])])
def test_golden_answer_names_a_contract_operation(case):
    assert case["op"] in OPERATIONS
    op = OPERATIONS[case["op"]]
    assert len(case["args"]) == len(op["params"])
    assert case["type"] == op["returns"]
    assert re.fullmatch(r"[0-9a-f]{16}", case["fnv1a64"]) and isinstance(case["bytes"], int)


def test_golden_generated_forms_have_their_types():
    """The generator forms of CONTRACT.md#vectors: randomBytes makes bytes, randomDoubles float64[]."""
    kinds = {"randomBytes": "bytes", "randomDoubles": "float64[]"}
    assert GOLDEN.get("generated")
    for case in GOLDEN["generated"]:
        (form,) = case["form"]
        assert kinds[form] == case["type"], case
        assert re.fullmatch(r"[0-9a-f]{16}", case["fnv1a64"]) and isinstance(case["bytes"], int)
