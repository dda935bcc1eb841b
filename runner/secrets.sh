#!/usr/bin/env bash
# Makes the key material of a run at set-up: a throw-away CA, a server and a client certificate signed by
# it, a rogue CA with a client certificate of its own (what secured servers must refuse), PKCS#12 bundles
# of each key and certificate, and a UsernameToken credential. Nothing here is ever committed; a fresh
# clone makes its own. Usage: secrets.sh DIR
#
#   ca.crt ca.key                    the CA every client and server trusts
#   server.crt server.key            CN and SAN server.rpcmatrix.test (+ IP 127.0.0.1); PKCS#8 key
#   client.crt client.key            CN client.rpcmatrix.test, clientAuth; PKCS#8 key
#   rogue-ca.crt                     another CA, trusted by nobody
#   rogue-client.crt rogue-client.key  CN client.rpcmatrix.test again, but signed by the rogue CA
#   server.p12 client.p12 rogue-client.p12  key + certificate + issuing CA, password in p12-password,
#                                    legacy PBE (3DES, SHA-1 MAC): the one form Mono, Java and Python all read
#   username-token.json              {"username": ..., "password": ...} for WS-Security UsernameToken
set -euo pipefail

# The name clients verify. Servers may sit in a network namespace at an address no certificate can
# know in advance, so clients pin this name (TLS target name override) instead of the address.
readonly SERVER_NAME="server.rpcmatrix.test"

make_ca() {
  local dir="$1"
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=rpcmatrix test CA" \
    -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
}

readonly CLIENT_NAME="client.rpcmatrix.test"

# make_cert DIR NAME CN EXTENSIONS ISSUER: NAME.crt and NAME.key (PKCS#8) signed by ISSUER.crt/.key.
make_cert() {
  local dir="$1" name="$2" cn="$3" ext="$4" issuer="$5"
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$cn" \
    -keyout "$dir/$name.rsa.key" -out "$dir/$name.csr" 2>/dev/null
  printf '%b' "$ext" > "$dir/$name.ext"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/$issuer.crt" -CAkey "$dir/$issuer.key" -CAcreateserial \
    -days 30 -extfile "$dir/$name.ext" -out "$dir/$name.crt" 2>/dev/null
  # PKCS#8 PEM: what grpc-java, grpcio and most TLS stacks read without extra providers.
  openssl pkcs8 -topk8 -nocrypt -in "$dir/$name.rsa.key" -out "$dir/$name.key"
  rm -f "$dir/$name.csr" "$dir/$name.ext" "$dir/$name.rsa.key" "$dir/$issuer.srl"
}

# make_p12 DIR NAME ISSUER: NAME.p12 with the key, the certificate and its issuer, alias NAME.
make_p12() {
  local dir="$1" name="$2" issuer="$3"
  openssl pkcs12 -export -legacy -name "$name" -in "$dir/$name.crt" -inkey "$dir/$name.key" \
    -certfile "$dir/$issuer.crt" -passout "file:$dir/p12-password" -out "$dir/$name.p12" 2>/dev/null
}

make_all() {
  local dir="$1"
  make_ca "$dir"
  make_cert "$dir" server "$SERVER_NAME" \
    "subjectAltName=DNS:$SERVER_NAME,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\nkeyUsage=digitalSignature,keyEncipherment\n" ca
  make_cert "$dir" client "$CLIENT_NAME" \
    "subjectAltName=DNS:$CLIENT_NAME\nextendedKeyUsage=clientAuth\nkeyUsage=digitalSignature,keyEncipherment\n" ca
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=rpcmatrix rogue CA" \
    -keyout "$dir/rogue-ca.key" -out "$dir/rogue-ca.crt" 2>/dev/null
  make_cert "$dir" rogue-client "$CLIENT_NAME" \
    "subjectAltName=DNS:$CLIENT_NAME\nextendedKeyUsage=clientAuth\nkeyUsage=digitalSignature,keyEncipherment\n" rogue-ca
  openssl rand -hex 12 > "$dir/p12-password"
  make_p12 "$dir" server ca
  make_p12 "$dir" client ca
  make_p12 "$dir" rogue-client rogue-ca
  printf '{"username": "rpcmatrix", "password": "%s"}\n' "$(openssl rand -hex 16)" > "$dir/username-token.json"
}

main() {
  local dir="${1:?usage: secrets.sh DIR}"
  # Kept while valid for another day; certificates live 30 days, so a long-lived machine gets new ones.
  local file complete=1
  for file in ca.crt server.crt server.key client.crt client.key rogue-client.crt rogue-client.key \
    server.p12 client.p12 rogue-client.p12 p12-password username-token.json; do
    [[ -s "$dir/$file" ]] || complete=0
  done
  if ((complete)) && openssl x509 -checkend 86400 -noout -in "$dir/server.crt" >/dev/null; then
    return 0
  fi
  mkdir -p "$dir"
  chmod 700 "$dir"
  make_all "$dir"
}

main "$@"
