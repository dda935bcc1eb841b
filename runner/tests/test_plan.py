"""The plan of a run (runner/conductor): the client × server cross product with its gap rules, the selection, the
opt-in protocols, the resolved profile, which workloads each protocol times, the order of the cells, the warm
phases and the lanes' queue, and the estimates of the progress line, tested as data."""
import json
from pathlib import Path

import pytest

from conductor import cells as cells_mod
from conductor import manifests, plan, progress, steps

IDL = Path(__file__).resolve().parents[2] / "idl"

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REGISTRY = {"protocols": {"p": {}, "q": {"opt_in": "a setting off by default"}}}
TM = {"server": "a thread", "client": "the caller's thread"}


def manifest(language, *implementations):
    return {"language": language, "implementations": list(implementations)}


def by_name(cells):
    return {c["name"]: c for c in cells}


def test_every_client_crosses_every_server_and_a_gap_is_a_row_with_a_reason():
    ms = [manifest("a", {"protocol": "p", "server": ["s"], "client": ["c"], "thread_model": TM,
                         "jit_threads": "^C[12] ", "warmup_max_s": 30},
                   {"protocol": "p", "name": "fast", "client": ["c2"], "thread_model": TM}),
          manifest("b", {"protocol": "q", "server": ["s"], "client": ["c"], "thread_model": TM})]
    cells = by_name(cells_mod.expand_cells(ms, "", REGISTRY))
    assert list(cells) == ["p/a→a", "p/a→b", "p/a-fast→a", "p/a-fast→b", "p/b→a", "p/b→b",
                           "q/b→b", "q/b→a", "q/a→b", "q/a→a"]  # implementations first, then the gaps
    assert cells["p/a→a"]["unsupported"] is None and cells["p/a→a"]["server_argv"] == ["s"]
    assert cells["p/a→a"]["server_jit_threads"] == "^C[12] " and cells["p/a→a"]["client_warmup_max_s"] == 30
    assert cells["p/a-fast→a"]["client_jit_threads"] == "" and cells["p/a-fast→a"]["client_warmup_max_s"] == 0
    assert cells["p/a→b"]["unsupported"] == "not implemented in b" and cells["p/a→b"]["server_argv"] is None
    assert cells["p/b→b"]["unsupported"] == "not implemented in b"  # both sides, one reason
    assert "p/a→a-fast" not in cells  # a client-only implementation is a row, not a column
    assert cells["q/b→b"]["slug"] == "q__b-to-b"


def test_a_bound_on_the_jit_warm_up_may_be_given_per_protocol_of_an_entry():
    ms = [manifest("a", {"protocols": ["p", "q"], "server": ["s"], "client": ["c"], "thread_model": TM,
                         "jit_threads": "^C2", "warmup_max_s": {"q": 60, "*": 120}}),
          manifest("b", {"protocols": ["p", "q"], "server": ["s"], "client": ["c"], "thread_model": TM,
                         "jit_threads": "^C2", "warmup_max_s": {"q": 45}})]
    cells = by_name(cells_mod.expand_cells(ms, "", REGISTRY))
    assert cells["p/a→a"]["server_warmup_max_s"] == 120 and cells["q/a→a"]["server_warmup_max_s"] == 60
    assert cells["q/b→a"]["client_warmup_max_s"] == 45 and cells["p/b→a"]["client_warmup_max_s"] == 0


def test_unsupported_reasons_unregistered_protocols_and_missing_thread_models():
    ms = [manifest("a", {"protocols": ["p", "r"], "server": ["s"], "client": ["c"], "thread_model": TM}),
          manifest("b", {"protocol": "p", "client": ["c"], "server_unsupported": "no server",
                         "thread_model": {"client": "x"}},
                   {"protocol": "r", "unsupported": "no library"}),
          manifest("c", {"protocol": "p", "server": ["s"], "client": ["c"], "thread_model": {"server": "x"}})]
    cells = by_name(cells_mod.expand_cells(ms, "", REGISTRY))
    assert cells["p/a→b"]["unsupported"] == "no server"
    assert cells["p/b→a"]["unsupported"] is None
    assert cells["r/a→b"]["unsupported"] == "no library"
    assert cells["r/a→a"]["error"] == "protocol 'r' is not in idl/protocols.json"
    assert cells["p/c→a"]["error"] == "the manifest of c gives no thread_model.client for p"
    # reasons of both sides are joined, sorted and unique
    assert cells["r/b→c"]["unsupported"] == "no library; not implemented in c"


