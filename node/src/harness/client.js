'use strict';
// The client process of runner/PROTOCOL.md: one JSON command per line on stdin, one JSON answer per line on
// stdout. A family supplies connect(options) resolving to an adapter with call(operation, args) (a Promise
// of the answer, BenchError thrown as BenchError; a stream's chunks concatenated), close(), and optionally
// facts, publishedMetadata() ({consumable, reason}), the attack methods of attacks.js and sharesConnection
// (true when one adapter carries concurrent calls, as gRPC's HTTP/2 channel does: the load command then
// takes more calls in flight than connections). options.registered is the protocol's registry entry.
const readline = require('node:readline');
const { loadProtocol, loadVectors, loadWorkloads } = require('../contract/catalog');
const { BY_NAME } = require('../contract/operations');
const { decode, decodeArgs } = require('../contract/values');
const { runVectors } = require('./conformance');
const workloads = require('./workloads');
const load = require('./load');
const { quietConsole } = require('./server');

const PING = BY_NAME.ping;

class CommandLoop {
  constructor(options, connect) {
    this.options = options;
    this.connectAdapter = connect;
    this.client = null;
    this.target = options; // the server of the last connect: load opens its connections to it
    this.vectors = loadVectors(options.idl);
    this.workloads = loadWorkloads(options.idl);
    this.perCall = false; // connect's "connection": "per-call": each workload call on a new connection
    this.closingEach = false; // the adapter was told to close each connection itself (workloadClient)
    this.arguments = new Map(); // built once per workload for the process's life
    this.buffers = new Map(); // per workload: one sample list per measure
  }

  async answer(command) {
    const name = command.cmd;
    const method = typeof name === 'string' ? this[`do_${name}`] : undefined;
    if (typeof method !== 'function') return { ok: false, error: `unknown command ${JSON.stringify(name)}` };
    try {
      return { ok: true, ...(await method.call(this, command)) };
    } catch (e) {
      if (e instanceof workloads.WrongAnswer) return { ok: false, error: e.message };
      return { ok: false, error: `${e && e.name ? e.name : 'Error'}: ${e && e.message !== undefined ? e.message : e}` };
    }
  }

  async do_connect(command) {
    await this.close();
    const target = { ...this.options };
    if ('host' in command) target.host = String(command.host);
    if ('port' in command) target.port = port(command);
    const started = process.hrtime.bigint();
    this.target = target;
    const client = await this.connectAdapter(target);
    this.client = client;
    await client.call(PING, []);
    const answer = { instantiation_ns: Number(process.hrtime.bigint() - started) };
    if (client.facts && Object.keys(client.facts).length) answer.facts = client.facts;
    this.perCall = command.connection === 'per-call';
    if (this.perCall) answer.connection = 'per-call';
    this.closingEach = false; // told to the adapter at the first workload call (workloadClient)
    return answer;
  }

  async do_vectors(command) {
    const name = command.protocol === undefined ? this.options.protocol : command.protocol;
    const protocol = name === this.options.protocol ? this.options.registered : loadProtocol(this.options.idl, name);
    return { results: await runVectors(this.connected(), this.vectors, protocol) };
  }

  async do_metadata() {
    const client = this.connected();
    if (typeof client.publishedMetadata !== 'function') {
      throw new Error(`this client cannot check the metadata ${this.options.protocol} servers publish`);
    }
    return client.publishedMetadata();
  }

  async do_prepare(command) {
    const workload = this.supportedWorkload(command);
    this.argsOf(workload);
    this.buffers.set(workload.name, []);
    return {};
  }

  async do_warmup(command) {
    const workload = this.supportedWorkload(command);
    const client = this.workloadClient(workload);
    const args = this.argsOf(workload);
    const calls = count(command, 'calls');
    const steady = command.until_steady;
    if (steady === undefined) return workloads.warmup(client, workload, args, calls);
    if (steady === null || typeof steady !== 'object') throw new Error('until_steady must be an object');
    return workloads.warmupUntilSteady(client, workload, args, calls, number(steady, 'tolerance'), number(steady, 'max_ms'));
  }

  async do_measure(command) {
    const workload = this.supportedWorkload(command);
    const client = this.workloadClient(workload);
    const args = this.argsOf(workload);
    const [calls, minMs, maxCalls] = window(command);
    const samples = await workloads.measure(client, workload, args, calls, minMs, maxCalls);
    if (!this.buffers.has(workload.name)) this.buffers.set(workload.name, []);
    this.buffers.get(workload.name).push(samples);
    return { calls: samples.length };
  }

  async do_samples(command) {
    const workload = this.workload(command);
    const samples = this.buffers.get(workload.name) || [];
    this.buffers.set(workload.name, []);
    return { samples_ns: samples };
  }

  async do_handler(command) {
    const workload = this.workload(command); // every workload: the reference needs no capability
    const [calls, minMs, maxCalls] = window(command);
    const repetitions = 'repetitions' in command ? count(command, 'repetitions') : 1;
    return { samples_ns: workloads.handler(workload, this.argsOf(workload), calls, minMs, maxCalls, repetitions) };
  }

