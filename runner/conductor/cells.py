"""The cells of a run: every client implementation of the languages' manifests crossed with every server
implementation of the same protocol, gaps as rows with their reasons, and the selection a run makes of them
(--protocol, --server, --client, --cell, the opt-in protocols and implementations a profile leaves out, and a
covering subset for a profile that only proves the paths)."""
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from . import manifests as manifests_mod
from . import target
from . import variant as variant_mod
from .plan import load_registry


def can_run(cell: dict) -> bool:
    """A cell runs unless it is unsupported or its plan has an error (both are rows with their reasons)."""
    return not (cell.get("unsupported") or cell.get("error"))


def jit_threads_read(cell: dict, role: str, remote: bool) -> str:
    """The compiler threads the runner reads of a side (the manifest's `jit_threads`): none of a server on another
    host (--server-host), whose threads are not read there."""
    return "" if role == "server" and remote else cell[f"{role}_jit_threads"]


def _given(value) -> bool:
    """A manifest's value counts unless absent, null or false (as the registry and manifests are read)."""
    return value is not None and value is not False


def _or(value, default):
    return value if _given(value) else default


def implementations(manifests: list[dict]) -> list[dict]:
    """Every (language, protocol, implementation) of the resolved manifests, with its id."""
    out = []
    for m in manifests:
        for e in m["implementations"]:
            for p in _or(e.get("protocols"), [e.get("protocol")]):
                out.append({"language": m["language"], "protocol": p, "entry": e, "home": m.get("home"),
                            "id": f"{m['language']}-{e['name']}" if _given(e.get("name")) else m["language"]})
    return out


def _side(impl: dict, role: str) -> dict:
    """What one side of a cell runs, or why it cannot (`reason`), or what is wrong (`error`)."""
    e = impl["entry"]
    if e is None:
        return {"reason": f"not implemented in {impl['language']}"}
    if _given(e.get("unsupported")):
        return {"reason": e["unsupported"]}
    if _given(e.get(f"{role}_unsupported")):
        return {"reason": e[f"{role}_unsupported"]}
    if not isinstance(e.get(role), list):
        return {"reason": f"{impl['id']} declares no {role} for {impl['protocol']}"}
    if _or((e.get("thread_model") or {}).get(role), "") == "":
        return {"error": f"the manifest of {impl['language']} gives no thread_model.{role} for {impl['protocol']}"}
    return {"argv": e[role], "library": _or(e.get("library"), ""), "settings": _or(e.get("settings"), ""),
            "opt_in": _or(e.get("opt_in"), None), "variants": _or(e.get("variants"), {}),
            "variants_unsupported": _or(e.get("variants_unsupported"), {}),
            "notes": _or(e.get("notes"), []), "thread_model": e["thread_model"][role],
            "jit_threads": _or(e.get("jit_threads"), ""),
            "warmup_max_s": _per_protocol(_or(e.get("warmup_max_s"), 0), impl["protocol"])}


def _per_protocol(value, protocol: str):
    """A manifest value given for all the entry's protocols, or per protocol: {"<protocol>": ..., "*": ...}."""
    if isinstance(value, dict):
        return value.get(protocol, value.get("*"))
    return value


def _takes_part(e: dict, role: str) -> bool:
    return _given(e.get("unsupported")) or _given(e.get(f"{role}_unsupported")) or isinstance(e.get(role), list)


def _joined(items: list) -> str | None:
    items = sorted({i for i in items if i is not None})
    return "; ".join(items) if items else None


