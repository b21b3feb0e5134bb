import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLAN_TERMS, subsetProbes } from './probe-plan.js';

test('subset probes: every word but the rarest few, down to three words', () => {
  // Rarest first: a paraphrase's rare word ("payloads") is the one the answer lacks.
  const words = ['payloads', 'anymore', 'score', 'card', 'logs'];
  const got = subsetProbes(words).map((s) => s.join(' '));
  assert.deepEqual(got, ['anymore score card logs', 'score card logs']);
  // Never the whole query (its own probe), never a pair (the pair probes' job).
  assert.ok(!got.includes(words.join(' ')));
  assert.ok(got.every((s) => s.split(' ').length >= 3));
});

test('subset probes: a query of three words or fewer has none', () => {
  assert.deepEqual(subsetProbes(['a', 'b']), []);
  assert.deepEqual(subsetProbes(['a', 'b', 'c']), []);
  assert.deepEqual(
    subsetProbes(['a', 'b', 'c', 'd']).map((s) => s.join('')),
    ['bcd'],
  );
});

test('subset probes plan at most PLAN_TERMS words (the rarest)', () => {
  const words = Array.from({ length: PLAN_TERMS + 3 }, (_, i) => `w${i}`);
  const got = subsetProbes(words);
  assert.ok(got.length > 0);
  for (const s of got) for (const w of s) assert.ok(words.indexOf(w) < PLAN_TERMS);
});
