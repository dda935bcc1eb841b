'use strict';
// The contract's deterministic generator (SplitMix64) and hash (FNV-1a 64), idl/CONTRACT.md#generated-data.
// A 64-bit word is two unsigned 32-bit halves (hi, lo) held in doubles: every step is exact 32-bit
// arithmetic, several times faster than BigInt for the 50,000-double workloads. BigInt appears only
// where a value leaves as an int64.
const GAMMA_HI = 0x9e3779b9;
const GAMMA_LO = 0x7f4a7c15;
const MIX1_HI = 0xbf58476d;
const MIX1_LO = 0x1ce4e5b9;
const MIX2_HI = 0x94d049bb;
const MIX2_LO = 0x133111eb;
const TWO_POW_32 = 4294967296;
const TWO_POW_MINUS_53 = 2 ** -53;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// The high 32 bits of the 64-bit product of two unsigned 32-bit values.
function mulHigh32(a, b) {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = ((a0 * b0) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16)) >>> 0;
}

class SplitMix64 {
  // seed: a BigInt (an int64, or any integer taken modulo 2^64), or two halves.
  constructor(seed, lo) {
    if (typeof seed === 'bigint') {
      const bits = BigInt.asUintN(64, seed);
      this.hi = Number(bits >> 32n);
      this.lo = Number(bits & 0xffffffffn);
    } else {
      this.hi = seed >>> 0;
      this.lo = lo >>> 0;
    }
    this.zHi = 0; // the last next(), as halves
    this.zLo = 0;
  }

  // Advances and leaves the 64-bit output in zHi, zLo.
  step() {
    let lo = this.lo + GAMMA_LO;
    let hi = (this.hi + GAMMA_HI + (lo > 0xffffffff ? 1 : 0)) >>> 0;
    lo >>>= 0;
    this.hi = hi;
    this.lo = lo;
    // z = (z ^ (z >>> 30)) * MIX1
    let xLo = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
    let xHi = (hi ^ (hi >>> 30)) >>> 0;
    hi = (mulHigh32(xLo, MIX1_LO) + Math.imul(xHi, MIX1_LO) + Math.imul(xLo, MIX1_HI)) >>> 0;
    lo = Math.imul(xLo, MIX1_LO) >>> 0;
    // z = (z ^ (z >>> 27)) * MIX2
    xLo = (lo ^ ((lo >>> 27) | (hi << 5))) >>> 0;
    xHi = (hi ^ (hi >>> 27)) >>> 0;
    hi = (mulHigh32(xLo, MIX2_LO) + Math.imul(xHi, MIX2_LO) + Math.imul(xLo, MIX2_HI)) >>> 0;
    lo = Math.imul(xLo, MIX2_LO) >>> 0;
    // z ^ (z >>> 31)
    this.zLo = (lo ^ ((lo >>> 31) | (hi << 1))) >>> 0;
    this.zHi = (hi ^ (hi >>> 31)) >>> 0;
  }

  // The next unsigned 64-bit value, as a BigInt.
  next() {
    this.step();
    return (BigInt(this.zHi) << 32n) | BigInt(this.zLo);
  }

  // A float64 in [0, 1): the top 53 bits times 2^-53, exact.
  nextDouble() {
    this.step();
    return ((this.zHi >>> 11) * TWO_POW_32 + ((((this.zHi & 0x7ff) << 21) | (this.zLo >>> 11)) >>> 0)) * TWO_POW_MINUS_53;
  }

  // (next() >>> 1) mod n, for 0 < n < 2^53.
  below(n) {
    this.step();
    const h = this.zHi >>> 1;
    const l = (((this.zHi & 1) << 31) | (this.zLo >>> 1)) >>> 0;
    if (n <= 137438953472) { // 2^37: every product below stays under 2^53, exact in a double
      let r = ((h % n) * 65536) % n;
      r = (r * 65536) % n;
      return (r + l) % n;
    }
    return Number(((BigInt(h) << 32n) | BigInt(l)) % BigInt(n));
  }

  // next() read as a two's-complement int64 (a BigInt).
  signed64() {
    return BigInt.asIntN(64, this.next());
  }

  // (next() >>> 32) read as a two's-complement int32.
  signed32() {
    this.step();
    return this.zHi | 0;
  }

  word(length) {
    let text = '';
    for (let i = 0; i < length; i++) text += ALPHABET[this.below(62)];
    return text;
  }

  // count values of nextDouble(), in order, into a Float64Array.
  doubles(count) {
    const values = new Float64Array(count);
    for (let i = 0; i < count; i++) values[i] = this.nextDouble();
    return values;
  }
}

const FNV_PRIME_HI = 0x100;
const FNV_PRIME_LO = 0x1b3;

// FNV-1a 64 of a Buffer or Uint8Array, as a BigInt (unsigned).
function fnv1a64(bytes) {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    const nextHi = (mulHigh32(lo, FNV_PRIME_LO) + Math.imul(hi, FNV_PRIME_LO) + Math.imul(lo, FNV_PRIME_HI)) >>> 0;
    lo = Math.imul(lo, FNV_PRIME_LO) >>> 0;
    hi = nextHi;
  }
  return (BigInt(hi) << 32n) | BigInt(lo);
}

module.exports = { SplitMix64, fnv1a64, ALPHABET, mulHigh32 };
