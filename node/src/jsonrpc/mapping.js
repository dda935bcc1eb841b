'use strict';
// How the contract's values travel in JSON-RPC (CONTRACT.md#carriage): integers (int64 and timestamps too)
// as exact JSON integers, range-checked by the receiver; float32 as the shortest decimal that reads back to
// the same float32, rounded to the nearest float32 by the reader; bytes as standard base64 with padding;
// structs as objects with the contract's field names; void as null. writer(type) gives a value's JSON
// text; reader(type) checks a parsed value (json.parse) and converts it to the contract's form.
const { STRUCTS } = require('../contract/operations');
const { InvalidValue } = require('../contract/errors');
const { checkInteger, checkInt64, float32Text, float64Text, describe } = require('../contract/scalars');

const PATH = '/jsonrpc';
const CONTENT_TYPE = 'application/json';
const INVALID_PARAMS = -32602;

function finite(value) {
  if (!Number.isFinite(value)) throw new InvalidValue(`JSON cannot carry ${value}`);
  return value;
}

const writers = new Map();

function writer(type) {
  let w = writers.get(type);
  if (w) return w;
  switch (type) {
    case 'void': w = () => 'null'; break;
    case 'bool': w = (v) => (v ? 'true' : 'false'); break;
    case 'int8': case 'int16': case 'int32': w = (v) => String(v); break;
    case 'int64': case 'timestamp': w = (v) => v.toString(); break;
    case 'float32': w = (v) => float32Text(finite(v)); break;
    case 'float64': w = (v) => float64Text(finite(v)); break;
    case 'string': w = (v) => JSON.stringify(v); break;
    case 'bytes': w = (v) => `"${Buffer.from(v.buffer, v.byteOffset, v.length).toString('base64')}"`; break;
    case 'float64[]': w = (v) => {
      const parts = new Array(v.length);
      for (let i = 0; i < v.length; i++) parts[i] = float64Text(finite(v[i]));
      return `[${parts.join(',')}]`;
    }; break;
    default:
      if (type.endsWith('[]')) {
        const element = writer(type.slice(0, -2));
        w = (v) => {
          const parts = new Array(v.length);
          for (let i = 0; i < v.length; i++) parts[i] = element(v[i]);
          return `[${parts.join(',')}]`;
        };
      } else if (STRUCTS[type]) {
        const fields = STRUCTS[type].map((f) => [`${JSON.stringify(f.name)}:`, f.name, writer(f.type)]);
        w = (v) => {
          let text = '{';
          for (let i = 0; i < fields.length; i++) text += (i ? ',' : '') + fields[i][0] + fields[i][2](v[fields[i][1]]);
          return `${text}}`;
        };
      } else {
        throw new Error(`JSON-RPC cannot carry ${type}`);
      }
  }
  writers.set(type, w);
  return w;
}

function number(value) {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  throw new InvalidValue(`number expected, got ${describe(value)}`);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const readers = new Map();

function reader(type) {
  let r = readers.get(type);
  if (r) return r;
  switch (type) {
    case 'void': r = (v) => {
      if (v !== null) throw new InvalidValue(`null expected for a void result, got ${describe(v)}`);
      return undefined;
    }; break;
    case 'bool': r = (v) => {
      if (typeof v !== 'boolean') throw new InvalidValue(`boolean expected, got ${describe(v)}`);
      return v;
    }; break;
    case 'int8': case 'int16': case 'int32': r = (v) => checkInteger(type, v); break;
    case 'int64': case 'timestamp': r = (v) => {
      if (typeof v === 'string') throw new InvalidValue(`${type} expected as a JSON integer, got ${describe(v)}`);
      return checkInt64(type, v);
    }; break;
    case 'float32': r = (v) => Math.fround(number(v)); break;
    case 'float64': r = number; break;
    case 'string': r = (v) => {
      if (typeof v !== 'string') throw new InvalidValue(`string expected, got ${describe(v)}`);
      return v;
    }; break;
    case 'bytes': r = (v) => {
      if (typeof v !== 'string' || !BASE64.test(v)) throw new InvalidValue(`standard base64 with padding expected, got ${describe(v)}`);
      return Buffer.from(v, 'base64');
    }; break;
    case 'float64[]': r = (v) => {
      if (!Array.isArray(v)) throw new InvalidValue(`array expected, got ${describe(v)}`);
      const out = new Float64Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = number(v[i]);
      return out;
    }; break;
    default:
      if (type.endsWith('[]')) {
        const element = reader(type.slice(0, -2));
        r = (v) => {
          if (!Array.isArray(v)) throw new InvalidValue(`array expected, got ${describe(v)}`);
          return v.map((e) => element(e));
        };
      } else if (STRUCTS[type]) {
        const fields = STRUCTS[type].map((f) => [f.name, reader(f.type)]);
        const names = fields.map((f) => f[0]).sort().join();
        r = (v) => {
          if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).sort().join() !== names) {
            throw new InvalidValue(`${type} object with members ${names} expected, got ${v && typeof v === 'object' ? Object.keys(v).sort().join() : describe(v)}`);
          }
          const out = {};
          for (const [name, read] of fields) out[name] = read(v[name]);
          return out;
        };
      } else {
        throw new Error(`JSON-RPC cannot carry ${type}`);
      }
  }
  readers.set(type, r);
  return r;
}

module.exports = { PATH, CONTENT_TYPE, INVALID_PARAMS, writer, reader };
