import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionSentences, isDecision, sentences } from './decisions.js';

describe('decision sentences', () => {
  it('recognise stated choices', () => {
    for (const s of [
      'We decided to replace Redis with an in-process LRU because invalidation kept missing the CSV import.',
      "Let's use integer cents for every price.",
      'Going with Postgres full-text search; Elasticsearch is overkill for 20k products.',
      'I chose node:test over Jest since it needs no transform.',
      'Use the existing paginate() helper instead of computing OFFSET inline.',
      'We keep the session store in Postgres because the rate limiter already runs there.',
      'Settled on a 60 s TTL, which bounds staleness to a minute.',
    ])
      assert.ok(isDecision(s), s);
  });

  it('ignore explanations, plans of action and questions', () => {
    for (const s of [
      "I'll look at the products route first.",
      'It returns null instead of throwing when the row is missing.',
      'The test failed because the database was not seeded.',
      'Should we drop the Redis cache?',
      'Running the full suite, then committing.',
      'Let me check the pagination helper.',
    ])
      assert.ok(!isDecision(s), s);
  });

  it('split prose into sentences, skipping code blocks and list markers', () => {
    const text =
      'Findings:\n\n- The cache is **3.8 MB**. We decided to drop it.\n```ts\nconst x = 1; // we decided nothing here\n```\n1. Next step.';
    assert.deepEqual(sentences(text), [
      'Findings:',
      'The cache is 3.8 MB.',
      'We decided to drop it.',
      'Next step.',
    ]);
    assert.deepEqual(decisionSentences(text), ['We decided to drop it.']);
  });

  it('cut very long decision sentences on a word boundary', () => {
    const long = `We decided to ${'keep the old behaviour for compatibility '.repeat(12)}.`;
    const [s] = decisionSentences(long);
    assert.ok(s.length <= 280 && s.endsWith('…'), s);
  });
});
