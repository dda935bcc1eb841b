#!/usr/bin/env bash
# Servers on another host (--server-host, checked by runner/conductor/remote.py; SSH_ARGV its ssh, the host last).
# Each runs there under a wrapper, in a session of its own, one SSH session per server whose stdout brings the ready
# line back; the wrapper stops the server's process group when told ("stop") or when its session ends (the runner
# gone, the connection lost), so nothing stays there. One control connection carries the sessions and the sampler,
# which reads the servers' CPU and memory from /proc there: a round trip, no handshake and no process here.

SSH_ARGV=() REMOTE_MASTER="" REMOTE_SAMPLER_PID="" REMOTE_IN="" REMOTE_OUT="" REPLY=""
declare -A REMOTE_PGID=() REMOTE_HOLD=()

# shellcheck disable=SC2016 # both scripts run there, their variables are theirs
REMOTE_WRAPPER='cd "$1" || exit 97; shift; setsid "$@" </dev/null & p=$!; echo "rpcmatrix-remote pgid $p" >&2
while kill -0 "$p" 2>/dev/null; do if read -r -t 1 l; then [ "$l" != stop ] || break; elif (($? < 128)); then break; fi; done
kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; for _ in {1..50}; do kill -0 -- "-$p" 2>/dev/null || break; sleep 0.1; done
kill -KILL -- "-$p" 2>/dev/null; wait "$p"'
# "sample PGID": "cpu_us rss_kb hwm_kb threads" of the group (CPU from each thread's schedstat, in ns); "reset PGID"
# resets its peak memory.
# shellcheck disable=SC2016
REMOTE_SAMPLER='while read -r c g; do t=0 r=0 h=0 n=0; for s in /proc/[0-9]*/stat; do read -r x <"$s" 2>/dev/null || continue
x=${x##*) }; read -r _ _ pg _ <<<"$x"; [ "$pg" = "$g" ] || continue; p=${s%/stat}
if [ "$c" = reset ]; then echo 5 2>/dev/null >"$p/clear_refs"; continue; fi
for k in "$p"/task/*/schedstat; do read -r ns _ <"$k" 2>/dev/null && t=$((t + ns)); done
while read -r k v _; do case $k in VmRSS:) r=$((r + v)) ;; VmHWM:) h=$((h + v)) ;; Threads:) n=$((n + v)) ;; esac; done <"$p/status"
done 2>/dev/null; echo "$((t / 1000)) $r $h $n"; done'

# remote_connect: the control connection, started (again, after a lost one) when it is not up; in the run's groups,
# so the clean-up stops it.
remote_connect() {
  local tries=0
  [[ -z "$REMOTE_MASTER" ]] || ! group_alive "$REMOTE_MASTER" || return 0
  start_group /dev/null /dev/null "$OUT/ssh-master.log" "${SSH_ARGV[@]:0:${#SSH_ARGV[@]}-1}" -M -N \
    -o ControlMaster=yes -o ControlPersist=no "${SSH_ARGV[-1]}"
  REMOTE_MASTER=$!
  until "${SSH_ARGV[@]:0:${#SSH_ARGV[@]}-1}" -O check "${SSH_ARGV[-1]}" 2>/dev/null; do
    group_alive "$REMOTE_MASTER" && ((tries++ < 100)) && sleep 0.1 || return 1
  done
}

# remote_start KEY DIR ARGV...: a server of KEY started there from the checkout (ARGV quoted: ssh joins its words into
# one command line), its stdout and stderr in DIR/server.out and server.log; its stdin a FIFO the runner holds open,
# and its pgid there learnt from the log's first line (waited for, bounded). Its session's pid is $! after the call.
remote_start() {
  local key="$1" dir="$2" hold line="" tries=0
  shift 2
  remote_connect || warn "no control connection to ${SSH_ARGV[-1]} ($OUT/ssh-master.log): a session of its own"
  rm -f "$dir/server.in" && mkfifo "$dir/server.in" && exec {hold}<>"$dir/server.in"
  REMOTE_HOLD["$key"]=$hold
  start_group "$dir/server.in" "$dir/server.out" "$dir/server.log" "${SSH_ARGV[@]}" bash -c "${REMOTE_WRAPPER@Q}" \
    _ "${REMOTE_CHECKOUT@Q}" "${@@Q}"
  while ((tries++ < 100)) && group_alive "$!"; do
    { IFS= read -r line <"$dir/server.log"; } 2>/dev/null || true
    [[ "$line" != "rpcmatrix-remote pgid "* ]] || { REMOTE_PGID["$key"]=${line##* } && return 0; }
    sleep 0.05
  done
}

# remote_stop KEY PID: the server there is told to stop (its exit status comes back as its session's, PID); closing
# its stdin stops it too, had it missed the word.
remote_stop() {
  local fd="${REMOTE_HOLD[$1]:-}" tries=0
  [[ -n "$fd" ]] || return 0
  { printf 'stop\n' >&"$fd"; } 2>/dev/null || true
  while group_alive "$2" && ((tries++ < 70)); do sleep 0.1; done
  exec {fd}>&-
  unset "REMOTE_HOLD[$1]" "REMOTE_PGID[$1]"
}

# remote_read WHAT PGID: the sampler's answer for the group there into REPLY ("cpu_us rss_kb hwm_kb threads"; empty
# when the connection is lost), the sampler started first when it is not up.
remote_read() {
  REPLY=""
  if [[ -z "$REMOTE_SAMPLER_PID" ]] || ! group_alive "$REMOTE_SAMPLER_PID"; then
    if [[ -n "$REMOTE_IN" ]]; then exec {REMOTE_IN}>&- {REMOTE_OUT}<&-; fi
    mkdir -p "$OUT/sampler" && client_start sampler "$OUT/sampler" "${SSH_ARGV[@]}" bash -c "${REMOTE_SAMPLER@Q}"
    REMOTE_SAMPLER_PID=${LIVE_PID[sampler]} REMOTE_IN=${LIVE_IN[sampler]} REMOTE_OUT=${LIVE_OUT[sampler]}
    unset "LIVE_PID[sampler]" "LIVE_IN[sampler]" "LIVE_OUT[sampler]" "LIVE_DIR[sampler]"
  fi
  { printf '%s %s\n' "$1" "$2" >&"$REMOTE_IN"; } 2>/dev/null && IFS= read -r -t 10 -u "$REMOTE_OUT" REPLY || REPLY=""
}
