'use strict';
// The rawtcp wire format (idl/rawtcp.md), big-endian: an encoder and a decoder per contract type, built
// once per type so a call does no type dispatch. float64[] travels as one block: on this little-endian
// machine each value's bytes are swapped in place (Buffer.swap64) around one typed-array copy.
const { STRUCTS } = require('../contract/operations');
const { InvalidValue } = require('../contract/errors');

const MAX_FRAME = 64 * 1024 * 1024;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// A growable output buffer; a frame starts with a 4-byte length filled in at the end.
class Writer {
  constructor(size = 256) {
    this.buffer = Buffer.allocUnsafe(size);
    this.length = 0;
  }

  ensure(more) {
    const needed = this.length + more;
    if (needed <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < needed) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  u8(v) { this.ensure(1); this.buffer[this.length++] = v; }
  i8(v) { this.ensure(1); this.buffer.writeInt8(v, this.length); this.length += 1; }
  i16(v) { this.ensure(2); this.buffer.writeInt16BE(v, this.length); this.length += 2; }
  u16(v) { this.ensure(2); this.buffer.writeUInt16BE(v, this.length); this.length += 2; }
  i32(v) { this.ensure(4); this.buffer.writeInt32BE(v, this.length); this.length += 4; }
  u32(v) { this.ensure(4); this.buffer.writeUInt32BE(v, this.length); this.length += 4; }
  i64(v) { this.ensure(8); this.buffer.writeBigInt64BE(v, this.length); this.length += 8; }
  f32(v) { this.ensure(4); this.buffer.writeFloatBE(v, this.length); this.length += 4; }
  f64(v) { this.ensure(8); this.buffer.writeDoubleBE(v, this.length); this.length += 8; }

  string(v) {
    const max = v.length * 3;
    this.ensure(4 + max);
    const written = this.buffer.write(v, this.length + 4, max, 'utf8');
    this.buffer.writeUInt32BE(written, this.length);
    this.length += 4 + written;
  }

  bytes(v) {
    this.ensure(4 + v.length);
    this.buffer.writeUInt32BE(v.length, this.length);
    this.buffer.set(v, this.length + 4);
    this.length += 4 + v.length;
  }

  doubles(v) {
    const count = v.length;
    this.ensure(4 + count * 8);
    this.buffer.writeUInt32BE(count, this.length);
    const start = this.length + 4;
    const array = v instanceof Float64Array ? v : Float64Array.from(v);
    const source = Buffer.from(array.buffer, array.byteOffset, count * 8);
    source.copy(this.buffer, start);
    if (LITTLE_ENDIAN) this.buffer.subarray(start, start + count * 8).swap64();
    this.length = start + count * 8;
  }

  // A frame's length prefix, once its body is written (the writer was started with frame()).
  finish() {
    this.buffer.writeUInt32BE(this.length - 4, 0);
    return this.buffer.subarray(0, this.length);
  }
}

function frame() {
  const w = new Writer();
  w.length = 4;
  return w;
}

// A cursor over one frame's body; every count is checked against the bytes left before anything is
// reserved for it.
class Reader {
  constructor(buffer) {
    this.buffer = buffer;
    this.position = 0;
  }

  need(count) {
    if (this.position + count > this.buffer.length) {
      throw new InvalidValue(`frame ends before ${count} bytes at offset ${this.position}`);
    }
  }

  u8() { this.need(1); return this.buffer[this.position++]; }
  i8() { this.need(1); const v = this.buffer.readInt8(this.position); this.position += 1; return v; }
  i16() { this.need(2); const v = this.buffer.readInt16BE(this.position); this.position += 2; return v; }
  u16() { this.need(2); const v = this.buffer.readUInt16BE(this.position); this.position += 2; return v; }
  i32() { this.need(4); const v = this.buffer.readInt32BE(this.position); this.position += 4; return v; }
  u32() { this.need(4); const v = this.buffer.readUInt32BE(this.position); this.position += 4; return v; }
  i64() { this.need(8); const v = this.buffer.readBigInt64BE(this.position); this.position += 8; return v; }
  f32() { this.need(4); const v = this.buffer.readFloatBE(this.position); this.position += 4; return v; }
  f64() { this.need(8); const v = this.buffer.readDoubleBE(this.position); this.position += 8; return v; }

  take(count) {
    this.need(count);
    const chunk = this.buffer.subarray(this.position, this.position + count);
    this.position += count;
    return chunk;
  }

  string() {
    const count = this.u32();
    this.need(count);
    const text = this.buffer.toString('utf8', this.position, this.position + count);
    this.position += count;
    return text;
  }

  bytes() {
    return Buffer.from(this.take(this.u32())); // a copy: the frame's buffer is not kept
  }

