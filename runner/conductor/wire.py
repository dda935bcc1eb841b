"""The counting pass's readings, as the shell captured them (runner/lib/netns.sh: wire_snapshot), turned into
counters: a snapshot is the kernel's own listings, each under a `## <what>` line, taken just before and just
after a workload's counted calls, and the difference of two snapshots is what those calls moved.

- `## dev`: the client's end of the veth pair in /proc/<client pid>/net/dev: Ethernet frames (bytes_c2s,
  bytes_s2c, packets_c2s, packets_s2c).
- `## nft c2s`, `## nft s2c`: the nftables counters of each direction where it is received, per TCP header length
  (doff), all segments and those whose IP length is just the headers: payload = IP bytes - (20 + 4 doff) per
  segment (no IP options here), segments with payload, segments without (bare ACKs, SYN, FIN).
- `## nft host`: with --server-host, both directions counted on the clients' host (runner/lib/netns.sh:
  host_segment_counters), as it sends and receives them with its offloads as they are: the payload and the bare
  ACKs as above; a counted segment may be several on the wire, so the segments carrying payload are left out.
- `## snmp client`, `## snmp server`: /proc/<pid>/net/snmp of each side: the TCP segments its namespace
  retransmitted (RetransSegs).
- `## ss c2s`, `## ss s2c`: `ss -tinHO state connected` in the clients' and the server's namespace: the bytes
  each connection retransmitted (tcp_info's bytes_retrans), under "<local> <peer>".
"""
import re
from pathlib import Path

WIRE_KEYS = ("bytes_c2s", "bytes_s2c", "packets_c2s", "packets_s2c")
SEGMENT_KEYS = ("payload_c2s", "payload_s2c", "data_segments_c2s", "data_segments_s2c", "empty_segments_c2s",
                "empty_segments_s2c")
RETRANSMIT_KEYS = ("retransmitted_c2s", "retransmitted_s2c")
NFT_COUNTER = re.compile(r'packets (\d+) bytes (\d+) comment "(c2s|s2c) (all|empty) (\d+)"')
ADDRESS = re.compile(r"^([0-9.]+|\[[0-9a-f:.]+\]):[0-9]+$")


def sections(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = out.setdefault(line[3:].strip(), [])
        elif current is not None:
            current.append(line)
    return out


def dev(lines: list[str]) -> dict | None:
    """The veth's counters as the client's end sees them (its line of /proc/<pid>/net/dev): what it transmits
    goes client to server."""
    for line in lines:
        _, found, rest = line.partition(":")
        if found:
            f = [int(x) for x in rest.split()]
            # receive: bytes packets errs drop fifo frame compressed multicast; then transmit: bytes packets ...
            return {"bytes_c2s": f[8], "bytes_s2c": f[0], "packets_c2s": f[9], "packets_s2c": f[1]}
    return None


def counter_rules(table: str, direction: str, hook: str, match: str) -> str:
    """The nftables ruleset (for `nft -f -`) of one direction's counters: a chain of TABLE on HOOK that counts,
    per TCP header length (doff), the segments MATCH selects and those whose IP length is just the headers."""
    rules = [f"table ip {table} {{",
             f"  chain {direction} {{ type filter hook {hook} priority filter; policy accept; }}", "}"]
    for doff in range(5, 16):
        rule = f"add rule ip {table} {direction} {match} tcp doff {doff}"
        rules += [f'{rule} ip length {20 + 4 * doff} counter comment "{direction} empty {doff}"',
                  f'{rule} counter comment "{direction} all {doff}"']
    return "\n".join(rules) + "\n"


def segments(lines: list[str], wire_sized: bool = True) -> dict | None:
    """Payload, segments with payload and segments without, per direction, from the nftables counters' lines;
    None when either direction has none (no nftables). Without wire-sized segments (counted before segmentation
    offload splits them, after receive offload merges them) the payload and the bare ACKs alone."""
    payload, data, empty, seen = {}, {}, {}, set()
    for line in lines:
        m = NFT_COUNTER.search(line)
        if not m:
            continue
        packets, size, d, kind, doff = int(m[1]), int(m[2]), m[3], m[4], int(m[5])
        seen.add(d)
        if kind == "all":
            payload[d] = payload.get(d, 0) + size - packets * (20 + 4 * doff)
            data[d] = data.get(d, 0) + packets
        else:
            data[d] = data.get(d, 0) - packets
            empty[d] = empty.get(d, 0) + packets
    if seen != {"c2s", "s2c"}:
        return None
    return {f"payload_{d}": payload.get(d, 0) for d in ("c2s", "s2c")} | \
        ({f"data_segments_{d}": data.get(d, 0) for d in ("c2s", "s2c")} if wire_sized else {}) | \
        {f"empty_segments_{d}": empty.get(d, 0) for d in ("c2s", "s2c")}


def retransmitted(snmp_client: list[str], snmp_server: list[str]) -> dict | None:
    """The TCP segments each side's namespace has retransmitted so far (Tcp RetransSegs)."""
    out = {}
    for key, lines in (("retransmitted_c2s", snmp_client), ("retransmitted_s2c", snmp_server)):
        tcp = [line.split() for line in lines if line.startswith("Tcp:")]
        if len(tcp) < 2 or "RetransSegs" not in tcp[0]:
            return None
        out[key] = int(tcp[1][tcp[0].index("RetransSegs")])
    return out


def resent_bytes(listing: list[str]) -> dict[str, int]:
    """{"<local> <peer>": bytes_retrans} of every connection in ss's one-line listing that resent any. A socket
    of a dual-stack listener (Java's) shows its IPv4 addresses mapped: [::ffff:198.18.0.1]:8080."""
    out = {}
    for line in listing:
        fields = line.split()
        addresses = [f for f in fields if ADDRESS.match(f)][:2]
        resent = [int(f.split(":", 1)[1]) for f in fields if re.fullmatch(r"bytes_retrans:\d+", f)]
        if resent and resent[-1] > 0:
            out[" ".join(addresses)] = resent[-1]
    return out


def snapshot(text: str) -> dict:
    """One snapshot's counters: {before/after keys of the counting pass}, each None where not captured."""
    parts = sections(text)
    nft = [line for d in ("c2s", "s2c") for line in parts.get(f"nft {d}", [])]
    counted = segments(nft) if nft else segments(parts["nft host"], wire_sized=False) if "nft host" in parts else None
    resent = None
    if "ss c2s" in parts and "ss s2c" in parts:
        resent = {"c2s": resent_bytes(parts["ss c2s"]), "s2c": resent_bytes(parts["ss s2c"])}
    return {"wire": dev(parts.get("dev", [])), "segments": counted,
            "retransmitted": retransmitted(parts.get("snmp client", []), parts.get("snmp server", [])),
            "resent": resent}


def read_snapshot(path: Path) -> dict:
    return snapshot(path.read_text(encoding="utf-8", errors="replace")) if path.exists() else {}
