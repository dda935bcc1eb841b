#!/usr/bin/env bash
# One run from options to report: the conductor checks the options and plans the run; the shell builds the
# languages, sets up the namespaces and the pinned cgroups, has the conductor write the steps, executes them one
# by one (runner/conductor/steps.py says what each is), and renders the results even when interrupted.

# The run's options as the conductor resolved them (`python -m conductor begin` prints them as name=value).
SETTINGS="out leftover_tag no_netns pin pin_reason lanes ready_timeout command_timeout write_html known_failures idl
  count_calls floor floor_after remote_ssh remote_checkout remote_address network"
OUT="" LEFTOVER_TAG="" NO_NETNS="" PIN=1 PIN_REASON="" LANES=1 READY_TIMEOUT=60 COMMAND_TIMEOUT=60 WRITE_HTML=1
KNOWN_FAILURES="" IDL="" COUNT_CALLS=0 FLOOR="" FLOOR_AFTER="" REMOTE_SSH="" REMOTE_CHECKOUT="" REMOTE_ADDRESS=""
NETWORK=""
# The run's state: when this session of it began (or this lane's), the lane a subshell runs (none in the runner
# itself), the lanes at work, the conductor at work, and the run's exit status so far.
SINCE=0 LANE="" LANE_PIDS=() CONDUCTOR_PID="" MATRIX_STATUS=0

# read_settings TEXT: the name=value lines of `conductor begin` into the run's options.
read_settings() {
  local name value
  while IFS='=' read -r name value; do
    [[ " ${SETTINGS//$'\n'/ } " == *" $name "* ]] || die "the conductor gave an unknown setting '$name'"
    printf -v "${name^^}" '%s' "$value"
  done <<<"$1"
}

# conduct COMMAND ARGS...: the conductor (python -m conductor) in the background and waited for, so that a
# signal reaches the runner's trap at once; returns its exit status.
conduct() {
  local rc=0
  "$PYTHON" -m conductor "$@" &
  CONDUCTOR_PID=$!
  wait "$CONDUCTOR_PID" || rc=$?
  CONDUCTOR_PID=""
  return "$rc"
}

# build_languages: each language the selected cells use, built once (plan/builds.tsv); a failure marks its cells.
build_languages() {
  local language argv_file
  local -a argv
  mkdir -p "$OUT/build"
  while IFS=$'\t' read -r language argv_file; do
    mapfile -d '' -t argv <"$argv_file"
    info "building $language: ${argv[*]}"
    if ! (cd "$ROOT" && "${argv[@]}") >"$OUT/build/$language.log" 2>&1 </dev/null; then
      warn "build of $language failed; its cells are marked error (see $OUT/build/$language.log)"
      touch "$OUT/build/$language.failed"
    fi
  done <"$OUT/plan/builds.tsv"
}

# setup_network TAG: the run's namespaces and veth pair, or why not (the conductor's NO_NETNS, or a failure to make
# them); what was made goes to the setup facts.
setup_network() {
  local setup="$OUT/plan/setup.tsv" reason="$NO_NETNS"
  if [[ -z "$reason" ]] && ! netns_create "$1" "$OUT/netns.log"; then
    reason="could not create the network namespaces: $(tail -n 1 "$OUT/netns.log")"
  fi
  if [[ -n "$reason" ]]; then
    printf 'netns\toff\nnetns_reason\t%s\n' "$reason" >>"$setup"
    # --server-host: counted on this host; SSH_ARGV's port is the word before the host
    if [[ -n "$REMOTE_ADDRESS" ]] && host_segment_counters "$1" "$OUT/netns.log" "${SSH_ARGV[-2]}"; then
      printf 'segments\tnftables-host\n' >>"$setup"
    elif [[ "$reason" != --no-netns ]]; then warn "bytes on the wire not measured: $reason"; fi
    return
  fi
  local segments=""
  if ((NFT_COUNTERS)); then segments=nftables; fi
  printf 'netns\ton\nserver_netns\t%s\nclient_netns\t%s\nserver_ip\t%s\nclient_ip\t%s\noffloads\t%s\n' \
    "$NS_SERVER" "$NS_CLIENT" "$IP_SERVER" "$IP_CLIENT" "$OFFLOAD_DEFAULTS" >>"$setup"
  printf 'early_retrans\t%s\nsegments\t%s\n' "$EARLY_RETRANS" "$segments" >>"$setup"
}

