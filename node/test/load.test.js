'use strict';
// The load command (runner/PROTOCOL.md#load): closed and open loops, latency from the intended send time,
// dropped, late, failed and hung calls counted, bad fields refused; the histograms are HdrHistogram's V2
// encoding (read back here, and by Python's hdrh when the repository's .venv has it); and once through the
// real client process against a real gRPC server. Every test is bounded to a few seconds.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');
const { spawn, spawnSync } = require('node:child_process');
const hdr = require('hdr-histogram-js');
const load = require('../src/harness/load');
const { CommandLoop } = require('../src/harness/client');
const { ROOT, IDL, options } = require('./helpers');

const plan = (fields) => load.planOf({ duration_ms: 1000, ...fields });
const histogram = (answer, name) => hdr.decodeFromCompressedBase64(answer[name], 64);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const turn = () => new Promise((resolve) => setImmediate(resolve));
const equivalent = (h, a, b) => h.lowestEquivalentValue(a) === h.lowestEquivalentValue(b);

test('a stall shows in the corrected latency and not in the service time', async () => {
  // The check: a server that stalls 200 ms once a second. At 500 calls/s with one call in flight the
  // calls due during a stall wait for it: their latency from the intended send runs up to 200 ms, while the
  // service time of all but the stalled call stays short (what a tool timing from the actual send reports).
  const started = Date.now();
  const stalled = new Set();
  const call = async () => {
    const second = Math.floor((Date.now() - started) / 1000);
    if (!stalled.has(second)) {
      stalled.add(second);
      await sleep(200);
    } else {
      await turn();
    }
  };
  const answer = await load.run(plan({ duration_ms: 3000, warmup_ms: 100, rate: 500 }), () => call);
  assert.equal(answer.mode, 'open');
  assert.equal(answer.offered_per_s, 500);
  const latency = histogram(answer, 'latency');
  const service = histogram(answer, 'service');
  assert.ok(latency.getValueAtPercentile(99) >= 150e6, `latency p99 ${latency.getValueAtPercentile(99)} ns`);
  assert.ok(service.getValueAtPercentile(99) < 50e6, `service p99 ${service.getValueAtPercentile(99)} ns`);
  assert.ok(answer.late > 100, `late ${answer.late}`); // the calls due during three stalls were sent late
  assert.equal(answer.errors, 0);
  assert.equal(answer.hung, 0);
  assert.equal(latency.totalCount, answer.calls);
  assert.deepEqual(answer.generator, {
    name: 'rpcmatrix node/src/harness/load.js', version: process.version, event_loop: true, threads: 1,
    histogram: 'hdr-histogram-js 3.0.1', clock: 'process.hrtime.bigint',
  });
});

test('a closed loop keeps every worker busy and times from the send', async () => {
  let inCall = 0;
  let most = 0;
  const call = async () => {
    inCall++;
    most = Math.max(most, inCall);
    await sleep(2);
    inCall--;
  };
  const answer = await load.run(plan({ connections: 4, in_flight: 4, duration_ms: 500 }), () => call);
  assert.equal(answer.mode, 'closed');
  assert.ok(!('offered_per_s' in answer));
  assert.equal(most, 4);
  // four workers of 2 ms calls: at most 2,000 calls a second (a timer fires late, never early)
  assert.ok(answer.achieved_per_s >= 300 && answer.achieved_per_s <= 2000, `achieved ${answer.achieved_per_s}/s`);
  assert.equal(histogram(answer, 'latency').totalCount, answer.calls);
  assert.ok(histogram(answer, 'service').getValueAtPercentile(50) >= 2e6);
  assert.ok(histogram(answer, 'dispatch').getValueAtPercentile(99) < 1e6);
  assert.equal(answer.dropped, 0);
});

test('calls due in the warm-up are made and not recorded', async () => {
  let made = 0;
  const call = async () => {
    made++;
    await turn();
  };
  const answer = await load.run(plan({ duration_ms: 200, warmup_ms: 200, rate: 200 }), () => call);
  // 40 calls due in each 200 ms: those of the warm-up all made, the window's sent or dropped
  assert.equal(answer.calls + answer.dropped, 40);
  assert.equal(made, answer.calls + 40);
});

test('an unreachable rate drops what it could not send', async () => {
  // 10 ms calls, one in flight, 1,000 a second asked for half a second: about 50 sent, the rest dropped.
  const answer = await load.run(plan({ duration_ms: 500, rate: 1000 }), () => () => sleep(10));
  assert.ok(answer.calls <= 60, `calls ${answer.calls}`);
  assert.ok(answer.dropped >= 400, `dropped ${answer.dropped}`);
  assert.ok(Math.abs(answer.calls + answer.dropped - 500) <= 3, `calls ${answer.calls} + dropped ${answer.dropped}`);
  assert.ok(answer.achieved_per_s < 0.15 * answer.offered_per_s);
});

