import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from './query.js';
import { makeSnippet } from './snippet.js';

test('the excerpt is the window with the most query words, marked by stem', () => {
  const text = `${'Unrelated setup chatter about linting. '.repeat(20)}We dropped the Redis cache because invalidation kept serving stale prices. ${'More chatter. '.repeat(20)}`;
  const s = makeSnippet(text, parseQuery('why did we drop the redis caching'), 16);
  assert.match(s, /«dropped» the «Redis» «cache»/);
  assert.ok(s.startsWith('…'));
  assert.ok(s.split(/\s+/).length <= 18);
});

test('identifiers are marked whole and by their parts', () => {
  const q = parseQuery('ERR_SOCKET_TIMEOUT webhook.ts');
  assert.match(
    makeSnippet('fails with ERR_SOCKET_TIMEOUT in src/payments/webhook.ts often', q),
    /«ERR_SOCKET_TIMEOUT»/,
  );
  assert.match(makeSnippet('look at getUserName first', parseQuery('user')), /«getUserName»/);
});

test('a short text comes back whole, without ellipses', () => {
  assert.equal(makeSnippet('Pin Node 20 in CI.', parseQuery('node')), 'Pin «Node» 20 in CI.');
});

test('the snippet is the sentence with the most query words and keeps its reason clause', () => {
  const text =
    'Committed the change to the cache module. Tests pass. ' +
    'We dropped the Redis cache because invalidation kept serving stale prices after every promotion ended, ' +
    'which support kept escalating. Next I will look at the search page.';
  const s = makeSnippet(text, parseQuery('why did we drop the redis cache'), 12);
  assert.match(s, /«dropped» the «Redis» «cache» because invalidation kept serving stale prices/);
  assert.ok(!s.includes('Committed'), s);
});

test('a short best sentence is followed by the next one when it gives the reason', () => {
  const text =
    'Intro line here. We pinned Node 20. Because the lockfile needs npm 10 features. Unrelated tail text.';
  const s = makeSnippet(text, parseQuery('pinned node'), 24);
  assert.match(s, /We «pinned» «Node» 20\. Because the lockfile needs npm 10 features\./);
  assert.ok(!s.includes('Unrelated'), s);
});

test('for a why-question the sentence giving the reason wins over one with more query words', () => {
  const text =
    'Done. We decided to replace Redis with an in-process LRU because the stale prices came from invalidation gaps. ' +
    'The ioredis client and src/cache/redis-cache.ts are gone; tests use the memory cache.';
  const q = parseQuery('why did we drop the redis cache');
  assert.match(
    makeSnippet(text, q, 24, { why: true }),
    /because the stale prices came from invalidation gaps/,
  );
  assert.match(makeSnippet(text, q, 24), /«redis»-«cache»/);
});
