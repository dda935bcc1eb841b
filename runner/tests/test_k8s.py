"""`runner/rpcmatrix k8s`: the manifests of a planned run, validated offline against the Kubernetes schemas (strict:
an unknown field is an error), from the cells `run` would take, without a cluster."""
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

import synthetic_run
from analysis import merge
from conductor import k8s, options

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, *args: str) -> tuple[list[dict], dict]:
    out = tmp_path / "manifests"
    k8s.write([*args, "--out", str(out), "--image-tag", "test"])
    docs = list(yaml.safe_load_all((out / "rpcmatrix.yaml").read_text()))
    return docs, json.loads((out / "plan.json").read_text())


def of(docs: list[dict], kind: str, role: str | None = None) -> list[dict]:
    return [d for d in docs if d["kind"] == kind
            and (role is None or d["metadata"].get("labels", {}).get("rpcmatrix/role") == role)]


def test_every_manifest_validates_against_the_stated_kubernetes_schemas_strictly(tmp_path):
    docs, _ = write(tmp_path, "--protocol", "grpc,corba-ior,rmi-tls", "--server-node", "node-a",
                    "--client-node", "pool=clients")
    assert {d["kind"] for d in docs} == {"Namespace", "PersistentVolumeClaim", "Service", "Job"}
    for doc in docs:
        kubernetes_validate.validate(doc, k8s.KUBERNETES_VERSION, strict=True)
    # strict: a field the schema does not know is an error, not ignored
    wrong = json.loads(json.dumps(of(docs, "Job")[0]))
    wrong["spec"]["template"]["spec"]["containers"][0]["readinessprobe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(wrong, k8s.KUBERNETES_VERSION, strict=True)


def test_a_server_job_and_a_service_per_server_implementation_and_a_client_job_per_client(tmp_path):
    docs, plan = write(tmp_path, "--protocol", "grpc,jsonrpc")
    runnable = [c for c in plan["cells"] if not (c.get("unsupported") or c.get("error"))]
    sides = {(c["protocol"], c["server"]) for c in runnable}
    assert len(of(docs, "Job", "server")) == len(of(docs, "Service")) == len(sides)
    assert {(j["metadata"]["labels"]["rpcmatrix/protocol"], j["metadata"]["labels"]["rpcmatrix/implementation"])
            for j in of(docs, "Job", "server")} == sides
    clients = of(docs, "Job", "client")
    assert sorted(j["metadata"]["labels"]["rpcmatrix/implementation"] for j in clients) == \
        sorted({c["client"] for c in runnable})
    # every planned cell is one client's, in exactly one of its rounds
    planned = sorted(c["name"] for c in runnable)
    assert sorted(n for j in clients for n in json.loads(j["metadata"]["annotations"]["rpcmatrix/cells"])) == planned
    assert sorted(f"{p}/{run.split('/')[1]}→{s}" for run, targets in plan["runs"].items()
                  for p, s in targets.items()) == planned


def test_each_round_of_a_client_pod_selects_exactly_its_cells_with_the_run_s_own_selection(tmp_path):
    docs, plan = write(tmp_path, "--protocol", "grpc,jsonrpc", "--profile", "smoke", "--passes", "2")
    for job in of(docs, "Job", "client"):
        script = job["spec"]["template"]["spec"]["containers"][0]["command"][2]
        runs = [line.removesuffix(" || status=1") for line in script.splitlines() if line.startswith("runner/")]
        assert len(runs) == sum(1 for run in plan["runs"] if run.split("/")[1] ==
                                job["metadata"]["labels"]["rpcmatrix/implementation"])
        for run in runs:
            argv = shlex.split(run)[2:]
            assert argv[:4] == ["--profile", "smoke", "--passes", "2"]
            argv[argv.index("--secrets") + 1] = str(tmp_path)  # the Secret's mount, here
            o, _ = options.parse(argv)
            chosen = [c["name"] for c in options.selection(o).chosen]
            folder = argv[argv.index("--out") + 1].removeprefix(k8s.RESULTS + "/")
            client = folder.split("/")[1]
            assert sorted(chosen) == sorted(f"{p}/{client}→elsewhere" for p in plan["runs"][folder])
            # the targets are the Services of the servers that round was planned against
            assert {o.server_at[p] for p in o.server_at} == {
                f"{k8s.name(p, s)}:{k8s.DEFAULT_PORT}" for p, s in plan["runs"][folder].items()}


def test_every_job_is_bounded_in_time(tmp_path):
    jobs = of(write(tmp_path, "--protocol", "rawtcp", "--deadline-hours", "2")[0], "Job")
    assert jobs and all(j["spec"]["activeDeadlineSeconds"] == 7200 for j in jobs)
    with pytest.raises(options.OptionError, match="--deadline-hours"):
        write(tmp_path, "--protocol", "rawtcp", "--deadline-hours", "0")


def test_servers_and_clients_are_pinned_to_the_stated_nodes(tmp_path):
    docs, _ = write(tmp_path, "--protocol", "rawtcp", "--server-node", "node-a", "--client-node", "pool=clients")
    for job in of(docs, "Job", "server"):
        assert job["spec"]["template"]["spec"]["nodeSelector"] == {"kubernetes.io/hostname": "node-a"}
    for job in of(docs, "Job", "client"):
        assert job["spec"]["template"]["spec"]["nodeSelector"] == {"pool": "clients"}
    unpinned, _ = write(tmp_path, "--protocol", "rawtcp")
    assert all("nodeSelector" not in j["spec"]["template"]["spec"] for j in of(unpinned, "Job"))


def test_a_server_binds_its_pod_s_address_on_the_fixed_port_and_is_ready_when_the_port_accepts(tmp_path):
    docs, _ = write(tmp_path, "--protocol", "rawtcp", "--port", "9100", "--cpu", "2", "--memory", "1Gi")
    job = of(docs, "Job", "server")[0]
    pod = job["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["command"][container["command"].index("--host") + 1] == "$(POD_IP)"
    assert container["command"][container["command"].index("--port") + 1] == "9100"
    assert container["readinessProbe"]["tcpSocket"] == {"port": 9100}
    assert container["resources"]["limits"] == container["resources"]["requests"] == {"cpu": "2", "memory": "1Gi"}
    notes = job["metadata"]["annotations"]
    assert notes["rpcmatrix/cpu"] == "2" and "--port" in json.loads(notes["rpcmatrix/options"])
    assert job["metadata"]["labels"]["rpcmatrix/profile"] == "default"
    client = of(docs, "Job", "client")[0]["spec"]["template"]["spec"]
    assert "rpcmatrix-rawtcp-" in client["initContainers"][0]["command"][2]


def test_the_results_claim_is_written_unless_an_existing_one_is_named(tmp_path):
    docs, _ = write(tmp_path, "--protocol", "rawtcp")
    assert of(docs, "PersistentVolumeClaim")[0]["spec"]["accessModes"] == ["ReadWriteMany"]
    docs, _ = write(tmp_path, "--protocol", "rawtcp", "--results-claim", "shared")
    assert not of(docs, "PersistentVolumeClaim")
    volumes = of(docs, "Job")[0]["spec"]["template"]["spec"]["volumes"]
    assert {"name": "results", "persistentVolumeClaim": {"claimName": "shared"}} in volumes


def test_the_manifests_are_the_same_for_the_same_options(tmp_path):
    args = ("--protocol", "grpc,corba-ior", "--client-node", "node-b")
    k8s.write([*args, "--out", str(tmp_path / "a"), "--image-tag", "t"])
    k8s.write([*args, "--out", str(tmp_path / "b"), "--image-tag", "t"])
    a, b = ((tmp_path / d / "rpcmatrix.yaml").read_text() for d in ("a", "b"))
    assert a.replace(str(tmp_path / "a"), "OUT") == b.replace(str(tmp_path / "b"), "OUT")


def test_an_unknown_protocol_or_implementation_is_the_error_run_gives(tmp_path, capsys):
    for selection in (["--protocol", "nosuch"], ["--server", "cobol"]):
        with pytest.raises(options.OptionError) as given:
            options.begin(selection, "cells")
        ran = capsys.readouterr().err
        with pytest.raises(options.OptionError) as k8s_error:
            k8s.write([*selection, "--out", str(tmp_path / "m")])
        assert str(k8s_error.value) == str(given.value) and capsys.readouterr().err == ran
    assert not (tmp_path / "m").exists()


def test_a_bad_option_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    for argv, message in ((["--protocol", "rawtcp"], "needs --out"),
                          (["--out", str(blocker / "sub")], "cannot make the folder"),
                          (["--out", str(tmp_path), "--server-at", "grpc=h:1"], "does not take --server-at"),
                          (["--out", str(tmp_path), "--server-node", "a=b=c"], "--server-node takes"),
                          (["--out", str(tmp_path), "--cpu", "lots"], "--cpu takes"),
                          (["--out", str(tmp_path), "--namespace", "Bad_NS"], "--namespace takes")):
        with pytest.raises(options.OptionError, match=message):
            k8s.write([*argv, "--image-tag", "t"])


def test_long_names_stay_kubernetes_names():
    long = k8s.name("wss-sign-encrypt", "an-implementation-with-a-rather-long-name-indeed")
    assert len(long) <= 63 and long[0].isalpha() and long == k8s.name("wss-sign-encrypt",
                                                                      "an-implementation-with-a-rather-long-name-indeed")


def test_the_command_prints_its_help_and_writes_the_manifests(tmp_path):
    helped = subprocess.run([ROOT / "runner/rpcmatrix", "k8s", "--help"], capture_output=True, text=True, check=True)
    assert "--server-node" in helped.stdout
    done = subprocess.run([ROOT / "runner/rpcmatrix", "k8s", "--protocol", "rawtcp", "--out", tmp_path],
                          capture_output=True, text=True, check=True)
    assert "server Jobs and Services" in done.stderr and (tmp_path / "rpcmatrix.yaml").exists()


def collected_runs(tmp_path: Path) -> tuple[Path, Path, list[dict]]:
    """A synthetic run split as a cluster runs it: each client's rounds against servers elsewhere (k8s.rounds),
    each round a run folder of its own whose records name the server `elsewhere`; and the manifests' plan.json."""
    run, recs, cells = synthetic_run.build(tmp_path, protocols=2, workloads=("ping",))
    collected, runs = tmp_path / "collected", {}
    for client, rounds in k8s.rounds(cells).items():
        for r, round_ in enumerate(rounds, 1):
            folder = collected / "runs" / client / f"round-{r}"
            (folder / "plan").mkdir(parents=True)
            shutil.copy(run / "env.json", folder / "env.json")
            for workloads in (run / "plan").glob("*.tsv"):  # each round's plan of its protocols' workloads
                shutil.copy(workloads, folder / "plan" / workloads.name)
            (folder / "plan" / "run.json").write_text(json.dumps({"idl": str(ROOT / "idl"), "server_at": {
                p: f"{k8s.name(p, c['server'])}:7000" for p, c in round_.items()}}))
            names = {c["name"] for c in round_.values()}
            mine = [rec | {"cell": f"{rec['protocol']}/{client}→elsewhere", "server": "elsewhere"}
                    for rec in recs if rec["cell"] in names]
            (folder / "results.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in mine))
            runs[f"runs/{client}/round-{r}"] = {p: c["server"] for p, c in round_.items()}
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"commit": "c", "profile": "default", "options": [], "kubernetes_version": "1.33.0",
                                "cpu": "1", "memory": "2Gi", "server_node": {}, "client_node": {}, "runs": runs,
                                "cells": cells}, ensure_ascii=False))
    return plan, collected, [r for r in recs if r["protocol"] != "floor"]


