#!/usr/bin/env bash
# Published metadata stands on its own: every server of every protocol whose registry entry names published
# metadata (SOAP's ?wsdl) is started in a server namespace as cells start theirs, and its description is fetched
# from another namespace by follow_metadata.py, following every import over the network, as a client on another
# host would. Fails on any file: URL, path of the server's machine or import that cannot be fetched.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PYTHON="$ROOT/.venv/bin/python"
export PYTHONPATH="$ROOT/runner${PYTHONPATH:+:$PYTHONPATH}"
# shellcheck source=runner/lib/log.sh
source "$ROOT/runner/lib/log.sh"
# shellcheck source=runner/lib/process.sh
source "$ROOT/runner/lib/process.sh"
# shellcheck source=runner/lib/netns.sh
source "$ROOT/runner/lib/netns.sh"

main() {
  local out protocols settings protocol server language argv pid port failed=0 checked=0
  local -a args
  cd "$ROOT" # the manifests' argvs are relative to the repository
  out=$(mktemp -d /tmp/rpcmatrix-metadata.XXXXXX)
  trap 'stop_all_groups; netns_destroy' EXIT
  netns_create "m$(($$ % 100000))" "$out/netns.log" || die "could not make the namespaces: $(tail -n 1 "$out/netns.log")"
  protocols=$(jq -r '[.protocols | to_entries[] | select(.value.metadata) | .key] | join(",")' "$ROOT/idl/protocols.json")
  settings=$("$PYTHON" -m conductor battery --protocol "$protocols" --host "$IP_SERVER" --skip-build --out "$out")
  [[ -n "$settings" ]] || die "no server publishes metadata"
  while IFS=$'\t' read -r protocol server language argv; do
    mapfile -d '' -t args <"$argv"
    start_group /dev/null "$out/$protocol-$server.out" "$out/$protocol-$server.log" ip netns exec "$NS_SERVER" "${args[@]}"
    pid=$!
    if ! port=$(wait_ready "$out/$protocol-$server.out" "$pid" 60); then
      printf 'metadata: %s/%s did not start: %s\n' "$protocol" "$server" "$port" >&2
      failed=$((failed + 1))
    elif ! ip netns exec "$NS_CLIENT" "$PYTHON" "$ROOT/runner/tests/follow_metadata.py" \
      "http://$IP_SERVER:$port/bench?wsdl" "$ROOT" >"$out/$protocol-$server.fetched" 2>&1; then
      printf 'metadata: %s/%s (%s):\n' "$protocol" "$server" "$language" >&2
      grep PROBLEM "$out/$protocol-$server.fetched" >&2 || cat "$out/$protocol-$server.fetched" >&2
      failed=$((failed + 1))
    fi
    stop_group "$pid" 5 || true
    checked=$((checked + 1))
  done <"$out/plan/servers.tsv"
  printf 'metadata: %d servers, %d whose published description does not stand on its own\n' "$checked" "$failed"
  if ((failed == 0)); then rm -rf "$out"; else printf 'metadata: the servers'"'"' logs are in %s\n' "$out" >&2; fi
  ((failed == 0))
}

main "$@"
