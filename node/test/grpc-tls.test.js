'use strict';
// grpc-tls clients verify the name the secrets give (server-name, for a server elsewhere) or
// server.rpcmatrix.test, never the address they dial, and need no server key.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { OPERATIONS } = require('../src/contract/operations');
const { SECRETS, options } = require('./helpers');

const PING = OPERATIONS.find((op) => op.name === 'ping');

async function pinged(port, extra) {
  const client = await require('../src/grpc/client').connect(options('grpc-tls', { port, ...extra }));
  try {
    return await client.call(PING, []);
  } finally {
    client.close();
  }
}

test('grpc-tls: the certificate is verified against the name, not the dialled address', async () => {
  const server = await require('../src/grpc/server').start(options('grpc-tls'));
  try {
    // The certificate names server.rpcmatrix.test and 127.0.0.1, not localhost.
    await pinged(server.port, { host: 'localhost' });
  } finally {
    await server.stop();
  }
});

test('grpc-tls: a client folder with ca.crt and server-name verifies that name', async () => {
  const server = await require('../src/grpc/server').start(options('grpc-tls'));
  const given = fs.mkdtempSync(path.join(os.tmpdir(), 'rpcmatrix-node-tls-'));
  try {
    fs.copyFileSync(path.join(SECRETS, 'ca.crt'), path.join(given, 'ca.crt'));
    fs.writeFileSync(path.join(given, 'server-name'), 'another.rpcmatrix.test\n');
    await assert.rejects(pinged(server.port, { secrets: given }));
    fs.writeFileSync(path.join(given, 'server-name'), 'server.rpcmatrix.test\n');
    await pinged(server.port, { secrets: given });
  } finally {
    fs.rmSync(given, { recursive: true, force: true });
    await server.stop();
  }
});
