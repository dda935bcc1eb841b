#!/usr/bin/env bash
# The battery: one server process per protocol and server implementation (the conductor's plan/servers.tsv),
# started the way cells start theirs, attacked by `python -m rpcmatrix.battery attack`
# (python/src/rpcmatrix/battery), then stopped with SIGTERM; its start and stop go to lifecycle.tsv (protocol,
# server, start or sigterm, outcome, answer, and the times SIGTERM was sent and the group was gone). Results:
# <out>/battery.jsonl, BATTERY.md (python -m analysis.battery), whose exit status says whether a server now
# accepts what runner/battery-expected.json says it refused.

# battery_note OUT PROTOCOL SERVER ATTACK OUTCOME ANSWER [SENT GONE]: one line of lifecycle.tsv.
battery_note() {
  local answer="${6//[$'\t\n\r']/ }"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" "$5" "$answer" "${7:-}" "${8:-}" >>"$1/lifecycle.tsv"
}

# attack_server OUT PROTOCOL SERVER LANGUAGE ARGV_FILE ATTACKS: start, attack, SIGTERM.
attack_server() {
  local out="$1" protocol="$2" server="$3" dir="$1/servers/$2-$3" pid port logs rc=0 sent status=0 outcome=stopped
  local -a argv attacks=()
  mkdir -p "$dir"
  if [[ -f "$out/build/$4.failed" ]]; then
    battery_note "$out" "$protocol" "$server" start error "the build failed"
    return
  fi
  mapfile -d '' -t argv <"$5"
  start_group /dev/null "$dir/server.out" "$dir/server.log" "${argv[@]}"
  pid=$!
  if ! port=$(wait_ready "$dir/server.out" "$pid" "$READY_TIMEOUT"); then
    logs=$(tail -n 3 "$dir/server.log" | tr '\n' ' ')
    battery_note "$out" "$protocol" "$server" start error "$port: $logs"
    stop_group "$pid" 5 || true
    return
  fi
  [[ -z "$6" ]] || attacks=(--attacks "$6")
  info "battery: $protocol/$server on port $port"
  "$PYTHON" -m rpcmatrix.battery attack --protocol "$protocol" --host 127.0.0.1 --port "$port" --pid "$pid" \
    --server "$server" --idl "$IDL" --secrets "$SECRETS_DIR" --cell "$dir/cell" --out "$out/battery.jsonl" \
    "${attacks[@]}" </dev/null 2>>"$dir/battery.log" || rc=$?
  ((rc == 0)) || warn "battery: the attacks on $protocol/$server ended with status $rc (see $dir/battery.log)"
  sent=$EPOCHREALTIME
  stop_group "$pid" 5 || status=$?
  ((status != 137)) || outcome=killed
  battery_note "$out" "$protocol" "$server" sigterm "$outcome" "exit status $status" "$sent" "$EPOCHREALTIME"
}

battery_command() {
  local settings began=$SECONDS protocol server language argv status=0
  local -a vectors=()
  [[ -x "$PYTHON" ]] || die "no $PYTHON: run runner/setup.sh first"
  case " $* " in *" -h "* | *" --help "*) exec "$PYTHON" -m conductor battery "$@" ;; esac
  settings=$("$PYTHON" -m conductor battery "$@") || exit "$?"
  SETTINGS="out ready_timeout expected vectors_run attacks idl"
  EXPECTED="" VECTORS_RUN="" ATTACKS=""
  read_settings "$settings"
  trap '' PIPE
  trap 'stop_all_groups; exit 130' INT TERM
  trap stop_all_groups EXIT
  : >"$OUT/battery.jsonl"
  : >"$OUT/lifecycle.tsv"
  build_languages
  while IFS=$'\t' read -r protocol server language argv; do
    attack_server "$OUT" "$protocol" "$server" "$language" "$argv" "$ATTACKS"
  done <"$OUT/plan/servers.tsv"
  info "battery: $(wc -l <"$OUT/plan/servers.tsv") servers in $((SECONDS - began)) s"
  [[ -z "$VECTORS_RUN" ]] || vectors=(--vectors-run "$VECTORS_RUN" --attach "$VECTORS_RUN")
  "$PYTHON" -m analysis.battery --run "$OUT" --expected "$EXPECTED" "${vectors[@]}" || status=$?
  return "$status"
}
