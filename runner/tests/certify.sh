#!/usr/bin/env bash
# Certification end to end (just certify --implementation / --server-at): the worked example outside the repository
# (examples/outside-jsonrpc) earns its certificate in four forms; an impostor that only echoes and one that replays
# answers recorded from an honest run are refused it; a known-failures file classifies results, a flaky check
# passes on a retry; a server started by hand is certified at its host and port, and so is a server of every
# protocol of the suite; a refused port, a name that does not resolve, a server that never answers and a TLS
# server whose certificate the clients' CA did not sign are each a clear verdict. Nothing is left running.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PYTHON="$ROOT/.venv/bin/python"
EXAMPLE="$ROOT/examples/outside-jsonrpc"
export PYTHONPATH="$ROOT/runner${PYTHONPATH:+:$PYTHONPATH}" RPCMATRIX_HISTORY=off
# shellcheck source=runner/lib/log.sh
source "$ROOT/runner/lib/log.sh"
# shellcheck source=runner/lib/process.sh
source "$ROOT/runner/lib/process.sh"

OUT="" FAILED=0

# check DESCRIPTION RUN JQ: the JQ filter holds on RUN's certificate.json (else the failure is counted).
check() {
  if jq -e "$3" "$OUT/$2/certificate.json" >/dev/null 2>&1; then
    printf 'certify: ok: %s\n' "$1"
  else
    printf 'certify: FAILED: %s (%s: %s)\n' "$1" "$OUT/$2/certificate.json" "$3" >&2
    FAILED=$((FAILED + 1))
  fi
}

# certify RUN STATUS ARGS...: a certification into OUT/RUN that must exit with STATUS and write the four forms.
certify() {
  local run="$1" want="$2" status=0 form started=$SECONDS
  shift 2
  "$ROOT/runner/rpcmatrix" run --profile certify --out "$OUT/$run" "$@" >"$OUT/$run.log" 2>&1 || status=$?
  printf 'certify: %s: %d s\n' "$run" $((SECONDS - started))
  if ((status != want)); then
    printf 'certify: FAILED: %s exited %d, not %d (%s)\n' "$run" "$status" "$want" "$OUT/$run.log" >&2
    tail -n 5 "$OUT/$run.log" >&2
    FAILED=$((FAILED + 1))
  fi
  for form in md html json junit.xml; do
    if [[ ! -s "$OUT/$run/certificate.$form" ]]; then
      printf 'certify: FAILED: %s wrote no certificate.%s\n' "$run" "$form" >&2
      FAILED=$((FAILED + 1))
    fi
  done
}

# example_manifest FOLDER LANGUAGE MODE: the example's manifest as another language, its server in MODE,
# remembering in FOLDER/state (server.py --mode).
example_manifest() {
  mkdir -p "$1/state"
  jq --arg lang "$2" --arg mode "$3" --arg state "$1/state" --arg server "$EXAMPLE/server.py" \
    '.language = $lang | .build = ["true"] |
     .implementations[0].server |= (["python3", $server] + .[2:] + ["--mode", $mode, "--state", $state])' \
    "$EXAMPLE/manifest.json" >"$1/manifest.json"
}

# serve NAME ARGV...: a server started by hand, as a user starts theirs; prints its port.
serve() {
  local name="$1" port
  shift
  start_group /dev/null "$OUT/$name.out" "$OUT/$name.log" "$@"
  printf '%s\n' "$!" >>"$OUT/pids"
  port=$(wait_ready "$OUT/$name.out" "$!" 60) || die "$name did not start: $port $(tail -n 3 "$OUT/$name.log")"
  printf '%s\n' "$port"
}

stop_servers() {
  local pid
  if [[ -s "$OUT/pids" ]]; then
    while IFS= read -r pid; do stop_group "$pid" 5 || true; done <"$OUT/pids"
  fi
}

