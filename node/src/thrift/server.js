'use strict';
// The Thrift server: the thrift library's server (net.Server, one event loop) with the generated processor,
// TFramedTransport and TBinaryProtocol or TCompactProtocol as the registry's variant says, TCP_NODELAY on
// accepted sockets, frames over 64 MiB refused (the library's maxLength; the connection is closed). Each
// handler takes the generated arguments and a callback (the generated processor's callback API), answers
// with the reference, BenchError as the declared exception and anything else as a TApplicationException.
const thrift = require('thrift');
const { OPERATIONS } = require('../contract/operations');
const { served } = require('../contract/reference');
const { BenchError } = require('../contract/errors');
const { generated, toWire, fromWire, transportAndProtocol } = require('./mapping');

const MAX_FRAME = 64 * 1024 * 1024;

// The generated processor tells the callback API from the promise one by a handler's arity: a handler
// takes exactly its operation's parameters and then the callback.
const ARITY = [
  (f) => function handle(callback) { f([], callback); },
  (f) => function handle(a, callback) { f([a], callback); },
  (f) => function handle(a, b, callback) { f([a, b], callback); },
];

function handler(bench, types) {
  const out = {};
  for (const operation of OPERATIONS) {
    if (operation.isStream) continue;
    const paramsIn = operation.params.map((p) => fromWire(p.type));
    const resultOut = toWire(operation.returns, types);
    const method = bench[operation.name];
    out[operation.name] = ARITY[operation.params.length]((wire, callback) => {
      let result;
      try {
        const args = wire.map((value, i) => paramsIn[i](value));
        result = resultOut(method(...args));
      } catch (e) {
        if (e instanceof BenchError) callback(new types.BenchError({ code: e.code, message: e.benchMessage }));
        else callback(new thrift.TApplicationException(thrift.TApplicationExceptionType.PROTOCOL_ERROR, `${operation.name}: ${e.message}`));
        return;
      }
      callback(null, result);
    });
  }
  return out;
}

function start(options) {
  const { Bench, types } = generated();
  const { transport, protocol } = transportAndProtocol(thrift, options.registered);
  const server = thrift.createServer(Bench, handler(served(), types), { transport, protocol, maxLength: MAX_FRAME });
  const sockets = new Set();
  server.on('connection', (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('error', (e) => process.stderr.write(`thrift: ${e.message}\n`));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port, exclusive: true }, () => {
      resolve({
        port: server.address().port,
        stop: () => new Promise((done) => {
          server.close(() => done());
          for (const s of sockets) s.destroy();
        }),
      });
    });
  });
}

module.exports = { start };
