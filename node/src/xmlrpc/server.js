'use strict';
// The XML-RPC server: the xmlrpc library's Deserializer (sax) and Serializer (xmlbuilder) behind the shared
// keep-alive HTTP host at /RPC2 (the library's own Server has no body limit, answers a call it cannot read
// with an empty 404 and sets no keep-alive), answering with the reference. The conventional fault codes:
// -32700 not a methodCall, -32601 unknown method, -32602 invalid parameters, -32603 otherwise; BenchError
// is the fault {faultCode: code, faultString: message}. A DOCTYPE is refused: sax reads an internal DTD's
// entity declarations without expanding them, and nothing in XML-RPC needs one.
const { Readable } = require('node:stream');
const Serializer = require('xmlrpc/lib/serializer');
const { OPERATIONS } = require('../contract/operations');
const { served } = require('../contract/reference');
const { BenchError, InvalidValue } = require('../contract/errors');
const { serve } = require('../httphost/server');
const { PATH, INVALID_PARAMS, Deserializer, writer, reader } = require('./mapping');

const CONTENT_TYPE = 'text/xml; charset=utf-8';

function table(bench) {
  const out = new Map();
  for (const op of OPERATIONS) {
    if (op.isStream) continue;
    out.set(op.name, { readers: op.params.map((p) => reader(p.type)), write: writer(op.returns), method: bench[op.name] });
  }
  return out;
}

function fault(code, message) {
  return Serializer.serializeFault({ faultCode: code, faultString: message });
}

function readCall(body) {
  return new Promise((resolve) => {
    if (/<!DOCTYPE/i.test(body.toString('latin1', 0, Math.min(body.length, 4096)))) {
      resolve({ error: new Error('a document type declaration is not taken') });
      return;
    }
    let settled = false;
    const deserializer = new Deserializer('utf8');
    try {
      deserializer.deserializeMethodCall(Readable.from([body]), (error, method, params) => {
        if (!settled) resolve({ error, method, params });
        settled = true;
      });
    } catch (error) {
      if (!settled) resolve({ error });
      settled = true;
    }
  });
}

async function answer(methods, body) {
  const { error, method, params } = await readCall(body);
  if (error || typeof method !== 'string') return fault(-32700, `not an XML-RPC methodCall: ${error ? error.message : 'no methodName'}`);
  const entry = methods.get(method);
  if (!entry) return fault(-32601, `no method ${method}`);
  let args;
  try {
    if (!Array.isArray(params) || params.length !== entry.readers.length) throw new InvalidValue(`takes ${entry.readers.length} params, ${Array.isArray(params) ? params.length : 0} given`);
    args = params.map((value, i) => entry.readers[i](value));
  } catch (e) {
    return fault(INVALID_PARAMS, `${method}: ${e.message}`);
  }
  try {
    return Serializer.serializeMethodResponse(entry.write(entry.method(...args)));
  } catch (e) {
    if (e instanceof BenchError) return fault(e.code, e.benchMessage);
    return fault(-32603, `${method}: ${e.message}`);
  }
}

async function start(options) {
  if (options.registered.gzip()) throw new Error('the xmlrpc library has no gzip');
  const methods = table(served());
  const host = await serve(options, async (request, body) => {
    if (request.url !== PATH) return { status: 404, type: 'text/plain; charset=utf-8', body: `no service at ${request.url}\n` };
    return { status: 200, type: CONTENT_TYPE, body: await answer(methods, body) };
  });
  return { port: host.port, stop: host.stop };
}

module.exports = { start, answer };
