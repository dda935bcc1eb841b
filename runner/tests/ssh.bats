#!/usr/bin/env bats
# --server-host against a second host on this machine: Debian's sshd in a network namespace of its own (ssh_host.sh),
# the fake implementations (fixtures/) as servers there and clients here. The other host shares this filesystem, so
# its checkout is this one; another commit's checkout is a clone. Each test starts and stops its own sshd.

bats_require_minimum_version 1.5.0

setup() {
  ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  RPCM="$ROOT/runner/rpcmatrix"
  OUT="$BATS_TEST_TMPDIR/run"
  FAST=(--manifests "$ROOT/runner/tests/fixtures/matrix" --idl "$ROOT/runner/tests/fixtures/idl" --profile smoke
    --ready-timeout 5 --command-timeout 5 --out "$OUT" --no-html)
  export RPCMATRIX_HISTORY=off
  # shellcheck source=runner/tests/ssh_host.sh
  source "$BATS_TEST_DIRNAME/ssh_host.sh"
  ssh_host_start "$BATS_TEST_TMPDIR/host"
  HOST="root@$SSH_HOST_IP"
}

teardown() {
  ssh_host_stop # fails when anything but sshd was left in the other host's namespace
  local tag
  tag=$(cat "$OUT/runner.tag" 2>/dev/null) || return 0
  [ -z "$(ip netns list | grep "^rpcmatrix-$tag\b" || true)" ]
  [ -z "$(find /sys/fs/cgroup -maxdepth 2 -name "rpcmatrix-$tag" 2>/dev/null)" ]
  run nft list table ip "rpcmatrix_wire_$tag"
  [ "$status" -ne 0 ]
}

# holds CELL WORKLOAD JQ-CONDITION: the cell's last record for that workload satisfies it ($h: the other host).
holds() {
  jq -c --arg c "$1" --arg w "$2" 'select(.cell == $c and .workload == $w)' "$OUT/results.jsonl" | tail -n 1 |
    jq -e --arg h "$HOST" "$3" >/dev/null
}

# only_sshd_there: within 10 s, the other host's namespace holds sshd's listener alone (every session ended).
only_sshd_there() {
  local tries=0
  until [ "$(ip netns pids "$SSH_HOST_NS" | wc -l)" -eq 1 ]; do
    [ $((tries += 1)) -le 100 ] || { ps -o pid,args -p "$(ip netns pids "$SSH_HOST_NS" | paste -sd,)" >&2 && return 1; }
    sleep 0.1
  done
}

@test "--server-host: servers and the floor there, clients here; records name both hosts, the server's CPU read there; a server that does not start there is its cell's error" {
  run "$RPCM" run "${FAST[@]}" --cell 'echo/alpha→beta' --cell 'crash/alpha→alpha' --server-host "$HOST"
  # shellcheck disable=SC2016 # $h is jq's
  holds "echo/alpha→beta" ping '.status == "pass" and .server_host == $h and .client_host != $h and
    .cpu_us_per_call.server > 0 and .rss_kb.server_peak > 0'
  # its bytes counted on this host: the fake's 5 bytes each way a call, exactly; no segment count (offloads on)
  holds "echo/alpha→beta" ping '.wire_per_call | .payload_c2s == 5 and .payload_s2c == 5 and
    .data_segments_c2s == null and .bytes_c2s == null'
  grep -q '| Bytes on the wire | counted on the clients.* host: --server-host' "$OUT/report/run.md"
  # shellcheck disable=SC2016
  holds "floor/c→c" ping '.status == "pass" and .server_host == $h'
  holds "crash/alpha→alpha" vectors '.status == "error" and (.reason | test("exited before it was ready"))'
  jq -e --arg ip "$SSH_HOST_IP" '.server_host.address == $ip and (.server_host.git_commit | length) == 40 and
    .server_host.versions.beta.fake == "2.0"' "$OUT/env.json"
  grep -q '^rpcmatrix-remote pgid ' "$OUT"/processes/pass1/*-server-beta/server.log
  only_sshd_there
}

@test "--server-host refusals: a host that cannot be reached, a checkout of another commit, bad values" {
  run "$RPCM" run "${FAST[@]}" --protocol echo --server-host "root@$SSH_HOST_IP:2"
  [ "$status" -eq 2 ]
  [[ "$output" == *"cannot reach root@$SSH_HOST_IP over SSH (port 2"* ]]
  [ ! -e "$OUT" ]
  git clone -q --shared "$ROOT" "$BATS_TEST_TMPDIR/old"
  git -C "$BATS_TEST_TMPDIR/old" checkout -q HEAD~1
  run "$RPCM" run "${FAST[@]}" --protocol echo --server-host "$HOST" --server-checkout "$BATS_TEST_TMPDIR/old"
  [ "$status" -eq 2 ]
  [[ "$output" == *"is of another commit: $(git -C "$BATS_TEST_TMPDIR/old" rev-parse HEAD) there, $(git -C "$ROOT" rev-parse HEAD)"* ]]
  run "$RPCM" run "${FAST[@]}" --server-host "nobody"
  [[ "$output" == *"--server-host takes USER@HOST[:PORT], not 'nobody'"* ]]
  run "$RPCM" run "${FAST[@]}" --build-remote
  [[ "$output" == *"--build-remote needs --server-host"* ]]
}

@test "--server-host: a connection lost mid-cell errs that cell with the reason; the run goes on" {
  "$RPCM" run "${FAST[@]}" --protocol echo --client alpha --server alpha --server-host "$HOST" \
    >"$BATS_TEST_TMPDIR/log" 2>&1 &
  local pid=$! tries=0 first sessions
  # every SSH session there killed once the first cell's first workload is being timed
  until first=$(find "$OUT/cells" -name '*.window.before' 2>/dev/null | head -n 1) && [ -n "$first" ]; do
    [ $((tries += 1)) -le 300 ] || { kill -INT "$pid"; return 1; }
    sleep 0.05
  done
  mapfile -t sessions < <(ssh_host_sessions)
  kill -KILL "${sessions[@]}"
  wait "$pid" || true
  first=$(jq -r .name "$(dirname "$(dirname "$first")")/cell.json")
  jq -c --arg c "$first" 'select(.cell == $c and .status == "error")' "$OUT/results.jsonl" |
    grep -q 'the SSH session of its server on root@'
  # the other cell started a server there again and passed
  jq -c --arg c "$first" 'select(.cell != $c and (.cell | startswith("echo/")) and .workload == "ping")' \
    "$OUT/results.jsonl" | grep -q '"status":"pass"'
  only_sshd_there
}

@test "--server-host: Ctrl-C mid-run leaves nothing running on either host" {
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
    "$RPCM" run "${FAST[@]}" --protocol hang --client alpha --server alpha --server-host "$HOST" \
    --command-timeout 30 >"$BATS_TEST_TMPDIR/log" 2>&1 3>&- &
  local pid=$! tries=0 status=0
  until grep -q '"cmd": "measure"' "$OUT/cells/hang__alpha-to-alpha/pass1/client.log" 2>/dev/null; do
    [ $((tries += 1)) -le 300 ] || { kill -KILL "$pid"; return 1; }
    sleep 0.1
  done
  kill -INT "$pid"
  wait "$pid" || status=$?
  [ "$status" -eq 130 ]
  only_sshd_there
  # the run's own control connection (other tests' runs may have theirs at once)
  local control
  control=$(tr '\0' '\n' <"$OUT/plan/ssh.argv" | grep '^ControlPath=')
  [ -n "$control" ] && [ -z "$(pgrep -f -- "$control" || true)" ]
}
