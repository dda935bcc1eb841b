#!/usr/bin/env bash
# A client process: started once, driven line by line over two FIFOs (one JSON command in, one JSON
# answer out; runner/PROTOCOL.md), so JVM and Mono start-up happen once, not per command (and, with the
# processes kept across cells, once per protocol and pass: processes.sh).

CLIENT_PID=""
CLIENT_IN=""
CLIENT_OUT=""
CLIENT_LOST=0 # set when the client is gone or hung: it cannot serve another cell

# client_start DIR argv...: starts the client in its own process group with its stderr in DIR/client.log.
client_start() {
  local dir="$1" hold_in hold_out
  shift
  rm -f "$dir/client.in" "$dir/client.out"
  mkfifo "$dir/client.in" "$dir/client.out"
  # Opening a FIFO one way blocks until someone opens the other end; read-write never blocks. Holding
  # both read-write while the client starts lets its redirections open at once; then the runner keeps
  # only its own ends, so the client's death shows as end-of-file and as a failed write.
  exec {hold_in}<>"$dir/client.in" {hold_out}<>"$dir/client.out"
  start_group "$dir/client.in" "$dir/client.out" "$dir/client.log" "$@"
  CLIENT_PID="$STARTED_PID"
  exec {CLIENT_IN}>"$dir/client.in" {CLIENT_OUT}<"$dir/client.out"
  exec {hold_in}<&- {hold_out}<&-
}

# client_call TIMEOUT JSON: sends one command and sets CLIENT_ANSWER. Returns 0 with ok:true, 1 with
# ok:false (CLIENT_ERROR has the message), 2 when the client is gone, 3 on timeout.
client_call() {
  local timeout="$1" command="$2" rc=0
  CLIENT_ANSWER=""
  CLIENT_ERROR=""
  if ! { printf '%s\n' "$command" >&"$CLIENT_IN"; } 2>/dev/null; then
    CLIENT_ERROR="client exited (could not send the command)"
    CLIENT_LOST=1
    return 2
  fi
  IFS= read -r -t "$timeout" -u "$CLIENT_OUT" CLIENT_ANSWER || rc=$?
  if ((rc > 128)); then
    CLIENT_ERROR="client did not answer within ${timeout}s"
    CLIENT_LOST=1
    return 3
  elif ((rc != 0)); then
    CLIENT_ERROR="client exited without answering"
    CLIENT_LOST=1
    return 2
  fi
  # Most answers start with "ok": true; matching that in bash saves a jq process per command.
  if [[ "$CLIENT_ANSWER" =~ ^\{[[:space:]]*\"ok\":[[:space:]]*true[,}[:space:]] ]] ||
    jq -e '.ok == true' <<<"$CLIENT_ANSWER" >/dev/null 2>&1; then
    return 0
  fi
  CLIENT_ERROR=$(jq -r '.error // "answer without ok"' <<<"$CLIENT_ANSWER" 2>/dev/null) ||
    CLIENT_ERROR="not a JSON answer: ${CLIENT_ANSWER:0:200}"
  return 1
}

# Asks the client to quit, then stops its group whatever it did.
client_stop() {
  [[ -n "$CLIENT_PID" ]] || return 0
  { printf '{"cmd": "quit"}\n' >&"$CLIENT_IN"; } 2>/dev/null || true
  IFS= read -r -t 5 -u "$CLIENT_OUT" _ 2>/dev/null || true
  exec {CLIENT_IN}>&- {CLIENT_OUT}<&-
  stop_group "$CLIENT_PID" 5
  CLIENT_PID=""
}
