#!/usr/bin/env bats
# Attaching a battery to a matrix run (attach_battery, runner/lib/battery.sh): only to a run of the commit the
# battery ran at, whose report is then rendered again. The analysis is a stub here: it notes its arguments.

bats_require_minimum_version 1.5.0

setup() {
  ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  # shellcheck source=runner/lib/log.sh
  source "$ROOT/runner/lib/log.sh"
  # shellcheck source=runner/lib/battery.sh
  source "$ROOT/runner/lib/battery.sh"
  OUT="$BATS_TEST_TMPDIR/battery"
  RUN="$BATS_TEST_TMPDIR/run"
  mkdir -p "$OUT" "$RUN"
  printf '{"attack": "random-bytes"}\n' >"$OUT/battery.jsonl"
  PYTHON="$BATS_TEST_TMPDIR/python"
  printf '#!/bin/sh\necho "$@" >>"%s/rendered"\n' "$BATS_TEST_TMPDIR" >"$PYTHON"
  chmod +x "$PYTHON"
}

@test "a battery attaches to a run of its own commit, and the run's report is rendered again" {
  jq -n --arg c "$(git -C "$ROOT" rev-parse HEAD)" '{run: {git_commit: $c}}' >"$RUN/env.json"
  run attach_battery "$RUN"
  [ "$status" -eq 0 ]
  cmp "$OUT/battery.jsonl" "$RUN/battery.jsonl"
  [ "$(cat "$BATS_TEST_TMPDIR/rendered")" = "-m analysis render --run $RUN --known-failures $ROOT/runner/known-failures.json" ]
  [[ "$output" == *"attached to $RUN"* ]]
}

@test "the run is rendered again against the known failures it was made with, and without HTML if it had none" {
  jq -n --arg c "$(git -C "$ROOT" rev-parse HEAD)" '{run: {git_commit: $c}}' >"$RUN/env.json"
  jq -n '["--profile", "certify", "--known-failures", "/elsewhere/known.json", "--no-html"]' >"$RUN/options.json"
  run attach_battery "$RUN"
  [ "$status" -eq 0 ]
  [ "$(cat "$BATS_TEST_TMPDIR/rendered")" = "-m analysis render --run $RUN --known-failures /elsewhere/known.json --no-html" ]
}

@test "a battery does not attach to a run of another commit, and says so" {
  jq -n '{run: {git_commit: "0123456789abcdef0123456789abcdef01234567"}}' >"$RUN/env.json"
  run attach_battery "$RUN"
  [ "$status" -eq 0 ]
  [ ! -e "$RUN/battery.jsonl" ]
  [ ! -e "$BATS_TEST_TMPDIR/rendered" ]
  [[ "$output" == *"not attached to $RUN: that run is of commit 0123456789ab"* ]]
}
