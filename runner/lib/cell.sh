#!/usr/bin/env bash
# Runs one cell in one pass: its server up and ready, its client connected, the contract's vectors, the
# cell warmed until steady, then each timed workload with CPU counters read around every repetition, and a
# separate short pass that counts bytes and packets. Every outcome becomes records, even a failure.

# record DIR FACTS_JSON: notes one outcome (its facts, runner/FACTS.md) in DIR/facts.jsonl, with the time
# it was observed (UTC). No interpreter starts here: the step's end folds the file into its records once
# (end_cell, fold_step). FACTS_JSON is one compact JSON object, as jq -c writes it.
record() {
  local dir="$1" facts="$2" now
  TZ=UTC0 printf -v now '%(%Y-%m-%dT%H:%M:%SZ)T' -1
  printf '{"time": "%s", %s\n' "$now" "${facts#\{}" >>"$dir/facts.jsonl"
}

# The folder of the step whose facts are being gathered and not yet folded (gather_facts).
UNFOLDED_STEP=""
# The cells that cannot run (unsupported, or an error of the plan), gathered and not yet folded: their facts
# are one line each, so they are folded together, with one interpreter, before the next cell that runs
# (end_declined_cells). Names and progress indexes go with them, in the same order.
DECLINED_DIRS=() DECLINED_NAMES=() DECLINED_INDEXES=()

# gather_facts DIR COMMAND...: runs a step (a cell, a pass's floor, the handlers) whose facts go to DIR.
# Until its fold, an interruption folds what it gathered (on_interrupt), so that the report shows it; a
# resumed run drops it with the rest of the unfinished step.
gather_facts() {
  UNFOLDED_STEP="$1"
  "${@:2}"
  UNFOLDED_STEP=""
}

# After an interruption: the records of the step it cut short, from the facts gathered so far, and of the warm
# phase's cells not yet timed (their vectors).
fold_unfolded_step() {
  if [[ -n "$UNFOLDED_STEP" ]]; then fold_step "$UNFOLDED_STEP"; fi
  local dir
  for dir in "${DECLINED_DIRS[@]}"; do fold_step "$dir"; done
  DECLINED_DIRS=() DECLINED_NAMES=() DECLINED_INDEXES=()
  if ((WARM_DIRS_UNFOLDED)); then
    for dir in "${W_DIRS[@]+"${W_DIRS[@]}"}"; do
      if [[ -z "${FOLDED_DIRS[$dir]:-}" && "$dir" != "$UNFOLDED_STEP" && -s "$dir/facts.jsonl" ]]; then fold_step "$dir"; fi
    done
  fi
}
# The cell folders folded when their cell ended, and whether a warm phase's cells may be left unfolded.
declare -A FOLDED_DIRS=()
WARM_DIRS_UNFOLDED=0

# fold_step DIR: the final records of a step that ends without a progress line (a pass's floor, the
# handlers), from DIR/facts.jsonl, appended to the run's results.jsonl.
fold_step() {
  "$PYTHON" -m analysis fold --run "$OUT" --dir "$1" >>"$OUT/runner.log" 2>&1 ||
    warn "could not record the outcomes in $1 (see $OUT/runner.log)"
}

# end_cell CELL_DIR: the cell's final records of this pass, from its facts, appended to results.jsonl: one
# interpreter for the whole cell. Prints "<seconds of work>\t<summary>" for the progress line.
end_cell() {
  "$PYTHON" -m analysis cell-end --run "$OUT" --dir "$1" 2>>"$OUT/runner.log" || {
    warn "could not record the outcomes of $1 (see $OUT/runner.log)"
    printf '0\t?\n'
  }
}

