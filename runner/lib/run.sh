#!/usr/bin/env bash
# One run from options to report: parse and check the options, expand and filter the cells, build, set
# up the namespace and the pinned cgroups, measure the machine's floor and each language's handler, run
# the cells (in a new seeded random order each pass) with progress, and render results even when
# interrupted.

parse_options() {
  PROFILE="default" PROTOCOLS="" SERVERS="" CLIENTS="" CELLS="" OUT="" USE_NETNS=1 FIXED_PORT=0
  READY_TIMEOUT=60 COMMAND_TIMEOUT="" KNOWN_FAILURES="$ROOT/runner/known-failures.json" SKIP_BUILD=0
  MANIFEST_DIR="$ROOT" IDL_DIR="$ROOT/idl" PROCESS_IDL_DIR="" POSITIONAL=() PASSES="" SEED="" USE_PIN=1 SERVER_SPIN="" WRITE_HTML=1
  while (($# > 0)); do
    case "$1" in
      --profile) PROFILE="${2:?--profile needs a name}" && shift ;;
      --protocol) PROTOCOLS="${2:?--protocol needs a list}" && shift ;;
      --server) SERVERS="${2:?--server needs a list}" && shift ;;
      --client) CLIENTS="${2:?--client needs a list}" && shift ;;
      --cell) CELLS="${CELLS:+$CELLS,}${2:?--cell needs a name}" && shift ;;
      --out) OUT="${2:?--out needs a folder}" && shift ;;
      --passes) PASSES="${2:?--passes needs a number}" && shift ;;
      --seed) SEED="${2:?--seed needs a number}" && shift ;;
      --no-netns) USE_NETNS=0 ;;
      --no-pin) USE_PIN=0 ;;
      --no-html) WRITE_HTML=0 ;;
      --fresh-processes) KEEP_PROCESSES=0 ;;
      --port) FIXED_PORT="${2:?--port needs a number}" && shift ;;
      --ready-timeout) READY_TIMEOUT="${2:?--ready-timeout needs seconds}" && shift ;;
      --command-timeout) COMMAND_TIMEOUT="${2:?--command-timeout needs seconds}" && shift ;;
      --known-failures) KNOWN_FAILURES="${2:?--known-failures needs a file}" && shift ;;
      --skip-build) SKIP_BUILD=1 ;;
      --manifests) MANIFEST_DIR="${2:?--manifests needs a folder}" && shift ;;
      --idl) IDL_DIR="${2:?--idl needs a folder}" && shift ;;
      --inject-server-spin) SERVER_SPIN="${2:?--inject-server-spin needs LANGUAGE=MICROSECONDS}" && shift ;;
      -*) die "unknown option '$1' (see runner/rpcmatrix --help)" ;;
      *) POSITIONAL+=("$1") ;;
    esac
    shift
  done
  [[ "$FIXED_PORT" =~ ^[0-9]+$ ]] || die "--port takes a number, not '$FIXED_PORT'"
  [[ "$READY_TIMEOUT" =~ ^[0-9]+$ ]] || die "--ready-timeout takes whole seconds"
  [[ "$COMMAND_TIMEOUT" =~ ^[0-9]*$ ]] || die "--command-timeout takes whole seconds"
  [[ "$PASSES" =~ ^([1-9][0-9]*)?$ ]] || die "--passes takes a whole number of 1 or more"
  [[ "$SEED" =~ ^[0-9]*$ ]] || die "--seed takes a whole number"
  [[ "$SERVER_SPIN" =~ ^([a-z0-9_-]+=[0-9]+(,[a-z0-9_-]+=[0-9]+)*)?$ ]] ||
    die "--inject-server-spin takes LANGUAGE=MICROSECONDS[,...], e.g. java=20, not '$SERVER_SPIN'"
  [[ -d "$IDL_DIR" ]] || die "no contract folder $IDL_DIR"
  IDL_DIR=$(cd "$IDL_DIR" && pwd)
  [[ -f "$IDL_DIR/protocols.json" ]] || die "no protocol registry $IDL_DIR/protocols.json"
  [[ -f "$KNOWN_FAILURES" ]] || die "no known-failures file $KNOWN_FAILURES"
  SECRETS_DIR="$ROOT/secrets"
  PYTHON="$ROOT/.venv/bin/python"
  FLOOR_BIN="$ROOT/runner/floor/bin/floor"
  export PYTHONPATH="$ROOT/runner${PYTHONPATH:+:$PYTHONPATH}"
}