outside_implementation() {
  certify example 0 --manifest "$EXAMPLE/manifest.json" --implementation outside-jsonrpc
  check "the example earns its certificate against every client of jsonrpc" example \
    '.earned and .subject.implementation == "outside-jsonrpc" and (.peers | length) >= 3
     and .counts.MUST == {"passed": (.counts.MUST.passed)} and .counts.MUST.passed > 200'
  check "stamped with the commit, the contract's digest, the date and the values drawn" example \
    '(.suite.commit | length) == 40 and (.contract_sha256 | test("^[0-9a-f]{64}$")) and (.date | test("^20"))
     and ([.drawn_vectors[].id] | length) >= 10'
  check "the client role it does not take is a MAY with its reason" example \
    '[.checks[] | select(.role == "client")] | all(.grade == "MAY" and (.reason | test("serves only")))'
  if ! grep -q 'failures="0"' "$OUT/example/certificate.junit.xml"; then
    printf 'certify: FAILED: the JUnit form of an earned certificate has failures\n' >&2
    FAILED=$((FAILED + 1))
  fi
}

impostors() {
  example_manifest "$OUT/replayer" replayer-jsonrpc replay
  cp "$OUT/by-hand/answers.jsonl" "$OUT/replayer/state/" # what the example answered every client (every_protocol)
  certify replayed 1 --manifest "$OUT/replayer/manifest.json" --implementation replayer-jsonrpc --client python
  check "a server replaying an honest run's answers is refused, by the values drawn for this one alone" replayed \
    '(.earned | not) and ([.checks[] | select(.classification == "unexpected failure") | .check]
     | length > 0 and all(startswith("fresh_")))'
  example_manifest "$OUT/echo" echo-jsonrpc echo
  jq -n '{failures: [{cell: "jsonrpc/python→echo-jsonrpc", vector: "fresh_is_prime", reason: "echoes n"},
                     {cell: "jsonrpc/python→echo-jsonrpc", vector: "ping", reason: "a stale entry"}]}' \
    >"$OUT/echo/known-failures.json"
  certify echo 1 --manifest "$OUT/echo/manifest.json" --implementation echo-jsonrpc --client python \
    --known-failures "$OUT/echo/known-failures.json"
  check "a server that only echoes is refused" echo \
    '(.earned | not) and ([.checks[] | select(.classification == "unexpected failure") | .check]
     | index("is_prime_two") != null and index("books_three") != null)'
  check "a known failure is classified expected, and still fails its MUST" echo \
    '.checks[] | select(.check == "fresh_is_prime") | .classification == "expected failure" and .known == "echoes n"'
  check "an entry for a check that passes is an unexpected success" echo \
    '.checks[] | select(.check == "ping") | .classification == "unexpected success"'
  example_manifest "$OUT/flaky" flaky-jsonrpc flaky
  certify flaky 0 --manifest "$OUT/flaky/manifest.json" --implementation flaky-jsonrpc --client python --retries 1
  check "a check that fails, then passes on a retry, is flaky" flaky \
    '.earned and (.checks[] | select(.check == "record_empty_key") | .classification == "flaky"
     and .attempts[1] == "pass" and (.reason | test("503")))'
}

