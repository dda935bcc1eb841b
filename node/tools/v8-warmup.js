'use strict';
// How long V8 keeps optimising a Node server and client of a family before their calls settle (node/README.md,
// Warm-up): starts the family's server in a child process and its client here, both with V8's --trace-opt,
// makes back-to-back calls of one workload in batches for a number of seconds, and prints per half second
// the batches' median call time and the functions TurboFan and Maglev finished optimising on each side.
//   node --trace-opt node/tools/v8-warmup.js FAMILY PROTOCOL WORKLOAD SECONDS | node/tools/v8-warmup-table.awk
// V8 writes its --trace-opt lines on the process's stdout itself: this tool's own lines start with '#', and
// the awk script counts the client's trace lines between them.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { loadProtocol, loadWorkloads } = require('../src/contract/catalog');
const { decodeArgs } = require('../src/contract/values');

const ROOT = path.join(__dirname, '..', '..');
const IDL = path.join(ROOT, 'idl');
const [family, protocol, workloadName, seconds] = process.argv.slice(2);
const OPTIMISED = /completed (?:optimizing|compiling)|completed optimizing/;

const write = (text) => process.stdout.write(text);

async function main() {
  const server = spawn(process.execPath, ['--trace-opt', path.join(ROOT, 'node', 'src', family, 'main.js'), 'server', '--protocol', protocol, '--host', '127.0.0.1', '--port', '0', '--idl', IDL, '--secrets', path.join(ROOT, 'secrets')]);
  let serverOptimised = 0;
  const port = await new Promise((resolve) => {
    server.stdout.on('data', (d) => {
      const text = d.toString();
      serverOptimised += (text.match(new RegExp(OPTIMISED.source, 'g')) || []).length;
      const ready = /\{"ready":true,"port":(\d+)/.exec(text);
      if (ready) resolve(Number(ready[1]));
    });
  });
  const registered = loadProtocol(IDL, protocol);
  const client = await require(`../src/${family}/client`).connect({ protocol, host: '127.0.0.1', port, idl: IDL, secrets: path.join(ROOT, 'secrets'), registered });
  const workload = loadWorkloads(IDL).get(workloadName);
  const args = decodeArgs(workload.operation, workload.args);
  const started = process.hrtime.bigint();
  const end = started + BigInt(Number(seconds) * 1e9);
  let window = [];
  let nextReport = started + 500000000n;
  let seenServer = 0;
  write('#t_s\tcalls\tmedian_us\tserver_optimised\n');
  for (;;) {
    const t0 = process.hrtime.bigint();
    await client.call(workload.operation, args);
    const t1 = process.hrtime.bigint();
    window.push(Number(t1 - t0) / 1000);
    if (t1 >= nextReport) {
      window.sort((a, b) => a - b);
      write(`#${(Number(t1 - started) / 1e9).toFixed(1)}\t${window.length}\t${window[window.length >> 1].toFixed(1)}\t${serverOptimised - seenServer}\n`);
      seenServer = serverOptimised;
      window = [];
      nextReport = t1 + 500000000n;
      if (t1 >= end) break;
    }
  }
  await client.close();
  server.kill('SIGTERM');
}

main().catch((e) => {
  process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
