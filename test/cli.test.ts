/** The command-line contract, end to end through the built `tapedeck` binary. */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const S1 = '0a0a0a0a-1111-4222-8333-444444444444';

function seeded() {
  const h = tempHome();
  h.write(
    claudePath(S1),
    [
      claudeLine(S1, 'user', 'Why are prices stale after a promotion ends?', '2026-11-02T09:00:00.000Z'),
      claudeLine(
        S1,
        'assistant',
        'We decided to drop the Redis cache: invalidation kept serving stale prices after promotions, and an in-process LRU is enough for 20k products.',
        '2026-11-02T09:01:00.000Z',
      ),
      claudeLine(
        S1,
        'user',
        'ok, also check src/payments/webhook.ts for ERR_SOCKET_TIMEOUT',
        '2026-11-20T10:00:00.000Z',
      ),
    ].join('\n') + '\n',
  );
  return h;
}

test('search --json prints the documented shape with provenance', () => {
  const h = seeded();
  after(h.cleanup);
  const r = tapedeck(['search', 'why did we drop the redis cache?', '--json'], h.env);
  assert.equal(r.status, 0, r.stderr);
  const doc = r.json();
  assert.equal(doc.query, 'why did we drop the redis cache?');
  assert.equal(typeof doc.took_ms, 'number');
  const hit = doc.hits[0];
  assert.deepEqual(Object.keys(hit).sort(), [
    'agent',
    'kind',
    'project',
    'role',
    'score',
    'snippet',
    'source',
    'step',
    'thread',
    'thread_started_at',
    'thread_updated_at',
    'timestamp',
    'title',
  ]);
  assert.equal(hit.thread, `claude-code:${S1}`);
  assert.equal(hit.agent, 'claude-code');
  assert.equal(hit.project, '/home/dev/acme-shop');
  assert.equal(hit.title, 'Why are prices stale after a promotion ends?');
  assert.equal(hit.step, 1);
  assert.equal(hit.role, 'assistant');
  assert.equal(hit.timestamp, '2026-11-02T09:01:00.000Z');
  assert.match(hit.snippet, /«Redis» «cache»/);
  assert.equal(hit.source.path, `${h.home}/${claudePath(S1)}`);
  assert.equal(hit.source.line, 2);
});

test('identifiers, filters and dates narrow the search', () => {
  const h = seeded();
  after(h.cleanup);
  const ident = tapedeck(['search', 'webhook.ts', '--json'], h.env).json();
  assert.equal(ident.hits[0]?.step, 2);
  const code = tapedeck(['search', 'ERR_SOCKET_TIMEOUT', '--json'], h.env).json();
  assert.equal(code.hits[0]?.step, 2, 'a whole identifier matches');
  const partial = tapedeck(['search', 'socket_timeout', '--json'], h.env).json();
  assert.equal(partial.hits[0]?.step, 2, 'part of an identifier matches too');
  const parts = tapedeck(['search', 'socket timeout', '--json'], h.env).json();
  assert.equal(parts.hits[0]?.step, 2, 'parts of ERR_SOCKET_TIMEOUT match');
  const late = tapedeck(
    ['search', 'redis OR webhook prices', '--since', '2026-11-10', '--json'],
    h.env,
  ).json();
  assert.deepEqual(
    late.hits.map((x: { step: number }) => x.step),
    [2],
  );
  const early = tapedeck(
    ['search', 'prices', '--until', '2026-11-02', '--role', 'user', '--json'],
    h.env,
  ).json();
  assert.deepEqual(
    early.hits.map((x: { step: number }) => x.step),
    [0],
  );
  assert.equal(tapedeck(['search', 'prices', '--agent', 'codex', '--json'], h.env).json().hits.length, 0);
  // Two steps say "prices"; the third follows one of them and holds it in its neighbour field.
  assert.equal(
    tapedeck(['search', 'prices', '--project', '/home/dev', '--json'], h.env).json().hits.length,
    3,
  );
  assert.equal(
    tapedeck(['search', 'prices', '--project', '/home/other', '--json'], h.env).json().hits.length,
    0,
  );
  assert.equal(tapedeck(['search', 'redis -stale', '--json'], h.env).json().hits.length, 0);
});