def expand_cells(manifests: list[dict], baseline: str, registry: dict) -> list[dict]:
    """The cells: every implementation with a client (a row) crossed with every implementation with a server
    (a column) of the same protocol. A language with no entry for a protocol still gets a row and a column,
    unsupported: a gap is a row with a reason, never a missing row. A protocol missing from the registry, or
    a declared role without its thread model, makes its cells errors. The baseline protocol comes first,
    then the protocols in registry order, then the unregistered ones in manifest order."""
    langs = [m["language"] for m in manifests]
    impls = implementations(manifests)
    known = list(registry["protocols"])
    named = {i["protocol"] for i in impls}
    protocols = list(dict.fromkeys(p for p in [baseline, *known, *(i["protocol"] for i in impls)] if p in named))

    def members(protocol: str, role: str) -> list[dict]:
        present = [i for i in impls if i["protocol"] == protocol and _takes_part(i["entry"], role)]
        absent = [{"language": lang, "protocol": protocol, "entry": None, "id": lang} for lang in langs
                  if not any(i["protocol"] == protocol and i["language"] == lang for i in impls)]
        return present + absent

    cells = []
    for p in protocols:
        unregistered = None if p in known else f"protocol '{p}' is not in idl/protocols.json"
        for c in members(p, "client"):
            for s in members(p, "server"):
                srv, cli = _side(s, "server"), _side(c, "client")
                cells.append({
                    "name": f"{p}/{c['id']}→{s['id']}", "slug": f"{p}__{c['id']}-to-{s['id']}", "protocol": p,
                    "client": c["id"], "server": s["id"],
                    "client_language": c["language"], "server_language": s["language"],
                    "server_argv": srv.get("argv"), "client_argv": cli.get("argv"),
                    "server_library": srv.get("library"), "client_library": cli.get("library"),
                    "server_settings": srv.get("settings"), "client_settings": cli.get("settings"),
                    "server_thread_model": srv.get("thread_model"), "client_thread_model": cli.get("thread_model"),
                    "server_jit_threads": srv.get("jit_threads") or "",
                    "client_jit_threads": cli.get("jit_threads") or "",
                    "server_warmup_max_s": srv.get("warmup_max_s") or 0,
                    "client_warmup_max_s": cli.get("warmup_max_s") or 0,
                    "server_notes": srv.get("notes") or [], "client_notes": cli.get("notes") or [],
                    "server_opt_in": srv.get("opt_in"), "client_opt_in": cli.get("opt_in"),
                    "client_variants": cli.get("variants") or {},
                    "client_variants_unsupported": cli.get("variants_unsupported") or {},
                    "error": _joined([unregistered, srv.get("error"), cli.get("error")]),
                    "unsupported": _joined([srv.get("reason"), cli.get("reason")]),
                    # an outside manifest's implementation runs from the manifest's folder
                    **({"server_home": s["home"]} if s.get("home") else {}),
                    **({"client_home": c["home"]} if c.get("home") else {})})
    return cells


def _pick(chosen: str, *values: str) -> bool:
    return chosen == "" or any(v in chosen.split(",") for v in values)


def select_cells(cells: list[dict], protocols: str = "", servers: str = "", clients: str = "",
                 names: str = "") -> list[dict]:
    """The cells whose protocol, server, client and name are in the comma-separated lists (empty = all). A
    server or client list may name implementations (python-aio) or languages (python: all of its own)."""
    return [c for c in cells if _pick(protocols, c["protocol"]) and _pick(servers, c["server"], c["server_language"])
            and _pick(clients, c["client"], c["client_language"]) and _pick(names, c["name"])]


def unknown_names(cells: list[dict], protocols: str, servers: str, clients: str, names: str) -> list[str]:
    """A warning for each name in a selection that no cell knows, naming the known ones."""
    known = {"protocol": sorted({c["protocol"] for c in cells}),
             "implementation": sorted({v for c in cells for v in (c["server"], c["client"], c["server_language"])}),
             "cell": [c["name"] for c in cells]}
    warnings = []
    for what, chosen in (("protocol", protocols), ("implementation", servers), ("implementation", clients),
                         ("cell", names)):
        for name in chosen.split(",") if chosen else []:
            if name not in known[what]:
                warnings.append(f"unknown {what} '{name}'; known: {' '.join(known[what])}")
    return warnings


def opt_in_left_out(cells: list[dict], registry: dict, profile: dict, protocols: str) -> list[dict]:
    """The protocols of `cells` that the profile leaves out as opt-in (a setting off in every stack's
    defaults, such as compression, or a further variant of a protocol the main job times), with the
    registry's reason; none when the profile takes them ("opt_in": true) or --protocol names protocols."""
    if protocols or profile.get("opt_in"):
        return []
    return [{"protocol": p, "reason": registry["protocols"][p]["opt_in"]}
            for p in sorted({c["protocol"] for c in cells}) if _given(registry["protocols"].get(p, {}).get("opt_in"))]


