"""The runner's command line (`runner/rpcmatrix run|cells|commands|build`), checked and resolved once, here: every
option's default, the profile, the cells it selects, the run folder, and for `run --resume DIR` the options the
run began with. A run's resolved options go to plan/run.json; the shell gets the few it executes with as
`name=value` lines (begin)."""
import argparse
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

from . import cells as cells_mod
from . import manifests, network, plan, proxy, remote, resume, steps, target, variant

ROOT = Path(__file__).resolve().parents[2]

USAGE = """usage: runner/rpcmatrix run [options]      run the matrix, write results/<run-id>/
       runner/rpcmatrix run --resume RUN   go on with an interrupted run, with the options it began
                                          with, from its first unfinished cell (same commit only)
       runner/rpcmatrix cells [options]    list the cells a run would have (a dry run)
       runner/rpcmatrix commands CELL      print the exact commands of one cell, to run it by hand
       runner/rpcmatrix build [options]    build each language the selected cells use (then run with
                                          --skip-build, e.g. several runs at once)
       runner/rpcmatrix agree RUN RUN...   how far runs of the same matrix agree; writes AGREEMENT.md
                                          into the last RUN (one RUN with several passes works too)
       runner/rpcmatrix publish RUN        copy a run of a committed, clean tree to results/published/
       runner/rpcmatrix battery [options]  attacks on every server, a survival matrix (battery --help)
       runner/rpcmatrix k8s [options] --out DIR
                                          the Kubernetes manifests that run the cells on a cluster (k8s --help)

options:
  --profile NAME        workload profile from idl/workloads.json (default: default)
  --protocol LIST       only these protocols (comma-separated)
  --server LIST         only these server implementations or languages (python-aio, python)
  --client LIST         only these client implementations or languages
  --cell NAME           only this cell, e.g. 'xmlrpc/java→python' (client→server); repeatable
  --passes N            passes over the cells, each in a new random order (default: the profile's)
  --seed N              the seed of those orders (default: the start time), to repeat a run's order
  --no-pin              do not pin server and client to CPUs of their own
  --no-html             no report.html (its charts take seconds to draw): REPORT.md, report/, the CSV,
                        JUnit and samples are written as ever
  --fresh-processes     a new server and client for every cell (default: kept across the cells of a
                        protocol in a pass, each warmed once)
  --out DIR             run folder (default: results/<run-id>)
  --no-netns            run on 127.0.0.1 without a network namespace (bytes on the wire not measured)
  --port N              start servers on this port instead of one the OS picks
  --ready-timeout S     seconds a server has to print its ready line (default: 60)
  --command-timeout S   seconds a client has per command (default: the profile's command_timeout_s)
  --known-failures FILE expected failures (default: runner/known-failures.json)
  --skip-build          do not run the languages' build commands
  --manifests DIR       where the languages' */manifest.json are (default: the repository root)
  --manifest PATH       a manifest from outside the repository (repeatable): its implementations join the
                        run, their commands run from the manifest's folder
  --implementation NAME only the cells NAME takes part in, in either role (certify: its certificate,
                        certificate.md, .html, .json and .junit.xml, and the run's exit status)
  --server-at PROTOCOL=TARGET
                        a server already running elsewhere (repeatable): every client of PROTOCOL calls it,
                        no server of the suite starts; TARGET is HOST:PORT, or for CORBA an IOR (IOR:...,
                        optionally ,IOR:... for the calculators), a file or folder of IORs, or corbaloc::HOST:PORT;
                        certify writes its certificate; runs without network namespaces (the clients dial it from
                        this host)
  --server-host USER@HOST[:PORT]
                        start every server (and the floor's) on that host over SSH, from a checkout there of
                        this commit; the clients stay here. The run refuses a host it cannot reach or a checkout
                        of another commit; each side's CPU and memory are read on its own host
  --server-key FILE     the SSH key for --server-host (default: secrets/ssh/id_ed25519, made at set-up)
  --server-checkout PATH
                        the suite's checkout on that host (default: this checkout's path)
  --build-remote        run runner/setup.sh and runner/rpcmatrix build in that checkout first
  --network NAME|SPEC   the network between client and server (default: loopback, nothing applied): a scenario
                        of runner/networks.json (lan, lan100, lan10, wan) or delay=15ms,rate=20mbit,loss=0.1%
                        (each key also per direction: c2s.delay=, s2c.rate=...); a self-test refuses it before
                        any cell when it misses what was asked; needs the network namespaces
  --secrets DIR         the key material the clients use (default: secrets/, made at set-up): ca.crt, client.crt,
                        client.key, client.p12, p12-password, username-token.json (runner/secrets.sh), and
                        server-name: the name verified on a TLS server's certificate (server.rpcmatrix.test)
  --connection kept|per-call
                        kept (the default): each client keeps its connection across calls; per-call: each timed
                        call on a new connection (connect, call, close), where the client's stack allows it (its
                        manifest says how, or why not: unsupported), proven by the server's accepted connections
  --proxy http          a real HTTP proxy (Debian's tinyproxy, started and stopped by the runner in the clients'
                        namespace) in the path of every client of a protocol carried over HTTP/1.1, each client
                        set to use it in its own stack's way; the other cells are unsupported, with the reason
  --retries N           run a cell whose vectors failed again, up to N times: a check that passes on a retry
                        is flaky, not failed (default: 0)
  --idl DIR             the contract folder (default: idl/)
  --inject-server-spin LANGUAGE=US[,...]
                        test-only: each server of LANGUAGE busy-waits US microseconds in every
                        contract call (a known slowdown, to calibrate compare; the report says so)
"""
# What the shell executes with (runner/lib/run.sh reads them); everything else stays in plan/run.json.
SHELL_SETTINGS = ("out", "leftover_tag", "no_netns", "pin", "pin_reason", "lanes", "ready_timeout",
                  "command_timeout", "write_html", "known_failures", "idl", "count_calls", "floor", "floor_after",
                  "remote_ssh", "remote_checkout", "remote_address", "network")


