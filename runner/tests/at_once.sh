#!/usr/bin/env bash
# at_once.sh COMMAND...: runs the commands at once, each in bash, then prints each one's output whole, in the order
# given, with its exit status and time; fails when any failed. Ctrl-C or SIGTERM stops every one still running.
# For the languages' own tests (just test-languages): one after another they took 119 s here for 142 s of CPU
# (Java 50 s at 1.5 CPUs, .NET 30 s at 0.7, Python 27 s at 1.1, Node 12 s at 1.6), on a machine of two.
set -euo pipefail

OUT=""
PIDS=()

# stop: the process group of each command still running (setsid gave each one of its own).
stop() {
  local pid
  for pid in "${PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
}

main() {
  local i status=0 rc seconds
  local -a commands=("$@")
  OUT=$(mktemp -d)
  trap 'stop; rm -rf "$OUT"' EXIT
  trap 'exit 130' INT TERM
  for i in "${!commands[@]}"; do
    # the command and where it writes come as arguments, never pasted into the script
    # shellcheck disable=SC2016 # expanded by the inner bash
    setsid bash -c 'started=$SECONDS; bash -c "$1" >"$2.log" 2>&1; status=$?
      printf "%d %d\n" "$status" $((SECONDS - started)) >"$2.end"; exit "$status"' _ "${commands[$i]}" "$OUT/$i" &
    PIDS+=("$!")
  done
  for i in "${!commands[@]}"; do
    wait "${PIDS[$i]}" || true
    cat "$OUT/$i.log"
    read -r rc seconds <"$OUT/$i.end" || { rc=1 seconds="?"; }
    printf 'at_once: %s: exit %s after %s s\n' "${commands[$i]}" "$rc" "$seconds"
    if [[ "$rc" != 0 ]]; then status=1; fi
  done
  PIDS=()
  return "$status"
}

main "$@"
