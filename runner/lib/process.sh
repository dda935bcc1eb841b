#!/usr/bin/env bash
# Starting, sampling and stopping the servers and clients. Each runs in its own process group (setsid), so
# stopping it reaches every process it made; the groups started are kept for the clean-up (LIVE_GROUPS).

LIVE_GROUPS=()

# start_group IN OUT ERR ARGV...: ARGV in a new process group, its standard streams from and to the files; its
# pid (also the group's id) is $! after the call.
start_group() {
  local in="$1" out="$2" err="$3"
  shift 3
  # SIGPIPE is ignored by the runner (a dead client must not kill it); give the child the default back.
  setsid env --default-signal=PIPE "$@" <"$in" >"$out" 2>"$err" &
  LIVE_GROUPS+=("$!")
  await_own_group "$!"
}

# setsid runs in the child: until it has, the group does not exist and signals to it go nowhere.
await_own_group() {
  local pid="$1" tries=0 rest
  local -a f
  while ((tries++ < 200)); do
    { read -r rest <"/proc/$pid/stat"; } 2>/dev/null || return 0
    read -r -a f <<<"${rest##*) }"
    [[ "${f[2]}" != "$pid" && "${f[0]}" != "Z" ]] || return 0
    sleep 0.01
  done
}

# group_pids PGID: the pids of a process group, one a line, from /proc.
group_pids() {
  local stat rest pgid
  for stat in /proc/[0-9]*/stat; do
    { read -r rest <"$stat"; } 2>/dev/null || continue
    read -r _ _ pgid _ <<<"${rest##*) }" # after the command's name: state, ppid, then the process group
    if [[ "$pgid" == "$1" ]]; then rest="${stat#/proc/}" && printf '%s\n' "${rest%/stat}"; fi
  done
}

# Alive while any process of the group is left; a leader that exited but was not yet reaped (a zombie) belongs
# to no live group.
group_alive() {
  local rest pids
  if { read -r rest <"/proc/$1/stat"; } 2>/dev/null && [[ "${rest##*) }" != Z* ]]; then
    return 0
  fi
  pids=$(group_pids "$1")
  [[ -n "$pids" ]] && grep -qvxF "$1" <<<"$pids"
}

# The group; the leader alone if it has not made its group yet. Never both: a second SIGTERM that lands while a
# runtime is shutting down can change its exit status.
signal_group() {
  kill "-$1" -- "-$2" 2>/dev/null || kill "-$1" "$2" 2>/dev/null || true
}

# stop_group PGID [GRACE]: SIGTERM to the group, up to GRACE seconds for it to go, then SIGKILL. Returns the
# leader's exit status (137 when it had to be killed). Not in $(...): wait needs the group's parent shell.
stop_group() {
  local pgid="$1" grace="${2:-5}" waited=0 status=0 g
  local -a kept=()
  if group_alive "$pgid"; then
    signal_group TERM "$pgid"
    while group_alive "$pgid" && ((waited++ < grace * 10)); do sleep 0.1; done
    if group_alive "$pgid"; then
      signal_group KILL "$pgid"
      status=137
    fi
  fi
  local rc=0
  wait "$pgid" 2>/dev/null || rc=$?
  ((status != 0)) || status=$rc
  for g in "${LIVE_GROUPS[@]}"; do [[ "$g" == "$pgid" ]] || kept+=("$g"); done
  LIVE_GROUPS=("${kept[@]+"${kept[@]}"}")
  return "$status"
}

stop_all_groups() {
  local g
  for g in "${LIVE_GROUPS[@]+"${LIVE_GROUPS[@]}"}"; do stop_group "$g" 2 || true; done
}

# Resets the peak resident memory (VmHWM) of every process of a group, so the next peak is the next
# workload's own (writing 5 to clear_refs; Linux 4.0 and later).
reset_peaks() {
  local pid
  for pid in $(group_pids "$1"); do
    { printf '5\n' >"/proc/$pid/clear_refs"; } 2>/dev/null || true
  done
}

# sample_group PGID: CPU time (user + system, clock ticks), memory (VmRSS, VmHWM in KiB) and threads summed over
# every process of the group, from /proc: "ticks rss_kb hwm_kb threads".
sample_group() {
  local pid rest ticks=0 rss=0 hwm=0 threads=0 key value
  local -a f
  for pid in $(group_pids "$1"); do
    { read -r rest <"/proc/$pid/stat"; } 2>/dev/null || continue
    read -r -a f <<<"${rest##*) }"
    ticks=$((ticks + f[11] + f[12]))
    { while read -r key value _; do
      case "$key" in
        VmRSS:) rss=$((rss + value)) ;;
        VmHWM:) hwm=$((hwm + value)) ;;
        Threads:) threads=$((threads + value)) ;;
      esac
    done <"/proc/$pid/status"; } 2>/dev/null || true
  done
  printf '%s %s %s %s\n' "$ticks" "$rss" "$hwm" "$threads"
}

# thread_ticks PGID REGEX: the CPU time (clock ticks) of the group's threads whose name matches REGEX (a JIT
# runtime's compiler threads: the manifest's jit_threads); nothing without REGEX.
thread_ticks() {
  local pid task comm rest total=0
  local -a f
  [[ -n "$2" ]] || return 0
  for pid in $(group_pids "$1"); do
    for task in "/proc/$pid/task/"*; do
      { read -r comm <"$task/comm" && read -r rest <"$task/stat"; } 2>/dev/null || continue
      [[ "$comm" =~ $2 ]] || continue
      read -r -a f <<<"${rest##*) }"
      total=$((total + f[11] + f[12]))
    done
  done
  printf '%s\n' "$total"
}

# wait_ready OUT PGID TIMEOUT: waits for the server's ready line ({"ready": true, "port": N}) on its stdout file;
# prints the port, or, failing (its group gone, a line that is no ready line, TIMEOUT seconds), why, status 1.
wait_ready() {
  local out="$1" pgid="$2" timeout="$3" tenths=0 line port
  while ((tenths++ < timeout * 10)); do
    if [[ -s "$out" ]]; then
      IFS= read -r line <"$out" || true
      # the usual ready line matched in bash; anything else through jq
      if [[ "$line" =~ ^\{[[:space:]]*\"ready\":[[:space:]]*true,[[:space:]]*\"port\":[[:space:]]*([0-9]+)[[:space:]]*[,}] ]]; then
        printf '%s\n' "${BASH_REMATCH[1]}"
        return 0
      fi
      if port=$(jq -er 'select(.ready == true) | .port' <<<"$line" 2>/dev/null); then
        printf '%s\n' "$port"
        return 0
      fi
      printf "server printed '%s' instead of a ready line\n" "${line:0:200}"
      return 1
    fi
    if ! group_alive "$pgid"; then
      printf 'server exited before it was ready\n'
      return 1
    fi
    sleep 0.1
  done
  printf 'server not ready after %ss\n' "$timeout"
  return 1
}
