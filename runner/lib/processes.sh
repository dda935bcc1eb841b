#!/usr/bin/env bash
# The servers and clients that live across the cells of a pass. The cells of a pass come grouped by
# protocol and, within it, by server (plan.shuffled), so one server process serves each of its clients in
# turn, and one client process per client implementation serves every server of the protocol, connecting
# to each in turn (`connect` with the server's host and port). Each process is warmed once: a cell waits
# only for the least warm-up time (warmup_s) of the processes that are new to it, as a JIT runtime keeps
# what it compiled; a kept process meeting a new peer owes only its peer_warmup_s. Idle clients wait in a
# cgroup of their own, so the CPU counters hold the active pair only. With --fresh-processes every cell
# starts and stops its own pair.

KEEP_PROCESSES=1
LIVE_PROTOCOL=""
SERVER_KEY=""
SERVER_WARM=0
SERVER_CELL_DIRS=()
CLIENT_KEY=""
PROCESS_SEQ=0
# The kept clients: one record per client process, keyed by "protocol|client implementation", with the
# named fields "pid fd_in fd_out warm dir" (dir last: it is the rest of the line). kept_client_set writes
# one, kept_client_get KEY reads one into the active client's CLIENT_PID, CLIENT_IN, CLIENT_OUT,
# CLIENT_DIR and CLIENT_WARM.
declare -A KEPT_CLIENTS=()
declare -A WARMUP_OWED=() # slug -> "server_new server_warmed client_new client_warmed" (plan/warmup.tsv)

# kept_client_set KEY PID FD_IN FD_OUT WARM DIR
kept_client_set() {
  KEPT_CLIENTS["$1"]="$2 $3 $4 $5 $6"
}

# kept_client_get KEY: the record into CLIENT_PID, CLIENT_IN, CLIENT_OUT, CLIENT_WARM, CLIENT_DIR; returns 1
# when there is none.
kept_client_get() {
  [[ -n "${KEPT_CLIENTS[$1]:-}" ]] || return 1
  read -r CLIENT_PID CLIENT_IN CLIENT_OUT CLIENT_WARM CLIENT_DIR <<<"${KEPT_CLIENTS[$1]}"
}

# PROCESS_DIR: a new folder for one process's FIFOs and logs; the cell folders link to it. A lane's (run_lanes)
# are named for it: the lanes count from the same number.
new_process_dir() {
  local role="$1" impl="$2"
  PROCESS_SEQ=$((PROCESS_SEQ + 1))
  PROCESS_DIR="$OUT/processes/pass$PASS/$(printf '%04d' "$PROCESS_SEQ")${LANE:+-lane$LANE}-$role-${impl//\//_}"
  mkdir -p "$PROCESS_DIR"
}

