#!/usr/bin/env bash
# One cell in one pass: its server and client placed (kept from an earlier cell, or started), the conductor's
# untimed part (connect, vectors, warm-up: runner/conductor/cell.py), then, when it says so, the timed window of
# each workload with the CPU and wire counters read around every repetition, and the counting pass; the cell's
# facts (runner/FACTS.md) are folded into records by the conductor when it ends.

# fact DIR KIND NAME=VALUE...: one outcome appended to DIR/facts.tsv with the time it was observed (UTC); a value
# loses its tabs and line breaks (runner/conductor/facts.py reads them).
fact() {
  local dir="$1" line field
  TZ=UTC0 printf -v line '%(%Y-%m-%dT%H:%M:%SZ)T\t%s' -1 "$2"
  shift 2
  for field in "$@"; do line+=$'\t'"${field//[$'\t\n\r']/ }"; done
  printf '%s\n' "$line" >>"$dir/facts.tsv"
}

# window_snapshot CLIENT_PID SERVER_PID CLIENT_JIT SERVER_JIT: what the timed window's facts are read from just
# before the first repetition and just after the last, each under a "## <what>" line: the connections the server's
# namespace accepted and the sockets in TIME_WAIT on each side (with namespaces), the CPU ticks of each side's
# JIT compiler threads, and each process group's CPU ticks, memory and threads.
window_snapshot() {
  if [[ -n "$NS_SERVER" ]]; then
    printf '## snmp server\n'
    cat "/proc/$2/net/snmp" 2>/dev/null || true
    printf '## sockstat client\n'
    cat "/proc/$1/net/sockstat" 2>/dev/null || true
    printf '## sockstat server\n'
    cat "/proc/$2/net/sockstat" 2>/dev/null || true
  fi
  printf '## jit client\n'
  thread_ticks "$1" "$3"
  printf '## jit server\n'
  thread_ticks "$2" "$4"
  printf '## group client\n'
  sample_group "$1"
  printf '## group server\n'
  if [[ -n "${5:-}" ]]; then # a server on another host: read there, its CPU in clock ticks as sample_group's
    remote_read sample "$5"
    if [[ -n "$REPLY" ]]; then printf '%s %s\n' $((${REPLY%% *} / 10000)) "${REPLY#* }"; else printf '\n'; fi
  else
    sample_group "$2"
  fi
}

# time_workload DIR CLIENT_KEY SERVER_KEY CLIENT_JIT SERVER_JIT NAME REPETITIONS PREPARE WARMUP MEASURE SAMPLES: the
# workload's commands as the conductor wrote them (its timing plan): prepare, the fixed warm-up, then each
# repetition between two readings of the counters, then the samples. Returns client_call's status of the first
# command that failed, why in DIR/.answer.
# From the first reading to the last the runner starts no process and reads with builtins only: each side's cgroup
# CPU, the client's veth line of /proc/<pid>/net/dev and the wall clock, into one tab-separated line of the
# repetitions' file; the answer goes to the answers' file. A subshell forked right before each repetition made the
# calls faster on this project's VM (rawtcp python→python 44 µs p50 and 19 µs of server CPU per call against 51-60 µs
# and 21-29 µs without, alternating runs): its vCPUs wake faster after recent activity, so the runner keeps its own
# out of the window, as the floor's client has none of it between its repetitions.
time_workload() {
  local dir="$1" ckey="$2" name="$6" rep when role key value line answer calls row walls
  local cpid="${LIVE_PID[$2]}" spid="${LIVE_PID[$3]}" there="${REMOTE_PGID[$3]:-}"
  client_call "$ckey" "$COMMAND_TIMEOUT" "$8" "$dir/.answer" || return
  client_call "$ckey" "$COMMAND_TIMEOUT" "$9" "$dir/.answer" || return
  reset_peaks "$cpid"
  if [[ -n "$there" ]]; then remote_read reset "$there"; else reset_peaks "$spid"; fi
  window_snapshot "$cpid" "$spid" "$4" "$5" "$there" >"$dir/$name.window.before"
  : >"$dir/$name.repetitions.tsv"
  : >"$dir/$name.answers.jsonl"
  for ((rep = 0; rep < $7; rep++)); do
    row="" walls=""
    for when in before after; do
      if [[ "$when" == after ]]; then client_call "$ckey" "$COMMAND_TIMEOUT" "${10}" "$dir/.answer" || return; fi
      for role in client server; do
        key="" value=""
        if [[ -n "$CGROUP_DIR" ]]; then
          while read -r key value; do [[ "$key" != usage_usec ]] || break; done <"$CGROUP_DIR/$role/cpu.stat"
        fi
        [[ "$key" == usage_usec ]] || value=""
        # a server on another host: its CPU read there, one round trip on the control connection
        if [[ "$role" == server && -n "$there" ]]; then remote_read sample "$there" && value=${REPLY%% *}; fi
        row+=$'\t'"$value"
      done
      value=""
      if [[ -n "$NS_SERVER" ]]; then
        while IFS= read -r line; do
          if [[ "$line" =~ ^[[:space:]]*"$IF_CLIENT": ]]; then value="$line"; fi
        done 2>/dev/null <"/proc/$cpid/net/dev" || true
      fi
      row+=$'\t'"$value"
      # the wall clock, and how long every runnable thread of the client waited for a CPU that ran something else
      # ("full" of cpu.pressure, its second line: total=µs; "some" also counts a thread waiting while another runs)
      value=""
      if [[ -n "$CGROUP_DIR" && -r "$CGROUP_DIR/client/cpu.pressure" ]]; then
        { read -r _ && read -r _ _ _ _ value; } <"$CGROUP_DIR/client/cpu.pressure" || true
      fi
      walls+=$'\t'"${EPOCHREALTIME/./}"$'\t'"${value#total=}"
    done
    IFS= read -r answer <"$dir/.answer"
    printf '%s\n' "$answer" >>"$dir/$name.answers.jsonl"
    calls=0
    if [[ "$answer" =~ \"calls\":[[:space:]]*([0-9]+) ]]; then calls="${BASH_REMATCH[1]}"; fi
    printf '%s%s%s\n' "$calls" "$row" "$walls" >>"$dir/$name.repetitions.tsv"
  done
  window_snapshot "$cpid" "$spid" "$4" "$5" "$there" >"$dir/$name.window.after"
  client_call "$ckey" "$COMMAND_TIMEOUT" "${11}" "$dir/$name.samples.json"
}

# client_failure DIR PASS STATUS FROM PREFIX SERVER_KEY [only]: the rest of the cell from FROM on (or, with only,
# FROM alone) as a failed command's outcome: fail (1), error (2: the client is gone) or timeout (3).
client_failure() {
  local reason status=fail
  reason="$5$(<"$1/.answer")"
  case "$3" in
    2) status=error && if ! alive "$6"; then reason+="; the server had exited"; fi ;;
    3) status=timeout ;;
  esac
  # its server's SSH session ended (the connection lost): an error of the cell, whatever the client said
  [[ -z "$REMOTE_CHECKOUT" ]] || alive "$6" ||
    status=error reason+="; the SSH session of its server on ${SSH_ARGV[-1]} ended: $(tail -n 1 "${LIVE_DIR[$6]}/server.log")"
  fact "$1" status "pass=$2" "status=$status" "reason=$reason" "from=$4" ${7:+"only=1"}
}

