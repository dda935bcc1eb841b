"""A run's environment and plan, once the shell has built the languages and set up the namespaces and cgroups
(plan/setup.tsv): env.json, the workloads each protocol times, the contract as the processes see it, and the
steps (steps.py); a resumed run is trimmed of what it left half done and gets its steps again without the
finished ones."""
import json
import socket
from pathlib import Path

from analysis import records

from . import cells as cells_mod
from . import environment, load, network, plan, progress, proxy, resume, steps
from . import options as options_mod

ROOT = Path(__file__).resolve().parents[2]


class PrepareError(Exception):
    pass


def failed_builds(run: Path) -> dict[str, str]:
    """The languages whose build failed, with the build's last lines."""
    out = {}
    for marker in (run / "build").glob("*.failed"):
        log = marker.with_suffix(".log")
        last = log.read_text(errors="replace").splitlines()[-3:] if log.exists() else []
        out[marker.stem] = " ".join(last) + " "
    return out


def write_env(run: Path, options: dict, cells: list[dict], setup: dict) -> None:
    profile, idl = options["profile"], Path(options["idl"])
    protocols = list(dict.fromkeys(c["protocol"] for c in cells))
    outside = tuple(Path(p) for p in options.get("outside_manifests", []))
    if options.get("server_at"):  # the run's options switched the namespaces off: say why in the user's words
        setup["network"]["reason"] = ("--server-at: the clients dial a server elsewhere from this host's network, "
                                      "so bytes on the wire are not counted")
    there = options.get("remote")
    if there:
        setup["network"]["reason"] = (f"--server-host: the clients dial the servers on {there['user']}@"
                                      f"{there['host']} ({there['address']}) from this host's network")
    scenario = network.of_run(run)
    if scenario:  # what the self-test measured, and how the scenario was applied (network.py)
        setup["network"]["scenario"] = json.loads((run / network.PLAN).read_text()) | {
            "shaper": environment.read_setup(run).get("network_shaper"),
            "delay_line_cpu": "the delay line's, counted neither to the client's nor to the server's CPU (it runs in "
                              "the runner's own cgroup, unpinned)"}
    env = environment.write_env(run, Path(options["manifests"]), profile, setup, outside)
    env["run"]["hosts"] = hosts(options)
    if there:  # the other host's machine, kernel, network settings and versions, as its checkout reported them
        env["server_host"] = there["environment"] | {"checkout": there["checkout"], "address": there["address"]}
    workloads = json.loads((idl / "workloads.json").read_text())
    env["run"]["baseline"] = workloads.get("baseline")
    env["run"]["headline_workloads"] = [w["name"] for w in workloads["workloads"] if w.get("headline")]
    vectors = json.loads((idl / "vectors.json").read_text())["vectors"]
    # the report's table of negative tests: which vectors are attacks, and on what
    env["run"]["attack_vectors"] = {v["id"]: v["attack"] for v in vectors if "attack" in v}
    # the vectors drawn for this run (a certification's): the certificate records their values
    env["run"]["vectors_left_out"], env["run"]["fresh_vectors"] = plan.write_contract_view(run, idl, profile)
    env["run"]["contract_sha256"] = plan.contract_digest(idl)
    registry = json.loads((idl / "protocols.json").read_text())["protocols"]
    env["run"]["registry"] = {name: {"family": p["family"], "variant": p.get("variant", {})}
                              for name, p in registry.items() if name in protocols}
    # opt-in protocols the profile did not take: the report names them with the registry's reason
    env["run"]["left_out"] = options["left_out"]
    env["run"]["variant"] = options.get("variant") or {}  # --connection, --proxy (conductor/variant.py)
    if options["server_spin"]:  # a calibration run (--inject-server-spin): its servers were made slower on purpose
        env["run"]["injected_server_spin_us"] = options["server_spin"]
    (run / "env.json").write_text(json.dumps(env, indent=1, ensure_ascii=False))


def hosts(options: dict) -> dict:
    """The hosts the clients and the servers ran on (each record names both)."""
    here = socket.gethostname()
    there = options.get("remote")
    return {"client": here, "server": f"{there['user']}@{there['host']}" if there else here}