class OptionError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        match = re.search(r"unrecognized arguments: (\S+)", message)
        if match:
            raise OptionError(f"unknown option '{match[1]}' (see runner/rpcmatrix --help)")
        match = re.search(r"argument (--[a-z-]+): expected one argument", message)
        if match:
            raise OptionError(f"{match[1]} needs a value (see runner/rpcmatrix --help)")
        raise OptionError(message)


def parser() -> Parser:
    p = Parser(prog="runner/rpcmatrix", add_help=False, allow_abbrev=False)
    p.add_argument("positional", nargs="*")
    for flag, default in (("--profile", "default"), ("--protocol", ""), ("--server", ""), ("--client", ""),
                          ("--out", ""), ("--passes", ""), ("--seed", ""), ("--port", "0"), ("--ready-timeout", "60"),
                          ("--command-timeout", ""), ("--known-failures", str(ROOT / "runner/known-failures.json")),
                          ("--manifests", str(ROOT)), ("--idl", str(ROOT / "idl")), ("--inject-server-spin", ""),
                          ("--resume", "")):
        p.add_argument(flag, default=default)
    p.add_argument("--cell", action="append", default=[])
    p.add_argument("--manifest", action="append", default=[])
    p.add_argument("--implementation", default="")
    p.add_argument("--server-at", action="append", default=[])
    p.add_argument("--secrets", default="")
    p.add_argument("--server-host", default="")
    p.add_argument("--server-key", default=str(ROOT / "secrets/ssh/id_ed25519"))
    p.add_argument("--server-checkout", default=str(ROOT))
    p.add_argument("--network", default="loopback")
    p.add_argument("--retries", default="0")
    p.add_argument("--connection", default="kept")
    p.add_argument("--proxy", default="")
    for flag in ("--no-netns", "--no-pin", "--no-html", "--fresh-processes", "--skip-build", "--build-remote"):
        p.add_argument(flag, action="store_true")
    return p


