#!/usr/bin/env bash
# Warming the processes before anything is timed. A JIT runtime (the JVM) compiles hot code in threads of its
# own for seconds to minutes; until they go quiet they share the CPU with the calls being timed. How long
# differs by stack (measured on this project's machine: Java raw TCP about 6 s, the HTTP stacks 16-27 s, CXF
# SOAP about 50 s), so no fixed time fits: a process is warm when its compiler threads (the manifest's
# `jit_threads`, thread names in /proc/<pid>/task/*/comm) used less than the profile's share of a CPU over its
# last `window_s` seconds of calls, or after `warmup_max_s` seconds of calls. A profile that times workloads warms a group
# of protocols' processes together (warm_phase), as the calls are not timed: every cell's connect, vectors and
# a warm-up round, up to `tasks` cells at once on every CPU, then more rounds for the processes whose compilers
# are still busy. Their cells are then timed one at a time, each after a short warm-up of its own (cell.sh).

# The JIT's state per process, keyed "server|<protocol>|<impl>" or "client|<protocol>|<impl>": its thread-name
# pattern (empty: no JIT, or the profile skips the implementations' warm-up), its bound (seconds of calls), when it
# started warming, its compiler ticks and the clock at the last reading, the milliseconds of calls it has made,
# its history of "busy_ms:wall_ms:jit_ticks" readings (newest last), whether it is done (quiet or past its bound:
# "quiet" or "bound") and the seconds it took; and the full warm-up rounds it has made (WARM_ROUNDS, any process,
# JIT or not: one brings it to steady state, a cell's own warm-up then only re-warms it).
declare -A JIT_REGEX=() JIT_MAX_S=() JIT_STARTED=() JIT_LAST=() JIT_LAST_AT=() JIT_BUSY_MS=() JIT_HISTORY=()
declare -A WARM_DONE=() WARM_TOOK=() WARM_ROUNDS=()
# The median call time (ns) of each workload's last warm-up batch of the cell's client, read by time_workload.
declare -A WARM_MEDIAN_NS=()
CLK_TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)
WARM_PIDS=()

# now_ms VAR: the clock in milliseconds, in VAR.
now_ms() {
  local _us=${EPOCHREALTIME/./}
  printf -v "$1" '%s' $((_us / 1000))
}

# jit_ticks PGID REGEX: JIT_TICKS, the CPU time (user + system, clock ticks) of the group's threads whose
# name matches REGEX, from /proc.
jit_ticks() {
  local pgid="$1" regex="$2" pid task comm rest total=0
  local -a f
  JIT_TICKS=0
  [[ -n "$regex" ]] || return 0
  group_pids "$pgid"
  for pid in "${GROUP_PIDS[@]+"${GROUP_PIDS[@]}"}"; do
    for task in "/proc/$pid/task/"*; do
      { read -r comm <"$task/comm" && read -r rest <"$task/stat"; } 2>/dev/null || continue
      [[ "$comm" =~ $regex ]] || continue
      read -r -a f <<<"${rest##*) }"
      total=$((total + f[11] + f[12]))
    done
  done
  JIT_TICKS=$total
}

# jit_track KEY PGID REGEX MAX_S: starts following a new process's JIT (nothing to follow without REGEX, or when
# the profile skips the implementations' warm-up).
jit_track() {
  local key="$1" pgid="$2" regex="$3" max_s="$4"
  ((JIT_WARMUP)) || regex=""
  JIT_REGEX["$key"]="$regex" JIT_MAX_S["$key"]="${max_s:-0}" JIT_STARTED["$key"]=$SECONDS JIT_HISTORY["$key"]=""
  JIT_BUSY_MS["$key"]=0 WARM_ROUNDS["$key"]=0
  unset "WARM_DONE[$key]" "WARM_TOOK[$key]"
  jit_ticks "$pgid" "$regex"
  JIT_LAST["$key"]=$JIT_TICKS
  now_ms "JIT_LAST_AT[$key]"
}

