#!/usr/bin/env bash
# End-to-end smoke test: every protocol's cells with real server and client processes, a few calls each
# (profile "smoke"). Passes when every cell that can run passes or correctly declines every vector and
# times its workloads, and every unsupported cell carries its reason. Timings are not asserted.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

check_records() {
  local results="$1"
  # Each line: cell, workload, status, reason; anything not pass/unsupported-with-reason is a failure.
  jq -r 'select((.status == "pass") or (.status == "unsupported" and (.reason | length) > 0) | not)
         | "FAIL \(.cell) \(.workload): \(.status): \(.reason[0:300])"' "$results"
}

main() {
  local out status=0 failures cells passed failed unsupported
  out=$(mktemp -d)
  "$ROOT/runner/rpcmatrix" run --profile smoke --out "$out/run" "$@" || status=$?
  failures=$(check_records "$out/run/results.jsonl")
  cells=$(jq -r 'select(.workload == "vectors") | .cell' "$out/run/results.jsonl" | sort -u | wc -l)
  failed=$(jq -r 'select(.status != "pass" and .status != "unsupported") | .cell' "$out/run/results.jsonl" | sort -u | wc -l)
  unsupported=$(jq -r 'select(.workload == "vectors" and .status == "unsupported") | .cell' "$out/run/results.jsonl" | sort -u | wc -l)
  passed=$((cells - failed - unsupported))
  if [[ -n "$failures" ]]; then
    printf '%s\n' "$failures" >&2
    printf 'smoke: the run is kept in %s\n' "$out/run" >&2
  else
    rm -rf "$out"
  fi
  printf 'smoke: %s passed, %s failed, %s skipped\n' "$passed" "$failed" "$unsupported"
  [[ -z "$failures" && "$status" == 0 ]]
}

main "$@"
