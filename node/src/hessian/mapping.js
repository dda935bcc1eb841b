'use strict';
// How the contract's values travel in Hessian 1 and 2 (CONTRACT.md#carriage), on hessian.js's encoders and
// decoders: int8/int16/int32 as int (range-checked by the receiver), int64 and timestamps as long, float32
// as double checked to be exactly a float32, bytes as binary, float64[] as a typed list of doubles, other
// lists as lists, structs as objects (Hessian 2 class definitions, Hessian 1 typed maps) with the contract's
// field names and this writer's type names (readers take any type name, or an untyped map), void as null.
// Every value is written with the encoder's method for its declared type (hessian.js's generic write() picks
// int or double from a number's value, so 1.0 would go out as an int). A scalar is read with the decoder's
// method for its declared type, so an int where a double is declared is refused (the decoder throws).
const { STRUCTS } = require('../contract/operations');
const { InvalidValue } = require('../contract/errors');
const { checkInteger, checkInt64, checkFloat32, describe } = require('../contract/scalars');

const TYPE_PREFIX = 'org.rpcmatrix.node.';
const INVALID_PARAMS = -32602;

// A list's start, in the encoder's own form; true when it needs an end marker ('z').
function listBegin(encoder, length, type) {
  return encoder._writeListBegin(length, type);
}

function listEnd(encoder, hasEnd) {
  if (hasEnd) encoder.byteBuffer.put(0x7a);
}

// Writes a struct as an object of the contract's fields, in order.
function structWriter(name, fieldWriters) {
  const type = TYPE_PREFIX + name;
  const names = fieldWriters.map((f) => f[0]);
  return (encoder, value, version) => {
    if (version === 2) {
      const ref = encoder._writeObjectBegin(type, names);
      if (ref === -1) {
        encoder.writeInt(names.length);
        for (const n of names) encoder.writeString(n);
        encoder._writeObjectBegin(type);
      }
      for (const [field, write] of fieldWriters) write(encoder, value[field], version);
    } else {
      encoder.byteBuffer.put(0x4d);
      encoder.writeType(type);
      for (const [field, write] of fieldWriters) {
        encoder.writeString(field);
        write(encoder, value[field], version);
      }
      encoder.byteBuffer.put(0x7a);
    }
  };
}

const writers = new Map();

// writer(type)(encoder, value, version): the value written as its declared type.
function writer(type) {
  let w = writers.get(type);
  if (w) return w;
  switch (type) {
    case 'void': w = (e) => e.writeNull(); break;
    case 'bool': w = (e, v) => e.writeBool(v); break;
    case 'int8': case 'int16': case 'int32': w = (e, v) => e.writeInt(v); break;
    case 'int64': case 'timestamp': w = (e, v) => e.writeLong(v.toString()); break;
    case 'float32': case 'float64': w = (e, v) => e.writeDouble(v); break;
    case 'string': w = (e, v) => e.writeString(v); break;
    case 'bytes': w = (e, v) => e.writeBytes(Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.length)); break;
    default:
      if (type.endsWith('[]')) {
        const elementType = type.slice(0, -2);
        const element = writer(elementType);
        const listType = elementType === 'float64' ? '[double' : elementType === 'string' ? '[string' : '';
        w = (e, v, version) => {
          const hasEnd = listBegin(e, v.length, listType);
          for (let i = 0; i < v.length; i++) element(e, v[i], version);
          listEnd(e, hasEnd);
        };
      } else if (STRUCTS[type]) {
        w = structWriter(type, STRUCTS[type].map((f) => [f.name, writer(f.type)]));
      } else {
        throw new Error(`Hessian cannot carry ${type}`);
      }
  }
  writers.set(type, w);
  return w;
}

function long(value) {
  if (typeof value === 'number' || typeof value === 'string') return checkInt64('int64', typeof value === 'number' ? value : String(value));
  throw new InvalidValue(`long expected, got ${describe(value)}`);
}

// A value of a generic read() (inside lists and structs) as the contract's type.
function converter(type) {
  switch (type) {
    case 'bool': return (v) => {
      if (typeof v !== 'boolean') throw new InvalidValue(`boolean expected, got ${describe(v)}`);
      return v;
    };
    case 'int8': case 'int16': case 'int32': return (v) => checkInteger(type, v);
    case 'int64': case 'timestamp': return long;
    case 'float32': return (v) => checkFloat32(number(v));
    case 'float64': return number;
    case 'string': return (v) => {
      if (typeof v !== 'string') throw new InvalidValue(`string expected, got ${describe(v)}`);
      return v;
    };
    case 'float64[]': return (v) => {
      if (!Array.isArray(v)) throw new InvalidValue(`list expected, got ${describe(v)}`);
      const out = new Float64Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = number(v[i]);
      return out;
    };
    default:
      break;
  }
  if (type.endsWith('[]')) {
    const element = converter(type.slice(0, -2));
    return (v) => {
      if (!Array.isArray(v)) throw new InvalidValue(`list expected, got ${describe(v)}`);
      return v.map(element);
    };
  }
  if (STRUCTS[type]) {
    const fields = STRUCTS[type].map((f) => [f.name, converter(f.type)]);
    return (v) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new InvalidValue(`${type} expected, got ${describe(v)}`);
      const out = {};
      for (const [name, convert] of fields) {
        if (!(name in v)) throw new InvalidValue(`${type} has no field ${name}`);
        out[name] = convert(v[name]);
      }
      return out;
    };
  }
  throw new Error(`Hessian cannot carry ${type}`);
}

function number(v) {
  if (typeof v !== 'number') throw new InvalidValue(`double expected, got ${describe(v)}`);
  return v;
}

// reader(type)(decoder): the next value, read with the decoder's method for its declared type.
function reader(type) {
  const strict = (read, what) => (d) => {
    try {
      return read(d);
    } catch (e) {
      throw new InvalidValue(`${what} expected: ${e.message}`);
    }
  };
  switch (type) {
    case 'void': return strict((d) => d.readNull(), 'null');
    case 'bool': return strict((d) => d.readBool(), 'boolean');
    case 'int8': case 'int16': case 'int32': return (d) => checkInteger(type, strict((x) => x.readInt(), 'int')(d));
    case 'int64': case 'timestamp': return (d) => long(strict((x) => x.readLong(), 'long')(d));
    case 'float32': return (d) => checkFloat32(strict((x) => x.readDouble(), 'double')(d));
    case 'float64': return strict((d) => d.readDouble(), 'double');
    case 'string': return strict((d) => d.readString(), 'string');
    case 'bytes': return strict((d) => {
      const v = d.readBytes();
      if (!Buffer.isBuffer(v)) throw new Error(describe(v));
      return v;
    }, 'binary');
    default: {
      const convert = converter(type);
      return (d) => convert(d.read());
    }
  }
}

module.exports = { writer, reader, converter, INVALID_PARAMS, TYPE_PREFIX };
