#!/usr/bin/env bats
# The network scenarios' shell (runner/lib/network.sh) on a real veth pair between two namespaces: through the delay
# line TCP stays end to end, loss is real loss to TCP, order is kept, a dead delay line drops rather than lets packets
# through undelayed, and nothing is left. Bounded in time and count; asserts behaviour, never speed.

bats_require_minimum_version 1.5.0

setup() {
  [ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
  ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  FLOOR_BIN="$ROOT/runner/floor/bin/floor" DELAYLINE_BIN="$ROOT/runner/floor/bin/delayline"
  if [ ! -x "$DELAYLINE_BIN" ] || [ ! -x "$FLOOR_BIN" ]; then skip "runner/floor/bin not built (runner/setup.sh builds it)"; fi
  command -v iptables >/dev/null || skip "no iptables"
  # shellcheck source=runner/lib/log.sh
  source "$ROOT/runner/lib/log.sh"
  # shellcheck source=runner/lib/process.sh
  source "$ROOT/runner/lib/process.sh"
  # shellcheck source=runner/lib/netns.sh
  source "$ROOT/runner/lib/netns.sh"
  PYTHON="$ROOT/.venv/bin/python" # the counters' rules are the conductor's (netns_segment_counters)
  export PYTHONPATH="$ROOT/runner"
  # shellcheck source=runner/lib/network.sh
  source "$ROOT/runner/lib/network.sh"
  OUT="$BATS_TEST_TMPDIR" TAG=$(printf "%05d" $(((BATS_ROOT_PID * 10 + BATS_TEST_NUMBER) % 100000)))
  mkdir -p "$OUT/network"
  netns_create "$TAG" "$OUT/netns.log"
}

teardown() {
  network_stop || true
  netns_destroy
  [ "$(ip netns list | grep -c "^rpcmatrix-$TAG\b")" -eq 0 ]
}

# retransmitted NS: the segments TCP has retransmitted in a namespace so far (/proc/net/snmp's RetransSegs).
retransmitted() {
  local -a names values
  while read -r -a values; do
    if [ "${values[0]}" = Tcp: ] && [ -z "${names[*]:-}" ]; then names=("${values[@]}"); elif [ "${values[0]}" = Tcp: ]; then break; fi
  done < <(ip netns exec "$1" cat /proc/net/snmp)
  for i in "${!names[@]}"; do if [ "${names[$i]}" = RetransSegs ]; then echo "${values[$i]}"; fi; done
}

# in_ns NS PYTHON: a Python snippet run in a namespace, bounded in time.
in_ns() { timeout 20 ip netns exec "$1" python3 -c "$2"; }

@test "through the delay line TCP stays end to end: the handshake takes the delay, loss is resent, order is kept" {
  printf 'c2s\t20000\t0\t0.05\t0\ns2c\t10000\t0\t0\t0\n' >"$OUT/plan.tsv"
  network_apply "$OUT/plan.tsv" "$OUT/network.log"
  grep -q '"ready": true' "$OUT/network/delayline-c2s.out"
  # the handshake: SYN c2s, SYN-ACK s2c: at least 30 ms, the delay each way
  in_ns "$NS_SERVER" "import socket,time; s=socket.create_server(('$IP_SERVER', 7100)); c,_=s.accept(); time.sleep(1)" &
  local server=$! ms
  sleep 0.3
  ms=$(in_ns "$NS_CLIENT" "import socket,time; t=time.monotonic(); socket.create_connection(('$IP_SERVER', 7100)); print(int((time.monotonic()-t)*1000))")
  wait "$server"
  [ "$ms" -ge 30 ]
  # order: 2000 numbered datagrams client to server arrive in the order sent
  in_ns "$NS_SERVER" "import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('$IP_SERVER', 7101)); s.settimeout(3)
seen=[]
try:
    while len(seen) < 2000: seen.append(int(s.recv(16)))
except OSError: pass
print('ordered' if seen == sorted(seen) and len(seen) > 1000 else 'disordered %d' % len(seen))" >"$OUT/order" &
  server=$!
  sleep 0.3
  in_ns "$NS_CLIENT" "import socket,time; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(2000):
    s.sendto(str(i).encode(), ('$IP_SERVER', 7101))
    if i % 100 == 0: time.sleep(0.001)"
  wait "$server"
  [ "$(cat "$OUT/order")" = ordered ]
  # loss: 5% of what the client sends is dropped on the server's side, and the client's TCP resends it
  network_loss "$OUT/plan.tsv" "$OUT/network.log"
  local before after port
  before=$(retransmitted "$NS_CLIENT")
  start_group /dev/null "$OUT/sink.out" "$OUT/sink.log" ip netns exec "$NS_SERVER" "$FLOOR_BIN" sink --host "$IP_SERVER" \
    --port 0 --bytes 2000000
  server=$!
  port=$(wait_ready "$OUT/sink.out" "$server" 5)
  timeout 20 ip netns exec "$NS_CLIENT" "$FLOOR_BIN" bulk --host "$IP_SERVER" --port "$port" --bytes 2000000 --seconds 10
  stop_group "$server" 2
  after=$(retransmitted "$NS_CLIENT")
  [ "$(tail -n 1 "$OUT/sink.out" | jq .total)" -eq 2000000 ]
  [ "$after" -gt "$before" ]
  ip netns exec "$NS_SERVER" iptables -t mangle -nvxL PREROUTING | awk '/statistic/ { exit !($1 > 0) }'
  # each delay line stops on SIGTERM with its counts, exit status 0
  network_stop
  grep -q '^delayline: queue 0, 20000 us: [1-9][0-9]* packets' "$OUT/network/delayline-c2s.log"
  # ... and what it added beyond the delay: every packet timed from the kernel's arrival stamp, each counted in the
  # line of the second it left in
  tail -n 1 "$OUT/network/delayline-c2s.out" | jq -e '.total and .packets > 0 and .stamped == .packets and .seconds > 0
    and (.cpu_s | type) == "number"'
  [ "$(grep '"t": ' "$OUT/network/delayline-c2s.out" | jq -s 'map(.packets) | add')" -eq \
    "$(tail -n 1 "$OUT/network/delayline-c2s.out" | jq .packets)" ]
}

@test "a delay line that is gone drops the packets: nothing crosses undelayed" {
  printf 'c2s\t1000\t0\t0\t0\ns2c\t0\t0\t0\t0\n' >"$OUT/plan.tsv"
  network_apply "$OUT/plan.tsv" "$OUT/network.log"
  kill -KILL "${DELAY_LINES[0]}"
  local stopped=0
  network_stop || stopped=$?
  [ "$stopped" -ne 0 ] # the run hears of it: network_stop's status is not 0
  # no answer at all, not even a refusal: the SYN never reaches the server
  run -1 timeout 2 ip netns exec "$NS_CLIENT" python3 -c \
    "import socket; socket.create_connection(('$IP_SERVER', 7102), timeout=1.5)"
  [[ "$output" == *"timed out"* ]]
}