def test_the_collected_runs_merge_into_one_run_the_report_folds_under_the_servers_own_names(tmp_path):
    plan, collected, recs = collected_runs(tmp_path)
    # a cell that cannot run is planned too: the merged run records it with its reason, as a local run does
    planned = json.loads(plan.read_text())
    gap = planned["cells"][0] | {"name": "rawtcp/nobody→python", "client": "nobody", "client_language": "nobody",
                                 "unsupported": "nobody speaks it"}
    plan.write_text(json.dumps(planned | {"cells": [*planned["cells"], gap]}, ensure_ascii=False))
    into = tmp_path / "merged"
    assert merge.merge(plan, collected, into) == len(recs) + 2  # its vectors and its one workload
    merged = [json.loads(x) for x in (into / "results.jsonl").read_text().splitlines()]
    assert {(r["workload"], r["status"], r["reason"]) for r in merged if r["cell"] == gap["name"]} == {
        ("vectors", "unsupported", "nobody speaks it"), ("ping", "unsupported", "nobody speaks it")}
    merged = [r for r in merged if r["cell"] != gap["name"]]
    key = ("cell", "workload", "pass", "server")
    assert sorted(tuple(r[k] for k in key) for r in merged) == sorted(tuple(r[k] for k in key) for r in recs)
    assert json.loads((into / "env.json").read_text())["k8s"]["cpu"] == "1"
    # the suite's own servers served the merged run: it certifies no server elsewhere
    assert json.loads((into / "plan" / "run.json").read_text())["server_at"] == {}
    done = subprocess.run([sys.executable, "-m", "analysis", "render", "--run", str(into), "--no-html"],
                          cwd=ROOT / "runner", capture_output=True, text=True, env={**os.environ,
                                                                                   "RPCMATRIX_HISTORY": "off"})
    assert done.returncode == 0, done.stderr
    report = (into / "report" / "rawtcp.md").read_text()
    assert "| java→python |" in report and "elsewhere" not in report and "nobody speaks it" in report
    with pytest.raises(merge.MergeError, match="not empty"):
        merge.merge(plan, collected, into)