def _whole(value: str, what: str, least: int = 0) -> int | None:
    if value == "":
        return None
    if not value.isdigit() or int(value) < least:
        raise OptionError(what)
    return int(value)


def resumed_args(args: list[str]) -> tuple[list[str], Path | None]:
    """The arguments to parse: as given, or for --resume DIR the run's saved options with --out DIR (and
    --skip-build when given again)."""
    if "--resume" not in args:
        return args, None
    rest, run = list(args), None
    while rest:
        arg = rest.pop(0)
        if arg == "--resume":
            if not rest:
                raise OptionError("--resume needs a run folder")
            run = rest.pop(0)
        elif arg != "--skip-build":
            raise OptionError(f"a resumed run keeps the options it began with ({run or '?'}/options.json); only "
                              f"--skip-build may be added, not '{arg}'")
    folder = Path(run)
    if not folder.is_dir():
        raise OptionError(f"no run folder {run} to resume")
    if not (folder / "options.json").exists():
        raise OptionError(f"{run} has no options.json: it is not a run folder, or it stopped before its first cell")
    saved = json.loads((folder / "options.json").read_text())
    if not (isinstance(saved, list) and all(isinstance(a, str) for a in saved)):
        raise OptionError(f"{folder.resolve()}/options.json is not a JSON list of options")
    return saved + ["--out", str(folder.resolve())] + (["--skip-build"] if "--skip-build" in args else []), \
        folder.resolve()


def parse(args: list[str]) -> tuple[argparse.Namespace, Path | None]:
    args, resumed = resumed_args(args)
    o = parser().parse_args(args)
    o.cell = ",".join(o.cell)
    o.fixed_port = _whole(o.port, f"--port takes a number, not '{o.port}'")
    o.ready_timeout = _whole(o.ready_timeout, "--ready-timeout takes whole seconds")
    o.command_timeout = _whole(o.command_timeout, "--command-timeout takes whole seconds")
    o.passes = _whole(o.passes, "--passes takes a whole number of 1 or more", 1)
    o.seed = _whole(o.seed, "--seed takes a whole number")
    if not re.fullmatch(r"([a-z0-9_-]+=[0-9]+(,[a-z0-9_-]+=[0-9]+)*)?", o.inject_server_spin):
        raise OptionError("--inject-server-spin takes LANGUAGE=MICROSECONDS[,...], e.g. java=20, not "
                          f"'{o.inject_server_spin}'")
    o.server_spin = {k: int(v) for k, v in (e.split("=") for e in o.inject_server_spin.split(",") if e)}
    idl = Path(o.idl)
    if not idl.is_dir():
        raise OptionError(f"no contract folder {o.idl}")
    o.idl = idl.resolve()
    if not (o.idl / "protocols.json").exists():
        raise OptionError(f"no protocol registry {o.idl}/protocols.json")
    if not Path(o.known_failures).exists():
        raise OptionError(f"no known-failures file {o.known_failures}")
    o.known_failures = str(Path(o.known_failures).resolve())
    o.manifests = Path(o.manifests).resolve()
    for path in o.manifest:
        if not Path(path).is_file():
            raise OptionError(f"no manifest {path}")
    o.manifest = tuple(Path(path).resolve() for path in o.manifest)
    o.retries = _whole(o.retries, "--retries takes a whole number")
    if o.secrets:
        if not Path(o.secrets).is_dir():
            raise OptionError(f"no secrets folder {o.secrets}")
        o.secrets = str(Path(o.secrets).resolve())
    o.server_at = servers_at(o.server_at, o.idl)
    if o.server_at:
        if o.implementation:
            raise OptionError("a certification is of one subject: --server-at or --implementation, not both")
        o.no_netns = True  # the clients dial the server from this host's network, not from a namespace of the run
    o.remote = server_host(o)
    try:
        o.network = network.resolve(o.network)
    except network.NetworkError as e:
        raise OptionError(f"--network: {e}") from e
    if network.shaped(o.network) and o.no_netns:
        raise OptionError(f"--network {o.network['name']} is applied between the run's network namespaces: not with "
                          + ("--server-at" if o.server_at else "--server-host" if o.remote else "--no-netns"))
    o.variant = variant_of(o)
    return o, resumed