# The profile must exist before anything is built or set up.
check_profile() {
  local known
  known=$(jq -r '.profiles | keys_unsorted | join(", ")' "$IDL_DIR/workloads.json") ||
    die "$IDL_DIR/workloads.json is not valid JSON"
  jq -e --arg p "$PROFILE" '.profiles | has($p)' "$IDL_DIR/workloads.json" >/dev/null ||
    die "unknown profile '$PROFILE'; known: $known"
}

# The selected cells, one JSON line each, in CELL_LINES (ALL_CELL_LINES before selection), planned by
# the analysis (plan.write_cells): unknown names are reported, not fatal; the protocols the registry marks
# opt_in are left out (and said so) unless the profile takes them or --protocol names protocols
# (LEFT_OUT_JSON: [{protocol, reason}], for the report). MANIFESTS_JSON: the resolved manifests.
select_cells() {
  local dir
  [[ -x "$PYTHON" ]] || die "no $PYTHON: run runner/setup.sh first"
  dir=$(mktemp -d)
  plan_cells "$dir"
  ALL_CELL_LINES=$(<"$dir/all.jsonl")
  CELL_LINES=$(<"$dir/cells.jsonl")
  LEFT_OUT_JSON=$(<"$dir/left-out.json")
  MANIFESTS_JSON=$(<"$dir/manifests.json")
  rm -rf "$dir"
  [[ -n "$CELL_LINES" ]] || die "no cell matches the selection"
}

