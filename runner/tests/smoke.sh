#!/usr/bin/env bash
# End-to-end smoke test: every protocol's cells with real server and client processes, a few calls each
# (profile "smoke"). Passes when every cell that can run passes or correctly declines every vector and
# times its workloads, and every unsupported cell carries its reason. Timings are not asserted.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

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

main() {
  local out status=0 failures cells passed failed unsupported known
  out=$(mktemp -d)
  "$ROOT/runner/rpcmatrix" run --profile smoke --out "$out/run" "$@" || status=$?
  failures=$(check_records "$out/run" | sort -u)
  cells=$(jq -r 'select(.workload == "vectors") | .cell' "$out/run/results.jsonl" | sort -u | wc -l)
  failed=$(check_records "$out/run" | awk '{print $2}' | sort -u | wc -l)
  unsupported=$(jq -r 'select(.workload == "vectors" and .status == "unsupported") | .cell' "$out/run/results.jsonl" | sort -u | wc -l)
  passed=$((cells - failed - unsupported))
  known=$(jq '[.expected[].cell] | unique | length' "$out/run/verdict.json")
  if [[ -n "$failures" ]]; then
    printf '%s\n' "$failures" >&2
    printf 'smoke: the run is kept in %s\n' "$out/run" >&2
  else
    rm -rf "$out"
  fi
  printf 'smoke: %s passed (%s with known failures), %s failed, %s skipped\n' "$passed" "$known" "$failed" "$unsupported"
  [[ -z "$failures" && "$status" == 0 ]]
}

main "$@"
