'use strict';
// The server process of runner/PROTOCOL.md: start, print the ready line, stop on SIGTERM within 5 s.
// A family supplies start(options) resolving to { port, stop(), facts? }; stop() closes the listener and
// the open connections.
const STOP_DEADLINE_MS = 4000; // the runner kills the process group after 5 s

async function run(argv, start, families) {
  const options = require('./options').resolve(argv, 'server', families);
  quietConsole();
  let server;
  try {
    server = await start(options);
  } catch (e) {
    process.stderr.write(`cannot start the server: ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      process.stderr.write('the server did not stop in time; exiting\n');
      process.exit(0);
    }, STOP_DEADLINE_MS).unref();
    Promise.resolve(server.stop()).then(() => process.exit(0), (e) => {
      process.stderr.write(`stopping: ${e}\n`);
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const ready = { ready: true, port: server.port };
  if (server.facts) ready.facts = server.facts;
  process.stdout.write(`${JSON.stringify(ready)}\n`);
}

// stdout carries only the protocol's lines: whatever a library logs goes to stderr.
function quietConsole() {
  for (const name of ['log', 'info', 'debug']) console[name] = (...args) => console.error(...args);
}

module.exports = { run, quietConsole };
