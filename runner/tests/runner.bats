#!/usr/bin/env bats
# The runner against fake implementations (fixtures/fake_impl.py): matrix expansion, gaps as rows,
# bad input, timeouts, failure classification, interruption and clean-up. No real protocol involved.

setup() {
  ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  RPCM="$ROOT/runner/rpcmatrix"
  FIX="$ROOT/runner/tests/fixtures/matrix"
  OUT="$BATS_TEST_TMPDIR/run"
  FAST=(--manifests "$FIX" --profile smoke --ready-timeout 3 --command-timeout 3 --out "$OUT")
}

teardown() {
  # Whatever a test did, nothing of ours may be left running.
  ! pgrep -f "fixtures/fake_impl.py" >/dev/null
}

no_leftovers() {
  ! pgrep -f "fixtures/fake_impl.py" >/dev/null
  ! ip netns list 2>/dev/null | grep -q '^rpcmatrix-'
}

record_of() { # cell workload field
  jq -r --arg c "$1" --arg w "$2" "select(.cell == \$c and .workload == \$w) | $3" "$OUT/results.jsonl" | tail -n 1
}

# record_holds CELL WORKLOAD JQ-CONDITION: the cell's last record for that workload satisfies it.
record_holds() {
  jq -c --arg c "$1" --arg w "$2" 'select(.cell == $c and .workload == $w)' "$OUT/results.jsonl" | tail -n 1 |
    jq -e "$3" >/dev/null
}

@test "cells: every client × server of every protocol, gaps as unsupported rows with a reason" {
  run "$RPCM" cells --manifests "$FIX"
  [ "$status" -eq 0 ]
  [ "$(grep -c . <<<"$output")" -eq 32 ] # 8 protocols × 2 clients × 2 servers
  grep -qx $'gap/beta→alpha\tunsupported: not implemented in beta' <<<"$output"
  grep -qx $'nope/alpha→beta\tunsupported: alpha cannot speak nope: no library' <<<"$output"
  grep -qx $'echo/beta→alpha\truns' <<<"$output"
}

@test "cells: selection by protocol, server and client; a dry run writes nothing" {
  run "$RPCM" cells --manifests "$FIX" --protocol echo --server beta --client alpha --out "$OUT"
  [ "$status" -eq 0 ]
  [ "$output" = $'echo/alpha→beta\truns' ]
  [ ! -e "$OUT" ]
}

@test "unknown names: a clear message naming the known ones, and nothing runs" {
  run "$RPCM" run --manifests "$FIX" --protocol nosuch --out "$OUT"
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown protocol 'nosuch'; known: crash echo gap hang neverready nope stall wrong"* ]]
  [[ "$output" == *"no cell matches the selection"* ]]
  run "$RPCM" frobnicate
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown command 'frobnicate'"* ]]
  run "$RPCM" run --manifests "$FIX" --bogus
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown option '--bogus'"* ]]
}

@test "commands: the exact argv of a cell, placeholders filled" {
  run "$RPCM" commands 'echo/alpha→beta' --manifests "$FIX"
  [ "$status" -eq 0 ]
  [[ "$output" == *"'python3' '$ROOT/runner/tests/fixtures/fake_impl.py' 'server' '--host' '127.0.0.1' '--port' '0'"* ]]
  [[ "$output" == *"'client' '--host' '127.0.0.1' '--port' 'N' '--idl' '$ROOT/idl'"* ]]
}

@test "a passing matrix: records with the documented fields, CSV, JUnit, report, exit 0" {
  run "$RPCM" run "${FAST[@]}" --protocol echo,gap
  [ "$status" -eq 0 ]
  [ "$(jq -s 'length' "$OUT/results.jsonl")" -eq 48 ] # 8 cells × (vectors + 5 workloads)
  [ "$(record_of 'echo/alpha→beta' vectors .status)" = pass ]
  [ "$(record_of 'gap/beta→alpha' ping .status)" = unsupported ]
  [ "$(record_of 'gap/beta→alpha' ping .reason)" = "not implemented in beta" ]
  for field in protocol server client workload status reason calls rtt_us instantiation_us cpu_us_per_call rss_kb wire_per_call env; do
    jq -e --arg f "$field" 'has($f)' <(head -n 1 "$OUT/results.jsonl") >/dev/null
  done
  record_holds 'echo/alpha→beta' ping '.rtt_us.p50 > 0 and .rtt_us.p99 >= .rtt_us.p50 and .calls == 6
    and .cpu_us_per_call.server >= 0 and .rss_kb.server_peak > 0 and .env.server.versions.fake == "2.0"' 
  local n
  n=$(jq '.vectors | length' "$ROOT/idl/vectors.json") # the fake client passes every vector it is given
  grep -qF "| **alpha** | ✅ $n/$n pass | ✅ $n/$n pass |" "$OUT/REPORT.md"
  grep -q 'testcase classname="echo/alpha→beta" name="vector int64_max"' "$OUT/junit.xml"
  head -n 1 "$OUT/results.csv" | grep -q '^protocol,server,client,cell,workload,status,reason,calls'
  no_leftovers
}