test('failed calls are counted and not timed', async () => {
  let count = 0;
  const call = async () => {
    count++;
    if (count % 10 === 0) throw new Error('refused');
  };
  const answer = await load.run(plan({ duration_ms: 300, rate: 2000, arrival: 'poisson', seed: 3 }), () => call);
  assert.ok(answer.errors > 0);
  assert.equal(answer.first_error, 'Error: refused');
  assert.equal(answer.arrival, 'poisson');
  assert.equal(histogram(answer, 'latency').totalCount, answer.calls - answer.errors);
  assert.equal(answer.achieved_per_s, Math.round(((answer.calls - answer.errors) / 0.3) * 1e3) / 1e3);
});

test('a Poisson schedule is the seed\'s, its mean spacing the rate\'s', () => {
  const times = (seed) => {
    const schedule = new load.Schedule(plan({ rate: 1000, arrival: 'poisson', seed }), 0);
    return Array.from({ length: 20000 }, () => schedule.take());
  };
  assert.deepEqual(times(7).slice(0, 50), times(7).slice(0, 50));
  assert.notDeepEqual(times(7).slice(0, 50), times(8).slice(0, 50));
  const mean = times(7).at(-1) / 20000;
  assert.ok(Math.abs(mean - 1e6) < 0.03e6, `mean spacing ${mean} ns`);
  const constant = new load.Schedule(plan({ rate: 1000 }), 5);
  assert.deepEqual([constant.take(), constant.take(), constant.take()], [5, 1000005, 2000005]);
  assert.equal(constant.dueBy(10e6), 7);
  assert.equal(constant.take(), 3000005); // dueBy does not advance
});

test('a call that never returns is hung, and the command still answers', async () => {
  const begun = Date.now();
  const answer = await load.run(plan({ duration_ms: 200, timeout_ms: 300 }), () => () => new Promise(() => {}));
  assert.ok(Date.now() - begun < 2000, `answered after ${Date.now() - begun} ms`);
  assert.equal(answer.hung, 1);
  assert.ok(answer.timeouts >= 1);
  assert.equal(answer.calls, 0);
});

test('a bad plan is refused, naming the field', () => {
  const cases = [
    [{ duration_ms: 0 }, /duration_ms/], [{ rate: -1 }, /rate/], [{ arrival: 'bursty' }, /arrival/],
    [{ connections: 'two' }, /connections/], [{ in_flight: 1.5 }, /in_flight/], [{ warmup_ms: -1 }, /warmup_ms/],
    [{ seed: 'x' }, /seed/], [{ late_ms: 0 }, /late_ms/], [{ timeout_ms: -5 }, /timeout_ms/], [{ duration_ms: undefined }, /duration_ms/],
  ];
  for (const [fields, message] of cases) assert.throws(() => load.planOf({ duration_ms: 100, ...fields }), message, JSON.stringify(fields));
});

test('histograms span 1 ns to 60 s at 3 digits, values past 2^32 exact to their bucket', () => {
  const h = load.histogram();
  h.recordValue(1);
  h.recordValue(4294967297);
  h.recordValue(60e9);
  const decoded = hdr.decodeFromCompressedBase64(hdr.encodeIntoCompressedBase64(h), 64);
  assert.equal(decoded.totalCount, 3);
  assert.equal(decoded.highestTrackableValue, 60e9);
  assert.equal(decoded.minNonZeroValue, 1);
  assert.ok(equivalent(decoded, decoded.getValueAtPercentile(50), 4294967297));
  assert.ok(equivalent(decoded, decoded.maxValue, 60e9));
});

const PYTHON = path.join(ROOT, '.venv', 'bin', 'python');
const hasHdrh = fs.existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import hdrh'], { encoding: 'utf8' }).status === 0;

