'use strict';
// Loading the protocol registry, the conformance vectors and the workloads from the idl/ folder the runner
// names ({idl}). A vector or workload is unsupported on a protocol when a capability it needs (its own
// and its operation's) is among the protocol's lacks in idl/protocols.json; the reason is the registry's.
const fs = require('node:fs');
const path = require('node:path');
const { BY_NAME } = require('./operations');

class UnknownProtocol extends Error {
  constructor(name) {
    super(`protocol '${name}' is not in idl/protocols.json`);
  }
}

function read(idl, file) {
  return JSON.parse(fs.readFileSync(path.join(idl, file), 'utf8'));
}

function loadProtocol(idl, name) {
  const protocols = read(idl, 'protocols.json').protocols;
  if (!Object.prototype.hasOwnProperty.call(protocols, name)) throw new UnknownProtocol(name);
  const p = protocols[name];
  return {
    name,
    family: p.family,
    variant: p.variant || {},
    has: p.has || [],
    lacks: p.lacks || {},
    unsupportedReason(needs) {
      for (const capability of needs) {
        if (Object.prototype.hasOwnProperty.call(this.lacks, capability)) return this.lacks[capability];
      }
      return null;
    },
    gzip() {
      const compression = this.variant.compression || 'none';
      if (compression !== 'none' && compression !== 'gzip') throw new Error(`protocol '${name}': unknown compression ${compression}`);
      return compression === 'gzip';
    },
  };
}

function operationOf(entry, where) {
  if (entry.op === undefined) {
    if (entry.session !== undefined) return null;
    throw new Error(`${where}: no operation`);
  }
  const operation = BY_NAME[entry.op];
  if (!operation) throw new Error(`${where}: unknown operation ${entry.op}`);
  return operation;
}

function needsOf(entry, operation) {
  return [...(entry.needs || []), ...(operation ? operation.needs : [])];
}

function loadVectors(idl) {
  return read(idl, 'vectors.json').vectors.map((v) => {
    const operation = operationOf(v, `vector ${v.id}`);
    return {
      id: v.id, operation, args: v.args || [], expect: v.expect || null, expectError: v.expect_error || null,
      needs: needsOf(v, operation), session: v.session || null, script: v.script || null, attack: v.attack || null,
    };
  });
}

function loadWorkloads(idl) {
  const workloads = new Map();
  for (const w of read(idl, 'workloads.json').workloads) {
    const operation = operationOf(w, `workload ${w.name}`);
    workloads.set(w.name, { name: w.name, operation, args: w.args, size: w.size, needs: needsOf(w, operation), session: w.session || null });
  }
  return workloads;
}

module.exports = { UnknownProtocol, loadProtocol, loadVectors, loadWorkloads };
