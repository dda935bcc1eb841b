"""The conductor's command line: what the runner's shell asks between executing steps (runner/lib/run.sh).

    begin run|cells|commands|build ARGS...  check the options; plan the run (options.py)
    prepare --run RUN                       env.json, the plan and the steps (resumed: trimmed first)
    warm-phase, cell-start, cell-end, declined, handlers, fold, fold-unfinished: one step each (cell.py)
    timing-next                             a load profile's next round of points in a cell (load.py)
    proxy-ready --run RUN --pid PID         whether the proxy of --proxy http listens (proxy.py)
    k8s RUN-OPTIONS --out DIR               the manifests that run the planned run on a cluster (k8s.py)
    network-check --run RUN                 the network scenario's self-test: accepted or refused (network.py)
    wire-rules TABLE DIRECTION HOOK MATCH   nftables' counters of one direction of the counting pass (wire.py)

Each command imports only the modules it uses: the runner calls cell-start and cell-end once per cell."""
import argparse
import sys
from pathlib import Path


def begin(args) -> int:
    from . import options
    try:
        return options.begin(args.rest, args.command_name)
    except options.OptionError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2


def k8s(argv: list[str]) -> int:
    from . import k8s as k8s_mod
    from . import options
    if any(a in ("-h", "--help", "help") for a in argv):
        print(k8s_mod.K8S_USAGE, end="")
        return 0
    try:
        k8s_mod.write(argv)
    except options.OptionError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    return 0


def prepare(args) -> int:
    from . import prepare as prepare_mod
    try:
        prepare_mod.prepare(Path(args.run))
    except prepare_mod.PrepareError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 2
    return 0


def _live(text: str, server: bool):
    """PID:PORT:DIR:NEW of a server, PID:DIR:NEW of a client, as the shell passes them."""
    from .cell import Live
    if server:
        pid, port, folder, new = text.split(":", 3)
        return Live(int(pid), Path(folder), new == "1", int(port))
    pid, folder, new = text.split(":", 2)
    return Live(int(pid), Path(folder), new == "1")


def _progress(args, run, pass_no: int, work: int, summary: str, name: str) -> None:
    from . import progress
    progress.journal(run.dir, pass_no, cell=name, work=work, lane=args.lane)
    progress.say(progress.cell_line(run.dir, args.index, args.total, name, summary, args.since, args.lane, pass_no))


def cell_start(args) -> int:
    from . import cell
    run = cell.Run.load(Path(args.run))
    outcome = cell.start(run, args.slug, args.pass_no, args.host, _live(args.server, True), _live(args.client, False))
    if outcome != cell.TIMED:
        # nothing to time: the cell ends here (the shell takes no floor after it)
        work, summary = cell.finish(run, args.slug, args.pass_no, args.steal_before, args.floor_before, None)
        _progress(args, run, args.pass_no, work, summary, cell.read_cell(run.dir, args.slug)["name"])
    return outcome


def cell_end(args) -> int:
    from . import cell
    run = cell.Run.load(Path(args.run))
    work, summary = cell.finish(run, args.slug, args.pass_no, args.steal_before, args.floor_before, args.floor_after)
    _progress(args, run, args.pass_no, work, summary, cell.read_cell(run.dir, args.slug)["name"])
    return 0


def timing_next(args) -> int:
    """0 with the cell's next round of load points in timing.tsv, 1 when none is left."""
    from . import cell
    return 0 if cell.timing_next(cell.Run.load(Path(args.run)), args.slug, args.pass_no) else 1


def declined(args) -> int:
    from . import cell
    run = cell.Run.load(Path(args.run))
    entries = [(int(i), slug) for i, slug in (e.split(":", 1) for e in args.cells.split(","))]
    cell.declined(run, args.pass_no, entries, args.total, args.lane)
    return 0


def warm_phase(args) -> int:
    from . import cell
    run = cell.Run.load(Path(args.run))
    for key in cell.warm_phase(run, args.pass_no, Path(args.phase), Path(args.live), args.host):
        print(key)
    return 0


def handlers(args) -> int:
    from . import cell
    cell.handlers(cell.Run.load(Path(args.run)), args.language, Path(args.client_dir))
    return 0


