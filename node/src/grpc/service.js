'use strict';
// idl/bench.proto loaded with @grpc/proto-loader (as grpc-node's own examples and benchmarks load theirs),
// and the TLS material of runner/secrets.sh.
const path = require('node:path');
const fs = require('node:fs');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const SERVER_NAME = 'server.rpcmatrix.test';
const PROTO = path.join(__dirname, '..', '..', '..', 'idl', 'bench.proto');

// keepCase: the contract's field names; longs: String (int64 exact); bytes: Buffer; defaults: proto3's
// absent scalars present as their defaults.
const LOADER_OPTIONS = { keepCase: true, longs: String, enums: String, bytes: Buffer, defaults: true, oneofs: true };

function service() {
  const definition = protoLoader.loadSync(PROTO, LOADER_OPTIONS);
  return grpc.loadPackageDefinition(definition).rpcmatrix.bench.Bench;
}

function tls(options) {
  const security = options.registered.variant.security || 'none';
  if (security !== 'tls' && security !== 'none') throw new Error(`unknown gRPC security variant ${security}`);
  if (security === 'tls' && !options.secrets) throw new Error('TLS needs --secrets DIR');
  return security === 'tls';
}

function read(options, name) {
  return fs.readFileSync(path.join(options.secrets, name));
}

// The name a client verifies rather than the address it dials (the server may sit in a namespace at an
// address its certificate cannot know): the secrets folder's server-name when it has one (a server
// elsewhere, runner/README.md#certification), else SERVER_NAME.
function serverName(options) {
  const given = path.join(options.secrets, 'server-name');
  return fs.existsSync(given) ? fs.readFileSync(given, 'utf8').trim() : SERVER_NAME;
}

module.exports = { service, tls, read, serverName };
