'use strict';
// The gRPC server: @grpc/grpc-js (pure JavaScript over node:http2) on the one event loop, one handler per
// operation of the table, answered by the reference; grpc-tls with the server certificate and key.
const grpc = require('@grpc/grpc-js');
const { OPERATIONS } = require('../contract/operations');
const { served } = require('../contract/reference');
const { service, tls, read } = require('./service');
const { table, statusOf } = require('./mapping');

function handlers(bench) {
  const out = {};
  for (const operation of OPERATIONS) {
    const entry = table(operation);
    const method = bench[operation.name];
    if (operation.isStream) {
      out[operation.name] = (call) => { // one message per chunk, in order; the client concatenates them
        let chunks;
        try {
          chunks = method(...entry.arguments(call.request));
        } catch (e) {
          call.emit('error', statusOf(e));
          return;
        }
        for (const chunk of chunks) call.write(entry.response(chunk));
        call.end();
      };
    } else {
      out[operation.name] = (call, callback) => {
        let response;
        try {
          response = entry.response(method(...entry.arguments(call.request)));
        } catch (e) {
          callback(statusOf(e));
          return;
        }
        callback(null, response);
      };
    }
  }
  return out;
}

function start(options) {
  const Bench = service();
  const server = new grpc.Server();
  server.addService(Bench.service, handlers(served()));
  const credentials = tls(options)
    ? grpc.ServerCredentials.createSsl(null, [{ private_key: read(options, 'server.key'), cert_chain: read(options, 'server.crt') }], false)
    : grpc.ServerCredentials.createInsecure();
  return new Promise((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, credentials, (error, port) => {
      if (error) {
        reject(error);
        return;
      }

      resolve({
        port,
        facts: { tls: tls(options) ? `node:tls (OpenSSL ${process.versions.openssl})` : 'none' },
        stop: () => new Promise((done) => {
          server.forceShutdown();
          done();
        }),
      });
    });
  });
}

module.exports = { start };
