#!/usr/bin/env bash
# Messages for the person running the suite: everything goes to stderr so stdout stays data.

info() { printf 'rpcmatrix: %s\n' "$*" >&2; }
warn() { printf 'rpcmatrix: warning: %s\n' "$*" >&2; }
die() {
  printf 'rpcmatrix: error: %s\n' "$*" >&2
  exit 2
}
