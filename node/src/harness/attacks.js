'use strict';
// Attack vectors (CONTRACT.md#vectors): the client makes the call with a defect on purpose; the vector
// passes when the server refuses it and still answers a correct ping on a new connection afterwards. A
// client adapter that can make such calls has attack(attack, operation, args) (the refusal seen, or null
// when the server answered as if nothing were wrong) and pingAfterAttack().
const { decodeArgs } = require('../contract/values');

async function attackOutcome(client, vector) {
  if (typeof client.attack !== 'function') return status('error', 'the client implements no attacks');
  let args;
  try {
    args = decodeArgs(vector.operation, vector.args);
  } catch (e) {
    return status('error', `cannot build the vector: ${e.message}`);
  }
  let refusal;
  try {
    refusal = await client.attack(vector.attack, vector.operation, args);
  } catch (e) {
    return status('error', `cannot make the attack '${vector.attack}': ${e.message}`);
  }
  if (refusal === null || refusal === undefined) return status('fail', 'the server answered the defective call');
  try {
    await client.pingAfterAttack();
  } catch (e) {
    return status('fail', `refused (${refusal}), but then stopped serving: ${e.message}`);
  }
  return status('pass', refusal);
}

function status(s, reason = '') {
  return { status: s, reason };
}

module.exports = { attackOutcome };
