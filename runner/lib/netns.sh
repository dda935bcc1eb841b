#!/usr/bin/env bash
# Puts servers and clients in two network namespaces joined by a veth pair, so every byte and packet between
# client and server crosses one interface whose counters the runner reads. Timed calls run with the segmentation
# offloads at their defaults, as on a production host; bytes and packets are counted in a separate short pass
# with the offloads off, so that a packet is a real MTU-sized packet. Addresses come from 198.18.0.0/15, the range
# reserved for benchmarking.
# The clients' namespace reuses ports in TIME_WAIT for new connections (tcp_tw_reuse=1): a stack that opens a
# connection per call would otherwise leave tens of thousands of them, after which each connect() spends about a
# millisecond of CPU searching the ephemeral ports (and fails once all are held), so its figures would depend on
# the calls made before.

# The run's pair (netns_create), empty without one.
NS_SERVER="" NS_CLIENT="" IF_SERVER="" IF_CLIENT="" IP_SERVER="" IP_CLIENT=""
# What the pair had when made, restored after each counting pass: the offloads (ethtool -K arguments, empty
# without ethtool) and TCP's tail loss probes (net.ipv4.tcp_early_retrans, empty where the kernel has none);
# and whether the nftables segment counters are there.
OFFLOAD_DEFAULTS="" EARLY_RETRANS="" NFT_COUNTERS=0
# --server-host's counters in this host's namespace (host_segment_counters), empty otherwise.
WIRE_TABLE=""

# pick_subnet: a free /30 of 198.18.0.0/15 from the run's PID, skipping any the host itself uses (both ends live
# in the run's own namespaces, so parallel runs cannot clash): "CLIENT_IP SERVER_IP".
pick_subnet() {
  local n=$(($$ % 32768)) tries=0 a b client used
  used=$(ip -o -4 addr show)
  while ((tries < 64)); do
    a=$((18 + (n * 4) / 65536))
    b=$(((n * 4) % 65536))
    client="198.$a.$((b / 256)).$((b % 256 + 1))"
    if [[ "$used" != *" $client/"* ]]; then
      printf '%s %s\n' "$client" "198.$a.$((b / 256)).$((b % 256 + 2))"
      return 0
    fi
    n=$(((n + 1) % 32768))
    tries=$((tries + 1))
  done
  return 1
}

# netns_create TAG LOG: the two namespaces and the veth pair; on failure nothing is left (why is in LOG).
netns_create() {
  local tag="$1" log="$2" subnet
  subnet=$(pick_subnet) || {
    printf 'no free /30 in 198.18.0.0/15\n' >>"$log"
    return 1
  }
  read -r IP_CLIENT IP_SERVER <<<"$subnet"
  NS_SERVER="rpcmatrix-$tag" NS_CLIENT="rpcmatrix-$tag-client" IF_CLIENT="rpcm${tag}c" IF_SERVER="rpcm${tag}s"
  if ! {
    ip netns add "$NS_SERVER" && ip netns add "$NS_CLIENT" &&
      ip link add "$IF_CLIENT" netns "$NS_CLIENT" type veth peer name "$IF_SERVER" netns "$NS_SERVER" &&
      ip -n "$NS_CLIENT" addr add "$IP_CLIENT/30" dev "$IF_CLIENT" && ip -n "$NS_CLIENT" link set "$IF_CLIENT" up &&
      ip -n "$NS_CLIENT" link set lo up && ip -n "$NS_SERVER" addr add "$IP_SERVER/30" dev "$IF_SERVER" &&
      ip -n "$NS_SERVER" link set "$IF_SERVER" up && ip -n "$NS_SERVER" link set lo up &&
      ip netns exec "$NS_CLIENT" sysctl -qw net.ipv4.tcp_tw_reuse=1
  } 2>>"$log"; then
    netns_destroy
    return 1
  fi
  netns_quiet_links
  netns_segment_counters "$log"
}

