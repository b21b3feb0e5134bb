/**
 * Nowledge Mem compatibility: a small client that behaves like the Antigravity plugin as
 * ../shared/INTEGRATIONS.md records it (anything but 200/201 is a failure and its body is not
 * read; a 2xx body with "error" is a failure too, except the GET thread's not-found shape), run
 * against `createHttpApp(engine)` with `app.request()` and once against a real server.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Engine } from '../src/app/engine.js';
import { createHttpApp, type HttpApp } from '../src/interfaces/http/app.js';
import { type TempHome, tempHome } from './support/home.js';
import { json, type ServedHome, serveHome } from './support/http.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field
type J = any;

const FIXTURE_ID = '6b1e0f3a-2c4d-4e8f-9a17-53d2c8e4b901';
const FIXTURE = join(
  import.meta.dirname,
  '..',
  'src/sources/antigravity/fixtures/brain',
  FIXTURE_ID,
  '.system_generated/logs/transcript_full.jsonl',
);

// ---------------------------------------------------------------------------------------------
// The plugin, as recorded
// ---------------------------------------------------------------------------------------------

type Fetcher = (path: string, init: RequestInit) => Promise<Response>;

interface Plugin {
  fetch: Fetcher;
  key?: string;
  /** Which header carries the key. */
  auth: 'bearer' | 'nmem' | 'both';
  space?: string;
  /** Send `expected_message_count` with appends (a checkpointing client). */
  checkpoint?: boolean;
}

interface Call {
  method: string;
  path: string;
  body?: J;
  status: number;
  reply: J;
}

interface Reply {
  ok: boolean;
  status: number;
  body: J;
}

function client(p: Plugin) {
  const calls: Call[] = [];
  async function request(method: string, path: string, body?: unknown): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (p.key && p.auth !== 'nmem') headers.authorization = `Bearer ${p.key}`;
    if (p.key && p.auth !== 'bearer') headers['x-nmem-api-key'] = p.key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await p.fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let reply: J = text;
    try {
      reply = JSON.parse(text);
    } catch {
      // not JSON
    }
    calls.push({ method, path, body, status: r.status, reply });
    const ok = r.status === 200 || r.status === 201;
    return { ok, status: r.status, body: ok ? reply : undefined };
  }
  /** A write succeeded: 200/201 and no "error" in the reply. */
  const succeeded = (r: Reply) => r.ok && !(r.body && typeof r.body === 'object' && 'error' in r.body);
  return { request, succeeded, calls };
}

interface Message {
  role: 'user' | 'assistant';
  content: string;
}

/** USER_EXPLICIT steps as user (with their <USER_REQUEST> wrapper), MODEL PLANNER_RESPONSE as assistant. */
function readTranscript(path: string): Message[] {
  const out: Message[] = [];
  for (const s of parseLines(path)) {
    if (typeof s.content !== 'string' || s.content === '') continue;
    if (s.source === 'USER_EXPLICIT') out.push({ role: 'user', content: s.content });
    else if (s.source === 'MODEL' && s.type === 'PLANNER_RESPONSE')
      out.push({ role: 'assistant', content: s.content });
  }
  return out;
}

type Outcome = 'imported' | 'up-to-date' | 'appended' | 'reconciled' | 'failed';

/**
 * The Stop hook. GET the thread: found → count the matching prefix (role + content); all local
 * messages matched → done; the server's copy diverges after some matched → reconcile-tail (and
 * append the unmatched if that fails); otherwise (the server's copy is a prefix of ours, or
 * nothing matched) → append the unmatched. Not found (a 200 saying so) → import. A failure is
 * where the real plugin tries its CLI, then queues.
 */
