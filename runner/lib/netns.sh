#!/usr/bin/env bash
# Puts servers and clients in two network namespaces joined by a veth pair, so every byte and packet between
# client and server crosses one interface whose counters the runner reads: Ethernet frames as the kernel
# counts them (14-byte Ethernet header + IP + TCP + payload). Timed calls run with the segmentation
# offloads at their defaults, as on a production host; bytes and packets are counted in a separate short
# pass with the offloads off, so that a packet is a real MTU-sized packet. Addresses come from
# 198.18.0.0/15, the range reserved for benchmarking.
# The clients' namespace reuses ports in TIME_WAIT for new connections (tcp_tw_reuse=1): a stack that
# opens a connection per call would otherwise leave tens of thousands of them, after which each connect()
# spends about a millisecond of CPU searching the ephemeral ports (and fails once all are held), so its
# figures would depend on the calls made before.

NETNS_NAME=""
NETNS_CLIENT_NAME=""
NETNS_HOST_IF=""
NETNS_SERVER_IP=""
NETNS_CLIENT_IP=""
NETNS_NOTE=""
NETNS_PEER_IF=""
NETNS_OFFLOAD_DEFAULTS=""
NETNS_EARLY_RETRANS=""
NETNS_OFFLOADS=""
NETNS_SEGMENTS=""

# Why namespaces cannot be used here, or nothing when they can.
netns_unavailable_reason() {
  if ((EUID != 0)); then
    echo "not root: network namespaces need root"
  elif ! command -v ip >/dev/null; then
    echo "iproute2 ('ip') is not installed"
  fi
}

# A /30 in 198.18.0.0/15 picked from the run's PID, skipping any the host itself uses (both ends live in
# the run's own namespaces, so parallel runs cannot clash).
pick_subnet() {
  local n=$(($$ % 32768)) tries=0 a b
  while ((tries < 64)); do
    a=$((18 + (n * 4) / 65536))
    b=$(((n * 4) % 65536))
    NETNS_CLIENT_IP="198.$a.$((b / 256)).$((b % 256 + 1))"
    NETNS_SERVER_IP="198.$a.$((b / 256)).$((b % 256 + 2))"
    if ! ip -o -4 addr show | grep -qF " ${NETNS_CLIENT_IP}/"; then
      return 0
    fi
    n=$(((n + 1) % 32768))
    tries=$((tries + 1))
  done
  return 1
}

# Creates the two namespaces and the veth pair. On failure leaves nothing behind and sets NETNS_NOTE.
netns_create() {
  local tag="$1"
  local peer="rpcm${tag}s"
  NETNS_NAME="rpcmatrix-$tag"
  NETNS_CLIENT_NAME="rpcmatrix-$tag-client"
  NETNS_HOST_IF="rpcm${tag}c"
  if ! pick_subnet; then
    NETNS_NOTE="no free /30 in 198.18.0.0/15"
    NETNS_NAME="" NETNS_CLIENT_NAME=""
    return 1
  fi
  if ! {
    ip netns add "$NETNS_NAME" &&
      ip netns add "$NETNS_CLIENT_NAME" &&
      ip link add "$NETNS_HOST_IF" netns "$NETNS_CLIENT_NAME" type veth peer name "$peer" netns "$NETNS_NAME" &&
      ip -n "$NETNS_CLIENT_NAME" addr add "$NETNS_CLIENT_IP/30" dev "$NETNS_HOST_IF" &&
      ip -n "$NETNS_CLIENT_NAME" link set "$NETNS_HOST_IF" up &&
      ip -n "$NETNS_CLIENT_NAME" link set lo up &&
      ip -n "$NETNS_NAME" addr add "$NETNS_SERVER_IP/30" dev "$peer" &&
      ip -n "$NETNS_NAME" link set "$peer" up &&
      ip -n "$NETNS_NAME" link set lo up &&
      ip netns exec "$NETNS_CLIENT_NAME" sysctl -qw net.ipv4.tcp_tw_reuse=1
  } 2>"${NETNS_LOG:-/dev/null}"; then
    NETNS_NOTE="could not create the network namespaces: $(tail -n 1 "${NETNS_LOG:-/dev/null}" 2>/dev/null)"
    netns_destroy
    return 1
  fi
  NETNS_PEER_IF="$peer"
  netns_quiet_links "$peer"
  netns_segment_counters
  NETNS_NOTE="server in network namespace $NETNS_NAME at $NETNS_SERVER_IP, client in $NETNS_CLIENT_NAME at $NETNS_CLIENT_IP (tcp_tw_reuse=1) over a veth pair"
}