# Each language --inject-server-spin names must be one the manifests declare.
check_server_spin() {
  local entry known
  known=$(jq -r '[.[].language] | join(", ")' <<<"$MANIFESTS_JSON")
  for entry in ${SERVER_SPIN//,/ }; do
    jq -e --arg l "${entry%%=*}" 'any(.[]; .language == $l)' <<<"$MANIFESTS_JSON" >/dev/null ||
      die "--inject-server-spin: unknown language '${entry%%=*}'; known: $known"
  done
}

list_cells() {
  jq -r '"\(.name)\t\(if .error then "error: \(.error)" elif .unsupported then "unsupported: \(.unsupported)" else "runs" end)"' <<<"$CELL_LINES"
}

print_commands() {
  local name="$1" cell host="127.0.0.1" scratch="${TMPDIR:-/tmp}/rpcmatrix-cell"
  cell=$(jq -c --arg n "$name" 'select(.name == $n)' <<<"$CELL_LINES" | head -n 1)
  [[ -n "$cell" ]] || die "no cell named '$name' (runner/rpcmatrix cells lists them)"
  [[ "$(jq -r '.error // .unsupported // ""' <<<"$cell")" == "" ]] || die "$name cannot run: $(jq -r '.error // .unsupported' <<<"$cell")"
  printf '# %s — run from %s\n# 1. the server (port 0: the OS picks one; it prints {"ready": true, "port": N}):\n' "$name" "$ROOT"
  printf '# {cell}, a scratch folder both share: %s (mkdir -p it)\n' "$scratch"
  cell_argv "$cell" server "$host" "$FIXED_PORT" "$scratch" | jq -Rrs 'split("\n")[:-1] | map(@sh) | join(" ")'
  printf '# 2. the client, with N from the ready line; it reads commands on stdin (runner/PROTOCOL.md):\n'
  printf "printf '%%s\\\\n' '{\"cmd\": \"connect\"}' '{\"cmd\": \"vectors\", \"protocol\": \"%s\"}' '{\"cmd\": \"quit\"}' | " "$(jq -r .protocol <<<"$cell")"
  cell_argv "$cell" client "$host" "N" "$scratch" | jq -Rrs 'split("\n")[:-1] | map(@sh) | join(" ")'
}

# Builds each language the selected cells use, once; a failure marks that language's cells.
build_languages() {
  local lang argv_json
  local -a argv
  mkdir -p "$OUT/build"
  for lang in $(jq -r 'select(.unsupported == null and .error == null) | .server_language, .client_language' <<<"$CELL_LINES" | sort -u); do
    argv_json=$(jq -c --arg l "$lang" '.[] | select(.language == $l) | .build // empty' <<<"$MANIFESTS_JSON")
    [[ -n "$argv_json" && "$SKIP_BUILD" == 0 ]] || continue
    mapfile -t argv < <(jq -r '.[]' <<<"$argv_json")
    info "building $lang: ${argv[*]}"
    if ! (cd "$ROOT" && "${argv[@]}") >"$OUT/build/$lang.log" 2>&1; then
      warn "build of $lang failed; its cells are marked error (see $OUT/build/$lang.log)"
      touch "$OUT/build/$lang.failed"
    fi
  done
}

# The build command: each language the selected cells use, built once, so that several runs can then start
# at once with --skip-build (the smoke test's shards); exits 1, with each failed build's last lines, when any
# failed.
build_only() {
  local lang failed=0
  OUT=$(mktemp -d)
  build_languages
  for lang in "$OUT"/build/*.failed; do
    [[ -e "$lang" ]] || continue
    failed=1
    tail -n 5 "${lang%.failed}.log" >&2
  done
  rm -rf "$OUT"
  if ((failed)); then
    warn "a build failed (above)"
    exit 1
  fi
  info "built"
}

# The clients' pipes closed and every process group this shell started stopped.
stop_processes() {
  local key fd_in fd_out
  if [[ -n "${CLIENT_PID:-}" && -n "${CLIENT_IN:-}" ]]; then
    exec {CLIENT_IN}>&- {CLIENT_OUT}<&- 2>/dev/null || true
  fi
  for key in "${!KEPT_CLIENTS[@]}"; do
    read -r _ fd_in fd_out _ <<<"${KEPT_CLIENTS[$key]}"
    exec {fd_in}>&- {fd_out}<&- 2>/dev/null || true
  done
  stop_all_groups
}

# Each lane stops its own processes (run_lane's traps); then the runner's own go, and the namespace and
# cgroups.
stop_lanes() {
  local pid
  for pid in "${LANE_PIDS[@]}" "${WARM_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${LANE_PIDS[@]}" "${WARM_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  LANE_PIDS=() WARM_PIDS=()
}

cleanup() {
  trap - INT TERM
  stop_lanes
  stop_processes
  netns_destroy
  cgroup_destroy
  if [[ -n "${OUT:-}" ]]; then rm -f "$OUT/runner.pid"; fi
}

on_interrupt() {
  warn "interrupted: stopping processes, keeping the records written so far"
  cleanup
  fold_unfolded_step
  render_results || true
  exit 130
}

render_results() {
  local -a html=()
  ((WRITE_HTML)) || html=(--no-html)
  "$PYTHON" -m analysis render --run "$OUT" --known-failures "$KNOWN_FAILURES" "${html[@]}"
}

setup_network() {
  local reason
  NETNS_LOG="$OUT/netns.log"
  if ((USE_NETNS == 0)); then
    WIRE_NOTE="not measured: --no-netns (client and server on 127.0.0.1)"
    return
  fi
  reason=$(netns_unavailable_reason)
  if [[ -z "$reason" ]] && netns_create "$(printf '%05d' $(($$ % 100000)))"; then
    WIRE_NOTE="$NETNS_NOTE; counted on the client's veth in a separate pass per workload (at least count_ms, at most count_calls calls): Ethernet frames (14-byte header + IP + TCP + payload); offloads $NETNS_OFFLOADS"
    if [[ -n "$NETNS_EARLY_RETRANS" ]]; then
      WIRE_NOTE+="; TCP's tail loss probes off while counting (their spurious resends followed timing)"
    else
      WIRE_NOTE+="; TCP's tail loss probes as the kernel has them (no net.ipv4.tcp_early_retrans to turn off)"
    fi
    WIRE_NOTE+="; the segments each side retransmitted counted beside"
    if [[ -n "$NETNS_SEGMENTS" ]]; then
      WIRE_NOTE+="; TCP payload and the segments carrying it, bare ACKs apart, from $NETNS_SEGMENTS"
    else
      WIRE_NOTE+="; segments not told apart (no nftables): the frames include the bare ACKs, whose number depends on timing"
    fi
  else
    WIRE_NOTE="not measured: ${reason:-$NETNS_NOTE} (client and server on 127.0.0.1)"
    warn "$WIRE_NOTE"
  fi
}

setup_cgroups() {
  local tag
  tag=$(printf '%05d' $(($$ % 100000)))
  # The tag names this run's namespace and cgroups; tests use it to check that nothing of it is left.
  printf '%s\n' "$tag" >"$OUT/runner.tag"
  CPU_NOTE="utime + stime from /proc/<pid>/stat (10 ms ticks), summed over each process group"
  if cgroup_create "$tag"; then
    CPU_NOTE="usage of a cgroup ($CGROUP_KIND) per side, holding the process group: every thread and child, exited ones included, to the microsecond; read just before and after each repetition"
  fi
  if ((LANES > 1)); then
    # cells at once on pinned CPUs would queue the lanes' clients on one CPU and their servers on the other
    PIN_NOTE="not pinned: $LANES lanes of cells at once share the CPUs (the profile measures nothing)"
  elif ((USE_PIN == 1)); then
    cpuset_create "$tag" || warn "$PIN_NOTE"
  else
    PIN_NOTE="not pinned: --no-pin"
  fi
}

# measure_floor [DIR KIND [SHORT]]: the machine's floor, the C ping-pong of runner/floor over the same path and
# CPUs, with the small workloads' counts. Its server and client go into the server's and the client's
# cgroup and cpuset as a cell's do (the client before it starts: it runs in the foreground); each side's
# /proc/<pid>/cgroup is a fact (`cgroups`). By default it is the pass's floor, at its start, whose answer
# becomes the records of the pseudo-cell floor/c→c; with DIR and KIND adjacent_floor it is the floor taken
# just before a server group's first cell (measure_adjacent_floor), which the cells of the group refer to,
# or with SHORT 1 the one taken right after a cell (measure_floor_after): a tenth of the warm-up and one
# repetition.
measure_floor() {
  local dir="${1:-$OUT/floor/pass$PASS}" kind="${2:-floor}" short="${3:-0}" host="${NETNS_SERVER_IP:-127.0.0.1}" rc=0 server_pid
  local warmup reps
  local server_cgroup="" client_cgroups server_cgroups error=""
  local -a launch=() client_launch=() pin=() join=()
  rm -rf "$dir"
  mkdir -p "$dir"
  if [[ ! -x "$FLOOR_BIN" ]]; then
    record "$dir" "{\"kind\": \"$kind\", \"pass\": $PASS, \"error\": \"runner/floor/bin/floor is not built (runner/setup.sh builds it)\"}"
    return
  fi
  mapfile -t launch < <(netns_prefix server)
  mapfile -t client_launch < <(netns_prefix client)
  mapfile -t pin < <(pin_prefix server)
  start_group /dev/null "$dir/server.out" "$dir/server.log" "${launch[@]}" "${pin[@]}" "$FLOOR_BIN" server --host "$host" --port 0
  server_pid="$STARTED_PID"
  SERVER_PID="$server_pid" # for the cleanup trap
  cgroup_join server "$server_pid"
  : >"$dir/client.cgroup"
  if wait_ready "$dir/server.out" "$server_pid" 10; then
    server_cgroup=$(<"/proc/$server_pid/cgroup") || true
    if ((${#FLOOR_COUNTS[@]} == 0)); then
      read -r -a FLOOR_COUNTS < <(jq -r '.small | "\(.warmup * 10) \(.calls) \(.min_ms) \(.max_calls // .calls) \(.repetitions)"' "$OUT/plan/profile.json")
    fi
    warmup="${FLOOR_COUNTS[0]}" reps="${FLOOR_COUNTS[4]}"
    if ((short)); then warmup=$((warmup / 10)) reps=1; fi
    mapfile -t pin < <(pin_prefix client)
    mapfile -t join < <(cgroup_prefix client)
    # shellcheck disable=SC2016 # the inner script's variables are its own
    timeout "$COMMAND_TIMEOUT" "${join[@]}" "${client_launch[@]}" "${pin[@]}" \
      bash -c 'cat /proc/self/cgroup >"$0"; exec "$@"' "$dir/client.cgroup" \
      "$FLOOR_BIN" client --host "$host" --port "$READY_PORT" --warmup "$warmup" \
      --calls "${FLOOR_COUNTS[1]}" --min-ms "${FLOOR_COUNTS[2]}" --max-calls "${FLOOR_COUNTS[3]}" --repetitions "$reps" \
      >"$dir/ping.samples.json" 2>"$dir/client.log" || rc=$?
  else
    rc=1
    printf '%s\n' "$READY_ERROR" >"$dir/client.log"
  fi
  stop_group "$server_pid" 2
  SERVER_PID=""
  json_lines client_cgroups "$(<"$dir/client.cgroup")"
  json_lines server_cgroups "$server_cgroup"
  if ((rc != 0)); then
    json_quote error "the floor ping-pong failed (status $rc): $(tail -n 2 "$dir/client.log")"
    error=", \"error\": $error"
  fi
  record "$dir" "{\"kind\": \"$kind\", \"pass\": $PASS, \"cgroups\": {\"client\": $client_cgroups, \"server\": $server_cgroups}$error}"
}

# The floor client's counts (the profile's small workloads'), read once: warm-up, calls, min_ms, max_calls,
# repetitions.
FLOOR_COUNTS=()

# measure_adjacent_floor CELL_JSON: before the first cell of each server group (a protocol and a server
# implementation) that runs, the floor again, so that every cell is set against a floor taken minutes, not
# a pass, away from it: the path's latency moves within a pass on a virtual machine. The previous protocol's
# processes go first (they would have gone with this cell anyway), so the floor runs beside idle, parked
# processes only.
# Sets ADJACENT_FLOOR to its folder, relative to the run (empty when the profile takes no floor).
measure_adjacent_floor() {
  local group
  ((FLOOR_ON)) || return 0
  read_cell "$1"
  group="$CELL_PROTOCOL|$CELL_SERVER"
  [[ -z "$CELL_UNSUPPORTED$CELL_ERROR" && "$group" != "$FLOOR_GROUP" ]] || return 0
  if [[ -n "$LIVE_PROTOCOL" && "$CELL_PROTOCOL" != "$LIVE_PROTOCOL" ]]; then retire_processes "$LIVE_PROTOCOL"; fi
  ADJACENT_FLOOR="floor/pass$PASS/before-$CELL_SLUG"
  measure_floor "$OUT/$ADJACENT_FLOOR" adjacent_floor
  FLOOR_GROUP="$group"
}

# measure_floor_after CELL_DIR SLUG: right after a cell's last workload, the floor once more (a short one), its
# folder a fact of the cell's (kind floor_after): the path's latency can change within a cell on a virtual
# machine (in one default run a cell's echoString took 27.0 µs p50 in its first repetition and 19.2 µs in
# the next four, every call, while the floor before its group had taken 24.2 µs), so a cell is held against
# the floors on both sides of it.
measure_floor_after() {
  local cell_dir="$1" folder="floor/pass$PASS/after-$2"
  ((FLOOR_ON)) || return 0
  measure_floor "$OUT/$folder" adjacent_floor 1
  record "$cell_dir" "{\"kind\": \"floor_after\", \"pass\": $PASS, \"floor\": \"$folder\"}"
}

# Each language that serves a selected cell: the in-process time of its reference behaviour, for every
# workload its cells time, through one of its clients started without a server (runner/PROTOCOL.md).
measure_handlers() {
  local lang cell dir rc name size warmup calls reps min_ms max_calls error quoted_lang
  for lang in $(jq -r 'select(.unsupported == null and .error == null) | .server_language' <<<"$CELL_LINES" | sort -u); do
    [[ ! -f "$OUT/build/$lang.failed" ]] || continue
    cell=$(jq -c --arg l "$lang" --arg b "$BASELINE" 'select(.client_language == $l and .unsupported == null and .error == null)
      | {c: ., rank: (if .protocol == $b then 0 else 1 end)}' <<<"$ALL_CELL_LINES" | jq -sc 'sort_by(.rank) | first | .c // empty')
    [[ -n "$cell" ]] || continue
    dir="$OUT/handlers/$lang"
    mkdir -p "$dir"
    start_handler_client "$cell" "$dir" 127.0.0.1 9
    while read -r name size warmup calls reps min_ms max_calls; do
      [[ -n "$name" ]] || continue
      rc=0
      client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"handler\", \"workload\": \"$name\", \"calls\": $calls, \"min_ms\": $min_ms, \"max_calls\": $max_calls, \"repetitions\": $reps}" || rc=$?
      if ((rc == 0)); then
        printf '%s\n' "$CLIENT_ANSWER" | gzip -c >"$dir/$name.samples.json.gz"
      fi
      error=""
      if ((rc != 0)); then json_quote error "$CLIENT_ERROR" && error=", \"error\": $error"; fi
      json_quote quoted_lang "$lang"
      record "$OUT/handlers" "{\"kind\": \"handler\", \"language\": $quoted_lang, \"workload\": \"$name\", \"size\": \"$size\"$error}"
      ((rc < 2)) || break
    done < <(jq -r --arg l "$lang" 'select(.server_language == $l and .unsupported == null and .error == null) | .protocol' <<<"$CELL_LINES" |
      sort -u | while read -r protocol; do plan_rows "$protocol"; done | sort -u -k1,1)
    client_stop
  done
}

# The cells of one pass, one JSON line each, in a random order drawn from the run's seed and the pass,
# grouped by protocol and server so that processes can be kept across cells (processes.sh).
shuffled_cells() {
  "$PYTHON" -m analysis shuffle --seed "$SEED" --pass "$PASS" "$@" <<<"$CELL_LINES"
}

# Progress: the cell's outcome and the time left, estimated from the work the remaining cells have
# (their planned repetitions and warm-up bounds), scaled by how long the work done so far really took.
# Each finished step is folded into its records, then goes to the run's journal; a resumed run skips the
# steps it lists (and drops the records of any other).
run_matrix() {
  local -a fresh=()
  ((KEEP_PROCESSES)) || fresh=(--fresh-processes)
  MATRIX_STARTED=$SECONDS DONE_WORK=0 MATRIX_STATUS=0
  PLANNED=$("$PYTHON" -m analysis estimate --run "$OUT" --passes "$PASSES" "${fresh[@]}" <<<"$CELL_LINES")
  if [[ -n "$RESUME" ]]; then PLANNED=$((PLANNED - $("$PYTHON" -m analysis estimate --run "$OUT" --finished))); fi
  FLOOR_ON=0
  if [[ "$(jq -r '.floor // false' "$OUT/plan/profile.json")" == true ]]; then FLOOR_ON=1; fi
  local total=$(($(wc -l <<<"$CELL_LINES") * PASSES)) first
  for ((PASS = 1; PASS <= PASSES; PASS++)); do
    FLOOR_GROUP="" ADJACENT_FLOOR=""
    if ((FLOOR_ON)) && ! is_finished "$PASS" stage:floor; then
      info "pass $PASS of $PASSES: the machine's floor (C ping-pong)"
      gather_facts "$OUT/floor/pass$PASS" measure_floor
      fold_step "$OUT/floor/pass$PASS"
      journal "$PASS" stage:floor
    fi
    first=$(((PASS - 1) * total / PASSES + 1))
    if ((LANES > 1)); then
      run_lanes "$total" "$first"
    elif ((WARM_PHASE)); then
      run_phases "$total" < <(shuffled_cells --warm-processes "$WARM_PROCESSES" | awk -v i="$first" '{ print i++ "\t" $0 }')
    else
      run_cells "$total" < <(shuffled_cells | awk -v i="$first" '{ print i++ "\t" $0 }')
    fi
  done
}

# run_phases TOTAL: the cells on stdin ("<index>\t<phase>\t<cell JSON>" lines, in the pass's order), phase by
# phase (plan.warm_chunks: a group of protocols): the phase's processes warmed together (warm_phase), then its
# cells run one at a time (run_cells).
run_phases() {
  local total="$1" index phase cell current=""
  local -a lines=()
  while IFS=$'\t' read -r index phase cell; do
    if [[ -n "$current" && "$phase" != "$current" ]]; then
      run_phase "$total" "${lines[@]}"
      lines=()
    fi
    current="$phase"
    lines+=("$index"$'\t'"$cell")
  done
  if ((${#lines[@]} > 0)); then run_phase "$total" "${lines[@]}"; fi
}

# run_phase TOTAL LINE...: one warm phase and its cells ("<index>\t<cell JSON>" lines).
run_phase() {
  local total="$1"
  shift
  WARM_DIRS_UNFOLDED=1
  warm_phase < <(printf '%s\n' "$@")
  run_cells "$total" < <(printf '%s\n' "$@")
  WARM_DIRS_UNFOLDED=0
}

# run_cells TOTAL: the cells on stdin ("<index>\t<cell JSON>" lines, in the pass's order), each run, folded
# and journalled, with its progress line; then the pass's declined cells and kept processes go. In a lane
# (LANE set) a cell's progress line is printed whole when it ends, as other lanes print theirs meanwhile.
run_cells() {
  local total="$1" index cell name slug declined work summary left
  while IFS=$'\t' read -r index cell; do
    read_cell "$cell"
    name="$CELL_NAME" slug="$CELL_SLUG" declined="$CELL_UNSUPPORTED$CELL_ERROR"
    if is_finished "$PASS" "$name"; then continue; fi
    if [[ -n "$declined" ]]; then
      gather_facts "$OUT/cells/$slug/pass$PASS" run_cell "$cell" </dev/null
      DECLINED_DIRS+=("$OUT/cells/$slug/pass$PASS") DECLINED_NAMES+=("$name") DECLINED_INDEXES+=("$index")
      continue
    fi
    end_declined_cells "$total"
    measure_adjacent_floor "$cell" </dev/null
    [[ -n "$LANE" ]] || printf '[%d/%d] %s ' "$index" "$total" "$name" >&2
    gather_facts "$OUT/cells/$slug/pass$PASS" run_cell "$cell" "$ADJACENT_FLOOR" </dev/null
    measure_floor_after "$OUT/cells/$slug/pass$PASS" "$slug" </dev/null
    IFS=$'\t' read -r work summary < <(end_cell "$OUT/cells/$slug/pass$PASS")
    journal "$PASS" "$name"
    FOLDED_DIRS["$OUT/cells/$slug/pass$PASS"]=1
    DONE_WORK=$((DONE_WORK + work))
    left=0
    if ((DONE_WORK > 0 && PLANNED > DONE_WORK)); then
      left=$(((SECONDS - MATRIX_STARTED) * (PLANNED - DONE_WORK) / DONE_WORK))
    fi
    if [[ -n "$LANE" ]]; then
      printf '[%d/%d] %s %s (lane %s: about %s left)\n' "$index" "$total" "$name" "$summary" "$LANE" "$(human_seconds "$left")" >&2
    else
      printf '%s (about %s left)\n' "$summary" "$(human_seconds "$left")" >&2
    fi
  done
  end_declined_cells "$total"
  retire_processes
}

# The lane a subshell runs (empty in the runner itself), and the runner's lanes at work.
LANE=""
LANE_PIDS=()

# run_lanes TOTAL FIRST: the pass's cells queued in groups, one per protocol, largest first (plan.lane_queue);
# LANES lanes, each a subshell that takes the next group whenever it is done with one and runs its cells as
# the runner would, all at once, sharing the namespace and cgroups. Only a profile that measures nothing has
# lanes (plan.lanes). A lane that stops early leaves its cells unrecorded: the run ends with status 1, and
# --resume runs them.
run_lanes() {
  local total="$1" index="$2" dir place cell file lane status planned
  dir="$OUT/plan/lanes/pass$PASS"
  rm -rf "$dir" && mkdir -p "$dir"
  while IFS=$'\t' read -r place cell; do
    printf -v file '%s/group%04d.tsv' "$dir" "$place"
    printf '%s\t%s\n' "$index" "$cell" >>"$file"
    index=$((index + 1))
  done < <(shuffled_cells --lane-queue)
  # each lane's time left: its share of the pass's planned work, timed from its start
  planned=$(cat "$dir"/group*.tsv | cut -f2- | "$PYTHON" -m analysis estimate --run "$OUT" --passes 1)
  for ((lane = 1; lane <= LANES; lane++)); do
    run_lane "$lane" "$total" "$dir" $((planned / LANES)) &
    LANE_PIDS+=("$!")
  done
  for lane in "${!LANE_PIDS[@]}"; do
    status=0
    wait "${LANE_PIDS[$lane]}" || status=$?
    if ((status != 0)); then
      warn "lane $((lane + 1)) stopped with status $status; its unfinished cells have no records (resume the run: --resume $OUT)"
      MATRIX_STATUS=1
    fi
  done
  LANE_PIDS=()
}

# run_lane N TOTAL DIR PLANNED: one lane, in the background job run_lanes starts for it (one process: its traps
# are its own), taking DIR's groups of cells in turn, each the lane's whose claim (an atomic mkdir) comes first;
# its processes are its own to stop, on an interruption too; the namespace and cgroups are the runner's.
run_lane() {
  LANE="$1" LIVE_GROUPS=() KEPT_CLIENTS=() CLIENT_PID="" SERVER_PID=""
  local group
  trap stop_processes EXIT
  trap 'stop_processes; fold_unfolded_step; exit 130' INT TERM
  PLANNED="$4" DONE_WORK=0 MATRIX_STARTED=$SECONDS
  for group in "$3"/group*.tsv; do
    mkdir "${group%.tsv}.taken" 2>/dev/null || continue
    printf '%s\n' "$LANE" >"${group%.tsv}.taken/lane"
    run_cells "$2" <"$group"
  done
}

# The run's plan, environment and cell list (a resumed run keeps those it began with).
prepare_run() {
  "$PYTHON" -m analysis prepare --run "$OUT" --idl "$IDL_DIR" --profile "$PROFILE" --wire-note "$WIRE_NOTE" \
    --cpu-note "$CPU_NOTE" --pin-note "$PIN_NOTE" --passes "$PASSES" --seed "$SEED" \
    --manifests "$MANIFEST_DIR" --cells <(printf '%s\n' "$CELL_LINES") --left-out "$LEFT_OUT_JSON" \
    --processes-note "$(processes_note)" --server-spin "$SERVER_SPIN" ||
    die "could not prepare the run (see above)"
}

run_command() {
  local command="$1"
  shift
  if [[ "$command" == run ]]; then resume_arguments "$@"; else RESUME_ARGS=("$@"); fi
  parse_options "${RESUME_ARGS[@]}"
  select_cells
  check_server_spin
  case "$command" in
    cells)
      list_cells
      return
      ;;
    commands)
      [[ ${#POSITIONAL[@]} -eq 1 ]] || die "commands takes one cell name, e.g. 'xmlrpc/java→python'"
      print_commands "${POSITIONAL[0]}"
      return
      ;;
    build)
      build_only
      return
      ;;
  esac
  check_profile
  [[ -x "$PYTHON" ]] || die "no $PYTHON: run runner/setup.sh first"
  if [[ -n "$RESUME" ]]; then resume_check; fi
  local run_id
  run_id="$(date -u +%Y%m%dT%H%M%SZ)-$PROFILE"
  OUT="${OUT:-$ROOT/results/$run_id}"
  if [[ -z "$RESUME" && -f "$OUT/env.json" ]]; then
    die "$OUT holds a run already: resume it with --resume $OUT, or choose another --out"
  fi
  mkdir -p "$OUT/cells" "$OUT/plan"
  OUT=$(cd "$OUT" && pwd)
  trap '' PIPE
  trap on_interrupt INT TERM
  trap cleanup EXIT
  info "run folder: $OUT"
  printf '%s\n' "$$" >"$OUT/runner.pid"
  BASELINE=$(jq -r '.baseline // ""' "$IDL_DIR/workloads.json")
  # the profile's lanes (plan.lanes checks the value when the run is prepared): pinning depends on them
  LANES=$(jq -r --arg p "$PROFILE" '.profiles[$p].lanes // 1' "$IDL_DIR/workloads.json")
  [[ "$LANES" =~ ^[1-9][0-9]*$ ]] || LANES=1
  PASSES="${PASSES:-$(jq -r --arg p "$PROFILE" '.profiles[$p].passes // 1' "$IDL_DIR/workloads.json")}"
  SEED="${SEED:-$(date -u +%s)}"
  if [[ -z "$RESUME" ]]; then save_options "${RESUME_ARGS[@]}"; fi
  build_languages
  setup_network
  setup_cgroups
  if [[ -n "$RESUME" ]]; then
    resume_run
  else
    prepare_run
  fi
  # {idl} for the processes: the run's own view of the contract when its profile leaves vectors out
  if [[ -d "$OUT/idl" ]]; then PROCESS_IDL_DIR="$OUT/idl"; fi
  COMMAND_TIMEOUT="${COMMAND_TIMEOUT:-$(jq -r '.command_timeout_s' "$OUT/plan/profile.json")}"
  # the until_steady bounds of a full warm-up round, of a cell's re-warm and of the warm phase's round of
  # processes without a JIT (plan.steady_of fills them in), and the fixed warm-up's time bound
  { read -r STEADY && read -r REWARM_STEADY && read -r PHASE_STEADY && read -r WARMUP_MAX_MS; } < <(jq -c '
    (.steady | {tolerance, max_ms}), (.steady | {tolerance, max_ms: .rewarm_ms}),
    (.steady | {tolerance, max_ms: .phase_max_ms}), (.warmup_max_ms // 0)' "$OUT/plan/profile.json")
  COUNT_CALLS=$(jq -r '.count_calls // 0' "$OUT/plan/profile.json")
  COUNT_MS=$(jq -r '.count_ms // 100' "$OUT/plan/profile.json")
  # A profile that only proves the paths (smoke) may skip waiting for the implementations' JIT compilers.
  JIT_WARMUP=$(jq -r 'if .implementation_warmup == false then 0 else 1 end' "$OUT/plan/profile.json")
  read -r WARM_TASKS WARM_PROCESSES JIT_QUIET_PERMILLE JIT_WINDOW_MS < <(jq -r '"\(.warm_phase.tasks) \(.warm_phase.processes) \(.jit_quiet.share * 1000 | floor) \(.jit_quiet.window_s * 1000 | floor)"' \
    "$OUT/plan/profile.json")
  # a profile that times workloads, its processes kept and its cells one at a time, warms them in phases
  WARM_PHASE=0
  if ((KEEP_PROCESSES && LANES == 1)) && [[ -n "$(find "$OUT/plan" -name '*.tsv' -size +0 -print -quit)" ]]; then
    WARM_PHASE=1
  fi
  PASS=1
  if [[ "$(jq -r '.handler // false' "$OUT/plan/profile.json")" == true ]] && ! is_finished 1 stage:handlers; then
    info "the languages' handlers, in process"
    gather_facts "$OUT/handlers" measure_handlers
    fold_step "$OUT/handlers"
    journal 1 stage:handlers
  fi
  run_matrix
  cleanup
  local status="$MATRIX_STATUS"
  render_results || status=$?
  if [[ "$OUT" == "$ROOT/results/"* ]]; then
    ln -sfn "$(basename "$OUT")" "$ROOT/results/latest"
  fi
  info "report: $OUT/REPORT.md"
  "$PYTHON" -m analysis studies "$OUT" --idl "$IDL_DIR" --end-of-run || warn "the studies' table (STUDY.md) could not be made"
  return "$status"
}
