#!/usr/bin/env bash
# The live-process table: the servers and clients alive across the cells of a pass, keyed by process key
# "<role>|<protocol>|<implementation>" (runner/conductor/steps.py): each one's process group (LIVE_PID), its folder
# of FIFOs and logs (LIVE_DIR), a server's port (LIVE_PORT) and the cells it served ("<pass>\t<cell>" lines,
# LIVE_CELLS: its exit status is theirs), a client's FIFO ends (LIVE_IN, LIVE_OUT). Which process goes when is
# the steps'; placing one (namespace, cgroup, CPU) and stopping it is here.
declare -A LIVE_PID=() LIVE_DIR=() LIVE_PORT=() LIVE_CELLS=() LIVE_IN=() LIVE_OUT=()

# process_dir PASS ROLE KEY: a new folder for one process's FIFOs and logs, numbered in the order they start (a
# lane's named for it too: the lanes count from the same number); prints it.
process_dir() {
  local base="$OUT/processes/pass$1" impl="${3##*|}" dir
  local -a started
  mkdir -p "$base"
  started=("$base"/[0-9]*)
  [[ -e "${started[0]}" ]] || started=()
  printf -v dir '%s/%04d%s-%s-%s' "$base" $((${#started[@]} + 1)) "${LANE:+-lane$LANE}" "$2" "${impl//\//_}"
  mkdir -p "$dir"
  printf '%s\n' "$dir"
}

# launch_prefix ROLE GROUP: the argv prefix of a new process of ROLE that starts in cgroup GROUP: into its
# namespace, and pinned to ROLE's CPU when GROUP is ROLE's own (not while warming), a word a line.
launch_prefix() {
  netns_prefix "$1"
  if [[ "$2" == "$1" ]]; then pin_prefix "$1"; fi
}

# start_server KEY ARGV_FILE SCRATCH GROUP PASS: a new server process for KEY (its argv a file of NUL-ended
# arguments; SCRATCH its {cell} folder, emptied), in cgroup GROUP, waited for until ready; returns 1 when it is not
# ready, why in its folder's not-ready file.
start_server() {
  local key="$1" dir port logs
  local -a argv launch
  retire "$key"
  dir=$(process_dir "$5" server "$key")
  rm -rf "$3" && mkdir -p "$3"
  mapfile -d '' -t argv <"$2"
  if [[ -n "$REMOTE_CHECKOUT" ]]; then
    remote_start "$key" "$dir" "${argv[@]}"
  else
    mapfile -t launch < <(launch_prefix server "$4")
    start_group /dev/null "$dir/server.out" "$dir/server.log" "${launch[@]}" "${argv[@]}"
  fi
  LIVE_PID["$key"]=$! LIVE_DIR["$key"]=$dir LIVE_PORT["$key"]="" LIVE_CELLS["$key"]=""
  cgroup_join "$4" "${LIVE_PID[$key]}"
  if port=$(wait_ready "$dir/server.out" "${LIVE_PID[$key]}" "$READY_TIMEOUT"); then
    LIVE_PORT["$key"]=$port
    return 0
  fi
  logs=$(tail -n 3 "$dir/server.log" | tr '\n' ' ')
  printf '%s: %s\n' "$port" "$logs" >"$dir/not-ready"
  return 1
}

# start_client KEY ARGV_FILE GROUP PASS PORT: a new client process for KEY in cgroup GROUP, told its first server's
# PORT ({port}, the one placeholder the steps leave).
start_client() {
  local key="$1" dir arg
  local -a argv=() launch
  retire "$key"
  dir=$(process_dir "$4" client "$key")
  while IFS= read -r -d '' arg; do argv+=("${arg//\{port\}/"$5"}"); done <"$2"
  mapfile -t launch < <(launch_prefix client "$3")
  client_start "$key" "$dir" "${launch[@]}" "${argv[@]}"
  cgroup_join "$3" "${LIVE_PID[$key]}"
}

# alive KEY: the table has a process for KEY and it is still running.
alive() {
  [[ -n "${LIVE_PID[$1]:-}" ]] && group_alive "${LIVE_PID[$1]}"
}

# release KEY: after a cell, the process waits for the next one in the parked cgroup, or, when it has died, goes
# (a server's exit status is noted).
release() {
  if alive "$1"; then cgroup_join parked "${LIVE_PID[$1]}"; else retire "$1"; fi
}

# retire KEY: stops the process of KEY, if any: a client is asked to quit; a server's exit status goes to
# server_exits.tsv for every cell it served (runner/FACTS.md), whose records are folded already.
retire() {
  local key="$1" status=0 served
  [[ -n "${LIVE_PID[$key]:-}" ]] || return 0
  if [[ "$key" == server\|* ]]; then
    remote_stop "$key" "${LIVE_PID[$key]}"
    stop_group "${LIVE_PID[$key]}" 5 || status=$?
    while IFS= read -r served; do
      if [[ -n "$served" ]]; then printf '%s\t%s\n' "$served" "$status" >>"$OUT/server_exits.tsv"; fi
    done <<<"${LIVE_CELLS[$key]}"
  else
    client_stop "$key"
  fi
  unset "LIVE_PID[$key]" "LIVE_DIR[$key]" "LIVE_PORT[$key]" "LIVE_CELLS[$key]" "LIVE_IN[$key]" "LIVE_OUT[$key]"
}

# retire_protocol PROTOCOL: every process of PROTOCOL goes (after its last cell), or every process with "*".
retire_protocol() {
  local key protocol
  for key in "${!LIVE_PID[@]}"; do
    protocol="${key#*|}"
    if [[ "$1" == "*" || "${protocol%%|*}" == "$1" ]]; then retire "$key"; fi
  done
}

# served KEY PASS NAME: the server of KEY serves the cell NAME (once, however often it is made active).
served() {
  local line="$2"$'\t'"$3"
  [[ $'\n'"${LIVE_CELLS[$1]}" == *$'\n'"$line"$'\n'* ]] || LIVE_CELLS["$1"]+="$line"$'\n'
}

# link_logs CELL_DIR KEY NAME...: the cell's own view of a process's files, as relative links.
link_logs() {
  local dir="$1" process="${LIVE_DIR[$2]}" name
  shift 2
  for name in "$@"; do
    ln -sfn "../../../${process#"$OUT/"}/$name" "$dir/$name"
  done
}

# stop_processes: the clients' FIFO ends closed and every process group this shell started stopped.
stop_processes() {
  local key fd_in fd_out
  for key in "${!LIVE_IN[@]}"; do
    fd_in="${LIVE_IN[$key]}" fd_out="${LIVE_OUT[$key]}"
    { exec {fd_in}>&- {fd_out}<&-; } 2>/dev/null || true
  done
  stop_all_groups
}
