#!/usr/bin/env bash
# Reads the languages' manifests and expands them into cells. The runner knows no protocol: every
# protocol, command and gap comes from the manifests and the registry idl/protocols.json
# (see runner/PROTOCOL.md).

# All manifests as one JSON array, each with its language folder. Fails with the file's name on bad JSON.
load_manifests() {
  local dir="$1" file
  local -a files=()
  for file in "$dir"/*/manifest.json; do
    [[ -f "$file" ]] || continue
    jq empty "$file" 2>/dev/null || die "$file is not valid JSON"
    jq -e '.language and (.implementations | type == "array")' "$file" >/dev/null ||
      die "$file needs \"language\" and an \"implementations\" array (runner/PROTOCOL.md)"
    files+=("$file")
  done
  ((${#files[@]} > 0)) || die "no */manifest.json under $dir"
  jq -s '.' "${files[@]}"
}

# The cells, one compact JSON object per line. Every implementation (a language's manifest entry, named
# <language>-<name> when it has a name) is crossed with every other of the same protocol: those with a
# client are the rows, those with a server the columns. A language with no entry for a protocol still
# gets a row and a column, unsupported: a gap is a row with a reason, never a missing row. A protocol
# missing from the registry, or a declared role without its thread model, makes its cells errors.
# The baseline protocol comes first, then the protocols in registry order.
expand_cells() {
  local manifests="$1" baseline="$2" registry="$3"
  jq -c --arg baseline "$baseline" --argjson registry "$registry" '
    . as $ms
    | [$ms[].language] as $langs
    | [$ms[] as $m | $m.implementations[] as $e | ($e.protocols // [$e.protocol])[] as $p
       | {language: $m.language, protocol: $p, entry: $e,
          id: (if $e.name then "\($m.language)-\($e.name)" else $m.language end)}] as $impls
    | ($registry.protocols | keys_unsorted) as $known
    | ([$impls[].protocol] | unique) as $named
    | (reduce ([$baseline] + $known + $named)[] as $p ([];
         if (index($p) == null) and (($named | index($p)) != null) then . + [$p] else . end)) as $protocols
    | def unregistered($p): if ($known | index($p)) == null then "protocol \u0027\($p)\u0027 is not in idl/protocols.json" else null end;
      def side($i; $role):
        $i.entry as $e
        | if $e == null then {reason: "not implemented in \($i.language)"}
          elif $e.unsupported then {reason: $e.unsupported}
          elif $e["\($role)_unsupported"] then {reason: $e["\($role)_unsupported"]}
          elif ($e[$role] | type) != "array" then {reason: "\($i.id) declares no \($role) for \($i.protocol)"}
          elif ($e.thread_model[$role] // "") == "" then {error: "the manifest of \($i.language) gives no thread_model.\($role) for \($i.protocol)"}
          else {argv: $e[$role], library: ($e.library // ""), settings: ($e.settings // ""),
                notes: ($e.notes // []), thread_model: $e.thread_model[$role], warmup_s: ($e.warmup_s // 0),
                peer_warmup_s: ($e.peer_warmup_s // 0)}
          end;
      def takes_part($e; $role): $e.unsupported or $e["\($role)_unsupported"] or (($e[$role] | type) == "array");
      def members($p; $role):
        [$impls[] | select(.protocol == $p and takes_part(.entry; $role))]
        + [$langs[] as $l | select([$impls[] | select(.protocol == $p and .language == $l)] | length == 0)
           | {language: $l, protocol: $p, entry: null, id: $l}];
    $protocols[] as $p
    | members($p; "client")[] as $c | members($p; "server")[] as $s
    | side($s; "server") as $srv | side($c; "client") as $cli
    | {name: "\($p)/\($c.id)→\($s.id)", slug: "\($p)__\($c.id)-to-\($s.id)", protocol: $p,
       client: $c.id, server: $s.id, client_language: $c.language, server_language: $s.language,
       server_argv: $srv.argv, client_argv: $cli.argv,
       server_library: $srv.library, client_library: $cli.library,
       server_settings: $srv.settings, client_settings: $cli.settings,
       server_thread_model: $srv.thread_model, client_thread_model: $cli.thread_model,
       warmup_s: ([$srv.warmup_s // 0, $cli.warmup_s // 0] | max),
       server_warmup_s: ($srv.warmup_s // 0), client_warmup_s: ($cli.warmup_s // 0),
       server_peer_warmup_s: ($srv.peer_warmup_s // 0), client_peer_warmup_s: ($cli.peer_warmup_s // 0),
       server_notes: ($srv.notes // []), client_notes: ($cli.notes // []),
       error: ([unregistered($p), $srv.error, $cli.error] | map(select(. != null)) | unique
               | if length > 0 then join("; ") else null end),
       unsupported: ([$srv.reason, $cli.reason] | map(select(. != null)) | unique
                     | if length > 0 then join("; ") else null end)}
  ' <<<"$manifests"
}

# Keeps the cells whose protocol, server and client are in the comma-separated lists (empty = all). A
# server or client list may name implementations (python-aio) or languages (python: all of its own).
filter_cells() {
  local protocols="$1" servers="$2" clients="$3" cell_names="$4"
  jq -c --arg p "$protocols" --arg s "$servers" --arg c "$clients" --arg n "$cell_names" '
    def pick($list; $v): ($list == "") or (($list | split(",")) | index($v) != null);
    select(pick($p; .protocol) and (pick($s; .server) or pick($s; .server_language))
           and (pick($c; .client) or pick($c; .client_language)) and pick($n; .name))'
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
