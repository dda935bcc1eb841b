'use strict';
// The contract's remote objects (CONTRACT.md#objects) in process: what the handler command times for the
// calculatorSession workload. Node serves no protocol with remote references; a total wraps as int64.
class NoSuchObject extends Error {}

class ReferenceCalculator {
  constructor() {
    this.sum = 0n;
    this.released = false;
  }

  alive() {
    if (this.released) throw new NoSuchObject('the calculator was released');
  }

  add(n) {
    this.alive();
    this.sum = BigInt.asIntN(64, this.sum + n);
    return this.sum;
  }

  clear() {
    this.alive();
    this.sum = 0n;
  }

  total() {
    this.alive();
    return this.sum;
  }

  release() {
    this.alive();
    this.released = true;
  }
}

// One calculatorSession sample: create(), add(1) ... add(n), total(), release(); answers the total.
function session(n) {
  const c = new ReferenceCalculator();
  for (let i = 1n; i <= n; i++) c.add(i);
  const total = c.total();
  c.release();
  return total;
}

function expectedTotal(n) {
  return BigInt.asIntN(64, (n * (n + 1n)) / 2n);
}

module.exports = { ReferenceCalculator, NoSuchObject, session, expectedTotal };
