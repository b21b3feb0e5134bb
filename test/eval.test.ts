/** `tapedeck eval` end to end through the built binary, on a corpus small enough to score by hand. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const S1 = '0a0a0a0a-1111-4222-8333-555555555555';
const S2 = '0b0b0b0b-1111-4222-8333-666666666666';

function seeded() {
  const h = tempHome();
  h.write(
    claudePath(S1),
    [
      claudeLine(S1, 'user', 'Why are prices stale after a promotion ends?', '2026-11-02T09:00:00.000Z'),
      claudeLine(
        S1,
        'assistant',
        'We decided to drop the Redis cache: invalidation kept serving stale prices after promotions.',
        '2026-11-02T09:01:00.000Z',
      ),
    ].join('\n') + '\n',
  );
  h.write(
    claudePath(S2),
    [
      claudeLine(
        S2,
        'user',
        'Set up the nightly backup job for the orders database',
        '2026-11-10T09:00:00.000Z',
      ),
      claudeLine(
        S2,
        'assistant',
        'Done: it runs at 02:00 with pg_dump, one backup kept per day.',
        '2026-11-10T09:02:00.000Z',
      ),
      claudeLine(S2, 'user', 'Rename fetchInvoices to loadInvoices everywhere', '2026-11-10T09:05:00.000Z'),
    ].join('\n') + '\n',
  );
  // Evidence by transcript file:line (the path relative to HOME matches at a folder boundary)
  // and by thread and step. Ranks, worked out by hand:
  //   q1 every system finds the answer first; q2 nothing matches (a miss, no hits at all);
  //   q3 one of its two evidence steps first; q4 the prompt first; q5 the reply second for the
  //   ranked systems, while AND (no "nightly" in the reply) misses it but still has the session.
  const questions = [
    {
      id: 'q1',
      question: 'why did we drop the redis cache?',
      file: claudePath(S1),
      line: 2,
      kind: 'paraphrase',
    },
    {
      id: 'q2',
      question: 'mysterious zebra orchestra',
      thread: `claude-code:${S2}`,
      step: 1,
      kind: 'paraphrase',
    },
    {
      id: 'q3',
      question: 'fetchInvoices',
      evidence: [`${claudePath(S2)}:2`, { thread: `claude-code:${S2}`, step: 2 }],
      kind: 'identifier',
    },
    {
      id: 'q4',
      question: 'nightly backup orders database',
      evidence: [`${claudePath(S2)}:1`],
      kind: 'dated',
      date: '2026-11-11',
    },
    {
      id: 'q5',
      question: 'nightly backup job orders database',
      thread: `claude-code:${S2}`,
      steps: [1],
      kind: 'dated',
    },
  ];
  const file = h.write('questions.jsonl', `${questions.map((q) => JSON.stringify(q)).join('\n')}\n`);
  return { h, file };
}

const RANKED = {
  hit_at_1: 0.6,
  hit_at_5: 0.8,
  hit_at_10: 0.8,
  recall_at_10: 0.7,
  session_hit_at_1: 0.8,
  mrr: 0.7,
};
/**
 * Tapedeck also finds q3's other evidence step: the reply just before "Rename fetchInvoices…"
 * holds that turn in its neighbour field (search/weights.ts), so its recall is 1 where BM25's is ½.
 */
const TAPEDECK = { ...RANKED, recall_at_10: 0.8 };
const AND = {
  hit_at_1: 0.6,
  hit_at_5: 0.6,
  hit_at_10: 0.6,
  recall_at_10: 0.5,
  session_hit_at_1: 0.8,
  mrr: 0.6,
};

function figures(m: Record<string, number>) {
  const { questions: _q, p50_ms, p99_ms, ...rest } = m;
  assert.ok(p50_ms >= 0 && p99_ms >= p50_ms, `latency ${p50_ms}/${p99_ms}`);
  return rest;
}

test('eval --compare reports hand-computed figures for Tapedeck and both baselines, overall and per kind', () => {
  const { h, file } = seeded();
  after(h.cleanup);
  const r = tapedeck(['eval', file, '--compare', '--json', '--details'], h.env);
  assert.equal(r.status, 0, r.stderr);
  const doc = r.json();
  assert.equal(doc.questions, 5);
  assert.equal(doc.steps, 5);
  assert.deepEqual(doc.systems, ['tapedeck', 'bm25_or', 'and']);
  assert.deepEqual(doc.unknown_evidence, []);
  assert.deepEqual(doc.errors, []);
  assert.deepEqual(figures(doc.overall.tapedeck), TAPEDECK);
  assert.deepEqual(figures(doc.overall.bm25_or), RANKED);
  assert.deepEqual(figures(doc.overall.and), AND);
  assert.deepEqual(Object.keys(doc.kinds), ['paraphrase', 'identifier', 'dated']);
  assert.equal(doc.kinds.paraphrase.tapedeck.questions, 2);
  assert.equal(doc.kinds.paraphrase.tapedeck.hit_at_1, 0.5);
  assert.equal(doc.kinds.identifier.bm25_or.recall_at_10, 0.5);
  assert.equal(doc.kinds.dated.tapedeck.mrr, 0.75);
  assert.equal(doc.kinds.dated.and.hit_at_10, 0.5);
  const ranks = Object.fromEntries(doc.details.map((d: { id: string; rank: unknown }) => [d.id, d.rank]));
  assert.deepEqual(ranks.q5, { tapedeck: 2, bm25_or: 2, and: null });
  assert.deepEqual(ranks.q2, { tapedeck: null, bm25_or: null, and: null });
  const q5 = doc.details.find((d: { id: string }) => d.id === 'q5');
  assert.deepEqual(q5.first.and, { thread: `claude-code:${S2}`, step: 0, line: 1 });
  assert.equal(doc.details.find((d: { id: string }) => d.id === 'q2').first.tapedeck, null);
});

