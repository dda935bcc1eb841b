'use strict';
// The JSON-RPC 2.0 client: each call a request object with positional params and an incrementing numeric
// id, written by the contract's typed writers and POSTed over one kept-alive connection (httphost/client),
// its answer parsed exactly (json.parse) and checked: the same id, "jsonrpc": "2.0", a result or an
// error object. jayson's own clients are not used: they parse with JSON.parse, losing int64 past 2^53.
const { OPERATIONS } = require('../contract/operations');
const { BenchError } = require('../contract/errors');
const { HttpClient } = require('../httphost/client');
const json = require('./json');
const { PATH, CONTENT_TYPE, reader, writer } = require('./mapping');

const TABLE = new Map(OPERATIONS.filter((op) => !op.isStream).map((op) => [op.name, {
  head: `,"method":${JSON.stringify(op.name)},"params":[`,
  writers: op.params.map((p) => writer(p.type)),
  read: reader(op.returns),
}]));

class JsonRpcClient {
  constructor(options) {
    this.http = new HttpClient(options.host, options.port, PATH, { gzip: options.registered.gzip() });
    this.id = 0;
    this.facts = {};
  }

  async call(operation, args) {
    const entry = TABLE.get(operation.name);
    if (!entry) throw new Error(`JSON-RPC has no ${operation.name}`);
    const id = ++this.id;
    let text = `{"jsonrpc":"2.0","id":${id}${entry.head}`;
    for (let i = 0; i < args.length; i++) text += (i ? ',' : '') + entry.writers[i](args[i]);
    text += ']}';
    const answer = await this.http.post(text, CONTENT_TYPE);
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body.toString('utf8', 0, 200)}`);
    const response = json.parse(answer.body.toString('utf8'));
    if (response === null || typeof response !== 'object' || response.jsonrpc !== '2.0') throw new Error('not a JSON-RPC 2.0 response');
    if (response.id !== id) throw new Error(`the response's id is ${JSON.stringify(String(response.id))}, the request's ${id}`);
    if (response.error !== undefined) {
      const { code, message } = response.error || {};
      if (!Number.isInteger(code) || typeof message !== 'string') throw new Error(`a malformed error object: ${JSON.stringify(response.error)}`);
      throw new BenchError(code, message);
    }
    if (!('result' in response)) throw new Error('a response with neither result nor error');
    return entry.read(response.result);
  }

  close() {
    this.http.close();
  }
}

async function connect(options) {
  return new JsonRpcClient(options);
}

module.exports = { connect };
