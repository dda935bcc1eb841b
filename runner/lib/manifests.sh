#!/usr/bin/env bash
# The languages' manifests expanded into cells, by the analysis, and each cell's argv. The runner knows no
# protocol: every protocol, command and gap comes from the manifests and the registry idl/protocols.json
# (see runner/PROTOCOL.md).

# The plan of cells lives in Python (runner/analysis/plan.py: expand_cells, select_cells, opt_in_left_out;
# the manifests' loader with their defaults: runner/analysis/manifests.py): every implementation crossed
# with every other of the same protocol, gaps as unsupported rows with a reason, the selection and the
# opt-in protocols. The shell reads what it wrote and only runs processes.

# plan_cells DIR: writes DIR/all.jsonl, DIR/cells.jsonl (the selection), DIR/left-out.json and
# DIR/manifests.json (resolved) for the options parsed; warnings and what was left out go to stderr.
plan_cells() {
  "$PYTHON" -m analysis cells --out "$1" --manifests "$MANIFEST_DIR" --idl "$IDL_DIR" --profile "$PROFILE" \
    --protocol "$PROTOCOLS" --server "$SERVERS" --client "$CLIENTS" --cell "$CELLS" || exit 2
}

# The battery (battery.sh) reads the plan through the three functions below.

# All manifests of a folder, resolved (their defaults applied), as one JSON array.
load_manifests() {
  "$PYTHON" -m analysis expand --manifests "$1" --print-manifests || exit 2
}

# expand_cells MANIFESTS BASELINE REGISTRY: every cell of the manifests (a JSON array), one JSON line each.
expand_cells() {
  "$PYTHON" -m analysis expand --baseline "$2" --registry <(printf '%s\n' "$3") <<<"$1"
}

# filter_cells PROTOCOLS SERVERS CLIENTS CELLS: the cells on stdin in the comma-separated lists (empty = all).
filter_cells() {
  "$PYTHON" -m analysis expand --protocol "$1" --server "$2" --client "$3" --cell "$4" --select-only
}

# read_cell CELL_JSON: the cell's fields into CELL_NAME, CELL_SLUG, CELL_PROTOCOL, CELL_SERVER, CELL_CLIENT,
# CELL_SERVER_LANGUAGE, CELL_CLIENT_LANGUAGE, CELL_UNSUPPORTED, CELL_ERROR, each role's JIT threads and warm-up
# bound (CELL_SERVER_JIT, CELL_CLIENT_JIT, CELL_SERVER_WARMUP_MAX, CELL_CLIENT_WARMUP_MAX) and its roles' argv
# templates (CELL_SERVER_ARGV, CELL_CLIENT_ARGV: arrays), with one jq for all; a cell read last time is not read
# again.
CELL_JSON=""
read_cell() {
  [[ "$1" != "$CELL_JSON" ]] || return 0
  local server_argv client_argv
  IFS=$'\x1f' read -r -d '' CELL_NAME CELL_SLUG CELL_PROTOCOL CELL_SERVER CELL_CLIENT CELL_SERVER_LANGUAGE \
    CELL_CLIENT_LANGUAGE CELL_UNSUPPORTED CELL_ERROR CELL_SERVER_JIT CELL_CLIENT_JIT CELL_SERVER_WARMUP_MAX \
    CELL_CLIENT_WARMUP_MAX server_argv client_argv < <(jq -j '[.name, .slug, .protocol,
      .server, .client, .server_language, .client_language, (.unsupported // ""), (.error // ""),
      (.server_jit_threads // ""), (.client_jit_threads // ""), (.server_warmup_max_s // 0 | tostring),
      (.client_warmup_max_s // 0 | tostring),
      ((.server_argv // []) | join("\u001e")), ((.client_argv // []) | join("\u001e"))] | join("\u001f")' <<<"$1") || true
  CELL_SERVER_ARGV=() CELL_CLIENT_ARGV=()
  if [[ -n "$server_argv" ]]; then IFS=$'\x1e' read -r -d '' -a CELL_SERVER_ARGV <<<"$server_argv" || true; fi
  if [[ -n "$client_argv" ]]; then IFS=$'\x1e' read -r -d '' -a CELL_CLIENT_ARGV <<<"$client_argv" || true; fi
  # the here-string's newline ends the last argument
  if ((${#CELL_SERVER_ARGV[@]} > 0)); then CELL_SERVER_ARGV[-1]="${CELL_SERVER_ARGV[-1]%$'\n'}"; fi
  if ((${#CELL_CLIENT_ARGV[@]} > 0)); then CELL_CLIENT_ARGV[-1]="${CELL_CLIENT_ARGV[-1]%$'\n'}"; fi
  CELL_JSON="$1"
}

# The argv of a cell's role with placeholders filled, one argument per line (arguments never contain
# newlines). Placeholders: {protocol} {host} {port} {idl} {secrets} {root} {cell} (a scratch folder that
# the cell's server and client share, e.g. for a stringified object reference).
cell_argv() {
  local role="$2" host="$3" port="$4" scratch="${5:-}" arg
  local -a template
  read_cell "$1"
  if [[ "$role" == server ]]; then template=("${CELL_SERVER_ARGV[@]}"); else template=("${CELL_CLIENT_ARGV[@]}"); fi
  # the replacements quoted: bash 5.2 would read a & in them as the matched text
  for arg in "${template[@]}"; do
    arg="${arg//\{protocol\}/"$CELL_PROTOCOL"}"
    arg="${arg//\{host\}/"$host"}"
    arg="${arg//\{port\}/"$port"}"
    arg="${arg//\{idl\}/"${PROCESS_IDL_DIR:-$IDL_DIR}"}"
    arg="${arg//\{secrets\}/"$SECRETS_DIR"}"
    arg="${arg//\{root\}/"$ROOT"}"
    arg="${arg//\{cell\}/"$scratch"}"
    printf '%s\n' "$arg"
  done
}