# end_declined_cells TOTAL: folds the declined cells gathered so far into their records (one interpreter for
# all), prints each one's progress line and journals it.
end_declined_cells() {
  local total="$1" i=0 work summary
  local -a args=()
  ((${#DECLINED_DIRS[@]} > 0)) || return 0
  for i in "${!DECLINED_DIRS[@]}"; do args+=(--dir "${DECLINED_DIRS[$i]}"); done
  i=0
  while IFS=$'\t' read -r work summary; do
    printf '[%d/%d] %s %s\n' "${DECLINED_INDEXES[$i]}" "$total" "${DECLINED_NAMES[$i]}" "$summary" >&2
    journal "$PASS" "${DECLINED_NAMES[$i]}"
    i=$((i + 1))
  done < <("$PYTHON" -m analysis cell-end --run "$OUT" "${args[@]}" 2>>"$OUT/runner.log" ||
    warn "could not record the outcomes of ${#DECLINED_DIRS[@]} declined cells (see $OUT/runner.log)")
  DECLINED_DIRS=() DECLINED_NAMES=() DECLINED_INDEXES=()
}

# Marks every not-yet-recorded part of the cell (vectors and/or workloads) with one status and reason.
record_rest() {
  local cell_dir="$1" status="$2" reason="$3" from="${4:-vectors}" quoted
  json_quote quoted "$reason"
  record "$cell_dir" "{\"kind\": \"status\", \"pass\": $PASS, \"status\": \"$status\", \"reason\": $quoted, \"from\": \"$from\"}"
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

server_gone_note() {
  if [[ -n "${SERVER_PID:-}" ]] && ! group_alive "$SERVER_PID"; then printf '; the server had exited'; fi
}

# The plan's rows of a protocol: name size warmup calls repetitions min_ms max_calls.
plan_rows() {
  cat "$OUT/plan/$1.tsv"
}

# The profile times workloads of PROTOCOL: its plan has rows (certify's have none).
times_workloads() {
  [[ -s "$OUT/plan/$1.tsv" ]]
}

# Warms every workload of the cell until its batch medians agree (bounded by the profile's max_ms each),
# before any is measured: JIT compilers (and their threads, on the same cores) would otherwise still be
# busy with the whole cell's code while the first workloads are timed. Processes that have made a full round
# (the warm phase's, or an earlier cell's) are only re-warmed, now that they are pinned: short batches, each
# workload for at most the profile's rewarm_ms (warm_round rewarm). The passes over the workloads (each a
# warm_round; the answers go to warmup.jsonl) repeat while a process started for this cell still warms its JIT
# (warm.sh: jit_warm), and, for processes the warm phase warmed, while their compiler threads took over the
# profile's share of a CPU in the last pass (at most WARM_CELL_ROUNDS passes): a JIT runtime back from idling
# recompiles what its first calls take differently (measured on Apache HttpClient after 60 s idle: uncommon traps
# on the pool's stale-connection check, 20-27% of the client's CPU for a second). Then the compiles the last pass
# queued drain (jit_settle). A client that is gone (2) or hangs (3) ends the cell here.
WARM_CELL_ROUNDS=4
warm_cell() {
  local protocol="$1" cell_dir="$2" started=$SECONDS t0 warming=0 rounds=0 rewarm
  local server="server|$SERVER_KEY" client="client|$CLIENT_KEY"
  WARM_MEDIAN_NS=()
  jit_warm "$server" && jit_warm "$client" || warming=1
  while :; do
    rewarm=rewarm
    if ((warming || ${WARM_ROUNDS[$server]:-0} == 0 || ${WARM_ROUNDS[$client]:-0} == 0)); then rewarm=""; fi
    t0=${EPOCHREALTIME/./}
    warm_round "$protocol" "$cell_dir/warmup.jsonl" ${rewarm:+"$rewarm"} || return
    if [[ -z "$rewarm" ]]; then count_full_round "$server" "$client"; fi
    t0=$(((${EPOCHREALTIME/./} - t0) / 1000))
    jit_note "$server" "$SERVER_PID" "$t0"
    jit_note "$client" "$CLIENT_PID" "$t0"
    rounds=$((rounds + 1))
    if ((warming)); then
      if jit_warm "$server" && jit_warm "$client"; then break; fi
    elif ((rounds >= WARM_CELL_ROUNDS)) || { jit_round_quiet "$server" && jit_round_quiet "$client"; }; then
      break
    fi
  done
  if ((warming)); then record_warm "$cell_dir" "$SERVER_KEY" "$CLIENT_KEY" $((SECONDS - started)); fi
  jit_settle "$SERVER_PID" "${JIT_REGEX[$server]:-}"
  jit_settle "$CLIENT_PID" "${JIT_REGEX[$client]:-}"
}

# The named fields of the counters written into the facts (runner/FACTS.md): the veth's (netns_wire) and the
# segments' (netns_segments), in the order those functions print them.
WIRE_FIELDS="bytes_c2s bytes_s2c packets_c2s packets_s2c"
SEGMENT_FIELDS="payload_c2s payload_s2c data_segments_c2s data_segments_s2c empty_segments_c2s empty_segments_s2c"
RETRANSMIT_FIELDS="retransmitted_c2s retransmitted_s2c"

# counters_json VAR "FIELD..." "VALUE...": the values as a JSON object of numbers under the fields, in VAR, or
# null when there are not as many values as fields (counters that could not be read: no namespaces, no nftables).
counters_json() {
  local -a _fields _values
  local _i _out=""
  read -r -a _fields <<<"$2"
  read -r -a _values <<<"$3"
  if ((${#_values[@]} != ${#_fields[@]})); then
    printf -v "$1" 'null'
    return
  fi
  for _i in "${!_fields[@]}"; do _out+="${_out:+, }\"${_fields[$_i]}\": ${_values[$_i]}"; done
  printf -v "$1" '{%s}' "$_out"
}

# group_json VAR "TICKS RSS HWM THREADS": a process group's sample_group as a JSON object in VAR.
group_json() {
  local -a f
  read -r -a f <<<"$2"
  printf -v "$1" '{"cpu_ticks": %s, "rss_kb": %s, "rss_peak_kb": %s, "threads": %s}' "${f[@]}"
}

# One workload: prepare, the fixed warm-up, then each repetition between two readings of the CPU
# counters (and the wire counters), then the samples. Leaves the measured facts (runner/FACTS.md) in
# MEASURED and the fixed warm-up's calls in WARMUP_CALLS; returns client_call's status of the first command
# that failed. The fixed warm-up is the plan's count, or, with the profile's warmup_max_ms, as many calls as
# that many milliseconds hold at the median of the workload's last warm-up batch (at least the repetition's
# calls): the cell's re-warm has just run the workload, and 200 calls of a WS-Security stack are 2 s.
WARMUP_CALLS=0
time_workload() {
  local cell_dir="$1" name="$2" calls="$3" reps="$4" min_ms="$5" max_calls="$6" warmup="$7" cap
  local rep cb sb ca sa wb wa wire_before wire_after accepted_before="null" accepted_after="null" answered rc=0
  local time_wait="null" client_group server_group client_jit=null server_jit=null
  local -a rows=() tw
  MEASURED=""
  local median_ns="${WARM_MEDIAN_NS[$name]:-0}"
  if ((WARMUP_MAX_MS > 0 && median_ns > 0)); then
    cap=$((WARMUP_MAX_MS * 1000000 / median_ns))
    ((cap >= calls)) || cap=$calls
    ((warmup <= cap)) || warmup=$cap
  fi
  WARMUP_CALLS=$warmup
  client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"prepare\", \"workload\": \"$name\"}" || return
  client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"warmup\", \"workload\": \"$name\", \"calls\": $warmup}" || return
  reset_peaks "$SERVER_PID"
  reset_peaks "$CLIENT_PID"
  if [[ -n "$NETNS_NAME" ]]; then accepted_before=$(netns_accepted); fi
  local measure="{\"cmd\": \"measure\", \"workload\": \"$name\", \"calls\": $calls, \"min_ms\": $min_ms, \"max_calls\": $max_calls}"
  # the JIT compiler threads' CPU over the repetitions, read outside them (a reading walks the process's threads)
  if [[ -n "$CELL_CLIENT_JIT" ]]; then jit_ticks "$CLIENT_PID" "$CELL_CLIENT_JIT" && client_jit=$JIT_TICKS; fi
  if [[ -n "$CELL_SERVER_JIT" ]]; then jit_ticks "$SERVER_PID" "$CELL_SERVER_JIT" && server_jit=$JIT_TICKS; fi
  for ((rep = 0; rep < reps; rep++)); do
    # The counters are read first and last, nothing else between them and the client's answer.
    cgroup_cpu_us client cb
    cgroup_cpu_us server sb
    if [[ -n "$NETNS_NAME" ]]; then netns_wire wb "$CLIENT_PID"; else wb=""; fi
    client_call "$COMMAND_TIMEOUT" "$measure" || rc=$?
    cgroup_cpu_us client ca
    cgroup_cpu_us server sa
    if [[ -n "$NETNS_NAME" ]]; then netns_wire wa "$CLIENT_PID"; else wa=""; fi
    ((rc == 0)) || return "$rc"
    answered=0
    if [[ "$CLIENT_ANSWER" =~ \"calls\":[[:space:]]*([0-9]+) ]]; then answered="${BASH_REMATCH[1]}"; fi
    counters_json wire_before "$WIRE_FIELDS" "$wb"
    counters_json wire_after "$WIRE_FIELDS" "$wa"
    printf -v "rows[$rep]" '{"calls": %s, %s, %s, "wire_before": %s, "wire_after": %s}' "$answered" \
      "\"client_cpu_us_before\": $cb, \"server_cpu_us_before\": $sb" \
      "\"client_cpu_us_after\": $ca, \"server_cpu_us_after\": $sa" "$wire_before" "$wire_after"
  done
  if [[ "$client_jit" != null ]]; then jit_ticks "$CLIENT_PID" "$CELL_CLIENT_JIT" && client_jit=$((JIT_TICKS - client_jit)); fi
  if [[ "$server_jit" != null ]]; then jit_ticks "$SERVER_PID" "$CELL_SERVER_JIT" && server_jit=$((JIT_TICKS - server_jit)); fi
  if [[ -n "$NETNS_NAME" ]]; then
    accepted_after=$(netns_accepted)
    read -r -a tw < <(netns_time_wait "$CLIENT_PID" "$SERVER_PID")
    time_wait="{\"client\": ${tw[0]:-null}, \"server\": ${tw[1]:-null}}"
  fi
  group_json client_group "$(sample_group "$CLIENT_PID")"
  group_json server_group "$(sample_group "$SERVER_PID")"
  client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"samples\", \"workload\": \"$name\"}" || return
  printf '%s\n' "$CLIENT_ANSWER" >"$cell_dir/$name.samples.json"
  local IFS=,
  printf -v MEASURED '{"repetitions": [%s], "accepted_before": %s, "accepted_after": %s, %s, %s}' "${rows[*]}" \
    "${accepted_before:-null}" "${accepted_after:-null}" \
    "\"time_wait\": $time_wait, \"client_group\": $client_group, \"server_group\": $server_group" \
    "\"jit_ticks\": {\"client\": $client_jit, \"server\": $server_jit, \"clock_ticks_per_s\": $CLK_TCK}"
}

run_workloads() {
  local cell_dir="$1" protocol="$2" name size warmup calls reps min_ms max_calls rc=0 reason
  warm_cell "$protocol" "$cell_dir" || rc=$?
  record_lost_client "$cell_dir" "$rc" "warm-up: " workloads || return 1
  while read -r name size warmup calls reps min_ms max_calls; do
    [[ -n "$name" ]] || continue
    rc=0
    time_workload "$cell_dir" "$name" "$calls" "$reps" "$min_ms" "$max_calls" "$warmup" || rc=$?
    case "$rc" in
      0)
        # the plan's names and numbers (plan.write_plans) and MEASURED, all JSON-safe as they are
        record "$cell_dir" "{\"kind\": \"workload\", \"pass\": $PASS, \"workload\": \"$name\", \"size\": \"$size\", \"warmup\": $WARMUP_CALLS, \"calls\": $calls, \"repetitions\": $reps, \"min_ms\": $min_ms, \"measured\": $MEASURED}"
        ;;
      1)
        json_quote reason "$CLIENT_ERROR"
        record "$cell_dir" "{\"kind\": \"status\", \"pass\": $PASS, \"status\": \"fail\", \"reason\": $reason, \"from\": \"$name\", \"only\": true}"
        ;;
      *) record_lost_client "$cell_dir" "$rc" "" "$name" || return 1 ;;
    esac
  done < <(plan_rows "$protocol")
  count_wire "$cell_dir" "$protocol"
}

# Bytes and packets per call, counted apart from the timing: offloads off (so a packet is wire-sized) and TCP's
# tail loss probes off (netns_loss_probes: their spurious resends followed timing), each workload's calls for
# at least the profile's count_ms (at least one call, at most count_calls) between two readings of the veth,
# segment and retransmission counters, then both back to their defaults. One line per workload in
# wire.jsonl (runner/FACTS.md), with the client's answer (the calls it made, and any background traffic its
# library counted apart). A call is bounded in time, not in count: a
# large workload counted over its few warm-up calls (3 in the main job) left gRPC's flow-control frames and
# RMI's lease and liveness traffic to fall on one call or another, run to run.
count_wire() {
  local cell_dir="$1" protocol="$2" name rest before after before_json after_json count
  local segments_before segments_after resent_before resent_after bytes_resent_before bytes_resent_after
  [[ -n "$NETNS_NAME" && "$COUNT_CALLS" -gt 0 ]] || return 0
  if ! netns_offloads off; then
    warn "could not switch offloads off; bytes and packets not counted for this cell"
    return 0
  fi
  netns_loss_probes off || warn "could not switch TCP's tail loss probes off; bytes may include their resends"
  while read -r name rest; do
    [[ -n "$name" ]] || continue
    netns_segments segments_before
    netns_retransmitted resent_before
    netns_resent bytes_resent_before
    netns_wire before "$CLIENT_PID"
    client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"measure\", \"workload\": \"$name\", \"calls\": 1, \"min_ms\": $COUNT_MS, \"max_calls\": $COUNT_CALLS}" || continue
    netns_wire after "$CLIENT_PID"
    netns_resent bytes_resent_after
    netns_retransmitted resent_after
    netns_segments segments_after
    count=0
    if [[ "$CLIENT_ANSWER" =~ \"calls\":[[:space:]]*([0-9]+) ]]; then count="${BASH_REMATCH[1]}"; fi
    ((count > 0)) || continue
    counters_json before_json "$WIRE_FIELDS" "$before"
    counters_json after_json "$WIRE_FIELDS" "$after"
    counters_json segments_before "$SEGMENT_FIELDS" "$segments_before"
    counters_json segments_after "$SEGMENT_FIELDS" "$segments_after"
    counters_json resent_before "$RETRANSMIT_FIELDS" "$resent_before"
    counters_json resent_after "$RETRANSMIT_FIELDS" "$resent_after"
    printf '{"workload": "%s", "calls": %s, "before": %s, "after": %s, "segments_before": %s, "segments_after": %s, "retransmitted_before": %s, "retransmitted_after": %s, "resent_bytes_before": %s, "resent_bytes_after": %s, "answer": %s}\n' \
      "$name" "$count" "$before_json" "$after_json" "$segments_before" "$segments_after" "$resent_before" \
      "$resent_after" "${bytes_resent_before:-null}" "${bytes_resent_after:-null}" "$CLIENT_ANSWER" >>"$cell_dir/wire.jsonl"
  done < <(plan_rows "$protocol")
  netns_loss_probes default || warn "could not restore TCP's tail loss probes"
  netns_offloads default || warn "could not restore the offloads' defaults"
}

# Starts a client of CELL on its own, in the client cgroup, pinned (for the languages' handlers).
start_handler_client() {
  local cell="$1" dir="$2" host="$3" port="$4"
  local -a argv pin=()
  mapfile -t argv < <(cell_argv "$cell" client "$host" "$port" "$dir")
  mapfile -t pin < <(pin_prefix client)
  client_start "$dir" "${pin[@]}" "${argv[@]}"
  cgroup_join client "$CLIENT_PID"
}

# protocol_has_metadata PROTOCOL: its registry entry names published metadata (read from the registry once).
declare -A METADATA_PROTOCOLS=()
METADATA_READ=0
protocol_has_metadata() {
  local protocol
  if ((METADATA_READ == 0)); then
    while IFS= read -r protocol; do
      METADATA_PROTOCOLS["$protocol"]=1
    done < <(jq -r '.protocols | to_entries[] | select(.value.metadata) | .key' "$IDL_DIR/protocols.json")
    METADATA_READ=1
  fi
  [[ -n "${METADATA_PROTOCOLS[$1]:-}" ]]
}

# For a protocol whose registry entry names published metadata (a SOAP server's ?wsdl): can the client's
# stack build a client from what this server publishes? The answer goes beside the vectors. A client that
# does not answer ends the cell, as for the vectors.
check_metadata() {
  local cell_dir="$1" protocol="$2" rc=0
  METADATA_RC=0
  protocol_has_metadata "$protocol" || return 0
  client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"metadata\", \"protocol\": \"$protocol\"}" || rc=$?
  if ((rc >= 2)); then
    METADATA_RC=$rc
    record "$cell_dir" "{\"kind\": \"vectors\", \"pass\": $PASS}"
    record_lost_client "$cell_dir" "$rc" "metadata: " workloads || true
    return 1
  fi
  printf '%s\n' "$CLIENT_ANSWER" >"$cell_dir/metadata.json"
}

# The cell's vectors all passed or are unsupported, or the ones that failed are known failures of this
# cell: the rule is known_failures.vectors_allow_timing (one interpreter start per cell that gets here).
vectors_allow_timing() {
  "$PYTHON" -m analysis allow-timing --known-failures "$KNOWN_FAILURES" --cell "$2" --vectors "$1/vectors.json"
}

# Records the rest of the cell as the client's failure: a timeout (rc 3) or an error, with its message and
# whether the server had gone.
record_client_failure() {
  local cell_dir="$1" rc="$2" what="$3" status=error note
  if ((rc == 3)); then status=timeout; fi
  note=$(server_gone_note)
  record_rest "$cell_dir" "$status" "$what: $CLIENT_ERROR$note"
}

# connect_vectors CELL_DIR PROTOCOL HOST PORT CLIENT_AGE SERVER_AGE: the active client connects to the server
# at HOST:PORT, answers the contract's vectors and, where the registry names published metadata, whether it can
# consume it; the connect answer (with each process's age: new or kept), the vectors and the metadata are the
# cell's. Returns 1 when the cell ends here, its rest recorded, with client_call's status in CONNECT_VECTORS_RC.
connect_vectors() {
  local cell_dir="$1" protocol="$2" host="$3" port="$4" client_age="$5" server_age="$6" rc=0
  CONNECT_VECTORS_RC=0
  client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"connect\", \"host\": \"$host\", \"port\": $port}" || rc=$?
  if ((rc != 0)); then
    record_client_failure "$cell_dir" "$rc" connect
    CONNECT_VECTORS_RC=$rc
    return 1
  fi
  # the runner's own facts beside the client's: whether each process is new to this cell
  if [[ "$CLIENT_ANSWER" =~ ^[[:space:]]*(\{.*[^[:space:]{])[[:space:]]*\}[[:space:]]*$ ]]; then
    printf '%s, "processes": {"client": "%s", "server": "%s"}}\n' "${BASH_REMATCH[1]}" "$client_age" "$server_age" \
      >"$cell_dir/connect.json"
  else
    jq -c --arg c "$client_age" --arg s "$server_age" '. + {processes: {client: $c, server: $s}}' \
      <<<"$CLIENT_ANSWER" >"$cell_dir/connect.json"
  fi
  client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"vectors\", \"protocol\": \"$protocol\"}" || rc=$?
  if ((rc != 0)); then
    record_client_failure "$cell_dir" "$rc" vectors
    CONNECT_VECTORS_RC=$rc
    return 1
  fi
  printf '%s\n' "$CLIENT_ANSWER" >"$cell_dir/vectors.json"
  if ! check_metadata "$cell_dir" "$protocol"; then
    CONNECT_VECTORS_RC=$METADATA_RC
    return 1
  fi
  record "$cell_dir" "{\"kind\": \"vectors\", \"pass\": $PASS}"
}

# The cell's vectors did not all pass (and not as known failures): its workloads are not timed.
record_untimed() {
  record "$1" "{\"kind\": \"status\", \"pass\": $PASS, \"status\": \"fail\", \"from\": \"workloads\", \"blocked_by\": \"vectors\", \"reason\": \"not timed: the cell's vectors did not all pass (correctness before speed)\"}"
}

# Runs the vectors and, only when they all passed or are unsupported (or failed as known), the timed
# workloads. A cell whose vectors the warm phase ran (.timing: they let it be timed) reconnects and goes
# straight to its workloads.
drive_client() {
  local cell="$1" cell_dir="$2" protocol="$3" host="$4" rc=0 client_age=kept server_age=kept
  client_for_cell "$cell" "$cell_dir" "$host" "$SERVER_PORT"
  point_scratch "$CLIENT_KEY" "$SERVER_KEY"
  if ((CLIENT_NEW)); then jit_track "client|$CLIENT_KEY" "$CLIENT_PID" "$CELL_CLIENT_JIT" "$CELL_CLIENT_WARMUP_MAX"; fi
  if [[ -e "$cell_dir/.timing" ]]; then
    client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"connect\", \"host\": \"$host\", \"port\": $SERVER_PORT}" || rc=$?
    if ((rc != 0)); then
      record_client_failure "$cell_dir" "$rc" connect
      return
    fi
    run_workloads "$cell_dir" "$protocol" || true
    return
  fi
  ((CLIENT_NEW != 1)) || client_age=new
  ((SERVER_NEW != 1)) || server_age=new
  connect_vectors "$cell_dir" "$protocol" "$host" "$SERVER_PORT" "$client_age" "$server_age" || return 0
  if ! times_workloads "$protocol"; then
    return
  elif vectors_allow_timing "$cell_dir" "$CELL_NAME"; then
    run_workloads "$cell_dir" "$protocol" || true
  else
    record_untimed "$cell_dir"
  fi
}

# The fixed CPU probe of the floor program, in ns, or null without it.
calibration_ns() {
  local answer
  if [[ -x "$FLOOR_BIN" ]] && answer=$("$FLOOR_BIN" spin --iterations 20000000 2>/dev/null) &&
    [[ "$answer" =~ \"ns\":[[:space:]]*([0-9]+) ]]; then
    printf '%s\n' "${BASH_REMATCH[1]}"
  else
    echo null
  fi
}

# run_cell CELL_JSON [FLOOR]: everything for one cell in pass PASS; always leaves facts in its folder of the
# pass, which end_cell folds into records, FLOOR (the folder of the floor taken before its server group,
# relative to the run) among them. Its server and client stay up for the next cells of the protocol unless
# they failed (processes.sh).
run_cell() {
  local cell="$1" floor="${2:-}" slug protocol server_language client_language unsupported error cell_dir host retire_server_after_cell
  read_cell "$cell"
  slug="$CELL_SLUG" protocol="$CELL_PROTOCOL" unsupported="$CELL_UNSUPPORTED" error="$CELL_ERROR"
  server_language="$CELL_SERVER_LANGUAGE" client_language="$CELL_CLIENT_LANGUAGE"
  mkdir -p "$OUT/cells/$slug/pass$PASS"
  cell_dir="$OUT/cells/$slug/pass$PASS"
  [[ -f "$OUT/cells/$slug/cell.json" ]] || printf '%s\n' "$cell" >"$OUT/cells/$slug/cell.json"
  if [[ -n "$error" ]]; then
    record_rest "$cell_dir" error "$error"
    return
  elif [[ -n "$unsupported" ]]; then
    record_rest "$cell_dir" unsupported "$unsupported"
    return
  fi
  local lang
  for lang in "$server_language" "$client_language"; do
    if [[ -f "$OUT/build/$lang.failed" ]]; then
      record_rest "$cell_dir" error "build of $lang failed: $(tail -n 3 "$OUT/build/$lang.log" | tr '\n' ' ')"
      return
    fi
  done
  local steal_before calibration
  if [[ -n "$LIVE_PROTOCOL" && "$protocol" != "$LIVE_PROTOCOL" ]]; then retire_processes "$LIVE_PROTOCOL"; fi
  LIVE_PROTOCOL="$protocol" CLIENT_LOST=0
  if [[ -e "$cell_dir/.settled" ]]; then
    # the warm phase ended the cell (its server never got ready, its client failed): its facts are all there
    record "$cell_dir" "{\"kind\": \"cell_end\", \"pass\": $PASS, \"steal_ticks\": 0, \"calibration_ns\": null}"
    return
  fi
  steal_before=$(steal_ticks)
  # the host's CPU probe goes beside timed figures only (42 ms of CPU a cell: certify has 135 such cells)
  calibration=null
  if times_workloads "$protocol"; then calibration=$(calibration_ns); fi
  host="${NETNS_SERVER_IP:-127.0.0.1}"
  if ! serve_cell "$cell" "$cell_dir" "$host"; then
    record_rest "$cell_dir" error "$READY_ERROR: $(tail -n 3 "$cell_dir/server.log" | tr '\n' ' ')"
    retire_server_after_cell=1
  else
    if ((SERVER_NEW)); then jit_track "server|$SERVER_KEY" "$SERVER_PID" "$CELL_SERVER_JIT" "$CELL_SERVER_WARMUP_MAX"; fi
    drive_client "$cell" "$cell_dir" "$protocol" "$host"
    release_client
    retire_server_after_cell=0
  fi
  # floor: a folder of the run (floor/pass<N>/before-<slug>), JSON-safe as it is
  record "$cell_dir" "{\"kind\": \"cell_end\", \"pass\": $PASS, \"steal_ticks\": $(($(steal_ticks) - steal_before)), \"calibration_ns\": $calibration${floor:+, \"floor\": \"$floor\"}}"
  if ((retire_server_after_cell)); then retire_server; else release_server; fi
  gzip -qf "$cell_dir"/*.samples.json 2>/dev/null || true
}
