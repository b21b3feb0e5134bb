/**
 * What the web page needs from the HTTP app, without a browser (`app.request()`): the page and
 * its assets served publicly with a CSP, sessions per day (/v1/timeline) agreeing with the day's
 * thread listing, and /v1/doctor's parse issues (file:line) and hook queue.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Engine } from '../src/app/engine.js';
import { readLocalToken } from '../src/app/local-token.js';
import { createHttpApp, type HttpApp } from '../src/interfaces/http/app.js';
import { claudeLine, claudePath, type TempHome, tempHome } from './support/home.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field
type J = any;

const S = (n: number) => `7a7a7a7a-1111-4222-8333-${String(n).padStart(12, '0')}`;

describe('web page routes', () => {
  let h: TempHome;
  let engine: Engine;
  let app: HttpApp;
  let key: string;
  const get = async (path: string, auth = true): Promise<{ status: number; body: J; res: Response }> => {
    const res = await app.request(path, {
      headers: { host: '127.0.0.1:7420', ...(auth ? { authorization: `Bearer ${key}` } : {}) },
    });
    const text = await res.text();
    let body: J = text;
    try {
      body = JSON.parse(text);
    } catch {
      // the page's HTML, CSS or script
    }
    return { status: res.status, body, res };
  };

  before(async () => {
    h = tempHome();
    // Session 1: one day. Session 2: 23:30 → 00:30 UTC, two UTC days. Session 3: another day.
    h.write(claudePath(S(1)), `${claudeLine(S(1), 'user', 'alpha one', '2026-11-20T10:00:00.000Z')}\n`);
    h.write(
      claudePath(S(2)),
      `${claudeLine(S(2), 'user', 'beta start', '2026-11-20T23:30:00.000Z')}\n${claudeLine(S(2), 'assistant', 'beta end', '2026-11-21T00:30:00.000Z')}\n`,
    );
    h.write(
      claudePath(S(3)),
      `${claudeLine(S(3), 'user', 'gamma', '2026-11-22T12:00:00.000Z')}\n{"broken json line\n${claudeLine(S(3), 'assistant', 'gamma answer', '2026-11-22T12:01:00.000Z')}\n`,
    );
    engine = h.engine();
    engine.transcripts.index();
    key = (await engine.keys.create({ name: 'web-test', scope: 'admin' })).key;
    app = createHttpApp(engine, {
      log: () => {},
      // The owner token counts only from loopback; app.request() has no socket to say so.
      clientAddress: () => '127.0.0.1',
      queueState: () => ({ waiting: 2, failed: 0 }),
    });
  });
  after(() => {
    engine?.close();
    h?.cleanup();
  });

  test('the page and its assets are public, with a CSP that allows only this server', async () => {
    const page = await get('/', false);
    assert.equal(page.status, 200);
    assert.match(page.res.headers.get('content-type')!, /^text\/html/);
    assert.match(page.res.headers.get('content-security-policy')!, /default-src 'self'/);
    assert.match(page.res.headers.get('content-security-policy')!, /connect-src 'self'/);
    assert.equal(page.res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(page.body, /<script type="module" src="\/assets\/app.js">/);
    assert.doesNotMatch(page.body, /https?:\/\//, 'the page names no other site');
    const js = await get('/assets/app.js', false);
    assert.equal(js.status, 200);
    assert.match(js.res.headers.get('content-type')!, /^text\/javascript/);
    assert.doesNotMatch(
      js.body,
      /https?:\/\/(?!www\.w3\.org\/2000\/svg)/,
      'the script fetches nothing elsewhere',
    );
    assert.equal((await get('/assets/app.css', false)).status, 200);
    assert.equal((await get('/assets/nope.js', false)).status, 404);
    assert.equal((await get('/assets/..%2Fpackage.json', false)).status, 404);
  });

  test('an unbuilt page is a 404 that says how to build it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'tapedeck-noweb-'));
    try {
      const bare = createHttpApp(engine, { log: () => {}, webRoot: empty });
      const r = await bare.request('/', { headers: { host: '127.0.0.1:7420' } });
      assert.equal(r.status, 404);
      assert.match(((await r.json()) as J).error.message, /npm run build/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('sessions per day: a session counts on each day it was active; the day listing agrees', async () => {
    const { status, body } = await get('/v1/timeline');
    assert.equal(status, 200);
    assert.equal(body.sessions, 3);
    const days = Object.fromEntries(body.days.map((d: J) => [d.date, d.sessions]));
    assert.deepEqual(days, { '2026-11-20': 2, '2026-11-21': 1, '2026-11-22': 1 });
    assert.deepEqual(body.days[0].agents, { 'claude-code': 2 });
    assert.equal(body.days[0].projects['/home/dev/acme-shop'], 2);
    for (const d of body.days) {
      const list = await get(
        `/v1/threads?since=${d.date}T00:00:00.000Z&until=${d.date}T23:59:59.999Z&limit=100`,
      );
      assert.equal(list.body.threads.length, d.sessions, `${d.date}: the bar and its list agree`);
    }
  });

  test('days are cut in the caller’s zone, filters apply, bad offsets are refused', async () => {
    // At UTC+01:00 session 2 runs 00:30 → 01:30 on the 21st only.
    const east = await get('/v1/timeline?utc_offset=60');
    assert.deepEqual(Object.fromEntries(east.body.days.map((d: J) => [d.date, d.sessions])), {
      '2026-11-20': 1,
      '2026-11-21': 1,
      '2026-11-22': 1,
    });
    const since = await get('/v1/timeline?since=2026-11-21');
    assert.deepEqual(
      since.body.days.map((d: J) => d.date),
      ['2026-11-21', '2026-11-22'],
    );
    assert.equal((await get('/v1/timeline?agent=codex')).body.sessions, 0);
    assert.equal((await get('/v1/timeline?utc_offset=900')).status, 400);
    assert.equal((await get('/v1/timeline?agent=nobody')).status, 400);
  });

  test("a space key's timeline counts only its space's sessions", async () => {
    const beta = (await engine.keys.create({ name: 'beta', scope: 'read', spaces: ['beta'] })).key;
    const r = await app.request('/v1/timeline', {
      headers: { host: '127.0.0.1:7420', authorization: `Bearer ${beta}` },
    });
    assert.equal(r.status, 200);
    const body = (await r.json()) as J;
    assert.equal(body.sessions, 0, 'indexed sessions are in the default space');
    assert.deepEqual(body.days, []);
  });

  test('doctor: parse issues with file and line, counts and the queue', async () => {
    const { status, body } = await get('/v1/doctor');
    assert.equal(status, 200);
    assert.equal(body.ok, true);
    assert.equal(body.issues.total, 1);
    const issue = body.issues.recent[0];
    assert.match(issue.path, new RegExp(`${S(3)}\\.jsonl$`));
    assert.equal(issue.line, 2);
    assert.equal(body.stats.per_agent['claude-code'].threads, 3);
    assert.deepEqual(body.queue, { waiting: 2, failed: 0 });
    assert.equal(body.archive, null, "an API key is not told about the machine's files");
    assert.equal(body.retention, null);
  });

  test("doctor for the owner: the archive's size and Claude Code's retention", async () => {
    const owner = readLocalToken(h.tapedeckHome)!;
    const r = await app.request('/v1/doctor', {
      headers: { host: '127.0.0.1:7420', authorization: `Bearer ${owner}` },
    });
    assert.equal(r.status, 200);
    const body = (await r.json()) as J;
    assert.equal(body.archive.enabled, true);
    assert.equal(body.archive.files, 3, 'the three indexed transcripts are archived');
    assert.ok(body.archive.bytes > 0);
    assert.equal(body.retention.agent, 'claude-code');
    assert.equal(body.retention.sessions, 3);
    assert.equal(typeof body.retention.cleanup_period_days, 'number');
  });

  test('data routes are not public', async () => {
    const r = await app.request('/v1/timeline', {
      headers: { host: '127.0.0.1:7420', authorization: 'Bearer nope' },
    });
    assert.equal(r.status, 401);
    // Keyless from loopback, without the owner token: refused too.
    assert.equal((await get('/v1/timeline', false)).status, 401);
    assert.equal((await get('/v1/doctor', false)).status, 401);
  });

  test('the new routes are in the OpenAPI document', async () => {
    const doc = (await get('/openapi.json', false)).body;
    assert.ok(doc.paths['/v1/timeline']?.get);
    assert.ok(doc.paths['/v1/doctor']?.get);
  });
});