def implementations_left_out(cells: list[dict], profile: dict, servers: str, clients: str, names: str) -> list[dict]:
    """The implementations of `cells` that the profile leaves out as opt-in (a further transport, thread model or
    API of a library another implementation of the same language already times: its manifest's `opt_in`), with
    the reason, each once; none when the profile takes every opt-in ("opt_in": true) or these
    ("opt_in_implementations": true), or the selection names servers, clients or cells."""
    if servers or clients or names or profile.get("opt_in") or profile.get("opt_in_implementations"):
        return []
    out = {}
    for c in cells:
        for role in ("server", "client"):
            if _given(c.get(f"{role}_opt_in")):
                out[(c["protocol"], c[role])] = {"protocol": c["protocol"], "implementation": c[role],
                                                 "reason": c[f"{role}_opt_in"]}
    return list(out.values())


def cover_language_pairs(cells: list[dict]) -> list[dict]:
    """A covering subset of the runnable cells of each protocol: one cell for every pair of client and server
    languages, chosen so that every client and every server implementation takes part at least once (a pair's
    cell is the one that brings the most implementations not yet covered, then the first by name; an
    implementation still left out gets a cell of its own). Cells that cannot run stay, with their reasons. For
    a profile that proves the paths (smoke): `just certify` crosses every pair."""
    runnable = [c for c in cells if can_run(c)]
    keep: set[str] = set()
    for protocol in dict.fromkeys(c["protocol"] for c in runnable):
        mine = sorted((c for c in runnable if c["protocol"] == protocol), key=lambda c: c["name"])
        covered: set[tuple] = set()

        def new_sides(c: dict, covered=covered) -> int:
            return len({("client", c["client"]), ("server", c["server"])} - covered)
        for pair in dict.fromkeys((c["client_language"], c["server_language"]) for c in mine):
            best = max((c for c in mine if (c["client_language"], c["server_language"]) == pair), key=new_sides)
            keep.add(best["name"])
            covered |= {("client", best["client"]), ("server", best["server"])}
        for c in mine:
            if new_sides(c):
                keep.add(c["name"])
                covered |= {("client", c["client"]), ("server", c["server"])}
    return [c for c in cells if c["name"] in keep or not can_run(c)]


def cover_same_language(cells: list[dict]) -> list[dict]:
    """The runnable cells whose client and server are of one language (each server driven by its own language's
    client: a load profile's), every client of a server elsewhere (--server-at: its language is unknown), and the
    cells that cannot run, with their reasons."""
    return [c for c in cells
            if c["client_language"] == c["server_language"] or c["server"] == ELSEWHERE or not can_run(c)]


def rival_cells(chosen: list[dict], all_cells: list[dict], fastest: dict[str, dict], pass_no: int) -> list[dict]:
    """Each server of the chosen cells that ran driven by its protocol's fastest client (conductor/load.py:
    fastest_clients), where no chosen cell pairs them already: those cells of `all_cells`, each marked `rival` (the
    pass whose points chose it) with what chose it (`driver`)."""
    have = {c["name"] for c in chosen}
    out = []
    for c in all_cells:
        driver = fastest.get(c["protocol"])
        if (driver is None or c["client"] != driver["client"] or c["name"] in have or not can_run(c)
                or not any(d["protocol"] == c["protocol"] and d["server"] == c["server"] and can_run(d)
                           for d in chosen)):
            continue
        out.append(c | {"rival": pass_no, "driver": driver})
    return out


@dataclass
class Selection:
    all: list[dict]        # every cell of the manifests
    chosen: list[dict]     # the cells the run takes
    left_out: list[dict]   # opt-in protocols and implementations the profile left out, with the reasons
    manifests: list[dict]  # the resolved manifests
    messages: list[str]    # for the person running the suite: unknown names, what was left out


ELSEWHERE = "elsewhere"  # the implementation a server elsewhere is in a cell's name: grpc/java→elsewhere


def elsewhere_manifest(server_at: dict[str, str], registry: dict) -> dict:
    """The servers elsewhere (--server-at) as a manifest: per protocol, a server whose command is the stand-in
    (standin.py), which checks the server is there and waits; the clients call the server itself."""
    python = [sys.executable, "-m", "conductor.standin"]
    entries = []
    for protocol, text in server_at.items():
        entry = registry["protocols"][protocol]
        entries.append({
            "protocols": [protocol], "library": f"not started by the suite: the server at {text}",
            "settings": "unknown: the suite did not start this server",
            "thread_model": {"server": "unknown: the suite did not start this server"},
            "server": ["env", f"PYTHONPATH={Path(__file__).resolve().parents[1]}", *python,
                       "--protocol", "{protocol}", "--family", entry["family"],
                       "--variant", json.dumps(entry.get("variant", {})), "--target", text,
                       "--secrets", "{secrets}", "--cell", "{cell}"],
            "notes": ["a server elsewhere: its CPU, memory and threads are not measured (the process the runner "
                      "holds for it is a stand-in)"]})
    return {"language": ELSEWHERE, "implementations": entries}