# jit_note KEY PGID BUSY_MS: the process has made calls for BUSY_MS since its last reading; its compiler threads'
# ticks since then, and the time since then, go into its history.
jit_note() {
  local key="$1" pgid="$2" busy_ms="$3" spent now
  [[ -n "${JIT_REGEX[$key]:-}" ]] || return 0
  jit_ticks "$pgid" "${JIT_REGEX[$key]}"
  now_ms now
  # a compiler thread that exited took its ticks with it (the JVM stops extra ones when idle): none is negative
  spent=$((JIT_TICKS - ${JIT_LAST[$key]:-0}))
  JIT_HISTORY["$key"]+=" $busy_ms:$((now - ${JIT_LAST_AT[$key]:-$now})):$((spent > 0 ? spent : 0))"
  JIT_LAST["$key"]=$JIT_TICKS JIT_LAST_AT["$key"]=$now
  JIT_BUSY_MS["$key"]=$((${JIT_BUSY_MS[$key]:-0} + busy_ms))
}

# jit_share KEY: JIT_SHARE_PERMILLE and JIT_WINDOW_BUSY_MS: over the newest readings whose calls cover the profile's
# window (all of them when they cover less), the compiler threads' CPU per mille of the time those readings span.
# Against the time, not the calls: a process that takes turns with others compiles between its calls too.
jit_share() {
  local -a entries parts
  local i busy=0 wall=0 ticks=0
  read -r -a entries <<<"${JIT_HISTORY[$1]:-}"
  for ((i = ${#entries[@]} - 1; i >= 0 && busy < JIT_WINDOW_MS; i--)); do
    IFS=: read -r -a parts <<<"${entries[$i]}"
    busy=$((busy + parts[0])) wall=$((wall + parts[1])) ticks=$((ticks + parts[2]))
  done
  JIT_WINDOW_BUSY_MS=$busy
  JIT_SHARE_PERMILLE=0
  if ((wall > 0)); then JIT_SHARE_PERMILLE=$((ticks * 1000 * 1000 / CLK_TCK / wall)); fi
}

# jit_round_quiet KEY: the process's compiler threads took less than the profile's share of a CPU over its last
# reading, or less than three clock ticks (one or two are no evidence), or it has no JIT followed.
jit_round_quiet() {
  local -a entries parts
  [[ -n "${JIT_REGEX[$1]:-}" ]] || return 0
  read -r -a entries <<<"${JIT_HISTORY[$1]:-}"
  ((${#entries[@]} > 0)) || return 0
  IFS=: read -r -a parts <<<"${entries[-1]}"
  ((parts[2] < 3 || parts[1] <= 0 || parts[2] * 1000 * 1000 / CLK_TCK / parts[1] < JIT_QUIET_PERMILLE))
}

# jit_settle PGID REGEX: waits (at most 3 s) until the group's compiler threads took no CPU over 0.2 s with the
# calls stopped: compiles the last warm-up round queued drain before the first timed repetition, not during it.
jit_settle() {
  local pgid="$1" regex="$2" last=-1 still=0 tries=0
  [[ -n "$regex" ]] || return 0
  while ((tries < 30 && still < 2)); do
    jit_ticks "$pgid" "$regex"
    if ((JIT_TICKS == last)); then still=$((still + 1)); else still=0; fi
    last=$JIT_TICKS
    tries=$((tries + 1))
    ((still >= 2)) || sleep 0.1
  done
}

# jit_warm KEY: the process needs no more warm-up: it has no JIT to wait for, its compiler threads went quiet
# over a whole window of calls, or it has made calls for its bound (warmup_max_s; or, as a guard, three times that
# has gone by). Marks it done (WARM_DONE: quiet or bound; WARM_TOOK: the seconds since it started).
jit_warm() {
  local key="$1"
  [[ -z "${WARM_DONE[$key]:-}" ]] || return 0
  if [[ -z "${JIT_REGEX[$key]:-}" ]]; then
    WARM_DONE["$key"]=quiet
    return 0
  fi
  jit_share "$key"
  if ((JIT_WINDOW_BUSY_MS >= JIT_WINDOW_MS && JIT_SHARE_PERMILLE < JIT_QUIET_PERMILLE)); then
    WARM_DONE["$key"]=quiet
  elif ((${JIT_BUSY_MS[$key]:-0} >= ${JIT_MAX_S[$key]:-0} * 1000 ||
    SECONDS - ${JIT_STARTED[$key]:-$SECONDS} >= 3 * ${JIT_MAX_S[$key]:-0})); then
    WARM_DONE["$key"]=bound
  else
    return 1
  fi
  WARM_TOOK["$key"]=$((SECONDS - ${JIT_STARTED[$key]:-$SECONDS}))
}

# jit_json VAR KEY: what the warm-up came to for one process, as JSON in VAR: whether it has a JIT followed, how it
# ended (quiet, or its bound), the compiler threads' share of a CPU over its last window, the window's calls (ms),
# the seconds it took and the seconds of calls it made.
jit_json() {
  local key="$2"
  if [[ -z "${JIT_REGEX[$key]:-}" ]]; then
    printf -v "$1" '{"jit": false}'
    return
  fi
  jit_share "$key"
  printf -v "$1" '{"jit": true, "ended": "%s", "share": %s, "window_ms": %s, "warm_s": %s, "busy_s": %s}' \
    "${WARM_DONE[$key]:-unfinished}" "$(printf '%d.%03d' $((JIT_SHARE_PERMILLE / 1000)) $((JIT_SHARE_PERMILLE % 1000)))" \
    "$JIT_WINDOW_BUSY_MS" "${WARM_TOOK[$key]:-$((SECONDS - ${JIT_STARTED[$key]:-$SECONDS}))}" $((${JIT_BUSY_MS[$key]:-0} / 1000))
}

# record_warm CELL_DIR SERVER_KEY CLIENT_KEY SECONDS: the cell's warm-up as a fact (runner/FACTS.md).
record_warm() {
  local server client
  jit_json server "server|$2"
  jit_json client "client|$3"
  record "$1" "{\"kind\": \"warm\", \"pass\": $PASS, \"seconds\": $4, \"server\": $server, \"client\": $client}"
}

# count_full_round SERVER CLIENT: the pair ("server|<key>", "client|<key>") made a full warm-up round.
count_full_round() {
  WARM_ROUNDS["$1"]=$((${WARM_ROUNDS[$1]:-0} + 1)) WARM_ROUNDS["$2"]=$((${WARM_ROUNDS[$2]:-0} + 1))
}

# Forgets the warm-up of PROTOCOL's processes (all of them without one): they are gone.
forget_warm() {
  local protocol="${1:-}" key rest
  for key in "${!JIT_REGEX[@]}"; do
    rest="${key#*|}"
    if [[ -z "$protocol" || "${rest%%|*}" == "$protocol" ]]; then
      unset "JIT_REGEX[$key]" "JIT_MAX_S[$key]" "JIT_STARTED[$key]" "JIT_LAST[$key]" "JIT_LAST_AT[$key]" \
        "JIT_BUSY_MS[$key]" "JIT_HISTORY[$key]" "WARM_DONE[$key]" "WARM_TOOK[$key]" "WARM_ROUNDS[$key]"
    fi
  done
}

# ------------------------------------------------------------------------------------------- the warm phase
# The phase's cells, by index: each one's JSON, folder, server and client keys.
W_CELLS=() W_DIRS=() W_SERVERS=() W_CLIENTS=()

# warm_phase: the cells on stdin ("<index>\t<cell JSON>" lines: one group of protocols of the pass), their
# processes started together on every CPU, each cell's connect, vectors and first warm-up round, then rounds for
# the processes whose JIT is still busy, up to WARM_TASKS cells at once. A cell whose server cannot start, or
# whose client fails or hangs here, has its records' facts settled (.settled); the others are timed later, one at
# a time (run_cell). Every process ends parked.
warm_phase() {
  local index cell started=$SECONDS i key host="${NETNS_SERVER_IP:-127.0.0.1}" port
  W_CELLS=() W_DIRS=() W_SERVERS=() W_CLIENTS=()
  while IFS=$'\t' read -r index cell; do
    read_cell "$cell"
    [[ -z "$CELL_UNSUPPORTED$CELL_ERROR" ]] || continue
    if is_finished "$PASS" "$CELL_NAME" || build_failed; then continue; fi
    mkdir -p "$OUT/cells/$CELL_SLUG/pass$PASS"
    [[ -f "$OUT/cells/$CELL_SLUG/cell.json" ]] || printf '%s\n' "$cell" >"$OUT/cells/$CELL_SLUG/cell.json"
    rm -f "$OUT/cells/$CELL_SLUG/pass$PASS/.settled" "$OUT/cells/$CELL_SLUG/pass$PASS/.timing"
    W_CELLS+=("$cell") W_DIRS+=("$OUT/cells/$CELL_SLUG/pass$PASS")
    W_SERVERS+=("$CELL_PROTOCOL|$CELL_SERVER") W_CLIENTS+=("$CELL_PROTOCOL|$CELL_CLIENT")
  done
  ((${#W_CELLS[@]} > 0)) || return 0
  info "warming $(warm_summary) on every CPU"
  # every server, then every client (each told the first port of its protocol's servers)
  declare -A server_port=() failed=() failed_dir=()
  W_SEEN=()
  for i in "${!W_CELLS[@]}"; do
    key="${W_SERVERS[$i]}"
    [[ -z "${server_port[$key]:-}" && -z "${failed[$key]:-}" ]] || continue
    read_cell "${W_CELLS[$i]}"
    if start_server "${W_CELLS[$i]}" "$host" warming; then
      server_port["$key"]="$SERVER_PORT"
      jit_track "server|$key" "$SERVER_PID" "$CELL_SERVER_JIT" "$CELL_SERVER_WARMUP_MAX"
    else
      failed["$key"]="$READY_ERROR: $(tail -n 3 "$SERVER_DIR/server.log" | tr '\n' ' ')"
      failed_dir["$key"]="$SERVER_DIR"
      local j
      for j in "${!W_CELLS[@]}"; do
        if [[ "${W_SERVERS[$j]}" == "$key" ]]; then note_served "$key" "${W_DIRS[$j]}"; fi
      done
      retire_server "$key"
    fi
  done
  for i in "${!W_CELLS[@]}"; do
    key="${W_SERVERS[$i]}"
    if [[ -n "${failed[$key]:-}" ]]; then
      # as run_cell records a server that is not ready; the cell is settled
      link_logs "${W_DIRS[$i]}" "${failed_dir[$key]}" server.out server.log
      record_rest "${W_DIRS[$i]}" error "${failed[$key]}"
      : >"${W_DIRS[$i]}/.settled"
      continue
    fi
    note_served "$key" "${W_DIRS[$i]}"
    key="${W_CLIENTS[$i]}"
    [[ -z "${KEPT_CLIENTS[$key]:-}" ]] || continue
    read_cell "${W_CELLS[$i]}"
    port="${server_port[${W_SERVERS[$i]}]}"
    start_client "${W_CELLS[$i]}" "$host" "$port" warming
    jit_track "client|$key" "$CLIENT_PID" "$CELL_CLIENT_JIT" "$CELL_CLIENT_WARMUP_MAX"
  done
  CLIENT_KEY="" CLIENT_PID="" SERVER_KEY="" SERVER_PID=""
  warm_schedule server_port
  # every process parked until its cells; each cell's warm-up as a fact
  for i in "${!W_CELLS[@]}"; do
    if [[ -e "${W_DIRS[$i]}/.timing" ]]; then
      record_warm "${W_DIRS[$i]}" "${W_SERVERS[$i]}" "${W_CLIENTS[$i]}" $((SECONDS - started))
    fi
  done
  for key in "${!KEPT_SERVERS[@]}"; do cgroup_join parked "${KEPT_SERVERS[$key]%% *}"; done
  for key in "${!KEPT_CLIENTS[@]}"; do cgroup_join parked "${KEPT_CLIENTS[$key]%% *}"; done
  info "warmed in $((SECONDS - started)) s"
}

# A language whose build failed has its cells recorded as errors by run_cell.
build_failed() {
  [[ -f "$OUT/build/$CELL_SERVER_LANGUAGE.failed" || -f "$OUT/build/$CELL_CLIENT_LANGUAGE.failed" ]]
}

# What the phase warms, for the progress display: its protocols and cells.
warm_summary() {
  local -A protocols=()
  local key
  for key in "${W_SERVERS[@]}"; do protocols["${key%%|*}"]=1; done
  printf '%s (%d cells)' "$(printf '%s\n' "${!protocols[@]}" | sort | tr '\n' ' ' | sed 's/ $//')" "${#W_CELLS[@]}"
}

# warm_schedule PORTS_VAR: runs the phase's tasks, up to WARM_TASKS at once, each in a background job of its
# own with one client and one server that no other running task has: first each cell's connect, vectors and
# first round, then rounds of cells whose server or client is not yet warm (jit_warm), taken in turn. The first
# tasks go in the order of their processes' longest JIT bound, longest first (the pass's order among equals).
warm_schedule() {
  local -n ports="$1"
  local -A busy=() running=() first_left=()
  local -a pending=() order=()
  local i next=0 pid task first rc busy_ms n=${#W_CELLS[@]} started tries
  for i in "${!W_CELLS[@]}"; do
    [[ ! -e "${W_DIRS[$i]}/.settled" ]] || continue
    warm_bound "$i"
    order+=("$W_BOUND"$'\t'"$i")
    first_left["s|${W_SERVERS[$i]}"]=$((${first_left["s|${W_SERVERS[$i]}"]:-0} + 1))
    first_left["c|${W_CLIENTS[$i]}"]=$((${first_left["c|${W_CLIENTS[$i]}"]:-0} + 1))
  done
  # The first tasks of the cells whose processes have a JIT to wait for go first, the longest bound
  # (warmup_max_s) first: their compilers' work is the phase's longest path. Then those of the others (a short
  # round each, phase_max_ms), before any further round, so that none waits for a shared server's JIT rounds.
  while IFS=$'\t' read -r _ i; do
    if [[ -n "$i" ]]; then pending+=("$i"); fi
  done < <(printf '%s\n' "${order[@]+"${order[@]}"}" | sort -s -t$'\t' -k1,1nr)
  WARM_STATUS_DIR=$(mktemp -d "$OUT/.warm.XXXXXX")
  while :; do
    # the cells' first tasks, in that order, as their processes come free
    local -a still=()
    for i in "${pending[@]+"${pending[@]}"}"; do
      if ((${#running[@]} < WARM_TASKS)) && warm_free "$i"; then
        warm_start "$i" 1 "${ports[${W_SERVERS[$i]}]}"
      else
        still+=("$i")
      fi
    done
    pending=("${still[@]+"${still[@]}"}")
    # then rounds for processes still warming, the cells taken in turn
    tries=0
    while ((${#running[@]} < WARM_TASKS && tries < n)); do
      i=$(((next + tries) % n))
      tries=$((tries + 1))
      if [[ -e "${W_DIRS[$i]}/.timing" && ! -e "${W_DIRS[$i]}/.settled" ]] && warm_free "$i" && warm_wanted "$i"; then
        warm_start "$i" 0 "${ports[${W_SERVERS[$i]}]}"
        next=$(((i + 1) % n))
      fi
    done
    ((${#running[@]} > 0)) || break
    pid=""
    wait -n -p pid "${!running[@]}" 2>/dev/null || true
    if [[ -z "$pid" || -z "${running[$pid]:-}" ]]; then
      # no job reported (a signal cut the wait short): take any that has ended, else wait again
      for pid in "${!running[@]}"; do kill -0 "$pid" 2>/dev/null || break; done
      if kill -0 "$pid" 2>/dev/null; then continue; fi
    fi
    read -r task first started <<<"${running[$pid]}"
    unset "running[$pid]" "busy[s|${W_SERVERS[$task]}]" "busy[c|${W_CLIENTS[$task]}]"
    rc=2 busy_ms=0
    if [[ -s "$WARM_STATUS_DIR/$pid" ]]; then read -r rc busy_ms <"$WARM_STATUS_DIR/$pid"; fi
    warm_finished "$task" "$first" "$rc" "$busy_ms"
  done
  rm -rf "$WARM_STATUS_DIR"
  WARM_PIDS=()
  # how each process's warm-up ended: quiet, at its bound, or unfinished (its cells ran out first)
  for i in "${!W_CELLS[@]}"; do
    jit_warm "server|${W_SERVERS[$i]}" || true
    jit_warm "client|${W_CLIENTS[$i]}" || true
  done
}

# warm_bound TASK: W_BOUND = the longest JIT bound (warmup_max_s, at least 1) of the task's processes that have a
# JIT to wait for, 0 when neither has.
warm_bound() {
  local key
  W_BOUND=0
  for key in "server|${W_SERVERS[$1]}" "client|${W_CLIENTS[$1]}"; do
    [[ -n "${JIT_REGEX[$key]:-}" ]] || continue
    ((W_BOUND >= ${JIT_MAX_S[$key]:-0})) || W_BOUND=${JIT_MAX_S[$key]:-0}
    ((W_BOUND > 0)) || W_BOUND=1
  done
}

# warm_free TASK: its server and client are in no running task, and its client is alive (busy, in warm_schedule).
warm_free() {
  [[ -z "${busy[s|${W_SERVERS[$1]}]:-}" && -z "${busy[c|${W_CLIENTS[$1]}]:-}" && -n "${KEPT_CLIENTS[${W_CLIENTS[$1]}]:-}" &&
    -n "${KEPT_SERVERS[${W_SERVERS[$1]}]:-}" ]]
}

# warm_wanted TASK: its server or client still warms (all of its first tasks done, its JIT not yet quiet).
warm_wanted() {
  local s="${W_SERVERS[$1]}" c="${W_CLIENTS[$1]}"
  { ((${first_left["s|$s"]:-0} == 0)) && ! jit_warm "server|$s"; } || { ((${first_left["c|$c"]:-0} == 0)) && ! jit_warm "client|$c"; }
}

# warm_start TASK FIRST PORT: the task in a background job (warm_task), its pair marked busy.
warm_start() {
  local task="$1" first="$2" port="$3" client_new=kept server_new=kept
  if ((first)); then
    [[ -n "${W_SEEN[c|${W_CLIENTS[$task]}]:-}" ]] || client_new=new
    [[ -n "${W_SEEN[s|${W_SERVERS[$task]}]:-}" ]] || server_new=new
    W_SEEN["c|${W_CLIENTS[$task]}"]=1 W_SEEN["s|${W_SERVERS[$task]}"]=1
  fi
  point_scratch "${W_CLIENTS[$task]}" "${W_SERVERS[$task]}"
  warm_task "$task" "$first" "$port" "$client_new" "$server_new" &
  running[$!]="$task $first $SECONDS"
  WARM_PIDS+=("$!")
  busy["s|${W_SERVERS[$task]}"]=1 busy["c|${W_CLIENTS[$task]}"]=1
}
declare -A W_SEEN=()

# warm_finished TASK FIRST RC BUSY_MS: what a task's end means for its processes: their JIT readings, the first
# tasks they have left, and a client that is gone or hung retired (its other cells then start a new one of their
# own when they are timed, and warm up there).
warm_finished() {
  local task="$1" first="$2" rc="$3" busy_ms="$4" s="${W_SERVERS[$1]}" c="${W_CLIENTS[$1]}"
  if ((first)); then
    first_left["s|$s"]=$((${first_left["s|$s"]:-1} - 1))
    first_left["c|$c"]=$((${first_left["c|$c"]:-1} - 1))
  fi
  if ((rc == 0)) && [[ -e "${W_DIRS[$task]}/.timing" ]]; then count_full_round "server|$s" "client|$c"; fi
  if kept_server_get "$s"; then jit_note "server|$s" "$SERVER_PID" "$busy_ms"; fi
  if ((rc >= 2)); then
    retire_client "$c"
    local i
    for i in "${!W_CELLS[@]}"; do
      if [[ "${W_CLIENTS[$i]}" == "$c" ]]; then first_left["c|$c"]=0; fi
    done
  elif kept_client_get "$c"; then
    jit_note "client|$c" "$CLIENT_PID" "$busy_ms"
  fi
  SERVER_KEY="" SERVER_PID="" CLIENT_KEY="" CLIENT_PID=""
}

# warm_task TASK FIRST PORT CLIENT_AGE SERVER_AGE, in a background job: the cell's client connects to its server;
# on its first task the cell's connect answer, vectors and published metadata are recorded as run_cell would,
# and whether its workloads may be timed (.timing) or the cell is settled (.settled); then, when they may be
# timed, one warm-up round over its workloads (answers in warm-phase.jsonl): each until steady, bounded by the
# profile's max_ms on the cell's first task where a process has a JIT to wait for, else by its phase_max_ms (no
# compiler to feed, or one fed again while it is not yet quiet). Every cell gets its full round here, JIT or not,
# two CPUs working at once: its own warm-up when it is timed only re-warms (warm_cell).
# Writes "<status> <busy ms>" to the status file named for its pid: status 2 or 3 when the client is gone or hung.
warm_task() {
  local task="$1" first="$2" port="$3" client_age="$4" server_age="$5" dir cell rc=0 t0 name rest
  trap - INT TERM EXIT
  dir="${W_DIRS[$task]}" cell="${W_CELLS[$task]}"
  t0=${EPOCHREALTIME/./}
  read_cell "$cell"
  CLIENT_LOST=0
  kept_client_get "${W_CLIENTS[$task]}"
  kept_server_get "${W_SERVERS[$task]}"
  local host="${NETNS_SERVER_IP:-127.0.0.1}"
  if ((first)); then
    link_logs "$dir" "$SERVER_DIR" server.out server.log
    link_logs "$dir" "$CLIENT_DIR" client.log
    if ! connect_vectors "$dir" "$CELL_PROTOCOL" "$host" "$port" "$client_age" "$server_age"; then
      : >"$dir/.settled"
      warm_task_status "$CONNECT_VECTORS_RC" "$t0"
      return
    fi
    if ! times_workloads "$CELL_PROTOCOL"; then
      : >"$dir/.settled"
    elif vectors_allow_timing "$dir" "$CELL_NAME"; then
      : >"$dir/.timing"
    else
      record_untimed "$dir"
      : >"$dir/.settled"
    fi
  else
    client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"connect\", \"host\": \"$host\", \"port\": $port}" || rc=$?
  fi
  if ((rc == 0)) && [[ -e "$dir/.timing" ]]; then
    local bound=phase
    warm_bound "$task"
    if ((first && W_BOUND > 0)); then bound=""; fi
    warm_round "$CELL_PROTOCOL" "$dir/warm-phase.jsonl" ${bound:+"$bound"} || rc=$?
  fi
  if ((rc >= 2)) && ((first)) && [[ ! -e "$dir/.settled" ]]; then
    record_lost_client "$dir" "$rc" "warm-up: " workloads || true
    : >"$dir/.settled"
  fi
  warm_task_status "$rc" "$t0"
}

# warm_task_status RC T0_US: the task's status line for warm_schedule.
warm_task_status() {
  local now=${EPOCHREALTIME/./}
  printf '%s %s\n' "$1" $(((now - $2) / 1000)) >"$WARM_STATUS_DIR/$BASHPID"
}

# warm_round PROTOCOL FILE [rewarm|phase]: one warm-up round of the active client over the protocol's workloads: each
# until its batch medians agree (bounded by the profile's max_ms), its answer appended to FILE as it came (one line
# of JSON: a jq per batch cost more than the batch on a fast stack), then one untimed repetition of it exactly as
# it will be timed (prepare, measure with the plan's calls, min_ms and max_calls, samples dropped), so that the
# timing loop is compiled too: JIT clients warmed with warm-up batches alone compiled their measure loop (as an
# on-stack replacement, after thousands of iterations) in their first timed repetitions. A batch is the workload's
# warm-up count of calls, or its least calls per repetition when larger. With "rewarm" (processes a full round
# already brought to steady state), batches of the least calls per repetition, each workload bounded by the
# profile's rewarm_ms (200 calls of a 10 ms stack are 2 s a batch), and the untimed repetition only its least
# calls, not min_ms of them: the full round compiled its loop, and 50 ms a workload were 19 s of a default
# run. With "phase" (the warm phase's rounds that only keep calls coming), each workload bounded by the
# profile's phase_max_ms. A wrong answer is left to the workload's own warm-up, which records it; returns 2 or 3
# at once when the client is gone or hangs.
warm_round() {
  local protocol="$1" file="$2" mode="${3:-}" name size warmup calls reps min_ms max_calls batch rc command rewarm=""
  local steady="$STEADY"
  case "$mode" in
    rewarm) steady="$REWARM_STEADY" rewarm=1 ;;
    phase) steady="$PHASE_STEADY" ;;
  esac
  while read -r name size warmup calls reps min_ms max_calls; do
    [[ -n "$name" ]] || continue
    batch=$((warmup > calls ? warmup : calls))
    if [[ -n "$rewarm" ]]; then batch=$calls min_ms=0; fi
    rc=0
    client_call "$COMMAND_TIMEOUT" "{\"cmd\": \"warmup\", \"workload\": \"$name\", \"calls\": $batch, \"until_steady\": $steady}" || rc=$?
    ((rc < 2)) || return "$rc"
    ((rc == 0)) || continue
    printf '{"workload": "%s", "answer": %s%s}\n' "$name" "$CLIENT_ANSWER" "${rewarm:+, \"rewarm\": true}" >>"$file"
    # the last batch's median call time, for the bound on the workload's fixed warm-up (cell.sh: time_workload)
    if [[ "$CLIENT_ANSWER" =~ \"batch_medians_ns\":[[:space:]]*\[([0-9,[:space:]]*[0-9])\] ]]; then
      WARM_MEDIAN_NS["$name"]="${BASH_REMATCH[1]##*[, ]}"
    fi
    for command in "{\"cmd\": \"prepare\", \"workload\": \"$name\"}" \
      "{\"cmd\": \"measure\", \"workload\": \"$name\", \"calls\": $calls, \"min_ms\": $min_ms, \"max_calls\": $max_calls}" \
      "{\"cmd\": \"samples\", \"workload\": \"$name\"}"; do
      rc=0
      client_call "$COMMAND_TIMEOUT" "$command" || rc=$?
      ((rc < 2)) || return "$rc"
    done
  done < <(plan_rows "$protocol")
}
