#!/usr/bin/env bash
# The battery (issue 23): one server process per protocol and server implementation, started the way cells
# start theirs (the manifest's argv, a process group of its own, the ready line), attacked by
# `python -m rpcmatrix.battery attack` (python/src/rpcmatrix/battery), then stopped with SIGTERM, its stop
# time measured. Results: <out>/battery.jsonl, BATTERY.md (python -m analysis.battery), and the exit status
# says whether a server now accepts what runner/battery-expected.json says it refused.

battery_usage() {
  cat <<'USAGE'
usage: runner/rpcmatrix battery [options]
  --protocol LIST    only these protocols (default: every protocol the battery takes)
  --server LIST      only these server implementations or languages
  --attacks LIST     only these attacks (default: every attack that applies)
  --out DIR          results folder (default: results/<time>-battery)
  --expected FILE    expected outcomes (default: runner/battery-expected.json)
  --skip-build       do not run the languages' build commands
  --ready-timeout S  seconds a server has to print its ready line (default: 60)
  --vectors-run RUN  a matrix run whose security negative tests BATTERY.md collects too
USAGE
}

battery_options() {
  BATTERY_PROTOCOLS="" BATTERY_SERVERS="" BATTERY_ATTACKS="" OUT="" SKIP_BUILD=0 READY_TIMEOUT=60
  BATTERY_EXPECTED="$ROOT/runner/battery-expected.json" BATTERY_VECTORS_RUN=""
  while (($# > 0)); do
    case "$1" in
      --protocol) BATTERY_PROTOCOLS="${2:?--protocol needs a list}" && shift ;;
      --server) BATTERY_SERVERS="${2:?--server needs a list}" && shift ;;
      --attacks) BATTERY_ATTACKS="${2:?--attacks needs a list}" && shift ;;
      --out) OUT="${2:?--out needs a folder}" && shift ;;
      --expected) BATTERY_EXPECTED="${2:?--expected needs a file}" && shift ;;
      --skip-build) SKIP_BUILD=1 ;;
      --vectors-run) BATTERY_VECTORS_RUN="${2:?--vectors-run needs a run folder}" && shift ;;
      --ready-timeout) READY_TIMEOUT="${2:?--ready-timeout needs seconds}" && shift ;;
      -h | --help)
        battery_usage
        exit 0
        ;;
      *) die "unknown battery option '$1' (runner/rpcmatrix battery --help)" ;;
    esac
    shift
  done
  [[ "$READY_TIMEOUT" =~ ^[0-9]+$ ]] || die "--ready-timeout takes whole seconds"
}

# battery_servers MANIFESTS: one JSON line per (protocol, server implementation) to attack: a cell of that
# server, any client; its client side is not used, so only the server's language is built for it.
battery_servers() {
  local manifests="$1" baseline protocols
  baseline=$(jq -r '.baseline // ""' "$IDL_DIR/workloads.json")
  protocols="${BATTERY_PROTOCOLS:-$("$PYTHON" -m rpcmatrix.battery protocols | paste -sd,)}"
  expand_cells "$manifests" "$baseline" "$(cat "$IDL_DIR/protocols.json")" |
    filter_cells "$protocols" "$BATTERY_SERVERS" "" "" |
    jq -sc 'map(select(.server_argv != null and .error == null) | .client_language = .server_language | .unsupported = null)
      | unique_by([.protocol, .server]) | .[]'
}

# attack_server CELL: start, attack, SIGTERM; every outcome goes to battery.jsonl.
attack_server() {
  local cell="$1" protocol server dir rc=0 started stopped
  local -a argv attacks=()
  protocol=$(jq -r .protocol <<<"$cell")
  server=$(jq -r .server <<<"$cell")
  dir="$OUT/servers/$protocol-$server"
  mkdir -p "$dir/cell"
  if [[ -f "$OUT/build/$(jq -r .server_language <<<"$cell").failed" ]]; then
    battery_line "$protocol" "$server" start error "the build failed" null
    return
  fi
  mapfile -t argv < <(cell_argv "$cell" server 127.0.0.1 0 "$dir/cell")
  start_group /dev/null "$dir/server.out" "$dir/server.log" "${argv[@]}"
  local pid="$STARTED_PID"
  if ! wait_ready "$dir/server.out" "$pid" "$READY_TIMEOUT"; then
    battery_line "$protocol" "$server" start error "$READY_ERROR: $(tail -n 3 "$dir/server.log" | tr '\n' ' ')" null
    stop_group "$pid" 5
    return
  fi
  [[ -z "$BATTERY_ATTACKS" ]] || attacks=(--attacks "$BATTERY_ATTACKS")
  info "battery: $protocol/$server on port $READY_PORT"
  "$PYTHON" -m rpcmatrix.battery attack --protocol "$protocol" --host 127.0.0.1 --port "$READY_PORT" \
    --pid "$pid" --server "$server" --idl "$IDL_DIR" --secrets "$SECRETS_DIR" --cell "$dir/cell" --out "$OUT/battery.jsonl" \
    "${attacks[@]}" </dev/null 2>>"$dir/battery.log" || rc=$?
  ((rc == 0)) || warn "battery: the attacks on $protocol/$server ended with status $rc (see $dir/battery.log)"
  started=$EPOCHREALTIME
  stop_group "$pid" 5
  stopped=$EPOCHREALTIME
  local outcome=stopped
  ((STOP_STATUS != 137)) || outcome=killed
  battery_line "$protocol" "$server" sigterm "$outcome" "exit status $STOP_STATUS" \
    "$(awk -v a="$started" -v b="$stopped" 'BEGIN { printf "%.3f", b - a }')"
}