# Nothing but the benchmark's own traffic on the pair: no IPv6 autoconfiguration chatter, no ARP
# (static neighbours), and no segmentation offloads so packet counters count wire-sized packets.
netns_quiet_links() {
  local peer="$1" host_mac peer_mac
  ip netns exec "$NETNS_CLIENT_NAME" sysctl -qw "net.ipv6.conf.$NETNS_HOST_IF.disable_ipv6=1" 2>/dev/null || true
  ip netns exec "$NETNS_NAME" sysctl -qw "net.ipv6.conf.$peer.disable_ipv6=1" 2>/dev/null || true
  host_mac=$(ip netns exec "$NETNS_CLIENT_NAME" cat "/sys/class/net/$NETNS_HOST_IF/address")
  peer_mac=$(ip netns exec "$NETNS_NAME" cat "/sys/class/net/$peer/address")
  ip -n "$NETNS_CLIENT_NAME" neigh replace "$NETNS_SERVER_IP" lladdr "$peer_mac" dev "$NETNS_HOST_IF" nud permanent 2>/dev/null || true
  ip -n "$NETNS_NAME" neigh replace "$NETNS_CLIENT_IP" lladdr "$host_mac" dev "$peer" nud permanent 2>/dev/null || true
  NETNS_EARLY_RETRANS=$(ip netns exec "$NETNS_NAME" sysctl -n net.ipv4.tcp_early_retrans 2>/dev/null || true)
  if command -v ethtool >/dev/null; then
    NETNS_OFFLOAD_DEFAULTS=$(netns_offload_state)
    NETNS_OFFLOADS="at their defaults while timing ($NETNS_OFFLOAD_DEFAULTS), off while counting"
  else
    NETNS_OFFLOADS="at their defaults (ethtool missing): packet counts may group segments"
  fi
}

# Counters that tell the segments carrying the protocol's bytes from those carrying none (bare ACKs, and the
# SYN and FIN of connections): how many ACKs ride alone depends on how fast calls follow each other (delayed
# ACK), so veth byte counts move with timing while the payload does not. An nftables table counts, per TCP
# header length (doff, 32-bit words), every segment and those whose IP length is just the headers; payload =
# IP bytes - (20 + 4 doff) per segment (no IP options here). Each direction is counted where it is received
# (c2s in the server's namespace, s2c in the clients'): the sender's hooks see TCP's segments before the
# software GSO splits them into wire-sized ones, the receiver's (GRO off while counting) see those.
netns_segment_counters() {
  local ns dir dev doff rules ok=1
  NETNS_SEGMENTS=""
  command -v nft >/dev/null || return 0
  for dir in c2s s2c; do
    if [[ "$dir" == c2s ]]; then ns="$NETNS_NAME" dev="$NETNS_PEER_IF"; else ns="$NETNS_CLIENT_NAME" dev="$NETNS_HOST_IF"; fi
    rules="table ip rpcmatrix_wire {
  chain $dir { type filter hook input priority filter; policy accept; }
}"
    for doff in {5..15}; do
      rules+="
add rule ip rpcmatrix_wire $dir iifname \"$dev\" tcp doff $doff ip length $((20 + 4 * doff)) counter comment \"$dir empty $doff\"
add rule ip rpcmatrix_wire $dir iifname \"$dev\" tcp doff $doff counter comment \"$dir all $doff\""
    done
    ip netns exec "$ns" nft -f - <<<"$rules" 2>>"${NETNS_LOG:-/dev/null}" || ok=0
  done
  if ((ok)); then
    NETNS_SEGMENTS="nftables counters where each direction is received"
  fi
}

# netns_segments VAR: VAR = "PAYLOAD_C2S PAYLOAD_S2C DATA_C2S DATA_S2C EMPTY_C2S EMPTY_S2C" (TCP payload bytes,
# segments with payload, segments without) from netns_segment_counters, or empty without them.
netns_segments() {
  printf -v "$1" '%s' ""
  [[ -n "$NETNS_SEGMENTS" ]] || return 0
  printf -v "$1" '%s' "$({
    ip netns exec "$NETNS_NAME" nft list table ip rpcmatrix_wire
    ip netns exec "$NETNS_CLIENT_NAME" nft list table ip rpcmatrix_wire
  } 2>/dev/null | netns_segments_sum)"
}

