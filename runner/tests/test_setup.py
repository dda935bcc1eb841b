"""How a run was set up: the shell's facts (plan/setup.tsv) stored as data in env.json (conductor/environment.py),
and the sentences the report makes of them (analysis/setup.py), for a run of each kind and for one made before
env.json stored them as data."""
import json

from analysis import setup
from conductor import environment

ON = {"netns": "on", "server_netns": "rpcmatrix-00042", "client_netns": "rpcmatrix-00042-client",
      "server_ip": "198.18.0.2", "client_ip": "198.18.0.1", "offloads": "tso on gso on gro off",
      "early_retrans": "3", "segments": "nftables", "cgroup": "v2", "pin": "cpuset", "server_cpu": "1",
      "client_cpu": "0"}


def run_of(facts: dict, lanes: int = 1, kept: bool = True) -> dict:
    return {"setup": environment.setup_of(facts, lanes, kept)}


def test_the_shell_s_facts_are_read_and_stored_as_data(tmp_path):
    (tmp_path / "plan").mkdir()
    (tmp_path / "plan" / "setup.tsv").write_text("".join(f"{k}\t{v}\n" for k, v in ON.items()))
    facts = environment.read_setup(tmp_path)
    assert facts == ON
    stored = environment.setup_of(facts, 1, True)
    assert stored["network"] == {"netns": True, "reason": None, "server_netns": "rpcmatrix-00042",
                                 "client_netns": "rpcmatrix-00042-client", "server_ip": "198.18.0.2",
                                 "client_ip": "198.18.0.1", "client_tcp_tw_reuse": 1,
                                 "offloads_default": "tso on gso on gro off", "early_retrans": 3,
                                 "segments": "nftables"}
    assert stored["pinning"] == {"mode": "cpuset", "reason": None, "server_cpu": 1, "client_cpu": 0, "lanes": 1}
    assert stored["cgroup"] == {"kind": "v2"} and stored["processes"] == {"kept": True}
    run = tmp_path / "run"
    run.mkdir()
    env = environment.write_env(run, tmp_path, {"name": "smoke"}, stored)
    assert env["run"]["setup"] == stored and "wire" not in env["run"] and "pin" not in env["run"]
    assert "tcp_congestion_control" in env["run"]["network"] and "available" in env["run"]["steal"]
    assert json.loads((run / "env.json").read_text())["run"]["setup"] == stored


def test_the_report_says_in_words_how_bytes_cpu_and_pinning_were_measured():
    run = run_of(ON)
    assert setup.wire(run).startswith("server in network namespace rpcmatrix-00042 at 198.18.0.2, client in "
                                      "rpcmatrix-00042-client at 198.18.0.1 (tcp_tw_reuse=1) over a veth pair")
    assert "offloads at their defaults while timing (tso on gso on gro off), off while counting" in setup.wire(run)
    assert "tail loss probes off while counting" in setup.wire(run)
    assert "bare ACKs apart, from nftables counters" in setup.wire(run) and setup.wire_measured(run)
    assert setup.cpu(run).startswith("usage of a cgroup (v2) per side")
    assert setup.pin(run) == "server on CPU 1, client on CPU 0 (cpuset cgroups); the runner itself is not pinned"
    assert setup.processes(run).startswith("kept across cells")
    bare = run_of(ON | {"offloads": "", "early_retrans": "", "segments": "", "pin": "taskset"})
    assert "(ethtool missing)" in setup.wire(bare) and "no net.ipv4.tcp_early_retrans" in setup.wire(bare)
    assert "segments not told apart (no nftables)" in setup.wire(bare)
    assert setup.pin(bare).endswith("(taskset: no cpuset cgroup here); the runner itself is not pinned")


def test_what_was_not_set_up_says_why():
    run = run_of({"netns": "off", "netns_reason": "--no-netns", "pin_reason": "--no-pin"}, kept=False)
    assert setup.wire(run) == "not measured: --no-netns (client and server on 127.0.0.1)"
    assert not setup.wire_measured(run)
    assert setup.pin(run) == "not pinned: --no-pin"
    assert setup.cpu(run) == "not measured: no cgroup could be made for each side"
    assert setup.processes(run) == "a new server and client process for every cell (--fresh-processes)"
    lanes = run_of({"netns": "on"} | {k: ON[k] for k in ("server_netns", "client_netns", "server_ip", "client_ip")},
                   lanes=3)
    assert setup.pin(lanes) == "not pinned: 3 lanes of cells at once share the CPUs (the profile measures nothing)"


def test_a_run_made_before_keeps_its_own_sentences():
    old = {"wire": "not measured: --no-netns (client and server on 127.0.0.1)", "pin": "server on CPU 1, client on "
           "CPU 0 (cpuset cgroups)", "cpu_source": "usage of a cgroup (v2) per side", "processes": "kept across cells"}
    assert setup.wire(old) == old["wire"] and not setup.wire_measured(old)
    assert (setup.pin(old), setup.cpu(old), setup.processes(old)) == (old["pin"], old["cpu_source"], old["processes"])
    assert setup.wire({}) == "not recorded"
