#!/usr/bin/env bats
# The runner against fake implementations (fixtures/fake_impl.py) and a fake registry and profiles
# (fixtures/idl): matrix expansion, gaps as rows, bad input, timeouts, failure classification, the
# measuring sequence, interruption and clean-up. No real protocol involved.
#
# A `! cmd` line is no assertion in a test: bash's errexit ignores a negated command, so only a test's last
# line could fail through it. A check that something is absent is `run -1 grep ...` (grep's "no line",
# not its 2 for a missing file) or a `[ ... ]` test.

bats_require_minimum_version 1.5.0 # run -N

setup() {
  ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  RPCM="$ROOT/runner/rpcmatrix"
  FIX="$ROOT/runner/tests/fixtures/matrix"
  FIDL="$ROOT/runner/tests/fixtures/idl"
  OUT="$BATS_TEST_TMPDIR/run"
  BASE=(--manifests "$FIX" --idl "$FIDL" --profile smoke --ready-timeout 3 --command-timeout 3 --out "$OUT")
  # Most tests read the records and REPORT.md: report.html's charts (seconds each run) and the history
  # database are tested where they are made ("a passing matrix" below, test_html.py, test_history.py).
  FAST=("${BASE[@]}" --no-html)
  export RPCMATRIX_HISTORY=off
}

teardown() {
  # Whatever a test did, nothing of ours may be left running.
  no_leftovers
}

# Fails (with what is left) when a namespace or a cgroup of one of this test's runs is still there; a
# process the runner failed to stop keeps its cgroup from being removed, so it shows too. Only this
# test's runs count (their runner.tag), so other runs on the machine cannot make it fail.
no_leftovers() {
  local left="" tag_file tag log
  for tag_file in "$BATS_TEST_TMPDIR"/*/runner.tag; do
    [ -f "$tag_file" ] || continue
    tag=$(cat "$tag_file")
    left+=$(ip netns list 2>/dev/null | grep "^rpcmatrix-$tag\b" || true)
    left+=$(find /sys/fs/cgroup -maxdepth 2 -name "rpcmatrix-$tag" 2>/dev/null || true)
  done
  # a delay line (--network) writes its counts when it stops, and only then
  for log in "$BATS_TEST_TMPDIR"/*/network/delayline-*.log; do
    if [ -f "$log" ] && ! grep -q '^delayline: queue' "$log"; then left+=" a delay line ($log)"; fi
  done
  if [ -n "$left" ]; then
    printf 'left behind: %s\n' "$left" >&2
    return 1
  fi
}

record_of() { # cell workload field [pass]
  jq -r --arg c "$1" --arg w "$2" --argjson p "${4:-1}" \
    "select(.cell == \$c and .workload == \$w and .pass == \$p) | $3" "$OUT/results.jsonl" | tail -n 1
}

# exit_of CELL [PASS]: the exit status of the server that served CELL, noted once it stopped.
exit_of() {
  awk -F'\t' -v c="$1" -v p="${2:-1}" '$1 == p && $2 == c { s = $3 } END { print s }' "$OUT/server_exits.tsv"
}

# record_holds CELL WORKLOAD JQ-CONDITION: the cell's last record for that workload satisfies it.
record_holds() {
  jq -c --arg c "$1" --arg w "$2" 'select(.cell == $c and .workload == $w)' "$OUT/results.jsonl" | tail -n 1 |
    jq -e "$3" >/dev/null
}

# Waits up to 10 s for a file to have content; fails loudly otherwise.
await_file() {
  local tries=0
  until [ -s "$1" ]; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
      echo "no $1 after 10 s" >&2
      return 1
    fi
    sleep 0.1
  done
}

# interrupted_run CONDITION DESCRIPTION RUN-ARGS...: starts a run in the background with SIGINT as a terminal
# gives it (background jobs of a script start with it ignored), waits (bounded) until the bash CONDITION
# holds, then interrupts it as Ctrl-C would; asserts status 130 and the runner's message. Its log is
# $BATS_TEST_TMPDIR/log.
interrupted_run() {
  local condition="$1" what="$2" pid tries=0 status=0
  shift 2
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
    "$RPCM" run "$@" >"$BATS_TEST_TMPDIR/log" 2>&1 3>&- &
  pid=$!
  until eval "$condition"; do
    tries=$((tries + 1))
    [ "$tries" -le 600 ] || { echo "$what never happened" >&2; kill -KILL "$pid"; return 1; }
    sleep 0.1
  done
  kill -INT "$pid"
  wait "$pid" || status=$?
  [ "$status" -eq 130 ]
  grep -q 'interrupted: stopping processes, keeping the records written so far' "$BATS_TEST_TMPDIR/log"
}

@test "cells: every client implementation × every server implementation, gaps as unsupported rows with a reason" {
  run "$RPCM" cells --manifests "$FIX" --idl "$FIDL"
  [ "$status" -eq 0 ]
  # 18 protocols: echo has 3 clients (alpha, alpha-fast, beta) × 2 servers, the other 17 2 × 2
  [ "$(grep -c $'\t' <<<"$output")" -eq 74 ]
  grep -qx $'gap/beta→alpha\tunsupported: not implemented in beta' <<<"$output"
  grep -qx $'nope/alpha→beta\tunsupported: alpha cannot speak nope: no library' <<<"$output"
  grep -qx $'echo/alpha-fast→beta\truns' <<<"$output"
  [[ "$output" != *'→alpha-fast'* ]] # a client-only implementation is a row, not a column
  grep -qx $'oneway/alpha→beta\tunsupported: beta serves no oneway' <<<"$output"
  grep -qx $'oneway/beta→alpha\truns' <<<"$output"
  grep -qx $'unregistered/alpha→alpha\terror: protocol \'unregistered\' is not in idl/protocols.json' <<<"$output"
}

@test "cells: selection by protocol, implementation, language and cell; a dry run writes nothing" {
  run "$RPCM" cells --manifests "$FIX" --idl "$FIDL" --protocol echo --server beta --client alpha --out "$OUT"
  [ "$status" -eq 0 ]
  [ "$output" = $'echo/alpha→beta\truns\necho/alpha-fast→beta\truns' ]
  run "$RPCM" cells --manifests "$FIX" --idl "$FIDL" --protocol echo --client alpha-fast
  [ "$output" = $'echo/alpha-fast→alpha\truns\necho/alpha-fast→beta\truns' ]
  run "$RPCM" cells --manifests "$FIX" --idl "$FIDL" --cell 'echo/beta→alpha' --cell 'gap/alpha→alpha'
  [ "$output" = $'echo/beta→alpha\truns\ngap/alpha→alpha\truns' ]
  [ ! -e "$OUT" ]
}

