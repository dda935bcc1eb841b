'use strict';
// Every family's server and client in process, node to node: every vector of the protocol passes or is
// unsupported with the registry's reason, but the -0.0 vectors that the thrift library and hessian.js's
// Hessian 2 writer lose (runner/known-failures.json).
const test = require('node:test');
const assert = require('node:assert/strict');
const { loadVectors } = require('../src/contract/catalog');
const { runVectors } = require('../src/harness/conformance');
const { IDL, options, pair } = require('./helpers');

const NEGATIVE_ZERO = ['float32_negative_zero', 'float64_negative_zero'];
const CASES = [
  ['rawtcp', 'rawtcp', []], ['jsonrpc', 'jsonrpc', []], ['jsonrpc', 'jsonrpc-gzip', []], ['xmlrpc', 'xmlrpc', []],
  ['grpc', 'grpc', []], ['grpc', 'grpc-tls', []], ['thrift', 'thrift-binary', NEGATIVE_ZERO], ['thrift', 'thrift-compact', NEGATIVE_ZERO],
  ['hessian', 'hessian1', []], ['hessian', 'hessian2', NEGATIVE_ZERO], ['soap', 'soap11', []], ['soap', 'soap12', []],
  ['soap', 'wss-username', []], ['soap', 'wss-sign', []],
];
// wss-sign signs and verifies every message in JavaScript: its large vectors take minutes, so they are
// certify's (runner), not the unit tests'.
const vectors = loadVectors(IDL);
const small = vectors.filter((v) => !['string_1mib', 'bytes_1mib', 'average_50k', 'random_doubles_50k', 'log_transform_50k', 'random_doubles_stream_50k'].includes(v.id));

for (const [family, protocol, lost] of CASES) {
  test(`${protocol}: node to node, every vector as the registry and the known failures say`, async () => {
    const p = await pair(family, protocol);
    try {
      const results = await runVectors(p.client, protocol === 'wss-sign' ? small : vectors, options(protocol).registered);
      const registered = options(protocol).registered;
      for (const r of results) {
        const vector = vectors.find((v) => v.id === r.id);
        const reason = registered.unsupportedReason(vector.needs);
        if (reason !== null) assert.deepEqual(r, { id: r.id, status: 'unsupported', reason }, r.id);
        else if (lost.includes(r.id)) assert.equal(r.status, 'fail', `${r.id}: ${r.reason}`);
        else assert.equal(r.status, 'pass', `${r.id}: ${r.reason}`);
      }
    } finally {
      await p.close();
    }
  });
}

test('soap11 per call: the client built from the WSDL kept, each call on a connection of its own, closed after it', async () => {
  const { BY_NAME } = require('../src/contract/operations');
  const p = await pair('soap', 'soap11');
  try {
    for (let i = 0; i < 2; i += 1) await p.client.call(BY_NAME.ping, []);
    const kept = p.client.connection.agent;
    assert.equal(kept.connections, 1); // kept: one connection for both
    const wsdlClient = p.client.client;
    p.client.closeEachConnection();
    for (let i = 0; i < 3; i += 1) await p.client.call(BY_NAME.ping, []);
    assert.equal(p.client.connection.agent.connections, 3);
    await new Promise((resolve) => { setTimeout(resolve, 50); }); // the agent destroys a socket once it is free
    assert.equal(Object.values(p.client.connection.agent.sockets).flat().length, 0); // none left open
    assert.equal(Object.values(p.client.connection.agent.freeSockets).flat().length, 0);
    assert.equal(p.client.client, wsdlClient);
  } finally {
    await p.close();
  }
});
