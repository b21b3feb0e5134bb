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
