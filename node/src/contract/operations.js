'use strict';
// The contract's operation table (idl/CONTRACT.md#operations), read from idl/contract.json, the source of
// truth: every family's server and client loop over it, so adding an operation touches idl/ and the
// mappings only. A type is a contract type name: "int64", "float64[]", "Item[]", "stream float64[]".
const path = require('node:path');
const fs = require('node:fs');

const CONTRACT_FILE = path.join(__dirname, '..', '..', '..', 'idl', 'contract.json');
const contract = JSON.parse(fs.readFileSync(CONTRACT_FILE, 'utf8'));

const STRUCTS = Object.fromEntries(Object.entries(contract.structs).map(([name, fields]) => [name, fields]));
const ERROR_FIELDS = contract.error.fields;

const OPERATIONS = contract.operations.map((op) => Object.freeze({
  id: op.id,
  name: op.name,
  params: op.params,
  returns: op.returns,
  raises: op.raises || null,
  needs: op.needs || [],
  isStream: op.returns.startsWith('stream '),
  resultType: op.returns.replace(/^stream /, ''),
}));
const BY_NAME = Object.fromEntries(OPERATIONS.map((op) => [op.name, op]));
const BY_ID = new Map(OPERATIONS.map((op) => [op.id, op]));

// A remote object's operations (CONTRACT.md#objects), for the calculator of the handler command.
const OBJECTS = contract.objects;

module.exports = { OPERATIONS, BY_NAME, BY_ID, STRUCTS, ERROR_FIELDS, OBJECTS, CONTRACT_FILE };
