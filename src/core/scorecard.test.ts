import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baselineWords, judge, parseQuestion, pathMatches, percentile, summarize } from './scorecard.js';

const hit = (thread: string, step: number, path = `/h/${thread}.jsonl`, line = step + 1) => ({
  thread,
  step,
  source: { path, line },
});

test('judge: first evidence rank, evidence found in the top 10 only, session of the first hit', () => {
  const hits = [
    hit('a', 0),
    hit('b', 3),
    hit('b', 4),
    ...Array.from({ length: 8 }, (_, i) => hit('c', i)),
    hit('b', 9),
  ];
  const o = judge(
    [
      { thread: 'b', step: 4 },
      { thread: 'b', step: 9 },
      { file: 'a.jsonl', line: 1 },
    ],
    hits,
    3,
  );
  assert.deepEqual(o, { rank: 1, found: 2, total: 3, sessionFirst: true, ms: 3 });
  const miss = judge([{ thread: 'b', step: 9 }], hits, 1);
  assert.deepEqual(miss, { rank: null, found: 0, total: 1, sessionFirst: false, ms: 1 });
  assert.equal(judge([{ thread: 'b' }], hits, 0).rank, 2);
  assert.equal(judge([{ thread: 'x', step: 0 }], [], 0).sessionFirst, false);
});

test('summarize: rates, MRR and nearest-rank percentiles', () => {
  const m = summarize([
    { rank: 1, found: 1, total: 1, sessionFirst: true, ms: 1 },
    { rank: 4, found: 1, total: 2, sessionFirst: false, ms: 2 },
    { rank: null, found: 0, total: 1, sessionFirst: true, ms: 30 },
    { rank: 10, found: 1, total: 1, sessionFirst: false, ms: 4 },
  ]);
  assert.deepEqual(m, {
    questions: 4,
    hit_at_1: 0.25,
    hit_at_5: 0.5,
    hit_at_10: 0.75,
    recall_at_10: 0.625,
    session_hit_at_1: 0.5,
    mrr: 0.338,
    p50_ms: 2,
    p99_ms: 30,
  });
  assert.equal(percentile([], 50), 0);
  assert.equal(percentile([5, 1, 3], 50), 3);
});

test('paths match whole folders at the end; baseline words drop stop words and split identifiers', () => {
  assert.ok(pathMatches('/tmp/x/.claude/projects/p/a.jsonl', '.claude/projects/p/a.jsonl'));
  assert.ok(pathMatches('/tmp/x/a.jsonl', './a.jsonl'));
  assert.ok(!pathMatches('/tmp/x/ba.jsonl', 'a.jsonl'));
  assert.deepEqual(baselineWords("Why didn't we drop the Redis cache in src/cache.ts? Redis's fine"), [
    'drop',
    'redis',
    'cache',
    'src',
    'ts',
    'fine',
  ]);
});

test('parseQuestion: evidence forms, date as noon UTC, clear errors', () => {
  const q = parseQuestion(
    {
      question: 'q',
      thread: 't',
      steps: [1, 2],
      evidence: ['a/b.jsonl:7'],
      date: '2026-05-10',
      kind: 'dated',
    },
    3,
  );
  assert.deepEqual(q.evidence, [
    { thread: 't', step: 1 },
    { thread: 't', step: 2 },
    { file: 'a/b.jsonl', line: 7 },
  ]);
  assert.equal(q.now, Date.parse('2026-05-10T12:00:00Z'));
  assert.equal(q.id, 'line-3');
  assert.equal(parseQuestion({ question: 'q', file: 'f', line: 2 }, 1).kind, 'general');
  assert.throws(() => parseQuestion({ question: 'q', thread: 't', step: -1 }, 4), /line 4: bad "step\(s\)"/);
  assert.throws(() => parseQuestion({ question: 'q', evidence: ['nope'] }, 5), /not file:line/);
  assert.throws(() => parseQuestion({ question: '', thread: 't' }, 6), /"question" must be/);
});