# The {cell} folder that a protocol's servers and clients share in a pass; a server starts with it empty.
scratch_dir() {
  printf '%s\n' "$OUT/processes/pass$PASS/scratch-$1"
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

# serve_cell CELL CELL_DIR HOST: the live server of the cell's protocol and server implementation, started
# (and waited for) when there is none. Sets SERVER_NEW; returns 1 with READY_ERROR when it is not ready.
serve_cell() {
  local cell="$1" cell_dir="$2" host="$3" key dir scratch spin
  local -a argv launch=() pin=()
  read_cell "$cell"
  key="$CELL_PROTOCOL|$CELL_SERVER"
  SERVER_NEW=0
  if [[ "$key" == "$SERVER_KEY" && -n "$SERVER_PID" ]] && group_alive "$SERVER_PID"; then
    SERVER_CELL_DIRS+=("$cell_dir")
    link_logs "$cell_dir" "$SERVER_DIR" server.out server.log
    return 0
  fi
  retire_server
  SERVER_NEW=1 SERVER_KEY="$key" SERVER_WARM=0 SERVER_CELL_DIRS=("$cell_dir")
  new_process_dir server "$CELL_SERVER"
  SERVER_DIR="$PROCESS_DIR" dir="$PROCESS_DIR"
  scratch=$(scratch_dir "$CELL_PROTOCOL")
  rm -rf "$scratch" && mkdir -p "$scratch"
  mapfile -t argv < <(cell_argv "$cell" server "$host" "$FIXED_PORT" "$scratch")
  spin=$(server_spin_us "$CELL_SERVER_LANGUAGE")
  if [[ -n "$spin" ]]; then argv=(env "RPCMATRIX_SERVER_SPIN_US=$spin" "${argv[@]}"); fi
  mapfile -t pin < <(pin_prefix server)
  mapfile -t launch < <(netns_prefix server)
  start_group /dev/null "$dir/server.out" "$dir/server.log" "${launch[@]}" "${pin[@]}" "${argv[@]}"
  SERVER_PID="$STARTED_PID"
  cgroup_join server "$SERVER_PID"
  link_logs "$cell_dir" "$dir" server.out server.log
  wait_ready "$dir/server.out" "$SERVER_PID" "$READY_TIMEOUT" || return 1
  SERVER_PORT="$READY_PORT"
}

# Stops the live server, if any, and notes its exit status for every cell it served: one line per cell in
# server_exits.jsonl (runner/FACTS.md), which the analysis joins into those cells' records, folded already.
retire_server() {
  [[ -n "${SERVER_PID:-}" ]] || return 0
  stop_group "$SERVER_PID" 5
  local dir
  local -a cell_files=()
  for dir in "${SERVER_CELL_DIRS[@]}"; do cell_files+=("${dir%/*}/cell.json"); done
  if ((${#cell_files[@]} > 0)); then
    jq -c --argjson p "$PASS" --argjson exit "$STOP_STATUS" '{pass: $p, cell: .name, server_exit_status: $exit}' \
      "${cell_files[@]}" >>"$OUT/server_exits.jsonl" || warn "could not note the server's exit status"
  fi
  SERVER_PID="" SERVER_KEY="" SERVER_WARM=0 SERVER_CELL_DIRS=()
}

# client_for_cell CELL CELL_DIR HOST PORT: makes the cell's client the active one (CLIENT_PID, its FIFOs,
# the client cgroup): the kept process of this client implementation, or a new one. Sets CLIENT_NEW.
client_for_cell() {
  local cell="$1" cell_dir="$2" host="$3" port="$4" dir scratch
  local -a argv launch=() pin=()
  read_cell "$cell"
  CLIENT_KEY="$CELL_PROTOCOL|$CELL_CLIENT"
  CLIENT_NEW=0
  if kept_client_get "$CLIENT_KEY"; then
    if group_alive "$CLIENT_PID"; then
      cgroup_join client "$CLIENT_PID"
      link_logs "$cell_dir" "$CLIENT_DIR" client.log
      return 0
    fi
    retire_client "$CLIENT_KEY"
  fi
  CLIENT_NEW=1
  new_process_dir client "$CELL_CLIENT"
  CLIENT_DIR="$PROCESS_DIR" dir="$PROCESS_DIR"
  scratch=$(scratch_dir "$CELL_PROTOCOL")
  mkdir -p "$scratch"
  mapfile -t argv < <(cell_argv "$cell" client "$host" "$port" "$scratch")
  mapfile -t launch < <(netns_prefix client)
  mapfile -t pin < <(pin_prefix client)
  client_start "$dir" "${launch[@]}" "${pin[@]}" "${argv[@]}"
  cgroup_join client "$CLIENT_PID"
  link_logs "$cell_dir" "$dir" client.log
  kept_client_set "$CLIENT_KEY" "$CLIENT_PID" "$CLIENT_IN" "$CLIENT_OUT" 0 "$dir"
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
  [[ -n "${SERVER_PID:-}" ]] || return 0
  if ((KEEP_PROCESSES == 0)) || ! group_alive "$SERVER_PID"; then
    retire_server
  fi
}

retire_client() {
  local key="$1"
  kept_client_get "$key" || return 0
  client_stop
  unset "KEPT_CLIENTS[$key]"
}

# Every kept process goes: at the end of a protocol's cells, of a pass, or of the run.
retire_processes() {
  local key
  retire_server
  for key in "${!KEPT_CLIENTS[@]}"; do retire_client "$key"; done
  LIVE_PROTOCOL=""
}

# owed_warmup_s SLUG: the least warm-up the cell still owes, in whole seconds. The rule lives in
# plan.owed (the warmup_s of a process new to the cell, the peer_warmup_s of a kept one): plan.warmup_columns
# wrote each cell's four answers (plan/warmup.tsv, in WARMUP_OWED); the shell picks one per side by whether
# its process was warmed, and waits the larger.
owed_warmup_s() {
  local server_new server_warm client_new client_warm server_s client_s
  read -r server_new server_warm client_new client_warm <<<"${WARMUP_OWED[$1]:-0 0 0 0}"
  server_s=$server_new client_s=$client_new
  ((SERVER_WARM == 0)) || server_s=$server_warm
  ((CLIENT_NEW == 1 || ${CLIENT_WARM:-0} == 0)) || client_s=$client_warm
  printf '%s\n' $((server_s > client_s ? server_s : client_s))
}

# Both processes of the cell have had their least warm-up.
mark_warm() {
  SERVER_WARM=1
  if [[ -n "$CLIENT_KEY" ]] && kept_client_get "$CLIENT_KEY"; then
    kept_client_set "$CLIENT_KEY" "$CLIENT_PID" "$CLIENT_IN" "$CLIENT_OUT" 1 "$CLIENT_DIR"
  fi
}

# How servers and clients lived in this run, for env.json and the report.
processes_note() {
  if ((KEEP_PROCESSES)); then
    printf '%s' "kept across cells: in each pass one server process per protocol and server implementation serves its clients in turn, one client process per protocol and client implementation connects to each server in turn (cells grouped by protocol and server, in a random order within each); each process owes its least warm-up (warmup_s) once, and in each later cell the re-warm its manifest gives for a new peer (peer_warmup_s, none by default); an idle client waits in a cgroup of its own on the client's CPU"
  else
    printf '%s' "a new server and client process for every cell (--fresh-processes)"
  fi
}