test('Python\'s hdrh (the runner\'s reader) decodes the histograms', { skip: hasHdrh ? false : 'no .venv with hdrh' }, () => {
  const h = load.histogram();
  for (let i = 0; i < 990; i++) h.recordValue(250000);
  for (let i = 0; i < 10; i++) h.recordValue(59999999999);
  const script = 'import sys\nfrom hdrh.histogram import HdrHistogram\nh = HdrHistogram.decode(sys.argv[1])\n'
    + 'print(h.get_total_count(), h.get_value_at_percentile(50), h.get_value_at_percentile(99.5), h.highest_trackable_value)';
  const run = spawnSync(PYTHON, ['-c', script, hdr.encodeIntoCompressedBase64(h)], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const [count, p50, p995, highest] = run.stdout.trim().split(' ').map(Number);
  assert.equal(count, 1000);
  assert.ok(equivalent(h, p50, 250000), `p50 ${p50}`);
  assert.ok(equivalent(h, p995, 59999999999), `p99.5 ${p995}`);
  assert.equal(highest, 60e9);
});

// An adapter whose connection takes one call at a time (every Node stack but gRPC), or one that carries
// concurrent calls; opened and closed counted.
function adapters(shares) {
  const made = { opened: 0, closed: 0 };
  const connect = async () => {
    made.opened++;
    return {
      sharesConnection: shares,
      call: () => turn(),
      close() {
        made.closed++;
      },
    };
  };
  return { made, connect };
}

test('a client with one call per connection refuses more in flight than connections; sessions are refused', async () => {
  const { made, connect } = adapters(undefined);
  const loop = new CommandLoop(options('rawtcp'), connect);
  assert.match((await loop.answer({ cmd: 'load', workload: 'ping', duration_ms: 50 })).error, /not connected/);
  assert.equal((await loop.answer({ cmd: 'connect' })).ok, true);
  const refused = await loop.answer({ cmd: 'load', workload: 'ping', connections: 2, in_flight: 4, duration_ms: 50 });
  assert.equal(refused.ok, false);
  assert.match(refused.error, /one call at a time per connection/);
  assert.equal(made.opened, 3);
  assert.equal(made.closed, 2); // the command's connections; the loop's own stays
  const served = await loop.answer({ cmd: 'load', workload: 'ping', connections: 2, in_flight: 2, duration_ms: 50 });
  assert.equal(served.ok, true, served.error);
  assert.ok(served.calls > 0);
  assert.equal(served.in_flight, 2);
  assert.equal(made.closed, 4);
  assert.match((await loop.answer({ cmd: 'load', workload: 'calculatorSession', duration_ms: 50 })).error, /unsupported on rawtcp/);
  assert.match((await loop.answer({ cmd: 'load', workload: 'ping', duration_ms: 50, arrival: 'x' })).error, /arrival/);
  assert.match((await loop.answer({ cmd: 'load', workload: 'randomDoublesStream50k', duration_ms: 50 })).error, /unsupported on rawtcp/);
  assert.equal((await loop.answer({ cmd: 'measure', workload: 'ping', calls: 3 })).calls, 3); // the loop goes on
  // a protocol with remote objects still gets no session: load takes one operation per call
  const rmi = new CommandLoop(options('rmi'), connect);
  await rmi.answer({ cmd: 'connect' });
  assert.match((await rmi.answer({ cmd: 'load', workload: 'calculatorSession', duration_ms: 50 })).error, /calculatorSession is a session/);
});

test('a client whose connection carries concurrent calls takes more in flight than connections', async () => {
  const { made, connect } = adapters(true);
  const loop = new CommandLoop(options('grpc'), connect);
  await loop.answer({ cmd: 'connect' });
  const answer = await loop.answer({ cmd: 'load', workload: 'ping', connections: 2, in_flight: 6, duration_ms: 50, rate: 1000 });
  assert.equal(answer.ok, true, answer.error);
  assert.equal(answer.connections, 2);
  assert.equal(answer.in_flight, 6);
  assert.equal(made.opened, 3);
  assert.equal(made.closed, 2);
});

// A TCP relay in front of a server that counts the connections made through it.
function relay(port) {
  const counted = { connections: 0 };
  const sockets = new Set();
  const server = net.createServer((inbound) => {
    counted.connections++;
    const outbound = net.connect({ host: '127.0.0.1', port, noDelay: true });
    inbound.setNoDelay(true);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => { inbound.destroy(); outbound.destroy(); sockets.delete(s); });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: server.address().port, counted,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((done) => server.close(done));
    },
  })));
}

test('end to end: the gRPC client process loads a gRPC server over connections of its own', async () => {
  const server = await require('../src/grpc/server').start(options('grpc'));
  const front = await relay(server.port);
  const child = spawn(process.execPath, [path.join(ROOT, 'node', 'src', 'grpc', 'main.js'), 'client', '--protocol', 'grpc',
    '--host', '127.0.0.1', '--port', String(front.port), '--idl', IDL], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const ask = async (command) => {
    child.stdin.write(`${JSON.stringify(command)}\n`);
    return JSON.parse((await lines.next()).value);
  };
  try {
    assert.equal((await ask({ cmd: 'connect' })).ok, true);
    const open = await ask({ cmd: 'load', workload: 'echoString', connections: 3, in_flight: 6, duration_ms: 300, warmup_ms: 100, rate: 400, arrival: 'poisson', seed: 7 });
    assert.equal(open.ok, true, open.error);
    assert.equal(front.counted.connections, 4); // the loop's own and the command's three
    assert.equal(open.mode, 'open');
    assert.equal(open.errors, 0, open.first_error);
    // 400/s for 300 ms: about 120 calls due, each answered or dropped (as many of each as the machine's speed
    // allows: with the other languages' tests beside it, none was answered in one run)
    const due = open.calls + open.dropped;
    assert.ok(due > 60 && due < 200, `calls ${open.calls}, dropped ${open.dropped}`);
    assert.equal(hdr.decodeFromCompressedBase64(open.latency, 64).totalCount, open.calls);
    const closed = await ask({ cmd: 'load', workload: 'ping', connections: 2, in_flight: 4, duration_ms: 200 });
    assert.equal(closed.ok, true, closed.error);
    assert.equal(closed.errors, 0, `calls ${closed.calls}, errors ${closed.errors}`);
    assert.ok(closed.client_cpu_ns > 0);
    assert.equal(front.counted.connections, 6);
    assert.equal((await ask({ cmd: 'measure', workload: 'ping', calls: 5 })).calls, 5); // its own connection is as it was
    assert.deepEqual(await ask({ cmd: 'quit' }), { ok: true });
    assert.equal(await exited, 0);
  } finally {
    child.kill();
    await front.close();
    await server.stop();
  }
});
