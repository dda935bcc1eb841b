#!/usr/bin/env bash
# The machine's floor: the C ping-pong of runner/floor over the same path and CPUs as the cells, its server and
# client in the server's and the client's cgroup and cpuset as a cell's are (the client before it starts: it runs
# in the foreground). Each side's /proc/<pid>/cgroup is kept beside its samples (server.cgroup, client.cgroup).

# measure_floor PASS DIR KIND "WARMUP CALLS MIN_MS MAX_CALLS REPETITIONS": one floor into DIR, its fact of KIND
# (floor: the pass's, folded into the records of the pseudo-cell floor/c→c; adjacent_floor: one the cells beside
# it refer to).
measure_floor() {
  local pass="$1" dir="$2" kind="$3" host="${IP_SERVER:-127.0.0.1}" rc=0 pid port error="" last
  local -a counts launch client_launch pin join
  read -r -a counts <<<"$4"
  rm -rf "$dir"
  mkdir -p "$dir"
  if [[ ! -x "$FLOOR_BIN" ]]; then
    fact "$dir" "$kind" "pass=$pass" "error=runner/floor/bin/floor is not built (runner/setup.sh builds it)"
    return
  fi
  if [[ -n "$REMOTE_CHECKOUT" ]]; then # its server on the servers' host, built there
    remote_start floor "$dir" runner/floor/bin/floor server --host "$host" --port 0
  else
    mapfile -t launch < <(launch_prefix server server)
    start_group /dev/null "$dir/server.out" "$dir/server.log" "${launch[@]}" "$FLOOR_BIN" server --host "$host" --port 0
  fi
  pid=$!
  cgroup_join server "$pid"
  if port=$(wait_ready "$dir/server.out" "$pid" 10); then
    cat "/proc/$pid/cgroup" >"$dir/server.cgroup" 2>/dev/null || true
    mapfile -t client_launch < <(netns_prefix client)
    mapfile -t pin < <(pin_prefix client)
    mapfile -t join < <(cgroup_prefix client)
    # shellcheck disable=SC2016 # the inner script's variables are its own
    timeout "$COMMAND_TIMEOUT" "${join[@]}" "${client_launch[@]}" "${pin[@]}" \
      bash -c 'cat /proc/self/cgroup >"$0"; exec "$@"' "$dir/client.cgroup" \
      "$FLOOR_BIN" client --host "$host" --port "$port" --warmup "${counts[0]}" --calls "${counts[1]}" \
      --min-ms "${counts[2]}" --max-calls "${counts[3]}" --repetitions "${counts[4]}" \
      >"$dir/ping.samples.json" 2>"$dir/client.log" </dev/null || rc=$?
  else
    rc=1
    printf '%s\n' "$port" >"$dir/client.log"
  fi
  remote_stop floor "$pid"
  stop_group "$pid" 2 || true
  if ((rc != 0)); then
    last=$(tail -n 2 "$dir/client.log")
    error="the floor ping-pong failed (status $rc): $last"
  fi
  fact "$dir" "$kind" "pass=$pass" ${error:+"error=$error"}
}