async function stopHook(p: Plugin, payload: { conversationId: string; transcriptPath: string }) {
  const c = client(p);
  const local = readTranscript(payload.transcriptPath);
  const id = payload.conversationId;
  const q = p.space ? `?space=${encodeURIComponent(p.space)}` : '';
  const got = await c.request('GET', `/threads/${encodeURIComponent(id)}${q}`);
  const done = (outcome: Outcome) => ({ outcome, calls: c.calls });
  if (!got.ok) return done('failed');
  const b = got.body;
  if (b && typeof b === 'object' && ('id' in b || 'thread_id' in b || 'messages' in b)) {
    const existing: Message[] = b.messages ?? [];
    let k = 0;
    while (
      k < existing.length &&
      k < local.length &&
      existing[k].role === local[k].role &&
      existing[k].content === local[k].content
    )
      k++;
    if (k === local.length) return done('up-to-date');
    if (k > 0 && k < existing.length) {
      const r = await c.request('POST', `/threads/${encodeURIComponent(id)}/reconcile-tail`, {
        matched_count: k,
        messages: local.slice(k),
      });
      if (c.succeeded(r)) return done('reconciled');
    }
    const r = await c.request('POST', `/threads/${encodeURIComponent(id)}/append`, {
      messages: local.slice(k),
      deduplicate: true,
      ...(p.checkpoint ? { expected_message_count: existing.length } : {}),
    });
    return done(c.succeeded(r) ? 'appended' : 'failed');
  }
  if (b && typeof b === 'object' && (b.error === 'thread_not_found' || b.status === 404)) {
    const r = await c.request('POST', '/threads/import', {
      id,
      title: local[0]?.content.slice(0, 60) ?? 'Antigravity session',
      source: 'google-antigravity',
      messages: local,
      ...(p.space ? { space: p.space } : {}),
    });
    return done(c.succeeded(r) ? 'imported' : 'failed');
  }
  return done('failed');
}

/** The first PreInvocation: the context bundle, else working memory, as an ephemeral message. */
async function preInvocation(p: Plugin) {
  const c = client(p);
  const q = `source_app=google-antigravity${p.space ? `&space=${encodeURIComponent(p.space)}` : ''}`;
  let text = '';
  const ctx = await c.request('GET', `/context?${q}`);
  if (ctx.ok)
    text = [ctx.body?.rendered_markdown, ctx.body?.markdown, ctx.body?.content].find((x) => !!x) ?? '';
  if (!text) {
    const wm = await c.request(
      'GET',
      `/working-memory${p.space ? `?space=${encodeURIComponent(p.space)}` : ''}`,
    );
    if (wm.ok) text = wm.body?.content ?? '';
  }
  const output = text
    ? {
        injectSteps: [{ ephemeralMessage: `<nowledge_context_bundle>\n${text}\n</nowledge_context_bundle>` }],
      }
    : {};
  return { output, calls: c.calls };
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

let h: TempHome;
let engine: Engine;
let app: HttpApp;
let key: string;
let readKey: string;
const logged: string[] = [];
const viaApp: Fetcher = (path, init) => Promise.resolve(app.request(path, init));

/** A transcript file the plugin reads (outside the folders Tapedeck indexes: a remote server's case). */
function transcriptFile(name: string, steps: object[]): string {
  return h.write(
    `plugin-side/${name}/transcript.jsonl`,
    `${steps.map((s) => JSON.stringify(s)).join('\n')}\n`,
  );
}

/** The steps of a transcript file (lines that are not JSON, as in the fixture, are skipped). */
function parseLines(path: string): J[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        return l.trim() ? [JSON.parse(l)] : [];
      } catch {
        return [];
      }
    });
}

const fixtureSteps = () => parseLines(FIXTURE);

const savedMessages = (id: string) => engine.savedThreads.get(id).messages.map((m) => [m.role, m.content]);

before(async () => {
  h = tempHome();
  engine = h.engine();
  key = (await engine.keys.create({ name: 'nowledge-plugin', scope: 'write' })).key;
  readKey = (await engine.keys.create({ name: 'reader', scope: 'read' })).key;
  app = createHttpApp(engine, {
    requireKeys: true,
    clientAddress: () => '203.0.113.7',
    log: (l) => logged.push(l),
  });
});

after(() => {
  engine?.close();
  h?.cleanup();
});

// ---------------------------------------------------------------------------------------------

