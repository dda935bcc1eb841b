#!/usr/bin/env bash
# Runs one cell: server up and ready, client connected, the contract's vectors, then each timed workload
# with CPU, memory and wire counters sampled around it; every outcome becomes records, even a failure.

# record FACTS_JSON: hands one outcome to the analysis, which appends records to the run's results.
record() {
  "$PYTHON" -m analysis record --run "$OUT" --facts "$1" >>"$OUT/runner.log" 2>&1 ||
    warn "could not record an outcome (see $OUT/runner.log)"
}

# Marks every not-yet-recorded part of the cell (vectors and/or workloads) with one status and reason.
record_rest() {
  local cell_dir="$1" status="$2" reason="$3" from="${4:-vectors}"
  record "$(jq -nc --arg d "$cell_dir" --arg s "$status" --arg r "$reason" --arg f "$from" \
    '{kind: "status", cell_dir: $d, status: $s, reason: $r, from: $f}')"
}

# The sampling points around one measure: CPU ticks and memory of both groups, and the wire counters.
snapshot() {
  local client server wire="null"
  client=$(sample_group "$CLIENT_PID")
  server=$(sample_group "$SERVER_PID")
  if [[ -n "$NETNS_NAME" ]]; then wire="[$(netns_counters | tr ' ' ',')]"; fi
  printf '{"client": [%s], "server": [%s], "wire": %s, "cgroup_us": [%s, %s]}' "${client// /,}" "${server// /,}" \
    "$wire" "$(cgroup_cpu_us client)" "$(cgroup_cpu_us server)"
}

# Warm-up passes over every workload before any is measured, for at least the profile's
# cell_warmup_s: JIT compilers (and their threads, on the same cores) would otherwise still be busy
# with the whole cell's code while the first workloads are timed, in RTT and in CPU per call.
# A wrong answer is left to the workload's own warm-up, which records it; a client that is gone (2)
# or hangs (3) ends the cell here, with client_call's status.
warm_cell() {
  local protocol="$1" started=$SECONDS name size warmup calls reps rc
  while :; do
    while read -r name size warmup calls reps; do
      [[ -n "$name" ]] || continue
      rc=0
      warmup_call "$name" "$warmup" || rc=$?
      ((rc < 2)) || return "$rc"
    done <"$OUT/plan/$protocol.tsv"
    ((SECONDS - started < CELL_WARMUP_S)) || return 0
  done
}

warmup_call() {
  client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"warmup\", \"workload\": \"$1\", \"calls\": $2}"
}

# After client_call's status 2 (the client is gone) or 3 (it hangs), marks the rest of the cell from
# FROM on and fails; any other status is left to the caller.
record_lost_client() {
  local cell_dir="$1" rc="$2" prefix="$3" from="$4"
  case "$rc" in
    2) record_rest "$cell_dir" error "$prefix$CLIENT_ERROR$(server_gone_note)" "$from" ;;
    3) record_rest "$cell_dir" timeout "$prefix$CLIENT_ERROR" "$from" ;;
    *) return 0 ;;
  esac
  return 1
}

run_workloads() {
  local cell_dir="$1" protocol="$2" name size warmup calls reps before after rc=0
  warm_cell "$protocol" || rc=$?
  record_lost_client "$cell_dir" "$rc" "warm-up: " workloads || return 1
  while read -r name size warmup calls reps; do
    [[ -n "$name" ]] || continue
    rc=0
    warmup_call "$name" "$warmup" || rc=$?
    if ((rc == 0)); then
      before=$(snapshot)
      client_call "$COMMAND_TIMEOUT" \
        "{\"cmd\": \"measure\", \"workload\": \"$name\", \"calls\": $calls, \"repetitions\": $reps}" || rc=$?
      after=$(snapshot)
    fi
    case "$rc" in
      0)
        printf '%s\n' "$CLIENT_ANSWER" >"$cell_dir/$name.samples.json"
        record "$(jq -nc --arg d "$cell_dir" --arg w "$name" --arg size "$size" \
          --argjson warmup "$warmup" --argjson calls "$calls" --argjson reps "$reps" \
          --argjson before "$before" --argjson after "$after" \
          '{kind: "workload", cell_dir: $d, workload: $w, size: $size, warmup: $warmup, calls: $calls,
            repetitions: $reps, before: $before, after: $after}')"
        ;;
      1) record "$(jq -nc --arg d "$cell_dir" --arg w "$name" --arg r "$CLIENT_ERROR" \
        '{kind: "status", cell_dir: $d, status: "fail", reason: $r, from: $w, only: true}')" ;;
      *) record_lost_client "$cell_dir" "$rc" "" "$name" || return 1 ;;
    esac
  done <"$OUT/plan/$protocol.tsv"
}