def test_the_baseline_protocol_comes_first_then_registry_order():
    ms = [manifest("a", {"protocols": ["zz", "q", "p"], "server": ["s"], "client": ["c"], "thread_model": TM})]
    assert [c["protocol"] for c in cells_mod.expand_cells(ms, "q", REGISTRY)] == ["q", "p", "zz"]


def test_selection_by_protocol_implementation_language_and_name():
    cells = cells_mod.expand_cells(manifests.load(FIXTURES / "matrix"), "echo", plan.load_registry(FIXTURES / "idl"))
    chosen = cells_mod.select_cells(cells, "echo", "beta", "alpha")
    assert [c["name"] for c in chosen] == ["echo/alpha→beta", "echo/alpha-fast→beta"]
    assert [c["name"] for c in cells_mod.select_cells(cells, names="echo/beta→alpha,gap/alpha→alpha")] == \
        ["echo/beta→alpha", "gap/alpha→alpha"]
    assert cells_mod.unknown_names(cells, "nosuch", "", "", "")[0].startswith("unknown protocol 'nosuch'; known: ")


def test_opt_in_protocols_are_left_out_unless_taken():
    args = (FIXTURES / "matrix", FIXTURES / "idl")
    chosen = cells_mod.choose(*args, "smoke")
    assert not [c for c in chosen.chosen if c["protocol"] == "echo-opt"]
    assert chosen.left_out[0]["protocol"] == "echo-opt"
    assert any("left out of profile smoke" in m for m in chosen.messages)
    assert any(c["protocol"] == "echo-opt" for c in cells_mod.choose(*args, "opted").chosen)
    assert cells_mod.choose(*args, "smoke", protocols="echo-opt").left_out == []


def test_opt_in_implementations_are_left_out_unless_the_profile_or_the_selection_takes_them():
    cells = [{"name": f"p/{c}→{s}", "protocol": "p", "server": s, "client": c, "server_opt_in": None,
              "client_opt_in": "a further transport" if c == "a-x" else None} for c in ("a", "a-x") for s in ("a",)]
    assert cells_mod.implementations_left_out(cells, {}, "", "", "") == [
        {"protocol": "p", "implementation": "a-x", "reason": "a further transport"}]
    assert cells_mod.implementations_left_out(cells, {"opt_in_implementations": True}, "", "", "") == []
    assert cells_mod.implementations_left_out(cells, {"opt_in": True}, "", "", "") == []
    assert cells_mod.implementations_left_out(cells, {}, "", "a-x", "") == []


def resolved(idl: Path, name: str, passes=None, seed=1) -> dict:
    return plan.resolve(name, plan.load_profile(idl, name)[1], passes, seed)


def test_the_resolved_profile_has_every_default_filled_in_and_the_profile_s_own_over_them(tmp_path):
    profile = resolved(IDL, "default")
    assert profile["warm_phase"] == plan.WARM_PHASE and profile["jit_quiet"] == plan.JIT_QUIET
    assert profile["lanes"] == 1 and profile["passes"] == 1 and profile["count_ms"] == 100
    assert profile["warmup_max_ms"] == 100 and profile["implementation_warmup"] is True
    assert profile["steady"] == {"tolerance": 0.1, "max_ms": 2500, "rewarm_ms": 250, "phase_max_ms": 500}
    assert resolved(IDL, "certify")["lanes"] == 3 and resolved(IDL, "certify")["warmup_max_ms"] == 0
    assert resolved(IDL, "default", passes=3, seed=7) | {} == profile | {"passes": 3, "seed": 7}
    smoke = resolved(FIXTURES / "idl", "smoke")
    assert smoke["jit_quiet"] == {"share": 0.05, "window_s": 0.5}  # the profile's own, over the defaults
    plan.write_plans(tmp_path, FIXTURES / "idl", smoke, [])
    assert json.loads((tmp_path / "plan" / "profile.json").read_text()) == smoke