describe('Stop hook flow', () => {
  const CONV = 'c0ffee00-1111-4222-8333-444444444444';
  let path: string;
  let local: Message[];

  before(() => {
    path = transcriptFile(CONV, fixtureSteps());
    local = readTranscript(path);
    assert.ok(local.length >= 4, 'the fixture has user and planner steps');
  });

  test('a thread the server lacks is a 200 saying so, without id, thread_id or messages', async () => {
    const r = await app.request('/threads/never-seen', { headers: { 'x-nmem-api-key': key } });
    assert.equal(r.status, 200);
    const body = await json(r);
    assert.equal(body.error, 'thread_not_found');
    assert.equal(body.error_code, 'thread_not_found');
    assert.equal(body.status, 404);
    for (const k of ['id', 'thread_id', 'messages']) assert.ok(!(k in body), `no ${k}`);
  });

  test('first Stop: not found → import (X-NMEM-API-Key)', async () => {
    const p: Plugin = { fetch: viaApp, key, auth: 'nmem' };
    const { outcome, calls } = await stopHook(p, { conversationId: CONV, transcriptPath: path });
    assert.equal(outcome, 'imported');
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.path} ${c.status}`),
      [`GET /threads/${CONV} 200`, 'POST /threads/import 201'],
    );
    const imported = calls[1].reply;
    assert.equal(imported.success, true);
    assert.equal(imported.thread_id, CONV);
    assert.equal(imported.id, CONV);
    assert.equal(imported.messages_added, local.length);
    assert.equal(imported.thread.source, 'google-antigravity');
    assert.deepEqual(
      savedMessages(CONV),
      local.map((m) => [m.role, m.content]),
    );
    const t = engine.store.getThread(CONV)!;
    assert.equal(t.agent, 'antigravity');
    assert.equal(t.source, `tapedeck://thread/${CONV}`);
  });

  test('second Stop with the same transcript: found, every message matches, nothing written', async () => {
    const { outcome, calls } = await stopHook(
      { fetch: viaApp, key, auth: 'nmem' },
      {
        conversationId: CONV,
        transcriptPath: path,
      },
    );
    assert.equal(outcome, 'up-to-date');
    assert.equal(calls.length, 1);
    const found = calls[0].reply;
    assert.equal(found.id, CONV);
    assert.equal(found.thread_id, CONV);
    assert.equal(found.source, 'google-antigravity');
    assert.ok(found.title);
    assert.deepEqual(Object.keys(found.messages[0]).sort(), ['content', 'role', 'timestamp']);
  });

  test('the transcript grows: only the unmatched messages are appended (Bearer)', async () => {
    const steps = fixtureSteps();
    const n = steps.length;
    steps.push(
      {
        step_index: n,
        source: 'USER_EXPLICIT',
        type: 'USER_INPUT',
        content: '<USER_REQUEST>\nAlso add a test for the double click.\n</USER_REQUEST>',
      },
      {
        step_index: n + 1,
        source: 'MODEL',
        type: 'PLANNER_RESPONSE',
        content: 'Added orders.test.ts: two POSTs with one Idempotency-Key send one email.',
      },
    );
    writeFileSync(path, `${steps.map((s) => JSON.stringify(s)).join('\n')}\n`);
    const { outcome, calls } = await stopHook(
      { fetch: viaApp, key, auth: 'bearer' },
      {
        conversationId: CONV,
        transcriptPath: path,
      },
    );
    assert.equal(outcome, 'appended');
    const append = calls[1];
    assert.equal(append.path, `/threads/${CONV}/append`);
    assert.equal(append.body.messages.length, 2);
    assert.deepEqual(append.reply, {
      success: true,
      thread_id: CONV,
      messages_added: 2,
      messages_skipped: 0,
      total_messages: local.length + 2,
      replayed: false,
    });
    local = readTranscript(path);
    assert.deepEqual(
      savedMessages(CONV),
      local.map((m) => [m.role, m.content]),
    );
  });

  test('a re-sent prefix is deduplicated by role and content', async () => {
    const r = await app.request(`/threads/${CONV}/append`, {
      method: 'POST',
      headers: { 'x-nmem-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: local, deduplicate: true }),
    });
    assert.equal(r.status, 200);
    const body = await json(r);
    assert.equal(body.messages_added, 0);
    assert.equal(body.messages_skipped, local.length);
    assert.equal(engine.savedThreads.get(CONV).messages.length, local.length);
  });

  test('a changed tail: reconcile-tail replaces it', async () => {
    const steps = parseLines(path);
    steps[steps.length - 1].content = 'Added orders.test.ts and a second test for retries after a timeout.';
    writeFileSync(path, `${steps.map((s) => JSON.stringify(s)).join('\n')}\n`);
    const { outcome, calls } = await stopHook(
      { fetch: viaApp, key, auth: 'both' },
      {
        conversationId: CONV,
        transcriptPath: path,
      },
    );
    assert.equal(outcome, 'reconciled');
    const rec = calls[1];
    assert.equal(rec.path, `/threads/${CONV}/reconcile-tail`);
    assert.equal(rec.body.matched_count, local.length - 1);
    assert.equal(rec.reply.success, true);
    assert.equal(rec.reply.messages_removed, 1);
    assert.equal(rec.reply.messages_added, 1);
    local = readTranscript(path);
    assert.deepEqual(
      savedMessages(CONV),
      local.map((m) => [m.role, m.content]),
    );
    const again = await stopHook(
      { fetch: viaApp, key, auth: 'nmem' },
      { conversationId: CONV, transcriptPath: path },
    );
    assert.equal(again.outcome, 'up-to-date');
  });

  test('reconcile-tail at the end of the stored copy only adds', async () => {
    const r = await app.request(`/threads/${CONV}/reconcile-tail`, {
      method: 'POST',
      headers: { 'x-nmem-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        matched_count: local.length,
        messages: [{ role: 'user', content: 'Ship it.' }],
      }),
    });
    assert.equal(r.status, 200);
    const body = await json(r);
    assert.equal(body.messages_removed, 0);
    assert.equal(body.messages_added, 1);
    assert.equal(body.total_messages, local.length + 1);
    // and back (the client's copy is shorter: the stored tail goes)
    const back = await app.request(`/threads/${CONV}/reconcile-tail`, {
      method: 'POST',
      headers: { 'x-nmem-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ matched_count: local.length, messages: [] }),
    });
    assert.equal((await json(back)).messages_removed, 1);
  });

  test('a stale expected_message_count: 409 checkpoint_conflict, nothing written, the plugin fails over', async () => {
    const before = engine.savedThreads.get(CONV).messages.length;
    const r = await app.request(`/threads/${CONV}/append`, {
      method: 'POST',
      headers: { 'x-nmem-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: 'One more thing.' }],
        deduplicate: true,
        expected_message_count: before - 1,
      }),
    });
    assert.equal(r.status, 409);
    const body = await json(r);
    assert.equal(body.error_code, 'checkpoint_conflict');
    assert.equal(body.status, 409);
    assert.equal(body.expected_message_count, before - 1);
    assert.equal(body.actual_message_count, before);
    assert.equal(body.error.code, 'CONFLICT');
    assert.equal(engine.savedThreads.get(CONV).messages.length, before);

    // A checkpointing client whose copy went stale between its GET and its append fails over
    // (CLI, then its queue); its next run re-reads the thread and appends cleanly.
    const steps = parseLines(path);
    steps.push({ step_index: 999, source: 'USER_EXPLICIT', type: 'USER_INPUT', content: 'Thanks!' });
    writeFileSync(path, `${steps.map((s) => JSON.stringify(s)).join('\n')}\n`);
    const racing: Fetcher = async (p, init) => {
      if (p.endsWith('/append'))
        engine.savedThreads.append({
          thread: CONV,
          messages: [{ role: 'assistant', content: 'Meanwhile…' }],
        });
      return app.request(p, init);
    };
    const first = await stopHook(
      { fetch: racing, key, auth: 'nmem', checkpoint: true },
      { conversationId: CONV, transcriptPath: path },
    );
    assert.equal(first.outcome, 'failed');
    assert.equal(first.calls.at(-1)!.status, 409);
    const retry = await stopHook(
      { fetch: viaApp, key, auth: 'nmem', checkpoint: true },
      { conversationId: CONV, transcriptPath: path },
    );
    assert.notEqual(retry.outcome, 'failed');
    const saved = savedMessages(CONV);
    assert.deepEqual(saved.at(-1), ['user', 'Thanks!']);
  });

  test('a wrong key is 401 whichever header carries it, and the plugin fails over', async () => {
    for (const auth of ['nmem', 'bearer'] as const) {
      const { outcome, calls } = await stopHook(
        { fetch: viaApp, key: 'tapedeck_not-a-real-key', auth },
        {
          conversationId: CONV,
          transcriptPath: path,
        },
      );
      assert.equal(outcome, 'failed');
      assert.equal(calls[0].status, 401);
    }
    const none = await app.request(`/threads/${CONV}`);
    assert.equal(none.status, 401);
    const readOnly = await stopHook(
      { fetch: viaApp, key: readKey, auth: 'nmem' },
      { conversationId: 'fresh-conversation', transcriptPath: path },
    );
    assert.equal(readOnly.outcome, 'failed');
    assert.equal(readOnly.calls.at(-1)!.status, 403);
  });

  test('secrets are stored redacted: the next Stop sees a mismatch, and reconcile-tail rewrites nothing', async () => {
    const id = 'c0ffee00-2222-4222-8333-444444444444';
    const file = transcriptFile(id, [
      { step_index: 0, source: 'USER_EXPLICIT', content: 'Hello there' },
      { step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', content: 'Hi, what are we building?' },
      {
        step_index: 2,
        source: 'USER_EXPLICIT',
        content: 'Use the token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 for CI',
      },
      { step_index: 3, source: 'MODEL', type: 'PLANNER_RESPONSE', content: 'Configured CI with it.' },
    ]);
    const p: Plugin = { fetch: viaApp, key, auth: 'nmem' };
    assert.equal((await stopHook(p, { conversationId: id, transcriptPath: file })).outcome, 'imported');
    assert.match(String(savedMessages(id)[2][1]), /\[REDACTED:github-token\]/);
    const before = engine.store.getThread(id)!.updatedAt;
    const { outcome, calls } = await stopHook(p, { conversationId: id, transcriptPath: file });
    assert.equal(outcome, 'reconciled');
    assert.equal(calls[1].body.matched_count, 2);
    assert.equal(calls[1].reply.messages_removed, 0);
    assert.equal(calls[1].reply.messages_added, 0);
    assert.equal(calls[1].reply.matched_count, 4);
    assert.equal(engine.savedThreads.get(id).messages.length, 4);
    assert.equal(engine.store.getThread(id)!.updatedAt, before);
  });

  test('import twice (two hooks racing) merges instead of failing', async () => {
    const id = 'c0ffee00-3333-4222-8333-444444444444';
    const body = {
      thread_id: id,
      title: 'Race',
      source: 'claude-code',
      space_id: 'Work Notes',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
      metadata: { branch: 'main' },
    };
    const send = () =>
      app.request('/threads/import', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const [a, b] = [await send(), await send()];
    assert.equal(a.status, 201);
    assert.equal(b.status, 200);
    const second = await json(b);
    assert.equal(second.messages_added, 0);
    assert.ok(!('error' in second));
    const t = engine.store.getThread(id)!;
    assert.equal(t.space, 'work-notes');
    assert.equal(t.agent, 'claude-code');
    assert.equal(t.stepCount, 2);
  });

  test('append to a thread the server lacks is a 404 thread_not_found', async () => {
    const r = await app.request('/threads/nope/append', {
      method: 'POST',
      headers: { 'x-nmem-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }),
    });
    assert.equal(r.status, 404);
    assert.equal((await json(r)).error_code, 'thread_not_found');
  });
});

describe('the conversation this server already indexes', () => {
  let t: TempHome;
  let e: Engine;
  let a: HttpApp;
  let k: string;

  before(async () => {
    t = tempHome();
    t.write(
      `.gemini/antigravity/brain/${FIXTURE_ID}/.system_generated/logs/transcript_full.jsonl`,
      readFileSync(FIXTURE, 'utf8'),
    );
    e = t.engine();
    k = (await e.keys.create({ name: 'plugin', scope: 'write' })).key;
    a = createHttpApp(e, { clientAddress: () => '127.0.0.1', log: () => {} });
  });
  after(() => {
    e?.close();
    t?.cleanup();
  });

  test('is not saved a second time: the import names the indexed thread, search finds one', async () => {
    const p: Plugin = { fetch: (path, init) => Promise.resolve(a.request(path, init)), key: k, auth: 'nmem' };
    const transcript = join(
      t.home,
      `.gemini/antigravity/brain/${FIXTURE_ID}/.system_generated/logs/transcript_full.jsonl`,
    );
    for (let i = 0; i < 2; i++) {
      const { outcome, calls } = await stopHook(p, {
        conversationId: FIXTURE_ID,
        transcriptPath: transcript,
      });
      assert.equal(outcome, 'imported');
      assert.equal(calls[1].status, 200);
      assert.equal(calls[1].reply.indexed_thread, `antigravity:${FIXTURE_ID}`);
    }
    assert.equal(e.store.getThread(FIXTURE_ID), undefined);
    assert.ok(e.store.getThread(`antigravity:${FIXTURE_ID}`));
    const hits = (await e.transcripts.search('idempotent orders')).hits;
    assert.ok(hits.length > 0);
    assert.deepEqual([...new Set(hits.map((x) => x.thread))], [`antigravity:${FIXTURE_ID}`]);
  });
});

describe('PreInvocation: context, then working memory', () => {
  test('the context bundle becomes the ephemeral message', async () => {
    engine.memories.add({ content: 'Orders API: POST /api/orders takes an Idempotency-Key header' });
    const { output, calls } = await preInvocation({ fetch: viaApp, key, auth: 'nmem' });
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.path} ${c.status}`),
      ['GET /context?source_app=google-antigravity 200'],
    );
    const reply = calls[0].reply;
    assert.ok(reply.rendered_markdown.length > 0);
    assert.equal(reply.markdown, reply.rendered_markdown);
    assert.equal(reply.content, reply.rendered_markdown);
    assert.equal(reply.agent, 'antigravity');
    const msg = (output as J).injectSteps[0].ephemeralMessage as string;
    assert.match(msg, /^<nowledge_context_bundle>\n[\s\S]*\n<\/nowledge_context_bundle>$/);
    assert.ok(msg.includes(reply.rendered_markdown));
  });

  test('source_app maps to the agent; an unknown app gets the bundle for any agent', async () => {
    for (const [app_, agent] of [
      ['claude-code', 'claude-code'],
      ['codex', 'codex'],
      ['gemini-cli', 'gemini-cli'],
      ['some-editor', null],
    ] as const) {
      const r = await app.request(`/context?source_app=${app_}&space=Default`, {
        headers: { 'x-nmem-api-key': key },
      });
      assert.equal(r.status, 200, app_);
      const body = await json(r);
      assert.equal(body.agent, agent);
      assert.equal(body.space, 'default');
    }
  });

  test('when /context fails, the working memory is used', async () => {
    const oldServer: Fetcher = (p, init) =>
      p.startsWith('/context')
        ? Promise.resolve(new Response('{"detail":"Not Found"}', { status: 404 }))
        : viaApp(p, init);
    const { output, calls } = await preInvocation({ fetch: oldServer, key, auth: 'bearer' });
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.path} ${c.status}`),
      ['GET /context?source_app=google-antigravity 404', 'GET /working-memory 200'],
    );
    assert.ok(calls[1].reply.content.length > 0);
    assert.ok(calls[1].reply.date);
    assert.ok((output as J).injectSteps[0].ephemeralMessage.includes(calls[1].reply.content));
  });

  test('/agent/working-memory: {exists, content, date}', async () => {
    const r = await app.request('/agent/working-memory', { headers: { 'x-nmem-api-key': key } });
    assert.equal(r.status, 200);
    const body = await json(r);
    assert.equal(typeof body.exists, 'boolean');
    assert.equal(typeof body.content, 'string');
    assert.match(body.date, /^\d{4}-\d{2}-\d{2}$/);
    if (body.exists) assert.ok(body.content.length > 0);
    else assert.equal(body.content, '');
  });
});

