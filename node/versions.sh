#!/usr/bin/env bash
# Prints one JSON object: the Node.js runtime (its version, V8's, the executable) and the installed version
# of every library node/package.json depends on (read from node_modules, not from the ranges).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

main() {
  cd "$ROOT/node"
  node - <<'JS'
const fs = require('node:fs');
const path = require('node:path');
const versions = {
  node: process.versions.node,
  v8: process.versions.v8,
  node_executable: fs.realpathSync(process.execPath),
  uv: process.versions.uv,
  openssl: process.versions.openssl,
  node_flags: '(none)',
};
const own = JSON.parse(fs.readFileSync('package.json', 'utf8'));
for (const name of Object.keys(own.dependencies || {})) {
  versions[name] = JSON.parse(fs.readFileSync(path.join('node_modules', name, 'package.json'), 'utf8')).version;
}
for (const name of ['protobufjs', 'xml-crypto', '@xmldom/xmldom', 'sax', 'axios']) {
  const file = path.join('node_modules', name, 'package.json');
  if (fs.existsSync(file)) versions[name] = JSON.parse(fs.readFileSync(file, 'utf8')).version;
}
process.stdout.write(`${JSON.stringify(versions)}\n`);
JS
}

main "$@"
