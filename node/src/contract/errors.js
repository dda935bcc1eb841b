'use strict';
// The contract's declared error, and the refusal of a value that fails the receiver's checks.

class BenchError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'BenchError';
    this.code = code;
    this.benchMessage = message;
  }

  toString() {
    return `BenchError{code: ${this.code}, message: ${JSON.stringify(this.benchMessage)}}`;
  }
}

// A value that does not fit its declared type (CONTRACT.md#carriage: refused, never truncated); servers
// answer it with the protocol's invalid-parameters fault (-32602 where the protocol has codes).
class InvalidValue extends Error {
  constructor(message) {
    super(message);
    this.name = 'InvalidValue';
  }
}

module.exports = { BenchError, InvalidValue };
