#!/usr/bin/env bats
# The counting pass's segment counters (netns_segments, runner/lib/netns.sh) against a packet capture of the
# same traffic on the same veth pair: TCP payload per direction, segments that carry it, and segments that
# carry none (bare ACKs, SYN, FIN), which are what moves with timing.

# Each test runs in a subshell of its own, its teardown in the same one: the PIDS a test adds are the ones its
# teardown stops.
# shellcheck disable=SC2030,SC2031
bats_require_minimum_version 1.5.0

setup() {
  [ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
  command -v nft >/dev/null || skip "nftables is not installed (runner/setup.sh installs it)"
  command -v tshark >/dev/null || skip "tshark is not installed (runner/setup.sh installs it)"
  ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  # shellcheck source=runner/lib/netns.sh
  source "$ROOT/runner/lib/netns.sh"
  NETNS_LOG="$BATS_TEST_TMPDIR/netns.log"
  PIDS=()
  netns_create "w$(($$ % 100000))"
}

teardown() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  netns_destroy
}

# wait_for FILE [TRIES]: until FILE has something in it, at most TRIES times 0.1 s (100 unless given).
wait_for() {
  local tries=0
  until [ -s "$1" ]; do
    tries=$((tries + 1)); [ "$tries" -le "${2:-100}" ] || return 1; sleep 0.1
  done
}

# start_server: the server below in the server's namespace, its port in PORT.
start_server() {
  ip netns exec "$NETNS_NAME" python3 -c "$SERVER" "$NETNS_SERVER_IP" >"$BATS_TEST_TMPDIR/port" &
  PIDS+=($!)
  wait_for "$BATS_TEST_TMPDIR/port"
  PORT=$(cat "$BATS_TEST_TMPDIR/port")
}

# A server that answers each request (two 4-byte lengths, then the request's bytes) with the reply's bytes.
SERVER='
import socket, struct, sys
listener = socket.create_server((sys.argv[1], 0))
print(listener.getsockname()[1], flush=True)
conn, _ = listener.accept()
with conn:
    while True:
        head = conn.recv(8, socket.MSG_WAITALL)
        if len(head) < 8:
            break
        request, reply = struct.unpack("!II", head)
        if request:
            conn.recv(request, socket.MSG_WAITALL)
        conn.sendall(b"r" * reply)
'

# Calls of several sizes, some spaced past the delayed-ACK timer so that ACKs go alone; prints the payload
# it sent and received (with "hold", also once before it holds its connection open for 5 s).
CLIENT='
import socket, struct, sys, time
sent = received = 0
with socket.create_connection((sys.argv[1], int(sys.argv[2]))) as conn:
    for request, reply, pause in [(10, 20, 0), (3000, 5, 0.06), (5, 70000, 0), (1, 1, 0.06), (4000, 4000, 0)] * 3:
        conn.sendall(struct.pack("!II", request, reply) + b"q" * request)
        sent += 8 + request
        got = 0
        while got < reply:
            got += len(conn.recv(65536))
        received += got
        time.sleep(pause)
    if sys.argv[3:] == ["hold"]:
        print(sent, received, flush=True)
        time.sleep(5)
print(sent, received)
'