def prepare(run: Path) -> None:
    options = json.loads((run / "plan" / "run.json").read_text())
    cells = steps.read_cells(run)
    profile = options["profile"]
    setup = environment.read_setup(run)
    if options["resumed"]:
        try:
            progress.say("rpcmatrix: " + resume.resume(run, ROOT))
        except resume.ResumeError as e:
            raise PrepareError(f"could not resume {run}: {e}") from e
    else:
        plan.write_plans(run, Path(options["idl"]), profile, list(dict.fromkeys(c["protocol"] for c in cells)))
        write_env(run, options, cells, environment.setup_of(setup, profile["lanes"], options["keep_processes"]))
    if (options.get("variant") or {}).get("proxy"):  # the shell starts it once the steps are written
        try:
            proxy.write(run, setup.get("client_ip", ""))
        except proxy.ProxyError as e:
            raise PrepareError(str(e)) from e
    ctx = context(run, options, setup)
    steps.write(ctx)
    planned = progress.estimate_run(run, cells, profile["passes"], options["keep_processes"])
    planned -= progress.finished_work(run, cells)
    (run / "plan" / progress.PLANNED).write_text(f"{max(planned, 0)}\n")


def context(run: Path, options: dict, setup: dict) -> steps.Context:
    """What the steps are made from (steps.Context), from the run's plan."""
    all_cells = [json.loads(x) for x in (run / "plan" / "all.jsonl").read_text().splitlines() if x.strip()]
    return steps.Context(
        run=run, profile=options["profile"], cells=steps.read_cells(run), all_cells=all_cells,
        baseline=options["baseline"], fixed_port=options["fixed_port"],
        host=setup.get("server_ip") or (options.get("remote") or {}).get("address") or "127.0.0.1",
        keep_processes=options["keep_processes"],
        idl=run / "idl" if (run / "idl").is_dir() else Path(options["idl"]),
        secrets=Path(options["secrets_dir"] or ROOT / "secrets"), root=ROOT,
        server_spin=options["server_spin"], finished=progress.finished(run), failed_builds=failed_builds(run),
        retries=options.get("retries", 0),
        remote_root=Path(options["remote"]["checkout"]) if options.get("remote") else None,
        proxy=f"{setup.get('client_ip')}:{proxy.PORT}" if (options.get("variant") or {}).get("proxy") else "")


def retry(run: Path, attempt: int) -> Path:
    """plan/retry-<attempt>.tsv: the steps that run again, as pass attempt + 1 with new processes, each cell whose
    vectors failed in pass `attempt` (--retries; the certificate calls a check that then passes flaky). Empty
    when none failed."""
    options = json.loads((run / "plan" / "run.json").read_text())
    ctx = context(run, options, environment.read_setup(run))
    failed = {r["cell"] for r in records.stored(run) if r.get("pass", 1) == attempt and r["workload"] == "vectors"
              and r["status"] in ("fail", "error", "timeout")}
    again = [c for c in ctx.cells if c["name"] in failed]
    writer = steps.PassWriter(ctx, attempt + 1, len(again))
    for index, cell in enumerate(again, 1):
        writer.cell(index, cell)
    path = run / "plan" / f"retry-{attempt}.tsv"
    path.write_text("".join(writer.end()) if again else "")
    if again:
        progress.say(f"rpcmatrix: retry {attempt}: {len(again)} cells whose vectors failed run again")
    return path


def rival(run: Path, after: int) -> Path:
    """plan/rival-<after>.tsv: after a load profile's pass, each server driven again by its protocol's fastest client
    where that is another language's (cells.rival_cells, chosen from the pass's points), as cells of the same pass,
    their processes warmed together first as the pass's were. The cells join cells.jsonl marked `rival`; a resumed
    run keeps those chosen before. Empty when every server met its protocol's fastest client."""
    options = json.loads((run / "plan" / "run.json").read_text())
    ctx = context(run, options, environment.read_setup(run))
    chosen = [c for c in ctx.cells if c.get("rival") == after]
    if not chosen:
        fastest = load.fastest_clients([r for r in records.stored(run) if r.get("pass", 1) == after])
        chosen = cells_mod.rival_cells(ctx.cells, ctx.all_cells, fastest, after)
        options_mod.write_cells(run, chosen, more=True)
        ctx.cells += chosen
    writer = steps.PassWriter(ctx, after, len(chosen))
    if ctx.keep_processes and chosen:
        phase_file = steps.warm_phase_file(ctx, after, "rival", chosen)
        if phase_file is not None:
            writer.out.append(steps.line("warm", after, phase_file))
    for index, cell in enumerate(chosen, 1):
        writer.cell(index, cell)
    path = run / "plan" / f"rival-{after}.tsv"
    path.write_text("".join(writer.end()) if chosen else "")
    if chosen:
        progress.say(f"rpcmatrix: pass {after}: {len(chosen)} server(s) driven again by their protocol's fastest "
                     "client (" + ", ".join(sorted({f"{c['protocol']}/{c['client']}" for c in chosen})) + ")")
    return path
