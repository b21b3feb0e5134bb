/**
 * Query expansion on every backend (search/expansion.ts): a question that shares only its topic
 * with the answer ("rate limit" → "requests per minute… token bucket"), among sessions that share
 * the topic too, finds the answer first; searched as typed (no expansion) it does not — the gain
 * is the mechanism's. A step holding the question's own words still outranks the answer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchTranscripts } from '../../src/search/search.js';
import { BACKENDS, backendHome } from '../support/backends.js';
import { claudeLine, claudePath } from '../support/home.js';

const id = (n: number) => `e000000${n}-aaaa-4bbb-8ccc-dddddddddddd`;
const ANSWER =
  'The invoice webhook allows 120 requests per minute per API key, enforced by a token bucket at the gateway.';
/** [user prompt, assistant reply] per session; session 0 holds the answer. */
const SESSIONS: [string, string][] = [
  ['Any numbers on the invoice webhook traffic?', ANSWER],
  ['The invoice webhook log is too noisy.', 'Dropped the invoice webhook debug lines from the handler.'],
  [
    'Rename the invoice webhook handler.',
    'Renamed the invoice webhook handler and moved its tests next to it.',
  ],
  ['Does the invoice webhook retry?', 'The invoice webhook retries twice before it gives up on a tenant.'],
  [
    'Why is the invoice webhook payload empty?',
    'The invoice webhook payload lost its currency in the last refactor.',
  ],
];

for (const b of BACKENDS) {
  test(`a question in other words finds its answer; its own words still win (${b.name})`, {
    skip: b.skip,
  }, async (t) => {
    const h = backendHome(b.name);
    t.after(h.cleanup);
    SESSIONS.forEach(([ask, reply], s) => {
      const lines = [
        claudeLine(id(s), 'user', ask, `2026-06-0${s + 1}T10:00:00.000Z`),
        claudeLine(id(s), 'assistant', reply, `2026-06-0${s + 1}T10:01:00.000Z`),
      ];
      h.write(claudePath(id(s)), `${lines.join('\n')}\n`);
    });
    const e = h.engine();
    t.after(() => e.close());
    e.transcripts.index();
    const store = e.stores.transcripts;
    const now = Date.parse('2026-06-10T00:00:00Z');
    const first = (q: string, expand = true) =>
      (searchTranscripts(store, q, { limit: 10, expand, now }).hits[0]?.snippet ?? '').replace(/[«»]/g, '');
    const q = 'what is the rate limit on the invoice webhook?';
    assert.match(first(q), /token bucket/, 'expanded: the answer first');
    assert.doesNotMatch(first(q, false), /token bucket/, 'as typed: the noise shares as many words');
    // --explain says which related words were searched, and for which word.
    const reading = searchTranscripts(store, q, { explain: true, now }).reading!;
    assert.ok(reading.related.some((r) => r.word === 'requests' && r.for === 'rate'));
    // The engine's search (the shipped path) expands too.
    assert.match((await e.transcripts.search(q, { limit: 3 })).hits[0]?.snippet ?? '', /token bucket/);

    // A step with the question's own words ("rate limit") is not pushed down by related words.
    const own = 'The invoice webhook rate limit is 120 a minute per key; the gateway enforces it.';
    h.write(
      claudePath(id(9)),
      `${[claudeLine(id(9), 'user', 'Note for later.', '2026-06-08T10:00:00.000Z'), claudeLine(id(9), 'assistant', own, '2026-06-08T10:01:00.000Z')].join('\n')}\n`,
    );
    e.transcripts.index();
    assert.match(first(q), /rate limit is 120/);
  });
}
