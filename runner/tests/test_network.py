"""--network: the scenarios and custom specs, their validation, what the shell is told to apply, and the self-test's
tolerances and refusal (runner/conductor/network.py)."""
import json

import pytest

from conductor import network, options


def test_named_scenarios_resolve_with_a_reason_each():
    for name, entry in network.scenarios().items():
        resolved = network.resolve(name)
        assert resolved["name"] == name and entry["why"]
    assert not network.shaped(network.resolve("loopback"))
    wan = network.resolve("wan")
    assert wan["c2s"] == wan["s2c"] == {"delay_us": 15000, "rate_bit": 20_000_000, "loss": pytest.approx(0.001)}
    assert network.resolve("lan")["c2s"] == {"delay_us": 100, "rate_bit": 10**9, "loss": 0.0}


def test_custom_spec_with_per_direction_keys_over_the_shared_ones():
    n = network.resolve("s2c.rate=1gbit,delay=15ms,rate=20mbit,c2s.delay=500us,loss=0.1%")
    assert n["name"] == "custom" and n["spec"].startswith("s2c.rate")
    assert n["c2s"] == {"delay_us": 500, "rate_bit": 20_000_000, "loss": pytest.approx(0.001)}
    assert n["s2c"] == {"delay_us": 15000, "rate_bit": 10**9, "loss": pytest.approx(0.001)}
    assert network.resolve("delay=1.5s")["c2s"]["delay_us"] == 1_500_000


@pytest.mark.parametrize("text, message", [
    ("lab", "unknown network 'lab'; known: loopback, lan, lan100, lan10, wan"),
    ("delay=15", "delay=15: a number with one of the units us, ms, s"),
    ("rate=20mbps", "rate=20mbps: a number with one of the units bit, kbit, mbit, gbit"),
    ("loss=0.1", "loss=0.1: a number with one of the units %"),
    ("jitter=1ms", "unknown key 'jitter'"),
    ("up.delay=1ms", "unknown key 'up.delay'"),
    ("loss=100%", "loss=100%: below 100%"),
])
def test_bad_names_and_units_are_refused_clearly(text, message):
    with pytest.raises(network.NetworkError, match=message.replace("(", r"\(").replace(")", r"\)")):
        network.resolve(text)


def test_options_refuse_a_shaped_network_without_namespaces():
    with pytest.raises(options.OptionError, match="--network lan is applied between the run's network namespaces: "
                                                  "not with --no-netns"):
        options.parse(["--network", "lan", "--no-netns"])
    with pytest.raises(options.OptionError, match="--network: unknown network 'lab'"):
        options.parse(["--network", "lab"])
    o, _ = options.parse(["--no-netns"])  # loopback, the default, needs nothing
    assert o.network["name"] == "loopback"


