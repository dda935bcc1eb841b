#!/usr/bin/env bash
# The run's network scenario (--network: runner/conductor/network.py, plan/network.tsv) on the veth pair, per
# direction. Where the kernel has netem, it delays and limits the rate as packets leave the sender. Else tbf limits
# the rate there, and an NFQUEUE rule with a delay line (floor/delayline.c, no --queue-bypass: should it die, packets
# drop, never go undelayed) delays them where the receiver takes them in (mangle PREROUTING): held on the sender's
# side they stay charged to its socket, and TCP's small queues throttle the flow (3 of 20 Mbit/s with 15 ms). The
# loss, on every kernel: iptables' statistic match on the receiver's PREROUTING (dropped on the sender's, the send
# fails and TCP resends as if nothing was lost), a count rule behind it for the self-test.
NETWORK_NETEM=0 DELAY_LINES=()

# network_ends DIRECTION: "SENDER_NS SENDER_IF RECEIVER_NS RECEIVER_IF RECEIVER_IP" of c2s or s2c.
network_ends() {
  if [[ "$1" == c2s ]]; then echo "$NS_CLIENT $IF_CLIENT $NS_SERVER $IF_SERVER $IP_SERVER"
  else echo "$NS_SERVER $IF_SERVER $NS_CLIENT $IF_CLIENT $IP_CLIENT"; fi
}

# network_apply PLAN LOG: the rate and the delay of each direction (the loss comes after the rate is measured).
network_apply() {
  local dir delay rate burst sns sif rns rif tries netem=()
  NETWORK_NETEM=0 # probed once, on the pair itself
  if ip netns exec "$NS_CLIENT" tc qdisc add dev "$IF_CLIENT" root netem delay 0 2>/dev/null; then
    NETWORK_NETEM=1 && ip netns exec "$NS_CLIENT" tc qdisc del dev "$IF_CLIENT" root
  fi
  while read -r dir delay rate _ burst; do
    [[ "$dir" == [cs]2[cs] ]] || continue
    read -r sns sif rns rif _ < <(network_ends "$dir")
    if ((NETWORK_NETEM)) && ((delay + rate > 0)); then
      netem=(delay "${delay}us" limit 100000)
      if ((rate)); then netem+=(rate "${rate}bit"); fi
      ip netns exec "$sns" tc qdisc add dev "$sif" root netem "${netem[@]}" 2>>"$2" || return 1
      continue
    fi
    if ((rate)) && ! ip netns exec "$sns" tc qdisc add dev "$sif" root tbf rate "${rate}bit" burst "$burst" \
      latency 50ms 2>>"$2"; then return 1; fi
    ((delay)) || continue
    ip netns exec "$rns" iptables -t mangle -A PREROUTING -i "$rif" -j NFQUEUE --queue-num 0 2>>"$2" || return 1
    start_group /dev/null "$OUT/network/delayline-$dir.out" "$OUT/network/delayline-$dir.log" \
      ip netns exec "$rns" "$DELAYLINE_BIN" --queue 0 --delay-us "$delay"
    DELAY_LINES+=("$!")
    tries=0
    until [[ -s "$OUT/network/delayline-$dir.out" ]]; do # its ready line: the queue is bound
      if ((tries++ > 100)) || ! group_alive "${DELAY_LINES[-1]}"; then
        cat "$OUT/network/delayline-$dir.log" >>"$2"
        return 1
      fi
      sleep 0.05
    done
  done <"$1"
}

# network_loss PLAN LOG: each direction's loss rule and the count rule behind it, ahead of the delay line's.
network_loss() {
  local dir loss rns rif
  while read -r dir _ _ loss _; do
    [[ "$dir" == [cs]2[cs] && "$loss" != 0 ]] || continue
    read -r _ _ rns rif _ < <(network_ends "$dir")
    ip netns exec "$rns" iptables -t mangle -I PREROUTING 1 -i "$rif" -m statistic --mode random \
      --probability "$loss" -j DROP 2>>"$2" &&
      ip netns exec "$rns" iptables -t mangle -I PREROUTING 2 -i "$rif" -m comment --comment rpcmatrix-passed \
        2>>"$2" || return 1
  done <"$1"
}

# network_stop: the delay lines stopped; a status but 0 means one died before the end, which voids the figures.
network_stop() {
  local pgid status=0
  for pgid in "${DELAY_LINES[@]+"${DELAY_LINES[@]}"}"; do stop_group "$pgid" 2 || status=$?; done
  DELAY_LINES=()
  return "$status"
}