@test "opt-in protocols: left out (and said so) unless --protocol names them or the profile takes them" {
  run "$RPCM" cells --manifests "$FIX" --idl "$FIDL"
  [ "$status" -eq 0 ]
  [ "$(grep -c '^echo-opt/' <<<"$output")" -eq 0 ]
  [[ "$output" == *"opt-in protocols left out of profile default (name them with --protocol): echo-opt"* ]]
  run "$RPCM" cells --manifests "$FIX" --idl "$FIDL" --protocol echo-opt
  [ "$status" -eq 0 ]
  [ "$(grep -c $'^echo-opt/alpha→alpha\truns$' <<<"$output")" -eq 1 ]
  grep -qx $'echo-opt/beta→alpha\tunsupported: not implemented in beta' <<<"$output"
  run "$RPCM" cells --manifests "$FIX" --idl "$FIDL" --profile opted
  [ "$status" -eq 0 ]
  grep -qx $'echo-opt/alpha→alpha\truns' <<<"$output"
  [[ "$output" != *"left out"* ]]
  # a run names what it left out, with the registry's reason, in env.json and in the report
  run "$RPCM" run "${FAST[@]}" --profile certify --cell 'echo/alpha→alpha' --cell 'echo-opt/alpha→alpha'
  [ "$status" -eq 0 ]
  jq -e '.run.left_out | length == 1 and .[0].protocol == "echo-opt" and (.[0].reason | length > 0)' "$OUT/env.json" >/dev/null
  # shellcheck disable=SC2016 # the backticks are Markdown's, not a command substitution
  grep -q 'Left out: `echo-opt`' "$OUT/REPORT.md" "$OUT"/report/*.md
  [ ! -e "$OUT/report.html" ] # --no-html
  run -1 grep -q '"echo-opt/' "$OUT/results.jsonl"
}

@test "unknown names and options: a clear message naming the known ones, and nothing runs or builds" {
  run "$RPCM" run --manifests "$FIX" --idl "$FIDL" --protocol nosuch --out "$OUT"
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown protocol 'nosuch'; known: "*"echo"*"unregistered"* ]]
  [[ "$output" == *"no cell matches the selection"* ]]
  run "$RPCM" run --manifests "$FIX" --idl "$FIDL" --profile nosuch --out "$OUT"
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown profile 'nosuch'; known: smoke, timed, capped, certify"* ]]
  [[ "$output" != *"building"* ]]
  [ ! -e "$OUT" ]
  run "$RPCM" frobnicate
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown command 'frobnicate'"* ]]
  run "$RPCM" run --manifests "$FIX" --bogus
  [ "$status" -eq 2 ]
  [[ "$output" == *"unknown option '--bogus'"* ]]
  run "$RPCM" run --manifests "$FIX" --passes 0
  [ "$status" -eq 2 ]
  [[ "$output" == *"--passes takes a whole number of 1 or more"* ]]
}

@test "--inject-server-spin: only the named language's servers get the spin; the run says so; bad values refused" {
  run "$RPCM" run "${FAST[@]}" --protocol echo --inject-server-spin beta=7
  [ "$status" -eq 0 ]
  record_holds 'echo/alpha→beta' ping '.facts.server.spin_us == "7"'
  record_holds 'echo/beta→alpha' ping '.facts.server | has("spin_us") | not'
  jq -e '.run.injected_server_spin_us == {"beta": 7}' "$OUT/env.json" >/dev/null
  grep -q "injected" "$OUT/REPORT.md"
  run "$RPCM" run "${FAST[@]}" --protocol echo --inject-server-spin gamma=7
  [ "$status" -eq 2 ]
  [[ "$output" == *"--inject-server-spin: unknown language 'gamma'; known: alpha, beta"* ]]
  run "$RPCM" run "${FAST[@]}" --protocol echo --inject-server-spin beta=fast
  [ "$status" -eq 2 ]
  [[ "$output" == *"--inject-server-spin takes LANGUAGE=MICROSECONDS"* ]]
}

@test "commands: the exact argv of a cell, placeholders filled (protocol included)" {
  run "$RPCM" commands 'echo/alpha→beta' --manifests "$FIX" --idl "$FIDL"
  [ "$status" -eq 0 ]
  [[ "$output" == *"'$ROOT/.venv/bin/python' '$ROOT/runner/tests/fixtures/fake_impl.py' 'server' '--protocol' 'echo' '--host' '127.0.0.1' '--port' '0'"* ]]
  [[ "$output" == *"'client' '--protocol' 'echo' '--host' '127.0.0.1' '--port' 'N' '--idl' '$FIDL'"* ]]
}

@test "a passing matrix: records with the documented fields, CSV columns, JUnit, report, exit 0" {
  run "$RPCM" run "${BASE[@]}" --protocol echo,gap
  [ "$status" -eq 0 ]
  [ -s "$OUT/report.html" ] # the HTML report beside REPORT.md, by default
  # 10 cells × (vectors + 4 workloads); gap lacks the stream workload: 4 cells × (vectors + 3)
  [ "$(jq -s '[.[] | select(.protocol == "echo" or .protocol == "gap")] | unique_by([.cell, .workload, .pass]) | length' "$OUT/results.jsonl")" -eq 46 ]
  # each record written once, in its final form (the floor's and the handlers' too)
  [ "$(jq -s 'length == (unique_by([.cell, .workload, .pass]) | length)' "$OUT/results.jsonl")" = true ]
  [ "$(record_of 'echo/alpha→beta' vectors .status)" = pass ]
  [ "$(record_of 'gap/beta→alpha' ping .status)" = unsupported ]
  [ "$(record_of 'gap/beta→alpha' ping .reason)" = "not implemented in beta" ]
  [ "$(record_of 'gap/alpha→alpha' stream .status)" = "" ] # not planned: gap lacks server streaming
  jq -e '.stream == "gap answers once per call"' "$OUT/plan/gap.unsupported.json" >/dev/null
  for field in run_id pass protocol server client server_language client_language workload status reason calls rtt_us \
    instantiation_us cpu_us_per_call rss_kb threads wire_per_call; do
    jq -se --arg f "$field" 'map(select(.workload == "ping" and .status == "pass")) | length > 0 and all(has($f))' \
      "$OUT/results.jsonl" >/dev/null || { echo "a passing ping record without $field" >&2; return 1; }
  done
  record_holds 'echo/alpha→beta' ping '.rtt_us.p50 > 0 and .rtt_us.p99 >= .rtt_us.p50 and .calls == 6
    and .rss_kb.server_peak > 0 and .threads.server >= 1 and .facts.server.fake == "echo" and (has("env") | not)'
  # the environment is stored once per run and each cell's sides once per cell; the report joins them
  jq -e '.versions.beta.fake == "2.0"' "$OUT/env.json" >/dev/null
  jq -se 'map(select(.name == "echo/alpha→beta")) | .[0].server_thread_model == "a thread per connection"' \
    "$OUT/cells.jsonl" >/dev/null
  if jq -e '.run.setup.cgroup.kind == "v2"' "$OUT/env.json" >/dev/null; then
    grep -q '| CPU time | usage of a cgroup (v2) per side' "$OUT/report/run.md"
    # the echo server does work for every call: its CPU is measured, per repetition
    record_holds 'echo/alpha→beta' ping '.cpu_us_per_call.server > 0 and .cpu_us_per_call.client > 0
      and (.cpu_us_per_call.per_repetition | length) == 2'
  fi
  record_holds 'echo/alpha-fast→beta' ping '.client == "alpha-fast" and .client_language == "alpha"'
  local n
  # the fake client passes every vector it is given: the profile (smoke) gives it all but the large ones,
  # through the run's own view of the contract ({idl}), and the report says which it left out
  n=$(jq '[.vectors[] | select(.size != "large")] | length' "$ROOT/idl/vectors.json")
  [ "$n" -lt "$(jq '.vectors | length' "$ROOT/idl/vectors.json")" ]
  grep -qF "| **alpha** | ✅ $n/$n pass | ✅ $n/$n pass |" "$OUT/REPORT.md" "$OUT"/report/*.md
  record_holds 'echo/alpha→beta' vectors '[.vectors[].id] | index("string_1mib") == null and index("string_ascii") != null'
  [ -L "$OUT/idl/contract.json" ]
  grep -q 'Vectors left out.*string_1mib' "$OUT/report/run.md"
  grep -q 'left out the 6 large vectors' "$OUT/REPORT.md"
  grep -q 'testcase classname="echo/alpha→beta" name="vector int64_max"' "$OUT/junit.xml"
  local header
  header=$(head -n 1 "$OUT/results.csv")
  for column in run_id pass protocol server client cell workload status calls rtt_us.p50 rtt_us.stdev \
    cpu_us_per_call.client rss_kb.client_after rss_kb.server_after wire_per_call.connections threads.server; do
    grep -q "\(^\|,\)$column\(,\|$\)" <<<"$header" || { echo "no CSV column $column" >&2; return 1; }
  done
  [ -s "$OUT/samples.jsonl.gz" ]
}

@test "the measuring sequence: the whole cell warmed until steady, then prepare, warm-up and repetitions per workload" {
  run "$RPCM" run "${FAST[@]}" --cell 'echo/alpha→alpha'
  [ "$status" -eq 0 ]
  local log="$OUT/cells/echo__alpha-to-alpha/pass1/client.log" first_fixed last_steady
  # the warm phase's full round (each workload until steady, bounded for processes without a JIT by the
  # profile's phase_max_ms: 200), then the cell's own re-warm once pinned (batches of the least calls, bounded by
  # rewarm_ms: 250 when not given, or max_ms when that is less: 300), each
  # workload followed by one untimed repetition of it (prepare, measure, samples: the timing loop compiled
  # too), all before the first workload's fixed warm-up
  first_fixed=$(grep -n '"cmd": "warmup"' "$log" | grep -v until_steady | head -n 1 | cut -d: -f1)
  last_steady=$(grep -n 'until_steady' "$log" | tail -n 1 | cut -d: -f1)
  [ "$(grep -c 'until_steady' "$log")" -eq 8 ] # every workload of the plan, twice
  [ "$(grep 'until_steady' "$log" | head -n 4 | grep -cE '"max_ms": ?200}')" -eq 4 ]
  [ "$(grep 'until_steady' "$log" | tail -n 4 | grep -cE '"max_ms": ?250}')" -eq 4 ]
  jq -e '.steady == {"tolerance": 0.5, "max_ms": 300, "phase_max_ms": 200, "rewarm_ms": 250}' "$OUT/plan/profile.json" >/dev/null
  [ "$last_steady" -lt "$first_fixed" ]
  sed -n "1,${first_fixed}p" "$log" | grep -v '^tcp_early_retrans' | grep -A 3 '"workload": "echoInt32".*until_steady' |
    sed -n 2,4p | jq -r .cmd | paste -sd' ' |
    grep -qx 'prepare measure samples'
  # per workload: prepare, then the fixed warm-up, then one measure per repetition, then samples
  # (the lines the fake client logs besides the commands left out)
  sed -n "${first_fixed},\$p" "$log" | grep -v '^tcp_early_retrans' | grep -A 5 '"cmd": "prepare", "workload": "echoInt32"' |
    sed -n 2,5p | jq -r .cmd | paste -sd' ' | grep -qx 'warmup measure measure samples'
  record_holds 'echo/alpha→alpha' ping '.warmup_steady.batches >= 1 and (.warmup_steady.steady | type) == "boolean"'
}

@test "a JIT runtime's process warms until its compiler threads go quiet, in a warm phase before its cells" {
  # alpha-fast declares its JIT's threads (FakeJIT: 1 s of CPU once warm-up calls begin); plain alpha has none
  run "$RPCM" run "${FAST[@]}" --cell 'echo/alpha-fast→alpha' --cell 'echo/alpha→alpha' --seed 4
  [ "$status" -eq 0 ]
  local fast="$OUT/cells/echo__alpha-fast-to-alpha/pass1" plain="$OUT/cells/echo__alpha-to-alpha/pass1"
  # the pass (seed 4) times the plain cell first, but the phase started the cell with a JIT first: its connect
  # and vectors came before the other's, which waited for the server they share
  [ "$(jq -r '.cell // empty' "$OUT/progress.jsonl" | head -n 1)" = 'echo/alpha→alpha' ]
  [ "$fast/connect.json" -ot "$plain/connect.json" ]
  # the warm phase made rounds over the 4 workloads until the fake JIT had spent its 1 s and a window (0.5 s) of
  # calls went by quiet, each workload of its first bounded by the profile's max_ms (300), of the later ones by
  # phase_max_ms (200); a cell without a JIT made one there, bounded by phase_max_ms
  [ "$(wc -l <"$fast/warm-phase.jsonl")" -gt 4 ]
  [ "$(wc -l <"$plain/warm-phase.jsonl")" -eq 4 ]
  [ "$(grep 'until_steady' "$fast/client.log" | head -n 4 | grep -cE '"max_ms": ?300}')" -eq 4 ]
  [ "$(grep 'until_steady' "$fast/client.log" | sed -n 5,8p | grep -cE '"max_ms": ?200}')" -eq 4 ]
  [ "$(grep 'until_steady' "$plain/client.log" | head -n 4 | grep -cE '"max_ms": ?200}')" -eq 4 ]
  record_holds 'echo/alpha-fast→alpha' ping '.warm_phase.client.jit and .warm_phase.client.ended == "quiet"
    and .warm_phase.client.warm_s >= 1 and .warm_phase.client.share < 0.05 and .warm_phase.client.window_ms >= 500
    and (.warm_phase.server.jit | not)'
  # each cell then warmed once on its own (one pass over the workloads) before it was timed; the JIT's CPU over
  # the timed repetitions is in the record
  [ "$(wc -l <"$fast/warmup.jsonl")" -eq 4 ]
  [ "$(wc -l <"$plain/warmup.jsonl")" -eq 4 ]
  record_holds 'echo/alpha-fast→alpha' ping '.jit_cpu.client_ms >= 0 and (.jit_cpu | has("server_ms") | not)'
  record_holds 'echo/alpha→alpha' ping '(has("jit_cpu") | not) and (.warm_phase.client.jit | not)'
  jq -e '.client_jit_threads == "^FakeJIT$" and .client_warmup_max_s == 20' "$OUT/cells/echo__alpha-fast-to-alpha/cell.json" >/dev/null
  # a profile with "implementation_warmup": false (only proving the paths) waits for no JIT: one full pass in
  # the warm phase, one re-warm in the cell
  run "$RPCM" run "${FAST[@]}" --profile timed --cell 'echo/alpha-fast→alpha' --out "$OUT-timed"
  [ "$status" -eq 0 ]
  [ "$(grep -c 'until_steady' "$OUT-timed/cells/echo__alpha-fast-to-alpha/pass1/client.log")" -eq 2 ]
  # a JIT that never goes quiet stops the warm-up at its bound (warmup_max_s), and the report says so
  cp -r "$FIX" "$BATS_TEST_TMPDIR/busy-jit"
  jq '(.implementations[] | select(.name == "fast")) |= (.client[-1] = "60" | .warmup_max_s = 3)' "$FIX/alpha/manifest.json" \
    >"$BATS_TEST_TMPDIR/busy-jit/alpha/manifest.json"
  run "$RPCM" run "${FAST[@]}" --manifests "$BATS_TEST_TMPDIR/busy-jit" --cell 'echo/alpha-fast→alpha' --out "$OUT-busy"
  [ "$status" -eq 0 ]
  # (its share over the last window: not under the quiet share, or it would have ended quiet)
  OUT="$OUT-busy" record_holds 'echo/alpha-fast→alpha' ping '.warm_phase.client.ended == "bound"
    and .warm_phase.client.share >= 0.05 and .warm_phase.client.warm_s >= 3 and .warm_phase.client.warm_s < 20
    and .jit_cpu.client_share > 0.5'
  grep -q 'JIT still compiling' "$OUT-busy/report/echo.md"
}

@test "processes are kept across the cells of a pass: one per server and per client implementation, warmed together first" {
  run "$RPCM" run "${FAST[@]}" --protocol echo
  [ "$status" -eq 0 ]
  [ "$(find "$OUT/processes/pass1" -maxdepth 1 -name '*-server-*' | wc -l)" -eq 2 ]
  [ "$(find "$OUT/processes/pass1" -maxdepth 1 -name '*-client-*' | wc -l)" -eq 3 ]
  [ "$(jq -sr '[.[] | select(.workload == "vectors")] | unique_by(.cell) | map(.processes.client) | sort | join(",")' "$OUT/results.jsonl")" = "kept,kept,kept,new,new,new" ]
  [ "$(jq -sr '[.[] | select(.workload == "vectors")] | unique_by(.cell) | map(.processes.server) | sort | join(",")' "$OUT/results.jsonl")" = "kept,kept,kept,kept,new,new" ]
  # the warm phase crossed every client with every server (connect and vectors) before any cell was timed (the
  # first fixed warm-up of a timed workload)
  local log
  for log in "$OUT"/processes/pass1/*-client-*/client.log; do
    [ "$(grep -c '"cmd": "vectors"' "$log")" -eq 2 ]
    [ "$(grep -n '"cmd": "vectors"' "$log" | tail -n 1 | cut -d: -f1)" -lt \
      "$(grep -n '"cmd": "warmup"' "$log" | grep -v until_steady | head -n 1 | cut -d: -f1)" ]
  done
  # the client with a JIT warmed there until quiet, then each of its cells warmed one pass (4 workloads) of its own
  for d in "$OUT"/cells/echo__alpha-fast-to-*/pass1; do [ "$(wc -l <"$d/warmup.jsonl")" -eq 4 ]; done
  [ "$(cat "$OUT"/cells/echo__alpha-fast-to-*/pass1/warm-phase.jsonl | wc -l)" -gt 4 ]
  # a cell's folder links to the logs of the processes it used
  [ -L "$OUT/cells/echo__beta-to-alpha/pass1/client.log" ]
  [ -s "$OUT/cells/echo__beta-to-alpha/pass1/client.log" ]
  grep -q '"cmd": "connect", "host"' "$OUT/cells/echo__beta-to-alpha/pass1/client.log"
  # --fresh-processes: a new pair for every cell, each warmed in its cell (no warm phase)
  run "$RPCM" run "${FAST[@]}" --protocol echo --fresh-processes --out "$OUT-fresh"
  [ "$status" -eq 0 ]
  [ "$(find "$OUT-fresh/processes/pass1" -maxdepth 1 -name '*-server-*' | wc -l)" -eq 6 ]
  [ "$(jq -sr '[.[] | select(.workload == "vectors")] | unique_by(.cell) | map(.processes.client, .processes.server) | unique | join(",")' "$OUT-fresh/results.jsonl")" = "new" ]
  [ -z "$(find "$OUT-fresh/cells" -name warm-phase.jsonl)" ]
  for d in "$OUT-fresh"/cells/echo__alpha-fast-to-*/pass1; do [ "$(wc -l <"$d/warmup.jsonl")" -gt 4 ]; done
}

