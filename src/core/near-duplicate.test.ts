import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bandKeys,
  contentHash,
  fingerprint,
  isNearDuplicate,
  normalizeText,
  similarity,
} from './near-duplicate.js';

const near = (a: string, b: string) => isNearDuplicate(fingerprint(a), fingerprint(b));

test('exact duplicates ignore case, punctuation, spacing, accents and apostrophes', () => {
  assert.equal(normalizeText('  We use PNPM — not npm!  '), 'we use pnpm not npm');
  assert.equal(contentHash('Café: don’t cache'), contentHash('cafe dont   CACHE.'));
  assert.notEqual(contentHash('use port 5432'), contentHash('use port 5433'));
  assert.match(contentHash('x'), /^[0-9a-f]{16}$/);
});

test('a small edit is a near-duplicate; a different statement is not', () => {
  const base =
    'The payments service retries webhook deliveries three times with exponential backoff before giving up';
  assert.ok(near(base, `${base}.`), 'punctuation');
  assert.ok(near(base, base.replace('three times', 'three times in total')), 'an added word');
  assert.ok(
    !near(base, 'The search service caches results for ten minutes before refreshing them from the index'),
  );
  assert.ok(!near('Use tabs for indentation', 'Use spaces for indentation'));
});

test('guards: different numbers or a negation are different facts, however similar the words', () => {
  const a = 'The staging database listens on port 5432 and accepts connections from the VPN only';
  assert.ok(!near(a, a.replace('5432', '5433')), 'a changed number');
  assert.equal(similarity(fingerprint(a), fingerprint(a.replace('5432', '5433'))), 0);
  const b = 'Deploys to production run on Fridays after the weekly review meeting with the team';
  assert.ok(!near(b, b.replace('run on', 'never run on')), 'a negation');
  assert.ok(!near('do it', 'do it now'), 'texts under three words are only ever exact duplicates');
});

test('near-duplicates share a band key; unrelated texts and other scopes do not', () => {
  const a =
    'The payments service retries webhook deliveries three times with exponential backoff before giving up';
  const b = `${a} entirely`;
  const ka = bandKeys(fingerprint(a), 'default\u0000');
  const kb = bandKeys(fingerprint(b), 'default\u0000');
  assert.equal(ka.length, 10);
  assert.ok(ka.every((k) => Number.isSafeInteger(k) && k >= 0));
  assert.ok(
    ka.some((k) => kb.includes(k)),
    'a near-duplicate shares a key',
  );
  const other = bandKeys(
    fingerprint('Release notes are written in the CHANGELOG file by the release captain'),
    'default\u0000',
  );
  assert.ok(!ka.some((k) => other.includes(k)), 'unrelated text shares none');
  const elsewhere = bandKeys(fingerprint(a), 'work\u0000');
  assert.ok(!ka.some((k) => elsewhere.includes(k)), 'the same text in another scope shares none');
  assert.deepEqual(bandKeys(fingerprint('too short'), 'default\u0000'), []);
});