# setup_cgroups TAG: each side's cgroup and, where the run pins, its CPU; what was made goes to the setup facts.
setup_cgroups() {
  cgroup_create "$1" "$OUT/plan/setup.tsv"
  if ((PIN)); then cpuset_create "$1" "$OUT/plan/setup.tsv"; fi
  if [[ -n "$PIN_REASON" ]]; then printf 'pin_reason\t%s\n' "$PIN_REASON" >>"$OUT/plan/setup.tsv"; fi
}

# A warm phase (steps: warm PASS PHASE_FILE): its servers, then its clients (each told the port of the first of its
# servers that got ready), started unpinned in the warming cgroup; the conductor warms them (a line per process
# in the live file for it); the clients it lost go, the rest wait parked for their cells.
warm_step() {
  local pass="$1" phase="$2" live="${2%.tsv}.live" kind key argv link servers server port name
  : >"$live"
  while IFS=$'\t' read -r kind key argv link servers; do
    [[ "$kind" == server ]] || continue
    if start_server "$key" "$argv" "$link" warming "$pass"; then
      printf 'server\t%s\t%s\t%s\t%s\n' "$key" "${LIVE_PID[$key]}" "${LIVE_PORT[$key]}" "${LIVE_DIR[$key]}" >>"$live"
    else
      printf 'server\t%s\t-\t-\t%s\t%s\n' "$key" "${LIVE_DIR[$key]}" "$(<"${LIVE_DIR[$key]}/not-ready")" >>"$live"
      retire "$key"
    fi
  done <"$phase"
  while IFS=$'\t' read -r kind key argv link servers; do
    [[ "$kind" == client ]] || continue
    port=""
    for server in ${servers//,/ }; do
      if [[ -n "${LIVE_PORT[$server]:-}" ]]; then port="${LIVE_PORT[$server]}" && break; fi
    done
    [[ -n "$port" ]] || continue
    start_client "$key" "$argv" warming "$pass" "$port"
    printf 'client\t%s\t%s\t-\t%s\n' "$key" "${LIVE_PID[$key]}" "${LIVE_DIR[$key]}" >>"$live"
  done <"$phase"
  # each cell's server serves it, though the cell may end in the phase: its exit status is the cell's too
  while IFS=$'\t' read -r kind _ name server; do
    if [[ "$kind" == cell && -n "${LIVE_PID[$server]:-}" ]]; then served "$server" "$pass" "$name"; fi
  done <"$phase"
  conduct warm-phase --run "$OUT" --pass "$pass" --phase "$phase" --live "$live" --host "${IP_SERVER:-127.0.0.1}" \
    >"${phase%.tsv}.lost" || warn "the warm phase ended with status $? (see above)"
  while IFS= read -r key; do retire "$key"; done <"${phase%.tsv}.lost"
  for key in "${!LIVE_PID[@]}"; do cgroup_join parked "${LIVE_PID[$key]}"; done
}

# handler_step LANGUAGE KEY ARGV: one of the language's clients, started without a server, pinned in the client's
# cgroup, times the language's handlers in process (the conductor drives it); its folder is handlers/LANGUAGE.
handler_step() {
  local dir="$OUT/handlers/$1"
  local -a argv pin
  mkdir -p "$dir"
  mapfile -d '' -t argv <"$3"
  mapfile -t pin < <(pin_prefix client)
  client_start "$2" "$dir" "${pin[@]}" "${argv[@]}"
  cgroup_join client "${LIVE_PID[$2]}"
  conduct handlers --run "$OUT" --language "$1" --client-dir "${LIVE_DIR[$2]}" ||
    warn "the handlers of $1 could not be measured (status $?)"
  retire "$2"
}

# execute_steps FILE: every step of FILE in order (runner/conductor/steps.py).
execute_steps() {
  local text
  local -a steps step
  mapfile -t steps <"$1"
  for text in "${steps[@]}"; do
    IFS=$'\t' read -r -a step <<<"$text"
    case "${step[0]}" in
      cell) run_cell "${step[@]:1}" ;;
      declined) conduct declined --run "$OUT" --pass "${step[1]}" --total "${step[2]}" --cells "${step[3]}" \
        --lane "${LANE:-0}" ;;
      retire) retire_protocol "${step[1]}" ;;
      warm) warm_step "${step[1]}" "${step[2]}" ;;
      floor) measure_floor "${step[1]}" "$OUT/${step[2]}" "${step[3]}" "$FLOOR" ;;
      fold) conduct fold --run "$OUT" --pass "${step[1]}" --dir "${step[2]}" --stage "${step[3]}" ;;
      handler) handler_step "${step[1]}" "${step[2]}" "${step[3]}" ;;
      lanes) run_lanes "${step[2]}" ;;
      retry | rival) later_step "${step[0]}" "${step[1]}" ;;
      *) die "unknown step '${step[0]}' in $1" ;;
    esac
  done
}

