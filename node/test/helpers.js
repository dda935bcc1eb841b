'use strict';
// Shared by the tests: the repository's idl/ and secrets/, a registry entry, and a server started in process
// with a client adapter connected to it.
const path = require('node:path');
const { loadProtocol } = require('../src/contract/catalog');

const ROOT = path.join(__dirname, '..', '..');
const IDL = path.join(ROOT, 'idl');
const SECRETS = path.join(ROOT, 'secrets');

function options(protocol, extra = {}) {
  return { protocol, host: '127.0.0.1', port: 0, idl: IDL, secrets: SECRETS, cell: null, registered: loadProtocol(IDL, protocol), ...extra };
}

// Starts the family's server for `protocol` and connects its client; returns { server, client, close }.
async function pair(family, protocol) {
  const server = await require(`../src/${family}/server`).start(options(protocol));
  const client = await require(`../src/${family}/client`).connect(options(protocol, { port: server.port }));
  return {
    server, client,
    async close() {
      await client.close();
      await server.stop();
    },
  };
}

module.exports = { ROOT, IDL, SECRETS, options, pair };