  // Many calls in flight (load.js) over `connections` adapters of their own to the connected server, closed
  // after the command; the command loop's own connection stays as it was.
  async do_load(command) {
    const workload = this.supportedWorkload(command);
    if (workload.session) throw new Error(`load: ${workload.name} is a session; load takes one operation per call`);
    this.connected();
    const plan = load.planOf(command);
    const adapters = [];
    try {
      // each connection opened and used once before the load (PROTOCOL.md#load), as connect's own
      for (let i = 0; i < plan.connections; i++) {
        adapters.push(await this.connectAdapter(this.target));
        await adapters[i].call(PING, []);
      }
      const shared = adapters.every((adapter) => adapter.sharesConnection === true);
      if (plan.inFlight > plan.connections && !shared) {
        throw new Error(`load: this client makes one call at a time per connection: in_flight ${plan.inFlight} needs as many connections (asked ${plan.connections})`);
      }
      const args = this.argsOf(workload);
      const callers = adapters.map((adapter) => workloads.callerOf(adapter, workload));
      return await load.run(plan, (worker) => {
        const call = callers[worker % plan.connections];
        return () => call(args);
      });
    } finally {
      for (const adapter of adapters) {
        try {
          await adapter.close();
        } catch (e) {
          process.stderr.write(`closing a load connection: ${e}\n`);
        }
      }
    }
  }

  async do_quit() {
    await this.close();
    return {};
  }

  workload(command) {
    const workload = this.workloads.get(command.workload);
    if (!workload) throw new Error(`unknown workload ${JSON.stringify(command.workload)}`);
    return workload;
  }

  supportedWorkload(command) {
    const workload = this.workload(command);
    const reason = this.options.registered.unsupportedReason(workload.needs);
    if (reason !== null) throw new Error(`${workload.name} is unsupported on ${this.options.protocol}: ${reason}`);
    return workload;
  }

  argsOf(workload) {
    let args = this.arguments.get(workload.name);
    if (!args) {
      args = workload.session ? workload.args.map((a) => BigInt(decode('int32', a))) : decodeArgs(workload.operation, workload.args);
      this.arguments.set(workload.name, args);
    }
    return args;
  }

  connected() {
    if (!this.client) throw new Error('not connected: send {"cmd": "connect"} first');
    return this.client;
  }

  // The connected adapter, or with a connection per call one whose every call is made on an adapter made anew,
  // called once and closed, all inside the timed call (the handshake timed where a client that connects per call
  // pays it), as Python's PerCallDriver does; or the connected adapter where it closes each connection itself
  // (closeEachConnection: a client built from a WSDL).
  workloadClient(workload) {
    const client = this.connected();
    if (!this.perCall) return client;
    if (workload.session) {
      throw new Error(`${workload.name}: a session's calls share their remote objects' connection: no connection per call`);
    }
    if (typeof client.closeEachConnection === 'function') {
      // the vectors kept the connect's connection; the workloads do not
      if (!this.closingEach) client.closeEachConnection();
      this.closingEach = true;
      return client;
    }
    const connect = this.connectAdapter;
    const target = this.target;
    return {
      async call(operation, args) {
        const adapter = await connect(target);
        try {
          return await adapter.call(operation, args);
        } finally {
          await adapter.close();
        }
      },
    };
  }

  async close() {
    const client = this.client;
    this.client = null;
    if (client) {
      try {
        await client.close();
      } catch (e) {
        process.stderr.write(`closing the client: ${e}\n`);
      }
    }
  }
}

function count(command, key) {
  const value = command[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new Error(`${key} must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

function port(command) {
  const p = count(command, 'port');
  if (p < 1 || p > 65535) throw new Error(`port must be 1 to 65535, got ${p}`);
  return p;
}

function number(command, key) {
  const value = command[key];
  if (typeof value !== 'number' || value < 0) throw new Error(`${key} must be a non-negative number, got ${JSON.stringify(value)}`);
  return value;
}

function window(command) {
  const calls = count(command, 'calls');
  const minMs = 'min_ms' in command ? number(command, 'min_ms') : 0;
  const maxCalls = 'max_calls' in command ? count(command, 'max_calls') : calls;
  return [calls, minMs, maxCalls];
}

// Reads commands until quit or the end of input, answering each one on its own line, in order.
async function serveCommands(loop, input, output) {
  const lines = readline.createInterface({ input, crlfDelay: Infinity, terminal: false });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let command;
    let answer;
    try {
      command = JSON.parse(line);
      if (command === null || typeof command !== 'object' || Array.isArray(command)) throw new Error('a command is a JSON object');
    } catch (e) {
      answer = { ok: false, error: `bad command: ${e.message}` };
      command = {};
    }
    if (!answer) answer = await loop.answer(command);
    output.write(`${JSON.stringify(answer)}\n`);
    if (command.cmd === 'quit') {
      lines.close();
      return;
    }
  }
  await loop.close();
}

async function run(argv, connect, families) {
  const options = require('./options').resolve(argv, 'client', families);
  quietConsole();
  const loop = new CommandLoop(options, connect);
  await serveCommands(loop, process.stdin, process.stdout);
  // stdout is a pipe: let the last answer leave before the process does
  process.stdout.write('', () => process.exit(0));
}

module.exports = { CommandLoop, serveCommands, run };
