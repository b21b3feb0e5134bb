import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDateSpan } from './question-dates.js';

// Thursday 2026-03-12, 15:00 UTC.
const NOW = Date.parse('2026-03-12T15:00:00Z');
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const span = (q: string) => {
  const s = findDateSpan(q, NOW);
  return s ? [day(s.from), day(s.to), s.text] : null;
};

test('absolute dates: a month and year, a day with and without a year, ISO days, a year', () => {
  assert.deepEqual(span('what did we decide in May 2023?'), ['2023-05-01', '2023-05-31', 'in May 2023']);
  assert.deepEqual(span('what happened on March 3'), ['2026-03-03', '2026-03-03', 'on March 3']);
  assert.deepEqual(span('the deploy on 2025-11-04 broke'), ['2025-11-04', '2025-11-04', '2025-11-04']);
  assert.deepEqual(span('on the 5th of January, 2024'), [
    '2024-01-05',
    '2024-01-05',
    'on the 5th of January, 2024',
  ]);
  // A month later in the year than now means last year's.
  assert.deepEqual(span('what did I buy in June'), ['2025-06-01', '2025-06-30', 'in June']);
  assert.deepEqual(span('anything from in 2024 about billing'), ['2024-01-01', '2024-12-31', 'in 2024']);
});

test('relative dates resolve against the given now', () => {
  assert.deepEqual(span('what did you suggest yesterday'), ['2026-03-11', '2026-03-11', 'yesterday']);
  assert.deepEqual(span('two days ago we talked about Redis')?.slice(0, 2), ['2026-03-10', '2026-03-10']);
  // Last week is the previous Monday–Sunday.
  assert.deepEqual(span('what did we change last week')?.slice(0, 2), ['2026-03-02', '2026-03-08']);
  assert.deepEqual(span('last month')?.slice(0, 2), ['2026-02-01', '2026-02-28']);
  assert.deepEqual(span('what did I do last Monday')?.slice(0, 2), ['2026-03-09', '2026-03-09']);
  const weeks = findDateSpan('a couple of weeks ago', NOW)!;
  assert.ok(weeks.from <= Date.parse('2026-02-26') && weeks.to >= Date.parse('2026-02-26'));
  // Another now, another span: the same words are never a fixed date.
  assert.equal(day(findDateSpan('yesterday', Date.parse('2023-05-20T08:00:00Z'))!.from), '2023-05-19');
});

test('no date: plain words, "may" the verb, numbers that are not days', () => {
  assert.equal(findDateSpan('why did we drop the Redis cache?', NOW), null);
  assert.equal(findDateSpan('may I ask why the build fails', NOW), null);
  assert.equal(findDateSpan('port 8080 on staging', NOW), null);
  // A weekday said of a habit is no day: its words stay in the search.
  assert.equal(findDateSpan('what does she do on Saturday mornings?', NOW), null);
  assert.equal(findDateSpan('who cooks on Thursday nights', NOW), null);
  assert.equal(findDateSpan('what happens on Fridays', NOW), null);
  assert.deepEqual(span('what did we fix on Saturday morning')?.slice(0, 2), ['2026-03-07', '2026-03-07']);
});
