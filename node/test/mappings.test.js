'use strict';
// The carriage rules of idl/CONTRACT.md that a peer could break: receivers refuse what does not fit its
// declared type (an int where a double is declared, an out-of-range int8), never truncate; writers send the
// declared type; int64 past 2^53 exact.
const test = require('node:test');
const assert = require('node:assert/strict');
const zlib = require('node:zlib');
const http = require('node:http');
const json = require('../src/jsonrpc/json');
const jsonMapping = require('../src/jsonrpc/mapping');
const xmlMapping = require('../src/xmlrpc/mapping');
const soapMapping = require('../src/soap/mapping');
const hessianMapping = require('../src/hessian/mapping');
const hessian = require('hessian.js');
const { InvalidValue } = require('../src/contract/errors');
const { options } = require('./helpers');

test('JSON: integers past 2^53 parse exactly, -0.0 and float32 written as the contract says', () => {
  assert.equal(json.parse('{"a":[9223372036854775807,-9223372036854775808,1.5,"x"]}').a[0], 9223372036854775807n);
  assert.equal(json.parse('[12345678901234567890]')[0], 12345678901234567890n);
  assert.equal(json.parse('[1234567890123456]')[0], 1234567890123456);
  assert.throws(() => json.parse('[1,]' + '1234567890123456'), SyntaxError);
  assert.throws(() => json.parse(`${'['.repeat(2000)}1234567890123456${']'.repeat(2000)}`), /nesting/);
  assert.equal(jsonMapping.writer('float64')(-0), '-0.0');
  assert.equal(jsonMapping.writer('float32')(Math.fround(0.1)), '0.1');
  assert.equal(jsonMapping.writer('int64')(-(2n ** 63n)), '-9223372036854775808');
  assert.equal(jsonMapping.reader('int64')(json.parse('[9223372036854775807]')[0]), 9223372036854775807n);
  assert.equal(jsonMapping.reader('float32')(0.1), Math.fround(0.1));
  assert.throws(() => jsonMapping.reader('int8')(128), InvalidValue);
  assert.throws(() => jsonMapping.reader('int32')(1.5), InvalidValue);
  assert.throws(() => jsonMapping.reader('int64')('5'), InvalidValue);
  assert.throws(() => jsonMapping.reader('bytes')('not base64!'), InvalidValue);
  assert.throws(() => jsonMapping.writer('float64')(NaN), InvalidValue);
});

test('JSON-RPC server: the specification\'s request rules through jayson, errors with HTTP 200, notifications answered 204', async () => {
  const server = await require('../src/jsonrpc/server').start(options('jsonrpc'));
  const post = (body, headers = {}) => new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: server.port, path: '/jsonrpc', method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, (response) => {
      const chunks = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
    request.end(body);
  });
  try {
    assert.deepEqual(JSON.parse((await post('{"jsonrpc":"2.0","id":1,"method":"echoInt8","params":[300]}')).body).error.code, -32602);
    assert.equal(JSON.parse((await post('{"jsonrpc":"2.0","id":1,"method":"nope","params":[]}')).body).error.code, -32601);
    assert.equal(JSON.parse((await post('{"jsonrpc":"2.0","id":1,"method"')).body).error.code, -32700);
    assert.equal(JSON.parse((await post('{"jsonrpc":"1.0","id":1,"method":"ping"}')).body).error.code, -32600);
    assert.deepEqual(JSON.parse((await post('{"jsonrpc":"2.0","id":7,"method":"fail","params":[42,"boom"]}')).body), { jsonrpc: '2.0', id: 7, error: { code: 42, message: 'boom' } });
    const batch = JSON.parse((await post('[{"jsonrpc":"2.0","id":1,"method":"echoInt32","params":[5]},{"jsonrpc":"2.0","method":"ping"},1]')).body);
    assert.equal(batch.length, 2);
    assert.equal(batch[0].result, 5);
    assert.equal(batch[1].error.code, -32600);
    assert.equal((await post('{"jsonrpc":"2.0","method":"ping"}')).status, 204);
    assert.equal((await post('{"jsonrpc":"2.0","id":1,"method":"echoInt64","params":[9223372036854775807]}')).body, '{"jsonrpc":"2.0","id":1,"result":9223372036854775807}');
    assert.equal((await post('x', { 'Content-Length': String(65 * 1024 * 1024) }).catch(() => ({ status: 413 }))).status, 413);
  } finally {
    await server.stop();
  }
});

