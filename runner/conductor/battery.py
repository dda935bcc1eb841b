"""The battery's plan (`runner/rpcmatrix battery`): its options checked, and the servers to attack, one per
protocol and server implementation, started the way cells start theirs (runner/lib/battery.sh), each with its
argv (plan/servers.tsv: protocol, implementation, language, argv file, scratch folder) and the languages to
build (plan/builds.tsv); the settings the shell executes with are printed as name=value lines."""
import subprocess
import sys
import time
from pathlib import Path

from . import cells as cells_mod
from . import manifests, options, steps

ROOT = options.ROOT
USAGE = """usage: runner/rpcmatrix battery [options]
  --protocol LIST    only these protocols (default: every protocol the battery takes)
  --server LIST      only these server implementations or languages
  --attacks LIST     only these attacks (default: every attack that applies)
  --out DIR          results folder (default: results/<time>-battery)
  --expected FILE    expected outcomes (default: runner/battery-expected.json)
  --skip-build       do not run the languages' build commands
  --ready-timeout S  seconds a server has to print its ready line (default: 60)
  --vectors-run RUN  a matrix run whose security negative tests BATTERY.md collects too (a load run: its
                     servers' overload joins the survival matrix)
  --host ADDRESS     the address the servers bind ({host}; default: 127.0.0.1)
"""


def taken_protocols() -> list[str]:
    """The protocols the battery's attacks take (python -m rpcmatrix.battery protocols)."""
    done = subprocess.run([sys.executable, "-m", "rpcmatrix.battery", "protocols"], capture_output=True, text=True,
                          check=True)
    return done.stdout.split()


def plan(args: list[str]) -> int:
    if any(a in ("-h", "--help") for a in args):
        print(USAGE, end="")
        return 0
    p = options.Parser(prog="runner/rpcmatrix battery", add_help=False, allow_abbrev=False)
    for flag, default in (("--protocol", ""), ("--server", ""), ("--attacks", ""), ("--out", ""),
                          ("--expected", str(ROOT / "runner/battery-expected.json")), ("--ready-timeout", "60"),
                          ("--vectors-run", ""), ("--host", "127.0.0.1")):
        p.add_argument(flag, default=default)
    p.add_argument("--skip-build", action="store_true")
    try:
        o = p.parse_args(args)
        if not o.ready_timeout.isdigit():
            raise options.OptionError("--ready-timeout takes whole seconds")
        idl = ROOT / "idl"
        loaded = manifests.load(ROOT)
        all_cells = cells_mod.expand_cells(loaded, "", cells_mod.load_registry(idl))
        chosen = cells_mod.select_cells(all_cells, o.protocol or ",".join(taken_protocols()), o.server)
    except (options.OptionError, manifests.ManifestError) as e:
        print(f"rpcmatrix: error: {str(e).replace('runner/rpcmatrix --help', 'runner/rpcmatrix battery --help')}",
              file=sys.stderr)
        return 2
    # a cell of each server, any client: its client side is not used
    servers = {}
    for c in chosen:
        if c["server_argv"] is not None and not c.get("error"):
            servers.setdefault((c["protocol"], c["server"]), c)
    if not servers:
        print("rpcmatrix: error: no server matches the selection", file=sys.stderr)
        return 2
    out = Path(o.out or ROOT / "results" / f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-battery").resolve()
    (out / "plan").mkdir(parents=True, exist_ok=True)
    ctx = steps.Context(run=out, profile={}, cells=[], all_cells=[], baseline="", host=o.host, fixed_port=0,
                        keep_processes=True, idl=idl, secrets=ROOT / "secrets", root=ROOT, server_spin={},
                        finished=set(), failed_builds={})
    rows = []
    for (protocol, server), cell in servers.items():
        scratch = out / "servers" / f"{protocol}-{server}" / "cell"
        scratch.mkdir(parents=True, exist_ok=True)
        argv = steps.argv_file(ctx, f"server-{protocol}-{server}", steps.argv(ctx, cell, "server", folder=scratch))
        rows.append(f"{protocol}\t{server}\t{cell['server_language']}\t{argv}\n")
    (out / "plan" / "servers.tsv").write_text("".join(rows))
    # only the servers' languages are built: their client side is not used
    sides = [dict(c, client_language=c["server_language"], unsupported=None) for c in servers.values()]
    options.write_builds(out, cells_mod.Selection([], sides, [], loaded, []), o.skip_build)
    settings = {"out": out, "ready_timeout": o.ready_timeout, "expected": o.expected, "vectors_run": o.vectors_run,
                "attacks": o.attacks, "idl": idl}
    for name, value in settings.items():
        print(f"{name}={value}")
    return 0