@test "bytes on the wire are counted on a veth pair when namespaces can be made" {
  [ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
  run "$RPCM" run "${FAST[@]}" --protocol echo --client alpha --server beta
  [ "$status" -eq 0 ]
  # the fake protocol sends the workload name and a newline each way: at least that many bytes per call
  record_holds 'echo/alpha→beta' ping '.wire_per_call.bytes_c2s >= 5 and .wire_per_call.packets_c2s >= 1' 
  jq -e '.run.wire | startswith("server in network namespace")' "$OUT/env.json" >/dev/null
  no_leftovers
}

@test "without namespaces the run works and says bytes were not measured" {
  run "$RPCM" run "${FAST[@]}" --protocol echo --client alpha --server beta --no-netns
  [ "$status" -eq 0 ]
  [ "$(record_of 'echo/alpha→beta' ping .wire_per_call)" = null ]
  grep -q 'not measured: --no-netns' "$OUT/REPORT.md"
}

@test "a server that never gets ready, one that crashes, a client that cannot start: marked, and the run goes on" {
  run "$RPCM" run "${FAST[@]}" --protocol neverready,crash,echo --client alpha --server alpha
  [ "$status" -eq 1 ]
  [[ "$(record_of 'neverready/alpha→alpha' vectors .reason)" == "server not ready after 3s"* ]]
  [ "$(record_of 'neverready/alpha→alpha' getItems10 .status)" = error ]
  [[ "$(record_of 'crash/alpha→alpha' vectors .reason)" == "server exited before it was ready: fake server: crashing on purpose"* ]]
  [ "$(record_of 'echo/alpha→alpha' vectors .status)" = pass ]
  [[ "$output" == *"UNEXPECTED error: neverready/alpha→alpha vectors"* ]]
  no_leftovers
}

@test "a client that hangs times out; a server that ignores SIGTERM is killed; the run ends by itself" {
  SECONDS=0
  run "$RPCM" run "${FAST[@]}" --protocol hang --server alpha
  [ "$status" -eq 1 ]
  [ "$SECONDS" -lt 60 ]
  [ "$(record_of 'hang/alpha→alpha' vectors .status)" = pass ]
  [ "$(record_of 'hang/alpha→alpha' ping .status)" = timeout ]
  [ "$(record_of 'hang/alpha→alpha' ping .reason)" = "client did not answer within 3s" ]
  [ "$(record_of 'hang/alpha→alpha' getItems10 .status)" = timeout ]
  no_leftovers
}

@test "a client that hangs while warming the cell: its workloads time out and the run goes on" {
  run "$RPCM" run "${FAST[@]}" --protocol stall,echo --server alpha --client alpha
  [ "$status" -eq 1 ]
  [ "$(record_of 'stall/alpha→alpha' vectors .status)" = pass ]
  [ "$(record_of 'stall/alpha→alpha' ping .reason)" = "warm-up: client did not answer within 3s" ]
  [ "$(record_of 'stall/alpha→alpha' getItems10 .status)" = timeout ]
  [ "$(record_of 'echo/alpha→alpha' getItems10 .status)" = pass ]
  no_leftovers
}

@test "a busy port: the server's own error becomes the cell's reason" {
  python3 -c 'import socket,sys,time; s=socket.create_server(("127.0.0.1",0)); print(s.getsockname()[1], flush=True); time.sleep(60)' >"$BATS_TEST_TMPDIR/port" &
  local holder=$!
  while [ ! -s "$BATS_TEST_TMPDIR/port" ]; do sleep 0.1; done
  run "$RPCM" run "${FAST[@]}" --protocol echo --client alpha --server alpha --no-netns --port "$(cat "$BATS_TEST_TMPDIR/port")"
  kill "$holder"
  [ "$status" -eq 1 ]
  [[ "$(record_of 'echo/alpha→alpha' vectors .reason)" == *"Address already in use"* ]]
}

@test "vectors must pass before timing; known failures make failures expected, stale entries unexpected" {
  run "$RPCM" run "${FAST[@]}" --protocol wrong --server alpha --client alpha
  [ "$status" -eq 1 ]
  [ "$(record_of 'wrong/alpha→alpha' vectors .status)" = fail ]
  [[ "$(record_of 'wrong/alpha→alpha' vectors .reason)" == *"bool_true: expected true, got false"* ]]
  [[ "$(record_of 'wrong/alpha→alpha' ping .reason)" == "not timed: the cell's vectors did not all pass"* ]]
  printf '{"failures": [{"cell": "wrong/alpha→alpha", "vector": "bool_true", "reason": "the fake flips it"}]}\n' >"$BATS_TEST_TMPDIR/known.json"
  run "$RPCM" run "${FAST[@]}" --protocol wrong --server alpha --client alpha --known-failures "$BATS_TEST_TMPDIR/known.json" --out "$OUT-2"
  [ "$status" -eq 0 ]
  printf '{"failures": [{"cell": "echo/alpha→alpha", "reason": "thought broken"}]}\n' >"$BATS_TEST_TMPDIR/stale.json"
  run "$RPCM" run "${FAST[@]}" --protocol echo --server alpha --client alpha --known-failures "$BATS_TEST_TMPDIR/stale.json" --out "$OUT-3"
  [ "$status" -eq 1 ]
  [[ "$output" == *"UNEXPECTED pass of a known failure (remove the entry): echo/alpha→alpha"* ]]
}

@test "Ctrl-C: processes and namespace gone, records so far kept, report written" {
  # Background jobs of a script start with SIGINT ignored; give the runner the default a terminal gives.
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
    "$RPCM" run "${FAST[@]}" --protocol echo,hang --client alpha --command-timeout 30 >"$BATS_TEST_TMPDIR/log" 2>&1 &
  local pid=$!
  # wait until the hanging cell is under way, then interrupt as a terminal would
  for _ in $(seq 1 300); do
    grep -q 'hang/alpha→alpha' "$BATS_TEST_TMPDIR/log" && break
    sleep 0.1
  done
  sleep 2
  kill -INT "$pid"
  wait "$pid" || status=$?
  [ "$status" -eq 130 ]
  grep -q 'interrupted: stopping processes, keeping the records written so far' "$BATS_TEST_TMPDIR/log"
  [ "$(record_of 'echo/alpha→alpha' vectors .status)" = pass ]
  [ -s "$OUT/REPORT.md" ]
  no_leftovers
}
