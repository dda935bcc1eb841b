"""The plan of cells (analysis/plan.py): the client × server cross product with its gap rules, the selection,
the opt-in protocols and the warm-up a process owes, tested as data."""
import json
from pathlib import Path

from analysis import manifests, plan

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
    cells = by_name(plan.expand_cells(ms, "", REGISTRY))
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
    cells = by_name(plan.expand_cells(ms, "", REGISTRY))
    assert cells["p/a→a"]["server_warmup_max_s"] == 120 and cells["q/a→a"]["server_warmup_max_s"] == 60
    assert cells["q/b→a"]["client_warmup_max_s"] == 45 and cells["p/b→a"]["client_warmup_max_s"] == 0


def test_unsupported_reasons_unregistered_protocols_and_missing_thread_models():
    ms = [manifest("a", {"protocols": ["p", "r"], "server": ["s"], "client": ["c"], "thread_model": TM}),
          manifest("b", {"protocol": "p", "client": ["c"], "server_unsupported": "no server",
                         "thread_model": {"client": "x"}},
                   {"protocol": "r", "unsupported": "no library"}),
          manifest("c", {"protocol": "p", "server": ["s"], "client": ["c"], "thread_model": {"server": "x"}})]
    cells = by_name(plan.expand_cells(ms, "", REGISTRY))
    assert cells["p/a→b"]["unsupported"] == "no server"
    assert cells["p/b→a"]["unsupported"] is None
    assert cells["r/a→b"]["unsupported"] == "no library"
    assert cells["r/a→a"]["error"] == "protocol 'r' is not in idl/protocols.json"
    assert cells["p/c→a"]["error"] == "the manifest of c gives no thread_model.client for p"
    # reasons of both sides are joined, sorted and unique
    assert cells["r/b→c"]["unsupported"] == "no library; not implemented in c"


def test_the_baseline_protocol_comes_first_then_registry_order():
    ms = [manifest("a", {"protocols": ["zz", "q", "p"], "server": ["s"], "client": ["c"], "thread_model": TM})]
    assert [c["protocol"] for c in plan.expand_cells(ms, "q", REGISTRY)] == ["q", "p", "zz"]


def test_selection_by_protocol_implementation_language_and_name():
    cells = plan.expand_cells(manifests.load(FIXTURES / "matrix"), "echo", plan.load_registry(FIXTURES / "idl"))
    chosen = plan.select_cells(cells, "echo", "beta", "alpha")
    assert [c["name"] for c in chosen] == ["echo/alpha→beta", "echo/alpha-fast→beta"]
    assert [c["name"] for c in plan.select_cells(cells, names="echo/beta→alpha,gap/alpha→alpha")] == \
        ["echo/beta→alpha", "gap/alpha→alpha"]
    assert plan.unknown_names(cells, "nosuch", "", "", "")[0].startswith("unknown protocol 'nosuch'; known: ")


def test_opt_in_protocols_are_left_out_unless_taken(tmp_path):
    args = (FIXTURES / "matrix", FIXTURES / "idl")
    messages = plan.write_cells(tmp_path / "a", *args, "smoke")
    chosen = [json.loads(line) for line in (tmp_path / "a" / "cells.jsonl").read_text().splitlines()]
    assert not [c for c in chosen if c["protocol"] == "echo-opt"]
    assert json.loads((tmp_path / "a" / "left-out.json").read_text())[0]["protocol"] == "echo-opt"
    assert any("left out of profile smoke" in m for m in messages)
    plan.write_cells(tmp_path / "b", *args, "opted")
    assert "echo-opt/" in (tmp_path / "b" / "cells.jsonl").read_text()
    plan.write_cells(tmp_path / "c", *args, "smoke", protocols="echo-opt")
    assert json.loads((tmp_path / "c" / "left-out.json").read_text()) == []


def test_opt_in_implementations_are_left_out_unless_the_profile_or_the_selection_takes_them():
    cells = [{"name": f"p/{c}→{s}", "protocol": "p", "server": s, "client": c, "server_opt_in": None,
              "client_opt_in": "a further transport" if c == "a-x" else None} for c in ("a", "a-x") for s in ("a",)]
    assert plan.implementations_left_out(cells, {}, "", "", "") == [
        {"protocol": "p", "implementation": "a-x", "reason": "a further transport"}]
    assert plan.implementations_left_out(cells, {"opt_in_implementations": True}, "", "", "") == []
    assert plan.implementations_left_out(cells, {"opt_in": True}, "", "", "") == []
    assert plan.implementations_left_out(cells, {}, "", "a-x", "") == []


def test_the_profile_s_warm_phase_and_jit_rule_take_defaults(tmp_path):
    idl = Path(__file__).resolve().parents[2] / "idl"
    plan.write_plans(tmp_path, idl, "default", [], 1, 1)
    profile = json.loads((tmp_path / "plan" / "profile.json").read_text())
    assert profile["warm_phase"] == plan.WARM_PHASE and profile["jit_quiet"] == plan.JIT_QUIET
    plan.write_plans(tmp_path, FIXTURES / "idl", "smoke", [], 1, 1)
    profile = json.loads((tmp_path / "plan" / "profile.json").read_text())
    assert profile["jit_quiet"] == {"share": 0.05, "window_s": 1}  # the profile's own, over the defaults


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
        return json.dumps({"protocol": protocol, "name": f"{protocol}/{n}", "unsupported": "no" if declined else None})
    lines = ([cell("gaps", i, declined=True) for i in range(6)] + [cell("small", i) for i in range(2)]
             + [cell("big", i) for i in range(5)] + [cell("mid", i) for i in range(3)]
             + [cell("even", i) for i in range(2)])
    places = plan.lane_queue(lines)
    of = {json.loads(line)["protocol"]: set() for line in lines}
    for line, place in zip(lines, places, strict=True):
        of[json.loads(line)["protocol"]].add(place)
    assert all(len(s) == 1 for s in of.values()), "a protocol's cells are one group"
    # weights (cells that run + 1): big 6, mid 4, small 3, even 3 (after small: the pass's order), gaps 1
    assert [of[p].pop() for p in ("big", "mid", "small", "even", "gaps")] == [0, 1, 2, 3, 4]


def test_a_profile_without_large_vectors_gives_its_processes_a_view_of_the_contract_without_them(tmp_path):
    idl = Path(__file__).resolve().parents[2] / "idl"
    vectors = json.loads((idl / "vectors.json").read_text())["vectors"]
    large = [v["id"] for v in vectors if v.get("size") == "large"]
    assert plan.write_contract_view(tmp_path, idl, {"name": "certify"}) == []
    assert not (tmp_path / "idl").exists()  # the processes read idl/ itself
    assert plan.write_contract_view(tmp_path, idl, {"large_vectors": False}) == large
    view = tmp_path / "idl"
    assert sorted(p.name for p in view.iterdir()) == sorted(p.name for p in idl.iterdir())
    assert (view / "bench.proto").resolve() == (idl / "bench.proto").resolve()
    kept = json.loads((view / "vectors.json").read_text())["vectors"]
    assert [v["id"] for v in kept] == [v["id"] for v in vectors if v["id"] not in large]
    # a resumed run writes it again over itself
    assert plan.write_contract_view(tmp_path, idl, {"large_vectors": False}) == large