def test_known_failures_let_timing_go_on_only_for_the_vectors_they_name():
    from analysis import known_failures
    entries = [{"cell": "p/a→b", "vector": "v1", "reason": "r"}, {"cell": "p/a→a", "reason": "whole cell"}]
    vectors = {"results": [{"id": "v1", "status": "fail"}, {"id": "v2", "status": "unsupported"},
                           {"id": "v3", "status": "pass"}]}
    assert known_failures.vectors_allow_timing(entries, "p/a→b", vectors)
    assert not known_failures.vectors_allow_timing(entries, "p/a→a", vectors)  # a whole-cell entry does not
    assert not known_failures.vectors_allow_timing(entries, "p/b→b", vectors)
    assert known_failures.vectors_allow_timing([], "p/b→b", {"results": [{"id": "v3", "status": "pass"}]})


def test_lanes_only_where_nothing_is_measured():
    assert plan.lanes({"workloads": []}) == 1
    assert plan.lanes({"workloads": [], "lanes": 2}) == 2
    assert plan.lanes({"workloads": ["ping"], "lanes": 1}) == 1
    for measuring, named in [({"workloads": ["ping"]}, "workloads"), ({}, "workloads"),
                             ({"workloads": [], "floor": True}, "floor"),
                             ({"workloads": [], "handler": True}, "handler"),
                             ({"workloads": [], "count_calls": 3}, "count_calls")]:
        try:
            plan.lanes({**measuring, "lanes": 2})
        except plan.PlanError as e:
            assert named in str(e)
        else:
            raise AssertionError(f"lanes allowed with {measuring}")
    for bad in (0, -1, 1.5, True, "2"):
        try:
            plan.lanes({"workloads": [], "lanes": bad})
        except plan.PlanError as e:
            assert "whole number" in str(e)
        else:
            raise AssertionError(f"lanes {bad!r} allowed")


def test_cells_are_queued_for_lanes_by_protocol_heaviest_first():
    def cell(protocol, n, declined=False):
        return {"protocol": protocol, "name": f"{protocol}/{n}", "unsupported": "no" if declined else None}
    cells = ([cell("gaps", i, declined=True) for i in range(6)] + [cell("small", i) for i in range(2)]
             + [cell("big", i) for i in range(5)] + [cell("mid", i) for i in range(3)]
             + [cell("even", i) for i in range(2)])
    places = steps.lane_queue(cells)
    of = {c["protocol"]: set() for c in cells}
    for c, place in zip(cells, places, strict=True):
        of[c["protocol"]].add(place)
    assert all(len(s) == 1 for s in of.values()), "a protocol's cells are one group"
    # weights (cells that run + 1): big 6, mid 4, small 3, even 3 (after small: the pass's order), gaps 1
    assert [of[p].pop() for p in ("big", "mid", "small", "even", "gaps")] == [0, 1, 2, 3, 4]


def test_a_profile_without_large_vectors_gives_its_processes_a_view_of_the_contract_without_them(tmp_path):
    idl = Path(__file__).resolve().parents[2] / "idl"
    vectors = json.loads((idl / "vectors.json").read_text())["vectors"]
    large = [v["id"] for v in vectors if v.get("size") == "large"]
    whole = {"name": "full", "large_vectors": True, "fresh_vectors": False}
    assert plan.write_contract_view(tmp_path, idl, whole) == ([], [])
    assert not (tmp_path / "idl").exists()  # the processes read idl/ itself
    assert plan.write_contract_view(tmp_path, idl, {"large_vectors": False, "fresh_vectors": False}) == (large, [])
    view = tmp_path / "idl"
    assert sorted(p.name for p in view.iterdir()) == sorted(p.name for p in idl.iterdir())
    assert (view / "bench.proto").resolve() == (idl / "bench.proto").resolve()
    kept = json.loads((view / "vectors.json").read_text())["vectors"]
    assert [v["id"] for v in kept] == [v["id"] for v in vectors if v["id"] not in large]
    # a resumed run writes it again over itself
    assert plan.write_contract_view(tmp_path, idl, {"large_vectors": False, "fresh_vectors": False}) == (large, [])


