import assert from 'node:assert/strict';
import { test } from 'node:test';
import { relatedWords, spellingVariants } from './related-words.js';

test('a question word finds its related words by stem, never itself', () => {
  assert.ok(relatedWords('throttle').includes('quota'));
  // "travelled", "traveled" and "travel" share a stem, so one line serves all three.
  assert.deepEqual(relatedWords('travelled'), relatedWords('travel'));
  assert.ok(relatedWords('Trips').includes('flew'));
  assert.ok(!relatedWords('trip').includes('trip'));
  assert.deepEqual(relatedWords('milestone'), []);
});

test('British and American spellings are each other’s variants; short or unrelated words have none', () => {
  assert.deepEqual(spellingVariants('organised'), ['organized']);
  assert.deepEqual(spellingVariants('normalization'), ['normalisation']);
  assert.deepEqual(spellingVariants('colour'), ['color']);
  assert.deepEqual(spellingVariants('behavior'), ['behaviour']);
  assert.deepEqual(spellingVariants('centre'), ['center']);
  assert.deepEqual(spellingVariants('catalogue'), ['catalog']);
  for (const w of ['size', 'four', 'hour', 'after', 'filter', 'sister', 'router'])
    assert.deepEqual(spellingVariants(w), [], w);
});
