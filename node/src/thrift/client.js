'use strict';
// The Thrift client: one thrift Connection (one TCP socket, TCP_NODELAY set by the library) and the
// generated client's callback API, one call at a time. (The 0.17 compiler's promise API calls thrift.Q,
// which the 0.24 library no longer exports.) The library would let calls overlap on the connection (answers
// matched by seqid), but Thrift has no multiplexing: a server answers a connection's calls one after the
// other, in order, so overlapping calls would queue behind each other (pipelining, not concurrency). The adapter says no sharesConnection: the load
// command takes one call in flight per connection.
const thrift = require('thrift');
const { OPERATIONS } = require('../contract/operations');
const { BenchError } = require('../contract/errors');
const { generated, toWire, fromWire, transportAndProtocol } = require('./mapping');

class ThriftClient {
  constructor(connection, client, types) {
    this.connection = connection;
    this.client = client;
    this.types = types;
    this.table = new Map(OPERATIONS.filter((op) => !op.isStream).map((op) => [op.name, {
      paramsOut: op.params.map((p) => toWire(p.type, types)),
      resultIn: fromWire(op.returns),
    }]));
    this.facts = {};
    this.broken = null;
    connection.on('error', (e) => { this.broken = e; });
    connection.on('close', () => { this.broken = this.broken || new Error('the connection closed'); });
  }

  call(operation, args) {
    const entry = this.table.get(operation.name);
    if (!entry) return Promise.reject(new Error(`Thrift has no ${operation.name}`));
    if (this.broken) return Promise.reject(this.broken);
    const wire = args.map((a, i) => entry.paramsOut[i](a));
    return new Promise((resolve, reject) => {
      this.client[operation.name](...wire, (error, result) => {
        if (error) {
          if (error instanceof this.types.BenchError) reject(new BenchError(error.code, error.message));
          else reject(error instanceof Error ? error : new Error(String(error.message || error)));
          return;
        }
        try {
          resolve(entry.resultIn(result));
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  close() {
    this.connection.end();
    if (this.connection.connection) this.connection.connection.destroy();
  }
}

function connect(options) {
  const { Bench, types } = generated();
  const { transport, protocol } = transportAndProtocol(thrift, options.registered);
  return new Promise((resolve, reject) => {
    const connection = thrift.createConnection(options.host, options.port, { transport, protocol, max_attempts: 0, connect_timeout: 10000 });
    connection.once('connect', () => resolve(new ThriftClient(connection, thrift.createClient(Bench, connection), types)));
    connection.once('error', reject);
  });
}

module.exports = { connect };
