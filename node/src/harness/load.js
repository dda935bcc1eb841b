'use strict';
// The load command (runner/PROTOCOL.md#load): many calls in flight, closed or open loop, as the Python
// reference (python/src/rpcmatrix/harness/load.py) makes them.
//
// Closed loop: `in_flight` workers each make one call after another; a call's latency is its service time.
// Open loop: calls are due at intended times (constant spacing, or Poisson arrivals at `rate` per second from
// the contract's SplitMix64 seeded with `seed`); a free worker takes the next due time from the one schedule
// (an idle worker helps a stuck one), waits until it and sends the call. Latency runs from the intended time
// (coordinated omission corrected, as wrk2 does), service time from the actual send; their difference is the
// dispatch delay. A call sent more than `late_ms` after its intended time is late; a time still unsent when
// the window ends is dropped, not sent late.
//
// Node.js has one event loop: the workers are async loops (promises) on it, not threads, each awaiting its
// call on its connection (round robin over the command's connections). Its timers have 1 ms granularity,
// so a worker waits for an intended time with setTimeout for the coarse part and setImmediate turns for the
// last SPIN_NS (the dispatch histogram shows what that achieves). Histograms are HdrHistogram's
// (hdr-histogram-js, counts in 64-bit floats: exact to 2^53), answered in the V2 compressed encoding, base64.
const hdr = require('hdr-histogram-js');
const { SplitMix64 } = require('../contract/generator');

// 1 ns to 60 s at 3 significant digits: the range HdrHistogram's own examples use for request latencies.
const LOWEST_NS = 1;
const HIGHEST_NS = 60e9;
const DIGITS = 3;
const HISTOGRAM = `hdr-histogram-js ${require('hdr-histogram-js/package.json').version}`;
// The last stretch before an intended time waited for in setImmediate turns rather than a timer: a
// setTimeout(n) fires on the loop's cached millisecond clock, a fraction of a millisecond early or late, so
// a timer of floor(left - SPIN_NS) ms wakes 1 to 2 ms early, and the turns (a busy wait that lets I/O and the
// other workers run) take it to the intended time. A longer stretch costs CPU (the turns keep the loop busy)
// for little: on this project's 2-core machine a no-op call at 200 and 1,000 calls/s was sent within a few
// microseconds of its time at the median with 0.5, 1 or 2 ms, the tails set by the CPU's other work.
const SPIN_NS = 1e6;
const FIRST_ERROR_CHARS = 300;

function histogram() {
  return hdr.build({
    bitBucketSize: 64, autoResize: false, lowestDiscernibleValue: LOWEST_NS, highestTrackableValue: HIGHEST_NS,
    numberOfSignificantValueDigits: DIGITS, useWebAssembly: false,
  });
}

function isNumber(value) {
  return typeof value === 'number' && Number.isFinite(value);
}

// The command's fields, checked: an invalid one is an Error naming it.
function planOf(command) {
  const positive = (name, fallback) => {
    const value = command[name] === undefined ? fallback : command[name];
    if (!isNumber(value) || value <= 0) throw new Error(`load: ${name} must be a positive number, got ${JSON.stringify(value)}`);
    return value;
  };
  const positiveInteger = (name, fallback) => {
    const value = command[name] === undefined ? fallback : command[name];
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`load: ${name} must be a positive integer, got ${JSON.stringify(value)}`);
    return value;
  };
  const connections = positiveInteger('connections', 1);
  const inFlight = positiveInteger('in_flight', connections);
  const arrival = command.arrival === undefined ? 'constant' : command.arrival;
  if (arrival !== 'constant' && arrival !== 'poisson') throw new Error(`load: arrival must be constant or poisson, got ${JSON.stringify(arrival)}`);
  const rate = command.rate === undefined || command.rate === null ? null : positive('rate');
  const warmupMs = command.warmup_ms === undefined ? 0 : command.warmup_ms;
  if (!isNumber(warmupMs) || warmupMs < 0) throw new Error(`load: warmup_ms must be a non-negative number, got ${JSON.stringify(warmupMs)}`);
  const seed = command.seed === undefined ? 1 : command.seed;
  if (!Number.isSafeInteger(seed)) throw new Error(`load: seed must be an integer, got ${JSON.stringify(seed)}`);
  return {
    connections, inFlight, durationNs: Math.round(positive('duration_ms') * 1e6), warmupNs: Math.round(warmupMs * 1e6),
    rate, arrival, seed, lateNs: positive('late_ms', 1) * 1e6, timeoutNs: positive('timeout_ms', 10000) * 1e6,
  };
}

// The intended send times of an open loop, handed out in order to whichever worker asks first (one event
// loop: no lock).
class Schedule {
  constructor(plan, startNs) {
    this.random = new SplitMix64(BigInt(plan.seed));
    this.intervalNs = 1e9 / plan.rate;
    this.poisson = plan.arrival === 'poisson';
    this.nextNs = startNs;
  }

  step(random) {
    return this.poisson ? -Math.log(1 - random.nextDouble()) * this.intervalNs : this.intervalNs;
  }