@test "a workload's fixed warm-up is bounded in time by warmup_max_ms, at the median of its last warm-up batch" {
  run "$RPCM" run "${FAST[@]}" --profile capped --cell 'echo/alpha→alpha'
  [ "$status" -eq 0 ]
  local log="$OUT/cells/echo__alpha-to-alpha/pass1/client.log" median fixed
  # the re-warm's last batch median (ns), and the fixed warm-up it allowed: 2 ms of such calls, not 2,000
  median=$(jq -r 'select(.rewarm and .workload == "ping") | .answer.batch_medians_ns[-1]' \
    "$OUT/cells/echo__alpha-to-alpha/pass1/warmup.jsonl" | tail -n 1)
  fixed=$(grep '"cmd": "warmup"' "$log" | grep -v until_steady | tail -n 1 | jq -r .calls)
  echo "median $median ns, fixed warm-up $fixed calls" >&2
  [ "$fixed" -eq "$((2000000 / median > 3 ? 2000000 / median : 3))" ]
  [ "$fixed" -lt 2000 ]
  record_holds 'echo/alpha→alpha' ping ".warmup == $fixed"
  # without the bound, the plan's count
  run "$RPCM" run "${FAST[@]}" --profile timed --cell 'echo/alpha→alpha' --out "$OUT-plain"
  [ "$status" -eq 0 ]
  OUT="$OUT-plain" record_holds 'echo/alpha→alpha' ping '.warmup == 2'
}

