import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLAN_TERMS, subsetProbes } from './probe-plan.js';

test('subset probes: every word but the rarest few, then every word but one', () => {
  // Rarest first: a paraphrase's rare word ("payloads") is the one the answer lacks.
  const words = ['payloads', 'anymore', 'score', 'card', 'logs'];
  const got = subsetProbes(words, 4).map((s) => s.join(' '));
  assert.deepEqual(got, [
    'anymore score card logs',
    'score card logs',
    'card logs',
    'payloads score card logs',
    'payloads anymore card logs',
    'payloads anymore score logs',
    'payloads anymore score card',
  ]);
  // Never the whole query (its own probe), never one word, never a pair the pair probes have.
  assert.ok(!got.includes(words.join(' ')));
  assert.ok(got.every((s) => s.split(' ').length >= 2));
});

test('subset probes: pairs of the paired words are left to the pair probes; short queries have none', () => {
  assert.deepEqual(subsetProbes(['a', 'b'], 4), []);
  assert.deepEqual(
    subsetProbes(['a', 'b', 'c'], 4).map((s) => s.join('')),
    [], // bc, ac, ab: all pairs of the first four
  );
  assert.deepEqual(
    subsetProbes(['a', 'b', 'c'], 2).map((s) => s.join('')),
    ['bc', 'ac'], // ab: both among the two paired words
  );
});

test('subset probes plan at most PLAN_TERMS words (the rarest)', () => {
  const words = Array.from({ length: PLAN_TERMS + 3 }, (_, i) => `w${i}`);
  for (const s of subsetProbes(words, 0)) for (const w of s) assert.ok(words.indexOf(w) < PLAN_TERMS);
});