  take() {
    const due = Math.floor(this.nextNs);
    this.nextNs += this.step(this.random);
    return due;
  }

  // Intended sends before endNs not handed out yet (the dropped ones), without advancing.
  dueBy(endNs) {
    const random = new SplitMix64(this.random.hi, this.random.lo);
    let count = 0;
    for (let at = this.nextNs; at < endNs; at += this.step(random)) count++;
    return count;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const turn = () => new Promise((resolve) => setImmediate(resolve));

// Resolves at clock() >= at: a timer for all but the last SPIN_NS, then event-loop turns.
async function until(clock, at) {
  const coarseMs = Math.floor((at - clock() - SPIN_NS) / 1e6);
  if (coarseMs >= 1) await sleep(coarseMs); // (setTimeout takes 0 as 1 ms)
  while (clock() < at) await turn();
}

function errorText(e) {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : `Error: ${String(e)}`;
  return text.slice(0, FIRST_ERROR_CHARS);
}

// Runs the load; makeCall(worker) gives worker `worker`'s call (on its connection), a function returning a
// promise. Resolves to the answer's fields (runner/PROTOCOL.md#load).
async function run(plan, makeCall) {
  const origin = process.hrtime.bigint();
  const clock = () => Number(process.hrtime.bigint() - origin);
  const calls = Array.from({ length: plan.inFlight }, (_, worker) => makeCall(worker));
  const start = clock() + 1e6; // every worker started before the first intended send
  const recordFrom = start + plan.warmupNs;
  const end = recordFrom + plan.durationNs;
  const schedule = plan.rate === null ? null : new Schedule(plan, start);
  const total = { latency: histogram(), service: histogram(), dispatch: histogram(), calls: 0, errors: 0, timeouts: 0, late: 0, firstError: '' };
  const record = (h, ns) => h.recordValue(Math.min(Math.max(ns, LOWEST_NS), HIGHEST_NS));
  let stopped = false; // set when the command answers: a call answered after it is not counted
  let busy = 0; // workers not finished (a call outstanding, or waiting for their next time)

  async function work(call) {
    for (;;) {
      let intended;
      if (schedule !== null) {
        if (clock() >= end) return; // what is still due is dropped, not sent late after the window
        intended = schedule.take();
        if (intended >= end) return;
        await until(clock, intended);
      } else {
        intended = clock();
        if (intended >= end) return;
      }
      const sent = clock();
      let failed = '';
      try {
        await call();
      } catch (e) { // counted; the worker goes on
        failed = errorText(e);
      }
      const done = clock();
      if (stopped) return;
      if (intended < recordFrom) continue;
      total.calls++;
      if (failed) {
        total.errors++;
        total.firstError = total.firstError || failed;
        continue;
      }
      if (done - intended > plan.timeoutNs) total.timeouts++;
      if (sent - intended > plan.lateNs) total.late++;
      record(total.latency, done - intended);
      record(total.service, done - sent);
      record(total.dispatch, sent - intended);
    }
  }

  const cpuBefore = process.cpuUsage();
  const workers = calls.map((call) => {
    busy++;
    return work(call).finally(() => { busy--; });
  });
  // A call that never answers holds its worker: waited for up to the time-out past the end, then counted.
  let timer;
  const deadline = new Promise((resolve) => { timer = setTimeout(resolve, Math.max(0, (end + plan.timeoutNs - clock()) / 1e6)); });
  try {
    await Promise.race([Promise.all(workers), deadline]);
  } finally {
    clearTimeout(timer);
  }
  stopped = true;
  const hung = busy;
  const finished = clock();
  const cpu = process.cpuUsage(cpuBefore);
  const windowS = plan.durationNs / 1e9;
  const answer = {
    mode: schedule === null ? 'closed' : 'open',
    connections: plan.connections, in_flight: plan.inFlight,
    duration_ms: plan.durationNs / 1e6, elapsed_ms: Math.round((finished - recordFrom) / 1e3) / 1e3,
    calls: total.calls, errors: total.errors, timeouts: total.timeouts + hung, hung,
    late: total.late, dropped: schedule === null ? 0 : schedule.dueBy(end),
    achieved_per_s: Math.round(((total.calls - total.errors) / windowS) * 1e3) / 1e3,
    client_cpu_ns: (cpu.user + cpu.system) * 1000,
    latency: hdr.encodeIntoCompressedBase64(total.latency),
    service: hdr.encodeIntoCompressedBase64(total.service),
    dispatch: hdr.encodeIntoCompressedBase64(total.dispatch),
    generator: generator(),
  };
  if (schedule !== null) Object.assign(answer, { offered_per_s: plan.rate, arrival: plan.arrival, seed: plan.seed });
  if (total.firstError) answer.first_error = total.firstError;
  return answer;
}

function generator() {
  return {
    name: 'rpcmatrix node/src/harness/load.js', version: process.version, event_loop: true, threads: 1,
    histogram: HISTOGRAM, clock: 'process.hrtime.bigint',
  };
}

module.exports = { planOf, run, histogram, Schedule, LOWEST_NS, HIGHEST_NS, DIGITS };