def variant_of(o) -> dict:
    """--connection and --proxy, checked: the cells' variant (variant.py)."""
    if o.connection not in variant.CONNECTIONS:
        raise OptionError(f"--connection takes kept or per-call, not '{o.connection}'")
    if o.proxy not in variant.PROXIES:
        raise OptionError(f"--proxy takes http, not '{o.proxy}'")
    found = None
    if o.proxy:
        if o.no_netns:  # also what --server-at and --server-host imply
            raise OptionError("--proxy http runs the proxy in the clients' network namespace: not with --no-netns, "
                              "--server-at or --server-host")
        found = proxy.version()
        if found is None:
            raise OptionError(f"--proxy http needs {proxy.PROGRAM} (runner/setup.sh installs it)")
    return variant.of(o.connection, o.proxy, found or "")


def no_netns_reason(o) -> str:
    """Why the run makes no network namespaces (bytes on the wire are then not counted), empty when it makes them."""
    if o.no_netns:
        return "--no-netns"
    if os.geteuid() != 0:
        return "not root: network namespaces need root"
    if shutil.which("ip") is None:
        return "iproute2 ('ip') is not installed"
    return ""


def server_host(o) -> dict | None:
    """--server-host and its companions, checked as text (the host itself is checked by `begin run`)."""
    if not o.server_host:
        if o.build_remote:
            raise OptionError("--build-remote needs --server-host")
        return None
    if o.server_at:
        raise OptionError("--server-host starts the suite's servers there; --server-at calls one already running: "
                          "not both")
    try:
        user, host, port = remote.parse_host(o.server_host)
    except remote.RemoteError as e:
        raise OptionError(str(e)) from e
    if not Path(o.server_key).is_file():
        raise OptionError(f"--server-key: no key {o.server_key} (runner/setup.sh makes secrets/ssh/id_ed25519)")
    if not o.server_checkout.startswith("/"):
        raise OptionError(f"--server-checkout takes an absolute path, not '{o.server_checkout}'")
    o.no_netns = True  # the clients dial the other host from this host's network
    return {"user": user, "host": host, "port": port, "key": str(Path(o.server_key).resolve()),
            "checkout": o.server_checkout.rstrip("/") or "/", "build": o.build_remote}


def reach_remote(o) -> dict:
    """The other host reached, its checkout checked (built there first when asked), its environment collected:
    run.json's `remote`, with the ssh argv the shell starts servers with (plan/ssh.argv)."""
    r = o.remote
    try:
        addr = remote.address(r["host"])
        known = str(Path(r["key"]).parent / "known_hosts")
        argv = remote.ssh_argv(r["user"], r["host"], r["port"], r["key"], known, f"/tmp/rpcmatrix-ssh-{os.getpid()}")
        manifests = os.path.relpath(o.manifests, ROOT) if o.manifests.is_relative_to(ROOT) else "."
        say(f"checking the checkout {r['checkout']} on {r['user']}@{r['host']}")
        there = remote.check(argv, r["checkout"], r["build"], manifests)
    except remote.RemoteError as e:
        raise OptionError(str(e)) from e
    return r | {"address": addr, "ssh_argv": argv, "environment": there}


def servers_at(given: list[str], idl: Path) -> dict[str, str]:
    """--server-at PROTOCOL=TARGET, each protocol registered and once, each target readable (target.py)."""
    registry = plan.load_registry(idl)["protocols"]
    out = {}
    for item in given:
        protocol, sep, text = item.partition("=")
        if not sep:
            raise OptionError(f"--server-at takes PROTOCOL=TARGET, not '{item}'")
        if protocol not in registry:
            raise OptionError(f"--server-at: unknown protocol '{protocol}'; known: {' '.join(registry)}")
        if protocol in out:
            raise OptionError(f"--server-at names {protocol} twice")
        entry = registry[protocol]
        try:
            target.parse(protocol, entry.get("variant", {}), entry["family"], text)
        except target.TargetError as e:
            raise OptionError(f"--server-at {protocol}: {e}") from e
        out[protocol] = text
    return out


