"""How a run was set up, in words: its network namespaces and what the counting pass counts on them, where its
CPU time comes from, how its processes were pinned and how they lived across cells. env.json stores these as
data (run.setup, from the shell's plan/setup.tsv: conductor/environment.py); a run made before it stored
them as data has the sentences themselves (run.wire, run.pin, run.cpu_source, run.processes), which are
returned as they are."""
from conductor import network as network_rules


def _setup(run: dict) -> dict | None:
    return run.get("setup")


def wire(run: dict) -> str:
    """Where bytes on the wire come from, or why they were not measured."""
    setup = _setup(run)
    if setup is None:
        return run.get("wire") or "not recorded"
    net = setup["network"]
    if not net["netns"] and net.get("segments") == "nftables-host":
        return (f"counted on the clients' host: {net.get('reason')}; in a separate pass per workload (at least "
                "count_ms, at most count_calls calls), the TCP payload this host sent to and received from the "
                "servers' address (its SSH port's traffic excepted) and the bare ACKs, from nftables counters on its "
                "output and input hooks; its offloads as they are, so the segments carrying payload and the frames "
                "are not counted (a counted segment may be several on the wire), nor are resent bytes told apart")
    if not net["netns"]:
        return f"not measured: {net.get('reason') or 'no network namespaces'} (client and server on 127.0.0.1)"
    offloads = (f"at their defaults while timing ({net['offloads_default']}), off while counting"
                if net.get("offloads_default") else
                "at their defaults (ethtool missing): packet counts may group segments")
    text = (f"server in network namespace {net['server_netns']} at {net['server_ip']}, client in "
            f"{net['client_netns']} at {net['client_ip']} (tcp_tw_reuse=1) over a veth pair; counted on the "
            "client's veth in a separate pass per workload (at least count_ms, at most count_calls calls): Ethernet "
            f"frames (14-byte header + IP + TCP + payload); offloads {offloads}")
    if net.get("early_retrans") is not None:
        text += "; TCP's tail loss probes off while counting (their spurious resends followed timing)"
    else:
        text += "; TCP's tail loss probes as the kernel has them (no net.ipv4.tcp_early_retrans to turn off)"
    text += "; the segments each side retransmitted counted beside"
    if net.get("segments"):
        text += ("; TCP payload and the segments carrying it, bare ACKs apart, from nftables counters where each "
                 "direction is received")
    else:
        text += ("; segments not told apart (no nftables): the frames include the bare ACKs, whose number depends "
                 "on timing")
    return text


def hosts(run: dict) -> str:
    """Which hosts ran the clients and the servers (--server-host: two)."""
    h = run.get("hosts") or {}
    if not h or h.get("client") == h.get("server"):
        return f"clients and servers on {h.get('client') or 'one host'}"
    return f"clients on {h['client']}, servers on {h['server']} over SSH (env.json: server_host)"


SHAPERS = {"netem": "netem on the sending end (delay and rate), iptables' statistic match where the receiving end "
                    "takes packets in (loss)",
           "tbf+delayline": "tbf on the sending end (rate); where the receiving end takes packets in, iptables' "
                            "statistic match (loss) and an NFQUEUE delay line, TCP end to end (delay)"}


def network(run: dict, delay_line: dict | None = None) -> str:
    """The network scenario between client and server (--network): asked, how applied, what its self-test
    measured, and what the delay line added beyond the asked delay over the run (conductor/network.delay_line)."""
    scenario = ((_setup(run) or {}).get("network") or {}).get("scenario")
    if not scenario or not any(scenario["c2s"].values()) and not any(scenario["s2c"].values()):
        return "loopback: the veth pair as it is, nothing applied"
    checks = "; ".join(c["text"] for c in scenario.get("checks", []))
    how = SHAPERS.get(scenario.get("shaper") or "", "the kernel")
    text = f"{scenario['name']} ({scenario['spec']}: {scenario['why']}), by {how}; measured before the cells: {checks}"
    if scenario.get("shaper") == "tbf+delayline":
        text += f"; {scenario['delay_line_cpu']}" + "".join(
            f"; {d}: {delay_line_figures(figures)}" for d, figures in (delay_line or {}).items())
    return text


def delay_line_figures(direction: dict) -> str:
    """One direction's delay line over the run, in words: what it added to each packet beyond the delay, and how
    its seconds' typical figure moved (the floor rule's slack: report/flags.path_slack_us)."""
    total = direction.get("total")
    if not total:
        return "the delay line's figures were not written (it did not stop on its own)"
    e, lag = total["excess_us"], total["reader_lag_us"]
    stamped = ("all" if total["stamped"] == total["packets"]
               else f"{total['stamped']:,} (the rest from when read)")
    text = (f"the delay line held {total['packets']:,} packets, each for the delay and then p50 {e['p50']} µs, "
            f"p99 {e['p99']} µs, max {e['max']:.0f} µs more ({stamped} timed from the kernel's arrival stamp; "
            f"reading them lagged p50 {lag['p50']} µs, p99 {lag['p99']} µs)")
    spread = network_rules.crossing_spread(direction)
    if spread:
        text += f", its seconds' p50 from {spread[0]:.1f} to {spread[1]:.1f} µs (their 5th to 95th percentile)"
    if total.get("cpu_s") is not None and total.get("seconds"):
        text += (f"; it used {total['cpu_s']:.1f} s of CPU over its {total['seconds']:.0f} s "
                 f"({total['cpu_s'] / total['seconds']:.1%} of a CPU)")
    return text


def wire_measured(run: dict) -> bool:
    setup = _setup(run)
    if setup is None:
        return not str(run.get("wire", "")).startswith("not")
    return bool(setup["network"]["netns"])


def cpu(run: dict) -> str:
    """Where each side's CPU time comes from."""
    setup = _setup(run)
    if setup is None:
        return run.get("cpu_source") or "not recorded"
    kind = setup["cgroup"]["kind"]
    if not kind:
        return "not measured: no cgroup could be made for each side"
    return (f"usage of a cgroup ({kind}) per side, holding the process group: every thread and child, exited ones "
            "included, to the microsecond; read just before and after each repetition")


def pin(run: dict) -> str:
    """Which CPUs the server and the client ran on, or why they were not pinned."""
    setup = _setup(run)
    if setup is None:
        return run.get("pin") or "not recorded"
    p = setup["pinning"]
    if p.get("lanes", 1) > 1:
        return f"not pinned: {p['lanes']} lanes of cells at once share the CPUs (the profile measures nothing)"
    how = {"cpuset": "cpuset cgroups", "taskset": "taskset: no cpuset cgroup here"}.get(p.get("mode") or "")
    if how is None:
        return f"not pinned: {p.get('reason') or 'not recorded'}"
    return f"server on CPU {p['server_cpu']}, client on CPU {p['client_cpu']} ({how}); the runner itself is not pinned"


def processes(run: dict) -> str:
    """How servers and clients lived across the cells."""
    setup = _setup(run)
    if setup is None:
        return run.get("processes") or "not recorded"
    if not setup["processes"]["kept"]:
        return "a new server and client process for every cell (--fresh-processes)"
    return ("kept across cells: in each pass one server process per protocol and server implementation serves its "
            "clients in turn, one client process per protocol and client implementation connects to each server in "
            "turn (cells grouped by protocol and server, in a random order within each), each alive until its "
            "protocol's last cell; a profile that times workloads first warms a group of protocols' processes "
            "together (unpinned, every cell's vectors, then warm-up calls until each JIT runtime's compiler threads "
            "go quiet), then times their cells one at a time; an idle process waits in a cgroup of its own on the "
            "client's CPU")
