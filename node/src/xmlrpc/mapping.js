'use strict';
// How the contract's values travel in XML-RPC (CONTRACT.md#carriage), on the xmlrpc library's Serializer and
// Deserializer: bool as boolean, int8/int16/int32 as int (range-checked by the receiver), int64 and
// timestamps as a string of decimal digits, float32 and float64 as double (a float32 checked to be one
// exactly), bytes as base64, lists as arrays, structs as structs with the contract's field names, void as
// boolean true. Writers give the Serializer values of the declared type: the library picks int or double
// from a number's value (1.0 would go out as an int, -0.0 as <int>0) and writes strings as CDATA sections
// (a CR in one is read back as LF), so ints, doubles and strings are its CustomType with the right tag and
// text (xmlbuilder escapes CR as &#xD;). Readers need the wire's type: Deserializer below keeps an int
// apart from a double (and refuses what parseInt and parseFloat would read leniently).
const xmlrpc = require('xmlrpc');
const LibraryDeserializer = require('xmlrpc/lib/deserializer');
const { STRUCTS } = require('../contract/operations');
const { InvalidValue } = require('../contract/errors');
const { checkInteger, checkInt64, checkFloat32, float64Text, describe } = require('../contract/scalars');

const PATH = '/RPC2';
const INVALID_PARAMS = -32602;

class XmlInt extends xmlrpc.CustomType {}
XmlInt.prototype.tagName = 'int';
class XmlDouble extends xmlrpc.CustomType {}
XmlDouble.prototype.tagName = 'double';
class XmlString extends xmlrpc.CustomType {}
XmlString.prototype.tagName = 'string';

// An int as read from the wire (a double stays a number).
class WireInt {
  constructor(value) {
    this.value = value;
  }
}

const INTEGER = /^\s*[+-]?[0-9]+\s*$/;
const DOUBLE = /^\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*$/;

class Deserializer extends LibraryDeserializer {
  endInt(data) {
    if (!INTEGER.test(data)) throw new Error(`Expected an integer but got '${data}'`);
    this.push(new WireInt(parseInt(data, 10)));
    this.value = false;
  }

  endDouble(data) {
    if (!DOUBLE.test(data)) throw new Error(`Expected a double but got '${data}'`);
    this.push(parseFloat(data));
    this.value = false;
  }
}

function doubleOut(v) {
  if (!Number.isFinite(v)) throw new InvalidValue(`XML-RPC cannot carry ${v}`);
  return new XmlDouble(float64Text(v));
}

const writers = new Map();

function writer(type) {
  let w = writers.get(type);
  if (w) return w;
  switch (type) {
    case 'void': w = () => true; break;
    case 'bool': w = (v) => v; break;
    case 'int8': case 'int16': case 'int32': w = (v) => new XmlInt(String(v)); break;
    case 'int64': case 'timestamp': w = (v) => new XmlString(v.toString()); break;
    case 'float32': case 'float64': w = doubleOut; break;
    case 'string': w = (v) => new XmlString(v); break;
    case 'bytes': w = (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.length)); break;
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
        throw new Error(`XML-RPC cannot carry ${type}`);
      }
  }
  writers.set(type, w);
  return w;
}

function double(v) {
  if (typeof v !== 'number') throw new InvalidValue(`double expected, got ${v instanceof WireInt ? 'an int' : describe(v)}`);
  return v;
}

const readers = new Map();

function reader(type) {
  let r = readers.get(type);
  if (r) return r;
  switch (type) {
    case 'void': r = (v) => {
      if (v !== true) throw new InvalidValue(`boolean true expected for a void result, got ${describe(v)}`);
      return undefined;
    }; break;
    case 'bool': r = (v) => {
      if (typeof v !== 'boolean') throw new InvalidValue(`boolean expected, got ${describe(v)}`);
      return v;
    }; break;
    case 'int8': case 'int16': case 'int32': r = (v) => {
      if (!(v instanceof WireInt)) throw new InvalidValue(`int expected, got ${describe(v)}`);
      return checkInteger(type, v.value);
    }; break;
    case 'int64': case 'timestamp': r = (v) => {
      if (typeof v !== 'string') throw new InvalidValue(`${type} expected as a string of decimal digits, got ${v instanceof WireInt ? 'an int' : describe(v)}`);
      return checkInt64(type, v.trim());
    }; break;
    case 'float32': r = (v) => checkFloat32(double(v)); break;
    case 'float64': r = double; break;
    case 'string': r = (v) => {
      if (typeof v !== 'string') throw new InvalidValue(`string expected, got ${describe(v)}`);
      return v;
    }; break;
    case 'bytes': r = (v) => {
      if (!Buffer.isBuffer(v)) throw new InvalidValue(`base64 expected, got ${describe(v)}`);
      return v;
    }; break;
    case 'float64[]': r = (v) => {
      if (!Array.isArray(v)) throw new InvalidValue(`array expected, got ${describe(v)}`);
      const out = new Float64Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = double(v[i]);
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
        r = (v) => {
          if (v === null || typeof v !== 'object' || Array.isArray(v) || Buffer.isBuffer(v) || v instanceof WireInt) throw new InvalidValue(`${type} struct expected, got ${describe(v)}`);
          const out = {};
          for (const [name, read] of fields) {
            if (!(name in v)) throw new InvalidValue(`${type} has no member ${name}`);
            out[name] = read(v[name]);
          }
          return out;
        };
      } else {
        throw new Error(`XML-RPC cannot carry ${type}`);
      }
  }
  readers.set(type, r);
  return r;
}

function plain(v) {
  return v instanceof WireInt ? v.value : v;
}

module.exports = { PATH, INVALID_PARAMS, Deserializer, WireInt, writer, reader, plain };