def say(message: str) -> None:
    print(f"rpcmatrix: {message}", file=sys.stderr)


def selection(o) -> cells_mod.Selection:
    try:
        chosen = cells_mod.choose(o.manifests, o.idl, o.profile, o.protocol, o.server, o.client, o.cell, o.manifest,
                                  o.implementation, o.server_at, o.variant)
    except (manifests.ManifestError, plan.PlanError) as e:
        raise OptionError(str(e)) from e
    for message in chosen.messages:
        say(message)
    if not chosen.chosen:
        raise OptionError("no cell matches the selection")
    known = {m["language"] for m in chosen.manifests}
    for language in o.server_spin:
        if language not in known:
            raise OptionError(f"--inject-server-spin: unknown language '{language}'; known: "
                              f"{', '.join(m['language'] for m in chosen.manifests)}")
    return chosen


def list_cells(chosen: cells_mod.Selection) -> None:
    for c in chosen.chosen:
        state = f"error: {c['error']}" if c.get("error") else (
            f"unsupported: {c['unsupported']}" if c.get("unsupported") else "runs")
        print(f"{c['name']}\t{state}")


def print_commands(o, chosen: cells_mod.Selection) -> None:
    if len(o.positional) != 1:
        raise OptionError("commands takes one cell name, e.g. 'xmlrpc/java→python'")
    name = o.positional[0]
    cell = next((c for c in chosen.chosen if c["name"] == name), None)
    if cell is None:
        raise OptionError(f"no cell named '{name}' (runner/rpcmatrix cells lists them)")
    if not cells_mod.can_run(cell):
        raise OptionError(f"{name} cannot run: {cell.get('error') or cell.get('unsupported')}")
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / "rpcmatrix-cell"
    ctx = steps.Context(run=Path("/nonexistent"), profile={}, cells=[], all_cells=[], baseline="", host="127.0.0.1",
                        fixed_port=o.fixed_port or 0, keep_processes=True, idl=o.idl,
                        secrets=Path(o.secrets) if o.secrets else ROOT / "secrets",
                        root=ROOT, server_spin={}, finished=set(), failed_builds={})
    server = steps.argv(ctx, cell, "server", folder=scratch)
    client = steps.argv(ctx, cell, "client", folder=scratch, port="N")
    print(f"# {name} — run from {ROOT}\n# 1. the server (port 0: the OS picks one; it prints "
          '{"ready": true, "port": N}):')
    print(f"# {{cell}}, a scratch folder both share: {scratch} (mkdir -p it)")
    print(" ".join(_quote(a) for a in server))
    print("# 2. the client, with N from the ready line; it reads commands on stdin (runner/PROTOCOL.md):")
    commands = ['{"cmd": "connect"}', json.dumps({"cmd": "vectors", "protocol": cell["protocol"]}), '{"cmd": "quit"}']
    print("printf '%s\\n' " + " ".join(_quote(c) for c in commands) + " | " + " ".join(_quote(a) for a in client))


def _quote(arg: str) -> str:
    """An argument quoted for the shell, always in single quotes (the way `jq @sh` quoted them)."""
    return "'" + arg.replace("'", "'\\''") + "'"


def run_folder(o, resumed: Path | None) -> Path:
    if o.out:
        out = Path(o.out)
    else:
        out = ROOT / "results" / f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{o.profile}"
    if resumed is None and (out / "env.json").exists():
        raise OptionError(f"{out} holds a run already: resume it with --resume {out}, or choose another --out")
    (out / "cells").mkdir(parents=True, exist_ok=True)
    (out / "plan").mkdir(parents=True, exist_ok=True)
    return out.resolve()


