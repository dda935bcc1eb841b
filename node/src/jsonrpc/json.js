'use strict';
// JSON as JSON-RPC carries the contract (CONTRACT.md#carriage): int64 as exact JSON integers, which
// JSON.parse reads as doubles (losing every digit past 2^53). parse() takes JSON.parse's native path when
// the text has no run of 16 digits (every integer then fits a double exactly) and otherwise a parser of
// its own whose integers past 2^53 are BigInts. Writers are typed: a value is written from its contract
// type, floats as their shortest round-trip decimal, -0 as -0.0 (JSON.stringify writes 0).

class JsonSyntaxError extends SyntaxError {}

const MAX_DEPTH = 1000;

function parse(text) {
  if (!/[0-9]{16}/.test(text)) return JSON.parse(text);
  return new ExactParser(text).document();
}

class ExactParser {
  constructor(text) {
    this.text = text;
    this.at = 0;
    this.depth = 0;
  }

  document() {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) this.fail('text after the value');
    return value;
  }

  fail(what) {
    throw new JsonSyntaxError(`${what} at position ${this.at}`);
  }

  space() {
    const t = this.text;
    let c = t.charCodeAt(this.at);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++this.at);
  }

  value() {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === 't') return this.literal('true', true);
    if (c === 'f') return this.literal('false', false);
    if (c === 'n') return this.literal('null', null);
    return this.number();
  }

  literal(word, value) {
    if (this.text.startsWith(word, this.at)) {
      this.at += word.length;
      return value;
    }
    return this.fail('an unexpected character');
  }

  nest() {
    if (++this.depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
  }

  object() {
    this.nest();
    this.at++;
    const out = {};
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') this.fail('a member name expected');
      const key = this.string();
      this.space();
      if (this.text[this.at++] !== ':') this.fail('":" expected');
      const value = this.value();
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      this.space();
      const c = this.text[this.at++];
      if (c === '}') break;
      if (c !== ',') this.fail('"," or "}" expected');
    }
    this.depth--;
    return out;
  }

  array() {
    this.nest();
    this.at++;
    const out = [];
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      this.depth--;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      const c = this.text[this.at++];
      if (c === ']') break;
      if (c !== ',') this.fail('"," or "]" expected');
    }
    this.depth--;
    return out;
  }

  string() {
    const t = this.text;
    let end = this.at + 1;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(end);
      if (Number.isNaN(c)) this.fail('an unterminated string');
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        end += 2;
        continue;
      }
      if (c < 32) this.fail('a control character in a string');
      end++;
    }
    const raw = t.slice(this.at, end + 1);
    this.at = end + 1;
    return escaped ? JSON.parse(raw) : raw.slice(1, -1);
  }

  number() {
    const pattern = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (!match) this.fail('a value expected');
    this.at = pattern.lastIndex;
    const token = match[0];
    if (match[1] === undefined && match[2] === undefined) {
      const value = Number(token);
      return Number.isSafeInteger(value) ? value : BigInt(token);
    }
    return Number(token);
  }
}

module.exports = { parse, JsonSyntaxError };