def choose(manifests_dir: Path, idl: Path, profile_name: str, protocols: str = "", servers: str = "",
           clients: str = "", names: str = "", outside: tuple[Path, ...] = (), implementation: str = "",
           server_at: dict[str, str] | None = None, variant: dict | None = None) -> Selection:
    """The cells a run takes from the manifests (and the manifests from outside the repository), for a profile
    and a selection (comma-separated lists, empty = all); with `implementation`, only the cells it takes part in,
    in either role; with `server_at` (protocol: target), only every client of each protocol against the server
    elsewhere; with `variant` (variant.py), each cell carries it, unsupported where it cannot take it."""
    spec = json.loads((idl / "workloads.json").read_text())
    profile = spec["profiles"].get(profile_name, {})
    loaded = manifests_mod.load(manifests_dir, bool(profile.get("quick_start")), outside)
    registry = load_registry(idl)
    if server_at:
        loaded = [*loaded, elsewhere_manifest(server_at, registry)]
    cells = expand_cells(loaded, spec.get("baseline") or "", registry)
    variant_mod.apply(cells, variant or {}, registry)
    if server_at:
        cells = [c for c in cells if c["server"] == ELSEWHERE and c["protocol"] in server_at]
        for c in cells:  # the address the clients dial
            family = registry["protocols"][c["protocol"]]
            c["server_host"] = target.parse(c["protocol"], family.get("variant", {}), family["family"],
                                            server_at[c["protocol"]]).host
    messages = [f"warning: {w}" for w in unknown_names(cells, protocols, servers, clients, names)]
    if implementation:
        if implementation not in {c[role] for c in cells for role in ("server", "client")}:
            raise manifests_mod.ManifestError(f"no implementation '{implementation}' in the manifests; known: "
                                              + " ".join(sorted({c["client"] for c in cells} | {c["server"]
                                                                                                  for c in cells})))
        # its cells of the protocols it declares, in both roles (a role it lacks: rows with the reason)
        declared = {i["protocol"] for i in implementations(loaded) if i["id"] == implementation}
        cells = [c for c in cells if implementation in (c["server"], c["client"]) and c["protocol"] in declared]
    chosen = select_cells(cells, protocols, servers, clients, names)
    left_out = opt_in_left_out(chosen, registry, profile, protocols)
    if left_out:
        messages.append(f"opt-in protocols left out of profile {profile_name} (name them with --protocol): "
                        + " ".join(x["protocol"] for x in left_out))
        dropped = {x["protocol"] for x in left_out}
        chosen = [c for c in chosen if c["protocol"] not in dropped]
    opt_in = [] if implementation else implementations_left_out(chosen, profile, servers, clients, names)
    if opt_in:
        messages.append(f"opt-in implementations left out of profile {profile_name} (name them with --server or "
                        "--client): " + " ".join(f"{x['protocol']}/{x['implementation']}" for x in opt_in))
        dropped_sides = {(x["protocol"], x["implementation"]) for x in opt_in}
        chosen = [c for c in chosen if not {(c["protocol"], c["server"]), (c["protocol"], c["client"])} & dropped_sides]
        left_out += opt_in
    if profile.get("cover") == "language pairs" and not names:
        before = sum(1 for c in chosen if can_run(c))
        chosen = cover_language_pairs(chosen)
        after = sum(1 for c in chosen if can_run(c))
        messages.append(f"profile {profile_name} crosses each pair of languages of each protocol once, every "
                        f"implementation on each side at least once: {after} of {before} runnable cells "
                        "(just certify, or --cell, crosses every pair)")
    if profile.get("cover") == "same language" and not names:
        before = sum(1 for c in chosen if can_run(c))
        chosen = cover_same_language(chosen)
        messages.append(f"profile {profile_name} drives each server with its own language's clients: "
                        f"{sum(1 for c in chosen if can_run(c))} of {before} runnable cells (--cell names others)")
    return Selection(cells, chosen, left_out, loaded, messages)