@test "a repetition lasts at least min_ms, however few calls it needs" {
  run "$RPCM" run "${FAST[@]}" --profile timed --cell 'echo/alpha→alpha'
  [ "$status" -eq 0 ]
  # each repetition ran for 40 ms or more: the sum of its call times is at least most of that
  record_holds 'echo/alpha→alpha' ping '.calls > 6 and (.rtt_us.mean * .calls) >= 2 * 30000'
}

@test "passes: each cell once per pass, in a seeded order; records keep their pass" {
  run "$RPCM" run "${FAST[@]}" --protocol echo --server alpha --passes 2 --seed 7
  [ "$status" -eq 0 ]
  [ "$(record_of 'echo/beta→alpha' ping .status 1)" = pass ]
  [ "$(record_of 'echo/beta→alpha' ping .status 2)" = pass ]
  jq -e '.passes == 2 and .seed == 7' "$OUT/plan/profile.json" >/dev/null
  local order1 order2
  order1=$(grep -o '\[[0-9]*/6\] [^ ]*' <<<"$output" | head -n 3 | cut -d' ' -f2 | paste -sd' ')
  run "$RPCM" run "${FAST[@]}" --protocol echo --server alpha --passes 2 --seed 7 --out "$OUT-again"
  order2=$(grep -o '\[[0-9]*/6\] [^ ]*' <<<"$output" | head -n 3 | cut -d' ' -f2 | paste -sd' ')
  [ "$order1" = "$order2" ]
}

@test "the machine's floor (at each pass's start and before each server group, in the cells' cgroups and cpusets) and the languages' handlers are measured in the run" {
  [ -x "$ROOT/runner/floor/bin/floor" ] || skip "runner/floor/bin/floor not built (runner/setup.sh builds it)"
  run "$RPCM" run "${FAST[@]}" --cell 'echo/alpha→beta'
  [ "$status" -eq 0 ]
  record_holds 'floor/c→c' ping '.status == "pass" and .rtt_us.p50 > 0'
  record_holds 'handler/beta' ping '.status == "pass" and .rtt_us.p50 >= 0'
  record_holds 'echo/alpha→beta' ping '.calibration_ns > 0'
  # the floor again before the server group, which the group's timed records carry
  record_holds 'echo/alpha→beta' ping '.floor_us.p50 > 0 and .floor_us.min <= .floor_us.p50
    and .floor_us.folder == "floor/pass1/before-echo__alpha-to-beta"'
  record_holds 'echo/alpha→beta' vectors '.floor_us == null'
  grep -qP "\tadjacent_floor\t" "$OUT/floor/pass1/before-echo__alpha-to-beta/facts.tsv"
  [ "$(jq -s 'map(select(.cell == "floor/c→c")) | length' "$OUT/results.jsonl")" -eq 1 ]
  # the floor's client and server run in the client's and the server's cgroup and cpuset, as a cell's do (each
  # side's /proc/<pid>/cgroup beside the floor's samples)
  local tag floor="$OUT/floor/pass1" checked=0
  tag=$(<"$OUT/runner.tag")
  [ -s "$floor/client.cgroup" ] && [ -s "$floor/server.cgroup" ]
  # the cpuset cgroups, where the run pinned with them; a cgroup of each side, where CPU time came from one
  if jq -e '.run.setup.pinning.mode == "cpuset"' "$OUT/env.json" >/dev/null; then
    for role in client server; do grep -q ":cpuset:/rpcmatrix-$tag/$role$" "$floor/$role.cgroup"; done
    checked=1
  fi
  if jq -e '.run.setup.cgroup.kind == "v2"' "$OUT/env.json" >/dev/null; then
    for role in client server; do grep -q "^0::/rpcmatrix-$tag/$role$" "$floor/$role.cgroup"; done
    checked=1
  fi
  ((checked)) || skip "neither cgroups nor cpusets here"
}

