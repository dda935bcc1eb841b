#!/usr/bin/env bash
# Prints one JSON object: the runtime and everything else that shapes the .NET numbers.
set -euo pipefail

mono_version() {
    mono --version | head -n 1 | sed -E 's/^Mono JIT compiler version ([^ ]+).*/\1/'
}

mono_gc() {
    mono --version | sed -n -E 's/^[[:space:]]*GC:[[:space:]]*(.*)$/\1/p' | head -n 1
}

main() {
    python3 - "$(mono_version)" "$(mono_gc)" <<'PY'
import json
import sys
print(json.dumps({
    "mono": sys.argv[1],
    "mono_gc": sys.argv[2],
    "mono_flags_server": "--server",
    "xmlrpc_http": "System.Net.HttpListener / HttpWebRequest (Mono class libraries)",
    "xml": "System.Xml XmlReader / XmlWriter (Mono class libraries)",
    "clock": "System.Diagnostics.Stopwatch, 100 ns ticks",
}))
PY
}

main "$@"
