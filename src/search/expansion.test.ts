import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../core/query.js';
import { relatedTermsOf } from './expansion.js';
import { createLexicalScorer } from './lexical.js';

test("a question's plain words bring their related words, none already in the question", () => {
  const q = parseQuery('what is the rate limit on the milestone webhook?');
  const related = relatedTermsOf(q);
  const rate = q.terms.findIndex((t) => t.text === 'rate');
  assert.ok(related.some((r) => r.of === rate && r.text === 'quota'));
  assert.ok(related.length <= 6, 'bounded: each related word costs the index a count');
  // "limit" is in the question: never a related word of "rate".
  assert.ok(!related.some((r) => r.text === 'limit'));
  assert.deepEqual(relatedTermsOf(parseQuery('milestone webhook')), []);
  // Identifiers and phrases are searched as typed.
  assert.deepEqual(relatedTermsOf(parseQuery('"rate limit" ERR_RATE_LIMIT')), []);
});

test('a related word credits a text lacking the term, below a text holding the term itself', () => {
  const q = parseQuery('rate limit on the milestone webhook');
  const related = relatedTermsOf(q).map((r) => ({ ...r, df: 20 }));
  const stats = { total: 10_000, avgChars: 90, df: q.terms.map(() => 40) };
  const plain = createLexicalScorer(q, stats);
  const expanded = createLexicalScorer({ ...q, related }, stats);
  const answer = 'The milestone webhook allows 120 requests per minute per key, with a quota per plan.';
  const own = 'The milestone webhook rate limit is 120 a minute per key, enforced at the gateway.';
  const other = 'The milestone webhook log is too noisy, drop the debug lines from the handler please.';
  const a = expanded(answer, answer.length, '');
  const noise = (score: typeof plain) => score(other, other.length, '').text;
  // The noise holds no related word: unchanged. The answer gains, and now leads it.
  assert.equal(noise(expanded), noise(plain));
  assert.ok(plain(answer, answer.length, '').text <= noise(plain) + 0.1);
  assert.ok(a.text > noise(expanded) + 0.5, `${a.text} vs ${noise(expanded)}`);
  // A text with the question's own words stays above it, and its score does not change.
  assert.ok(expanded(own, own.length, '').text > a.text);
  assert.equal(expanded(own, own.length, '').text, plain(own, own.length, '').text);
  // The credit is partial coverage, and the term is not marked as matched.
  const rate = q.terms.findIndex((t) => t.text === 'rate');
  assert.equal(a.matched[rate], false);
  assert.ok(a.coverage < 1 && a.coverage > plain(answer, answer.length, '').coverage);
});
