#!/usr/bin/env bash
# The servers and clients that live across the cells of a pass. The cells of a pass come grouped by
# protocol and, within it, by server (plan.shuffled). One server process per protocol and server
# implementation serves each of its clients in turn, and one client process per protocol and client
# implementation connects to each server in turn (`connect` with the server's host and port); all of a
# protocol's processes live until its last cell. A profile that times workloads warms them all together
# first (warm.sh); idle ones wait in a cgroup of their own (parked), so the CPU counters hold the active pair
# only. With --fresh-processes every cell starts and stops its own pair.

KEEP_PROCESSES=1
LIVE_PROTOCOL=""
PROCESS_SEQ=0
# The active pair of the cell being run: its server (SERVER_KEY "protocol|server implementation", SERVER_PID,
# SERVER_PORT, SERVER_DIR) and client (CLIENT_KEY, CLIENT_PID, CLIENT_IN, CLIENT_OUT, CLIENT_DIR).
SERVER_KEY=""
SERVER_PID=""
CLIENT_KEY=""
# The kept processes, one record each, keyed by "protocol|implementation" (the active ones among them):
# servers "pid port dir", clients "pid fd_in fd_out dir" (dir last: it is the rest of the line).
# kept_server_get and kept_client_get read one into the active variables.
declare -A KEPT_SERVERS=() KEPT_CLIENTS=()
# The cell folders each kept server has served (newline-separated), for its exit status (retire_server).
declare -A SERVER_CELLS=()

kept_client_set() {
  KEPT_CLIENTS["$1"]="$2 $3 $4 $5"
}

# kept_client_get KEY: the record into CLIENT_PID, CLIENT_IN, CLIENT_OUT, CLIENT_DIR; returns 1 when there is
# none.
kept_client_get() {
  [[ -n "${KEPT_CLIENTS[$1]:-}" ]] || return 1
  read -r CLIENT_PID CLIENT_IN CLIENT_OUT CLIENT_DIR <<<"${KEPT_CLIENTS[$1]}"
}

# kept_server_get KEY: the record into SERVER_PID, SERVER_PORT, SERVER_DIR; returns 1 when there is none.
kept_server_get() {
  [[ -n "${KEPT_SERVERS[$1]:-}" ]] || return 1
  read -r SERVER_PID SERVER_PORT SERVER_DIR <<<"${KEPT_SERVERS[$1]}"
}

# PROCESS_DIR: a new folder for one process's FIFOs and logs; the cell folders link to it. A lane's (run_lanes)
# are named for it: the lanes count from the same number.
new_process_dir() {
  local role="$1" impl="$2"
  PROCESS_SEQ=$((PROCESS_SEQ + 1))
  PROCESS_DIR="$OUT/processes/pass$PASS/$(printf '%04d' "$PROCESS_SEQ")${LANE:+-lane$LANE}-$role-${impl//\//_}"
  mkdir -p "$PROCESS_DIR"
}

# The {cell} folder of a server process ("protocol|server implementation"), empty when it starts: where it may
# leave a stringified object reference for its clients. The name only, in the pass's processes folder.
scratch_name() {
  local key="$1"
  printf '%s\n' "scratch-${key%%|*}-${key#*|}"
}

scratch_dir() {
  printf '%s\n' "$OUT/processes/pass$PASS/$(scratch_name "$1")"
}

# A client's {cell} ("protocol|client implementation"): a link the runner points at the folder of the server it
# is about to connect to (point_scratch), as a protocol's servers live at once and each client meets all of them.
client_scratch() {
  local key="$1"
  printf '%s\n' "$OUT/processes/pass$PASS/cell-${key%%|*}-${key#*|}"
}

# point_scratch CLIENT_KEY SERVER_KEY: the client's {cell} is now its server's folder (a relative link: both are
# in the pass's processes folder).
point_scratch() {
  local target link
  target=$(scratch_name "$2")
  link=$(client_scratch "$1")
  ln -sfn "$target" "$link"
}

# launch_prefix ROLE GROUP: the argv prefix of a new process of ROLE (server or client) that starts in cgroup
# GROUP: into its namespace, and pinned to ROLE's CPU when GROUP is ROLE's own (not while warming), one word a line.
launch_prefix() {
  netns_prefix "$1"
  if [[ "$2" == "$1" ]]; then pin_prefix "$1"; fi
}

# link_logs CELL_DIR PROCESS_DIR NAME...: the cell's own view of a process's files, as relative links.
link_logs() {
  local cell_dir="$1" process_dir="$2" name
  shift 2
  for name in "$@"; do
    ln -sfn "../../../processes/pass$PASS/$(basename "$process_dir")/$name" "$cell_dir/$name"
  done
}

