'use strict';
// How the contract's values travel in SOAP (bench.xsd, document/literal wrapped), on node-soap: each value
// handed to node-soap as the text of its element, written here (node-soap's escapeXML is off: it does not
// escape CR, which XML's end-of-line handling turns into LF, and writes -0 as 0 and Infinity as
// "Infinity"); xs:float and xs:double as XML Schema's lexical forms (INF, -INF, NaN, -0.0), xs:float the
// shortest decimal that reads back to the same float32; xs:long exact. Read back, every number's text comes
// raw (node-soap's customDeserializer: its own parseInt loses xs:long past 2^53 and Number() reads INF as
// NaN) and is checked here; a repeated element is an array, or a single value when it occurs once.
const { STRUCTS } = require('../contract/operations');
const { InvalidValue } = require('../contract/errors');
const { checkInteger, checkInt64, float32Text, float64Text, describe } = require('../contract/scalars');

const XSD_TYPES = { int8: 'byte', int16: 'short', int32: 'int', int64: 'long', timestamp: 'long', float32: 'float', float64: 'double', bool: 'boolean', bytes: 'base64Binary' };

// node-soap hands these types' text to us as it is.
const RAW = (text) => text;
const CUSTOM_DESERIALIZER = Object.fromEntries(['byte', 'short', 'int', 'long', 'float', 'double', 'boolean', 'base64Binary', 'integer', 'decimal'].map((t) => [t, RAW]));

function escape(text) {
  return text.replace(/[&<>\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' })[c]);
}

function floatText(v, text) {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'INF';
  if (v === -Infinity) return '-INF';
  return text(v);
}

const writers = new Map();

function writer(type) {
  let w = writers.get(type);
  if (w) return w;
  switch (type) {
    case 'bool': w = (v) => (v ? 'true' : 'false'); break;
    case 'int8': case 'int16': case 'int32': w = (v) => String(v); break;
    case 'int64': case 'timestamp': w = (v) => v.toString(); break;
    case 'float32': w = (v) => floatText(v, float32Text); break;
    case 'float64': w = (v) => floatText(v, float64Text); break;
    case 'string': w = escape; break;
    case 'bytes': w = (v) => Buffer.from(v.buffer, v.byteOffset, v.length).toString('base64'); break;
    default:
      if (type.endsWith('[]')) {
        const element = writer(type.slice(0, -2));
        w = (v) => {
          const out = new Array(v.length);
          for (let i = 0; i < v.length; i++) out[i] = element(v[i]);
          return out;
        };
      } else if (STRUCTS[type]) {
        const fields = STRUCTS[type].map((f) => [f.name, writer(f.type)]);
        w = (v) => {
          const out = {};
          for (const [name, write] of fields) out[name] = write(v[name]);
          return out;
        };
      } else {
        throw new Error(`SOAP cannot carry ${type}`);
      }
  }
  writers.set(type, w);
  return w;
}

function text(v, what) {
  if (typeof v !== 'string') throw new InvalidValue(`${what} expected, got ${describe(v)}`);
  return v.trim();
}

const FLOAT = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const INTEGER = /^[+-]?[0-9]+$/;

function readFloat(v, what) {
  const t = text(v, what);
  if (t === 'INF' || t === '+INF') return Infinity;
  if (t === '-INF') return -Infinity;
  if (t === 'NaN') return NaN;
  if (!FLOAT.test(t)) throw new InvalidValue(`${what} expected, got ${JSON.stringify(t)}`);
  return Number(t);
}

function readInteger(v, type) {
  const t = text(v, `xs:${XSD_TYPES[type]}`);
  if (!INTEGER.test(t)) throw new InvalidValue(`xs:${XSD_TYPES[type]} expected, got ${JSON.stringify(t)}`);
  return t.replace(/^\+/, '');
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

const readers = new Map();

function reader(type) {
  let r = readers.get(type);
  if (r) return r;
  switch (type) {
    case 'bool': r = (v) => {
      const t = text(v, 'xs:boolean');
      if (t === 'true' || t === '1') return true;
      if (t === 'false' || t === '0') return false;
      throw new InvalidValue(`xs:boolean expected, got ${JSON.stringify(t)}`);
    }; break;
    case 'int8': case 'int16': case 'int32': r = (v) => checkInteger(type, Number(readInteger(v, type))); break;
    case 'int64': case 'timestamp': r = (v) => checkInt64(type, readInteger(v, type)); break;
    case 'float32': r = (v) => Math.fround(readFloat(v, 'xs:float')); break; // an xs:float literal names the nearest float32
    case 'float64': r = (v) => readFloat(v, 'xs:double'); break;
    case 'string': r = (v) => {
      if (v === undefined || v === null) return '';
      if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) return '';
      if (typeof v !== 'string') throw new InvalidValue(`xs:string expected, got ${describe(v)}`);
      return v;
    }; break;
    case 'bytes': r = (v) => {
      const t = v === undefined || v === null || (typeof v === 'object' && Object.keys(v).length === 0) ? '' : text(v, 'xs:base64Binary');
      if (!BASE64.test(t)) throw new InvalidValue('xs:base64Binary expected');
      return Buffer.from(t, 'base64');
    }; break;
    case 'float64[]': r = (v) => {
      const list = listOf(v);
      const out = new Float64Array(list.length);
      for (let i = 0; i < list.length; i++) out[i] = readFloat(list[i], 'xs:double');
      return out;
    }; break;
    default:
      if (type.endsWith('[]')) {
        const element = reader(type.slice(0, -2));
        r = (v) => listOf(v).map((e) => element(e));
      } else if (STRUCTS[type]) {
        const fields = STRUCTS[type].map((f) => [f.name, reader(f.type), f.type.endsWith('[]')]);
        r = (v) => {
          if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new InvalidValue(`${type} expected, got ${describe(v)}`);
          const out = {};
          for (const [name, read, list] of fields) {
            if (!list && !(name in v)) throw new InvalidValue(`${type} has no ${name}`);
            out[name] = read(v[name]);
          }
          return out;
        };
      } else {
        throw new Error(`SOAP cannot carry ${type}`);
      }
  }
  readers.set(type, r);
  return r;
}

// A repeated element as node-soap gives it: absent, one value, or an array.
function listOf(v) {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  return [v];
}

module.exports = { writer, reader, CUSTOM_DESERIALIZER, escape };
