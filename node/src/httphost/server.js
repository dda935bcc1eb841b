'use strict';
// The HTTP/1.1 server the HTTP families share (JSON-RPC, XML-RPC, Hessian): node:http on the one event
// loop, keep-alive, TCP_NODELAY on accepted sockets (noDelay), no request logging, each answer written
// whole with its Content-Length (headers and body leave in one write).
// A body is read without trusting its Content-Length (idl/CONTRACT.md, Limits): over 64 MiB declared is
// answered 413 before it is read and the connection closed; nothing is reserved for a declared length, the
// chunks are kept as they come; a chunked body passing 64 MiB is refused at the limit. A gzip variant's
// body is inflated with the same 64 MiB bound (zlib's maxOutputLength).
const http = require('node:http');
const zlib = require('node:zlib');

const MAX_BODY_BYTES = 64 * 1024 * 1024;
const KEEP_ALIVE_MS = 300 * 1000;
const REQUEST_TIMEOUT_MS = 10 * 1000; // the rest of a begun request (headers and body)

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const declared = request.headers['content-length'];
    if (declared !== undefined && !(/^[0-9]+$/.test(declared) && Number(declared) <= MAX_BODY_BYTES)) {
      reject(new HttpError(413, `a body of 0 to ${MAX_BODY_BYTES} bytes is taken`));
      return;
    }
    const chunks = [];
    let length = 0;
    request.on('data', (chunk) => {
      length += chunk.length;
      if (length > MAX_BODY_BYTES) {
        reject(new HttpError(413, `a body of 0 to ${MAX_BODY_BYTES} bytes is taken`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length)));
    request.on('error', reject);
  });
}

function gunzip(body) {
  try {
    return zlib.gunzipSync(body, { maxOutputLength: MAX_BODY_BYTES });
  } catch (e) {
    if (e.code === 'ERR_BUFFER_TOO_LARGE' || e.code === 'ERR_OUT_OF_RANGE' || /maxOutputLength|too large/i.test(e.message)) {
      throw new HttpError(413, `the inflated body passes ${MAX_BODY_BYTES} bytes`);
    }
    throw new HttpError(400, `the body is not gzip: ${e.message}`);
  }
}

// answer(request, body) resolves to { status, type, body, headers? } (body a Buffer or string). With
// gzip: true, a request body sent with Content-Encoding: gzip is inflated and answers are compressed when
// the client accepts gzip.
function serve(options, answer, { gzip = false, onGet = null } = {}) {
  const server = http.createServer({ noDelay: true, keepAlive: true, requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS }, (request, response) => {
    handle(request, response).catch((e) => {
      if (!response.headersSent) send(response, e.status || 500, 'text/plain; charset=utf-8', `${e.message}\n`, e.status === 413 ? { Connection: 'close' } : {});
      if (e.status === 413) request.socket.destroySoon();
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  async function handle(request, response) {
    if (request.method === 'GET' && onGet) {
      const got = await onGet(request);
      send(response, got.status, got.type, got.body, got.headers);
      return;
    }
    if (request.method !== 'POST') {
      send(response, 405, 'text/plain; charset=utf-8', 'POST only\n', { Allow: 'POST' });
      return;
    }
    let body = await readBody(request);
    const encoding = (request.headers['content-encoding'] || 'identity').toLowerCase();
    if (encoding === 'gzip' && gzip) body = gunzip(body);
    else if (encoding !== 'identity') throw new HttpError(415, `Content-Encoding ${encoding} is not taken here`);
    const out = await answer(request, body);
    let payload = typeof out.body === 'string' ? Buffer.from(out.body, 'utf8') : out.body;
    const headers = { ...(out.headers || {}) };
    if (gzip && /\bgzip\b/.test(request.headers['accept-encoding'] || '') && payload.length) {
      payload = zlib.gzipSync(payload);
      headers['Content-Encoding'] = 'gzip';
    }
    send(response, out.status, out.type, payload, headers);
  }

  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port, exclusive: true }, () => {
      resolve({
        port: server.address().port,
        server,
        stop: () => new Promise((done) => {
          server.close(() => done());
          for (const s of sockets) s.destroy();
        }),
      });
    });
  });
}

function send(response, status, type, body, headers = {}) {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  response.writeHead(status, { 'Content-Type': type, 'Content-Length': payload.length, ...headers });
  response.end(payload);
}

module.exports = { serve, readBody, HttpError, MAX_BODY_BYTES, gunzip };