# time_workloads DIR PASS CLIENT_KEY SERVER_KEY CLIENT_JIT SERVER_JIT: each workload of the cell's timing plan
# (timing.tsv, the conductor's) timed; returns 1 when the client is lost.
time_workloads() {
  local dir="$1" name size warmup calls reps min_ms prepare fixed measure samples rc
  while IFS=$'\t' read -r name size warmup calls reps min_ms prepare fixed measure samples _; do
    rc=0
    time_workload "$dir" "$3" "$4" "$5" "$6" "$name" "$reps" "$prepare" "$fixed" "$measure" "$samples" || rc=$?
    case "$rc" in
      0) fact "$dir" workload "pass=$2" "workload=$name" "size=$size" "warmup=$warmup" "calls=$calls" \
        "repetitions=$reps" "min_ms=$min_ms" ;;
      1) client_failure "$dir" "$2" 1 "$name" "" "$4" only ;;
      *)
        client_failure "$dir" "$2" "$rc" "$name" "" "$4"
        return 1
        ;;
    esac
  done <"$dir/timing.tsv"
}

# count_wire DIR CLIENT_KEY SERVER_KEY: bytes and packets per call, counted apart from the timing: offloads off (so a
# packet is wire-sized) and TCP's tail loss probes off, each workload's calls for at least the profile's count_ms
# (at least one call, at most count_calls) between two snapshots of the pair's counters (netns.sh: wire_snapshot),
# then both back to their defaults. A count bounded in time, not in count: a large workload counted over its few
# warm-up calls left gRPC's flow-control frames and RMI's lease and liveness traffic to fall on one call or another.
count_wire() {
  local dir="$1" cpid="${LIVE_PID[$2]}" spid="${LIVE_PID[$3]}" name count
  [[ -n "$NS_SERVER$WIRE_TABLE" ]] && ((COUNT_CALLS > 0)) || return 0
  if [[ -z "$WIRE_TABLE" ]] && ! netns_offloads off; then
    warn "could not switch offloads off; bytes and packets not counted for this cell"
    return 0
  fi
  netns_loss_probes off || warn "could not switch TCP's tail loss probes off; bytes may include their resends"
  mkdir -p "$dir/wire"
  while IFS=$'\t' read -r name _ _ _ _ _ _ _ _ _ count; do
    wire_snapshot "$cpid" "$spid" >"$dir/wire/$name.before"
    if client_call "$2" "$COMMAND_TIMEOUT" "$count" "$dir/wire/$name.answer"; then
      wire_snapshot "$cpid" "$spid" >"$dir/wire/$name.after"
    else
      rm -f "$dir/wire/$name.answer"
    fi
  done <"$dir/timing.tsv"
  netns_loss_probes default || warn "could not restore TCP's tail loss probes"
  [[ -n "$WIRE_TABLE" ]] || netns_offloads default || warn "could not restore the offloads' defaults"
}

