'use strict';
// The XML-RPC client: each call written by the xmlrpc library's Serializer (values typed by the mapping,
// UTF-8 declared), POSTed to /RPC2 over one kept-alive connection (httphost/client), its methodResponse
// read by the library's Deserializer (ints kept apart from doubles). A fault is the contract's BenchError.
// The library's own Client is not used: it writes headers and body in two writes and keeps no connection
// alive unless given an agent, which it then shares with every client.
const { Readable } = require('node:stream');
const Serializer = require('xmlrpc/lib/serializer');
const { OPERATIONS } = require('../contract/operations');
const { BenchError } = require('../contract/errors');
const { HttpClient } = require('../httphost/client');
const { PATH, Deserializer, writer, reader, plain } = require('./mapping');

const TABLE = new Map(OPERATIONS.filter((op) => !op.isStream).map((op) => [op.name, {
  writers: op.params.map((p) => writer(p.type)),
  read: reader(op.returns),
}]));

function readResponse(body) {
  return new Promise((resolve, reject) => {
    const deserializer = new Deserializer('utf8');
    deserializer.deserializeMethodResponse(Readable.from([body]), (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

class XmlRpcClient {
  constructor(options) {
    this.http = new HttpClient(options.host, options.port, PATH);
    this.facts = {};
  }

  async call(operation, args) {
    const entry = TABLE.get(operation.name);
    if (!entry) throw new Error(`XML-RPC has no ${operation.name}`);
    const xml = Serializer.serializeMethodCall(operation.name, args.map((a, i) => entry.writers[i](a)), 'UTF-8');
    const answer = await this.http.post(xml, 'text/xml; charset=utf-8');
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body.toString('utf8', 0, 200)}`);
    let result;
    try {
      result = await readResponse(answer.body);
    } catch (e) {
      if (e.faultCode !== undefined) {
        const code = plain(e.faultCode);
        if (Number.isInteger(code) && typeof e.faultString === 'string') throw new BenchError(code, e.faultString);
      }
      throw e;
    }
    return entry.read(result);
  }

  close() {
    this.http.close();
  }
}

async function connect(options) {
  if (options.registered.gzip()) throw new Error('the xmlrpc library has no gzip');
  return new XmlRpcClient(options);
}

module.exports = { connect };