server_gone_note() {
  if [[ -n "${SERVER_PID:-}" ]] && ! group_alive "$SERVER_PID"; then printf '; the server had exited'; fi
}

start_server() {
  local cell="$1" cell_dir="$2" host="$3"
  local -a argv launch=()
  mapfile -t argv < <(cell_argv "$cell" server "$host" "$FIXED_PORT")
  if [[ -n "$NETNS_NAME" ]]; then launch=(ip netns exec "$NETNS_NAME"); fi
  start_group /dev/null "$cell_dir/server.out" "$cell_dir/server.log" "${launch[@]}" "${argv[@]}"
  SERVER_PID="$STARTED_PID"
  cgroup_join server "$SERVER_PID"
  wait_ready "$cell_dir/server.out" "$SERVER_PID" "$READY_TIMEOUT"
}

# Runs the vectors and, only when they all passed or are unsupported, the timed workloads.
drive_client() {
  local cell="$1" cell_dir="$2" protocol="$3" host="$4" rc=0
  local -a argv
  mapfile -t argv < <(cell_argv "$cell" client "$host" "$READY_PORT")
  client_start "$cell_dir" "${argv[@]}"
  cgroup_join client "$CLIENT_PID"
  client_call "$COMMAND_TIMEOUT" '{"cmd": "connect"}' || rc=$?
  if ((rc != 0)); then
    record_rest "$cell_dir" "$([[ $rc == 3 ]] && echo timeout || echo error)" "connect: $CLIENT_ERROR$(server_gone_note)"
    return
  fi
  printf '%s\n' "$CLIENT_ANSWER" >"$cell_dir/connect.json"
  client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"vectors\", \"protocol\": \"$protocol\"}" || rc=$?
  if ((rc != 0)); then
    record_rest "$cell_dir" "$([[ $rc == 3 ]] && echo timeout || echo error)" "vectors: $CLIENT_ERROR$(server_gone_note)"
    return
  fi
  printf '%s\n' "$CLIENT_ANSWER" >"$cell_dir/vectors.json"
  record "$(jq -nc --arg d "$cell_dir" '{kind: "vectors", cell_dir: $d}')"
  if jq -e '[.results[].status] | all(. == "pass" or . == "unsupported")' "$cell_dir/vectors.json" >/dev/null; then
    run_workloads "$cell_dir" "$protocol" || true
  else
    record "$(jq -nc --arg d "$cell_dir" '{kind: "status", cell_dir: $d, status: "fail", from: "workloads",
      blocked_by: "vectors", reason: "not timed: the cell'"'"'s vectors did not all pass (correctness before speed)"}')"
  fi
}

# run_cell CELL_JSON: everything for one cell; always leaves records and no process behind.
run_cell() {
  local cell="$1" name slug protocol server client unsupported cell_dir host
  IFS=$'\t' read -r name slug protocol server client unsupported < <(jq -r \
    '[.name, .slug, .protocol, .server, .client, (.unsupported // "")] | @tsv' <<<"$cell")
  cell_dir="$OUT/cells/$slug"
  mkdir -p "$cell_dir"
  jq '.' <<<"$cell" >"$cell_dir/cell.json"
  if [[ -n "$unsupported" ]]; then
    record_rest "$cell_dir" unsupported "$unsupported"
    return
  fi
  local lang
  for lang in "$server" "$client"; do
    if [[ -f "$OUT/build/$lang.failed" ]]; then
      record_rest "$cell_dir" error "build of $lang failed: $(tail -n 3 "$OUT/build/$lang.log" | tr '\n' ' ')"
      return
    fi
  done
  host="${NETNS_SERVER_IP:-127.0.0.1}"
  if ! start_server "$cell" "$cell_dir" "$host"; then
    record_rest "$cell_dir" error "$READY_ERROR: $(tail -n 3 "$cell_dir/server.log" | tr '\n' ' ')"
  else
    drive_client "$cell" "$cell_dir" "$protocol" "$host"
    client_stop
  fi
  stop_group "$SERVER_PID" 5
  SERVER_PID=""
  if ((STOP_STATUS != 0 && STOP_STATUS != 143)); then
    printf 'server exit status %s after SIGTERM\n' "$STOP_STATUS" >>"$cell_dir/server.log"
  fi
}
