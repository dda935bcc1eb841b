'use strict';
// The server / client subcommands every family's main.js offers (node node/src/<family>/main.js server|client).
const server = require('./server');
const client = require('./client');

function mainFor(family, start, connect) {
  const [role, ...rest] = process.argv.slice(2);
  if (role === 'server') return server.run(rest, start, [family]);
  if (role === 'client') return client.run(rest, connect, [family]);
  process.stderr.write(`usage: node node/src/<family>/main.js server|client --protocol P [options] (family ${family})\n`);
  process.exit(2);
  return undefined;
}

module.exports = { mainFor };