test('eval without --compare scores Tapedeck only; --limit-kinds keeps the named kinds; the table is readable', () => {
  const { h, file } = seeded();
  after(h.cleanup);
  const r = tapedeck(['eval', file, '--json', '--limit-kinds', 'dated,identifier'], h.env);
  assert.equal(r.status, 0, r.stderr);
  const doc = r.json();
  assert.deepEqual(doc.systems, ['tapedeck']);
  assert.equal(doc.questions, 3);
  assert.equal(doc.overall.bm25_or, undefined);
  assert.equal(doc.overall.tapedeck.hit_at_1, 0.667);
  assert.equal(doc.overall.tapedeck.recall_at_10, 1);

  const text = tapedeck(['eval', file, '--compare'], h.env);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /5 questions over 5 steps/);
  assert.match(text.stdout, /^overall\s+5\s+tapedeck\s+0\.600\s+0\.800\s+0\.800\s+0\.800\s+0\.800\s+0\.700/m);
  assert.match(text.stdout, /^\s+and\s+0\.600\s+0\.600\s+0\.600\s+0\.500/m);
});

test('a bad question file is a usage error naming every bad line; unknown evidence is reported, not hidden', () => {
  const { h } = seeded();
  after(h.cleanup);
  const bad = h.write(
    'bad.jsonl',
    [
      '{"question": "fine", "thread": "claude-code:x", "step": 1}',
      'not json',
      '{"question": "no evidence"}',
      '{"question": "bad date", "file": "a.jsonl", "line": 3, "date": "next tuesday"}',
    ].join('\n'),
  );
  const r = tapedeck(['eval', bad, '--json'], h.env);
  assert.equal(r.status, 2);
  const err = r.json().error;
  assert.equal(err.code, 'INVALID_INPUT');
  assert.match(
    err.message,
    /3 bad lines.*line 2: not valid JSON.*line 3: no evidence.*line 4: cannot read the date/,
  );

  const unknown = h.write(
    'unknown.jsonl',
    '{"id": "u1", "question": "redis cache", "thread": "claude-code:nope", "step": 0}\n',
  );
  const u = tapedeck(['eval', unknown, '--json'], h.env);
  assert.equal(u.status, 0, u.stderr);
  assert.deepEqual(u.json().unknown_evidence, ['u1']);
  assert.equal(u.json().overall.tapedeck.hit_at_10, 0);

  // A question the search refuses (over its 2,000-character limit) is a reported miss; the rest still score.
  const long = h.write(
    'long.jsonl',
    [
      JSON.stringify({ id: 'long', question: 'redis '.repeat(400), thread: `claude-code:${S1}`, step: 1 }),
      JSON.stringify({
        id: 'ok',
        question: 'why did we drop the redis cache?',
        thread: `claude-code:${S1}`,
        step: 1,
      }),
    ].join('\n'),
  );
  const l = tapedeck(['eval', long, '--json', '--compare'], h.env);
  assert.equal(l.status, 0, l.stderr);
  assert.deepEqual(
    l.json().errors.map((e: { id: string }) => e.id),
    ['long'],
  );
  assert.equal(l.json().overall.tapedeck.hit_at_1, 0.5);
  assert.equal(l.json().overall.bm25_or.hit_at_1, 1);
});

test('eval --no-expand searches the words as typed: the reply in the other spelling loses its lead', () => {
  const h = tempHome();
  after(h.cleanup);
  const S = '0c0c0c0c-1111-4222-8333-777777777777';
  h.write(
    claudePath(S),
    [
      claudeLine(
        S,
        'user',
        'Make the page header darker please, the header is too pale',
        '2026-11-03T09:00:00.000Z',
      ),
      claudeLine(S, 'assistant', 'The header colour is now navy.', '2026-11-03T09:01:00.000Z'),
    ].join('\n') + '\n',
  );
  const file = h.write(
    'q.jsonl',
    `${JSON.stringify({ id: 'c', question: 'header color', file: claudePath(S), line: 2 })}\n`,
  );
  const rank = (extra: string[]) => {
    const r = tapedeck(['eval', file, '--json', '--details', ...extra], h.env);
    assert.equal(r.status, 0, r.stderr);
    return r.json().details[0].rank.tapedeck;
  };
  // The expansion credits "colour" for "color" (British/American spellings), so the reply leads;
  // without it only "header" matches, and the prompt, which says it twice, comes first.
  assert.equal(rank([]), 1);
  assert.equal(rank(['--no-expand']), 2);
});
