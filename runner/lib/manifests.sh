#!/usr/bin/env bash
# Reads the languages' manifests and expands them into cells. The runner knows no protocol: every
# protocol, command and gap comes from the manifests (see runner/PROTOCOL.md).

# All manifests as one JSON array, each with its language folder. Fails with the file's name on bad JSON.
load_manifests() {
  local dir="$1" file
  local -a files=()
  for file in "$dir"/*/manifest.json; do
    [[ -f "$file" ]] || continue
    jq empty "$file" 2>/dev/null || die "$file is not valid JSON"
    jq -e '.language and (.implementations | type == "array")' "$file" >/dev/null \
      || die "$file needs \"language\" and an \"implementations\" array (runner/PROTOCOL.md)"
    files+=("$file")
  done
  ((${#files[@]} > 0)) || die "no */manifest.json under $dir"
  jq -s '.' "${files[@]}"
}

# The cells, one compact JSON object per line: every client language × every server language for every
# protocol any language declares. A side that cannot take part becomes an "unsupported" reason, so a gap
# is a row with a reason, never a missing row. The baseline protocol comes first, then by name.
expand_cells() {
  local manifests="$1" baseline="$2"
  jq -c --arg baseline "$baseline" '
    . as $ms
    | [$ms[].language] as $langs
    | ([$ms[].implementations[].protocol] | unique
       | (map(select(. == $baseline)) + map(select(. != $baseline)))) as $protocols
    | def side($lang; $p; $role):
        ([$ms[] | select(.language == $lang) | .implementations[] | select(.protocol == $p)] | first) as $e
        | if $e == null then {reason: "not implemented in \($lang)"}
          elif $e.unsupported then {reason: $e.unsupported}
          elif $e["\($role)_unsupported"] then {reason: $e["\($role)_unsupported"]}
          elif ($e[$role] | type) != "array" then {reason: "\($lang) declares no \($role) for \($p)"}
          else {argv: $e[$role], library: ($e.library // ""), settings: ($e.settings // ""), notes: ($e.notes // [])}
          end;
    $protocols[] as $p | $langs[] as $c | $langs[] as $s
    | side($s; $p; "server") as $srv | side($c; $p; "client") as $cli
    | {name: "\($p)/\($c)→\($s)", slug: "\($p)__\($c)-to-\($s)", protocol: $p, client: $c, server: $s,
       server_argv: $srv.argv, client_argv: $cli.argv,
       server_library: $srv.library, client_library: $cli.library,
       server_settings: $srv.settings, client_settings: $cli.settings,
       server_notes: ($srv.notes // []), client_notes: ($cli.notes // []),
       unsupported: ([$srv.reason, $cli.reason] | map(select(. != null)) | unique | if length > 0 then join("; ") else null end)}
  ' <<<"$manifests"
}

# Keeps the cells whose protocol, server and client are in the comma-separated lists (empty = all).
filter_cells() {
  local protocols="$1" servers="$2" clients="$3" cell_names="$4"
  jq -c --arg p "$protocols" --arg s "$servers" --arg c "$clients" --arg n "$cell_names" '
    def pick($list; $v): ($list == "") or (($list | split(",")) | index($v) != null);
    select(pick($p; .protocol) and pick($s; .server) and pick($c; .client) and pick($n; .name))'
}

# Complains about names in a comma-separated list that no manifest knows; prints the known ones.
check_names() {
  local what="$1" list="$2" known="$3" name bad=0
  [[ -n "$list" ]] || return 0
  local IFS=','
  for name in $list; do
    if ! grep -qxF -- "$name" <<<"$known"; then
      warn "unknown $what '$name'; known: $(paste -sd' ' <<<"$known")"
      bad=1
    fi
  done
  return "$bad"
}

# The argv of a cell's role with placeholders filled, one argument per line (arguments never contain
# newlines). Placeholders: {host} {port} {idl} {secrets} {root}.
cell_argv() {
  local cell="$1" role="$2" host="$3" port="$4"
  jq -r --arg role "$role" --arg host "$host" --arg port "$port" \
    --arg idl "$IDL_DIR" --arg secrets "$SECRETS_DIR" --arg root "$ROOT" '
    .["\($role)_argv"][]
    | gsub("\\{host\\}"; $host) | gsub("\\{port\\}"; $port) | gsub("\\{idl\\}"; $idl)
    | gsub("\\{secrets\\}"; $secrets) | gsub("\\{root\\}"; $root)' <<<"$cell"
}
