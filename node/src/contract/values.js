'use strict';
// Decoding the values written in vectors.json and workloads.json (CONTRACT.md#vectors, the value table).
// int64 and timestamp decode to BigInt, bytes to Buffer, float64[] to Float64Array, structs are plain
// objects named as the contract's fields.
const { SplitMix64 } = require('./generator');
const { checkInteger, checkInt64, checkFloat32 } = require('./scalars');

const SPECIAL_FLOATS = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0.0': -0 };

function decode(type, value) {
  switch (type) {
    case 'bool':
      if (typeof value !== 'boolean') throw new Error(`bool expected, got ${JSON.stringify(value)}`);
      return value;
    case 'int8': case 'int16': case 'int32':
      return checkInteger(type, value);
    case 'int64': case 'timestamp':
      return checkInt64(type, value);
    case 'float32':
      return checkFloat32(decodeFloat(value, 32));
    case 'float64':
      return decodeFloat(value, 64);
    case 'string':
      return decodeString(value);
    case 'bytes':
      return decodeBytes(value);
    default:
      break;
  }
  if (type === 'float64[]') {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return decodeRandomDoubles(value);
    if (!Array.isArray(value)) throw new Error(`float64[] expected, got ${JSON.stringify(value)}`);
    return Float64Array.from(value, (v) => decodeFloat(v, 64));
  }
  if (type.endsWith('[]')) {
    if (!Array.isArray(value)) throw new Error(`${type} expected, got ${JSON.stringify(value)}`);
    const element = type.slice(0, -2);
    return value.map((v) => decode(element, v));
  }
  throw new Error(`no JSON encoding for ${type}`);
}

function decodeArgs(operation, args) {
  if (args.length !== operation.params.length) {
    throw new Error(`${operation.name} takes ${operation.params.length} arguments, ${args.length} given`);
  }
  return operation.params.map((p, i) => decode(p.type, args[i]));
}

function decodeFloat(value, bits) {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    if (Object.prototype.hasOwnProperty.call(SPECIAL_FLOATS, value)) return SPECIAL_FLOATS[value];
    if (value.startsWith('0x')) {
      const digits = value.slice(2);
      const view = new DataView(new ArrayBuffer(8));
      if (bits === 32 && digits.length === 8) {
        view.setUint32(0, parseInt(digits, 16));
        return view.getFloat32(0);
      }
      if (bits === 64 && digits.length === 16) {
        view.setBigUint64(0, BigInt(value));
        return view.getFloat64(0);
      }
    }
  }
  throw new Error(`float${bits} expected, got ${JSON.stringify(value)}`);
}

function decodeString(value) {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && Object.keys(value).sort().join() === 'length,repeat') {
    const { repeat, length } = value;
    if (!repeat || !/^[\x00-\x7f]+$/.test(repeat)) throw new Error(`repeat needs a non-empty ASCII string, got ${repeat}`);
    return repeat.repeat(Math.floor(length / repeat.length) + 1).slice(0, length);
  }
  throw new Error(`string expected, got ${JSON.stringify(value)}`);
}

function decodeBytes(value) {
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'base64') return Buffer.from(value.base64, 'base64');
    if (keys.length === 1 && value.allByteValues === true) return Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    if (keys.length === 1 && keys[0] === 'randomBytes') {
      return randomBytes(Number(value.randomBytes.count), Number(value.randomBytes.seed));
    }
  }
  throw new Error(`bytes expected, got ${JSON.stringify(value)}`);
}

// Each next() gives 8 bytes, least significant first; the last is cut to fit.
function randomBytes(count, seed) {
  const rng = new SplitMix64(BigInt(seed));
  const words = Math.ceil(count / 8);
  const data = Buffer.alloc(words * 8);
  for (let i = 0; i < words; i++) {
    rng.step();
    data.writeUInt32LE(rng.zLo, i * 8);
    data.writeUInt32LE(rng.zHi, i * 8 + 4);
  }
  return data.subarray(0, count);
}

function decodeRandomDoubles(value) {
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'randomDoubles') throw new Error(`float64[] expected, got ${JSON.stringify(value)}`);
  const spec = value.randomDoubles;
  const offset = decodeFloat(spec.offset === undefined ? 0 : spec.offset, 64);
  const values = new SplitMix64(BigInt(spec.seed)).doubles(Number(spec.count));
  for (let i = 0; i < values.length; i++) values[i] += offset;
  return values;
}

module.exports = { decode, decodeArgs, decodeFloat, randomBytes };
