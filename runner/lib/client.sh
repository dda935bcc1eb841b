#!/usr/bin/env bash
# A client process: started once, driven line by line over two FIFOs in its process folder (one JSON command in,
# one JSON answer out; runner/PROTOCOL.md), so JVM and Mono start-up happen once, not per command. The runner
# holds its own ends of both FIFOs for the client's life: the conductor opens them too for the untimed commands
# (runner/conductor/session.py), and the client's death shows as end of file and as a failed write.

# client_start KEY DIR ARGV...: starts the client in its own process group, its stderr in DIR/client.log; its pid
# and the runner's ends of its FIFOs go into the live-process table.
client_start() {
  local key="$1" dir="$2" hold_in hold_out fd_in fd_out
  shift 2
  rm -f "$dir/client.in" "$dir/client.out"
  mkfifo "$dir/client.in" "$dir/client.out"
  # Opening a FIFO one way blocks until someone opens the other end; read-write never blocks. Holding both
  # read-write while the client starts lets its redirections open at once; then the runner keeps only its own
  # ends.
  exec {hold_in}<>"$dir/client.in" {hold_out}<>"$dir/client.out"
  start_group "$dir/client.in" "$dir/client.out" "$dir/client.log" "$@"
  LIVE_PID["$key"]=$!
  exec {fd_in}>"$dir/client.in" {fd_out}<"$dir/client.out"
  exec {hold_in}<&- {hold_out}<&-
  LIVE_IN["$key"]=$fd_in LIVE_OUT["$key"]=$fd_out LIVE_DIR["$key"]=$dir
}

# client_call KEY TIMEOUT COMMAND ANSWER_FILE: sends one command and writes the client's answer to ANSWER_FILE.
# Returns 0 for ok: true; else the file holds why: 1 for ok: false (the client's error), 2 when the client is
# gone, 3 when it did not answer in time. The read is the runner's own (a builtin), so a signal stops it at once.
client_call() {
  local key="$1" timeout="$2" file="$4" answer rc=0
  if ! { printf '%s\n' "$3" >&"${LIVE_IN[$key]}"; } 2>/dev/null; then
    printf 'client exited (could not send the command)\n' >"$file"
    return 2
  fi
  IFS= read -r -t "$timeout" -u "${LIVE_OUT[$key]}" answer || rc=$?
  if ((rc > 128)); then
    printf 'client did not answer within %ss\n' "$timeout" >"$file"
    return 3
  elif ((rc != 0)); then
    printf 'client exited without answering\n' >"$file"
    return 2
  fi
  # most answers start with "ok": true; matching that in bash saves a jq process per command
  if [[ "$answer" =~ ^\{[[:space:]]*\"ok\":[[:space:]]*true[,}[:space:]] ]] ||
    jq -e '.ok == true' <<<"$answer" >/dev/null 2>&1; then
    printf '%s\n' "$answer" >"$file"
    return 0
  fi
  jq -r '.error // "answer without ok"' <<<"$answer" >"$file" 2>/dev/null ||
    printf 'not a JSON answer: %s\n' "${answer:0:200}" >"$file"
  return 1
}

# client_stop KEY: asks the client to quit, then stops its group whatever it did, and closes the runner's ends.
client_stop() {
  local key="$1" fd_in="${LIVE_IN[$1]}" fd_out="${LIVE_OUT[$1]}"
  { printf '{"cmd": "quit"}\n' >&"$fd_in"; } 2>/dev/null || true
  IFS= read -r -t 5 -u "$fd_out" _ 2>/dev/null || true
  exec {fd_in}>&- {fd_out}<&-
  stop_group "${LIVE_PID[$key]}" 5 || true
}