battery_line() {
  jq -nc --arg p "$1" --arg s "$2" --arg a "$3" --arg o "$4" --arg answer "$5" --argjson seconds "$6" \
    '{attack: $a, protocol: $p, server: $s, outcome: $o, answer: $answer, seconds: $seconds}' >>"$OUT/battery.jsonl"
}

battery_command() {
  battery_options "$@"
  IDL_DIR="$ROOT/idl" SECRETS_DIR="$ROOT/secrets" PYTHON="$ROOT/.venv/bin/python"
  [[ -x "$PYTHON" ]] || die "no $PYTHON: run runner/setup.sh first"
  export PYTHONPATH="$ROOT/runner${PYTHONPATH:+:$PYTHONPATH}"
  OUT="${OUT:-$ROOT/results/$(date -u +%Y%m%dT%H%M%SZ)-battery}"
  mkdir -p "$OUT"
  OUT=$(cd "$OUT" && pwd)
  : >"$OUT/battery.jsonl"
  trap '' PIPE
  trap 'stop_all_groups; exit 130' INT TERM
  trap stop_all_groups EXIT
  MANIFESTS_JSON=$(load_manifests "$ROOT")
  CELL_LINES=$(battery_servers "$MANIFESTS_JSON")
  [[ -n "$CELL_LINES" ]] || die "no server matches the selection"
  build_languages
  local cell began=$SECONDS
  while IFS= read -r cell; do
    attack_server "$cell"
  done <<<"$CELL_LINES"
  info "battery: $(wc -l <<<"$CELL_LINES") servers in $((SECONDS - began)) s"
  local -a vectors=()
  local status=0
  [[ -z "$BATTERY_VECTORS_RUN" ]] || vectors=(--vectors-run "$BATTERY_VECTORS_RUN")
  "$PYTHON" -m analysis.battery --run "$OUT" --expected "$BATTERY_EXPECTED" "${vectors[@]}" || status=$?
  if [[ -n "$BATTERY_VECTORS_RUN" ]]; then attach_battery "$BATTERY_VECTORS_RUN"; fi
  return "$status"
}

# attach_battery RUN: the survival matrix into RUN's report (report/hostile-peers.md, and so into what
# `publish` copies), when RUN was made at the commit the battery ran; the report is rendered again.
attach_battery() {
  local run="$1" commit head
  commit=$(jq -r '.run.git_commit // ""' "$run/env.json" 2>/dev/null) || commit=""
  head=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null) || head=""
  if [[ -z "$commit" || "$commit" != "$head" ]]; then
    warn "battery: not attached to $run: that run is of commit ${commit:-unknown}, the battery of ${head:-unknown}"
    return 0
  fi
  cp "$OUT/battery.jsonl" "$run/battery.jsonl"
  # rendered against the known failures the run was made with (its saved options), as run.sh renders it,
  # and with its report.html only if it had one
  local known rc=0
  local -a html=()
  known=$(jq -r 'index("--known-failures") as $i | if $i then .[$i + 1] else empty end' "$run/options.json" 2>/dev/null) ||
    known=""
  if jq -e 'index("--no-html")' "$run/options.json" >/dev/null 2>&1; then html=(--no-html); fi
  "$PYTHON" -m analysis render --run "$run" --known-failures "${known:-$ROOT/runner/known-failures.json}" \
    "${html[@]}" >/dev/null 2>&1 || rc=$?
  # 1: rendered, with unexpected failures of the run's own (its verdict, not the battery's)
  if ((rc > 1)); then
    warn "battery: attached to $run, but its report could not be rendered again (python -m analysis render --run $run)"
    return 0
  fi
  info "battery: attached to $run (report/hostile-peers.md)"
}