@test "bytes on the wire are counted in their own pass on a veth pair when namespaces can be made" {
  [ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
  run "$RPCM" run "${FAST[@]}" --protocol echo --client alpha --server beta
  [ "$status" -eq 0 ]
  # the fake protocol sends the workload name and a newline each way: at least that many bytes per call
  record_holds 'echo/alpha→beta' ping '.wire_per_call.bytes_c2s >= 5 and .wire_per_call.packets_c2s >= 1
    and .wire_per_call.counted_calls == 3 and .wire_per_call.connections == 0'
  # with nftables, exactly those 5 bytes ("ping\n") in one segment each way, the bare ACKs apart
  if command -v nft >/dev/null; then
    record_holds 'echo/alpha→beta' ping '.wire_per_call | .payload_c2s == 5 and .payload_s2c == 5
      and .data_segments_c2s == 1 and .data_segments_s2c == 1 and .empty_segments_c2s >= 0'
    jq -e '.run.setup.network.segments == "nftables"' "$OUT/env.json" >/dev/null
    grep -q 'bare ACKs apart' "$OUT/report/run.md"
  fi
  # the segments each side resent, counted over the same calls: none on this quiet pair
  record_holds 'echo/alpha→beta' ping '.wire_per_call | .retransmitted_c2s == 0 and .retransmitted_s2c == 0'
  # TCP's tail loss probes off while counting (the fake client logs its namespace's setting at each measure),
  # at the namespace's default while warming (one untimed repetition in the warm phase's round, one in the
  # cell's re-warm) and timing (two)
  local log="$OUT/cells/echo__alpha-to-beta/pass1/client.log"
  [ "$(grep -A1 '"cmd": "measure", "workload": "ping", "calls": 1,' "$log" | grep -c '^tcp_early_retrans 0$')" -eq 1 ]
  [ "$(grep -A1 '"cmd": "measure", "workload": "ping", "calls": 3,' "$log" | grep -c '^tcp_early_retrans [1-9]$')" -eq 4 ]
  jq -e '.run.setup.network.early_retrans > 0' "$OUT/env.json" >/dev/null
  grep -q 'tail loss probes off while counting' "$OUT/report/run.md"
  # and the sockets in TIME_WAIT on each side after the timed calls
  record_holds 'echo/alpha→beta' ping '(.time_wait.client | type) == "number" and (.time_wait.server | type) == "number"'
  [ -s "$OUT/cells/echo__alpha-to-beta/pass1/wire/ping.before" ] && [ -s "$OUT/cells/echo__alpha-to-beta/pass1/wire/ping.after" ]
  # the counting pass lasts count_ms, from one call (no time) to count_calls (time to spare)
  jq '.profiles.smoke.count_ms = 0 | .profiles.smoke.count_calls = 7' "$FIDL/workloads.json" >"$BATS_TEST_TMPDIR/workloads.json"
  cp "$FIDL/protocols.json" "$FIDL/contract.json" "$FIDL/vectors.json" "$BATS_TEST_TMPDIR/"
  run "$RPCM" run "${FAST[@]}" --idl "$BATS_TEST_TMPDIR" --cell 'echo/alpha→beta' --out "$OUT-instant"
  [ "$status" -eq 0 ]
  OUT="$OUT-instant" record_holds 'echo/alpha→beta' ping '.wire_per_call.counted_calls == 1'
  jq '.profiles.smoke.count_ms = 60000 | .profiles.smoke.count_calls = 7' "$FIDL/workloads.json" >"$BATS_TEST_TMPDIR/workloads.json"
  run "$RPCM" run "${FAST[@]}" --idl "$BATS_TEST_TMPDIR" --cell 'echo/alpha→beta' --out "$OUT-bounded"
  [ "$status" -eq 0 ]
  OUT="$OUT-bounded" record_holds 'echo/alpha→beta' ping '.wire_per_call.counted_calls == 7'
  jq -e '.run.setup.network | .netns and .client_tcp_tw_reuse == 1' "$OUT/env.json" >/dev/null
  grep -q '| Bytes on the wire | server in network namespace .*(tcp_tw_reuse=1)' "$OUT/report/run.md"
}

@test "without namespaces the run works and says bytes were not measured" {
  run "$RPCM" run "${FAST[@]}" --protocol echo --client alpha --server beta --no-netns
  [ "$status" -eq 0 ]
  [ "$(record_of 'echo/alpha→beta' ping .wire_per_call)" = null ]
  grep -q 'not measured: --no-netns' "$OUT/REPORT.md" "$OUT"/report/*.md
}

@test "pinning: server and client on CPUs of their own, or said why not; --no-pin turns it off" {
  run "$RPCM" run "${FAST[@]}" --cell 'echo/alpha→beta' --no-pin
  [ "$status" -eq 0 ]
  jq -e '.run.setup.pinning | .mode == null and .reason == "--no-pin"' "$OUT/env.json" >/dev/null
  grep -q '| CPU pinning | not pinned: --no-pin |' "$OUT/report/run.md"
  [ "$(nproc)" -ge 2 ] || skip "pinning needs two CPUs"
  run "$RPCM" run "${FAST[@]}" --cell 'echo/alpha→beta' --out "$OUT-pinned"
  [ "$status" -eq 0 ]
  jq -e '.run.setup.pinning | (.mode == "cpuset" or .mode == "taskset") and .server_cpu > .client_cpu' "$OUT-pinned/env.json" >/dev/null
}

@test "a server that never gets ready, one that crashes, one with a bad ready line, a client that cannot start: marked, and the run goes on" {
  run "$RPCM" run "${FAST[@]}" --protocol neverready,crash,badready,nostart,echo --client alpha --server alpha
  [ "$status" -eq 1 ]
  [[ "$(record_of 'neverready/alpha→alpha' vectors .reason)" == "server not ready after 3s"* ]]
  [ "$(record_of 'neverready/alpha→alpha' getItems10 .status)" = error ]
  [[ "$(record_of 'crash/alpha→alpha' vectors .reason)" == "server exited before it was ready: fake server: crashing on purpose"* ]]
  [[ "$(record_of 'badready/alpha→alpha' vectors .reason)" == "server printed 'listening, probably' instead of a ready line"* ]]
  [ "$(record_of 'nostart/alpha→alpha' vectors .status)" = error ]
  [[ "$(record_of 'nostart/alpha→alpha' vectors .reason)" == "connect: client exited"* ]]
  [ "$(record_of 'echo/alpha→alpha' vectors .status)" = pass ]
  [[ "$output" == *"UNEXPECTED error: neverready/alpha→alpha vectors"* ]]
}

@test "a failing build marks that language's cells with the build's last lines; the others run" {
  run "$RPCM" run --manifests "$ROOT/runner/tests/fixtures/broken-build" --idl "$FIDL" --profile smoke \
    --command-timeout 3 --out "$OUT" --protocol echo
  [ "$status" -eq 1 ]
  [[ "$(record_of 'echo/gamma→alpha' vectors .reason)" == "build of gamma failed: gamma: compiler exploded"* ]]
  [ "$(record_of 'echo/alpha→gamma' ping .status)" = error ]
  [ "$(record_of 'echo/alpha→alpha' ping .status)" = pass ]
  # build alone: the failure's last lines and status 1; a selection that needs only the good build passes
  run "$RPCM" build --manifests "$ROOT/runner/tests/fixtures/broken-build" --idl "$FIDL" --profile smoke --protocol echo
  [ "$status" -eq 1 ]
  [[ "$output" == *"gamma: compiler exploded"* && "$output" == *"a build failed"* ]]
  run "$RPCM" build --manifests "$ROOT/runner/tests/fixtures/broken-build" --idl "$FIDL" --profile smoke --cell 'echo/alpha→alpha'
  [ "$status" -eq 0 ]
}

@test "{cell} is a folder the cell's server and client share; published metadata is checked where the registry names it" {
  run "$RPCM" run "${FAST[@]}" --protocol published,echo --cell 'published/alpha→alpha,echo/alpha→alpha'
  [ "$status" -eq 0 ]
  [ "$(record_of 'published/alpha→alpha' vectors .status)" = pass ] # the client found the server through {cell}
  # each server has a {cell} of its own and each client's points to the server of its cell, though a protocol's
  # servers live at once: every client reached the port its cell's server left there
  run "$RPCM" run "${FAST[@]}" --protocol published --out "$OUT-both"
  [ "$status" -eq 0 ]
  local cell port
  for cell in "$OUT-both"/cells/published__*/pass1; do
    port=$(jq -r .port "$cell/server.out")
    [ "$(jq -r .facts.port "$cell/connect.json")" = "$port" ]
  done
  [ "$(jq -sr '[.[] | select(.workload == "vectors") | .facts.client.port] | unique | length' "$OUT-both/results.jsonl")" -eq 2 ]
  [ "$(record_of 'published/alpha→alpha' vectors .metadata.consumable)" = true ]
  [ "$(record_of 'echo/alpha→alpha' vectors .metadata)" = null ] # echo's registry entry names no metadata
  grep -q '"cmd": "metadata"' "$OUT/cells/"published*/pass1/client.log
  run -1 grep -q '"cmd": "metadata"' "$OUT/cells/"echo*/pass1/client.log
  grep -q '### Published metadata' "$OUT/REPORT.md" "$OUT"/report/*.md
}

@test "an unregistered protocol and an unsupported role are rows with their reasons" {
  run "$RPCM" run "${FAST[@]}" --protocol unregistered,oneway
  [ "$status" -eq 1 ]
  [ "$(record_of 'unregistered/alpha→alpha' vectors .status)" = error ]
  [ "$(record_of 'unregistered/alpha→alpha' vectors .reason)" = "protocol 'unregistered' is not in idl/protocols.json" ]
  [ "$(record_of 'oneway/alpha→beta' ping .status)" = unsupported ]
  [ "$(record_of 'oneway/alpha→beta' ping .reason)" = "beta serves no oneway" ]
  [ "$(record_of 'oneway/beta→alpha' ping .status)" = pass ]
}

@test "a client that hangs times out; a server that ignores SIGTERM is killed; the run ends by itself" {
  SECONDS=0
  run "$RPCM" run "${FAST[@]}" --protocol hang --server alpha
  [ "$status" -eq 1 ]
  [ "$SECONDS" -lt 60 ]
  [ "$(record_of 'hang/alpha→alpha' vectors .status)" = pass ]
  [ "$(record_of 'hang/alpha→alpha' ping .status)" = timeout ]
  # its first measure is the untimed repetition of its warm-up
  [ "$(record_of 'hang/alpha→alpha' ping .reason)" = "warm-up: client did not answer within 3s" ]
  [ "$(record_of 'hang/alpha→alpha' getItems10 .status)" = timeout ]
  [ "$(exit_of 'hang/alpha→alpha')" = 137 ]
  # shellcheck disable=SC2016 # the backticks are Markdown's, not a command substitution
  grep -qF '`hang/alpha→alpha`: the server exited with status 137 after SIGTERM (137: it had to be killed)' "$OUT/REPORT.md" "$OUT"/report/*.md
}

@test "a client that dies mid-cell: the rest of its cell is an error, the next cell runs" {
  run "$RPCM" run "${FAST[@]}" --protocol dies,echo --server alpha --client alpha
  [ "$status" -eq 1 ]
  [ "$(record_of 'dies/alpha→alpha' vectors .status)" = pass ]
  [ "$(record_of 'dies/alpha→alpha' ping .status)" = error ]
  [[ "$(record_of 'dies/alpha→alpha' ping .reason)" == "warm-up: client exited"* ]]
  [ "$(record_of 'dies/alpha→alpha' getItems10 .status)" = error ]
  [ "$(record_of 'echo/alpha→alpha' getItems10 .status)" = pass ]
}

@test "one workload failing while the others pass; a samples count that does not match its calls" {
  run "$RPCM" run "${FAST[@]}" --protocol partial,short --server alpha --client alpha
  [ "$status" -eq 1 ]
  [ "$(record_of 'partial/alpha→alpha' echoInt32 .status)" = fail ]
  [ "$(record_of 'partial/alpha→alpha' echoInt32 .reason)" = "echoInt32: answer differs at [0]" ]
  [ "$(record_of 'partial/alpha→alpha' ping .status)" = pass ]
  [ "$(record_of 'partial/alpha→alpha' getItems10 .status)" = pass ]
  [ "$(record_of 'short/alpha→alpha' ping .status)" = error ]
  [[ "$(record_of 'short/alpha→alpha' ping .reason)" == "client returned [2, 3] samples per repetition"* ]]
}

@test "a server's non-zero exit status after SIGTERM goes into the cell's record" {
  run "$RPCM" run "${FAST[@]}" --protocol exitcode --server alpha --client alpha
  [ "$(exit_of 'exitcode/alpha→alpha')" = 3 ]
  # shellcheck disable=SC2016 # the backticks are Markdown's, not a command substitution
  grep -qF '`exitcode/alpha→alpha`: the server exited with status 3 after SIGTERM' "$OUT/REPORT.md" "$OUT"/report/*.md
}

@test "a client that hangs while warming the cell: its workloads time out and the run goes on" {
  run "$RPCM" run "${FAST[@]}" --protocol stall,echo --server alpha --client alpha
  [ "$status" -eq 1 ]
  [ "$(record_of 'stall/alpha→alpha' vectors .status)" = pass ]
  [ "$(record_of 'stall/alpha→alpha' ping .reason)" = "warm-up: client did not answer within 3s" ]
  [ "$(record_of 'stall/alpha→alpha' getItems10 .status)" = timeout ]
  [ "$(record_of 'echo/alpha→alpha' getItems10 .status)" = pass ]
}

@test "a busy port: the server's own error becomes the cell's reason" {
  python3 -c 'import socket,sys,time; s=socket.create_server(("127.0.0.1",0)); print(s.getsockname()[1], flush=True); time.sleep(60)' >"$BATS_TEST_TMPDIR/port" 3>&- &
  local holder=$!
  await_file "$BATS_TEST_TMPDIR/port"
  run "$RPCM" run "${FAST[@]}" --protocol echo --client alpha --server alpha --no-netns --port "$(cat "$BATS_TEST_TMPDIR/port")"
  kill "$holder"
  [ "$status" -eq 1 ]
  [[ "$(record_of 'echo/alpha→alpha' vectors .reason)" == *"Address already in use"* ]]
}

@test "vectors must pass before timing, unless they failed as known; known failures are expected, stale entries unexpected" {
  run "$RPCM" run "${FAST[@]}" --protocol wrong --server alpha --client alpha
  [ "$status" -eq 1 ]
  [ "$(record_of 'wrong/alpha→alpha' vectors .status)" = fail ]
  [[ "$(record_of 'wrong/alpha→alpha' vectors .reason)" == *"bool_true: expected true, got false"* ]]
  [[ "$(record_of 'wrong/alpha→alpha' ping .reason)" == "not timed: the cell's vectors did not all pass"* ]]
  printf '{"failures": [{"cell": "wrong/alpha→alpha", "vector": "bool_true", "reason": "the fake flips it"}]}\n' >"$BATS_TEST_TMPDIR/known.json"
  run "$RPCM" run "${FAST[@]}" --protocol wrong --server alpha --client alpha --known-failures "$BATS_TEST_TMPDIR/known.json" --out "$OUT-2"
  [ "$status" -eq 0 ]
  # a cell whose only failing vectors are known failures is still timed (the report lists the failure)
  OUT="$OUT-2" record_holds 'wrong/alpha→alpha' ping '.status == "pass" and .rtt_us.p50 > 0'
  printf '{"failures": [{"cell": "echo/alpha→alpha", "reason": "thought broken"}]}\n' >"$BATS_TEST_TMPDIR/stale.json"
  run "$RPCM" run "${FAST[@]}" --protocol echo --server alpha --client alpha --known-failures "$BATS_TEST_TMPDIR/stale.json" --out "$OUT-3"
  [ "$status" -eq 1 ]
  [[ "$output" == *"UNEXPECTED pass of a known failure (remove the entry): echo/alpha→alpha"* ]]
}

@test "certify: every cell's vectors, nothing timed" {
  run "$RPCM" run "${FAST[@]}" --profile certify --protocol echo
  [ "$status" -eq 0 ]
  [ "$(jq -s '[.[] | select(.protocol == "echo")] | unique_by([.cell, .workload, .pass]) | length' "$OUT/results.jsonl")" -eq 6 ]
  [ "$(jq -s '[.[] | select(.protocol == "echo" and .workload == "vectors" and .status == "pass")] | unique_by(.cell) | length' "$OUT/results.jsonl")" -eq 6 ]
  grep -q 'testcase classname="echo/alpha→beta" name="vector int64_max"' "$OUT/junit.xml"
  # certify sends every vector, the large ones too, from the contract itself
  grep -q 'testcase classname="echo/alpha→beta" name="vector string_1mib"' "$OUT/junit.xml"
  [ ! -e "$OUT/idl" ]
}

@test "load: rounds of points per cell planned from the ones before, each a record with its guards; each server driven by its protocol's fastest client; a client that cannot reach the rate is client-bound" {
  run "$RPCM" run "${FAST[@]}" --profile load --cell 'echo/alpha→alpha,echo/beta→beta' --command-timeout 30
  [ "$status" -eq 0 ]
  # each server by its own language's client, then the other server by the client that spent the least CPU per call
  # (whichever it is, the other language's server gets one more cell)
  [ "$(jq -s '[.[] | select(.rival == 1 and .driver.client_cpu_us_per_call > 0)] | length' "$OUT/cells.jsonl")" -eq 1 ]
  jq -se '(map(select(.rival)) | .[0]) as $r | map(select(.rival | not) | .client) | index($r.client) != null' \
    "$OUT/cells.jsonl" >/dev/null
  [ "$(jq -s '[.[] | select(.kind == "load") | .cell] | unique | length' "$OUT/results.jsonl")" -eq 3 ]
  grep -qF "fastest client" "$OUT/report/load.md"
  # the points in the CSV too, with their latency from the intended send and their guards
  python3 -c 'import csv, sys; rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "load"]
assert rows and all(r["point.mode"] and (r["latency_us.p99"] or r["status"] != "pass") for r in rows)' \
    "$OUT/results.csv"
  # closed loop at 1 and 2 in flight, open loop at half and all of the closed loop's best, perhaps one rate for the
  # knee, then overload at twice the knee and one call at a time again
  [ "$(jq -s '[.[] | select(.cell == "echo/alpha→alpha" and .kind == "load")] | length' "$OUT/results.jsonl")" -ge 6 ]
  record_holds echo/alpha→alpha 'ping@closed-2' '.status == "pass" and .load.in_flight == 2 and .latency_us.p99 > 0 and .cpu_share.server > 0'
  record_holds echo/alpha→alpha 'ping@recovery-1' '.status == "pass" and .load.mode == "closed"'
  [ "$(jq -s '[.[] | select(.cell == "echo/alpha→alpha" and .point.mode == "open")] | length' "$OUT/results.jsonl")" -ge 2 ]
  [ "$(jq -s '[.[] | select(.cell == "echo/alpha→alpha" and .point.mode == "overload")] | length' "$OUT/results.jsonl")" -eq 1 ]
  # each call of the spin client takes 2 ms of its one CPU: one call at a time is already the client's limit (alone:
  # the fast echo client's compiler thread, parked on the client's CPU, would take a share of it)
  run "$RPCM" run "${FAST[@]}" --profile load --protocol spin --command-timeout 30 --out "$OUT-spin"
  [ "$status" -eq 0 ]
  OUT="$OUT-spin" record_holds spin/alpha→alpha 'ping@closed-1' '.guards | index("client-bound")'
  grep -q 'Latency under load' "$OUT/report/load.md"
  grep -qF "| \`echo/alpha→alpha\` |" "$OUT/report/load.md"
  grep -q 'report/load.md' "$OUT/REPORT.md"
}

@test "lanes: a profile that measures nothing runs its protocols in lanes at once, with one lane's records" {
  local protocols=echo,oneway,gap,published,nope
  run "$RPCM" run "${FAST[@]}" --profile lanes --protocol "$protocols"
  [ "$status" -eq 0 ]
  # the protocols' groups were taken by two lanes, each printing its own progress lines whole
  [[ "$output" == *"(lane 1: about"* && "$output" == *"(lane 2: about"* ]]
  [ "$(find "$OUT/processes/pass1" -maxdepth 1 -name '*-lane1-*' | wc -l)" -gt 0 ]
  [ "$(find "$OUT/processes/pass1" -maxdepth 1 -name '*-lane2-*' | wc -l)" -gt 0 ]
  # every cell in one group of the lanes' queue (a cell step, or a declined one), every group taken by one lane
  [ "$(cat "$OUT"/plan/lanes/pass1/group*.tsv | awk -F'\t' '$1 == "cell" { print $3 } $1 == "declined" { n = split($4, d, ","); for (i = 1; i <= n; i++) print d[i] + 0 }' | sort -n | uniq | wc -l)" -eq "$(wc -l <"$OUT/cells.jsonl")" ]
  [ "$(cat "$OUT"/plan/lanes/pass1/group*.taken/lane | wc -l)" -eq "$(find "$OUT/plan/lanes/pass1" -name 'group*.tsv' | wc -l)" ]
  [ "$(sort -u "$OUT"/plan/lanes/pass1/group*.taken/lane | paste -sd' ')" = "1 2" ]
  # lanes are not pinned: pinned, the lanes' clients would queue on one CPU and their servers on the other
  jq -e '.run.setup.pinning | .mode == null and .lanes == 2' "$OUT/env.json" >/dev/null
  grep -q '| CPU pinning | not pinned: 2 lanes of cells at once share the CPUs (the profile measures nothing) |' "$OUT/report/run.md"
  # every record once, and the same outcomes as the same cells in one lane
  [ "$(jq -s 'length == (unique_by([.cell, .workload, .pass]) | length)' "$OUT/results.jsonl")" = true ]
  run "$RPCM" run "${FAST[@]}" --profile certify --protocol "$protocols" --out "$OUT-one"
  [ "$status" -eq 0 ]
  outcomes() { jq -r '"\(.cell) \(.workload) \(.status)"' "$1/results.jsonl" | sort; }
  [ "$(outcomes "$OUT")" = "$(outcomes "$OUT-one")" ]
  [ "$(grep -c '"cell"' "$OUT/progress.jsonl")" -eq "$(wc -l <"$OUT/cells.jsonl")" ]
}

@test "lanes: a profile that measures something may not have them" {
  jq '.profiles.smoke.lanes = 2' "$FIDL/workloads.json" >"$BATS_TEST_TMPDIR/workloads.json"
  cp "$FIDL/protocols.json" "$FIDL/contract.json" "$FIDL/vectors.json" "$BATS_TEST_TMPDIR/"
  run "$RPCM" run "${FAST[@]}" --idl "$BATS_TEST_TMPDIR" --protocol echo
  [ "$status" -ne 0 ]
  [[ "$output" == *"a profile with lanes > 1 must measure nothing, but it sets workloads, floor, handler, count_calls"* ]]
}

@test "lanes: Ctrl-C stops every lane's processes, keeps the finished cells' records and writes the report" {
  # one lane has finished a cell and the other waits for a server that never gets ready
  interrupted_run "[ -e '$OUT/cells/neverready__alpha-to-alpha/pass1/server.out' ] && grep -q '\"cell\"' '$OUT/progress.jsonl' 2>/dev/null" \
    "the lanes' state to interrupt" "${FAST[@]}" --profile lanes --protocol echo,neverready --ready-timeout 30
  local cell
  for cell in $(jq -r '.cell // empty' "$OUT/progress.jsonl"); do
    [ -n "$(record_of "$cell" vectors .status)" ]
  done
  [ -s "$OUT/REPORT.md" ]
}

@test "a killed run resumes: its options, the first unfinished cell, what it left in the kernel removed" {
  "$RPCM" run "${FAST[@]}" --protocol echo --passes 2 --seed 7 >"$BATS_TEST_TMPDIR/first.log" 2>&1 3>&- &
  local pid=$! tries=0 tag left
  # kill the runner as an ended session would (no clean-up) once it has finished two cells
  until [ -f "$OUT/progress.jsonl" ] && [ "$(grep -c '"cell"' "$OUT/progress.jsonl")" -ge 2 ]; do
    tries=$((tries + 1))
    [ "$tries" -le 600 ] || { kill -KILL "$pid"; echo "no two finished cells in 60 s" >&2; return 1; }
    sleep 0.1
  done
  kill -KILL "$pid"
  wait "$pid" || true
  tag=$(cat "$OUT/runner.tag")
  # its servers and clients live on in its cgroups (where it could make them)
  left=$(find /sys/fs/cgroup -maxdepth 4 -path "*/rpcmatrix-$tag/*" -name cgroup.procs -exec cat {} +)
  [ -n "$left" ] || [ -z "$(find /sys/fs/cgroup -maxdepth 2 -name "rpcmatrix-$tag")" ]
  # only --skip-build may be added to a resumed run's options
  run "$RPCM" run --resume "$OUT" --passes 3
  [ "$status" -ne 0 ]
  [[ "$output" == *"only --skip-build may be added"* ]]
  local finished
  finished=$(grep -c '"cell"' "$OUT/progress.jsonl")
  run "$RPCM" run --resume "$OUT"
  [ "$status" -eq 0 ]
  [[ "$output" == *"$finished of 12 cells finished"* ]]
  if [ -n "$left" ]; then [[ "$output" == *"processes the interrupted run left"* ]]; fi
  # it goes on with the next cell of the same seeded order, and the order was the seed's
  [ "$(grep -o '^\[[0-9]*/12\]' <<<"$output" | head -n 1)" = "[$((finished + 1))/12]" ]
  run "$RPCM" run "${FAST[@]}" --protocol echo --passes 2 --seed 7 --out "$OUT-whole"
  [ "$status" -eq 0 ]
  diff <(jq -r '"\(.pass) \(.cell // .stage)"' "$OUT/progress.jsonl") <(jq -r '"\(.pass) \(.cell // .stage)"' "$OUT-whole/progress.jsonl")
  # one record set per cell and pass, every one passing; the resumption is in env.json
  [ "$(jq -sr '[.[] | select(.workload == "vectors")] | unique_by(.cell, .pass) | length' "$OUT/results.jsonl")" -eq 12 ]
  [ "$(jq -sr '[.[] | select(.workload == "vectors") ] | group_by(.cell, .pass) | map(last.status) | unique | join(",")' "$OUT/results.jsonl")" = pass ]
  jq -e --argjson n "$finished" '.run.resumed | length == 1 and .[0].cells_finished == $n and (.[0].boot_id | length > 0)' "$OUT/env.json" >/dev/null
  grep -q "| Resumed (1) | at .* after $finished of 12 cells, on the same boot" "$OUT/REPORT.md" "$OUT"/report/*.md
  # nothing of the killed runner is left in the kernel
  [ "$(ip netns list 2>/dev/null | grep -c "^rpcmatrix-$tag\b")" -eq 0 ]
  [ -z "$(find /sys/fs/cgroup -maxdepth 2 -name "rpcmatrix-$tag")" ]
  # a finished run has nothing to resume
  run "$RPCM" run --resume "$OUT"
  [ "$status" -ne 0 ]
  [[ "$output" == *"nothing to resume"* ]]
}

@test "Ctrl-C: processes, namespace and cgroups gone, records so far kept, report written" {
  # the hanging cell's client hangs in a measure
  interrupted_run "grep -q '\"cmd\": \"measure\"' '$OUT/cells/hang__alpha-to-alpha/pass1/client.log' 2>/dev/null" \
    "the hanging cell's measure" "${FAST[@]}" --protocol echo,hang --client alpha --server alpha --command-timeout 30
  [ "$(record_of 'hang/alpha→alpha' vectors .status)" = pass ]
  [ -s "$OUT/REPORT.md" ]
}

@test "--network: applied and tested before the cells, in env.json, every record and the report; a scenario that misses is refused before any cell" {
  [ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
  [ -x "$ROOT/runner/floor/bin/delayline" ] || skip "runner/floor/bin/delayline not built (runner/setup.sh builds it)"
  run "$RPCM" run "${FAST[@]}" --cell 'echo/alpha→beta' --network 'delay=5ms,s2c.delay=2ms'
  [ "$status" -eq 0 ]
  [[ "$output" == *"network custom: delay (both ways): "*"asked 7.000 ms ± 0.350 ms (ok)"* ]]
  # every call crosses both delays; the delay line never releases early
  record_holds 'echo/alpha→beta' ping '.network.name == "custom" and .network.asked.c2s.delay_us == 5000
    and .network.asked.s2c.delay_us == 2000 and .network.measured.delay_us >= 6650 and .rtt_us.p50 >= 7000'
  record_holds 'floor/c→c' ping '.network.spec == "delay=5ms,s2c.delay=2ms"'
  jq -e '.run.setup.network.scenario | .accepted and (.shaper == "netem" or .shaper == "tbf+delayline")
    and (.delay_line_cpu | test("neither"))' "$OUT/env.json" >/dev/null
  grep -q '| Network | custom (delay=5ms,s2c.delay=2ms: given on the command line), by ' "$OUT/report/run.md"
  # what the delay line held each packet beyond the delay, over the run, each way (with netem: nothing to say)
  if jq -e '.run.setup.network.scenario.shaper == "tbf+delayline"' "$OUT/env.json" >/dev/null; then
    grep -q 'c2s: the delay line held [0-9,]* packets, each for the delay and then p50 ' "$OUT/report/run.md"
    grep -q 's2c: the delay line held [0-9,]* packets, each for the delay and then p50 ' "$OUT/report/run.md"
  fi
  # 2000 bytes at 8 kbit/s go through in tbf's first burst: the rate is not what was asked, and no cell runs
  run "$RPCM" run "${FAST[@]}" --cell 'echo/alpha→beta' --network rate=8kbit --out "$OUT-refused"
  [ "$status" -eq 2 ]
  [[ "$output" == *"network custom: rate c2s: "*"asked 0.01 Mbit/s"*"(MISSED)"* ]]
  [[ "$output" == *"the network custom missed what was asked (above): no cell ran"* ]]
  [ ! -s "$OUT-refused/results.jsonl" ]
}

@test "--network: Ctrl-C mid-run stops the delay lines with the rest; nothing is left" {
  [ "$(id -u)" -eq 0 ] || skip "network namespaces need root"
  [ -x "$ROOT/runner/floor/bin/delayline" ] || skip "runner/floor/bin/delayline not built (runner/setup.sh builds it)"
  interrupted_run "grep -q '\"cmd\": \"measure\"' '$OUT/cells/hang__alpha-to-alpha/pass1/client.log' 2>/dev/null" \
    "the hanging cell's measure" "${FAST[@]}" --protocol hang --client alpha --server alpha --command-timeout 30 \
    --network delay=1ms
  grep -q '^delayline: queue 0, 1000 us: [1-9][0-9]* packets' "$OUT/network/delayline-c2s.log"
  grep -q '^delayline: queue 0, 1000 us: [1-9][0-9]* packets' "$OUT/network/delayline-s2c.log"
}

# variants (conductor/variant.py, proxy.py): the proxy of --proxy http is ours when its command line names this run's
# configuration
proxy_alive() { pgrep -f "tinyproxy -d -c $OUT/proxy/tinyproxy.conf" >/dev/null; }

@test "variants: --proxy http and --connection per-call run through a real proxy, recorded, the others unsupported with reasons, the proxy stopped after" {
  command -v tinyproxy >/dev/null || skip "tinyproxy is not installed (runner/setup.sh installs it)"
  run "$RPCM" run "${FAST[@]}" --protocol echo,gap --server alpha --proxy http --connection per-call
  [ "$status" -eq 0 ]
  local cell='echo/alpha→alpha'
  record_holds "$cell" ping '.status == "pass" and .variant.connection == "per-call"'
  record_holds "$cell" ping '.variant.proxy | test("^tinyproxy [0-9.]+$")'
  # one connection accepted per timed call; every call relayed by the proxy (a CONNECT tunnel each)
  record_holds "$cell" ping '.variant_evidence.connections_per_call == 1 and .variant_evidence.proxy_requests > 0'
  grep -q 'Request (file descriptor [0-9]*): CONNECT ' "$OUT/proxy/tinyproxy.log"
  jq -e '.run.variant.connection == "per-call" and (.run.variant.proxy | startswith("tinyproxy"))' "$OUT/env.json"
  record_holds 'echo/beta→alpha' ping '.status == "unsupported" and (.reason | contains("manifest of beta declares no way"))'
  record_holds 'gap/alpha→alpha' vectors '.status == "unsupported" and (.reason | contains("gap is no HTTP"))'
  grep -q 'connection per-call' "$OUT/REPORT.md"
  run -1 proxy_alive
}

@test "variants: a client that goes around the proxy and keeps its connection is an error with the evidence" {
  command -v tinyproxy >/dev/null || skip "tinyproxy is not installed (runner/setup.sh installs it)"
  FAKE_IGNORE_VARIANT=1 run "$RPCM" run "${FAST[@]}" --protocol echo --client alpha --server alpha --proxy http \
    --connection per-call
  record_holds 'echo/alpha→alpha' ping '.status == "error" and .variant_evidence.proxy_requests == 0'
  record_holds 'echo/alpha→alpha' ping '(.reason | contains("went around it")) and (.reason | contains("kept its connection"))'
  run -1 proxy_alive
}

@test "variants: the options are checked; Ctrl-C stops the proxy" {
  command -v tinyproxy >/dev/null || skip "tinyproxy is not installed (runner/setup.sh installs it)"
  run "$RPCM" cells "${FAST[@]}" --connection sometimes
  [ "$status" -eq 2 ] && [[ "$output" == *"--connection takes kept or per-call"* ]]
  run "$RPCM" run "${FAST[@]}" --proxy http --no-netns
  [ "$status" -eq 2 ] && [[ "$output" == *"not with --no-netns"* ]]
  interrupted_run "grep -q Request '$OUT/proxy/tinyproxy.log' 2>/dev/null" "a request through the proxy" \
    "${FAST[@]}" --protocol echo --client alpha --server alpha --proxy http
  run -1 proxy_alive
  [ -s "$OUT/REPORT.md" ]
}
