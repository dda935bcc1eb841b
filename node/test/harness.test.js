'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync, spawn } = require('node:child_process');
const path = require('node:path');
const { PassThrough } = require('node:stream');
const { CommandLoop, serveCommands } = require('../src/harness/client');
const { reference } = require('../src/contract/reference');
const { BenchError } = require('../src/contract/errors');
const { IDL, options } = require('./helpers');

// A client adapter answering with the reference in process.
function inProcess() {
  return {
    calls: 0,
    async call(operation, args) {
      this.calls++;
      const answer = reference[operation.name](...args);
      if (operation.isStream) return Float64Array.from(answer.flatMap((c) => [...c]));
      return answer;
    },
    close() {},
  };
}

function loop(protocol = 'grpc', adapter = inProcess()) {
  return new CommandLoop(options(protocol), async () => adapter);
}

test('connect pings and times the instantiation', async () => {
  const adapter = inProcess();
  const answer = await loop('grpc', adapter).answer({ cmd: 'connect', port: 5 });
  assert.equal(answer.ok, true);
  assert.ok(answer.instantiation_ns > 0);
  assert.equal(adapter.calls, 1);
});

test('vectors: every vector in file order, unsupported ones with the registry reason and not sent', async () => {
  const l = loop('jsonrpc');
  await l.answer({ cmd: 'connect' });
  const { ok, results } = await l.answer({ cmd: 'vectors' });
  assert.equal(ok, true);
  const byId = Object.fromEntries(results.map((r) => [r.id, r]));
  assert.equal(byId.ping.status, 'pass');
  assert.equal(byId.float64_nan.status, 'unsupported');
  assert.match(byId.float64_nan.reason, /JSON/);
  assert.equal(byId.fail_simple.status, 'pass');
  assert.equal(byId.calculator_session.status, 'unsupported');
  assert.equal(byId.refuse_wrong_password.status, 'unsupported');
  assert.ok(results.filter((r) => r.status !== 'unsupported').every((r) => r.status === 'pass'), JSON.stringify(results.filter((r) => r.status !== 'pass' && r.status !== 'unsupported')));
});

test('a wrong answer fails its vector with the first difference; an unexpected error is an error', async () => {
  const adapter = inProcess();
  adapter.call = async (operation, args) => {
    if (operation.name === 'echoInt64') return args[0] + 1n;
    if (operation.name === 'fail') throw new BenchError(args[0], `${args[1]}!`);
    if (operation.name === 'ping') return undefined;
    throw new Error('boom');
  };
  const l = loop('rawtcp', adapter);
  await l.answer({ cmd: 'connect' });
  const results = Object.fromEntries((await l.answer({ cmd: 'vectors' })).results.map((r) => [r.id, r]));
  assert.equal(results.int64_small.status, 'fail');
  assert.match(results.int64_small.reason, /expected -42n, actual -41n/);
  assert.equal(results.fail_simple.status, 'fail');
  assert.match(results.fail_simple.reason, /error.message/);
  assert.equal(results.bool_true.status, 'error');
});

test('prepare, warmup, measure and samples: one sample per call, the buffer emptied by samples', async () => {
  const l = loop();
  await l.answer({ cmd: 'connect' });
  assert.deepEqual(await l.answer({ cmd: 'prepare', workload: 'getItems10' }), { ok: true });
  assert.deepEqual(await l.answer({ cmd: 'warmup', workload: 'getItems10', calls: 3 }), { ok: true, checked: 3 });
  const steady = await l.answer({ cmd: 'warmup', workload: 'ping', calls: 5, until_steady: { tolerance: 10, max_ms: 1000 } });
  assert.equal(steady.ok, true);
  assert.equal(steady.batches, 3);
  assert.equal(steady.steady, true);
  assert.equal((await l.answer({ cmd: 'measure', workload: 'getItems10', calls: 4 })).calls, 4);
  assert.equal((await l.answer({ cmd: 'measure', workload: 'getItems10', calls: 2, min_ms: 0, max_calls: 9 })).calls, 2);
  const samples = await l.answer({ cmd: 'samples', workload: 'getItems10' });
  assert.deepEqual(samples.samples_ns.map((s) => s.length), [4, 2]);
  assert.ok(samples.samples_ns.flat().every((ns) => Number.isInteger(ns) && ns >= 0));
  assert.deepEqual((await l.answer({ cmd: 'samples', workload: 'getItems10' })).samples_ns, []);
});

test('a connection per call: each workload call on an adapter made anew and closed; vectors and sessions are not', async () => {
  const made = [];
  const connect = async () => {
    const adapter = { ...inProcess(), closed: false };
    adapter.close = () => { adapter.closed = true; };
    made.push(adapter);
    return adapter;
  };
  const l = new CommandLoop(options('grpc'), connect);
  const answer = await l.answer({ cmd: 'connect', connection: 'per-call' });
  assert.equal(answer.connection, 'per-call');
  assert.equal((await l.answer({ cmd: 'measure', workload: 'ping', calls: 4 })).calls, 4);
  assert.deepEqual((await l.answer({ cmd: 'warmup', workload: 'getItems10', calls: 2 })), { ok: true, checked: 2 });
  // the connect's own adapter (its ping), then one adapter per call, each used once and closed
  assert.equal(made.length, 1 + 4 + 2);
  assert.ok(made.slice(1).every((a) => a.calls === 1 && a.closed));
  assert.equal(made[0].closed, false);
  const sessions = new CommandLoop(options('rmi'), connect); // a protocol with remote objects
  await sessions.answer({ cmd: 'connect', connection: 'per-call' });
  assert.match((await sessions.answer({ cmd: 'measure', workload: 'calculatorSession', calls: 1 })).error, /no connection per call/);
  // without it, one adapter for everything
  const kept = new CommandLoop(options('grpc'), connect);
  assert.equal((await kept.answer({ cmd: 'connect' })).connection, undefined);
});

