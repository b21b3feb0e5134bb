import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCollector } from '../test-helpers.js';
import { geminiCliAdapter } from './index.js';
import { parentSessionOf } from './session.js';

const CHATS = '/h/.gemini/tmp/acme-shop/chats';

function feed(path: string, records: unknown[]) {
  const c = createCollector();
  const p = geminiCliAdapter.createLineParser(path);
  for (const [i, r] of records.entries()) p.line(JSON.stringify(r), i + 1, c.sink);
  return { ...c.result(), state: p.state() };
}

const user = (id: string, text: string) => ({
  id,
  type: 'user',
  timestamp: '2026-02-01T10:00:00Z',
  content: text,
});
const reply = (id: string, text: string) => ({
  id,
  type: 'gemini',
  timestamp: '2026-02-01T10:00:05Z',
  content: text,
});

describe('gemini-cli session rewrites', () => {
  it('replaces an earlier message in place only when its step count is unchanged', () => {
    const r = feed(`${CHATS}/session-a.jsonl`, [
      { sessionId: 's1', projectHash: 'h' },
      user('u1', 'first'),
      reply('g1', 'answer'),
      user('u2', 'second'),
      user('u1', 'first, edited'),
      { ...reply('g1', 'answer'), thoughts: [{ subject: 'Extra', description: 'now two steps' }] },
    ]);
    assert.deepEqual(
      r.steps.map((s) => [s.step, s.text, s.source.line]),
      [
        [0, 'first, edited', 5],
        [1, 'answer', 3],
        [2, 'second', 4],
      ],
    );
    assert.deepEqual(
      r.issues.map((i) => [i.line, i.message]),
      [
        [
          6,
          'message g1 was rewritten with a different number of steps after later messages; kept the earlier version',
        ],
      ],
    );
  });

  it('re-derives the title when a rewind removes the first prompt', () => {
    const r = feed(`${CHATS}/session-b.jsonl`, [
      { sessionId: 's2', projectHash: 'h' },
      user('u1', 'use knex for migrations'),
      reply('g1', 'ok'),
      { $rewindTo: 'u1' },
      user('u2', 'use numbered plain SQL files for migrations'),
    ]);
    assert.equal(r.thread.title, 'use numbered plain SQL files for migrations');
    assert.deepEqual(
      r.steps.map((s) => [s.step, s.text]),
      [[0, 'use numbered plain SQL files for migrations']],
    );
  });

  it('forgets ids beyond its bound, so a rewind that far back is reported, not guessed', () => {
    const records: unknown[] = [{ sessionId: 's3', projectHash: 'h' }];
    for (let i = 0; i < 300; i++) records.push(user(`u${i}`, `prompt ${i}`));
    records.push({ $rewindTo: 'u0' }, { $rewindTo: 'u299' });
    const r = feed(`${CHATS}/session-c.jsonl`, records);
    assert.equal(r.steps.length, 299);
    assert.deepEqual(
      r.issues.map((i) => i.message),
      ['$rewindTo names a message not seen recently: u0'],
    );
    assert.ok(JSON.stringify(r.state).length < 8000);
  });

  it('takes the project from projectRoot or cwd when a release records one', () => {
    assert.equal(
      feed(`${CHATS}/s.jsonl`, [{ sessionId: 's', projectHash: 'h', projectRoot: '/w/shop' }]).thread.project,
      '/w/shop',
    );
    assert.equal(
      feed(`${CHATS}/s.jsonl`, [{ sessionId: 's', projectHash: 'h', cwd: '/w/cwd' }]).thread.project,
      '/w/cwd',
    );
    assert.equal(
      feed(`${CHATS}/s.jsonl`, [{ sessionId: 's', projectHash: 'h', cwd: 'relative' }]).thread.project,
      undefined,
    );
  });

  it('links a subagent session to its parent thread', () => {
    const r = feed(`${CHATS}/7d3a9c2e-parent/codebase_investigator-1.jsonl`, [
      { sessionId: 'sub-1', projectHash: 'h', kind: 'subagent', directories: ['/home/dev/acme-shop'] },
    ]);
    assert.deepEqual(r.thread, {
      sessionId: 'sub-1',
      parentId: 'gemini-cli:7d3a9c2e-parent',
      project: '/home/dev/acme-shop',
    });
    assert.equal(parentSessionOf(`${CHATS}/session-x.jsonl`), undefined);
  });

  it('reads a .json session that actually holds JSONL as lines', () => {
    const c = createCollector();
    const text = [
      { sessionId: 's4', projectHash: 'h' },
      user('u1', 'hello'),
      { $set: { lastUpdated: '2026-02-01T11:00:00Z' } },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    geminiCliAdapter.parseDocument(`${CHATS}/session-d.json`, `${text}\n`, c.sink);
    const r = c.result();
    assert.equal(r.thread.sessionId, 's4');
    assert.equal(r.thread.updatedAt, '2026-02-01T11:00:00.000Z');
    assert.deepEqual(
      r.steps.map((s) => [s.step, s.text, s.source.line]),
      [[0, 'hello', 2]],
    );
    assert.deepEqual(r.issues, []);
  });
});
