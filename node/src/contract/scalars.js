'use strict';
// Checks on the contract's scalar types, for protocols that carry a value in a wider type
// (CONTRACT.md#carriage: the receiver checks the range and refuses what does not fit).
const { InvalidValue } = require('./errors');

const INTEGER_RANGES = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
};
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// A number of the int8/int16/int32 range, from a number or a BigInt; InvalidValue otherwise.
function checkInteger(type, value) {
  if (typeof value === 'bigint') {
    if (value < -2147483648n || value > 2147483647n) throw new InvalidValue(`${value} is out of range for ${type}`);
    value = Number(value);
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new InvalidValue(`${type} expected, got ${describe(value)}`);
  }
  const [low, high] = INTEGER_RANGES[type];
  if (value < low || value > high) throw new InvalidValue(`${value} is out of range for ${type}`);
  return value;
}

// An int64 as a BigInt, from a BigInt, a safe integer number or a string of decimal digits.
function checkInt64(type, value) {
  let result;
  if (typeof value === 'bigint') result = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) result = BigInt(value);
  else if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) result = BigInt(value);
  else throw new InvalidValue(`${type} expected, got ${describe(value)}`);
  if (result < INT64_MIN || result > INT64_MAX) throw new InvalidValue(`${value} is out of range for ${type}`);
  return result;
}

function isFloat32(value) {
  return Number.isNaN(value) || Object.is(Math.fround(value), value);
}

function checkFloat32(value) {
  if (typeof value !== 'number') throw new InvalidValue(`float32 expected, got ${describe(value)}`);
  if (!isFloat32(value)) throw new InvalidValue(`${value} is not exactly representable as float32`);
  return value;
}

function checkFloat64(value) {
  if (typeof value !== 'number') throw new InvalidValue(`float64 expected, got ${describe(value)}`);
  return value;
}

// The shortest decimal that reads back to the same float32 (CONTRACT.md, JSON-RPC carriage); finite only.
function float32Text(value) {
  if (Object.is(value, -0)) return '-0.0';
  if (value === 0) return '0.0';
  for (let digits = 1; digits <= 9; digits++) {
    const text = value.toPrecision(digits);
    if (Math.fround(Number(text)) === value) return normalise(text);
  }
  return String(value);
}

// A float64 as JSON and XML writers here write it: the shortest round-trip decimal (ECMAScript's
// Number::toString), with -0 kept as "-0.0".
function float64Text(value) {
  if (Object.is(value, -0)) return '-0.0';
  return String(value);
}

// toPrecision's "1.50000" or "1.5e+38" as the shortest plain form: "1.5", "1.5e+38".
function normalise(text) {
  const [mantissa, exponent] = text.split('e');
  let m = mantissa;
  if (m.includes('.')) m = m.replace(/0+$/, '').replace(/\.$/, '');
  const number = Number(exponent === undefined ? m : `${m}e${exponent}`);
  const plain = String(number);
  return plain.length <= (exponent === undefined ? m : `${m}e${exponent}`).length ? plain : `${m}e${exponent}`;
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'bigint') return `the integer ${value}`;
  if (typeof value === 'object') return `a ${value.constructor ? value.constructor.name : 'object'}`;
  return `${typeof value} ${String(value)}`;
}

module.exports = {
  INTEGER_RANGES, INT64_MIN, INT64_MAX, checkInteger, checkInt64, checkFloat32, checkFloat64, isFloat32,
  float32Text, float64Text, describe,
};