test('a connection per call keeps an adapter that closes each connection itself, telling it once', async () => {
  const made = [];
  const connect = async () => {
    const adapter = { ...inProcess(), asked: 0 };
    adapter.closeEachConnection = () => { adapter.asked += 1; };
    made.push(adapter);
    return adapter;
  };
  const l = new CommandLoop(options('soap11'), connect);
  assert.equal((await l.answer({ cmd: 'connect', connection: 'per-call' })).connection, 'per-call');
  assert.equal((await l.answer({ cmd: 'measure', workload: 'ping', calls: 3 })).calls, 3);
  assert.equal(made.length, 1);
  assert.equal(made[0].asked, 1);
});

test('measure goes on until min_ms, never past max_calls', async () => {
  const l = loop();
  await l.answer({ cmd: 'connect' });
  const answer = await l.answer({ cmd: 'measure', workload: 'ping', calls: 1, min_ms: 20, max_calls: 1000000 });
  assert.ok(answer.calls > 1);
  assert.equal((await l.answer({ cmd: 'measure', workload: 'ping', calls: 1, min_ms: 10000, max_calls: 7 })).calls, 7);
});

test('a warm-up answer that differs from the contract is ok: false with the difference', async () => {
  const adapter = inProcess();
  adapter.call = async () => 1;
  const l = loop('grpc', adapter);
  await l.answer({ cmd: 'connect' }).catch(() => {});
  const answer = await l.answer({ cmd: 'warmup', workload: 'echoInt32', calls: 2 });
  assert.equal(answer.ok, false);
  assert.match(answer.error, /call 1 of 2: result: expected 424242 \(0x4119e4c800000000\), actual 1/);
});

test('handler needs no server; a session workload is timed on an in-process calculator', async () => {
  const l = loop();
  const answer = await l.answer({ cmd: 'handler', workload: 'randomDoubles50k', calls: 2, repetitions: 3 });
  assert.equal(answer.ok, true);
  assert.deepEqual(answer.samples_ns.map((s) => s.length), [2, 2, 2]);
  assert.equal((await l.answer({ cmd: 'handler', workload: 'calculatorSession', calls: 1 })).ok, true);
});

test('unknown commands and workloads, a workload the protocol lacks, bad numbers: ok false, the loop goes on', async () => {
  const l = loop('rawtcp');
  assert.match((await l.answer({ cmd: 'nope' })).error, /unknown command/);
  assert.match((await l.answer({ cmd: 'prepare', workload: 'nope' })).error, /unknown workload/);
  assert.match((await l.answer({ cmd: 'prepare', workload: 'randomDoublesStream50k' })).error, /unsupported on rawtcp/);
  assert.match((await l.answer({ cmd: 'handler', workload: 'ping', calls: -1 })).error, /non-negative integer/);
  assert.match((await l.answer({ cmd: 'vectors' })).error, /not connected/);
});

test('the command loop answers one JSON line per command, a bad line included, and stops at quit', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines = [];
  output.on('data', (d) => lines.push(...d.toString().split('\n').filter(Boolean)));
  const done = serveCommands(loop(), input, output);
  input.write('{"cmd": "connect"}\nnot json\n\n{"cmd": "quit"}\n{"cmd": "connect"}\n');
  await done;
  assert.equal(lines.length, 3);
  assert.equal(JSON.parse(lines[0]).ok, true);
  assert.match(JSON.parse(lines[1]).error, /bad command/);
  assert.deepEqual(JSON.parse(lines[2]), { ok: true });
});

const MAIN = path.join(__dirname, '..', 'src', 'rawtcp', 'main.js');

test('an unregistered protocol, or one of another family, is refused at start with status 2', () => {
  const unknown = spawnSync(process.execPath, [MAIN, 'server', '--protocol', 'carrier-pigeon', '--host', '127.0.0.1', '--port', '0', '--idl', IDL], { encoding: 'utf8' });
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /protocol 'carrier-pigeon' is not in idl\/protocols.json/);
  const other = spawnSync(process.execPath, [MAIN, 'client', '--protocol', 'grpc', '--host', '127.0.0.1', '--port', '1', '--idl', IDL], { encoding: 'utf8' });
  assert.equal(other.status, 2);
  assert.match(other.stderr, /family 'grpc'/);
});

test('a server prints one ready line with its port, and SIGTERM stops it with status 0', async () => {
  const child = spawn(process.execPath, [MAIN, 'server', '--protocol', 'rawtcp', '--host', '127.0.0.1', '--port', '0', '--idl', IDL]);
  const line = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(d.toString())));
  const ready = JSON.parse(line);
  assert.equal(ready.ready, true);
  assert.ok(ready.port > 0);
  const exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exit, 0);
});

test('a server that cannot bind its port says why and exits non-zero', async () => {
  const first = spawn(process.execPath, [MAIN, 'server', '--protocol', 'rawtcp', '--host', '127.0.0.1', '--port', '0', '--idl', IDL]);
  const { port } = JSON.parse(await new Promise((resolve) => first.stdout.once('data', (d) => resolve(d.toString()))));
  const second = spawnSync(process.execPath, [MAIN, 'server', '--protocol', 'rawtcp', '--host', '127.0.0.1', '--port', String(port), '--idl', IDL], { encoding: 'utf8' });
  assert.equal(second.status, 1);
  assert.match(second.stderr, /EADDRINUSE/);
  first.kill('SIGTERM');
});