def check_resumable(run: Path) -> str:
    """Refuses a run whose runner is still at work, or whose code is not the tree's; returns the run's tag (of
    its namespace and cgroups) so that the shell removes what a killed runner left."""
    pid_file = run / "runner.pid"
    if pid_file.exists():
        pid = pid_file.read_text().strip()
        cmdline = Path(f"/proc/{pid}/cmdline")
        if pid.isdigit() and cmdline.exists() and b"rpcmatrix" in cmdline.read_bytes():
            raise OptionError(f"run {run} is still being run by process {pid}")
    try:
        resume.check(run, ROOT)
    except resume.ResumeError as e:
        raise OptionError(str(e)) from e
    done, total = resume.progress(run)
    say(f"run {run}: {done} of {total} cells finished")
    tag = (run / "runner.tag").read_text().strip() if (run / "runner.tag").exists() else ""
    return tag if tag.isdigit() else ""


def begin(args: list[str], command: str) -> int:
    """Checks the options; for cells and commands prints the answer; for build and run writes the run folder's
    plan/run.json and plan/builds.tsv (and for run options.json, cells.jsonl and each cell.json), and prints the
    settings the shell executes with."""
    o, resumed = parse(args)
    chosen = selection(o)
    if command == "run":
        try:
            spec, profile = plan.load_profile(o.idl, o.profile)
        except plan.PlanError as e:
            raise OptionError(str(e)) from e
        if o.variant and profile.get("load"):  # the load command opens connections of its own (PROTOCOL.md#load)
            raise OptionError(f"--connection per-call and --proxy vary the calls timed one at a time; profile "
                              f"{o.profile} drives load, whose connections are the load command's own")
    if command == "cells":
        list_cells(chosen)
        return 0
    if command == "commands":
        print_commands(o, chosen)
        return 0
    # the other host is checked before the run folder is made: a refused run leaves nothing
    there = reach_remote(o) if command == "run" and o.remote else None
    if command == "run":
        out = run_folder(o, resumed)
    else:  # build: the builds' logs in a folder of their own
        out = Path(os.environ.get("TMPDIR", "/tmp")) / f"rpcmatrix-build-{os.getpid()}"
        (out / "plan").mkdir(parents=True, exist_ok=True)
    leftover_tag = check_resumable(out) if resumed else ""
    settings = {"out": out, "resume": int(resumed is not None), "leftover_tag": leftover_tag,
                "no_netns": no_netns_reason(o), "pin": 0, "pin_reason": "", "ready_timeout": o.ready_timeout,
                "skip_build": int(o.skip_build), "write_html": int(not o.no_html), "known_failures": o.known_failures,
                "idl": o.idl,
                "lanes": 1, "command_timeout": o.command_timeout or 0, "count_calls": 0, "floor": "", "floor_after": "",
                "remote_ssh": "", "remote_checkout": "", "remote_address": "",
                "network": o.network["name"] if network.shaped(o.network) else ""}
    if command == "run":
        seed = o.seed if o.seed is not None else int(time.time())
        resolved = plan.resolve(o.profile, profile, o.passes, seed)
        # cells at once on pinned CPUs would queue the lanes' clients on one CPU and their servers on the other
        settings |= {"lanes": resolved["lanes"], "command_timeout": o.command_timeout or resolved["command_timeout_s"],
                     "count_calls": resolved["count_calls"], "pin": int(not o.no_pin and resolved["lanes"] == 1),
                     "pin_reason": "--no-pin" if o.no_pin and resolved["lanes"] == 1 else "",
                     **floor_counts(resolved, network.asked_delay_us(o.network))}
        if there:
            (out / "plan" / "ssh.argv").write_bytes(b"".join(a.encode() + b"\0" for a in there["ssh_argv"]))
            settings |= {"remote_ssh": out / "plan" / "ssh.argv", "remote_checkout": there["checkout"],
                         "remote_address": there["address"]}
        if resumed is None:
            saved = list(args) + ["--seed", str(seed), "--passes", str(resolved["passes"])]
            (out / "options.json").write_text(json.dumps(saved, ensure_ascii=False))
            write_cells(out, chosen.chosen)
        run_json = {"profile_name": o.profile, "idl": str(o.idl), "manifests": str(o.manifests),
                    "known_failures": o.known_failures, "fixed_port": o.fixed_port or 0,
                    "ready_timeout": o.ready_timeout, "command_timeout": settings["command_timeout"],
                    "use_netns": not o.no_netns, "use_pin": not o.no_pin, "keep_processes": not o.fresh_processes,
                    "server_spin": o.server_spin, "resumed": resumed is not None, "profile": resolved,
                    "baseline": spec.get("baseline") or "", "left_out": chosen.left_out,
                    "outside_manifests": [str(p) for p in o.manifest], "implementation": o.implementation,
                    "server_at": o.server_at, "secrets_dir": o.secrets, "retries": o.retries, "remote": there,
                    "variant": o.variant}
        (out / "plan" / "run.json").write_text(json.dumps(run_json, indent=1, ensure_ascii=False))
        network.write_plan(out, o.network)
        (out / "plan" / "all.jsonl").write_text(_lines(chosen.all))
    write_builds(out, chosen, o.skip_build)
    for name in SHELL_SETTINGS:
        print(f"{name}={settings[name]}")
    return 0


