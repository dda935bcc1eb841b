#!/usr/bin/env bash
# One run from options to report: parse, expand and filter the cells, build, set up the namespace,
# run each cell with progress on the terminal, and render results even when interrupted.

parse_options() {
  PROFILE="default" PROTOCOLS="" SERVERS="" CLIENTS="" CELLS="" OUT="" USE_NETNS=1 FIXED_PORT=0
  READY_TIMEOUT=60 COMMAND_TIMEOUT="" KNOWN_FAILURES="$ROOT/runner/known-failures.json" SKIP_BUILD=0
  MANIFEST_DIR="$ROOT" IDL_DIR="$ROOT/idl" POSITIONAL=()
  while (($# > 0)); do
    case "$1" in
      --profile) PROFILE="${2:?--profile needs a name}" && shift ;;
      --protocol) PROTOCOLS="${2:?--protocol needs a list}" && shift ;;
      --server) SERVERS="${2:?--server needs a list}" && shift ;;
      --client) CLIENTS="${2:?--client needs a list}" && shift ;;
      --cell) CELLS="${CELLS:+$CELLS,}${2:?--cell needs a name}" && shift ;;
      --out) OUT="${2:?--out needs a folder}" && shift ;;
      --no-netns) USE_NETNS=0 ;;
      --port) FIXED_PORT="${2:?--port needs a number}" && shift ;;
      --ready-timeout) READY_TIMEOUT="${2:?--ready-timeout needs seconds}" && shift ;;
      --command-timeout) COMMAND_TIMEOUT="${2:?--command-timeout needs seconds}" && shift ;;
      --known-failures) KNOWN_FAILURES="${2:?--known-failures needs a file}" && shift ;;
      --skip-build) SKIP_BUILD=1 ;;
      --manifests) MANIFEST_DIR="${2:?--manifests needs a folder}" && shift ;;
      --idl) IDL_DIR="${2:?--idl needs a folder}" && shift ;;
      -*) die "unknown option '$1' (see runner/rpcmatrix --help)" ;;
      *) POSITIONAL+=("$1") ;;
    esac
    shift
  done
  [[ "$FIXED_PORT" =~ ^[0-9]+$ ]] || die "--port takes a number, not '$FIXED_PORT'"
  [[ "$READY_TIMEOUT" =~ ^[0-9]+$ ]] || die "--ready-timeout takes whole seconds"
  [[ "$COMMAND_TIMEOUT" =~ ^[0-9]*$ ]] || die "--command-timeout takes whole seconds"
  IDL_DIR=$(cd "$IDL_DIR" && pwd) || die "no contract folder $IDL_DIR"
  SECRETS_DIR="$ROOT/secrets"
  PYTHON="$ROOT/.venv/bin/python"
  export PYTHONPATH="$ROOT/runner${PYTHONPATH:+:$PYTHONPATH}"
}

# The selected cells, one JSON line each, in CELL_LINES; unknown names are reported, not fatal.
select_cells() {
  local manifests baseline all known
  manifests=$(load_manifests "$MANIFEST_DIR")
  baseline=$(jq -r '.baseline // ""' "$IDL_DIR/workloads.json")
  all=$(expand_cells "$manifests" "$baseline")
  known=$(jq -r '.protocol' <<<"$all" | sort -u)
  check_names protocol "$PROTOCOLS" "$known" || true
  known=$(jq -r '.server' <<<"$all" | sort -u)
  check_names language "$SERVERS" "$known" || true
  check_names language "$CLIENTS" "$known" || true
  known=$(jq -r '.name' <<<"$all")
  check_names cell "$CELLS" "$known" || true
  CELL_LINES=$(filter_cells "$PROTOCOLS" "$SERVERS" "$CLIENTS" "$CELLS" <<<"$all")
  [[ -n "$CELL_LINES" ]] || die "no cell matches the selection"
  MANIFESTS_JSON="$manifests"
}

list_cells() {
  jq -r '"\(.name)\t\(if .unsupported then "unsupported: \(.unsupported)" else "runs" end)"' <<<"$CELL_LINES"
}

print_commands() {
  local name="$1" cell host="127.0.0.1"
  cell=$(jq -c --arg n "$name" 'select(.name == $n)' <<<"$CELL_LINES" | head -n 1)
  [[ -n "$cell" ]] || die "no cell named '$name' (runner/rpcmatrix cells lists them)"
  [[ "$(jq -r '.unsupported // ""' <<<"$cell")" == "" ]] || die "$name is unsupported: $(jq -r .unsupported <<<"$cell")"
  printf '# %s — run from %s\n# 1. the server (port 0: the OS picks one; it prints {"ready": true, "port": N}):\n' "$name" "$ROOT"
  cell_argv "$cell" server "$host" "$FIXED_PORT" | jq -Rrs 'split("\n")[:-1] | map(@sh) | join(" ")'
  printf '# 2. the client, with N from the ready line; it reads commands on stdin (runner/PROTOCOL.md):\n'
  printf "printf '%%s\\\\n' '{\"cmd\": \"connect\"}' '{\"cmd\": \"vectors\", \"protocol\": \"%s\"}' '{\"cmd\": \"quit\"}' | " "$(jq -r .protocol <<<"$cell")"
  cell_argv "$cell" client "$host" "N" | jq -Rrs 'split("\n")[:-1] | map(@sh) | join(" ")'
}

