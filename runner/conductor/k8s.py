"""Kubernetes manifests for a planned run (`runner/rpcmatrix k8s RUN-OPTIONS --out DIR`): the cells are chosen
exactly as `run` chooses them (options.py, cells.py); each server implementation of each protocol becomes a Job
running its manifest's server command on a fixed port, with a Service in front of it; each client implementation a
Job that runs the suite's own runner in its pod against those Services (`run --server-at PROTOCOL=SERVICE:PORT`,
the path of a server elsewhere), one run per round of servers, each run folder written to the results volume.
DIR/rpcmatrix.yaml holds the resources in the order they apply; DIR/plan.json what the merge of the collected runs
needs (analysis/merge.py): the planned cells and which server each round's target was.

    python -m conductor k8s RUN-OPTIONS --out DIR [--image-prefix P] [--image-tag T] [--server-node N]
                            [--client-node N] [--namespace NS] [--results-claim NAME] [--cpu C] [--memory M]"""
import argparse
import hashlib
import json
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import yaml

from . import cells as cells_mod
from . import environment, options, plan, steps

# The API the manifests are written for and validated against (runner/tests/test_k8s.py, strict schemas).
KUBERNETES_VERSION = "1.33.0"
ROOT_IN_IMAGE = "/opt/rpcmatrix"  # the repository in the images (deploy/Dockerfile)
RESULTS = "/results"               # the results volume in every pod
SECRETS = "/secrets"               # the Secret made from secrets/ (runner/README.md#kubernetes)
SECRET_NAME = "rpcmatrix-secrets"
DEFAULT_CLAIM = "rpcmatrix-results"
DEFAULT_PORT = 7000                # every server listens on it in a pod of its own (run's --port overrides it)
FINISHED = "finished"              # a client Job's mark on the volume: the next client Job waits for it
LABEL = "rpcmatrix"                # the labels' and annotations' prefix

K8S_USAGE = """usage: runner/rpcmatrix k8s [run options] --out DIR [k8s options]
  writes DIR/rpcmatrix.yaml (kubectl apply -f) and DIR/plan.json (the merge's) for the cells `run` would take

k8s options:
  --out DIR             where the manifests go (required)
  --image-prefix P      images are P-LANGUAGE:TAG, built from deploy/Dockerfile (default: rpcmatrix)
  --image-tag T         (default: the commit checked out, 12 digits)
  --server-node N       the servers' node: a node name (kubernetes.io/hostname) or a label KEY=VALUE
  --client-node N       the clients' node, the same way (a node other than the servers' puts a network between)
  --namespace NS        (default: rpcmatrix)
  --results-claim NAME  an existing PersistentVolumeClaim for the results (default: one written, rpcmatrix-results,
                        ReadWriteMany: the servers leave CORBA references there for the clients)
  --storage-class NAME  the written claim's storage class (default: the cluster's)
  --cpu C, --memory M   each pod's requests and limits, equal (default: 1 and 2Gi): a side's CPU shapes its figures
  --deadline-hours H    every Job is stopped after H hours, waits included (default: 12): nothing runs on unbounded
  --port N              (a run option) the servers' port (default: 7000)

run options the pods take: --profile --protocol --server --client --cell --implementation --passes --seed
--command-timeout --retries --no-html --fresh-processes (runner/rpcmatrix --help); the pods use the image's own
manifests, contract and known failures.
"""
# run options that have no meaning, or no implementation yet, for a run on a cluster
REFUSED = {"--resume": "a run on a cluster is written anew; resume a collected run folder locally",
           "--server-at": "the servers of a run on a cluster are its own Jobs",
           "--manifest": "an implementation outside the repository is not in the images",
           "--inject-server-spin": "not implemented for a cluster run"}
# run options handed to each client pod's run as given
PASSED_ON = ("--profile", "--passes", "--seed", "--command-timeout", "--retries")
PASSED_ON_FLAGS = ("--no-html", "--fresh-processes")


@dataclass
class Settings:
    out: Path
    image_prefix: str
    image_tag: str
    server_node: dict
    client_node: dict
    namespace: str
    claim: str
    write_claim: bool
    storage_class: str
    cpu: str
    memory: str
    port: int
    deadline_s: int