# serve CELL_DIR PASS NAME KEY ARGV SCRATCH: the cell's server in the server cgroup: the live one of KEY, or a new
# one; returns 1 (its facts recorded) when a new one is not ready.
serve() {
  local dir="$1" key="$4" why
  if alive "$key" && [[ -n "${LIVE_PORT[$key]}" ]]; then
    cgroup_join server "${LIVE_PID[$key]}"
  elif ! start_server "$key" "$5" "$6" server "$2"; then
    why=$(<"${LIVE_DIR[$key]}/not-ready")
    link_logs "$dir" "$key" server.out server.log
    fact "$dir" status "pass=$2" status=error "reason=$why" from=vectors
    retire "$key"
    return 1
  fi
  served "$key" "$2" "$3"
  link_logs "$dir" "$key" server.out server.log
}

# run_cell PASS INDEX TOTAL SLUG NAME SERVER_KEY CLIENT_KEY SERVER_ARGV CLIENT_ARGV SCRATCH CELL_LINK SERVER_JIT
# CLIENT_JIT TIMED FLOOR_BEFORE FLOOR_AFTER: the cell step (runner/conductor/steps.py).
run_cell() {
  local pass="$1" skey="$6" ckey="$7" dir="$OUT/cells/$4/pass$1" steal new_server=0 new_client=0 outcome=0
  local server_jit="${12}" client_jit="${13}"
  local -a step=(--run "$OUT" --pass "$1" --slug "$4" --index "$2" --total "$3" --since "$SINCE" --lane "${LANE:-0}")
  if [[ "${15}" != - ]]; then step+=(--floor-before "${15}"); fi
  mkdir -p "$dir"
  [[ -n "$LANE" ]] || printf '[%d/%d] %s ' "$2" "$3" "$5" >&2
  if [[ -e "$dir/.settled" ]]; then # the warm phase ended it: its facts are all there
    conduct cell-end "${step[@]}"
    return
  fi
  steal=$(steal_ticks)
  step+=(--steal-before "$steal")
  # the host's CPU probe goes beside timed figures only (42 ms of CPU a cell: certify has 135 such cells)
  [[ "$server_jit" != - ]] || server_jit=""
  [[ "$client_jit" != - ]] || client_jit=""
  if ((${14})) && [[ -x "$FLOOR_BIN" ]]; then "$FLOOR_BIN" spin --iterations 20000000 >"$dir/calibration.json" || true; fi
  alive "$skey" && [[ -n "${LIVE_PORT[$skey]}" ]] || new_server=1
  if ! serve "$dir" "$pass" "$5" "$skey" "$8" "${10}"; then
    conduct cell-end "${step[@]}"
    return
  fi
  if alive "$ckey"; then
    cgroup_join client "${LIVE_PID[$ckey]}"
  else
    start_client "$ckey" "$9" client "$pass" "${LIVE_PORT[$skey]}"
    new_client=1
  fi
  link_logs "$dir" "$ckey" client.log
  conduct cell-start "${step[@]}" --host "${IP_SERVER:-127.0.0.1}" \
    --server "${LIVE_PID[$skey]}:${LIVE_PORT[$skey]}:${LIVE_DIR[$skey]}:$new_server" \
    --client "${LIVE_PID[$ckey]}:${LIVE_DIR[$ckey]}:$new_client" || outcome=$?
  case "$outcome" in
    0)
      time_workloads "$dir" "$pass" "$ckey" "$skey" "$client_jit" "$server_jit" || retire "$ckey"
      # a load profile's later rounds, each planned from the points before it (runner/conductor/load.py)
      while [[ -e "$dir/timing.more" ]] && alive "$ckey" && conduct timing-next "${step[@]}"; do
        time_workloads "$dir" "$pass" "$ckey" "$skey" "$client_jit" "$server_jit" || retire "$ckey"
      done
      if alive "$ckey"; then count_wire "$dir" "$ckey" "$skey"; fi
      ;;
    3) retire "$ckey" ;; # the client is gone or hangs: the conductor ended the cell
    4) ;;                # nothing to time: the conductor ended the cell
    *) warn "the conductor failed on $5 (status $outcome); its facts so far are folded" ;;
  esac
  release "$ckey"
  release "$skey"
  if ((outcome == 0)) && [[ "${16}" != - ]]; then
    measure_floor "$pass" "$OUT/${16}" adjacent_floor "$FLOOR_AFTER"
    step+=(--floor-after "${16}")
  fi
  if ((outcome != 3 && outcome != 4)); then conduct cell-end "${step[@]}"; fi
}

# steal_ticks: the machine's steal time so far in clock ticks (the eighth CPU column of /proc/stat).
steal_ticks() {
  local steal
  read -r _ _ _ _ _ _ _ _ steal _ </proc/stat
  printf '%s\n' "${steal:-0}"
}