def test_a_certification_sends_every_vector_and_vectors_drawn_for_it_which_the_next_one_draws_anew(tmp_path):
    idl = Path(__file__).resolve().parents[2] / "idl"
    vectors = json.loads((idl / "vectors.json").read_text())["vectors"]
    ops = {o["name"] for o in json.loads((idl / "contract.json").read_text())["operations"]}
    (tmp_path / "a").mkdir()
    left_out, drawn = plan.write_contract_view(tmp_path / "a", idl, {"large_vectors": True, "fresh_vectors": True})
    assert left_out == [] and drawn and all(v["id"].startswith("fresh_") for v in drawn)
    sent = json.loads((tmp_path / "a" / "idl" / "vectors.json").read_text())["vectors"]
    assert sent == vectors + drawn  # the contract's own, in order, then the drawn ones
    assert {v["op"] for v in drawn} <= ops
    assert {"isPrime", "average", "randomDoubles", "logTransform", "getRecord", "searchBooks", "getItems",
            "fail"} <= {v["op"] for v in drawn}, "every computed operation and the error get values of their own"
    (tmp_path / "b").mkdir()
    _, again = plan.write_contract_view(tmp_path / "b", idl, {"large_vectors": True, "fresh_vectors": True})
    assert [v["id"] for v in again] == [v["id"] for v in drawn]
    assert [v["args"] for v in again] != [v["args"] for v in drawn]


def test_plan_filters_by_profile_size_and_protocol():
    registry, contract = plan.load_registry(IDL), json.loads((IDL / "contract.json").read_text())
    spec, profile = plan.load_profile(IDL, "full")
    rows, unsupported = plan.workloads_for(spec, profile, "xmlrpc", registry, contract)
    assert "randomDoublesStream50k" not in [w["name"] for w in rows]
    assert unsupported["randomDoublesStream50k"] == registry["protocols"]["xmlrpc"]["lacks"]["server-streaming"]
    rows, unsupported = plan.workloads_for(spec, profile, "grpc", registry, contract)
    assert "randomDoublesStream50k" in [w["name"] for w in rows]
    assert unsupported == {"calculatorSession": registry["protocols"]["grpc"]["lacks"]["remote-references"]}
    rows, unsupported = plan.workloads_for(spec, profile, "rmi", registry, contract)
    assert "calculatorSession" in [w["name"] for w in rows] and "randomDoublesStream50k" in unsupported
    juric_spec, juric = plan.load_profile(IDL, "juric")
    rows, _ = plan.workloads_for(juric_spec, juric, "rawtcp", registry, contract)
    assert [r["calls"] for r in rows] == [1000] * 8 and rows[0]["repetitions"] == 12


def test_estimate_counts_the_jit_warm_up_a_new_process_is_expected_to_need(tmp_path):
    plan.write_plans(tmp_path, IDL, resolved(IDL, "default", seed=7), ["rawtcp"])
    cell = {"protocol": "rawtcp"}
    plain = progress.estimate_seconds(tmp_path, cell)
    jit = progress.estimate_seconds(tmp_path, cell | {"server_jit_threads": "^C2", "server_warmup_max_s": 180})
    assert jit >= 90 > plain > 0  # half its bound
    # a bound without a JIT to wait for counts nothing
    assert progress.estimate_seconds(tmp_path, cell | {"server_warmup_max_s": 180}) == plain
    assert progress.estimate_seconds(tmp_path, cell | {"unsupported": "no library"}) == 0
    # kept processes warm their JIT once per pass: the second cell of the same pair expects none
    pair = cell | {"server": "java", "client": "java", "server_jit_threads": "^C2", "client_jit_threads": "^C2",
                   "server_warmup_max_s": 180, "client_warmup_max_s": 180}
    other_client = pair | {"client": "python", "client_jit_threads": ""}
    kept = progress.estimate_run(tmp_path, [pair, pair, other_client], 2, kept=True)
    fresh = progress.estimate_run(tmp_path, [pair, pair, other_client], 2, kept=False)
    assert kept == 2 * (jit + 2 * plain) and fresh == 2 * (3 * jit)


def test_main_job_times_slow_calls_for_min_ms_not_for_a_call_count():
    """default's least calls per repetition are few, so a 10 ms call is timed for about min_ms per
    repetition, while the warm-up batches keep their size."""
    _, profile = plan.load_profile(IDL, "default")
    for size in ("small", "medium", "large"):
        counts = profile[size]
        assert counts["calls"] * 0.010 <= 2 * counts["min_ms"] / 1000, size
        assert counts["warmup"] >= counts["calls"], size


