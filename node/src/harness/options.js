'use strict';
// The command-line options every server and client shares (runner/PROTOCOL.md), and the registry check
// at start: an unregistered protocol, or one of a family the module does not serve, exits with status 2.
const { loadProtocol, UnknownProtocol } = require('../contract/catalog');

const USAGE = 'usage: <module> server|client --protocol P --host H --port N --idl DIR [--secrets DIR] [--cell DIR]';

class UsageError extends Error {}

function parse(argv, role) {
  const options = { protocol: null, host: null, port: role === 'server' ? 0 : null, idl: null, secrets: null, cell: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const name = flag.startsWith('--') ? flag.slice(2) : null;
    if (name === null || !Object.prototype.hasOwnProperty.call(options, name)) throw new UsageError(`unknown argument ${flag}`);
    if (i + 1 >= argv.length) throw new UsageError(`${flag} needs a value`);
    options[name] = argv[++i];
  }
  for (const required of ['protocol', 'host', 'idl', 'port']) {
    if (options[required] === null) throw new UsageError(`--${required} is required`);
  }
  if (!/^[0-9]+$/.test(String(options.port)) || Number(options.port) > 65535) throw new UsageError(`--port takes 0 to 65535, not ${options.port}`);
  options.port = Number(options.port);
  return options;
}

// The parsed options with `registered`, the protocol's registry entry; exits 2 on a bad command line, an
// unregistered protocol or one of another family.
function resolve(argv, role, families) {
  let options;
  try {
    options = parse(argv, role);
    options.registered = loadProtocol(options.idl, options.protocol);
  } catch (e) {
    if (e instanceof UsageError) process.stderr.write(`${e.message}\n${USAGE}\n`);
    else if (e instanceof UnknownProtocol) process.stderr.write(`${e.message}\n`);
    else process.stderr.write(`cannot read the registry: ${e.message}\n`);
    process.exit(2);
  }
  if (!families.includes(options.registered.family)) {
    process.stderr.write(`protocol '${options.protocol}' is of the family '${options.registered.family}', which this module does not serve (${families.join(', ')})\n`);
    process.exit(2);
  }
  return options;
}

module.exports = { resolve, parse, UsageError };
