'use strict';
// The Hessian client: calls written with hessian.js's encoder of the registry's version (hessian1: 1.0,
// hessian2: 2.0) and POSTed to /hessian over one kept-alive connection (httphost/client), replies read with
// its decoder; a fault whose detail is {code, message} is the contract's BenchError.
const { OPERATIONS } = require('../contract/operations');
const { BenchError } = require('../contract/errors');
const { HttpClient } = require('../httphost/client');
const { writer, reader } = require('./mapping');
const wire = require('./wire');

const TABLE = new Map(OPERATIONS.filter((op) => !op.isStream).map((op) => [op.name, {
  writers: op.params.map((p) => writer(p.type)),
  read: reader(op.returns),
}]));

class HessianClient {
  constructor(options) {
    const version = Number(options.registered.variant.version);
    if (version !== 1 && version !== 2) throw new Error(`unknown Hessian version ${options.registered.variant.version}`);
    this.version = version;
    this.http = new HttpClient(options.host, options.port, wire.PATH);
    this.facts = {};
  }

  async call(operation, args) {
    const entry = TABLE.get(operation.name);
    if (!entry) throw new Error(`Hessian has no ${operation.name}`);
    const version = this.version;
    const body = wire.writeCall(wire.encoder(version), version, operation.name, (e) => {
      if (version === 2) e.writeInt(args.length);
      for (let i = 0; i < args.length; i++) entry.writers[i](e, args[i], version);
    });
    const answer = await this.http.post(body, wire.CONTENT_TYPE);
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body.toString('utf8', 0, 200)}`);
    const reply = wire.readReply(answer.body, version, entry.read);
    if (reply.fault) {
      const detail = reply.fault.detail;
      if (detail && Number.isInteger(detail.code) && typeof detail.message === 'string') throw new BenchError(detail.code, detail.message);
      throw new Error(`fault ${reply.fault.code}: ${reply.fault.message}`);
    }
    return reply.value;
  }

  close() {
    this.http.close();
  }
}

async function connect(options) {
  return new HessianClient(options);
}

module.exports = { connect };