# netns_segments_sum: the six figures of netns_segments from nft's listing of the counters on stdin. The
# counters run for the whole run, past 2^31 bytes: "%.0f", since mawk's "%d" stops at 2147483647.
netns_segments_sum() {
  awk '
    match($0, /packets [0-9]+ bytes [0-9]+ comment "[a-z0-9]+ [a-z]+ [0-9]+"/) {
      split(substr($0, RSTART, RLENGTH), f, /[ "]+/)  # packets P bytes B comment DIR KIND DOFF
      p = f[2]; b = f[4]; dir = f[6]; kind = f[7]; head = 20 + 4 * f[8]
      if (kind == "all") { payload[dir] += b - p * head; data[dir] += p } else { data[dir] -= p; empty[dir] += p }
      seen[dir] = 1
    }
    END { if (seen["c2s"] && seen["s2c"]) printf "%.0f %.0f %.0f %.0f %.0f %.0f", payload["c2s"], payload["s2c"], data["c2s"], data["s2c"], empty["c2s"], empty["s2c"] }'
}

# tso, gso and gro of the client's end as ethtool -K arguments ("tso on gso on gro off").
netns_offload_state() {
  ip netns exec "$NETNS_CLIENT_NAME" ethtool -k "$NETNS_HOST_IF" 2>/dev/null | awk '
    $1 == "tcp-segmentation-offload:" { t = $2 } $1 == "generic-segmentation-offload:" { g = $2 }
    $1 == "generic-receive-offload:" { r = $2 } END { printf "tso %s gso %s gro %s", t, g, r }'
}

# netns_offloads off|default: segmentation offloads off on both ends (to count wire-sized packets), or back
# to what the pair had when it was made. Fails when ethtool cannot do it.
netns_offloads() {
  local -a settings
  [[ -n "$NETNS_NAME" && -n "$NETNS_OFFLOAD_DEFAULTS" ]] || return 1
  if [[ "$1" == off ]]; then
    settings=(tso off gso off gro off)
  else
    read -r -a settings <<<"$NETNS_OFFLOAD_DEFAULTS"
  fi
  ip netns exec "$NETNS_CLIENT_NAME" ethtool -K "$NETNS_HOST_IF" "${settings[@]}" >/dev/null 2>&1 &&
    ip netns exec "$NETNS_NAME" ethtool -K "$NETNS_PEER_IF" "${settings[@]}" >/dev/null 2>&1
}

# netns_loss_probes off|default: TCP's tail loss probe off in both namespaces (net.ipv4.tcp_early_retrans=0,
# a setting of each namespace), or back to what they had when made. A probe resends the last segment of a
# burst whose ACK is late; where the peer's vCPU waits on the hypervisor, the server of one default
# jsonrpc/java→python cell sent 34 such probes for 1 MiB answers the client already had (34 TCPLossProbes,
# 33 DSACKs back), and the bytes counted per call moved by 4.7% between two runs. Real losses on the pair are
# none; a late ACK then waits for the retransmission timeout (200 ms at least), which the counters show.
netns_loss_probes() {
  local value="$NETNS_EARLY_RETRANS"
  [[ -n "$NETNS_NAME" ]] || return 1
  # a kernel without the setting keeps its probes, as the run's wire note says (setup_network)
  [[ -n "$NETNS_EARLY_RETRANS" ]] || return 0
  if [[ "$1" == off ]]; then value=0; fi
  ip netns exec "$NETNS_NAME" sysctl -qw "net.ipv4.tcp_early_retrans=$value" >/dev/null 2>&1 &&
    ip netns exec "$NETNS_CLIENT_NAME" sysctl -qw "net.ipv4.tcp_early_retrans=$value" >/dev/null 2>&1
}

# netns_retransmitted VAR: VAR = "RETRANSMITTED_C2S RETRANSMITTED_S2C", the TCP segments the clients' and the
# server's namespaces have retransmitted so far (Tcp RetransSegs in /proc/PID/net/snmp of the client and of
# the server), or empty when either process is gone; builtins only.
netns_retransmitted() {
  local pid line header field i out=""
  local -a names values
  printf -v "$1" '%s' ""
  for pid in "$CLIENT_PID" "$SERVER_PID"; do
    header="" field=""
    while IFS= read -r line; do
      [[ "$line" == Tcp:* ]] || continue
      if [[ -z "$header" ]]; then header="$line" && continue; fi
      read -r -a names <<<"$header"
      read -r -a values <<<"$line"
      for i in "${!names[@]}"; do
        if [[ "${names[$i]}" == RetransSegs ]]; then field="${values[$i]}"; fi
      done
      break
    done 2>/dev/null <"/proc/$pid/net/snmp" || return 0
    [[ -n "$field" ]] || return 0
    out+="${out:+ }$field"
  done
  printf -v "$1" '%s' "$out"
}

# netns_resent VAR: VAR = the bytes each TCP connection has retransmitted so far, as JSON: {"c2s": {"<local>
# <peer>": bytes, ...}, "s2c": {...}}, from tcp_info's bytes_retrans (ss) of the sockets in the clients'
# namespace (what they sent: c2s) and in the server's (s2c); connections with none left out. The segment
# counters see a resent segment as often as it arrives, so the fold takes these bytes off their payload: what
# the protocol sent, whatever TCP had to send again. Empty when ss cannot be run.
netns_resent() {
  local c2s s2c
  printf -v "$1" '%s' ""
  c2s=$(ip netns exec "$NETNS_CLIENT_NAME" ss -tinHO state connected 2>/dev/null | netns_resent_json) || return 0
  s2c=$(ip netns exec "$NETNS_NAME" ss -tinHO state connected 2>/dev/null | netns_resent_json) || return 0
  printf -v "$1" '{"c2s": %s, "s2c": %s}' "$c2s" "$s2c"
}

# netns_resent_json: from ss's one-line listing on stdin, {"<local> <peer>": bytes_retrans, ...}. A socket of a
# dual-stack listener (Java's) shows its IPv4 addresses mapped: [::ffff:198.18.0.1]:8080.
netns_resent_json() {
  awk '
    { key = ""; n = 0
      for (i = 1; i <= NF; i++) {
        if ($i ~ /^([0-9.]+|\[[0-9a-f:.]+\]):[0-9]+$/ && split(key, parts, " ") < 2) key = key (key == "" ? "" : " ") $i
        if ($i ~ /^bytes_retrans:[0-9]+$/) n = substr($i, 15) + 0
      }
      if (n > 0) out = out (out == "" ? "" : ", ") sprintf("\"%s\": %.0f", key, n) }
    END { printf "{%s}", out }'
}

# Removes the namespaces (and with them the pair), and forgets their names and addresses, so that cells
# fall back to 127.0.0.1 when the namespaces could not be made.
netns_destroy() {
  local ns
  for ns in "$NETNS_NAME" "$NETNS_CLIENT_NAME"; do
    if [[ -n "$ns" ]]; then ip netns del "$ns" 2>/dev/null || true; fi
  done
  NETNS_NAME="" NETNS_CLIENT_NAME="" NETNS_HOST_IF="" NETNS_PEER_IF="" NETNS_SERVER_IP="" NETNS_CLIENT_IP=""
  NETNS_SEGMENTS="" NETNS_EARLY_RETRANS=""
}

# netns_wire VAR PID: VAR = "bytes_c2s bytes_s2c packets_c2s packets_s2c" as seen from the client's end,
# read from /proc/PID/net/dev of a process in the clients' namespace (empty when PID is gone); builtins
# only, so it can run between repetitions.
netns_wire() {
  local line
  local -a f
  printf -v "$1" '%s' ""
  while IFS= read -r line; do
    [[ "$line" =~ ^[[:space:]]*"$NETNS_HOST_IF": ]] || continue
    read -r -a f <<<"${line#*:}"
    # receive: bytes packets errs drop fifo frame compressed multicast; then transmit: bytes packets ...
    printf -v "$1" '%s %s %s %s' "${f[8]}" "${f[0]}" "${f[9]}" "${f[1]}"
    break
  done 2>/dev/null <"/proc/$2/net/dev" || true
}

# The TCP connections the server's namespace has accepted so far (its only listener is the server under
# test): a stack that reconnects instead of keeping its connection shows here.
netns_accepted() {
  # shellcheck disable=SC2016 # awk's fields, not the shell's
  ip netns exec "$NETNS_NAME" awk '$1 == "Tcp:" { if (!n++) { for (i = 2; i <= NF; i++) if ($i == "PassiveOpens") c = i } else print $c }' /proc/net/snmp
}

# The TCP sockets in TIME_WAIT in the clients' and in the server's namespace ("client server", from the
# /proc/PID/net/sockstat of the client and the server; null for a process that is gone): a stack that opens
# a connection per call leaves one per call for 60 s on the side that closed first.
netns_time_wait() {
  local client_pid="$1" server_pid="$2" client server
  # shellcheck disable=SC2016 # awk's fields, not the shell's
  local awk_tw='$1 == "TCP:" { for (i = 2; i < NF; i++) if ($i == "tw") print $(i + 1) }'
  client=$(awk "$awk_tw" "/proc/$client_pid/net/sockstat" 2>/dev/null) || client=""
  server=$(awk "$awk_tw" "/proc/$server_pid/net/sockstat" 2>/dev/null) || server=""
  printf '%s %s\n' "${client:-null}" "${server:-null}"
}

# netns_prefix server|client: the argv prefix (one word per line) that runs a command in that side's
# namespace; nothing when there are none.
netns_prefix() {
  local ns="$NETNS_NAME"
  if [[ "$1" == client ]]; then ns="$NETNS_CLIENT_NAME"; fi
  if [[ -n "$ns" ]]; then printf '%s\n' ip netns exec "$ns"; fi
}
