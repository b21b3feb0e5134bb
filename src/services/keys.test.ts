// The key service over every backend's store is specified by test/contract/keys.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseExpiry } from './keys.js';

test('expiry spans and dates', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  assert.equal(parseExpiry('30d', now), '2026-07-01T00:00:00.000Z');
  assert.equal(parseExpiry('12h', now), '2026-06-01T12:00:00.000Z');
  assert.equal(parseExpiry('2027-01-01', now), '2027-01-01T00:00:00.000Z');
  assert.equal(parseExpiry(undefined, now), null);
  assert.equal(parseExpiry('never', now), null);
  assert.throws(() => parseExpiry('2020-01-01', now), /in the past/);
});