def test_shuffled_groups_cells_by_protocol_then_server_in_a_seeded_order():
    cells = [{"name": f"{p}/{c}→{s}", "protocol": p, "server": s, "client": c}
             for p in ("a", "b", "c") for s in ("x", "y", "z") for c in ("x", "y", "z")]
    first = steps.shuffled(cells, 5, 1)
    assert sorted(c["name"] for c in first) == sorted(c["name"] for c in cells)
    runs = [(c["protocol"], c["server"]) for c in first]
    # each protocol, and each server within it, is one contiguous run of cells
    assert len([k for i, k in enumerate(runs) if i == 0 or runs[i - 1] != k]) == 9
    protocols = [p for i, p in enumerate(c["protocol"] for c in first) if i == 0 or first[i - 1]["protocol"] != p]
    assert len(protocols) == 3
    assert steps.shuffled(cells, 5, 1) == steps.shuffled(cells, 5, 1)
    orders = {tuple(c["name"] for c in steps.shuffled(cells, 5, n)) for n in range(1, 6)}
    assert len(orders) > 1


def test_warm_phases_take_consecutive_protocols_until_their_processes_would_pass_the_bound():
    def cell(p, s, c, **more):
        return {"name": f"{p}/{c}→{s}", "protocol": p, "server": s, "client": c, **more}
    # a: 2 servers + 2 clients; b: 1 + 1 (one cell unsupported: its sides count for nothing); c: 3 + 3
    lines = ([cell("a", s, c) for s in "xy" for c in "xy"]
             + [cell("b", "x", "x"), cell("b", "x", "z", unsupported="no")]
             + [cell("c", s, c) for s in "xyz" for c in "xyz"])
    assert steps.warm_chunks(lines, 6) == [0] * 4 + [0] * 2 + [1] * 9
    assert steps.warm_chunks(lines, 5) == [0] * 4 + [1] * 2 + [2] * 9  # a protocol alone may pass the bound
    assert steps.warm_chunks(lines, 100) == [0] * 15
    assert steps.warm_chunks(lines[4:6], 1) == [0, 0]


def test_a_covering_profile_crosses_each_language_pair_once_and_every_implementation():
    def cell(client, server, **extra):
        lang = {"java": "java", "java-pool": "java", "java-lite": "java", "python": "python", "dotnet": "dotnet"}
        return {"name": f"p/{client}→{server}", "protocol": "p", "client": client, "server": server,
                "client_language": lang[client], "server_language": lang[server], **extra}
    clients, servers = ("java", "java-pool", "java-lite", "python", "dotnet"), ("java", "python", "dotnet")
    cells = [cell(c, s) for c in clients for s in servers]
    cells.append(cell("dotnet", "java-pool", unsupported="no such server"))
    cells[-1]["server_language"] = "java"
    chosen = cells_mod.cover_language_pairs(cells)
    runnable = [c for c in chosen if not c.get("unsupported")]
    pairs = [(c["client_language"], c["server_language"]) for c in runnable]
    assert len(pairs) == len(set(pairs)) == 9  # every pair of the three languages, once
    assert {c["client"] for c in runnable} == set(clients) and {c["server"] for c in runnable} == set(servers)
    assert any(c.get("unsupported") for c in chosen)  # a cell that cannot run keeps its row and reason
    assert cells_mod.cover_language_pairs(chosen) == chosen  # a cover of a cover is itself


def test_a_load_profile_drives_each_server_with_its_own_languages_clients():
    def cell(client, server, client_language, server_language, **extra):
        return {"name": f"p/{client}→{server}", "protocol": "p", "client": client, "server": server,
                "client_language": client_language, "server_language": server_language, **extra}
    cells = [cell("java", "java", "java", "java"), cell("java-pool", "java", "java", "java"),
             cell("python", "java", "python", "java"), cell("java", "python", "java", "python"),
             cell("node", "dotnet", "node", "dotnet", unsupported="no"),
             cell("python", cells_mod.ELSEWHERE, "python", cells_mod.ELSEWHERE)]
    chosen = [c["name"] for c in cells_mod.cover_same_language(cells)]
    # a server elsewhere takes every client; a cell that cannot run keeps its row and reason
    assert chosen == ["p/java→java", "p/java-pool→java", "p/node→dotnet", "p/python→elsewhere"]


def test_plan_unknown_profile_is_a_clear_error():
    with pytest.raises(plan.PlanError, match="unknown profile 'nope'; known: certify, smoke, default"):
        plan.load_profile(IDL, "nope")
