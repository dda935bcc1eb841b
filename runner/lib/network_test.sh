#!/usr/bin/env bash
# The network scenario's self-test, before any cell: the floor's ping-pong on the bare pair and again once shaped
# (the delay), a bulk transfer each way counted by its receiver (the rate), then, with the loss rules in, a burst of
# datagrams each way whose fate their counters tell (the loss). runner/conductor/network.py accepts or refuses.

# shape_network: --network applied and tested; the run dies before any cell when it cannot be or missed.
shape_network() {
  local plan="$OUT/plan/network.tsv" log="$OUT/network/network.log" counts bulk seconds burst dir shaper=tbf+delayline
  [[ -n "$NETWORK" ]] || return 0
  [[ -n "$NS_SERVER" ]] || die "--network $NETWORK needs the run's network namespaces, which could not be made"
  mkdir -p "$OUT/network"
  counts=$(awk -F'\t' '$1 == "floor" { print $2 }' "$plan")
  read -r bulk seconds burst < <(awk -F'\t' '$1 == "sizes" { print $2, $3, $4 }' "$plan")
  info "network $NETWORK: applying it and testing it before the cells"
  measure_floor 0 "$OUT/network/bare" network_floor "$counts"
  network_apply "$plan" "$log" || die "could not apply the network $NETWORK: $(tail -n 3 "$log")"
  if ((NETWORK_NETEM)); then shaper=netem; fi
  printf 'network_shaper\t%s\n' "$shaper" >>"$OUT/plan/setup.tsv"
  measure_floor 0 "$OUT/network/shaped" network_floor "$counts"
  if ((bulk > 0)); then for dir in c2s s2c; do network_rate "$dir" "$bulk" "$seconds"; done; fi
  network_loss "$plan" "$log" || die "could not apply the network $NETWORK's loss: $(tail -n 3 "$log")"
  for dir in c2s s2c; do
    if awk -F'\t' -v d="$dir" '$1 == d && $4 != 0 { found = 1 } END { exit !found }' "$plan"; then
      network_burst "$dir" "$burst"
    fi
  done
  conduct network-check --run "$OUT" || die "the network $NETWORK missed what was asked (above): no cell ran"
}

# network_rate DIRECTION BYTES SECONDS: the floor's bulk transfer from the sender to a sink on the receiver's side.
network_rate() {
  local sns rns rip pid port out="$OUT/network/sink-$1"
  read -r sns _ rns _ rip < <(network_ends "$1")
  start_group /dev/null "$out.out" "$out.log" ip netns exec "$rns" "$FLOOR_BIN" sink --host "$rip" --port 0 \
    --bytes "$2"
  pid=$!
  if port=$(wait_ready "$out.out" "$pid" 5); then
    timeout $((2 * $3)) ip netns exec "$sns" "$FLOOR_BIN" bulk --host "$rip" --port "$port" --bytes "$2" \
      --seconds "$3" 2>>"$out.log" </dev/null || true
  fi
  stop_group "$pid" 2 || true
  tail -n +2 "$out.out" >"$OUT/network/rate-$1.json"
}

# network_burst DIRECTION SECONDS: datagrams from the sender for SECONDS, then the receiver's loss counters.
network_burst() {
  local sns rns rip
  read -r sns _ rns _ rip < <(network_ends "$1")
  timeout $((2 * $2 + 2)) ip netns exec "$sns" "$FLOOR_BIN" burst --host "$rip" --seconds "$2" \
    >"$OUT/network/burst-$1.json" 2>&1 </dev/null || true
  ip netns exec "$rns" iptables -t mangle -nvxL PREROUTING >"$OUT/network/loss-$1.txt" 2>&1 || true
}