test('JSON-RPC gzip: a body that inflates past 64 MiB is refused with 413', async () => {
  const server = await require('../src/jsonrpc/server').start(options('jsonrpc-gzip'));
  try {
    const bomb = zlib.gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20));
    const status = await new Promise((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port: server.port, path: '/jsonrpc', method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': bomb.length } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('error', reject);
      request.end(bomb);
    });
    assert.equal(status, 413);
  } finally {
    await server.stop();
  }
});

test('XML-RPC: an int where a double is declared is refused, a double where an int is declared too, CR kept', async () => {
  const { answer } = require('../src/xmlrpc/server');
  const { reference } = require('../src/contract/reference');
  const methods = new Map();
  for (const op of require('../src/contract/operations').OPERATIONS) {
    if (!op.isStream) methods.set(op.name, { readers: op.params.map((p) => xmlMapping.reader(p.type)), write: xmlMapping.writer(op.returns), method: reference[op.name] });
  }
  const call = (method, params) => answer(methods, Buffer.from(`<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${params.map((p) => `<param><value>${p}</value></param>`).join('')}</params></methodCall>`));
  assert.match(await call('echoFloat64', ['<int>1</int>']), /-32602/);
  assert.match(await call('echoInt32', ['<double>1.5</double>']), /-32602/);
  assert.match(await call('echoInt32', ['<int>1.5</int>']), /-32700/);
  assert.match(await call('echoInt8', ['<int>128</int>']), /-32602/);
  assert.match(await call('echoFloat32', ['<double>0.1</double>']), /-32602/);
  assert.match(await call('echoFloat64', ['<double>-0.0</double>']), /<double>-0.0<\/double>/);
  assert.match(await call('echoString', ['<string>a&#13;b</string>']), /a&#xD;b/);
  assert.match(await call('ping', []), /<boolean>1<\/boolean>/);
  assert.match(await call('echoInt64', ['<string>9223372036854775807</string>']), /9223372036854775807/);
  assert.match(await call('fail', ['<int>42</int>', '<string>boom</string>']), /<name>faultCode<\/name><value><int>42<\/int>/);
  assert.match(await answer(methods, Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><methodCall><methodName>ping</methodName></methodCall>')), /-32700/);
});

test('SOAP: xs:float and xs:double lexical forms, xs:long exact, CR escaped', () => {
  assert.equal(soapMapping.writer('float64')(-Infinity), '-INF');
  assert.equal(soapMapping.writer('float64')(-0), '-0.0');
  assert.equal(soapMapping.writer('string')('a\r\n<&>'), 'a&#13;\n&lt;&amp;&gt;');
  assert.ok(Number.isNaN(soapMapping.reader('float32')('NaN')));
  assert.equal(soapMapping.reader('float64')('INF'), Infinity);
  assert.equal(soapMapping.reader('int64')('9223372036854775807'), 9223372036854775807n);
  assert.throws(() => soapMapping.reader('int16')('40000'), InvalidValue);
  assert.equal(soapMapping.reader('float32')('0.1'), Math.fround(0.1)); // an xs:float literal names the nearest float32
  assert.deepEqual([...soapMapping.reader('float64[]')('2.5')], [2.5]);
  assert.equal(soapMapping.reader('string')(''), '');
});

test('Hessian: every value written as its declared type, scalars read as theirs', () => {
  for (const version of [1, 2]) {
    const encoder = version === 2 ? new hessian.EncoderV2() : new hessian.EncoderV1();
    hessianMapping.writer('float64')(encoder, 1, version);
    hessianMapping.writer('int64')(encoder, 9223372036854775807n, version);
    hessianMapping.writer('int32')(encoder, 1, version);
    const decoder = version === 2 ? new hessian.DecoderV2(encoder.get()) : new hessian.DecoderV1(encoder.get());
    assert.equal(hessianMapping.reader('float64')(decoder), 1);
    assert.equal(hessianMapping.reader('int64')(decoder), 9223372036854775807n);
    assert.throws(() => hessianMapping.reader('float64')(decoder), InvalidValue, 'an int where a double is declared');
  }
});
