import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../core/query.js';
import { createLexicalScorer } from './lexical.js';

const stats = { total: 1000, avgChars: 80, df: [50, 50, 50] };

test("the query's adjacent words side by side in a text score above the same words apart", () => {
  const score = createLexicalScorer(parseQuery('inventory sync reconciliation'), stats);
  const together = score('The inventory sync reconciliation runs nightly now.', 51, '');
  const apart = score('The sync of stock runs nightly; inventory reconciliation too.', 61, '');
  assert.ok(together.text > apart.text, `${together.text} <= ${apart.text}`);
  // Stems and hyphens count: "inventory-syncing" is the pair.
  const hyphen = score('The inventory-syncing reconciliation runs nightly now.', 53, '');
  assert.ok(hyphen.text > apart.text);
  // Coverage is about words, not pairs.
  assert.equal(together.coverage, 1);
  assert.equal(apart.coverage, 1);
});

test('a camelCase identifier counts for the words it is made of, as the index finds it by them', () => {
  const one = { total: 1000, avgChars: 80, df: [40] };
  const account = createLexicalScorer(parseQuery('account'), one);
  // The index holds `buildAccountRows` under "account" (core/idents.ts): the score must see it.
  assert.ok(account('Moved the totals into buildAccountRows().', 41, '').text > 0);
  assert.equal(account('Moved the totals into buildAccountRows().', 41, '').coverage, 1);
  assert.ok(account('the HTTPAccountServer restarts', 30, '').text > 0, 'a part after an upper-case run');
  // Stems apply to parts: "accounts" in `syncAccountsJob`.
  assert.ok(account('see syncAccountsJob', 19, '').text > 0);
  // Not inside a lower-case word: "accountancy" is another word, "myaccountrows" has no parts.
  assert.equal(account('the myaccountrows table', 23, '').text, 0);
  // A whole camelCase word still counts as itself.
  const js = createLexicalScorer(parseQuery('javascript'), one);
  assert.ok(js('We ship JavaScript, not TypeScript.', 35, '').text > 0);
  // And a word counted once per place: "Account" at a word start is one occurrence.
  const twice = account('Account and accountRows', 23, '');
  const once = account('Account and nothing else', 24, '');
  assert.ok(twice.text > once.text);
});

test("a question's words inside a branch name, path or snake_case identifier count less than in prose", () => {
  const three = { total: 1000, avgChars: 60, df: [30, 30, 30] };
  const q = parseQuery('why did we drop the redis cache');
  const prose = createLexicalScorer(q, three, { identShare: 0.4 });
  const inBranch = prose('Committed as 5b9e07c on perf/drop-redis-cache.', 46, '');
  const inText = prose('Committed: we drop the redis cache for good.', 44, '');
  assert.ok(inBranch.text < inText.text, `${inBranch.text} >= ${inText.text}`);
  assert.ok(inBranch.identifier > 0);
  assert.equal(inText.identifier, 0);
  // `identifier` is what the discount cost: with every occurrence as 1 the score is text + identifier.
  const full = createLexicalScorer(q, three)('Committed as 5b9e07c on perf/drop-redis-cache.', 46, '');
  assert.ok(Math.abs(full.text - (inBranch.text + inBranch.identifier)) < 1e-9);
  assert.equal(full.identifier, 0);
  // The words still match (coverage is unchanged), and snake_case parts are identifiers too.
  assert.equal(inBranch.coverage, 1);
  assert.ok(prose('set redis_cache_ttl to 0', 24, '').identifier > 0);
  // A hyphenated word in prose is prose: "in-process cache".
  assert.equal(prose('use an in-process cache', 23, '').identifier, 0);
  // An identifier the question types is meant to match identifiers: never discounted.
  const ident = createLexicalScorer(parseQuery('why is redis_cache.ts slow'), three, { identShare: 0.4 });
  assert.equal(ident('src/redis_cache.ts is slow', 26, '').identifier, 0);
});

test('a word counts whatever the stemmer makes of its last letter (key → kei, making → make)', () => {
  const one = { total: 1000, avgChars: 80, df: [40] };
  for (const [word, text] of [
    ['keys', 'Rotate the signing key weekly.'],
    ['key', 'Both API keys are in the vault.'],
    ['days', 'It took two days to land.'],
    ['city', 'We settled on the city of Porto.'],
    ['making', 'Stop making the cache global.'],
    ['coding', 'The coding agent wrote it.'],
    ['hoping', 'Hoping the retry fixes it.'],
  ] as const) {
    const score = createLexicalScorer(parseQuery(word), one)(text, text.length, '');
    assert.equal(score.coverage, 1, `${word} in "${text}"`);
    assert.ok(score.text > 0, word);
  }
  // As a pair too: "signing keys" side by side scores above the words apart.
  const pair = createLexicalScorer(parseQuery('signing keys'), { ...one, df: [40, 40] });
  assert.ok(pair('the signing keys rotate', 23, '').text > pair('keys for signing rotate', 23, '').text);
});