@test "segment counters agree with a capture: payload, data segments and bare segments per direction" {
  [ -n "$NETNS_SEGMENTS" ] || { cat "$NETNS_LOG" >&2; return 1; }
  netns_offloads off || skip "ethtool cannot switch the offloads off here"
  local port before after pcap="$BATS_TEST_TMPDIR/wire.pcap" tries=0
  start_server
  port="$PORT"
  ip netns exec "$NETNS_CLIENT_NAME" tshark -q -i "$NETNS_HOST_IF" -f tcp -w "$pcap" 2>"$BATS_TEST_TMPDIR/tshark.log" &
  PIDS+=($!)
  tries=0
  until grep -q "Capturing on" "$BATS_TEST_TMPDIR/tshark.log"; do
    tries=$((tries + 1)); [ "$tries" -le 300 ] || { cat "$BATS_TEST_TMPDIR/tshark.log" >&2; return 1; }; sleep 0.1
  done
  netns_segments before
  run ip netns exec "$NETNS_CLIENT_NAME" python3 -c "$CLIENT" "$NETNS_SERVER_IP" "$port"
  [ "$status" -eq 0 ]
  local -a payload
  read -r -a payload <<<"$output"
  sleep 0.5 # the last FIN and ACK
  netns_segments after
  kill -INT "${PIDS[1]}"
  wait "${PIDS[1]}" || true
  local -a b a c
  read -r -a b <<<"$before"
  read -r -a a <<<"$after"
  # from the capture: payload, data segments, bare segments; client→server, then server→client
  read -r -a c < <(tshark -r "$pcap" -T fields -e ip.src -e tcp.len 2>/dev/null | awk -v client="$NETNS_CLIENT_IP" '
    { d = ($1 == client) ? 1 : 2; payload[d] += $2; if ($2 > 0) data[d]++; else empty[d]++ }
    END { printf "%d %d %d %d %d %d\n", payload[1], payload[2], data[1], data[2], empty[1], empty[2] }')
  echo "counters: before ${b[*]}, after ${a[*]}; capture: ${c[*]}; sent and received: ${payload[*]}" >&2
  local i
  for i in 0 1 2 3 4 5; do
    [ "$((a[i] - b[i]))" -eq "${c[i]}" ]
  done
  # the payload is what the programs wrote, whatever the segments; and there were bare ACKs to tell apart
  [ "${c[0]}" -eq "${payload[0]}" ]
  [ "${c[1]}" -eq "${payload[1]}" ]
  [ "${c[3]}" -gt 15 ] # the 70,000-byte replies took several segments each
  [ "${c[4]}" -gt 0 ]
}

@test "a segment TCP sends again is counted once per copy; the connections' resent bytes give back the payload" {
  [ -n "$NETNS_SEGMENTS" ] || { cat "$NETNS_LOG" >&2; return 1; }
  netns_offloads off || skip "ethtool cannot switch the offloads off here"
  local port before after resent_before resent_after
  start_server
  port="$PORT"
  # the client's namespace drops every 15th segment with payload from the server after the counters (priority
  # filter + 10) have seen it, as a full receive queue would: the server sends it again
  ip netns exec "$NETNS_CLIENT_NAME" nft -f - <<NFT
table ip rpcmatrix_droptest {
  chain input {
    type filter hook input priority 10; policy accept;
    ip saddr $NETNS_SERVER_IP ip length > 100 numgen inc mod 15 == 0 drop
  }
}
NFT
  netns_segments before
  netns_resent resent_before
  # the client holds its connection open for a while after its calls: a closed connection takes its count along
  ip netns exec "$NETNS_CLIENT_NAME" python3 -c "$CLIENT" "$NETNS_SERVER_IP" "$port" \
    hold >"$BATS_TEST_TMPDIR/payload" &
  PIDS+=($!)
  wait_for "$BATS_TEST_TMPDIR/payload" 300
  local -a payload b a
  read -r -a payload < <(head -n 1 "$BATS_TEST_TMPDIR/payload")
  netns_resent resent_after
  netns_segments after
  read -r -a b <<<"$before"
  read -r -a a <<<"$after"
  local resent
  resent=$(jq -n --argjson b "$resent_before" --argjson a "$resent_after" '([$a.s2c[]] | add // 0) - ([$b.s2c[]] | add // 0)')
  echo "server→client: counted $((a[1] - b[1])), resent $resent, received ${payload[1]}" >&2
  [ "$resent" -gt 0 ]
  [ "$((a[1] - b[1]))" -gt "${payload[1]}" ] # the resends were counted too
  [ "$((a[1] - b[1] - resent))" -eq "${payload[1]}" ]
  [ "$(jq -n --argjson a "$resent_after" '$a.c2s | length')" -eq 0 ] # the client resent nothing
}

@test "each connection's resent bytes under its own addresses, a dual-stack listener's mapped ones too" {
  # ss -tinHO as it lists a Python server's socket and a Java server's (an IPv6 socket, IPv4 peers mapped);
  # a connection that resent nothing is left out
  run netns_resent_json <<'LISTING'
ESTAB 0 0 198.18.0.1:8080 198.18.0.2:40000 cubic wscale:7,7 rto:204 bytes_sent:900 bytes_retrans:1448 bytes_acked:900
ESTAB 0 0 [::ffff:198.18.0.1]:8081 [::ffff:198.18.0.2]:40001 bbr wscale:10,10 rto:204 bytes_retrans:31856 segs_in:2
ESTAB 0 0 [::ffff:198.18.0.1]:8081 [::ffff:198.18.0.2]:40002 bbr wscale:10,10 rto:204 segs_in:2
LISTING
  [ "$status" -eq 0 ]
  [ "$(jq -c . <<<"$output")" = '{"198.18.0.1:8080 198.18.0.2:40000":1448,"[::ffff:198.18.0.1]:8081 [::ffff:198.18.0.2]:40001":31856}' ]
}

@test "without nftables the counters say nothing rather than zero" {
  NETNS_SEGMENTS=""
  netns_segments counted
  [ -z "$counted" ]
}

@test "the counters run for the whole run: sums past 2^31 bytes stay exact" {
  # nft's listing as it reads after gigabytes: 5,000,000,000 bytes in 1,000,000 segments of doff 8 (52 bytes of
  # headers each), of which 400,000 bare; mawk's %d would stop at 2147483647
  run netns_segments_sum <<'LISTING'
		tcp doff 8 ip length 52 counter packets 400000 bytes 20800000 comment "c2s empty 8"
		tcp doff 8 counter packets 1000000 bytes 5000000000 comment "c2s all 8"
		tcp doff 8 ip length 52 counter packets 3 bytes 156 comment "s2c empty 8"
		tcp doff 8 counter packets 4000000 bytes 9000000000 comment "s2c all 8"
LISTING
  [ "$status" -eq 0 ]
  [ "$output" = "4948000000 8792000000 600000 3999997 400000 3" ]
}
