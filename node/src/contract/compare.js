'use strict';
// The contract's comparison rules (CONTRACT.md#vectors): integers, strings and bytes exactly; floats by
// their bits, any NaN equal to any NaN; logTransform element by element within 1 ulp; structs field by
// field. Each function returns null when the values match, or the first difference as readable text.
const { STRUCTS } = require('./operations');

const SHOWN = 60;
const view = new DataView(new ArrayBuffer(8));

function resultDifference(operation, expected, actual) {
  const ulps = operation.name === 'logTransform' ? 1 : 0;
  return difference(operation.resultType, expected, actual, 'result', ulps);
}

function difference(type, expected, actual, path = 'result', ulps = 0) {
  switch (type) {
    case 'void':
      return actual === undefined || actual === null ? null : differ(path, 'nothing (void)', actual);
    case 'bool':
      return typeof actual === 'boolean' && actual === expected ? null : differ(path, expected, actual);
    case 'int8': case 'int16': case 'int32':
      return typeof actual === 'number' && Number.isInteger(actual) && actual === expected ? null : differ(path, expected, actual);
    case 'int64': case 'timestamp':
      return typeof actual === 'bigint' && actual === expected ? null : differ(path, expected, actual);
    case 'float32': case 'float64':
      return floatDifference(path, expected, actual, ulps);
    case 'string':
      if (typeof actual !== 'string') return differ(path, expected, actual);
      return sequenceDifference(path, expected, actual);
    case 'bytes':
      if (!(actual instanceof Uint8Array)) return differ(path, expected, actual);
      return sequenceDifference(path, expected, actual);
    default:
      break;
  }
  if (type.endsWith('[]')) return listDifference(type.slice(0, -2), path, expected, actual, ulps);
  if (STRUCTS[type]) return structDifference(type, path, expected, actual);
  throw new Error(`no comparison rule for ${type}`);
}

function bits(value) {
  view.setFloat64(0, value);
  return view.getBigInt64(0);
}

// The float's bits as an integer that orders as the floats do, so neighbours differ by 1.
function ordered(value) {
  const b = bits(value);
  return b >= 0n ? b : -(b & 0x7fffffffffffffffn);
}

function floatDifference(path, expected, actual, ulps) {
  if (typeof actual !== 'number') return differ(path, expected, actual);
  if (Number.isNaN(expected) && Number.isNaN(actual)) return null;
  if (ulps === 0) {
    if (Object.is(expected, actual)) return null;
  } else if (!Number.isNaN(expected) && !Number.isNaN(actual)) {
    const gap = ordered(expected) - ordered(actual);
    if ((gap < 0n ? -gap : gap) <= BigInt(ulps)) return null;
  }
  return differ(path, expected, actual) + (ulps ? ` (more than ${ulps} ulp apart)` : '');
}

function sequenceDifference(path, expected, actual) {
  const same = typeof expected === 'string' ? expected === actual : Buffer.compare(Buffer.from(expected.buffer, expected.byteOffset, expected.length), Buffer.from(actual.buffer, actual.byteOffset, actual.length)) === 0;
  if (same) return null;
  if (expected.length <= SHOWN && actual.length <= SHOWN) return differ(path, expected, actual);
  const shorter = Math.min(expected.length, actual.length);
  for (let i = 0; i < shorter; i++) {
    if (expected[i] !== actual[i]) {
      return `${path}[${i}] (of length ${expected.length}): expected ${show(expected.slice(i, i + 20))}, actual ${show(actual.slice(i, i + 20))}`;
    }
  }
  return `${path}: expected length ${expected.length}, actual length ${actual.length}`;
}

function listDifference(element, path, expected, actual, ulps) {
  if (!Array.isArray(actual) && !(element === 'float64' && actual instanceof Float64Array)) {
    return differ(path, `a list of ${expected.length}`, actual);
  }
  if (expected.length !== actual.length) return `${path}: expected ${expected.length} elements, actual ${actual.length}`;
  if (element === 'float64' && ulps === 0 && expected instanceof Float64Array && actual instanceof Float64Array) {
    const a = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
    const b = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
    if (a.equals(b)) return null;
  }
  for (let i = 0; i < expected.length; i++) {
    const found = difference(element, expected[i], actual[i], `${path}[${i}]`, ulps);
    if (found !== null) return found;
  }
  return null;
}

function structDifference(name, path, expected, actual) {
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return differ(path, `a ${name}`, actual);
  for (const field of STRUCTS[name]) {
    const found = difference(field.type, expected[field.name], actual[field.name], `${path}.${field.name}`);
    if (found !== null) return found;
  }
  return null;
}

function differ(path, expected, actual) {
  return `${path}: expected ${show(expected)}, actual ${show(actual)}`;
}

function show(value) {
  if (typeof value === 'number') return `${Object.is(value, -0) ? '-0' : String(value)} (0x${BigInt.asUintN(64, bits(value)).toString(16).padStart(16, '0')})`;
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array) {
    const hex = Buffer.from(value.buffer, value.byteOffset, Math.min(value.length, SHOWN)).toString('hex');
    return value.length > SHOWN ? `0x${hex}...` : `0x${hex}`;
  }
  if (value === undefined) return 'nothing';
  let text;
  try {
    text = JSON.stringify(value, (k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  } catch {
    text = String(value);
  }
  if (text === undefined) text = String(value);
  if (text.length > SHOWN) {
    const length = value && value.length !== undefined ? value.length : '?';
    return `${text.slice(0, SHOWN)}... (${Array.isArray(value) ? 'array' : typeof value} of length ${length})`;
  }
  return text;
}

module.exports = { resultDifference, difference };
