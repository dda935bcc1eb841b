'use strict';
// The JSON-RPC 2.0 server: jayson's Server (request checks, batches, notifications, method routing and its
// error objects) behind the shared keep-alive HTTP host, at /jsonrpc, answering with the reference. The
// body is parsed here (json.parse: exact int64) and handed to jayson.Server.call as an object, and
// answers are written by the contract's typed writers: jayson's own HTTP server parses with JSON.parse
// and writes with JSON.stringify, which lose int64 past 2^53 and the sign of -0.0. BenchError is the error
// object {code, message}; arguments that fail the checks are -32602.
const jayson = require('jayson');
const { OPERATIONS } = require('../contract/operations');
const { served } = require('../contract/reference');
const { BenchError, InvalidValue } = require('../contract/errors');
const { serve } = require('../httphost/server');
const json = require('./json');
const { PATH, CONTENT_TYPE, INVALID_PARAMS, reader, writer } = require('./mapping');

// A result already written as JSON text.
class RawJson {
  constructor(text) {
    this.text = text;
  }
}

function method(operation, bench) {
  const readers = operation.params.map((p) => reader(p.type));
  const write = writer(operation.returns);
  const call = bench[operation.name];
  const names = operation.params.map((p) => p.name).join(', ');
  return (given, callback) => {
    const params = given === undefined ? [] : given; // JSON-RPC 2.0 lets a call without parameters leave params out
    if (!Array.isArray(params) || params.length !== readers.length) {
      callback({ code: INVALID_PARAMS, message: `${operation.name} takes ${readers.length} positional params (${names})` });
      return;
    }
    let args;
    try {
      args = params.map((value, i) => readers[i](value));
    } catch (e) {
      callback({ code: INVALID_PARAMS, message: `${operation.name}: ${e.message}` });
      return;
    }
    try {
      callback(null, new RawJson(write(call(...args))));
    } catch (e) {
      if (e instanceof BenchError) callback({ code: e.code, message: e.benchMessage });
      else if (e instanceof InvalidValue) callback({ code: INVALID_PARAMS, message: `${operation.name}: ${e.message}` });
      else callback({ code: -32603, message: `${operation.name}: ${e.message}` });
    }
  };
}

function methods() {
  const bench = served();
  const table = {};
  for (const op of OPERATIONS) if (!op.isStream) table[op.name] = method(op, bench);
  return table;
}

function idText(id) {
  return typeof id === 'bigint' ? id.toString() : JSON.stringify(id === undefined ? null : id);
}

// One response object of jayson's as JSON text.
function responseText(response) {
  if (response.result instanceof RawJson) return `{"jsonrpc":"2.0","id":${idText(response.id)},"result":${response.result.text}}`;
  return JSON.stringify({ ...response, id: response.id === undefined ? null : response.id }, (k, v) => (typeof v === 'bigint' ? Number(v) : v));
}

function answerText(server, text) {
  let request;
  try {
    request = json.parse(text);
  } catch (e) {
    return Promise.resolve(responseText({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${e.message}` } }));
  }
  return new Promise((resolve) => {
    server.call(request, (error, success) => {
      const response = error || success;
      if (response === undefined || (Array.isArray(response) && response.length === 0)) resolve('');
      else if (Array.isArray(response)) resolve(`[${response.map(responseText).join(',')}]`);
      else resolve(responseText(response));
    });
  });
}

async function start(options) {
  const server = new jayson.Server(methods(), { version: 2, useContext: false });
  const gzip = options.registered.gzip();
  const host = await serve(options, async (request, body) => {
    if (request.url !== PATH) return { status: 404, type: 'text/plain; charset=utf-8', body: `no service at ${request.url}\n` };
    const text = await answerText(server, body.toString('utf8'));
    if (!text) return { status: 204, type: CONTENT_TYPE, body: Buffer.alloc(0) };
    return { status: 200, type: CONTENT_TYPE, body: text };
  }, { gzip });
  return { port: host.port, stop: host.stop };
}

module.exports = { start, answerText, methods };
