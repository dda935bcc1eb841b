"""python -m rpcmatrix.battery attack --protocol P --host H --port N --pid PID --out FILE [--server NAME]
[--attacks a,b] [--idl DIR] [--secrets DIR] [--cell DIR]: runs the attacks that apply to P against the
running server and appends one JSON line per attack to FILE. `protocols` prints the protocols the battery
takes; `attacks --protocol P` the attacks that apply to P."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rpcmatrix.battery import table
from rpcmatrix.battery.memory import group_rss_kb
from rpcmatrix.battery.ping import Pinger
from rpcmatrix.battery.target import Target
from rpcmatrix.contract.catalog import load_protocol

_IDL = Path(__file__).resolve().parents[4] / "idl"


def run_attack(target: Target, name: str, server: str) -> dict:
    rss_before = group_rss_kb(target.pid)
    started = time.monotonic()
    try:
        result = table.ATTACKS[name].run(target)
    except Exception as e:  # the attack could not even be made: that is the battery's own error
        result = {"outcome": "error", "answer": f"{type(e).__name__}: {e}", "served_during": None}
    seconds = time.monotonic() - started
    after = target.served()
    during = result.get("served_during")
    return {
        "attack": name, "protocol": target.protocol, "server": server, "outcome": result["outcome"],
        "answer": str(result.get("answer", ""))[:300],
        "served_during": None if during is None else during["ok"],
        "served_during_reason": None if during is None else during["reason"],
        "served_after": after["ok"], "served_after_reason": after["reason"],
        "ping": target.pinger.how,
        "rss_before_kb": rss_before, "rss_after_kb": group_rss_kb(target.pid), "seconds": round(seconds, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rpcmatrix.battery")
    sub = parser.add_subparsers(dest="command", required=True)
    attack = sub.add_parser("attack", help="run the attacks against one running server")
    attack.add_argument("--protocol", required=True)
    attack.add_argument("--host", required=True)
    attack.add_argument("--port", type=int, required=True)
    attack.add_argument("--pid", type=int, required=True, help="the server's process (group) id, for VmRSS")
    attack.add_argument("--out", type=Path, required=True, help="JSON lines are appended here")
    attack.add_argument("--server", default="", help="the server implementation's name, for the records")
    attack.add_argument("--attacks", default="", help="comma-separated subset (default: all that apply)")
    attack.add_argument("--idl", type=Path, default=_IDL)
    attack.add_argument("--secrets", type=Path, default=None)
    attack.add_argument("--cell", type=Path, default=None, help="the server's {cell} folder (CORBA's IORs)")
    which = sub.add_parser("attacks", help="the attacks that apply to a protocol")
    which.add_argument("--protocol", required=True)
    which.add_argument("--idl", type=Path, default=_IDL)
    sub.add_parser("protocols", help="the protocols the battery takes")
    options = parser.parse_args(argv)

    if options.command == "protocols":
        print("\n".join(table.PROTOCOLS))
        return 0
    family = load_protocol(options.idl, options.protocol).family
    names = table.attacks_for(options.protocol, family)
    if options.command == "attacks":
        print("\n".join(names))
        return 0
    if options.attacks:
        wanted = options.attacks.split(",")
        unknown = [a for a in wanted if a not in table.ATTACKS]
        if unknown:
            print(f"unknown attacks: {', '.join(unknown)}; known: {', '.join(table.ATTACKS)}", file=sys.stderr)
            return 2
        names = [a for a in names if a in wanted]
    target = Target(options.protocol, family, options.host, options.port, options.pid,
                    Pinger(options.protocol, options.host, options.port, options.idl, options.secrets, options.cell))
    options.out.parent.mkdir(parents=True, exist_ok=True)
    for name in names:
        line = run_attack(target, name, options.server)
        with options.out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line, sort_keys=False) + "\n")
        print(f"{options.protocol}/{options.server} {name}: {line['outcome']}"
              f" (during {line['served_during']}, after {line['served_after']})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
