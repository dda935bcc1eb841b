'use strict';
// The Hessian server (hessian1, hessian2): the shared keep-alive HTTP host at /hessian, each POST body read
// with hessian.js's decoder of the call's version, answered in that version with its encoder. BenchError is
// a ServiceException fault with the detail map {code, message}; arguments that fail the checks are a fault
// whose detail carries -32602.
const { OPERATIONS } = require('../contract/operations');
const { served } = require('../contract/reference');
const { BenchError } = require('../contract/errors');
const { serve } = require('../httphost/server');
const { writer, reader, INVALID_PARAMS } = require('./mapping');
const wire = require('./wire');

function table(bench) {
  const out = new Map();
  for (const op of OPERATIONS) {
    if (op.isStream) continue;
    out.set(op.name, { op, readers: op.params.map((p) => reader(p.type)), write: writer(op.returns), method: bench[op.name] });
  }
  return out;
}

function answer(methods, body) {
  let call;
  try {
    call = wire.readCall(body);
  } catch (e) {
    return wire.writeFault(wire.encoder(body[0] === 0x63 ? 1 : 2), body[0] === 0x63 ? 1 : 2, 'ProtocolException', e.message, { code: -32700, message: e.message });
  }
  const { version, method, decoder } = call;
  const e = wire.encoder(version);
  const entry = methods.get(method);
  if (!entry) return wire.writeFault(e, version, 'NoSuchMethodException', `no method ${method}`, { code: -32601, message: `no method ${method}` });
  let args;
  try {
    if (call.argc !== null && call.argc !== entry.readers.length) throw new Error(`${method} takes ${entry.readers.length} arguments, ${call.argc} given`);
    args = entry.readers.map((read) => read(decoder));
    if (version === 1 && decoder.byteBuffer.get() !== 0x7a) throw new Error(`${method} takes ${entry.readers.length} arguments`);
  } catch (error) {
    const message = `${method}: ${error.message}`;
    return wire.writeFault(e, version, 'IllegalArgumentException', message, { code: INVALID_PARAMS, message });
  }
  let result;
  try {
    result = entry.method(...args);
  } catch (error) {
    if (error instanceof BenchError) return wire.writeFault(e, version, 'ServiceException', error.benchMessage, { code: error.code, message: error.benchMessage });
    return wire.writeFault(e, version, 'ServiceException', error.message, { code: -32603, message: error.message });
  }
  return wire.writeReply(e, version, (enc) => entry.write(enc, result, version));
}

async function start(options) {
  const methods = table(served());
  const host = await serve(options, async (request, body) => {
    if (request.url !== wire.PATH) return { status: 404, type: 'text/plain; charset=utf-8', body: `no service at ${request.url}\n` };
    return { status: 200, type: wire.CONTENT_TYPE, body: answer(methods, body) };
  });
  return { port: host.port, stop: host.stop };
}

module.exports = { start, answer, table };
