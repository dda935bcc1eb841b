#!/usr/bin/env bash
# Puts servers behind a veth pair in a network namespace of their own, so every byte and packet between
# client and server crosses one interface whose counters the runner reads: Ethernet frames as the kernel
# counts them (14-byte Ethernet header + IP + TCP + payload). Timed calls run with the segmentation
# offloads at their defaults, as on a production host; bytes and packets are counted in a separate short
# pass with the offloads off, so that a packet is a real MTU-sized packet. Addresses come from
# 198.18.0.0/15, the range reserved for benchmarking.

NETNS_NAME=""
NETNS_HOST_IF=""
NETNS_SERVER_IP=""
NETNS_CLIENT_IP=""
NETNS_NOTE=""
NETNS_PEER_IF=""
NETNS_OFFLOAD_DEFAULTS=""
NETNS_OFFLOADS=""

# Why namespaces cannot be used here, or nothing when they can.
netns_unavailable_reason() {
  if ((EUID != 0)); then
    echo "not root: network namespaces need root"
  elif ! command -v ip >/dev/null; then
    echo "iproute2 ('ip') is not installed"
  fi
}

# A free /30 in 198.18.0.0/15, picked from the run's PID so parallel runs do not collide.
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

# Creates the namespace and the veth pair. On failure leaves nothing behind and sets NETNS_NOTE.
netns_create() {
  local tag="$1"
  local peer="rpcm${tag}s"
  NETNS_NAME="rpcmatrix-$tag"
  NETNS_HOST_IF="rpcm${tag}c"
  if ! pick_subnet; then
    NETNS_NOTE="no free /30 in 198.18.0.0/15"
    NETNS_NAME=""
    return 1
  fi
  if ! {
    ip netns add "$NETNS_NAME" &&
      ip link add "$NETNS_HOST_IF" type veth peer name "$peer" &&
      ip link set "$peer" netns "$NETNS_NAME" &&
      ip addr add "$NETNS_CLIENT_IP/30" dev "$NETNS_HOST_IF" &&
      ip link set "$NETNS_HOST_IF" up &&
      ip -n "$NETNS_NAME" addr add "$NETNS_SERVER_IP/30" dev "$peer" &&
      ip -n "$NETNS_NAME" link set "$peer" up &&
      ip -n "$NETNS_NAME" link set lo up
  } 2>"${NETNS_LOG:-/dev/null}"; then
    NETNS_NOTE="could not create a network namespace: $(tail -n 1 "${NETNS_LOG:-/dev/null}" 2>/dev/null)"
    netns_destroy
    return 1
  fi
  NETNS_PEER_IF="$peer"
  netns_quiet_links "$peer"
  NETNS_NOTE="server in network namespace $NETNS_NAME at $NETNS_SERVER_IP, client at $NETNS_CLIENT_IP over a veth pair"
}

# Nothing but the benchmark's own traffic on the pair: no IPv6 autoconfiguration chatter, no ARP
# (static neighbours), and no segmentation offloads so packet counters count wire-sized packets.
netns_quiet_links() {
  local peer="$1" host_mac peer_mac
  sysctl -qw "net.ipv6.conf.$NETNS_HOST_IF.disable_ipv6=1" 2>/dev/null || true
  ip netns exec "$NETNS_NAME" sysctl -qw "net.ipv6.conf.$peer.disable_ipv6=1" 2>/dev/null || true
  host_mac=$(<"/sys/class/net/$NETNS_HOST_IF/address")
  peer_mac=$(ip netns exec "$NETNS_NAME" cat "/sys/class/net/$peer/address")
  ip neigh replace "$NETNS_SERVER_IP" lladdr "$peer_mac" dev "$NETNS_HOST_IF" nud permanent 2>/dev/null || true
  ip -n "$NETNS_NAME" neigh replace "$NETNS_CLIENT_IP" lladdr "$host_mac" dev "$peer" nud permanent 2>/dev/null || true
  if command -v ethtool >/dev/null; then
    NETNS_OFFLOAD_DEFAULTS=$(netns_offload_state)
    NETNS_OFFLOADS="at their defaults while timing ($NETNS_OFFLOAD_DEFAULTS), off while counting"
  else
    NETNS_OFFLOADS="at their defaults (ethtool missing): packet counts may group segments"
  fi
}

# tso, gso and gro of the client's end as ethtool -K arguments ("tso on gso on gro off").
netns_offload_state() {
  ethtool -k "$NETNS_HOST_IF" 2>/dev/null | awk '
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
  ethtool -K "$NETNS_HOST_IF" "${settings[@]}" >/dev/null 2>&1 &&
    ip netns exec "$NETNS_NAME" ethtool -K "$NETNS_PEER_IF" "${settings[@]}" >/dev/null 2>&1
}

# Removes the namespace and the pair, and forgets their names and addresses, so that cells fall back to
# 127.0.0.1 when the namespace could not be made.
netns_destroy() {
  if [[ -n "$NETNS_NAME" ]]; then
    ip netns del "$NETNS_NAME" 2>/dev/null || true
  fi
  if [[ -n "$NETNS_HOST_IF" ]]; then
    ip link del "$NETNS_HOST_IF" 2>/dev/null || true
  fi
  NETNS_NAME="" NETNS_HOST_IF="" NETNS_PEER_IF="" NETNS_SERVER_IP="" NETNS_CLIENT_IP=""
}

# netns_wire VAR: VAR = "bytes_c2s bytes_s2c packets_c2s packets_s2c" as seen from the client's end;
# builtins only, so it can run between repetitions.
netns_wire() {
  local s="/sys/class/net/$NETNS_HOST_IF/statistics" tb rb tp rp
  read -r tb <"$s/tx_bytes"
  read -r rb <"$s/rx_bytes"
  read -r tp <"$s/tx_packets"
  read -r rp <"$s/rx_packets"
  printf -v "$1" '%s %s %s %s' "$tb" "$rb" "$tp" "$rp"
}

# The TCP connections the server's namespace has accepted so far (its only listener is the server under
# test): a stack that reconnects instead of keeping its connection shows here.
netns_accepted() {
  ip netns exec "$NETNS_NAME" awk '$1 == "Tcp:" { if (!n++) { for (i = 2; i <= NF; i++) if ($i == "PassiveOpens") c = i } else print $c }' /proc/net/snmp
}

# The TCP sockets in TIME_WAIT on the client's side and in the server's namespace ("client server", from
# each one's /proc/net/sockstat): a stack that opens a connection per call leaves one per call for 60 s on
# the side that closed first, whose ephemeral ports then run short.
netns_time_wait() {
  local awk_tw='$1 == "TCP:" { for (i = 2; i < NF; i++) if ($i == "tw") print $(i + 1) }'
  printf '%s %s\n' "$(awk "$awk_tw" /proc/net/sockstat)" "$(ip netns exec "$NETNS_NAME" awk "$awk_tw" /proc/net/sockstat)"
}

# Runs argv inside the server's namespace, or as it is when there is none.
in_server_ns() {
  if [[ -n "$NETNS_NAME" ]]; then
    ip netns exec "$NETNS_NAME" "$@"
  else
    "$@"
  fi
}
