'use strict';
// The gRPC client: one @grpc/grpc-js channel (one HTTP/2 connection) per connect, the generic client
// proto-loader builds, one call at a time; a server stream read to its end and its chunks concatenated.
// grpc-tls trusts ca.crt and verifies the secrets' server name (service.serverName), not the address it dials.
// The channel multiplexes concurrent calls as HTTP/2 streams on its connection (sharesConnection: the load
// command's workers share it), and keeps its subchannel in a pool of its own: grpc-js otherwise shares one
// subchannel, one connection, among every channel of the process with the same target and options, and the
// load command's connections would be one.
const grpc = require('@grpc/grpc-js');
const { OPERATIONS } = require('../contract/operations');
const { concatenate } = require('../harness/conformance');
const { service, tls, read, serverName } = require('./service');
const { table, errorOf } = require('./mapping');

const TABLE = new Map(OPERATIONS.map((op) => [op.name, table(op)]));

class GrpcClient {
  constructor(options) {
    const Bench = service();
    const secure = tls(options);
    const credentials = secure ? grpc.credentials.createSsl(read(options, 'ca.crt')) : grpc.credentials.createInsecure();
    const name = secure ? serverName(options) : null;
    const channelOptions = { 'grpc.use_local_subchannel_pool': 1 };
    if (secure) Object.assign(channelOptions, { 'grpc.ssl_target_name_override': name, 'grpc.default_authority': name });
    this.stub = new Bench(`${options.host}:${options.port}`, credentials, channelOptions);
    this.facts = { tls: secure ? `node:tls (OpenSSL ${process.versions.openssl})` : 'none' };
    this.sharesConnection = true;
  }

  call(operation, args) {
    const entry = TABLE.get(operation.name);
    const request = entry.request(args);
    if (operation.isStream) {
      return new Promise((resolve, reject) => {
        const chunks = [];
        const stream = this.stub[operation.name](request);
        stream.on('data', (message) => chunks.push(entry.result(message)));
        stream.on('error', (e) => reject(errorOf(e)));
        stream.on('end', () => resolve(concatenate(chunks)));
      });
    }
    return new Promise((resolve, reject) => {
      this.stub[operation.name](request, (error, response) => {
        if (error) reject(errorOf(error));
        else {
          try {
            resolve(entry.result(response));
          } catch (e) {
            reject(e);
          }
        }
      });
    });
  }

  close() {
    this.stub.close();
  }
}

async function connect(options) {
  return new GrpcClient(options);
}

module.exports = { connect };
