#!/usr/bin/env bats
# The counting pass's snapshots (wire_snapshot, runner/lib/netns.sh, read by runner/conductor/wire.py) against a
# packet capture of the same traffic on the same veth pair: TCP payload per direction, segments that carry it,
# and segments that carry none (bare ACKs, SYN, FIN), which are what moves with timing; and the connections'
# resent bytes, which give the payload back when TCP sends a segment again.

# Each test runs in a subshell of its own, its teardown in the same one: the PIDS a test adds are the ones its
# teardown stops.
# shellcheck disable=SC2030,SC2031
bats_require_minimum_version 1.5.0

setup() {
  [ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
  command -v nft >/dev/null || skip "nftables is not installed (runner/setup.sh installs it)"
  command -v tshark >/dev/null || skip "tshark is not installed (runner/setup.sh installs it)"
  ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  # shellcheck source=runner/lib/log.sh
  source "$ROOT/runner/lib/log.sh"
  # shellcheck source=runner/lib/netns.sh
  source "$ROOT/runner/lib/netns.sh"
  PYTHON="$ROOT/.venv/bin/python" # the counters' rules are the conductor's (netns_segment_counters)
  export PYTHONPATH="$ROOT/runner"
  PIDS=()
  netns_create "w$(($$ % 100000))" "$BATS_TEST_TMPDIR/netns.log"
}

teardown() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  netns_destroy
}

# counted BEFORE AFTER KEY...: what the counters counted between two snapshots, the KEYs' differences in order
# (the snapshots name the test's own shell as both processes: only the namespaces' counters are read here).
counted() {
  PYTHONPATH="$ROOT/runner" "$ROOT/.venv/bin/python" - "$@" <<'PY'
import sys
from pathlib import Path
from conductor import wire
before, after = (wire.read_snapshot(Path(p)) for p in sys.argv[1:3])
flat = lambda s: {**(s["segments"] or {}), **{f"resent_{d}": sum(s["resent"][d].values()) for d in ("c2s", "s2c")}}
print(" ".join(str(flat(after)[k] - flat(before)[k]) for k in sys.argv[3:]))
PY
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
  ip netns exec "$NS_SERVER" python3 -c "$SERVER" "$IP_SERVER" >"$BATS_TEST_TMPDIR/port" &
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
  ((NFT_COUNTERS)) || { cat "$BATS_TEST_TMPDIR/netns.log" >&2; return 1; }
  netns_offloads off || skip "ethtool cannot switch the offloads off here"
  local pcap="$BATS_TEST_TMPDIR/wire.pcap" tries=0
  start_server
  ip netns exec "$NS_CLIENT" tshark -q -i "$IF_CLIENT" -f tcp -w "$pcap" 2>"$BATS_TEST_TMPDIR/tshark.log" &
  PIDS+=($!)
  until grep -q "Capturing on" "$BATS_TEST_TMPDIR/tshark.log"; do
    tries=$((tries + 1)); [ "$tries" -le 300 ] || { cat "$BATS_TEST_TMPDIR/tshark.log" >&2; return 1; }; sleep 0.1
  done
  wire_snapshot $$ $$ >"$BATS_TEST_TMPDIR/before"
  run ip netns exec "$NS_CLIENT" python3 -c "$CLIENT" "$IP_SERVER" "$PORT"
  [ "$status" -eq 0 ]
  local -a payload c n
  read -r -a payload <<<"$output"
  sleep 0.5 # the last FIN and ACK
  wire_snapshot $$ $$ >"$BATS_TEST_TMPDIR/after"
  kill -INT "${PIDS[1]}"
  wait "${PIDS[1]}" || true
  read -r -a n < <(counted "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after" payload_c2s payload_s2c \
    data_segments_c2s data_segments_s2c empty_segments_c2s empty_segments_s2c)
  # from the capture: payload, data segments, bare segments; client→server, then server→client
  read -r -a c < <(tshark -r "$pcap" -T fields -e ip.src -e tcp.len 2>/dev/null | awk -v client="$IP_CLIENT" '
    { d = ($1 == client) ? 1 : 2; payload[d] += $2; if ($2 > 0) data[d]++; else empty[d]++ }
    END { printf "%d %d %d %d %d %d\n", payload[1], payload[2], data[1], data[2], empty[1], empty[2] }')
  echo "counted ${n[*]}; capture: ${c[*]}; sent and received: ${payload[*]}" >&2
  [ "${n[*]}" = "${c[*]}" ]
  # the payload is what the programs wrote, whatever the segments; and there were bare ACKs to tell apart
  [ "${c[0]}" -eq "${payload[0]}" ]
  [ "${c[1]}" -eq "${payload[1]}" ]
  [ "${c[3]}" -gt 15 ] # the 70,000-byte replies took several segments each
  [ "${c[4]}" -gt 0 ]
}

@test "a segment TCP sends again is counted once per copy; the connections' resent bytes give back the payload" {
  ((NFT_COUNTERS)) || { cat "$BATS_TEST_TMPDIR/netns.log" >&2; return 1; }
  netns_offloads off || skip "ethtool cannot switch the offloads off here"
  start_server
  # the client's namespace drops every 15th segment with payload from the server after the counters (priority
  # filter + 10) have seen it, as a full receive queue would: the server sends it again
  ip netns exec "$NS_CLIENT" nft -f - <<NFT
table ip rpcmatrix_droptest {
  chain input {
    type filter hook input priority 10; policy accept;
    ip saddr $IP_SERVER ip length > 100 numgen inc mod 15 == 0 drop
  }
}
NFT
  wire_snapshot $$ $$ >"$BATS_TEST_TMPDIR/before"
  # the client holds its connection open for a while after its calls: a closed connection takes its count along
  ip netns exec "$NS_CLIENT" python3 -c "$CLIENT" "$IP_SERVER" "$PORT" hold >"$BATS_TEST_TMPDIR/payload" &
  PIDS+=($!)
  wait_for "$BATS_TEST_TMPDIR/payload" 300
  local -a payload n
  read -r -a payload < <(head -n 1 "$BATS_TEST_TMPDIR/payload")
  wire_snapshot $$ $$ >"$BATS_TEST_TMPDIR/after"
  read -r -a n < <(counted "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after" payload_s2c resent_s2c resent_c2s)
  echo "server→client: counted ${n[0]}, resent ${n[1]}, received ${payload[1]}" >&2
  [ "${n[1]}" -gt 0 ]
  [ "${n[0]}" -gt "${payload[1]}" ] # the resends were counted too
  [ "$((n[0] - n[1]))" -eq "${payload[1]}" ]
  [ "${n[2]}" -eq 0 ] # the client resent nothing
}
