#!/usr/bin/env bash
# Messages for the person running the suite: everything goes to stderr so stdout stays data.

info() { printf 'rpcmatrix: %s\n' "$*" >&2; }
warn() { printf 'rpcmatrix: warning: %s\n' "$*" >&2; }
die() {
  printf 'rpcmatrix: error: %s\n' "$*" >&2
  exit 2
}

# Seconds as "1m05s", for progress lines.
human_seconds() {
  local s="$1"
  if ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}
