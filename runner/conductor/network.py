"""The network a run's figures cross (`--network`): a named scenario of runner/networks.json or a custom one
(`delay=15ms,rate=20mbit,loss=0.1%`, each key also per direction: `c2s.delay=`, `s2c.rate=`), what the shell
applies for it (plan/network.tsv: runner/lib/network.sh), and the self-test that accepts or refuses it before any
cell (runner/lib/network_test.sh measures, check() decides). The scenario and its figures go to
plan/network.json, from which env.json and every record take them."""
import json
import math
import re
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NETWORKS = ROOT / "runner" / "networks.json"
PLAN = Path("plan") / "network.json"
DIRECTIONS = ("c2s", "s2c")
UNITS = {"delay": {"us": 1, "ms": 1_000, "s": 1_000_000},
         "rate": {"bit": 1, "kbit": 10**3, "mbit": 10**6, "gbit": 10**9},
         "loss": {"%": 0.01}}
# Tolerances: the delay within 0.2 ms or 5% (whichever is larger), the rate within 5%; the loss within 5% or, where
# the packets a bounded burst gets through are too few for that, within Z standard deviations of the binomial count
# (5% of 0.1% at 95% confidence takes 1.5 million packets: half a minute at the 58k a second 20 Mbit/s carries).
DELAY_US, RELATIVE, Z = 200, 0.05, 3.29  # Z: a 0.1% chance of refusing a scenario that was applied right
LEAST_EXPECTED_DROPS = 20  # fewer expected drops than this, and the burst shows nothing: refused as unmeasured
BULK_SECONDS, BURST_SECONDS = 2, 2  # the self-test's transfer and burst: how long they take at most
TYPICAL_PACKETS = 100  # a second of the delay line's that carried fewer packets says little (crossing_spread)


class NetworkError(Exception):
    pass


def scenarios(path: Path = NETWORKS) -> dict:
    return json.loads(path.read_text())


def _value(key: str, text: str) -> float:
    match = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)([a-z%]*)", text.strip().lower())
    units = UNITS[key]
    if not match or match[2] not in units:
        raise NetworkError(f"{key}={text}: a number with one of the units {', '.join(units)}, e.g. "
                           f"{ {'delay': '15ms', 'rate': '20mbit', 'loss': '0.1%'}[key] }")
    return float(match[1]) * units[match[2]]


def parse_spec(spec: str) -> dict:
    """`key=value,...` as each direction's {delay_us, rate_bit, loss}: 0 where the key is absent (nothing applied);
    a direction's own key (c2s.delay) over the key for both."""
    out = {d: {"delay_us": 0, "rate_bit": 0, "loss": 0.0} for d in DIRECTIONS}
    fields = {"delay": "delay_us", "rate": "rate_bit", "loss": "loss"}
    items = [i for i in spec.split(",") if i.strip()]
    for item in sorted(items, key=lambda i: "." in i.partition("=")[0]):  # the per-direction keys last: they win
        name, sep, text = item.partition("=")
        direction, _, key = name.strip().rpartition(".")
        if not sep or key not in fields or direction not in ("", *DIRECTIONS):
            raise NetworkError(f"unknown key '{name.strip()}' in '{spec}': the keys are delay, rate and loss, each "
                               "also as c2s.KEY or s2c.KEY")
        value = _value(key, text)
        if key == "loss" and value >= 1:
            raise NetworkError(f"loss={text}: below 100%")
        if key == "rate" and value < 8000:
            raise NetworkError(f"rate={text}: at least 8kbit")
        for d in (direction,) if direction else DIRECTIONS:
            out[d][fields[key]] = round(value) if key != "loss" else value
    return out


def resolve(text: str, path: Path = NETWORKS) -> dict:
    """A name of networks.json or a custom `key=value,...` as {name, why, spec, c2s, s2c}."""
    named = scenarios(path)
    if "=" not in text:
        if text not in named:
            raise NetworkError(f"unknown network '{text}'; known: {', '.join(named)}, or a custom one such as "
                               "delay=15ms,rate=20mbit,loss=0.1%")
        return {"name": text, "why": named[text]["why"], "spec": named[text]["spec"], **parse_spec(named[text]["spec"])}
    return {"name": "custom", "why": "given on the command line", "spec": text, **parse_spec(text)}