# Nothing but the benchmark's own traffic on the pair: no IPv6 autoconfiguration chatter, no ARP (static
# neighbours); and what the counting pass switches and restores.
netns_quiet_links() {
  local client_mac server_mac
  ip netns exec "$NS_CLIENT" sysctl -qw "net.ipv6.conf.$IF_CLIENT.disable_ipv6=1" 2>/dev/null || true
  ip netns exec "$NS_SERVER" sysctl -qw "net.ipv6.conf.$IF_SERVER.disable_ipv6=1" 2>/dev/null || true
  client_mac=$(ip netns exec "$NS_CLIENT" cat "/sys/class/net/$IF_CLIENT/address")
  server_mac=$(ip netns exec "$NS_SERVER" cat "/sys/class/net/$IF_SERVER/address")
  ip -n "$NS_CLIENT" neigh replace "$IP_SERVER" lladdr "$server_mac" dev "$IF_CLIENT" nud permanent 2>/dev/null || true
  ip -n "$NS_SERVER" neigh replace "$IP_CLIENT" lladdr "$client_mac" dev "$IF_SERVER" nud permanent 2>/dev/null || true
  EARLY_RETRANS=$(ip netns exec "$NS_SERVER" sysctl -n net.ipv4.tcp_early_retrans 2>/dev/null) || EARLY_RETRANS=""
  if command -v ethtool >/dev/null; then
    # tso, gso and gro of the client's end as ethtool -K arguments ("tso on gso on gro off")
    OFFLOAD_DEFAULTS=$(ip netns exec "$NS_CLIENT" ethtool -k "$IF_CLIENT" 2>/dev/null | awk '
      $1 == "tcp-segmentation-offload:" { t = $2 } $1 == "generic-segmentation-offload:" { g = $2 }
      $1 == "generic-receive-offload:" { r = $2 } END { printf "tso %s gso %s gro %s", t, g, r }')
  fi
}

# Counters that tell the segments carrying the protocol's bytes from those carrying none (bare ACKs, and the SYN
# and FIN of connections): how many ACKs ride alone depends on how fast calls follow each other (delayed ACK), so
# veth byte counts move with timing while the payload does not. A table per namespace counts, per TCP header
# length (doff), every segment and those whose IP length is just the headers (conductor/wire.py subtracts).
# Each direction is counted where it is received (c2s in the server's namespace, s2c in the clients'): the
# sender's hooks see TCP's segments before the software GSO splits them into wire-sized ones, the receiver's
# (GRO off while counting) see those.
netns_segment_counters() {
  command -v nft >/dev/null || return 0
  NFT_COUNTERS=1
  "$PYTHON" -m conductor wire-rules rpcmatrix_wire c2s input "iifname \"$IF_SERVER\"" |
    ip netns exec "$NS_SERVER" nft -f - 2>>"$1" || NFT_COUNTERS=0
  "$PYTHON" -m conductor wire-rules rpcmatrix_wire s2c input "iifname \"$IF_CLIENT\"" |
    ip netns exec "$NS_CLIENT" nft -f - 2>>"$1" || NFT_COUNTERS=0
}

# host_segment_counters TAG LOG SSH_PORT: --server-host's counters, in this host's own namespace (the clients'): what
# goes to and comes from the servers' address but its SSH port, as this host sends and receives it. Its offloads
# stay as they are (a real interface of the user's), so a counted segment may be several on the wire: the payload
# is exact, the segments carrying it are not (conductor/wire.py keeps the payload and the bare ACKs).
host_segment_counters() {
  command -v nft >/dev/null || return 1
  WIRE_TABLE="rpcmatrix_wire_$1"
  "$PYTHON" -m conductor wire-rules "$WIRE_TABLE" c2s output "ip daddr $IP_SERVER tcp dport != $3" | nft -f - 2>>"$2" &&
    "$PYTHON" -m conductor wire-rules "$WIRE_TABLE" s2c input "ip saddr $IP_SERVER tcp sport != $3" | nft -f - 2>>"$2" &&
    NFT_COUNTERS=1
}

# wire_snapshot CLIENT_PID SERVER_PID: the kernel's own listings of what the pair has carried so far, each under a
# "## <what>" line (conductor/wire.py reads them): the client's veth, the segment counters, each side's TCP
# retransmissions and each connection's resent bytes (--server-host: this host's counters of the servers' address).
wire_snapshot() {
  local line
  if [[ -n "$WIRE_TABLE" ]]; then
    printf '## nft host\n'
    nft list table ip "$WIRE_TABLE" 2>/dev/null || true
    return
  fi
  printf '## dev\n'
  while IFS= read -r line; do
    if [[ "$line" =~ ^[[:space:]]*"$IF_CLIENT": ]]; then printf '%s\n' "$line"; fi
  done 2>/dev/null <"/proc/$1/net/dev" || true
  if ((NFT_COUNTERS)); then
    printf '## nft c2s\n'
    ip netns exec "$NS_SERVER" nft list table ip rpcmatrix_wire 2>/dev/null || true
    printf '## nft s2c\n'
    ip netns exec "$NS_CLIENT" nft list table ip rpcmatrix_wire 2>/dev/null || true
  fi
  printf '## snmp client\n'
  cat "/proc/$1/net/snmp" 2>/dev/null || true
  printf '## snmp server\n'
  cat "/proc/$2/net/snmp" 2>/dev/null || true
  printf '## ss c2s\n'
  ip netns exec "$NS_CLIENT" ss -tinHO state connected 2>/dev/null || true
  printf '## ss s2c\n'
  ip netns exec "$NS_SERVER" ss -tinHO state connected 2>/dev/null || true
}

# netns_offloads off|default: segmentation offloads off on both ends (to count wire-sized packets), or back to
# what the pair had when it was made. Fails when ethtool cannot do it.
netns_offloads() {
  local -a settings
  [[ -n "$NS_SERVER" && -n "$OFFLOAD_DEFAULTS" ]] || return 1
  if [[ "$1" == off ]]; then settings=(tso off gso off gro off); else read -r -a settings <<<"$OFFLOAD_DEFAULTS"; fi
  ip netns exec "$NS_CLIENT" ethtool -K "$IF_CLIENT" "${settings[@]}" >/dev/null 2>&1 &&
    ip netns exec "$NS_SERVER" ethtool -K "$IF_SERVER" "${settings[@]}" >/dev/null 2>&1
}

# netns_loss_probes off|default: TCP's tail loss probe off in both namespaces while counting, or back to what they
# had. A probe resends the last segment of a burst whose ACK is late; where the peer's vCPU waits on the
# hypervisor, the server of one default jsonrpc/java→python cell sent 34 such probes for 1 MiB answers the client
# already had, and the bytes counted per call moved by 4.7% between two runs. A kernel without the setting keeps
# its probes, as env.json says.
netns_loss_probes() {
  local value="$EARLY_RETRANS"
  [[ -n "$EARLY_RETRANS" ]] || return 0
  if [[ "$1" == off ]]; then value=0; fi
  ip netns exec "$NS_SERVER" sysctl -qw "net.ipv4.tcp_early_retrans=$value" >/dev/null 2>&1 &&
    ip netns exec "$NS_CLIENT" sysctl -qw "net.ipv4.tcp_early_retrans=$value" >/dev/null 2>&1
}

# netns_prefix server|client: the argv prefix (one word a line) that runs a command in that side's namespace.
netns_prefix() {
  local ns="$NS_CLIENT"
  if [[ "$1" == server ]]; then ns="$NS_SERVER"; fi
  if [[ -n "$ns" ]]; then printf '%s\n' ip netns exec "$ns"; fi
}

# netns_destroy: removes the run's namespaces (and with them the pair).
netns_destroy() {
  local ns
  for ns in "$NS_SERVER" "$NS_CLIENT"; do
    if [[ -n "$ns" ]]; then ip netns del "$ns" 2>/dev/null || true; fi
  done
  if [[ -n "$WIRE_TABLE" ]]; then nft delete table ip "$WIRE_TABLE" 2>/dev/null || true; fi
  NS_SERVER="" NS_CLIENT="" IF_SERVER="" IF_CLIENT="" IP_SERVER="" IP_CLIENT="" NFT_COUNTERS=0 EARLY_RETRANS=""
  WIRE_TABLE=""
}