# The microseconds --inject-server-spin asks of LANGUAGE's servers, or nothing.
server_spin_us() {
  local entry
  for entry in ${SERVER_SPIN//,/ }; do
    if [[ "${entry%%=*}" == "$1" ]]; then printf '%s\n' "${entry#*=}"; fi
  done
}

# start_server CELL HOST GROUP: a new server process of the cell's protocol and server implementation, in
# cgroup GROUP (server, or warming), waited for until ready; it becomes the kept and active server of its
# key. Returns 1 with READY_ERROR when it is not ready.
start_server() {
  local cell="$1" host="$2" group="$3" key dir scratch spin
  local -a argv launch=()
  read_cell "$cell"
  key="$CELL_PROTOCOL|$CELL_SERVER"
  retire_server "$key"
  new_process_dir server "$CELL_SERVER"
  dir="$PROCESS_DIR"
  scratch=$(scratch_dir "$key")
  rm -rf "$scratch" && mkdir -p "$scratch"
  mapfile -t argv < <(cell_argv "$cell" server "$host" "$FIXED_PORT" "$scratch")
  spin=$(server_spin_us "$CELL_SERVER_LANGUAGE")
  if [[ -n "$spin" ]]; then argv=(env "RPCMATRIX_SERVER_SPIN_US=$spin" "${argv[@]}"); fi
  mapfile -t launch < <(launch_prefix server "$group")
  start_group /dev/null "$dir/server.out" "$dir/server.log" "${launch[@]}" "${argv[@]}"
  SERVER_KEY="$key" SERVER_PID="$STARTED_PID" SERVER_DIR="$dir" SERVER_PORT=""
  KEPT_SERVERS["$key"]="$SERVER_PID 0 $dir"
  SERVER_CELLS["$key"]=""
  cgroup_join "$group" "$SERVER_PID"
  wait_ready "$dir/server.out" "$SERVER_PID" "$READY_TIMEOUT" || return 1
  SERVER_PORT="$READY_PORT"
  KEPT_SERVERS["$key"]="$SERVER_PID $SERVER_PORT $dir"
}

# serve_cell CELL CELL_DIR HOST: the cell's server made the active one, in the server cgroup (on its CPU): the
# kept process of its protocol and implementation, or a new one. Sets SERVER_NEW; returns 1 with READY_ERROR
# when a new one is not ready.
serve_cell() {
  local cell="$1" cell_dir="$2" host="$3" key rc=0
  read_cell "$cell"
  key="$CELL_PROTOCOL|$CELL_SERVER"
  SERVER_NEW=0
  if kept_server_get "$key" && [[ "$SERVER_PORT" != 0 ]] && group_alive "$SERVER_PID"; then
    SERVER_KEY="$key"
    cgroup_join server "$SERVER_PID"
  else
    SERVER_NEW=1
    start_server "$cell" "$host" server || rc=1
  fi
  note_served "$key" "$cell_dir"
  link_logs "$cell_dir" "$SERVER_DIR" server.out server.log
  return "$rc"
}

# note_served KEY CELL_DIR: the kept server of KEY serves the cell (once, however often it is made active).
note_served() {
  [[ $'\n'"${SERVER_CELLS[$1]:-}" == *$'\n'"$2"$'\n'* ]] || SERVER_CELLS["$1"]+="$2"$'\n'
}

# Stops a kept server (the active one by default), if any, and notes its exit status for every cell it
# served: one line per cell in server_exits.jsonl (runner/FACTS.md), which the analysis joins into those
# cells' records, folded already.
retire_server() {
  local key="${1:-$SERVER_KEY}" pid port dir cells
  [[ -n "$key" && -n "${KEPT_SERVERS[$key]:-}" ]] || return 0
  read -r pid port dir <<<"${KEPT_SERVERS[$key]}"
  cells="${SERVER_CELLS[$key]:-}"
  unset "KEPT_SERVERS[$key]" "SERVER_CELLS[$key]"
  if [[ "$key" == "$SERVER_KEY" ]]; then SERVER_KEY="" SERVER_PID=""; fi
  stop_group "$pid" 5
  local -a cell_files=()
  while IFS= read -r dir; do
    if [[ -n "$dir" ]]; then cell_files+=("${dir%/*}/cell.json"); fi
  done <<<"$cells"
  if ((${#cell_files[@]} > 0)); then
    jq -c --argjson p "$PASS" --argjson exit "$STOP_STATUS" '{pass: $p, cell: .name, server_exit_status: $exit}' \
      "${cell_files[@]}" >>"$OUT/server_exits.jsonl" || warn "could not note the server's exit status"
  fi
}

# start_client CELL HOST PORT GROUP: a new client process of the cell's protocol and client implementation, in
# cgroup GROUP (client, or warming); it becomes the kept and active client of its key.
start_client() {
  local cell="$1" host="$2" port="$3" group="$4" scratch
  local -a argv launch=()
  read_cell "$cell"
  CLIENT_KEY="$CELL_PROTOCOL|$CELL_CLIENT"
  retire_client "$CLIENT_KEY"
  new_process_dir client "$CELL_CLIENT"
  CLIENT_DIR="$PROCESS_DIR"
  scratch=$(client_scratch "$CLIENT_KEY")
  point_scratch "$CLIENT_KEY" "$CELL_PROTOCOL|$CELL_SERVER"
  mapfile -t argv < <(cell_argv "$cell" client "$host" "$port" "$scratch")
  mapfile -t launch < <(launch_prefix client "$group")
  client_start "$CLIENT_DIR" "${launch[@]}" "${argv[@]}"
  cgroup_join "$group" "$CLIENT_PID"
  kept_client_set "$CLIENT_KEY" "$CLIENT_PID" "$CLIENT_IN" "$CLIENT_OUT" "$CLIENT_DIR"
}

# client_for_cell CELL CELL_DIR HOST PORT: makes the cell's client the active one (CLIENT_PID, its FIFOs,
# the client cgroup): the kept process of this client implementation, or a new one. Sets CLIENT_NEW.
client_for_cell() {
  local cell="$1" cell_dir="$2" host="$3" port="$4"
  read_cell "$cell"
  CLIENT_KEY="$CELL_PROTOCOL|$CELL_CLIENT"
  CLIENT_NEW=0
  if kept_client_get "$CLIENT_KEY" && group_alive "$CLIENT_PID"; then
    cgroup_join client "$CLIENT_PID"
  else
    CLIENT_NEW=1
    start_client "$cell" "$host" "$port" client
  fi
  link_logs "$cell_dir" "$CLIENT_DIR" client.log
}

# After a cell: the active client waits for the next server of its protocol, unless it is gone, it hung
# (CLIENT_LOST) or processes are not kept.
release_client() {
  [[ -n "$CLIENT_KEY" && -n "${KEPT_CLIENTS[$CLIENT_KEY]:-}" ]] || return 0
  if ((KEEP_PROCESSES == 0 || CLIENT_LOST == 1)) || ! group_alive "$CLIENT_PID"; then
    retire_client "$CLIENT_KEY"
  else
    cgroup_join parked "$CLIENT_PID"
  fi
  CLIENT_KEY="" CLIENT_PID=""
}

# After a cell: the server waits for its next client, unless it died or processes are not kept.
release_server() {
  [[ -n "${SERVER_KEY:-}" && -n "${KEPT_SERVERS[$SERVER_KEY]:-}" ]] || return 0
  if ((KEEP_PROCESSES == 0)) || ! group_alive "$SERVER_PID"; then
    retire_server "$SERVER_KEY"
  else
    cgroup_join parked "$SERVER_PID"
  fi
  SERVER_KEY="" SERVER_PID=""
}

# retire_client KEY: stops a kept client; the active one stays active unless it is the one.
retire_client() {
  local key="$1" active_pid="${CLIENT_PID:-}" active_in="${CLIENT_IN:-}" active_out="${CLIENT_OUT:-}"
  local active_dir="${CLIENT_DIR:-}"
  kept_client_get "$key" || return 0
  client_stop
  unset "KEPT_CLIENTS[$key]"
  if [[ "$key" == "$CLIENT_KEY" ]]; then
    CLIENT_KEY=""
  else
    CLIENT_PID="$active_pid" CLIENT_IN="$active_in" CLIENT_OUT="$active_out" CLIENT_DIR="$active_dir"
  fi
}

# retire_processes [PROTOCOL]: every kept process of PROTOCOL goes (at the end of its last cell), or every kept
# process of every protocol (at the end of a pass, or of the run).
retire_processes() {
  local protocol="${1:-}" key
  for key in "${!KEPT_SERVERS[@]}"; do
    if [[ -z "$protocol" || "${key%%|*}" == "$protocol" ]]; then retire_server "$key"; fi
  done
  for key in "${!KEPT_CLIENTS[@]}"; do
    if [[ -z "$protocol" || "${key%%|*}" == "$protocol" ]]; then retire_client "$key"; fi
  done
  forget_warm "$protocol"
  if [[ -z "$protocol" || "$protocol" == "$LIVE_PROTOCOL" ]]; then LIVE_PROTOCOL=""; fi
}

# How servers and clients lived in this run, for env.json and the report.
processes_note() {
  if ((KEEP_PROCESSES)); then
    printf '%s' "kept across cells: in each pass one server process per protocol and server implementation serves its clients in turn, one client process per protocol and client implementation connects to each server in turn (cells grouped by protocol and server, in a random order within each), each alive until its protocol's last cell; a profile that times workloads first warms a group of protocols' processes together (unpinned, every cell's vectors, then warm-up calls until each JIT runtime's compiler threads go quiet), then times their cells one at a time; an idle process waits in a cgroup of its own on the client's CPU"
  else
    printf '%s' "a new server and client process for every cell (--fresh-processes)"
  fi
}