# later_step KIND PASS: the steps the conductor plans only once PASS has run (plan/KIND-PASS.tsv), executed at once:
# retry (the cells whose vectors failed in PASS run again as the next pass, with new processes: --retries), rival
# (a load profile's servers driven by their protocol's fastest client).
later_step() {
  conduct "$1" --run "$OUT" --after "$2" >/dev/null || die "could not plan the $1 steps after pass $2 (see above)"
  if [[ -s "$OUT/plan/$1-$2.tsv" ]]; then execute_steps "$OUT/plan/$1-$2.tsv"; fi
}

# run_lanes FOLDER: LANES lanes at once, each a subshell that takes the next group of FOLDER's queue whenever it is
# done with one (an atomic mkdir claims it) and executes its steps, sharing the namespace and cgroups. A lane that
# stops early leaves its cells unrecorded: the run ends with status 1, and --resume runs them.
run_lanes() {
  local lane status
  for ((lane = 1; lane <= LANES; lane++)); do
    run_lane "$lane" "$1" &
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

run_lane() {
  local group
  LANE="$1" SINCE=$EPOCHSECONDS LIVE_GROUPS=() LIVE_PID=() LIVE_DIR=() LIVE_PORT=() LIVE_CELLS=() LIVE_IN=() LIVE_OUT=()
  trap stop_processes EXIT
  trap 'stop_conductor; stop_processes; exit 130' INT TERM
  for group in "$2"/group*.tsv; do
    mkdir "${group%.tsv}.taken" 2>/dev/null || continue
    printf '%s\n' "$LANE" >"${group%.tsv}.taken/lane"
    execute_steps "$group"
  done
}

# start_proxy: the HTTP proxy of --proxy http (conductor/proxy.py wrote its argv and configuration) in the clients'
# namespace, a process group of the run: the clean-up stops it with the others, at the end and on Ctrl-C.
start_proxy() {
  local -a argv launch
  mapfile -d '' -t argv <"$OUT/plan/proxy.argv"
  mapfile -t launch < <(netns_prefix client)
  start_group /dev/null "$OUT/proxy/proxy.out" "$OUT/proxy/proxy.log" "${launch[@]}" "${argv[@]}"
  conduct proxy-ready --run "$OUT" --pid "$!" || die "the HTTP proxy did not start (see above)"
}

stop_conductor() {
  if [[ -n "$CONDUCTOR_PID" ]]; then
    kill -TERM "$CONDUCTOR_PID" 2>/dev/null || true
    wait "$CONDUCTOR_PID" 2>/dev/null || true
  fi
  CONDUCTOR_PID=""
}

cleanup() {
  local pid
  trap - INT TERM
  stop_conductor
  for pid in "${LANE_PIDS[@]+"${LANE_PIDS[@]}"}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${LANE_PIDS[@]+"${LANE_PIDS[@]}"}"; do wait "$pid" 2>/dev/null || true; done
  LANE_PIDS=()
  if ! network_stop; then
    warn "a delay line of the network $NETWORK stopped before the run's end: the figures after it crossed no delay"
    MATRIX_STATUS=1
  fi
  stop_processes
  netns_destroy
  cgroup_destroy
  if [[ -n "$OUT" ]]; then rm -f "$OUT/runner.pid"; fi
}

on_interrupt() {
  warn "interrupted: stopping processes, keeping the records written so far"
  cleanup
  "$PYTHON" -m conductor fold-unfinished --run "$OUT" || true
  render_results || true
  exit 130
}

render_results() {
  local -a html=()
  ((WRITE_HTML)) || html=(--no-html)
  "$PYTHON" -m analysis render --run "$OUT" --known-failures "$KNOWN_FAILURES" "${html[@]}"
}

# build_only: each language the selected cells use, built once, so that several runs can then start at once with
# --skip-build (the smoke test's shards); exits 1, with each failed build's last lines, when any failed.
build_only() {
  local failed=0 log
  build_languages
  for log in "$OUT"/build/*.failed; do
    if [[ -e "$log" ]]; then failed=1 && tail -n 5 "${log%.failed}.log" >&2; fi
  done
  rm -rf "$OUT"
  ((!failed)) || { warn "a build failed (above)" && exit 1; }
  info "built"
}

run_command() {
  local command="$1" settings tag status
  shift
  [[ -x "$PYTHON" ]] || die "no $PYTHON: run runner/setup.sh first"
  case "$command" in
    cells | commands) exec "$PYTHON" -m conductor begin "$command" "$@" ;;
  esac
  settings=$("$PYTHON" -m conductor begin "$command" "$@") || exit "$?"
  read_settings "$settings"
  # --server-host: the servers are dialled at the other host's address (runner/lib/remote.sh)
  if [[ -n "$REMOTE_SSH" ]]; then mapfile -d '' -t SSH_ARGV <"$REMOTE_SSH" && IP_SERVER=$REMOTE_ADDRESS; fi
  if [[ "$command" == build ]]; then
    build_only
    return
  fi
  trap '' PIPE
  trap on_interrupt INT TERM
  trap cleanup EXIT
  info "run folder: $OUT"
  printf '%s\n' "$$" >"$OUT/runner.pid"
  if [[ -n "$LEFTOVER_TAG" ]]; then remove_leftovers "$LEFTOVER_TAG"; fi
  build_languages
  # the tag names this run's namespaces and cgroups; tests use it to check that nothing of it is left
  printf -v tag '%05d' $(($$ % 100000))
  printf '%s\n' "$tag" >"$OUT/runner.tag"
  : >"$OUT/plan/setup.tsv"
  setup_network "$tag"
  setup_cgroups "$tag"
  shape_network
  conduct prepare --run "$OUT" || die "could not prepare the run (see above)"
  if [[ -s "$OUT/plan/proxy.argv" ]]; then start_proxy; fi
  SINCE=$EPOCHSECONDS
  execute_steps "$OUT/plan/steps.tsv"
  cleanup
  status="$MATRIX_STATUS"
  render_results || status=$?
  if [[ "$OUT" == "$ROOT/results/"* ]]; then ln -sfn "$(basename "$OUT")" "$ROOT/results/latest"; fi
  info "report: $OUT/REPORT.md"
  "$PYTHON" -m analysis studies "$OUT" --idl "$IDL" --end-of-run || warn "the studies' table (STUDY.md) could not be made"
  return "$status"
}