def fold_step(args) -> int:
    from . import cell
    cell.fold_stage(cell.Run.load(Path(args.run)), args.dir, args.pass_no, args.stage)
    return 0


def fold_unfinished(args) -> int:
    from . import cell
    cell.fold_unfinished(cell.Run.load(Path(args.run)))
    return 0


def network_check(args) -> int:
    """0 when the network's self-test met what was asked, 2 (each figure said) when it missed."""
    from . import network, progress
    checked = network.check(Path(args.run))
    for c in checked["checks"]:
        progress.say(f"rpcmatrix: network {checked['name']}: {c['text']}")
    return 0 if checked["accepted"] else 2


def proxy_ready(args) -> int:
    """0 once the proxy of --proxy http listens (proxy.py); 1, with why, when it does not."""
    from . import proxy
    try:
        proxy.wait_ready(Path(args.run), args.pid)
    except proxy.ProxyError as e:
        print(f"rpcmatrix: error: {e}", file=sys.stderr)
        return 1
    return 0


def later(args) -> int:
    """Steps planned once a pass has run: retry (prepare.retry) and rival (prepare.rival)."""
    from . import prepare
    getattr(prepare, args.command)(Path(args.run), args.after)
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["battery"]:  # the battery's options and plan
        from .battery import plan
        return plan(argv[1:])
    if argv[:1] == ["k8s"]:
        return k8s(argv[1:])
    if argv[:1] == ["wire-rules"] and len(argv) == 5:  # the shell pipes them to nft -f - (runner/lib/netns.sh)
        from .wire import counter_rules
        print(counter_rules(*argv[1:]), end="")
        return 0
    if argv[:1] == ["begin"]:  # the runner's own options, parsed by options.py
        if len(argv) < 2 or argv[1] in ("-h", "--help", "help"):
            from .options import USAGE
            print(USAGE, end="")
            return 0
        return begin(argparse.Namespace(command_name=argv[1], rest=argv[2:]))
    p = argparse.ArgumentParser(prog="python -m conductor")
    sub = p.add_subparsers(dest="command", required=True)

    def command(name, func, *flags, ints=(), step=False):
        s = sub.add_parser(name)
        s.add_argument("--run", required=True)
        for flag in flags:
            s.add_argument(flag, required=True)
        for flag in ints:
            s.add_argument(flag, type=int, required=True)
        if step:  # a cell's step: its place in the run, for the progress line
            for flag in ("--index", "--total", "--since"):
                s.add_argument(flag, type=int, required=True)
            s.add_argument("--lane", type=int, default=0)
            s.add_argument("--steal-before", type=int)
            s.add_argument("--floor-before")
        s.set_defaults(func=func)
        return s

    command("prepare", prepare)
    s = command("cell-start", cell_start, "--slug", "--host", "--server", "--client", step=True)
    s.add_argument("--pass", dest="pass_no", type=int, required=True)
    s = command("cell-end", cell_end, "--slug", step=True)
    s.add_argument("--pass", dest="pass_no", type=int, required=True)
    s.add_argument("--floor-after")
    s = command("timing-next", timing_next, "--slug", step=True)
    s.add_argument("--pass", dest="pass_no", type=int, required=True)
    s = command("declined", declined, "--cells", ints=("--total",))
    s.add_argument("--pass", dest="pass_no", type=int, required=True)
    s.add_argument("--lane", type=int, default=0)
    s = command("warm-phase", warm_phase, "--phase", "--live", "--host")
    s.add_argument("--pass", dest="pass_no", type=int, required=True)
    command("handlers", handlers, "--language", "--client-dir")
    s = command("fold", fold_step, "--dir", "--stage")
    s.add_argument("--pass", dest="pass_no", type=int, required=True)
    command("fold-unfinished", fold_unfinished)
    command("retry", later, ints=("--after",))
    command("rival", later, ints=("--after",))
    command("network-check", network_check)
    command("proxy-ready", proxy_ready, ints=("--pid",))
    args = p.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C reaches the whole foreground group: the runner's trap does the rest
        sys.exit(130)
