#!/usr/bin/env bash
# Generates the Java code for a Thrift IDL file into a build folder; Maven runs it in generate-sources.
# Usage: generate-sources.sh IDL_FILE OUT_DIR COMPILER_VERSION
set -euo pipefail

is_up_to_date() {
  local idl="$1" stamp="$2"
  [[ -f "$stamp" && "$stamp" -nt "$idl" ]]
}

# Generated code and libthrift must come from the same Thrift release.
check_compiler() {
  local wanted="$1" found
  if ! command -v thrift >/dev/null; then
    echo "the thrift compiler is missing (Debian thrift-compiler): run runner/setup.sh" >&2
    return 1
  fi
  found="$(thrift --version)"
  if [[ "$found" != "Thrift version $wanted" ]]; then
    echo "thrift compiler $found does not match libthrift $wanted" >&2
    return 1
  fi
}

main() {
  local idl="$1" out="$2" version="$3"
  local stamp="$out/.generated"
  # Regenerating rewrites every file and so forces a full recompile: skip it when nothing changed.
  if is_up_to_date "$idl" "$stamp"; then
    return 0
  fi
  check_compiler "$version"
  rm -rf "$out"
  mkdir -p "$out"
  # JDK 17 has no javax.annotation.Generated: generate no @Generated annotations at all.
  thrift --gen java:generated_annotations=suppress -out "$out" "$idl"
  touch "$stamp"
}

main "$@"
