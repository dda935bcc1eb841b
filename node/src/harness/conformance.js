'use strict';
// The vectors command: every conformance vector of a protocol, in file order, checked by the contract's
// rules (CONTRACT.md#vectors). A vector needing a capability the protocol lacks is not sent.
const { reference } = require('../contract/reference');
const { BenchError } = require('../contract/errors');
const { decodeArgs } = require('../contract/values');
const { resultDifference, difference } = require('../contract/compare');
const { attackOutcome } = require('./attacks');

async function runVectors(client, vectors, protocol) {
  const results = [];
  for (const vector of vectors) results.push({ id: vector.id, ...(await outcome(client, vector, protocol)) });
  return results;
}

async function outcome(client, vector, protocol) {
  const reason = protocol.unsupportedReason(vector.needs);
  if (reason !== null) return status('unsupported', reason);
  if (vector.attack) return attackOutcome(client, vector);
  if (vector.session) return status('error', `this client has no remote objects for the session '${vector.session}'`);
  const operation = vector.operation;
  let args;
  let expected;
  try {
    args = decodeArgs(operation, vector.args);
    expected = expectedOf(vector, args);
  } catch (e) {
    return status('error', `cannot build the vector: ${e.message}`);
  }
  let actual;
  try {
    actual = await client.call(operation, args);
  } catch (e) {
    if (e instanceof BenchError) {
      if (!vector.expectError) return status('error', `unexpected ${e}`);
      const found = difference('int32', vector.expectError.code, e.code, 'error.code')
        || difference('string', vector.expectError.message, e.benchMessage, 'error.message');
      return found === null ? status('pass') : status('fail', found);
    }
    return status('error', `${e && e.name ? e.name : 'Error'}: ${e && e.message !== undefined ? e.message : e}`);
  }
  if (vector.expectError) {
    return status('fail', `expected BenchError{code: ${vector.expectError.code}, message: ${JSON.stringify(vector.expectError.message)}}, but the call returned`);
  }
  const found = resultDifference(operation, expected, actual);
  return found === null ? status('pass') : status('fail', found);
}

function expectedOf(vector, args) {
  if (vector.expectError) return null;
  if (vector.expect === 'contract') return referenceAnswer(vector.operation, args);
  if (vector.expect !== null) throw new Error(`unknown expect ${vector.expect}`);
  return args.length ? args[0] : undefined;
}

// The reference's answer, a stream's chunks concatenated (a client checks the concatenation).
function referenceAnswer(operation, args) {
  const answer = reference[operation.name](...args);
  return operation.isStream ? concatenate(answer) : answer;
}

function concatenate(chunks) {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Float64Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function status(s, reason = '') {
  return { status: s, reason };
}

module.exports = { runVectors, referenceAnswer, concatenate };