test('bad usage gets a clear error and exit code 2; --json errors are JSON', () => {
  const h = seeded();
  after(h.cleanup);
  const agent = tapedeck(['search', 'x', '--agent', 'cursor', '--json'], h.env);
  assert.equal(agent.status, 2);
  assert.equal(agent.json().error.code, 'INVALID_INPUT');
  assert.match(agent.json().error.message, /known: antigravity, claude-code, codex, gemini-cli/);
  const date = tapedeck(['search', 'x', '--since', 'last tuesday'], h.env);
  assert.equal(date.status, 2);
  assert.match(date.stderr, /Cannot read the date "last tuesday"/);
  const unknown = tapedeck(['show', 'claude-code:nope', '--json'], h.env);
  assert.equal(unknown.status, 1);
  assert.equal(unknown.json().error.code, 'NOT_FOUND');
  assert.equal(tapedeck(['frobnicate'], h.env).status, 2);
  const syntax = tapedeck(['search', '"unbalanced AND (', '--json'], h.env);
  assert.equal(syntax.status, 0, 'bad query syntax falls back to a plain search');
});

test('show gives a window around a step and pages through a thread', () => {
  const h = seeded();
  after(h.cleanup);
  tapedeck(['index'], h.env);
  const win = tapedeck(['show', `claude-code:${S1}`, '--step', '1', '--window', '1', '--json'], h.env).json();
  assert.deepEqual(
    win.steps.map((s: { step: number }) => s.step),
    [0, 1, 2],
  );
  assert.equal(win.steps[1].source.line, 2);
  const page = tapedeck(['show', `claude-code:${S1}`, '--limit', '2', '--json'], h.env).json();
  assert.equal(page.steps.length, 2);
  assert.equal(page.next, 2);
  const rest = tapedeck(['show', `claude-code:${S1}`, '--from', String(page.next), '--json'], h.env).json();
  assert.deepEqual(
    rest.steps.map((s: { step: number }) => s.step),
    [2],
  );
  assert.equal(rest.next, null);
});

test('index --json summarises; a second run parses nothing; threads and stats agree', () => {
  const h = seeded();
  after(h.cleanup);
  const first = tapedeck(['index', '--json'], h.env).json();
  assert.equal(first.files.new, 1);
  assert.equal(first.steps.written, 3);
  const second = tapedeck(['index', '--json'], h.env).json();
  assert.deepEqual([second.files.unchanged, second.steps.written], [1, 0]);
  appendFileSync(
    `${h.home}/${claudePath(S1)}`,
    `${claudeLine(S1, 'assistant', 'Added the keep-alive agent.')}\n`,
  );
  const third = tapedeck(['index', '--json'], h.env).json();
  assert.deepEqual([third.files.updated, third.steps.written], [1, 1]);
  const threads = tapedeck(['threads', '--json'], h.env).json().threads;
  assert.equal(threads.length, 1);
  assert.equal(threads[0].step_count, 4);
  const stats = tapedeck(['stats', '--json'], h.env).json();
  assert.equal(stats.per_agent['claude-code'].steps, 4);
  const doctor = tapedeck(['doctor', '--json'], h.env);
  assert.equal(doctor.status, 0);
  assert.equal(doctor.json().ok, true);
});

test('quickstart on a machine with no transcripts indexes the bundled samples and shows a search', () => {
  const h = tempHome();
  after(h.cleanup);
  const r = tapedeck(['quickstart', '--json'], h.env);
  assert.equal(r.status, 0, r.stderr);
  const doc = r.json();
  assert.equal(doc.demo, true);
  for (const agent of ['antigravity', 'claude-code', 'codex', 'gemini-cli']) {
    assert.ok(doc.index.agents[agent].seen >= 2, `samples for ${agent}`);
  }
  assert.equal(doc.index.issues, 0, 'the samples parse cleanly');
  assert.ok(doc.search.hits.length > 0);
  assert.match(doc.search.hits[0].snippet, /«Redis»/i);
  const human = tapedeck(['quickstart'], h.env);
  assert.match(human.stdout, /No agent transcripts found/);
  assert.match(human.stdout, /hits? for "why did we drop the redis cache\?"/);
});
