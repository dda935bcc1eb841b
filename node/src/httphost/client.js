'use strict';
// The HTTP/1.1 client the HTTP families share: node:http with a keep-alive Agent of one socket (one
// connection, reused for every call), TCP_NODELAY, each request written whole with its Content-Length.
// HTTP/1.1 carries one request at a time on a connection (the Agent queues the others; Node.js does not
// pipeline): its adapters have no sharesConnection, and the load command opens a connection per call in flight.
const http = require('node:http');
const zlib = require('node:zlib');

const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 120 * 1000;

// A keep-alive Agent of one socket whose connections have TCP_NODELAY from the start.
class NoDelayAgent extends http.Agent {
  // keepAlive false: each request with Connection: close, its socket destroyed after the answer (a connection per call)
  constructor({ keepAlive = true } = {}) {
    super({ keepAlive, maxSockets: 1, keepAliveMsecs: 60000 });
    this.connections = 0;
  }

  createConnection(options, callback) {
    const socket = super.createConnection(options, callback);
    socket.setNoDelay(true);
    this.connections += 1;
    return socket;
  }
}

// The forward proxy of HTTP_PROXY (or http_proxy), as curl and urllib read it: { host, port }, or null.
function proxyOf(env = process.env) {
  const text = env.HTTP_PROXY || env.http_proxy;
  if (!text) return null;
  const url = new URL(text.includes('://') ? text : `http://${text}`);
  return { host: url.hostname, port: Number(url.port) || 80 };
}

class HttpClient {
  constructor(host, port, path, { gzip = false, proxy = proxyOf() } = {}) {
    this.host = host;
    this.port = port;
    this.path = path;
    this.gzip = gzip;
    // through a proxy: its connection, and the server named in the request line (absolute URI, RFC 9112 3.2.2)
    this.proxy = proxy;
    this.agent = new NoDelayAgent();
  }

  // POST body (Buffer or string); resolves to { status, headers, body (Buffer) }.
  post(body, contentType, extraHeaders = {}) {
    let payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const headers = { 'Content-Type': contentType, ...extraHeaders };
    if (this.gzip) {
      payload = zlib.gzipSync(payload);
      headers['Content-Encoding'] = 'gzip';
      headers['Accept-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = payload.length;
    const where = this.proxy
      ? { host: this.proxy.host, port: this.proxy.port, path: `http://${hostPort(this.host, this.port)}${this.path}`, setHost: false }
      : { host: this.host, port: this.port, path: this.path };
    if (this.proxy) headers.Host = hostPort(this.host, this.port);
    return this.send(where, headers, payload, true);
  }

  // One exchange; a request on a kept connection the peer had closed (a proxy that closes after each answer
  // without saying so) is sent again once on a new one, as Node's documentation advises (request.reusedSocket).
  send(where, headers, payload, again) {
    return new Promise((resolve, reject) => {
      const request = http.request({ ...where, method: 'POST', agent: this.agent, headers, timeout: TIMEOUT_MS }, (response) => {
        const chunks = [];
        let length = 0;
        response.on('data', (chunk) => {
          length += chunk.length;
          if (length > MAX_ANSWER_BYTES) {
            response.destroy(new Error('an answer over 64 MiB'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          let answer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length);
          try {
            if ((response.headers['content-encoding'] || '').toLowerCase() === 'gzip') answer = zlib.gunzipSync(answer, { maxOutputLength: MAX_ANSWER_BYTES });
          } catch (e) {
            reject(e);
            return;
          }
          resolve({ status: response.statusCode, headers: response.headers, body: answer });
        });
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
      request.on('error', (e) => {
        if (again && request.reusedSocket && e.code === 'ECONNRESET') resolve(this.send(where, headers, payload, false));
        else reject(e);
      });
      request.end(payload);
    });
  }

  // Drops the kept connection: the next call opens a new one.
  reset() {
    this.agent.destroy();
    this.agent = new NoDelayAgent();
  }

  close() {
    this.agent.destroy();
  }
}

// host:port as a URL's authority has it, an IPv6 address in brackets.
function hostPort(host, port) {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

module.exports = { HttpClient, NoDelayAgent, proxyOf, hostPort };