  doubles() {
    const count = this.u32();
    const block = this.take(count * 8);
    const values = new Float64Array(count);
    const target = Buffer.from(values.buffer);
    block.copy(target);
    if (LITTLE_ENDIAN) target.swap64();
    return values;
  }

  // A list's count, refused when its elements (at least minSize bytes each) cannot fit in what is left.
  count(minSize) {
    const count = this.u32();
    if (count * minSize > this.buffer.length - this.position) {
      throw new InvalidValue(`a count of ${count} cannot fit in the ${this.buffer.length - this.position} bytes left`);
    }
    return count;
  }

  expectEnd() {
    if (this.position !== this.buffer.length) throw new InvalidValue(`${this.buffer.length - this.position} bytes left after the arguments`);
  }
}

const SCALARS = {
  bool: [(w, v) => w.u8(v ? 1 : 0), (r) => {
    const b = r.u8();
    if (b > 1) throw new InvalidValue(`a bool is 0 or 1, not ${b}`);
    return b === 1;
  }, 1],
  int8: [(w, v) => w.i8(v), (r) => r.i8(), 1],
  int16: [(w, v) => w.i16(v), (r) => r.i16(), 2],
  int32: [(w, v) => w.i32(v), (r) => r.i32(), 4],
  int64: [(w, v) => w.i64(v), (r) => r.i64(), 8],
  timestamp: [(w, v) => w.i64(v), (r) => r.i64(), 8],
  float32: [(w, v) => w.f32(v), (r) => r.f32(), 4],
  float64: [(w, v) => w.f64(v), (r) => r.f64(), 8],
  string: [(w, v) => w.string(v), (r) => r.string(), 4],
  bytes: [(w, v) => w.bytes(v), (r) => r.bytes(), 4],
  'float64[]': [(w, v) => w.doubles(v), (r) => r.doubles(), 4],
  void: [() => {}, () => undefined, 0],
};

const cache = new Map();

// [encode(writer, value), decode(reader), least encoded size] of a contract type.
function codec(type) {
  let found = cache.get(type);
  if (found) return found;
  if (SCALARS[type]) {
    found = SCALARS[type];
  } else if (type.endsWith('[]')) {
    const [encodeElement, decodeElement, size] = codec(type.slice(0, -2));
    found = [(w, v) => {
      w.u32(v.length);
      for (let i = 0; i < v.length; i++) encodeElement(w, v[i]);
    }, (r) => {
      const count = r.count(size);
      const out = new Array(count);
      for (let i = 0; i < count; i++) out[i] = decodeElement(r);
      return out;
    }, 4];
  } else if (STRUCTS[type]) {
    const fields = STRUCTS[type].map((f) => [f.name, ...codec(f.type)]);
    found = [(w, v) => {
      for (const [name, encode] of fields) encode(w, v[name]);
    }, (r) => {
      const out = {};
      for (const [name, , decode] of fields) out[name] = decode(r);
      return out;
    }, fields.reduce((sum, f) => sum + f[3], 0)];
  } else {
    throw new Error(`no rawtcp encoding for ${type}`);
  }
  cache.set(type, found);
  return found;
}

function encoder(type) { return codec(type)[0]; }
function decoder(type) { return codec(type)[1]; }

// The raw encoding of one value, as golden.json hashes it.
function encode(type, value) {
  const w = new Writer();
  encoder(type)(w, value);
  return w.buffer.subarray(0, w.length);
}

// Splits a byte stream into frames: push() each chunk, then read bodies with next() until it answers
// null. A declared length reserves nothing: the chunks are kept as they come and joined once complete.
class FrameReader {
  constructor() {
    this.chunks = [];
    this.buffered = 0;
    this.expected = -1;
  }

  push(chunk) {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  // The next whole frame body, or null; throws on a frame over 64 MiB (the connection is then closed).
  next() {
    if (this.expected < 0) {
      if (this.buffered < 4) return null;
      const head = this.chunks[0].length >= 4 ? this.chunks[0] : this.join();
      this.expected = head.readUInt32BE(0);
      if (this.expected > MAX_FRAME) throw new InvalidValue(`a frame of ${this.expected} bytes is over 64 MiB`);
    }
    if (this.buffered < 4 + this.expected) return null;
    const all = this.chunks.length === 1 ? this.chunks[0] : this.join();
    const body = all.subarray(4, 4 + this.expected);
    const rest = all.subarray(4 + this.expected);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    this.expected = -1;
    return body;
  }

  join() {
    const all = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [all];
    return all;
  }
}

module.exports = { Writer, Reader, FrameReader, frame, encoder, decoder, encode, codec, MAX_FRAME };