def node_selector(text: str, flag: str) -> dict:
    """A node name, or a label KEY=VALUE."""
    if not text:
        return {}
    key, sep, value = text.partition("=")
    if not sep:
        key, value = "kubernetes.io/hostname", text
    if not (re.fullmatch(r"([a-z0-9.-]+/)?[A-Za-z0-9][-A-Za-z0-9_.]*", key)
            and re.fullmatch(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?", value) and len(value) <= 63):
        raise options.OptionError(f"{flag} takes a node name or a label KEY=VALUE, not '{text}'")
    return {key: value}


def _dns_name(text: str, flag: str) -> str:
    if not re.fullmatch(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?", text):
        raise options.OptionError(f"{flag} takes a Kubernetes name (lower-case letters, digits and '-'), not '{text}'")
    return text


def _out(text: str) -> Path:
    out = Path(text)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise options.OptionError(f"--out {text}: cannot make the folder: {e.strerror}") from None
    if not out.is_dir() or not os.access(out, os.W_OK | os.X_OK):
        raise options.OptionError(f"--out {text}: the folder is not writable")
    return out.resolve()


def image_tag(given: str) -> str:
    if given:
        return given
    commit = environment.code_state(options.ROOT)["git_commit"]
    if commit == "unknown":
        raise options.OptionError("no commit to tag the images with (not a git checkout): give --image-tag")
    return commit[:12]


def parse(argv: list[str]) -> tuple[Settings, argparse.Namespace, list[str]]:
    """The k8s options, the run options (checked as `run` checks them) and those the client pods' runs take."""
    for flag, why in REFUSED.items():
        if any(a == flag or a.startswith(flag + "=") for a in argv):
            raise options.OptionError(f"k8s does not take {flag}: {why}")
    p = options.Parser(prog="runner/rpcmatrix k8s", add_help=False, allow_abbrev=False)
    for flag, default in (("--out", ""), ("--image-prefix", "rpcmatrix"), ("--image-tag", ""), ("--server-node", ""),
                          ("--client-node", ""), ("--namespace", "rpcmatrix"), ("--results-claim", ""),
                          ("--storage-class", ""), ("--cpu", "1"), ("--memory", "2Gi"), ("--deadline-hours", "12")):
        p.add_argument(flag, default=default)
    k, rest = p.parse_known_args(argv)
    if not k.out:
        raise options.OptionError("k8s needs --out DIR: where the manifests go")
    o, _ = options.parse(rest)
    if o.positional:
        raise options.OptionError(f"k8s takes options only, not '{o.positional[0]}'")
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?m?", k.cpu) or not re.fullmatch(r"[0-9]+(Ki|Mi|Gi|Ti)?", k.memory):
        raise options.OptionError("--cpu takes a CPU quantity (1, 1.5, 500m), --memory a memory quantity (2Gi)")
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", k.deadline_hours) or float(k.deadline_hours) <= 0:
        raise options.OptionError(f"--deadline-hours takes a positive number of hours, not '{k.deadline_hours}'")
    if not re.fullmatch(r"[a-z0-9][a-z0-9._/-]*(:[0-9]+)?[a-z0-9._/-]*", k.image_prefix):
        raise options.OptionError(f"--image-prefix takes an image name such as registry.example/rpcmatrix, "
                                  f"not '{k.image_prefix}'")
    settings = Settings(
        out=Path(k.out), image_prefix=k.image_prefix, image_tag=image_tag(k.image_tag),
        server_node=node_selector(k.server_node, "--server-node"),
        client_node=node_selector(k.client_node, "--client-node"),
        namespace=_dns_name(k.namespace, "--namespace"),
        claim=_dns_name(k.results_claim or DEFAULT_CLAIM, "--results-claim"), write_claim=not k.results_claim,
        storage_class=k.storage_class, cpu=k.cpu, memory=k.memory, port=o.fixed_port or DEFAULT_PORT,
        deadline_s=int(float(k.deadline_hours) * 3600))
    given = {a.split("=", 1)[0] for a in rest}
    passed = ["--profile", o.profile]
    for flag in PASSED_ON[1:]:
        if flag in given:
            passed += [flag, str(getattr(o, flag[2:].replace("-", "_")))]
    passed += [flag for flag in PASSED_ON_FLAGS if flag in given]
    return settings, o, passed


class _Dumper(yaml.SafeDumper):
    """YAML without anchors: each resource reads whole."""
    def ignore_aliases(self, data):
        return True


def _text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # a script reads as written: a literal block, one command a line
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None)


_Dumper.add_representer(str, _text)


def name(*parts: str) -> str:
    """A Kubernetes name (a DNS label, 63 characters at most) from the parts; shortened with a digest if long."""
    text = re.sub(r"[^a-z0-9-]+", "-", "-".join(("rpcmatrix", *parts)).lower()).strip("-")
    if len(text) > 63:
        text = text[:54].rstrip("-") + "-" + hashlib.sha256(text.encode()).hexdigest()[:8]
    return text


def rounds(chosen: list[dict]) -> dict[str, list[dict[str, dict]]]:
    """Per client implementation, its rounds: round r takes, for each protocol the client calls, that protocol's
    r-th server (a run has one server elsewhere per protocol: `--server-at` names each protocol once)."""
    out: dict[str, list[dict[str, dict]]] = {}
    for c in chosen:
        if not cells_mod.can_run(c):
            continue
        mine = out.setdefault(c["client"], [])
        r = sum(1 for round_ in mine if c["protocol"] in round_)
        if r == len(mine):
            mine.append({})
        mine[r][c["protocol"]] = c
    return out


def servers(chosen: list[dict]) -> list[dict]:
    """One cell per server implementation of each protocol that runs: what its Job starts."""
    seen: dict[tuple[str, str], dict] = {}
    for c in chosen:
        if cells_mod.can_run(c):
            seen.setdefault((c["protocol"], c["server"]), c)
    return list(seen.values())


def references(cell: dict) -> str:
    """The server's {cell} on the results volume: a CORBA server leaves its references there for the clients."""
    return f"{RESULTS}/references/{cell['protocol']}-{cell['server']}"


def target(cell: dict, registry: dict, port: int) -> str:
    """What a client pod's run gives --server-at for the cell's server: its Service, or, for a protocol reached by
    object reference, the folder of references its server wrote (they name the server pod's address)."""
    if registry["protocols"][cell["protocol"]].get("variant", {}).get("reference") == "ior-file":
        return references(cell)
    return f"{name(cell['protocol'], cell['server'])}:{port}"


def server_argv(cell: dict, port: int) -> list[str]:
    """The manifest's server command as in the image; the host is the pod's own address (the servers bind an
    address, not a name, and references such as IORs and RMI stubs carry it to the clients)."""
    values = {"protocol": cell["protocol"], "host": "$(POD_IP)", "port": str(port), "idl": f"{ROOT_IN_IMAGE}/idl",
              "secrets": SECRETS, "root": ROOT_IN_IMAGE, "cell": references(cell)}
    return steps.fill(cell["server_argv"], values)


def image(s: Settings, language: str) -> str:
    return f"{s.image_prefix}-{language}:{s.image_tag}"


def labels(s: Settings, role: str, commit: str, profile: str, **more: str) -> dict:
    out = {"app.kubernetes.io/name": "rpcmatrix", f"{LABEL}/role": role, f"{LABEL}/commit": commit[:63],
           f"{LABEL}/profile": profile}
    return out | {f"{LABEL}/{k}": v for k, v in more.items()}


def annotations(s: Settings, given: list[str]) -> dict:
    # the CPU a side gets shapes its figures: recorded with every Job
    return {f"{LABEL}/options": json.dumps(given, ensure_ascii=False), f"{LABEL}/cpu": s.cpu,
            f"{LABEL}/memory": s.memory, f"{LABEL}/kubernetes-version": KUBERNETES_VERSION}


def resources(s: Settings) -> dict:
    # requests equal to limits: the Guaranteed class, whose whole CPUs the static CPU manager gives a pod alone
    amount = {"cpu": s.cpu, "memory": s.memory}
    return {"requests": dict(amount), "limits": dict(amount)}


def volumes(s: Settings) -> tuple[list[dict], list[dict]]:
    return ([{"name": "results", "persistentVolumeClaim": {"claimName": s.claim}},
             {"name": "secrets", "secret": {"secretName": SECRET_NAME}}],
            [{"name": "results", "mountPath": RESULTS}, {"name": "secrets", "mountPath": SECRETS, "readOnly": True}])


def job(s: Settings, job_name: str, meta: dict, notes: dict, node: dict, pod: dict) -> dict:
    spec = {"restartPolicy": "Never", "terminationGracePeriodSeconds": 10, **pod}
    if node:
        spec["nodeSelector"] = dict(node)
    # a failed pod is not tried again: its run folder is there already, and a second try would refuse it
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": job_name, "namespace": s.namespace, "labels": meta, "annotations": notes},
            # bounded: a server Job would serve for ever, a client's wait for a Service or the Job before it too
            "spec": {"backoffLimit": 0, "activeDeadlineSeconds": s.deadline_s,
                     "template": {"metadata": {"labels": meta, "annotations": notes}, "spec": spec}}}


def server_job(s: Settings, cell: dict, commit: str, profile: str, given: list[str]) -> dict:
    job_name = name(cell["protocol"], cell["server"])
    meta = labels(s, "server", commit, profile, protocol=cell["protocol"], implementation=cell["server"])
    pod_volumes, mounts = volumes(s)
    # {cell} must exist before the server writes its references into it
    command = ["bash", "-c", 'mkdir -p "$0" && exec "$@"', references(cell), *server_argv(cell, s.port)]
    container = {
        "name": "server", "image": image(s, cell["server_language"]), "workingDir": ROOT_IN_IMAGE,
        "command": command,
        "env": [{"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}],
        "ports": [{"name": "rpc", "containerPort": s.port, "protocol": "TCP"}],
        # ready means accepting calls (PROTOCOL.md: the ready line comes once the port accepts): the port answers
        "readinessProbe": {"tcpSocket": {"port": s.port}, "periodSeconds": 2, "failureThreshold": 1},
        "resources": resources(s), "volumeMounts": mounts}
    return job(s, job_name, meta, annotations(s, given), s.server_node,
               {"containers": [container], "volumes": pod_volumes})


def service(s: Settings, cell: dict, commit: str, profile: str) -> dict:
    svc = name(cell["protocol"], cell["server"])
    meta = labels(s, "server", commit, profile, protocol=cell["protocol"], implementation=cell["server"])
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": svc, "namespace": s.namespace, "labels": meta},
            "spec": {"selector": {"job-name": svc},
                     "ports": [{"name": "rpc", "port": s.port, "targetPort": s.port, "protocol": "TCP"}]}}


def run_folder(client: str, r: int) -> str:
    return f"{RESULTS}/runs/{client}/round-{r}"


def round_argv(client: str, r: int, round_: dict[str, dict], registry: dict, port: int, passed: list[str]) -> list[str]:
    """One round's run in a client pod: the round's cells, each protocol's server elsewhere at its target."""
    argv = ["runner/rpcmatrix", "run", *passed, "--skip-build", "--no-pin", "--secrets", SECRETS,
            "--protocol", ",".join(round_), "--out", run_folder(client, r)]
    for protocol, cell in round_.items():
        argv += ["--cell", f"{protocol}/{client}→{cells_mod.ELSEWHERE}",
                 "--server-at", f"{protocol}={target(cell, registry, port)}"]
    return argv


def wait_script(targets: list[str], after: str | None) -> str:
    """An init container's wait: each Service accepting connections (only a ready server is behind one), and the
    client Job before this one done, so that a server serves one client at a time, as in a local run."""
    lines = ["set -u"]
    for t in targets:
        host, _, port = t.rpartition(":")
        lines.append(f"until (exec 3<>/dev/tcp/{host}/{port}) 2>/dev/null; do sleep 2; done; echo ready: {t}")
    if after:
        lines.append(f"until [ -e {shlex.quote(after)} ]; do sleep 5; done; echo done before: {after}")
    return "\n".join(lines)


def client_job(s: Settings, client: str, rounds_: list[dict[str, dict]], registry: dict, commit: str, profile: str,
               given: list[str], passed: list[str], after: str | None) -> dict:
    job_name = name("client", client)
    language = next(iter(rounds_[0].values()))["client_language"]
    meta = labels(s, "client", commit, profile, implementation=client)
    runs = [round_argv(client, r, round_, registry, s.port, passed) for r, round_ in enumerate(rounds_, 1)]
    finished = f"{RESULTS}/runs/{client}/{FINISHED}"
    # every round runs, whatever the one before it found; the Job fails if one did; the mark comes last
    script = "\n".join(["status=0", *(shlex.join(a) + " || status=1" for a in runs),
                        f"touch {shlex.quote(finished)}", "exit $status"])
    # every server's Service, a CORBA server's too: its references are written before it is ready
    services = sorted({f"{name(c['protocol'], c['server'])}:{s.port}" for round_ in rounds_ for c in round_.values()})
    pod_volumes, mounts = volumes(s)
    notes = annotations(s, given) | {f"{LABEL}/cells": json.dumps(
        [c["name"] for round_ in rounds_ for c in round_.values()], ensure_ascii=False)}
    wait = {"name": "wait", "image": image(s, language), "command": ["bash", "-c", wait_script(services, after)],
            "volumeMounts": mounts}
    container = {"name": "client", "image": image(s, language), "workingDir": ROOT_IN_IMAGE,
                 "command": ["bash", "-c", script],
                 # each run's history stays in its folder: many pods share the volume
                 "env": [{"name": "RPCMATRIX_HISTORY", "value": "off"}],
                 "resources": resources(s), "volumeMounts": mounts}
    return job(s, job_name, meta, notes, s.client_node,
               {"initContainers": [wait], "containers": [container], "volumes": pod_volumes})


def claim(s: Settings) -> dict:
    spec = {"accessModes": ["ReadWriteMany"], "resources": {"requests": {"storage": "5Gi"}}}
    if s.storage_class:
        spec["storageClassName"] = s.storage_class
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": s.claim, "namespace": s.namespace, "labels": {"app.kubernetes.io/name": "rpcmatrix"}},
            "spec": spec}


def resources_of(s: Settings, chosen: list[dict], registry: dict, commit: str, profile: str, given: list[str],
                 passed: list[str]) -> list[dict]:
    """Every resource, in the order they apply: the namespace, the claim, the Services, the servers, the clients."""
    docs: list[dict] = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": s.namespace}}]
    if s.write_claim:
        docs.append(claim(s))
    serving = servers(chosen)
    docs += [service(s, c, commit, profile) for c in serving]
    docs += [server_job(s, c, commit, profile, given) for c in serving]
    after = None
    for client, rounds_ in rounds(chosen).items():
        docs.append(client_job(s, client, rounds_, registry, commit, profile, given, passed, after))
        after = f"{RESULTS}/runs/{client}/{FINISHED}"
    return docs


def plan_of(s: Settings, chosen: list[dict], registry: dict, commit: str, profile: str, given: list[str]) -> dict:
    """What folding the collected runs needs: the planned cells, and per run folder which server each protocol's
    target was (analysis/merge.py)."""
    runs = {}
    for client, rounds_ in rounds(chosen).items():
        for r, round_ in enumerate(rounds_, 1):
            runs[f"runs/{client}/round-{r}"] = {p: c["server"] for p, c in round_.items()}
    return {"commit": commit, "profile": profile, "options": given, "kubernetes_version": KUBERNETES_VERSION,
            "cpu": s.cpu, "memory": s.memory, "server_node": s.server_node, "client_node": s.client_node,
            "runs": runs, "cells": chosen}


def write(argv: list[str]) -> Path:
    """The manifests of the planned run into --out; returns the manifests' file."""
    s, o, passed = parse(argv)
    chosen = options.selection(o)
    s.out = _out(str(s.out))
    registry = plan.load_registry(o.idl)
    commit = environment.code_state(options.ROOT)["git_commit"]
    docs = resources_of(s, chosen.chosen, registry, commit, o.profile, argv, passed)
    path = s.out / "rpcmatrix.yaml"
    path.write_text(yaml.dump_all(docs, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120))
    (s.out / "plan.json").write_text(
        json.dumps(plan_of(s, chosen.chosen, registry, commit, o.profile, argv), indent=1, ensure_ascii=False) + "\n")
    serving, clients = len(servers(chosen.chosen)), len(rounds(chosen.chosen))
    options.say(f"{path}: {serving} server Jobs and Services, {clients} client Jobs "
                f"({sum(1 for c in chosen.chosen if cells_mod.can_run(c))} cells that run; images "
                f"{s.image_prefix}-LANGUAGE:{s.image_tag})")
    return path
