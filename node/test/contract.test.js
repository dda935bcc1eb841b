'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { SplitMix64, fnv1a64 } = require('../src/contract/generator');
const { reference, served, spinNanos } = require('../src/contract/reference');
const { decode, decodeArgs } = require('../src/contract/values');
const { difference, resultDifference } = require('../src/contract/compare');
const { BY_NAME, OPERATIONS } = require('../src/contract/operations');
const { encode } = require('../src/rawtcp/codec');
const { float32Text } = require('../src/contract/scalars');
const { BenchError } = require('../src/contract/errors');
const { session } = require('../src/contract/calculator');
const { IDL } = require('./helpers');

test('SplitMix64 and FNV-1a 64 give the contract reference values', () => {
  const rng = new SplitMix64(0n);
  assert.equal(rng.next(), 0xE220A8397B1DCDAFn);
  assert.equal(rng.next(), 0x6E789E6AA1B965F4n);
  assert.equal(fnv1a64(Buffer.from('')), 0xCBF29CE484222325n);
  assert.equal(fnv1a64(Buffer.from('a')), 0xAF63DC4C8601EC8Cn);
});

test('below() is (next() >>> 1) mod n for small and large n, as BigInt arithmetic says', () => {
  for (const n of [1, 2, 62, 10000, 1000000000, 1000000000000, 2 ** 40 + 7]) {
    const a = new SplitMix64(12345n);
    const b = new SplitMix64(12345n);
    for (let i = 0; i < 200; i++) assert.equal(a.below(n), Number((b.next() >> 1n) % BigInt(n)));
  }
});

const golden = JSON.parse(fs.readFileSync(path.join(IDL, 'golden.json'), 'utf8'));

for (const g of golden.answers) {
  test(`golden answer ${g.op}(${JSON.stringify(g.args)})`, () => {
    const operation = BY_NAME[g.op];
    const answer = reference[g.op](...decodeArgs(operation, g.args));
    const bytes = encode(g.type, answer);
    assert.equal(bytes.length, g.bytes);
    assert.equal(fnv1a64(bytes).toString(16).padStart(16, '0'), g.fnv1a64);
  });
}

for (const g of golden.generated) {
  test(`golden generated ${JSON.stringify(g.form)}`, () => {
    const bytes = encode(g.type, decode(g.type, g.form));
    assert.equal(bytes.length, g.bytes);
    assert.equal(fnv1a64(bytes).toString(16).padStart(16, '0'), g.fnv1a64);
  });
}

test('the reference raises BenchError as the contract says', () => {
  assert.throws(() => reference.getItems(-1), (e) => e instanceof BenchError && e.code === 400 && e.benchMessage === 'count must not be negative');
  assert.throws(() => reference.randomDoublesStream(10, 1n, 0), (e) => e instanceof BenchError && e.benchMessage === 'chunk must be positive');
  assert.throws(() => reference.fail(42, 'boom'), (e) => e instanceof BenchError && e.code === 42);
  assert.equal(reference.isPrime(2147483647), true);
  assert.equal(reference.isPrime(2147483646), false);
  assert.equal(reference.isPrime(-7), false);
  assert.equal(reference.average([]), 0);
  assert.ok(Object.is(reference.logTransform(Float64Array.of(0))[0], -Infinity));
  assert.ok(Number.isNaN(reference.logTransform(Float64Array.of(-1))[0]));
  const stream = reference.randomDoublesStream(10001, 3n, 1000);
  assert.equal(stream.length, 11);
  assert.equal(stream[10].length, 1);
});

test('a calculator session totals N(N+1)/2', () => {
  assert.equal(session(10n), 55n);
});

test('values decode the vectors file forms', () => {
  assert.equal(decode('int64', '-9223372036854775808'), -(2n ** 63n));
  assert.ok(Object.is(decode('float64', '-0.0'), -0));
  assert.equal(decode('float32', '0x3dcccccd'), Math.fround(0.1));
  assert.equal(decode('float64', '0x0000000000000001'), 5e-324);
  assert.equal(decode('string', { repeat: 'ab', length: 5 }), 'ababa');
  assert.deepEqual([...decode('bytes', { allByteValues: true })].slice(0, 3), [0, 1, 2]);
  assert.equal(decode('bytes', { randomBytes: { count: 13, seed: 0 } }).length, 13);
  assert.throws(() => decode('float32', 0.1), /not exactly representable/);
  assert.throws(() => decode('int8', 128), /out of range/);
  assert.ok(decode('float64[]', { randomDoubles: { count: 3, seed: 1 } }) instanceof Float64Array);
});

test('comparison: floats by bits, any NaN equals any NaN, logTransform within 1 ulp', () => {
  assert.equal(difference('float64', NaN, NaN), null);
  assert.match(difference('float64', -0, 0), /expected -0/);
  assert.match(difference('int64', 1n, 1), /expected 1n/);
  assert.match(difference('int32', 1, 1n), /result/);
  const next = new Float64Array(new BigInt64Array([BigInt.asIntN(64, new BigInt64Array(Float64Array.of(2.5).buffer)[0] + 1n)]).buffer)[0];
  assert.equal(resultDifference(BY_NAME.logTransform, Float64Array.of(2.5), [next]), null);
  assert.notEqual(resultDifference(BY_NAME.echoFloat64, 2.5, next), null);
  assert.match(difference('Item[]', reference.getItems(2), reference.getItems(2).slice(0, 1)), /expected 2 elements/);
  assert.match(difference('bytes', Buffer.from('ab'), 'ab'), /result/);
});

test('float32 as the shortest decimal that reads back to the same float32', () => {
  assert.equal(float32Text(Math.fround(0.1)), '0.1');
  assert.equal(float32Text(1.5), '1.5');
  assert.equal(float32Text(-0), '-0.0');
  for (const bits of [0x00000001, 0x007fffff, 0x7f7fffff, 0x3dcccccd, 0x3eb4fdf4]) {
    const value = new Float32Array(new Uint32Array([bits]).buffer)[0];
    assert.equal(Math.fround(Number(float32Text(value))), value);
  }
});

test('the served reference busy-waits when the runner injects a spin, and refuses a bad setting', () => {
  assert.equal(spinNanos({}), 0n);
  assert.equal(spinNanos({ RPCMATRIX_SERVER_SPIN_US: '20' }), 20000n);
  assert.throws(() => spinNanos({ RPCMATRIX_SERVER_SPIN_US: 'x' }), /whole microseconds/);
  const spun = served({ RPCMATRIX_SERVER_SPIN_US: '2000' });
  const started = process.hrtime.bigint();
  assert.equal(spun.echoInt32(7), 7);
  assert.ok(process.hrtime.bigint() - started >= 2000000n);
});

test('the operation table is idl/contract.json\'s', () => {
  const contract = JSON.parse(fs.readFileSync(path.join(IDL, 'contract.json'), 'utf8'));
  assert.deepEqual(OPERATIONS.map((o) => o.name), contract.operations.map((o) => o.name));
  for (const o of OPERATIONS) assert.equal(typeof reference[o.name], 'function', o.name);
});
