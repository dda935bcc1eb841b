'use strict';
// The rawtcp server (idl/rawtcp.md): net.Server on the one event loop, TCP_NODELAY on every accepted
// socket, frames answered one after the other by the reference. A frame over 64 MiB closes the connection.
const net = require('node:net');
const { OPERATIONS } = require('../contract/operations');
const { served } = require('../contract/reference');
const { BenchError } = require('../contract/errors');
const { Reader, FrameReader, frame, encoder, decoder } = require('./codec');

const STATUS_OK = 0;
const STATUS_BENCH_ERROR = 1;
const STATUS_OTHER_ERROR = 2;

// Per operation id: the argument decoders, the reference method and the result encoder. The registry says
// rawtcp lacks server streaming, so the stream's id is an unknown operation here.
function handlers(bench) {
  const table = new Map();
  for (const op of OPERATIONS) {
    if (op.isStream) continue;
    table.set(op.id, [op.params.map((p) => decoder(p.type)), bench[op.name], encoder(op.returns)]);
  }
  return table;
}

const encodeString = encoder('string');

function answer(table, body) {
  let w = frame();
  try {
    const r = new Reader(body);
    const id = r.u16();
    const handler = table.get(id);
    if (!handler) throw new Error(`unknown operation ${id}`);
    const [decoders, method, encodeResult] = handler;
    const args = new Array(decoders.length);
    for (let i = 0; i < decoders.length; i++) args[i] = decoders[i](r);
    r.expectEnd();
    const result = method(...args);
    w.u8(STATUS_OK);
    encodeResult(w, result);
  } catch (e) {
    w = frame();
    if (e instanceof BenchError) {
      w.u8(STATUS_BENCH_ERROR);
      w.i32(e.code);
      encodeString(w, e.benchMessage);
    } else { // a bad request or argument: status 2, and the connection goes on
      w.u8(STATUS_OTHER_ERROR);
      encodeString(w, `${e.name}: ${e.message}`);
    }
  }
  return w.finish();
}

function start(options) {
  const table = handlers(served());
  const sockets = new Set();
  const server = net.createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const frames = new FrameReader();
    socket.on('data', (chunk) => {
      frames.push(chunk);
      try {
        for (let body = frames.next(); body !== null; body = frames.next()) socket.write(answer(table, body));
      } catch (e) { // a protocol error (a frame over 64 MiB) closes the connection
        process.stderr.write(`rawtcp connection closed: ${e.message}\n`);
        socket.destroy();
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port, exclusive: true }, () => {
      resolve({
        port: server.address().port,
        stop: () => new Promise((done) => {
          server.close(() => done());
          for (const s of sockets) s.destroy();
        }),
      });
    });
  });
}

module.exports = { start, answer, handlers };
