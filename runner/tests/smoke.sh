#!/usr/bin/env bash
# End-to-end smoke test: every protocol's cells with real server and client processes, a few calls each
# (profile "smoke": each pair of languages of each protocol once, every implementation on each side at least
# once; the vectors but the large ones, which just certify sends). Passes when every cell that can run passes or
# correctly declines every vector and times its workloads, and every unsupported cell carries its reason.
# Timings are not asserted, so the protocols run as SHARDS runs at once (builds first, once), unpinned: pinned,
# both runs' clients would queue on one CPU and their servers on the other (about 420 s pinned, 305 s not,
# here); three runs took 143 s where two took 159 s (176 cells, a timed run beside them). Pinning has its own test (runner.bats). Arguments go to every run (e.g. --protocol soap11,grpc);
# SMOKE_KEEP=1 keeps the runs' folders when they pass.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SHARDS="${SMOKE_SHARDS:-3}"

check_records() {
  local run="$1"
  # Anything not pass or unsupported-with-a-reason is a failure, unless runner/known-failures.json lists it
  # (the run's verdict.json: a documented defect of a stack, shown in the report with its reason).
  jq -r --slurpfile v "$run/verdict.json" '
    select((.status == "pass") or (.status == "unsupported" and (.reason | length) > 0) | not)
    | select([.cell, .workload] as $k | [$v[0].expected[] | [.cell, .workload]] | index([$k]) | not)
    | "FAIL \(.cell) \(.workload): \(.status): \(.reason[0:300])"' "$run/results.jsonl"
  jq -r '.unexpected[] | "FAIL \(.cell) \(.workload): \(.status): \(.reason[0:300])"' "$run/verdict.json"
}

# shards N ARGS...: the selected protocols in N comma-separated lists, one per line, balanced by their
# runnable cells (largest first, each to the lightest list).
shards() {
  local n="$1"
  shift
  "$ROOT/runner/rpcmatrix" cells --profile smoke "$@" | awk -F'\t' -v n="$n" '
    { split($1, p, "/"); if (!(p[1] in cells)) { order[++k] = p[1]; cells[p[1]] = 0 } if ($2 == "runs") cells[p[1]]++ }
    END {
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
        if (cells[order[j]] > cells[order[i]]) { t = order[i]; order[i] = order[j]; order[j] = t }
      for (i = 1; i <= k; i++) {
        best = 1; for (s = 2; s <= n; s++) if (load[s] < load[best]) best = s
        load[best] += cells[order[i]] + 1; list[best] = list[best] (list[best] == "" ? "" : ",") order[i]
      }
      for (s = 1; s <= n; s++) if (list[s] != "") print list[s]
    }'
}

main() {
  local out status=0 failures cells=0 failed=0 unsupported=0 known=0 i run list
  local -a lists=() pids=()
  out=$(mktemp -d)
  "$ROOT/runner/rpcmatrix" build --profile smoke "$@"
  mapfile -t lists < <(shards "$SHARDS" "$@")
  for i in "${!lists[@]}"; do
    "$ROOT/runner/rpcmatrix" run --profile smoke --skip-build --no-pin "$@" --protocol "${lists[$i]}" --out "$out/run$i" \
      >"$out/run$i.log" 2>&1 &
    pids+=("$!")
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then status=1; fi
    cat "$out/run$i.log"
  done
  : >"$out/failures"
  for i in "${!lists[@]}"; do
    run="$out/run$i"
    check_records "$run" | sort -u >"$run.failures"
    cat "$run.failures" >>"$out/failures"
    cells=$((cells + $(jq -r 'select(.workload == "vectors") | .cell' "$run/results.jsonl" | sort -u | wc -l)))
    failed=$((failed + $(awk '{print $2}' "$run.failures" | sort -u | wc -l)))
    unsupported=$((unsupported + $(jq -r 'select(.workload == "vectors" and .status == "unsupported") | .cell' "$run/results.jsonl" | sort -u | wc -l)))
    known=$((known + $(jq '[.expected[].cell] | unique | length' "$run/verdict.json")))
  done
  failures=$(<"$out/failures")
  if [[ -n "$failures" ]]; then
    printf '%s\n' "$failures" >&2
    printf 'smoke: the runs are kept in %s\n' "$out" >&2
  elif [[ -n "${SMOKE_KEEP:-}" ]]; then
    printf 'smoke: the runs are kept in %s (SMOKE_KEEP)\n' "$out"
  else
    rm -rf "$out"
  fi
  for list in "${lists[@]}"; do printf 'smoke: a run of %s\n' "$list"; done
  printf 'smoke: %s passed (%s with known failures), %s failed, %s skipped\n' \
    "$((cells - failed - unsupported))" "$known" "$failed" "$unsupported"
  [[ -z "$failures" && "$status" == 0 ]]
}

main "$@"