def asked_delay_us(network: dict) -> int:
    """The delay asked, both ways summed (0 for loopback)."""
    return sum(network[d]["delay_us"] for d in DIRECTIONS)


def shaped(network: dict) -> bool:
    return any(v for d in DIRECTIONS for v in network[d].values())


def shell_plan(network: dict) -> str:
    """plan/network.tsv, a line per direction: DIRECTION DELAY_US RATE_BIT LOSS TBF_BURST_BYTES; then the
    self-test's sizes: `floor WARMUP CALLS MIN_MS MAX_CALLS REPETITIONS` (about a second of ping-pongs), and
    `sizes BULK_BYTES BULK_SECONDS BURST_SECONDS`."""
    lines = []
    for d in DIRECTIONS:
        a = network[d]
        # a bucket of a millisecond at the rate, at least two frames: tbf hands bigger (GSO) packets over in frames
        burst = max(a["rate_bit"] // 8000, 3028) if a["rate_bit"] else 0
        lines.append(f"{d}\t{a['delay_us']}\t{a['rate_bit']}\t{a['loss']:.6g}\t{burst}")
    rtt_us = 2 * DELAY_US + asked_delay_us(network)
    calls = max(20, min(1000, 1_000_000 // rtt_us))
    lines.append(f"floor\t{calls // 2} {calls} 0 {calls} 1")
    rates = [network[d]["rate_bit"] for d in DIRECTIONS if network[d]["rate_bit"]]
    # the transfer: what BULK_SECONDS carry at the slower rate, so the measured three quarters last a second or more
    bulk = min(rates) // 8 * BULK_SECONDS if rates else 0
    lines.append(f"sizes\t{bulk}\t{BULK_SECONDS * 3}\t{BURST_SECONDS}")
    return "".join(line + "\n" for line in lines)


def write_plan(run: Path, network: dict) -> None:
    (run / PLAN).write_text(json.dumps(network, indent=1))
    (run / "plan" / "network.tsv").write_text(shell_plan(network))


def _median_us(folder: Path) -> float | None:
    try:
        samples = json.loads((folder / "ping.samples.json").read_text())["samples_ns"]
    except (OSError, ValueError, KeyError):
        return None
    flat = [s for rep in samples for s in rep]
    return statistics.median(flat) / 1000 if flat else None


def _counters(path: Path) -> tuple[int, int] | None:
    """(dropped, passed) from `iptables -nvx -L PREROUTING` of the receiving side: the DROP rule's and the count
    rule's (comment rpcmatrix-passed) packets."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    dropped = [int(x.split()[0]) for x in lines if x.split()[2:3] == ["DROP"] and "statistic" in x]
    passed = [int(x.split()[0]) for x in lines if "rpcmatrix-passed" in x]
    return (dropped[0], passed[0]) if dropped and passed else None


def delay_tolerance_us(asked_us: float) -> float:
    return max(DELAY_US, RELATIVE * asked_us)


def loss_tolerance(p: float, n: int) -> float:
    """How far the dropped count may be from n·p: 5% of it, or Z binomial standard deviations when that is wider."""
    return max(RELATIVE * n * p, Z * math.sqrt(n * p * (1 - p)))


def check(run: Path) -> dict:
    """The self-test's verdict from the shell's figures in RUN/network/: each asked value against what was
    measured. Stored into plan/network.json (measured, checks, accepted)."""
    network = json.loads((run / PLAN).read_text())
    folder, checks, measured = run / "network", [], {}
    bare, shaped_ = _median_us(folder / "bare"), _median_us(folder / "shaped")
    asked = asked_delay_us(network)
    got = None if bare is None or shaped_ is None else shaped_ - bare
    measured |= {"rtt_bare_us": bare, "rtt_shaped_us": shaped_, "delay_us": got}
    checks.append({"what": "delay (both ways)", "asked": asked, "measured": got, "unit": "us",
                   "tolerance": delay_tolerance_us(asked), "ok": got is not None and
                   abs(got - asked) <= delay_tolerance_us(asked)})
    for d in DIRECTIONS:
        if network[d]["rate_bit"]:
            try:
                sink = json.loads((folder / f"rate-{d}.json").read_text())
                # the sink counts TCP payload; the shaper counts Ethernet frames: MTU + 14 for every MSS of payload
                rate = sink["bytes"] * 8 / sink["seconds"] * (sink["mtu"] + 14) / sink["mss"]
            except (OSError, ValueError, KeyError, ZeroDivisionError):
                rate = None
            measured[f"rate_bit_{d}"] = rate
            asked_rate = network[d]["rate_bit"]
            checks.append({"what": f"rate {d}", "asked": asked_rate, "measured": rate, "unit": "bit/s",
                           "tolerance": RELATIVE * asked_rate,
                           "ok": rate is not None and abs(rate - asked_rate) <= RELATIVE * asked_rate})
        if network[d]["loss"]:
            p, counts = network[d]["loss"], _counters(folder / f"loss-{d}.txt")
            dropped, passed = counts or (0, 0)
            n = dropped + passed
            measured[f"loss_{d}"] = dropped / n if n else None
            measured[f"loss_packets_{d}"] = n
            bound = loss_tolerance(p, n)
            checks.append({"what": f"loss {d}", "asked": p, "measured": measured[f"loss_{d}"], "unit": "fraction",
                           "packets": n, "dropped": dropped, "tolerance": bound / n if n else None,
                           "ok": n * p >= LEAST_EXPECTED_DROPS and abs(dropped - n * p) <= bound})
    for c in checks:
        c["text"] = describe(c)
    network |= {"measured": measured, "checks": checks, "accepted": all(c["ok"] for c in checks)}
    (run / PLAN).write_text(json.dumps(network, indent=1))
    return network


def _figure(value, unit: str) -> str:
    if value is None:
        return "not measured"
    return {"us": f"{value / 1000:.3f} ms", "bit/s": f"{value / 1e6:.2f} Mbit/s",
            "fraction": f"{100 * value:.3f}%"}[unit]


def describe(check_: dict) -> str:
    """One check in words: `rate c2s: 19.98 Mbit/s, asked 20.00 Mbit/s ± 1.00 Mbit/s (ok)`."""
    tolerance = _figure(check_["tolerance"], check_["unit"])
    packets = f" over {check_['packets']} packets" if "packets" in check_ else ""
    return (f"{check_['what']}: {_figure(check_['measured'], check_['unit'])}{packets}, asked "
            f"{_figure(check_['asked'], check_['unit'])} ± {tolerance} ({'ok' if check_['ok'] else 'MISSED'})")


def delay_line(run: Path) -> dict | None:
    """What each direction's delay line (runner/floor/delayline.c) added beyond the asked delay, from its lines in
    RUN/network/: {direction: {"total": its figures over the run (packets, stamped, excess_us, reader_lag_us),
    "seconds": [(unix second, packets, p50 excess in µs), ...]}}; None where no delay line ran (loopback, netem).
    A line cut short by a kill is left out."""
    out = {}
    for d in DIRECTIONS:
        try:
            text = (run / "network" / f"delayline-{d}.out").read_text()
        except OSError:
            continue
        lines = []
        for line in text.splitlines():
            try:
                lines.append(json.loads(line))
            except ValueError:
                continue
        seconds = [(x["t"], x["packets"], x["excess_us"]["p50"]) for x in lines if "t" in x and "excess_us" in x]
        out[d] = {"total": next((x for x in lines if x.get("total")), None), "seconds": seconds}
    return out or None


def crossing_spread(direction: dict) -> tuple[float, float] | None:
    """How a direction's typical crossing moved over the run (delay_line): the 5th and the 95th percentile of its
    seconds' p50 excess, over the seconds that carried at least TYPICAL_PACKETS packets (a second of a few packets
    says little of the path); None with fewer than two such seconds."""
    typical = [p50 for _, packets, p50 in direction["seconds"] if packets >= TYPICAL_PACKETS]
    if len(typical) < 2:
        return None
    cuts = statistics.quantiles(typical, n=20, method="inclusive")
    return cuts[0], cuts[-1]


def of_run(run: Path) -> dict | None:
    """The run's network as records carry it: its name, what was asked and what the self-test measured."""
    path = run / PLAN
    if not path.exists():
        return None
    n = json.loads(path.read_text())
    return {"name": n["name"], "spec": n["spec"], "asked": {d: n[d] for d in DIRECTIONS},
            "measured": n.get("measured")}
