#!/usr/bin/env bash
# Starting, sampling and stopping the servers and clients of a cell. Each runs in its own process group
# (setsid), so stopping it reaches every process it made; the live groups are tracked for the cleanup trap.
#
# Results: a function here that has more to say than its exit status leaves it in a variable named for it,
# read right after the call and never later: STARTED_PID (start_group), READY_PORT and READY_ERROR
# (wait_ready), STOP_STATUS (stop_group). client.sh does the same with CLIENT_ANSWER and CLIENT_ERROR
# (client_call). Lasting state lives elsewhere, each in one place: the kept processes in processes.sh
# (KEPT_CLIENTS, one record per client; SERVER_*), the live groups in LIVE_GROUPS.

LIVE_GROUPS=()

# Starts argv in a new process group; sets STARTED_PID (also the group id). Extra redirections are the
# caller's: start_group IN OUT ERR argv...
start_group() {
  local in="$1" out="$2" err="$3"
  shift 3
  # SIGPIPE is ignored by the runner (a dead client must not kill it); give the child the default back.
  setsid env --default-signal=PIPE "$@" <"$in" >"$out" 2>"$err" &
  STARTED_PID=$!
  LIVE_GROUPS+=("$STARTED_PID")
  await_own_group "$STARTED_PID"
}

# setsid runs in the child: until it has, the group does not exist and signals to it go nowhere.
await_own_group() {
  local pid="$1" tries=0 rest
  local -a f
  while ((tries < 200)); do
    { read -r rest <"/proc/$pid/stat"; } 2>/dev/null || return 0
    read -r -a f <<<"${rest##*) }"
    [[ "${f[2]}" != "$pid" && "${f[0]}" != "Z" ]] || return 0
    sleep 0.01
    tries=$((tries + 1))
  done
}

# Alive while any process of the group is left; a leader that exited but was not yet reaped (a zombie)
# belongs to no live group.
group_alive() {
  local rest
  if { read -r rest <"/proc/$1/stat"; } 2>/dev/null && [[ "${rest##*) }" != Z* ]]; then
    return 0
  fi
  # shellcheck disable=SC2143 # grep -q could end the pipe early: under pipefail, pgrep's SIGPIPE would read as none
  pgrep -g "$1" >/dev/null 2>&1 && [[ -n "$(pgrep -g "$1" | grep -vxF "$1")" ]]
}

# SIGTERM to the group, up to GRACE seconds for it to go, then SIGKILL. Sets STOP_STATUS to the leader's
# exit status (137 when it had to be killed). Not for $(...): wait needs the group's parent shell.
stop_group() {
  local pgid="$1" grace="${2:-5}" waited=0
  STOP_STATUS=0
  if group_alive "$pgid"; then
    signal_group TERM "$pgid"
    while group_alive "$pgid" && ((waited < grace * 10)); do
      sleep 0.1
      waited=$((waited + 1))
    done
    if group_alive "$pgid"; then
      signal_group KILL "$pgid"
      STOP_STATUS=137
    fi
  fi
  local rc=0
  wait "$pgid" 2>/dev/null || rc=$?
  ((STOP_STATUS != 0)) || STOP_STATUS=$rc
  forget_group "$pgid"
}

# The group; the leader alone if it has not made its group yet. Never both: a second SIGTERM that lands
# while a runtime is shutting down can change its exit status.
signal_group() {
  kill "-$1" -- "-$2" 2>/dev/null || kill "-$1" "$2" 2>/dev/null || true
}

forget_group() {
  local pgid="$1" g
  local -a kept=()
  for g in "${LIVE_GROUPS[@]}"; do [[ "$g" == "$pgid" ]] || kept+=("$g"); done
  LIVE_GROUPS=("${kept[@]+"${kept[@]}"}")
}

stop_all_groups() {
  local g
  for g in "${LIVE_GROUPS[@]+"${LIVE_GROUPS[@]}"}"; do stop_group "$g" 2; done
}

# group_pids PGID: the pids of a process group, from /proc, in the array GROUP_PIDS. Parameter expansions
# only, no subshell or here-string: the runner asks four times per workload, and a scan reads every process.
GROUP_PIDS=()
group_pids() {
  local pgid="$1" stat pid rest
  GROUP_PIDS=()
  for stat in /proc/[0-9]*/stat; do
    { read -r rest <"$stat"; } 2>/dev/null || continue
    # after the command's name: state, ppid, then the process group
    rest="${rest##*) }"
    rest="${rest#* }"
    rest="${rest#* }"
    if [[ "${rest%% *}" == "$pgid" ]]; then
      pid="${stat#/proc/}"
      GROUP_PIDS+=("${pid%/stat}")
    fi
  done
}

# Resets the peak resident memory (VmHWM) of every process of a group, so the next peak is the next
# workload's own (writing 5 to clear_refs; Linux 4.0 and later).
reset_peaks() {
  local pid
  group_pids "$1"
  for pid in "${GROUP_PIDS[@]+"${GROUP_PIDS[@]}"}"; do
    { printf '5\n' >"/proc/$pid/clear_refs"; } 2>/dev/null || true
  done
}

# CPU time (user + system, clock ticks), memory (VmRSS, VmHWM in KiB) and threads summed over every
# process of a group, read from /proc. Prints: ticks rss_kb hwm_kb threads
sample_group() {
  local pgid="$1" pid rest ticks=0 rss=0 hwm=0 threads=0 key value
  local -a f
  group_pids "$pgid"
  for pid in "${GROUP_PIDS[@]+"${GROUP_PIDS[@]}"}"; do
    { read -r rest <"/proc/$pid/stat"; } 2>/dev/null || continue
    rest="${rest##*) }"
    read -r -a f <<<"$rest"
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

# Steal time of the whole machine so far, in clock ticks (the eighth CPU column of /proc/stat): time a
# hypervisor gave this machine's virtual CPUs to someone else.
steal_ticks() {
  local steal
  read -r _ _ _ _ _ _ _ _ steal _ </proc/stat
  printf '%s\n' "${steal:-0}"
}

# Waits for the server's ready line ({"ready": true, "port": N}) on its stdout file; sets READY_PORT,
# or READY_ERROR when it fails.
# Fails early when the server's group is gone (it died), or after TIMEOUT seconds.
wait_ready() {
  local out="$1" pgid="$2" timeout="$3" tenths=0 line port
  while ((tenths < timeout * 10)); do
    if [[ -s "$out" ]]; then
      IFS= read -r line <"$out" || true
      # the usual ready line matched in bash; anything else through jq
      if [[ "$line" =~ ^\{[[:space:]]*\"ready\":[[:space:]]*true,[[:space:]]*\"port\":[[:space:]]*([0-9]+)[[:space:]]*[,}] ]]; then
        READY_PORT="${BASH_REMATCH[1]}"
        return 0
      fi
      port=$(jq -er 'select(.ready == true) | .port' <<<"$line" 2>/dev/null) && {
        READY_PORT="$port"
        return 0
      }
      READY_ERROR="server printed '${line:0:200}' instead of a ready line"
      return 1
    fi
    if ! group_alive "$pgid"; then
      READY_ERROR="server exited before it was ready"
      return 1
    fi
    sleep 0.1
    tenths=$((tenths + 1))
  done
  READY_ERROR="server not ready after ${timeout}s"
  return 1
}
