'use strict';
// The shared HTTP client (src/httphost/client.js) and the SOAP client's axios through a forward proxy: HTTP_PROXY
// read as curl and urllib read it, the proxy's connection used, the server named in the request line (absolute
// URI) and in Host.
const test = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const { HttpClient, proxyOf } = require('../src/httphost/client');

// closingProxy(seen): a listening stand-in proxy that answers itself, noting each request's line and Host in `seen`,
// and, as tinyproxy does, closes each client connection after its answer.
async function closingProxy(seen) {
  const proxy = http.createServer((request, response) => {
    seen.push({ url: request.url, host: request.headers.host });
    request.resume();
    request.on('end', () => {
      response.setHeader('Content-Length', 2);
      response.end('ok', () => request.socket.destroy());
    });
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return proxy;
}

test('HTTP_PROXY is read as curl reads it', () => {
  assert.equal(proxyOf({}), null);
  assert.deepEqual(proxyOf({ HTTP_PROXY: 'http://198.18.0.5:8888' }), { host: '198.18.0.5', port: 8888 });
  assert.deepEqual(proxyOf({ http_proxy: '198.18.0.5:3128' }), { host: '198.18.0.5', port: 3128 });
});

test('through a proxy: its connection, the server in the request line and in Host; a closed kept connection is sent again', async () => {
  const seen = [];
  const proxy = await closingProxy(seen);
  try {
    const client = new HttpClient('198.18.0.9', 8080, '/RPC2', { proxy: { host: '127.0.0.1', port: proxy.address().port } });
    for (let i = 0; i < 3; i++) {
      const answer = await client.post('<call/>', 'text/xml');
      assert.equal(answer.body.toString(), 'ok');
    }
    client.close();
    assert.deepEqual(seen.map((s) => s.url), Array(3).fill('http://198.18.0.9:8080/RPC2'));
    assert.ok(seen.every((s) => s.host === '198.18.0.9:8080'));
  } finally {
    proxy.close();
  }
});

test('the SOAP client\'s axios goes through the same proxy; a closed kept connection is sent again', async () => {
  const { transport } = require('../src/soap/client');
  const seen = [];
  const proxy = await closingProxy(seen);
  const connection = transport({ host: '127.0.0.1', port: proxy.address().port });
  try {
    for (let i = 0; i < 3; i++) {
      const answer = await connection.request({ url: 'http://198.18.0.9:8080/bench', method: 'POST', data: '<call/>', headers: { 'Content-Type': 'text/xml' } });
      assert.equal(answer.data, 'ok');
    }
    assert.deepEqual(seen.map((s) => s.url), Array(3).fill('http://198.18.0.9:8080/bench'));
    assert.ok(seen.every((s) => s.host === '198.18.0.9:8080'));
    assert.equal(transport(null).request.defaults.proxy, false); // no proxy: axios reads no environment
  } finally {
    connection.agent.destroy();
    proxy.close();
  }
});
