#!/usr/bin/env bash
# JSON written by the shell on a cell's path without starting jq for each line (about 30 ms of CPU per jq
# start here, a dozen per cell before): strings quoted by json_quote, numbers checked by their callers.

# json_quote VAR STRING: STRING as a JSON string literal, quotes included, in VAR. Backslash, double quote
# and the common control characters are escaped here; a string with any other control character goes
# through jq, which escapes them all.
json_quote() {
  local _s="$2"
  if [[ "$_s" == *[$'\x01'-$'\x08'$'\x0b'$'\x0c'$'\x0e'-$'\x1f'$'\x7f']* ]]; then
    printf -v "$1" '%s' "$(jq -n --arg s "$_s" '$s')"
    return
  fi
  _s=${_s//\\/\\\\}
  _s=${_s//\"/\\\"}
  _s=${_s//$'\n'/\\n}
  _s=${_s//$'\r'/\\r}
  _s=${_s//$'\t'/\\t}
  printf -v "$1" '"%s"' "$_s"
}

# json_lines VAR TEXT: the non-empty lines of TEXT as a JSON array of strings, in VAR.
json_lines() {
  local _line _quoted _out=""
  while IFS= read -r _line; do
    [[ -n "$_line" ]] || continue
    json_quote _quoted "$_line"
    _out+="${_out:+, }$_quoted"
  done <<<"$2"
  printf -v "$1" '[%s]' "$_out"
}
