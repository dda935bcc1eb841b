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

# The argv of a cell's role with placeholders filled, one argument per line (arguments never contain
# newlines). Placeholders: {protocol} {host} {port} {idl} {secrets} {root} {cell} (a scratch folder that
# the cell's server and client share, e.g. for a stringified object reference).
cell_argv() {
  local cell="$1" role="$2" host="$3" port="$4" scratch="${5:-}"
  jq -r --arg role "$role" --arg host "$host" --arg port "$port" \
    --arg idl "$IDL_DIR" --arg secrets "$SECRETS_DIR" --arg root "$ROOT" --arg scratch "$scratch" '
    .protocol as $protocol
    | .["\($role)_argv"][]
    | gsub("\\{protocol\\}"; $protocol) | gsub("\\{host\\}"; $host) | gsub("\\{port\\}"; $port)
    | gsub("\\{idl\\}"; $idl) | gsub("\\{secrets\\}"; $secrets) | gsub("\\{root\\}"; $root)
    | gsub("\\{cell\\}"; $scratch)' <<<"$cell"
}
