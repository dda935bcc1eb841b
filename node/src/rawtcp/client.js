'use strict';
// The rawtcp client: one TCP connection (TCP_NODELAY), one call at a time, each request written whole and
// its answer read from the frames as they come. The framing has no call id: one call in flight per
// connection (no sharesConnection; the load command opens a connection per call in flight).
const net = require('node:net');
const { OPERATIONS } = require('../contract/operations');
const { BenchError } = require('../contract/errors');
const { Reader, FrameReader, frame, encoder, decoder } = require('./codec');

const UNARY = OPERATIONS.filter((op) => !op.isStream);
const encoders = new Map(UNARY.map((op) => [op.name, [op.id, op.params.map((p) => encoder(p.type))]]));
const decoders = new Map(UNARY.map((op) => [op.name, decoder(op.returns)]));
const decodeString = decoder('string');

class RawTcpClient {
  constructor(socket) {
    this.socket = socket;
    this.frames = new FrameReader();
    this.pending = null;
    this.facts = {};
    socket.on('data', (chunk) => {
      this.frames.push(chunk);
      let body;
      try {
        body = this.frames.next();
      } catch (e) {
        this.fail(e);
        return;
      }
      if (body !== null) this.settle(body);
    });
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => this.fail(new Error('the server closed the connection')));
  }

  settle(body) {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    try {
      const r = new Reader(body);
      const status = r.u8();
      if (status === 0) {
        const value = pending.decode(r);
        r.expectEnd();
        pending.resolve(value);
      } else if (status === 1) {
        const code = r.i32();
        pending.reject(new BenchError(code, decodeString(r)));
      } else {
        pending.reject(new Error(`server error: ${decodeString(r)}`));
      }
    } catch (e) {
      pending.reject(e);
    }
  }

  fail(error) {
    const pending = this.pending;
    this.pending = null;
    if (pending) pending.reject(error);
  }

  call(operation, args) {
    if (operation.isStream) return Promise.reject(new Error('rawtcp has no streams'));
    const [id, encodeArgs] = encoders.get(operation.name);
    const w = frame();
    w.u16(id);
    for (let i = 0; i < encodeArgs.length; i++) encodeArgs[i](w, args[i]);
    const decode = decoders.get(operation.name);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, decode };
      this.socket.write(w.finish());
    });
  }

  close() {
    this.socket.destroy();
  }
}

function connect(options) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: options.host, port: options.port, noDelay: true }, () => {
      socket.removeListener('error', reject);
      resolve(new RawTcpClient(socket));
    });
    socket.once('error', reject);
  });
}

module.exports = { connect };
