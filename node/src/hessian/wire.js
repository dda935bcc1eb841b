'use strict';
// Hessian's call and reply envelopes around hessian.js's encoders and decoders (Caucho's Hessian 1.0 and 2.0
// as Hessian 4.0.66 writes them): a Hessian 2 call is 'H' 2 0 'C' method argc args (a bare 'C' is taken
// too), a Hessian 1 call 'c' 1 0 'm' len method args 'z'; replies 'H' 2 0 'R' value or 'F' fault-map, and
// 'r' 1 0 value 'z' or 'r' 1 0 'f' key value ... 'z'. BenchError is the fault {code: "ServiceException",
// message, detail: {code, message}}.
const hessian = require('hessian.js');

const CONTENT_TYPE = 'x-application/hessian';
const PATH = '/hessian';

function encoder(version) {
  return version === 2 ? new hessian.EncoderV2({ size: 4096 }) : new hessian.EncoderV1({ size: 4096 });
}

function decoder(version, body) {
  return version === 2 ? new hessian.DecoderV2(body) : new hessian.DecoderV1(body);
}

function writeCall(e, version, method, writeArgs) {
  const b = e.byteBuffer;
  if (version === 2) {
    b.put(0x48).put(2).put(0).put(0x43);
    e.writeString(method);
    writeArgs(e);
  } else {
    b.put(0x63).put(1).put(0).put(0x6d);
    const name = Buffer.from(method, 'utf8');
    b.putUInt16(name.length).put(name);
    writeArgs(e);
    b.put(0x7a);
  }
  return e.get();
}

// Reads a call's head: { version, method, decoder } positioned at the first argument (Hessian 2: after argc,
// given as argc).
function readCall(body) {
  const first = body[0];
  if (first === 0x63) { // 'c' 1 0
    const d = decoder(1, body);
    const b = d.byteBuffer;
    b.position(3);
    while (b.get(b.position()) === 0x48) { // 'H' headers: name, value
      b.position(b.position() + 1);
      const n = b.getUInt16();
      b.position(b.position() + n);
      d.read();
    }
    if (b.get() !== 0x6d) throw new Error("a Hessian 1 call without 'm'");
    const length = b.getUInt16();
    const at = b.position();
    const method = body.toString('utf8', at, at + length);
    b.position(at + length);
    return { version: 1, method, decoder: d, argc: null };
  }
  let at = 0;
  if (first === 0x48) { // 'H' 2 0
    if (body[1] !== 2) throw new Error(`Hessian version ${body[1]}.${body[2]} is not taken here`);
    at = 3;
  }
  if (body[at] !== 0x43) throw new Error(`not a Hessian call (0x${(body[at] || 0).toString(16)})`);
  const d = decoder(2, body);
  d.byteBuffer.position(at + 1);
  const method = d.readString();
  const argc = d.readInt();
  return { version: 2, method, decoder: d, argc };
}

function writeReply(e, version, writeValue) {
  const b = e.byteBuffer;
  if (version === 2) {
    b.put(0x48).put(2).put(0).put(0x52);
    writeValue(e);
  } else {
    b.put(0x72).put(1).put(0);
    writeValue(e);
    b.put(0x7a);
  }
  return e.get();
}

function writeFault(e, version, code, message, detail) {
  const b = e.byteBuffer;
  if (version === 2) {
    b.put(0x48).put(2).put(0).put(0x46);
    b.put(0x48); // an untyped map
    e.writeString('code'); e.writeString(code);
    e.writeString('message'); e.writeString(message);
    e.writeString('detail'); writeDetail(e, 2, detail);
    b.put(0x5a);
  } else {
    b.put(0x72).put(1).put(0).put(0x66);
    e.writeString('code'); e.writeString(code);
    e.writeString('message'); e.writeString(message);
    e.writeString('detail'); writeDetail(e, 1, detail);
    b.put(0x7a);
  }
  return e.get();
}

function writeDetail(e, version, detail) {
  const b = e.byteBuffer;
  if (version === 2) b.put(0x48);
  else b.put(0x4d);
  e.writeString('code'); e.writeInt(detail.code);
  e.writeString('message'); e.writeString(detail.message);
  b.put(version === 2 ? 0x5a : 0x7a);
}

// Reads a reply: { value } read by readValue(decoder), or { fault: {code, message, detail} }.
function readReply(body, version, readValue) {
  if (version === 2) {
    let at = 0;
    if (body[0] === 0x48) {
      if (body[1] !== 2) throw new Error(`a Hessian ${body[1]}.${body[2]} reply to a Hessian 2 call`);
      at = 3;
    }
    const d = decoder(2, body);
    d.byteBuffer.position(at + 1);
    if (body[at] === 0x52) return { value: readValue(d) };
    if (body[at] === 0x46) return { fault: d.read() };
    throw new Error(`not a Hessian 2 reply (0x${(body[at] || 0).toString(16)})`);
  }
  if (body[0] !== 0x72) throw new Error(`not a Hessian 1 reply (0x${(body[0] || 0).toString(16)})`);
  const d = decoder(1, body);
  d.byteBuffer.position(3);
  if (body[3] === 0x66) {
    d.byteBuffer.position(4);
    const fault = {};
    while (d.byteBuffer.get(d.byteBuffer.position()) !== 0x7a) {
      const key = d.read();
      fault[key] = d.read();
    }
    return { fault };
  }
  const value = readValue(d);
  if (d.byteBuffer.get() !== 0x7a) throw new Error("a Hessian 1 reply without its 'z'");
  return { value };
}

module.exports = { CONTENT_TYPE, PATH, encoder, writeCall, readCall, writeReply, writeFault, readReply };
