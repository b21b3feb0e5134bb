import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identParts, identTerms, joinedForm } from './idents.js';
import { parseQuery } from './query.js';

test('a plain question keeps only the meaningful words', () => {
  const q = parseQuery('Why did we drop the Redis cache?');
  assert.deepEqual(
    q.terms.map((t) => t.text),
    ['drop', 'redis', 'cache'],
  );
});

test('phrases, prefixes, exclusions and identifiers are recognised', () => {
  const q = parseQuery('"stale prices" webhook* -jest src/db.ts ERR_SOCKET_TIMEOUT parseTranscriptLine');
  assert.deepEqual(q.terms, [
    { kind: 'phrase', text: 'stale prices' },
    { kind: 'prefix', text: 'webhook' },
    { kind: 'ident', text: 'src/db.ts' },
    { kind: 'ident', text: 'ERR_SOCKET_TIMEOUT' },
    { kind: 'ident', text: 'parseTranscriptLine' },
  ]);
  assert.deepEqual(q.excluded, [{ kind: 'word', text: 'jest' }]);
});

test('broken syntax never fails: unbalanced quotes and stray operators become words', () => {
  const q = parseQuery('"unclosed phrase AND ( OR * - foo.bar()');
  assert.deepEqual(
    q.terms.map((t) => t.text),
    ['unclosed', 'phrase', 'foo.bar'],
  );
});

test('a query of only stop words still searches for them', () => {
  assert.deepEqual(
    parseQuery('what is this').terms.map((t) => t.text),
    ['what', 'is', 'this'],
  );
  assert.deepEqual(parseQuery('   ').terms, []);
});

test('identifiers index their joined form and their parts', () => {
  assert.equal(joinedForm('src/db.ts'), 'src_db_ts');
  assert.deepEqual(identParts('parseHTTPResponse'), ['parse', 'http', 'response']);
  const terms = identTerms('edit src/payments/webhook.ts and call foo.bar() with ERR_SOCKET_TIMEOUT.').split(
    ' ',
  );
  for (const t of ['src_payments_webhook_ts', 'foo_bar', 'socket', 'timeout']) {
    assert.ok(terms.includes(t), `missing ${t} in ${terms.join(' ')}`);
  }
  assert.ok(!terms.includes('and'), 'plain words are not identifiers');
});

test('identTerms adds only what the prose tokenizer misses', () => {
  const forms = (t: string) => identTerms(t).split(' ').filter(Boolean).sort();
  assert.deepEqual(forms('src/db.ts'), ['db_ts', 'src_db_ts']);
  assert.deepEqual(forms('ERR_SOCKET_TIMEOUT'), ['err', 'socket', 'timeout']);
  assert.deepEqual(forms('parseHTTPResponse'), ['http', 'parse', 'response']);
  assert.deepEqual(forms('src/payments/handleWebhook.ts'), [
    'handle',
    'handlewebhook_ts',
    'src_payments_handlewebhook_ts',
    'webhook',
  ]);
  assert.deepEqual(forms('foo.bar()'), ['foo_bar']);
  assert.deepEqual(forms('a long-running plain sentence.'), []);
  assert.deepEqual(forms('x-api-key-v2'), ['key_v2', 'x_api_key_v2']);
});

test('a contraction typed with its apostrophe is a stop word too ("don\'t" is read as "dont")', () => {
  assert.deepEqual(
    parseQuery("why don't the import logs include payloads anymore?").terms.map((t) => t.text),
    ['import', 'logs', 'include', 'payloads'],
  );
  assert.deepEqual(
    parseQuery("it didn't work, wasn't it the cache").terms.map((t) => t.text),
    ['work', 'cache'],
  );
});

test('words that only frame a question are dropped while two other words remain', () => {
  assert.deepEqual(
    parseQuery('what made us get rid of the milestone search cache?').terms.map((t) => t.text),
    ['rid', 'milestone', 'search', 'cache'],
  );
  // Too few other words: kept (a search for "reason codes" means the words).
  assert.deepEqual(
    parseQuery('reason codes').terms.map((t) => t.text),
    ['reason', 'codes'],
  );
});