# A floor over a network with a delay makes at most this many seconds of round trips (the delay asked, both ways):
# Juric's counts, 22,000 round trips, would take 11 minutes over a 30 ms WAN, and a floor is taken beside every cell.
FLOOR_DELAY_BUDGET_S = 10


def floor_counts(profile: dict, delay_us: int = 0) -> dict:
    """The floor's client counts: a small workload's, with ten times its warm-up; the floor taken right after a
    cell, a tenth of that warm-up and one repetition (about 0.2 s). Over a delay (`delay_us`, both ways), warm-up and
    calls scaled down together to FLOOR_DELAY_BUDGET_S of round trips, at least 20 calls a repetition."""
    small = profile.get("small")
    if not profile["floor"] or not small:
        return {"floor": "", "floor_after": ""}
    warmup, calls, min_ms = small["warmup"] * 10, small["calls"], small.get("min_ms", 0)
    reps = small["repetitions"]
    if delay_us:
        scale = min(1.0, FLOOR_DELAY_BUDGET_S * 1e6 / delay_us / (warmup + calls * reps))
        warmup, calls = int(warmup * scale), max(20, int(calls * scale))
    max_calls = min(small.get("max_calls", calls), calls) if delay_us else small.get("max_calls", calls)
    return {"floor": f"{warmup} {calls} {min_ms} {max_calls} {reps}",
            "floor_after": f"{warmup // 10} {calls} {min_ms} {max_calls} 1"}


def _lines(items: list[dict]) -> str:
    return "".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) + "\n" for c in items)


def write_cells(out: Path, cells: list[dict], more: bool = False) -> None:
    """cells.jsonl and each cell's cell.json; `more`: cells a run adds to those (prepare.rival)."""
    with (out / "cells.jsonl").open("a" if more else "w", encoding="utf-8") as jsonl:
        jsonl.writelines(json.dumps(c, ensure_ascii=False) + "\n" for c in cells)
    for c in cells:
        folder = out / "cells" / c["slug"]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "cell.json").write_text(json.dumps(c, ensure_ascii=False) + "\n")


def write_builds(out: Path, chosen: cells_mod.Selection, skip: bool) -> None:
    """plan/builds.tsv: each language the selected cells use, with its build's argv (a file of NUL-ended args)."""
    languages = sorted({c[f"{role}_language"] for c in chosen.chosen if cells_mod.can_run(c)
                        for role in ("server", "client")})
    rows = []
    for m in chosen.manifests:
        if m["language"] in languages and m.get("build") and not skip:
            path = out / "plan" / "argv" / f"build-{m['language']}"
            path.parent.mkdir(parents=True, exist_ok=True)
            # an outside manifest's build runs from its folder
            argv = ["env", "-C", m["home"], *m["build"]] if m.get("home") else m["build"]
            path.write_bytes(b"".join(a.encode() + b"\0" for a in argv))
            rows.append(f"{m['language']}\t{path}\n")
    (out / "plan" / "builds.tsv").write_text("".join(rows))