# Builds each language the selected cells use, once; a failure marks that language's cells.
build_languages() {
  local lang argv_json
  local -a argv
  mkdir -p "$OUT/build"
  for lang in $(jq -r '.server, .client' <<<"$(jq -c 'select(.unsupported == null)' <<<"$CELL_LINES")" | sort -u); do
    argv_json=$(jq -c --arg l "$lang" '.[] | select(.language == $l) | .build // empty' <<<"$MANIFESTS_JSON")
    [[ -n "$argv_json" && "$SKIP_BUILD" == 0 ]] || continue
    mapfile -t argv < <(jq -r '.[]' <<<"$argv_json")
    info "building $lang: ${argv[*]}"
    if ! (cd "$ROOT" && "${argv[@]}") >"$OUT/build/$lang.log" 2>&1; then
      warn "build of $lang failed; its cells are marked error (see $OUT/build/$lang.log)"
      touch "$OUT/build/$lang.failed"
    fi
  done
}

cleanup() {
  trap - INT TERM
  if [[ -n "${CLIENT_PID:-}" && -n "${CLIENT_IN:-}" ]]; then
    exec {CLIENT_IN}>&- {CLIENT_OUT}<&- 2>/dev/null || true
  fi
  stop_all_groups
  netns_destroy
  cgroup_destroy
}

on_interrupt() {
  warn "interrupted: stopping processes, keeping the records written so far"
  cleanup
  render_results || true
  exit 130
}

render_results() {
  "$PYTHON" -m analysis render --run "$OUT" --known-failures "$KNOWN_FAILURES"
}

setup_network() {
  local reason
  NETNS_LOG="$OUT/netns.log"
  if ((USE_NETNS == 0)); then
    WIRE_NOTE="not measured: --no-netns (client and server on 127.0.0.1)"
    return
  fi
  reason=$(netns_unavailable_reason)
  if [[ -z "$reason" ]] && netns_create "$(printf '%05d' $(($$ % 100000)))"; then
    WIRE_NOTE="$NETNS_NOTE; counted on the client's veth: Ethernet frames (14-byte header + IP + TCP + payload), offloads ${NETNS_OFFLOADS:-off}"
  else
    WIRE_NOTE="not measured: ${reason:-$NETNS_NOTE} (client and server on 127.0.0.1)"
    warn "$WIRE_NOTE"
  fi
}

run_matrix() {
  local total index=0 started elapsed left cell name
  total=$(wc -l <<<"$CELL_LINES")
  started=$SECONDS
  while IFS= read -r cell; do
    index=$((index + 1))
    name=$(jq -r .name <<<"$cell")
    printf '[%d/%d] %s ' "$index" "$total" "$name" >&2
    run_cell "$cell" </dev/null
    elapsed=$((SECONDS - started))
    left=$((elapsed * (total - index) / index))
    printf '%s (about %s left)\n' "$("$PYTHON" -m analysis cell-summary --run "$OUT" --cell "$name" 2>/dev/null || echo '?')" \
      "$(human_seconds "$left")" >&2
  done <<<"$CELL_LINES"
}

run_command() {
  local command="$1"
  shift
  parse_options "$@"
  select_cells
  case "$command" in
    cells)
      list_cells
      return
      ;;
    commands)
      [[ ${#POSITIONAL[@]} -eq 1 ]] || die "commands takes one cell name, e.g. 'xmlrpc/java→python'"
      print_commands "${POSITIONAL[0]}"
      return
      ;;
  esac
  [[ -x "$PYTHON" ]] || die "no $PYTHON: run runner/setup.sh first"
  local run_id
  run_id="$(date -u +%Y%m%dT%H%M%SZ)-$PROFILE"
  OUT="${OUT:-$ROOT/results/$run_id}"
  mkdir -p "$OUT/cells" "$OUT/plan"
  OUT=$(cd "$OUT" && pwd)
  trap '' PIPE
  trap on_interrupt INT TERM
  trap cleanup EXIT
  info "run folder: $OUT"
  build_languages
  setup_network
  local cpu_note="utime + stime from /proc/<pid>/stat (10 ms ticks), summed over each process group"
  if cgroup_create "$(printf '%05d' $(($$ % 100000)))"; then
    cpu_note="usage of a cgroup ($CGROUP_KIND) per side, holding the process group: every thread and child, exited ones included, to the microsecond"
  fi
  "$PYTHON" -m analysis prepare --run "$OUT" --idl "$IDL_DIR" --profile "$PROFILE" --wire-note "$WIRE_NOTE" \
    --cpu-note "$cpu_note" \
    --manifests "$MANIFEST_DIR" --cells <(printf '%s\n' "$CELL_LINES") || die "could not prepare the run (see above)"
  COMMAND_TIMEOUT="${COMMAND_TIMEOUT:-$(jq -r '.command_timeout_s' "$OUT/plan/profile.json")}"
  CELL_WARMUP_S=$(jq -r '.cell_warmup_s // 0' "$OUT/plan/profile.json")
  run_matrix
  cleanup
  local status=0
  render_results || status=$?
  if [[ "$OUT" == "$ROOT/results/"* ]]; then
    ln -sfn "$(basename "$OUT")" "$ROOT/results/latest"
  fi
  info "report: $OUT/REPORT.md"
  return "$status"
}