describe('memories', () => {
  const post = (path: string, body: unknown, k = key) =>
    app.request(path, {
      method: 'POST',
      headers: { 'x-nmem-api-key': k, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  test('add → {memory}; the same again is 200 and the same memory', async () => {
    const body = {
      content: 'The staging database is refreshed from production every Sunday night',
      title: 'Staging refresh',
      importance: 0.8,
      labels: ['Ops Runbook', 'database'],
      source: 'google-antigravity',
      source_thread_id: 'c0ffee00-1111-4222-8333-444444444444',
      unit_type: 'fact',
      extra_field_from_a_newer_plugin: true,
    };
    const r = await post('/memories', body);
    assert.equal(r.status, 201);
    const { memory, ...rest } = await json(r);
    assert.ok(!('error' in rest));
    assert.equal(memory.content, body.content);
    assert.equal(memory.title, 'Staging refresh');
    assert.equal(memory.importance, 0.8);
    assert.deepEqual(memory.labels, ['ops-runbook', 'database']);
    assert.equal(memory.provenance.thread, 'c0ffee00-1111-4222-8333-444444444444');
    assert.equal(memory.provenance.source, 'google-antigravity');
    const again = await post('/memories', body);
    assert.equal(again.status, 200);
    assert.equal((await json(again)).memory.id, memory.id);
    const unknownThread = await post('/memories', {
      content: 'Release trains leave every second Tuesday',
      source_thread_id: 'not-on-this-server',
      importance: 7,
    });
    assert.equal(unknownThread.status, 201);
    const m2 = (await json(unknownThread)).memory;
    assert.equal(m2.provenance, null);
    assert.equal(m2.importance, 1);
  });

  test('search → [{memory, similarity_score}], best first, with a read key', async () => {
    const r = await post('/memories/search', { query: 'staging database refresh', limit: 5 }, readKey);
    assert.equal(r.status, 200);
    const hits = await json(r);
    assert.ok(Array.isArray(hits) && hits.length >= 1);
    assert.match(hits[0].memory.content, /staging database/);
    for (const x of hits) {
      assert.ok(x.similarity_score > 0 && x.similarity_score < 1);
      assert.ok(x.memory.id);
    }
    const scores = hits.map((x: J) => x.similarity_score);
    assert.deepEqual(
      scores,
      [...scores].sort((x: number, y: number) => y - x),
    );
    const write = await post('/memories', { content: 'nope' }, readKey);
    assert.equal(write.status, 403);
  });
});

describe('Tapedeck routes the plugins call', () => {
  test('/livez and /health are 200 JSON, /health with either header', async () => {
    assert.deepEqual(await json(await app.request('/livez')), { status: 'ok' });
    for (const headers of [{ 'x-nmem-api-key': key }, { authorization: `Bearer ${key}` }] as Record<
      string,
      string
    >[]) {
      const r = await app.request('/health', { headers });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /application\/json/);
      assert.equal((await json(r)).status, 'ok');
    }
  });

  test('MCP at /mcp/ (trailing slash) with X-NMEM-API-Key', async () => {
    const rpc = (body: unknown) =>
      app.request('/mcp/', {
        method: 'POST',
        headers: {
          'x-nmem-api-key': key,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(body),
      });
    const init = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 'nmem-plugin', version: '1' },
      },
    });
    assert.equal(init.status, 200);
    assert.ok((await json(init)).result.serverInfo);
    const list = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    assert.equal(list.status, 200);
    const tools = (await json(list)).result.tools.map((t: J) => t.name);
    assert.ok(tools.includes('recall'));
    const wrong = await app.request('/mcp/', {
      method: 'POST',
      headers: { 'x-nmem-api-key': 'tapedeck_wrong', 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(wrong.status, 401);
  });

  test('the compatibility routes are in /openapi.json', async () => {
    const doc = await json(await app.request('/openapi.json'));
    for (const p of [
      '/context',
      '/working-memory',
      '/threads/import',
      '/threads/{id}/append',
      '/memories/search',
    ])
      assert.ok(doc.paths[p], p);
  });
});

describe('against a real server', () => {
  let s: ServedHome;
  before(async () => {
    s = await serveHome();
  });
  after(async () => {
    await s?.stop();
  });

  test('the Stop flow and MCP over real HTTP with X-NMEM-API-Key', async () => {
    const k = (await s.engine.keys.create({ name: 'plugin', scope: 'write' })).key;
    const file = join(s.h.home, 'plugin-side', 'transcript.jsonl');
    s.h.write(
      'plugin-side/transcript.jsonl',
      `${fixtureSteps()
        .map((x) => JSON.stringify(x))
        .join('\n')}\n`,
    );
    const p: Plugin = {
      fetch: (path, init) => fetch(s.url + path, init),
      key: k,
      auth: 'nmem',
      space: 'Default',
    };
    const conv = 'feed0000-1111-4222-8333-444444444444';
    assert.equal((await stopHook(p, { conversationId: conv, transcriptPath: file })).outcome, 'imported');
    assert.equal((await stopHook(p, { conversationId: conv, transcriptPath: file })).outcome, 'up-to-date');
    const bad = await stopHook(
      { ...p, key: 'tapedeck_wrong' },
      { conversationId: conv, transcriptPath: file },
    );
    assert.equal(bad.outcome, 'failed');
    assert.equal(bad.calls[0].status, 401);
    const ctx = await preInvocation(p);
    assert.ok((ctx.output as J).injectSteps);
    const mcp = await fetch(`${s.url}/mcp/`, {
      method: 'POST',
      headers: {
        'x-nmem-api-key': k,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    assert.equal(mcp.status, 200);
    assert.ok((await json(mcp)).result.tools.length > 0);
  });
});
