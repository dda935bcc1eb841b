"""The counting pass's snapshots read back (conductor/wire.py): the kernel's own listings as the shell captured
them, including the forms that broke hand-written parsers (a dual-stack listener's mapped addresses, counters past
2^31 bytes, no nftables)."""
from conductor import wire

DEV = "rpcm00001c:   18715     245    0    0    0     0          0         0    19451     255    0 0 0 0 0 0"
TCP = ("Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs "
       "OutSegs RetransSegs InErrs OutRsts InCsumErrors")
SNAPSHOT = """## dev
DEV
## nft c2s
table ip rpcmatrix_wire {
	chain c2s {
		tcp doff 8 ip length 52 counter packets 400000 bytes 20800000 comment "c2s empty 8"
		tcp doff 8 counter packets 1000000 bytes 5000000000 comment "c2s all 8"
	}
}
## nft s2c
table ip rpcmatrix_wire {
	chain s2c {
		tcp doff 8 ip length 52 counter packets 3 bytes 156 comment "s2c empty 8"
		tcp doff 8 counter packets 4000000 bytes 9000000000 comment "s2c all 8"
	}
}
## snmp client
TCP
Tcp: 1 200 120000 -1 4 0 0 0 1 261 251 7 0 0 0
## snmp server
TCP
Tcp: 1 200 120000 -1 0 4 0 0 1 261 251 2 0 0 0
## ss c2s
## ss s2c
ESTAB 0 0 198.18.0.1:8080 198.18.0.2:40000 cubic wscale:7,7 rto:204 bytes_sent:900 bytes_retrans:1448 bytes_acked:900
ESTAB 0 0 [::ffff:198.18.0.1]:8081 [::ffff:198.18.0.2]:40001 bbr wscale:10,10 rto:204 bytes_retrans:31856 segs_in:2
ESTAB 0 0 [::ffff:198.18.0.1]:8081 [::ffff:198.18.0.2]:40002 bbr wscale:10,10 rto:204 segs_in:2
""".replace("DEV", DEV).replace("TCP\n", TCP + "\n")


def test_a_snapshot_is_read_into_the_counting_pass_counters():
    counted = wire.snapshot(SNAPSHOT)
    # the client's end transmits client to server
    assert counted["wire"] == {"bytes_c2s": 19451, "bytes_s2c": 18715, "packets_c2s": 255, "packets_s2c": 245}
    assert counted["retransmitted"] == {"retransmitted_c2s": 7, "retransmitted_s2c": 2}


def test_the_counters_run_for_the_whole_run_sums_past_2_31_bytes_stay_exact():
    # 5,000,000,000 bytes in 1,000,000 segments of doff 8 (52 bytes of headers each), of which 400,000 bare
    assert wire.snapshot(SNAPSHOT)["segments"] == {
        "payload_c2s": 4948000000, "payload_s2c": 8792000000, "data_segments_c2s": 600000,
        "data_segments_s2c": 3999997, "empty_segments_c2s": 400000, "empty_segments_s2c": 3}


def test_each_connections_resent_bytes_under_its_own_addresses_a_dual_stack_listeners_mapped_ones_too():
    # ss -tinHO as it lists a Python server's socket and a Java server's (an IPv6 socket, IPv4 peers mapped); a
    # connection that resent nothing is left out
    assert wire.snapshot(SNAPSHOT)["resent"] == {"c2s": {}, "s2c": {
        "198.18.0.1:8080 198.18.0.2:40000": 1448, "[::ffff:198.18.0.1]:8081 [::ffff:198.18.0.2]:40001": 31856}}


def test_without_nftables_the_counters_say_nothing_rather_than_zero():
    without = "\n".join(line for line in SNAPSHOT.splitlines() if "rpcmatrix_wire" not in line and "nft" not in line
                        and "counter" not in line)
    assert wire.snapshot(without)["segments"] is None
    assert wire.snapshot("")["wire"] is None


def test_counted_on_the_clients_host_the_payload_and_bare_acks_alone():
    # --server-host: one table of both directions, on this host's output and input hooks, offloads as they are:
    # a GSO segment of 3 wire segments counts once with one header, so the payload is exact and the segment
    # count is not (left out)
    host = """## nft host
table ip rpcmatrix_wire_01234 {
	chain c2s {
		ip daddr 198.18.7.2 tcp dport != 22 tcp doff 8 ip length 52 counter packets 2 bytes 104 comment "c2s empty 8"
		ip daddr 198.18.7.2 tcp dport != 22 tcp doff 8 counter packets 3 bytes 4500 comment "c2s all 8"
	}
	chain s2c {
		ip saddr 198.18.7.2 tcp sport != 22 tcp doff 8 ip length 52 counter packets 1 bytes 52 comment "s2c empty 8"
		ip saddr 198.18.7.2 tcp sport != 22 tcp doff 8 counter packets 2 bytes 152 comment "s2c all 8"
	}
}
"""
    counted = wire.snapshot(host)
    assert counted["segments"] == {"payload_c2s": 4500 - 3 * 52, "payload_s2c": 152 - 2 * 52,
                                   "empty_segments_c2s": 2, "empty_segments_s2c": 1}
    assert counted["wire"] is None and counted["retransmitted"] is None and counted["resent"] is None


def test_the_counter_rules_count_each_header_length_all_and_bare():
    rules = wire.counter_rules("rpcmatrix_wire_7", "c2s", "output", "ip daddr 198.18.0.2 tcp dport != 22")
    assert rules.startswith("table ip rpcmatrix_wire_7 {\n  chain c2s { type filter hook output priority filter;")
    assert ('add rule ip rpcmatrix_wire_7 c2s ip daddr 198.18.0.2 tcp dport != 22 tcp doff 5 ip length 40 counter '
            'comment "c2s empty 5"') in rules.splitlines()
    assert sum(line.endswith(' all 15"') for line in rules.splitlines()) == 1
    assert len([line for line in rules.splitlines() if line.startswith("add rule")]) == 22