unreachable() {
  local port closed silent rogue="$OUT/rogue-secrets"
  # four servers that cannot be certified, each for its own reason, in one run
  closed=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  silent=$(serve silent "$PYTHON" -c 'import json, socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(json.dumps({"ready": True, "port": s.getsockname()[1]}), flush=True)
held = [s.accept() for _ in range(8)]
time.sleep(600)')
  mkdir -p "$rogue"
  cp -r "$ROOT/secrets/." "$rogue/"
  cp "$ROOT/secrets/rogue-ca.crt" "$rogue/ca.crt" # the clients trust another CA than the one that signed the server
  port=$(serve grpc-tls "$ROOT/.venv/bin/python" -m rpcmatrix.grpc server --protocol grpc-tls --host 127.0.0.1 \
    --port 0 --idl "$ROOT/idl" --secrets "$ROOT/secrets")
  certify unreachable 1 --client python --command-timeout 5 --secrets "$rogue" \
    --server-at "jsonrpc=127.0.0.1:$closed" --server-at "xmlrpc=no-such-host.invalid:8080" \
    --server-at "thrift-binary=127.0.0.1:$silent" --server-at "grpc-tls=127.0.0.1:$port"
  check "a refused port is a verdict naming it" unreachable \
    '.checks[] | select(.check == "cell" and .protocol == "jsonrpc") | .classification == "unexpected failure"
     and (.reason | test("127.0.0.1:[0-9]+ refused the connection"))'
  check "a name that does not resolve is a verdict naming it" unreachable \
    '.checks[] | select(.check == "cell" and .protocol == "xmlrpc") | .reason | test("no-such-host.invalid did not resolve")'
  check "a server that never answers is a time-out, not a hang" unreachable \
    '.checks[] | select(.check == "cell" and .protocol == "thrift-binary") | .attempts == ["timeout"]
     and (.reason | test("did not answer within 5 ?s"))'
  check "a TLS server whose certificate the clients' CA did not sign is a TLS verdict" unreachable \
    '.checks[] | select(.check == "cell" and .protocol == "grpc-tls") | .reason | test("TLS: the server.s certificate was refused")'
}

# A TLS server elsewhere has a certificate of its own name: its secrets folder holds that certificate and key (signed
# by the set-up CA here), the clients' holds the CA and the name (server-name), and no server key.
tls_elsewhere() {
  local port name=elsewhere.rpcmatrix.test server="$OUT/named-server" clients="$OUT/named-clients"
  mkdir -p "$server" "$clients"
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$name" -keyout "$server/rsa.key" -out "$server/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:%s\nextendedKeyUsage=serverAuth\n' "$name" >"$server/server.ext"
  openssl x509 -req -in "$server/server.csr" -CA "$ROOT/secrets/ca.crt" -CAkey "$ROOT/secrets/ca.key" \
    -CAserial "$server/ca.srl" -CAcreateserial -days 1 -extfile "$server/server.ext" -out "$server/server.crt" 2>/dev/null
  openssl pkcs8 -topk8 -nocrypt -in "$server/rsa.key" -out "$server/server.key"
  cp "$ROOT/secrets/ca.crt" "$clients/"
  printf '%s\n' "$name" >"$clients/server-name"
  port=$(serve named-grpc-tls "$ROOT/.venv/bin/python" -m rpcmatrix.grpc server --protocol grpc-tls \
    --host 127.0.0.1 --port 0 --idl "$ROOT/idl" --secrets "$server")
  certify named-tls 0 --server-at "grpc-tls=127.0.0.1:$port" --secrets "$clients" --client python,java
  check "a TLS server with a certificate of its own name is certified with the name and the CA it is given" \
    named-tls '.earned and (.peers | length) >= 3'
}

# A server of each protocol, started by hand as the battery starts them (one per protocol: the first server
# implementation the manifests have), all at once, then one certification of them all at their addresses, with one
# client each: of another language than the server's where there is one. JSON-RPC's server is the example, started
# by hand as its README says, against every client; it keeps its answers for the replaying impostor.
every_protocol() {
  local protocols protocol server language argv port target
  local -a args at=() chosen=()
  local -A pid=() lang=() name=()
  mkdir -p "$OUT/by-hand"
  port=$(serve example-by-hand python3 "$EXAMPLE/server.py" --protocol jsonrpc --host 127.0.0.1 --port 0 \
    --idl "$ROOT/idl" --state "$OUT/by-hand")
  at+=(--server-at "jsonrpc=127.0.0.1:$port")
  pid[jsonrpc]=by-hand
  protocols=$(jq -r '.protocols | keys_unsorted | join(",")' "$ROOT/idl/protocols.json")
  "$PYTHON" -m conductor battery --protocol "$protocols" --host 127.0.0.1 --skip-build --out "$OUT/servers" >/dev/null
  while IFS=$'\t' read -r protocol server language argv; do
    [[ -z "${pid[$protocol]:-}" ]] || continue
    mapfile -d '' -t args <"$argv"
    start_group /dev/null "$OUT/$protocol.out" "$OUT/$protocol.log" "${args[@]}"
    pid[$protocol]=$! lang[$protocol]=$language name[$protocol]=$server
    printf '%s\n' "$!" >>"$OUT/pids"
  done <"$OUT/servers/plan/servers.tsv"
  for protocol in "${!pid[@]}"; do
    [[ "${pid[$protocol]}" != by-hand ]] || continue
    port=$(wait_ready "$OUT/$protocol.out" "${pid[$protocol]}" 60) ||
      die "the $protocol server did not start: $port $(tail -n 3 "$OUT/$protocol.log")"
    target="127.0.0.1:$port"
    if [[ $(jq -r --arg p "$protocol" '.protocols[$p].variant.reference // ""' "$ROOT/idl/protocols.json") == ior-file ]]; then
      target="$OUT/servers/servers/$protocol-${name[$protocol]}/cell" # the folder where the server wrote its IORs
    fi
    at+=(--server-at "$protocol=$target")
  done
  "$ROOT/runner/rpcmatrix" cells --profile certify "${at[@]}" >"$OUT/every-protocol.cells"
  mapfile -t -O 0 chosen < <(awk -F'\t' '$2 == "runs" && index($1, "jsonrpc/") == 1 { print "--cell\n" $1 }' \
    "$OUT/every-protocol.cells")
  for protocol in "${!pid[@]}"; do
    [[ "$protocol" != jsonrpc ]] || continue
    chosen+=(--cell "$(awk -F'\t' -v p="$protocol/" -v l="${lang[$protocol]}" '
      $2 == "runs" && index($1, p) == 1 { if (!first) first = $1; if (index($1, p l) != 1 && !other) other = $1 }
      END { print (other ? other : first) }' "$OUT/every-protocol.cells")")
  done
  # the suite's own known failures (a stack's documented defect) hold for its server elsewhere as well: a known
  # failure is still a failure of the contract, so such a certificate is not earned, but nothing else may fail
  jq '.failures |= map(.cell |= sub("→[^→]+$"; "→elsewhere"))' "$ROOT/runner/known-failures.json" \
    >"$OUT/every-protocol.known-failures.json"
  certify every-protocol "$(jq -r 'if (.failures | length) > 0 then 1 else 0 end' "$ROOT/runner/known-failures.json")" \
    "${at[@]}" "${chosen[@]}" --known-failures "$OUT/every-protocol.known-failures.json"
  check "a server started by hand earns its certificate at its address, against every client" every-protocol \
    '[.checks[] | select(.protocol == "jsonrpc")] | (map(.peer) | unique | length) >= 3
     and all(.classification == "passed" or .classification == "skipped")'
  check "a server of each of the ${#pid[@]} protocols with one in the suite is certified at its address" \
    every-protocol "(.protocols | length) == ${#pid[@]} and ([.checks[] | select(.check == \"cell\")]
      | (map(.protocol) | unique | length) == ${#pid[@]} and all(.classification == \"passed\"))
      and ([.checks[] | select(.classification | test(\"unexpected\"))] | length == 0)"
}

main() {
  local leftover part
  cd "$ROOT"
  OUT=$(mktemp -d /tmp/rpcmatrix-certify.XXXXXX)
  trap stop_servers EXIT
  local -a parts=("$@")
  ((${#parts[@]})) || parts=(outside_implementation every_protocol impostors unreachable tls_elsewhere)
  for part in "${parts[@]}"; do "$part"; done
  stop_servers
  leftover=$(pgrep -f "$OUT" || true)
  if [[ -n "$leftover" ]]; then
    printf 'certify: FAILED: processes of the runs are left: %s\n' "$leftover" >&2
    FAILED=$((FAILED + 1))
  fi
  printf 'certify: %d failures\n' "$FAILED"
  if ((FAILED == 0)); then rm -rf "$OUT"; else printf 'certify: the runs are in %s\n' "$OUT" >&2; fi
  ((FAILED == 0))
}

main "$@"
