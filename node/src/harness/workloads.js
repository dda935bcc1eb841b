'use strict';
// The warmup, measure and handler commands: a workload's calls, checked (warm-up) or timed. Each sample is
// one call between two readings of the monotonic clock (process.hrtime.bigint), awaited before the next:
// one call at a time, as every language's client makes them.
const { reference } = require('../contract/reference');
const { resultDifference, difference } = require('../contract/compare');
const { session, expectedTotal } = require('../contract/calculator');
const { referenceAnswer } = require('./conformance');

const STEADY_WINDOW = 3;

class WrongAnswer extends Error {}

function checker(workload, args, calls) {
  if (workload.session) {
    const expected = expectedTotal(args[0]);
    return (index, answer) => {
      const found = difference('int64', expected, answer, 'total()');
      if (found !== null) throw new WrongAnswer(`call ${index + 1} of ${calls}: ${found}`);
    };
  }
  const expected = referenceAnswer(workload.operation, args);
  return (index, answer) => {
    const found = resultDifference(workload.operation, expected, answer);
    if (found !== null) throw new WrongAnswer(`call ${index + 1} of ${calls}: ${found}`);
  };
}

// The function one call goes through: the client's call of the workload's operation.
function callerOf(client, workload) {
  if (workload.session) throw new Error(`${workload.name}: this client has no remote objects`);
  const operation = workload.operation;
  return (args) => client.call(operation, args);
}

async function checkedCalls(call, args, calls, check) {
  const samples = new Array(calls);
  for (let i = 0; i < calls; i++) {
    const started = process.hrtime.bigint();
    const answer = await call(args);
    samples[i] = Number(process.hrtime.bigint() - started);
    check(i, answer);
  }
  return samples;
}

async function timedCalls(call, args, calls, minNs, maxCalls) {
  const samples = new Array(maxCalls);
  let count = 0;
  const first = process.hrtime.bigint();
  while (count < maxCalls) {
    const started = process.hrtime.bigint();
    await call(args);
    const ended = process.hrtime.bigint();
    samples[count++] = Number(ended - started);
    if (count >= calls && ended - first >= minNs) break;
  }
  samples.length = count;
  return samples;
}

// The same loop for a synchronous call (the handler: the reference in process, nothing awaited).
function timedSync(call, args, calls, minNs, maxCalls) {
  const samples = new Array(maxCalls);
  let count = 0;
  const first = process.hrtime.bigint();
  while (count < maxCalls) {
    const started = process.hrtime.bigint();
    call(args);
    const ended = process.hrtime.bigint();
    samples[count++] = Number(ended - started);
    if (count >= calls && ended - first >= minNs) break;
  }
  samples.length = count;
  return samples;
}

async function warmup(client, workload, args, calls) {
  await checkedCalls(callerOf(client, workload), args, calls, checker(workload, args, calls));
  return { checked: calls };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return 0;
  return n % 2 ? sorted[(n - 1) / 2] : Math.round((sorted[n / 2 - 1] + sorted[n / 2]) / 2);
}

async function warmupUntilSteady(client, workload, args, calls, tolerance, maxMs) {
  const call = callerOf(client, workload);
  const check = checker(workload, args, calls);
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(maxMs * 1e6));
  const medians = [];
  let steady = false;
  for (;;) {
    medians.push(calls ? median(await checkedCalls(call, args, calls, check)) : 0);
    const window = medians.slice(-STEADY_WINDOW);
    if (window.length === STEADY_WINDOW) {
      const low = Math.min(...window);
      if (Math.max(...window) - low <= tolerance * Math.max(low, 1)) {
        steady = true;
        break;
      }
    }
    if (process.hrtime.bigint() >= deadline) break;
  }
  return {
    checked: calls * medians.length, batches: medians.length, steady,
    elapsed_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3, batch_medians_ns: medians,
  };
}

function measure(client, workload, args, calls, minMs, maxCalls) {
  return timedCalls(callerOf(client, workload), args, calls, BigInt(Math.round(minMs * 1e6)), maxCalls);
}

// The reference in process, timed as measure times a call, on the arguments as a server hands them to it.
function handler(workload, args, calls, minMs, maxCalls, repetitions) {
  const minNs = BigInt(Math.round(minMs * 1e6));
  const call = workload.session ? (a) => session(a[0]) : ((method) => (a) => method(...a))(reference[workload.operation.name]);
  const out = [];
  for (let r = 0; r < repetitions; r++) out.push(timedSync(call, args, calls, minNs, maxCalls));
  return out;
}

module.exports = { WrongAnswer, warmup, warmupUntilSteady, measure, handler, timedCalls, callerOf };
