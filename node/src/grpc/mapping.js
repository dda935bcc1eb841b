'use strict';
// How the contract's values travel in gRPC (CONTRACT.md#carriage): idl/bench.proto's messages, loaded by
// @grpc/proto-loader (protobufjs) with int64 as decimal strings (longs: String) so nothing is lost, bytes as
// Buffers and every field present (defaults). int8 and int16 travel as sint32 and are range-checked by the
// receiver; float64[] is a repeated double (an Array on protobufjs's side, a Float64Array in the contract).
// BenchError is status FAILED_PRECONDITION with the contract message as the details and the contract code,
// in decimal, in the trailing metadata key bench-error-code.
const grpc = require('@grpc/grpc-js');
const { STRUCTS } = require('../contract/operations');
const { BenchError, InvalidValue } = require('../contract/errors');
const { checkInteger, checkInt64 } = require('../contract/scalars');

const ERROR_CODE_KEY = 'bench-error-code';

const identity = (v) => v;
const doublesOut = (v) => (Array.isArray(v) ? v : Array.from(v));
const doublesIn = (v) => Float64Array.from(v);

// A contract value to the proto field's JS form, and back; per contract type.
function toWire(type) {
  if (type === 'int64' || type === 'timestamp') return (v) => v.toString();
  if (type === 'float64[]') return doublesOut;
  if (type === 'bytes') return (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.length));
  if (STRUCTS[type]) {
    const fields = STRUCTS[type].map((f) => [f.name, toWire(f.type)]);
    return (v) => {
      const out = {};
      for (const [name, convert] of fields) out[name] = convert(v[name]);
      return out;
    };
  }
  if (type.endsWith('[]')) {
    const element = toWire(type.slice(0, -2));
    return element === identity ? identity : (v) => v.map(element);
  }
  return identity;
}

function fromWire(type) {
  if (type === 'int8' || type === 'int16') return (v) => checkInteger(type, v);
  if (type === 'int64' || type === 'timestamp') return (v) => checkInt64(type, v);
  if (type === 'float64[]') return doublesIn;
  if (STRUCTS[type]) {
    const fields = STRUCTS[type].map((f) => [f.name, fromWire(f.type)]);
    return (v) => {
      const out = {};
      for (const [name, convert] of fields) out[name] = convert(v[name]);
      return out;
    };
  }
  if (type.endsWith('[]')) {
    const element = fromWire(type.slice(0, -2));
    return element === identity ? identity : (v) => v.map(element);
  }
  return identity;
}

// Per operation: how the request message is made from the arguments and read back, and the same for the
// answer (the answer's field: "value", "values", "books", "items", or the message itself for a Record).
const RESULT_FIELDS = { bool: 'value', int8: 'value', int16: 'value', int32: 'value', int64: 'value', float32: 'value', float64: 'value', string: 'value', bytes: 'value', 'float64[]': 'values', 'Book[]': 'books', 'Item[]': 'items' };

function table(operation) {
  const params = operation.params;
  // echoX(value) and average(values) travel in the wrapper messages; the others in named request fields
  const requestFields = operation.name === 'average' ? ['values'] : params.map((p) => p.name);
  const paramsOut = params.map((p) => toWire(p.type));
  const paramsIn = params.map((p) => fromWire(p.type));
  const type = operation.resultType;
  const resultField = type === 'void' || type === 'Record' ? null : RESULT_FIELDS[type];
  const resultOut = toWire(type);
  const resultIn = fromWire(type);
  return {
    request(args) {
      const message = {};
      for (let i = 0; i < requestFields.length; i++) message[requestFields[i]] = paramsOut[i](args[i]);
      return message;
    },
    arguments(message) {
      return requestFields.map((field, i) => paramsIn[i](message[field]));
    },
    response(result) {
      if (type === 'void') return {};
      const value = resultOut(result);
      return resultField === null ? value : { [resultField]: value };
    },
    result(message) {
      if (type === 'void') return undefined;
      return resultIn(resultField === null ? message : message[resultField]);
    },
  };
}

// The status that ends a call for an error the handler raised.
function statusOf(error) {
  if (error instanceof BenchError) {
    const metadata = new grpc.Metadata();
    metadata.set(ERROR_CODE_KEY, String(error.code));
    return { code: grpc.status.FAILED_PRECONDITION, details: error.benchMessage, metadata };
  }
  if (error instanceof InvalidValue) return { code: grpc.status.INVALID_ARGUMENT, details: error.message };
  return { code: grpc.status.INTERNAL, details: `${error.name}: ${error.message}` };
}

// What a client raises for a failed call: BenchError when the status is FAILED_PRECONDITION and the
// trailers carry a decimal bench-error-code; the gRPC error itself otherwise.
function errorOf(error) {
  const codes = error.metadata ? error.metadata.get(ERROR_CODE_KEY) : [];
  const failedPrecondition = error.code === grpc.status.FAILED_PRECONDITION;
  if (failedPrecondition && codes.length === 1 && /^-?[0-9]+$/.test(String(codes[0]))) {
    return new BenchError(Number(codes[0]), error.details);
  }
  if (failedPrecondition || codes.length) {
    return new Error(`status ${error.code} with ${ERROR_CODE_KEY}=${JSON.stringify(codes)}: ${JSON.stringify(error.details)}`);
  }
  return error;
}

module.exports = { table, statusOf, errorOf, ERROR_CODE_KEY };