def test_shell_plan_gives_each_direction_and_bounded_self_test_sizes():
    lines = network.shell_plan(network.resolve("delay=15ms,rate=20mbit,loss=0.1%,s2c.loss=0%")).splitlines()
    assert lines[0].split("\t") == ["c2s", "15000", "20000000", "0.001", "3028"]
    assert lines[1].split("\t") == ["s2c", "15000", "20000000", "0", "3028"]
    floor = lines[2].split("\t")[1].split()
    assert floor[0] == "16" and floor[1] == "32"  # about a second of 30 ms round trips
    assert lines[3].split("\t") == ["sizes", str(20_000_000 // 8 * 2), "6", "2"]
    assert network.shell_plan(network.resolve("rate=1gbit")).splitlines()[0].endswith("\t125000")


def _run(tmp_path, spec, bare_us=15.0, shaped_us=None, rate=None, loss=None):
    (tmp_path / "plan").mkdir(parents=True)
    n = network.resolve(spec)
    network.write_plan(tmp_path, n)
    folder = tmp_path / "network"
    asked = sum(n[d]["delay_us"] for d in network.DIRECTIONS)
    for name, us in (("bare", bare_us), ("shaped", shaped_us if shaped_us is not None else bare_us + asked)):
        (folder / name).mkdir(parents=True)
        (folder / name / "ping.samples.json").write_text(json.dumps({"samples_ns": [[us * 1000] * 5]}))
    for d in network.DIRECTIONS:
        if rate is not None:
            # payload at `rate` of frames: 1448 of every 1514 bytes
            (folder / f"rate-{d}.json").write_text(json.dumps(
                {"bytes": int(rate / 8 * 1448 / 1514), "seconds": 1.0, "total": 0, "mss": 1448, "mtu": 1500}))
        if loss is not None:
            dropped, passed = loss
            (folder / f"loss-{d}.txt").write_text(
                "Chain PREROUTING (policy ACCEPT 0 packets, 0 bytes)\n    pkts      bytes target     prot opt in out\n"
                f"  {dropped}  100 DROP       0    --  v   *  0.0.0.0/0  0.0.0.0/0  statistic mode random probability "
                f"0.001\n  {passed}  100            0    --  v   *  0.0.0.0/0  0.0.0.0/0  /* rpcmatrix-passed */\n"
                "  5  100 NFQUEUE    0    --  v   *  0.0.0.0/0  0.0.0.0/0  NFQUEUE num 0\n")
    return tmp_path


def test_a_scenario_within_its_tolerances_is_accepted_and_its_figures_kept(tmp_path):
    run = _run(tmp_path, "wan", shaped_us=15 + 30_000 + 1_400, rate=19_100_000, loss=(130, 100_000))
    checked = network.check(run)
    assert checked["accepted"], checked["checks"]
    assert [c["what"] for c in checked["checks"]] == ["delay (both ways)", "rate c2s", "loss c2s", "rate s2c",
                                                       "loss s2c"]
    assert checked["measured"]["delay_us"] == pytest.approx(31_400)
    assert checked["measured"]["rate_bit_c2s"] == pytest.approx(19_100_000, rel=1e-4)
    # records carry the scenario as asked and measured
    carried = network.of_run(run)
    assert carried["name"] == "wan" and carried["asked"]["c2s"]["rate_bit"] == 20_000_000
    assert carried["measured"]["loss_packets_s2c"] == 100_130
    assert checked["checks"][1]["text"] == "rate c2s: 19.10 Mbit/s, asked 20.00 Mbit/s ± 1.00 Mbit/s (ok)"


def test_delay_tolerance_is_the_larger_of_a_fifth_of_a_millisecond_and_five_percent(tmp_path):
    assert network.delay_tolerance_us(200) == 200 and network.delay_tolerance_us(30_000) == 1_500
    assert network.check(_run(tmp_path / "a", "lan", shaped_us=15 + 200 + 199, rate=1e9))["accepted"]
    refused = network.check(_run(tmp_path / "b", "lan", shaped_us=15 + 200 + 201, rate=1e9))
    assert not refused["accepted"]
    assert refused["checks"][0]["text"] == "delay (both ways): 0.401 ms, asked 0.200 ms ± 0.200 ms (MISSED)"


def test_rate_and_loss_outside_their_tolerances_are_refused(tmp_path):
    slow = network.check(_run(tmp_path / "a", "lan100", rate=94_000_000))
    assert not slow["accepted"] and [c["ok"] for c in slow["checks"]] == [True, False, False]
    unmeasured = network.check(_run(tmp_path / "b", "lan10"))  # no transfer figures at all
    assert not unmeasured["accepted"] and "not measured" in unmeasured["checks"][1]["text"]
    # 0.1% of 100 000 packets: 100 ± 33 (3.29 binomial standard deviations, wider than 5%)
    assert network.loss_tolerance(0.001, 100_000) == pytest.approx(32.9, abs=0.1)
    assert network.check(_run(tmp_path / "c", "wan", rate=20e6, loss=(132, 100_000)))["accepted"]
    assert not network.check(_run(tmp_path / "d", "wan", rate=20e6, loss=(0, 100_000)))["accepted"]
    # too few packets to tell: refused, however many were dropped
    assert not network.check(_run(tmp_path / "e", "wan", rate=20e6, loss=(1, 999)))["accepted"]


def test_the_floor_over_a_delay_is_bounded_in_time():
    juric = {"floor": True, "small": {"warmup": 1000, "calls": 1000, "repetitions": 12, "min_ms": 0}}
    assert options.floor_counts(juric)["floor"] == "10000 1000 0 1000 12"
    wan = network.resolve("wan")
    warmup, calls, _, max_calls, reps = map(int, options.floor_counts(juric, network.asked_delay_us(wan))["floor"]
                                             .split())
    # 30 ms of round trip: at most FLOOR_DELAY_BUDGET_S of them, the repetitions kept, never under 20 calls each
    assert reps == 12 and calls >= 20 and max_calls == calls
    assert (warmup + calls * reps) * 0.030 <= options.FLOOR_DELAY_BUDGET_S + 20 * 12 * 0.030
    lan = network.resolve("lan")  # 0.2 ms: 22,000 round trips are 4.4 s, under the budget: as they were
    assert options.floor_counts(juric, network.asked_delay_us(lan))["floor"] == "10000 1000 0 1000 12"
