'use strict';
// The contract's behaviour (CONTRACT.md#operations): servers delegate to it, clients check answers with
// it, the handler command times it. float64 arrays are Float64Arrays (one typed array, no boxing), and the
// answers built from many small draws (getRecord, searchBooks, getItems) are kept per argument, bounded,
// as the contract allows: they depend on their arguments only. Callers must not mutate what they get.
const { SplitMix64, fnv1a64 } = require('./generator');
const { BenchError } = require('./errors');

const NEGATIVE_COUNT = 'count must not be negative';
const CACHED_UP_TO = 10000; // counts above this are computed each time, so a cache cannot exhaust memory

function checkCount(count) {
  if (count < 0) throw new BenchError(400, NEGATIVE_COUNT);
}

// A bounded map of answers: the oldest entry leaves when it is full.
class Kept {
  constructor(size) {
    this.size = size;
    this.map = new Map();
  }

  get(key, make) {
    let value = this.map.get(key);
    if (value === undefined) {
      value = make();
      if (this.map.size >= this.size) this.map.delete(this.map.keys().next().value);
      this.map.set(key, value);
    }
    return value;
  }
}

const records = new Kept(256);
const books = new Kept(32);
const items = new Kept(16);

function isPrime(n) {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) { // d * d < 2^62: exact in a double for every int32 n
    if (n % d === 0) return false;
  }
  return true;
}

function average(values) {
  const count = values.length;
  if (count === 0) return 0.0;
  let total = 0.0; // left to right in float64, from +0.0 as the contract's loop does
  for (let i = 0; i < count; i++) total += values[i];
  return total / count;
}

function logTransform(values) {
  const count = values.length;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.log(values[i]);
  return out;
}

function record(key) {
  const rng = new SplitMix64(fnv1a64(Buffer.from(key, 'utf8')));
  const id = rng.signed64();
  const tags = [];
  for (let i = 0; i < 8; i++) tags.push(rng.word(12));
  const values = new Float64Array(16);
  for (let i = 0; i < 16; i++) values[i] = rng.nextDouble() * 1000.0;
  return { id, tags, values };
}

function makeBooks(query, count) {
  const rng = new SplitMix64(fnv1a64(Buffer.from(query, 'utf8')));
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const title = rng.word(40);
    const authors = [];
    for (let a = 1 + rng.below(3); a > 0; a--) authors.push(rng.word(20));
    const price = rng.below(10000) / 100.0;
    const listPrice = price + rng.below(5000) / 100.0;
    const publisher = rng.word(24);
    const year = 1950 + rng.below(76);
    const month = 1 + rng.below(12);
    const keywords = [];
    for (let k = rng.below(6); k > 0; k--) keywords.push(rng.word(10));
    let isbn = '978';
    for (let d = 0; d < 10; d++) isbn += String(rng.below(10));
    const starRating = rng.below(6);
    const url = `https://books.example.org/isbn/${isbn}`;
    out[i] = { title, authors, price, listPrice, publisher, year, month, keywords, isbn, starRating, url };
  }
  return out;
}

function makeItems(count) {
  const rng = new SplitMix64(BigInt(count));
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = rng.signed64();
    const title = rng.word(40);
    const description = rng.word(40);
    const category = rng.word(40);
    const owner = rng.word(40);
    const created = 1000000000000 + rng.below(1000000000000);
    const updated = created + rng.below(1000000000);
    const quantity = rng.signed32();
    const price = rng.nextDouble() * 1000000.0;
    const weight = Math.fround(rng.nextDouble());
    out[i] = { id, title, description, category, owner, created: BigInt(created), updated: BigInt(updated), quantity, price, weight };
  }
  return out;
}

// Every operation of the contract by its contract name; arguments as the values module decodes them.
const reference = {
  ping() { return undefined; },
  echoBool(value) { return value; },
  echoInt8(value) { return value; },
  echoInt16(value) { return value; },
  echoInt32(value) { return value; },
  echoInt64(value) { return value; },
  echoFloat32(value) { return value; },
  echoFloat64(value) { return value; },
  echoString(value) { return value; },
  echoBytes(value) { return value; },
  isPrime,
  average,
  randomDoubles(count, seed) {
    checkCount(count);
    return new SplitMix64(seed).doubles(count);
  },
  logTransform,
  getRecord(key) { return records.get(key, () => record(key)); },
  searchBooks(query, count) {
    checkCount(count);
    if (count > CACHED_UP_TO) return makeBooks(query, count);
    return books.get(`${count}\u0000${query}`, () => makeBooks(query, count));
  },
  getItems(count) {
    checkCount(count);
    if (count > CACHED_UP_TO) return makeItems(count);
    return items.get(count, () => makeItems(count));
  },
  fail(code, message) { throw new BenchError(code, message); },
  // The chunks of a stream, as an array of Float64Arrays (the last may be shorter).
  randomDoublesStream(count, seed, chunk) {
    checkCount(count);
    if (chunk < 1) throw new BenchError(400, 'chunk must be positive');
    const rng = new SplitMix64(seed);
    const chunks = [];
    for (let remaining = count; remaining > 0; remaining -= chunk) chunks.push(rng.doubles(Math.min(chunk, remaining)));
    return chunks;
  },
};

// The operations a server answers with: the reference, or, when the runner sets RPCMATRIX_SERVER_SPIN_US
// (runner/README.md, calibrating compare; test-only), the reference after a busy wait of that many
// microseconds per call.
const SPIN_VARIABLE = 'RPCMATRIX_SERVER_SPIN_US';

function spinNanos(environment) {
  const text = (environment[SPIN_VARIABLE] || '').trim();
  if (!text) return 0n;
  if (!/^[0-9]+$/.test(text) || Number(text) > 1000000) {
    throw new Error(`${SPIN_VARIABLE} takes whole microseconds (0 to 1000000), not ${JSON.stringify(text)}`);
  }
  return BigInt(text) * 1000n;
}

function served(environment = process.env) {
  const ns = spinNanos(environment);
  if (ns === 0n) return reference;
  const spun = {};
  for (const [name, method] of Object.entries(reference)) {
    spun[name] = (...args) => {
      const end = process.hrtime.bigint() + ns;
      while (process.hrtime.bigint() < end) { /* busy, as a slower handler would be */ }
      return method(...args);
    };
  }
  return spun;
}

module.exports = { reference, served, spinNanos, NEGATIVE_COUNT, isPrime, average };
