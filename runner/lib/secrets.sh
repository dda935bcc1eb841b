#!/usr/bin/env bash
# Makes the TLS material of a run at set-up: a throw-away CA and a server certificate signed by it.
# Nothing here is ever committed; a fresh clone makes its own. Usage: secrets.sh DIR
set -euo pipefail

# The name clients verify. Servers may sit in a network namespace at an address no certificate can
# know in advance, so clients pin this name (TLS target name override) instead of the address.
readonly SERVER_NAME="server.rpcmatrix.test"

make_ca() {
  local dir="$1"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=rpcmatrix test CA" \
    -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
}

make_server_cert() {
  local dir="$1"
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$SERVER_NAME" \
    -keyout "$dir/server.rsa.key" -out "$dir/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:%s,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' "$SERVER_NAME" > "$dir/server.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
    -days 30 -extfile "$dir/server.ext" -out "$dir/server.crt" 2>/dev/null
  # PKCS#8 PEM: what grpc-java, grpcio and most TLS stacks read without extra providers.
  openssl pkcs8 -topk8 -nocrypt -in "$dir/server.rsa.key" -out "$dir/server.key"
  rm -f "$dir/server.csr" "$dir/server.ext" "$dir/server.rsa.key" "$dir/ca.srl"
}

main() {
  local dir="${1:?usage: secrets.sh DIR}"
  # Kept while valid for another day; certificates live 30 days, so a long-lived machine gets new ones.
  if [[ -s "$dir/server.crt" && -s "$dir/server.key" && -s "$dir/ca.crt" ]] &&
    openssl x509 -checkend 86400 -noout -in "$dir/server.crt" >/dev/null; then
    return 0
  fi
  mkdir -p "$dir"
  chmod 700 "$dir"
  make_ca "$dir"
  make_server_cert "$dir"
}

main "$@"
