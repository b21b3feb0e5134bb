import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from './query.js';
import { createTermMatcher } from './term-match.js';

test('terms match by stem, at word starts, including identifier parts', () => {
  const m = createTermMatcher(parseQuery('dropped caching redis webhook.ts rounding* "stale prices"'));
  assert.deepEqual(
    m('We drop the Redis cache; see src/payments/webhook.ts. Roundings were stale, prices too.'),
    [
      true, // dropped ~ drop
      true, // caching ~ cache
      true,
      true, // webhook.ts by its parts
      true, // rounding* prefix
      true, // phrase words present (adjacency is the index's job)
    ],
  );
  assert.deepEqual(m('undropped xredis'), [false, false, false, false, false, false]);
  assert.deepEqual(createTermMatcher(parseQuery('socket'))('ERR_SOCKET_TIMEOUT'), [true]);
});
