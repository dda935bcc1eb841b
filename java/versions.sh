#!/usr/bin/env bash
# Prints one JSON object: the Java runtime, the JVM flags of the manifest and every library version
# declared as a <name.version> property in the parent pom or a module's pom (the only place each is written).
set -euo pipefail

JAVA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

java_property() {
    java -XshowSettings:properties -version 2>&1 | sed -n "s/^ *$1 = //p"
}

main() {
    JAVA_VERSION="$(java_property java.version)" \
    JAVA_RUNTIME="$(java_property java.runtime.version)" \
    JAVA_VM="$(java_property java.vm.name)" \
    MAVEN_VERSION="$(mvn -B -v 2>/dev/null | sed -n 's/.*Apache Maven \([0-9.]*\).*/\1/p' | head -n 1)" \
    python3 - "$JAVA_DIR/manifest.json" "$JAVA_DIR"/pom.xml "$JAVA_DIR"/*/pom.xml <<'PYTHON'
import json, os, sys
import xml.etree.ElementTree as ElementTree

manifest, poms = sys.argv[1], sys.argv[2:]
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
versions = {
    "java": os.environ["JAVA_VERSION"],
    "java_runtime": os.environ["JAVA_RUNTIME"],
    "java_vm": os.environ["JAVA_VM"],
    "maven": os.environ["MAVEN_VERSION"],
}
with open(manifest) as f:
    data = json.load(f)
# the flags come once, in the manifest's defaults (runner/PROTOCOL.md), before each server's own argv
server = data.get("defaults", {}).get("argv_prefix", []) + next(i["server"] for i in data["implementations"] if "server" in i)
versions["jvm_flags"] = " ".join(server[1:server.index("-jar")])
for pom in poms:
    for prop in ElementTree.parse(pom).getroot().findall("m:properties/*", ns):
        name = prop.tag.split("}")[1]
        if name.endswith(".version") and not name.startswith(("maven.", "project.")):
            versions[name[: -len(".version")]] = prop.text.strip()
print(json.dumps(versions))
PYTHON
}

main "$@"
