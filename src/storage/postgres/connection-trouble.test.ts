import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectionTrouble } from './connection-trouble.js';
import { WORKER_SOURCE } from './pg-worker.js';

test('connection and server trouble is told from a statement PostgreSQL refused', () => {
  // Lost or refused connections, a server shutting down or out of resources: the server's fault.
  for (const code of [
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'ENOTFOUND',
    '08006',
    '08P01',
    '57P01',
    '53300',
  ])
    assert.equal(connectionTrouble({ code }), true, code);
  assert.equal(connectionTrouble(new Error('Connection terminated unexpectedly')), true, 'no code at all');
  // The statement's fault: syntax, a unique key, text PostgreSQL cannot hold, a timeout it enforced.
  for (const code of ['42601', '23505', '22021', '57014', '42P01'])
    assert.equal(connectionTrouble({ code }), false, code);
});

test("the synchronous bridge's worker embeds the same rule, not a copy of it", () => {
  assert.ok(WORKER_SOURCE.includes(connectionTrouble.toString()));
  // It runs there as plain JavaScript: the embedded source evaluates to the same answers.
  const isLost = new Function(`return (${connectionTrouble.toString()})`)() as typeof connectionTrouble;
  assert.equal(isLost({ code: 'ECONNRESET' }), true);
  assert.equal(isLost({ code: '23505' }), false);
});
