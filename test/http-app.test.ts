/**
 * The HTTP app without a socket (`app.request()`): routes over every area, validation, the error
 * mapping, body limits, and the OpenAPI document agreeing with what the handlers validate.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import type { Engine } from '../src/app/engine.js';
import { TapedeckError } from '../src/core/errors.js';
import { createHttpApp, type HttpApp } from '../src/interfaces/http/app.js';
import { inputSchema, openApiPath } from '../src/interfaces/http/openapi.js';
import { tapedeck } from './support/cli.js';
import { claudeLine, claudePath, type TempHome, tempHome } from './support/home.js';
import { json } from './support/http.js';

const S1 = '7a7a7a7a-1111-4222-8333-444444444444';
/** The owner token this app is given (a real server reads it from <home>/local-token). */
const TOKEN = `tdl_${'t'.repeat(43)}`;
const LOCAL = { host: '127.0.0.1:7420', authorization: `Bearer ${TOKEN}` };
const JSON_HEADERS = { ...LOCAL, 'content-type': 'application/json' };

let h: TempHome;
let engine: Engine;
let app: HttpApp;
const logged: string[] = [];

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field
type J = any;

type Init = { method?: string; json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> };
async function call(path: string, { method, json, body, headers }: Init = {}) {
  const res = await app.request(path, {
    method: method ?? (json === undefined && body === undefined ? 'GET' : 'POST'),
    headers: { ...(json === undefined ? LOCAL : JSON_HEADERS), ...headers },
    body: json === undefined ? body : JSON.stringify(json),
  });
  const text = await res.text();
  let data: J = text;
  try {
    data = JSON.parse(text);
  } catch {
    // not JSON (SKILL.md text)
  }
  return { status: res.status, headers: res.headers, data };
}

before(() => {
  h = tempHome();
  h.write(
    claudePath(S1),
    `${[
      claudeLine(S1, 'user', 'Why does the checkout page fail the CORS preflight?'),
      claudeLine(
        S1,
        'assistant',
        'The API answers OPTIONS with 404; we decided to add the cors middleware before the router.',
      ),
    ].join('\n')}\n`,
  );
  engine = h.engine();
  engine.transcripts.index();
  app = createHttpApp(engine, {
    clientAddress: () => '127.0.0.1',
    localToken: TOKEN,
    log: (l) => logged.push(l),
    bodyLimit: 64 * 1024,
    threadBodyLimit: 256 * 1024,
  });
});

after(() => {
  engine?.close();
  h?.cleanup();
});

describe('system routes', () => {
  test('/livez answers without anything else', async () => {
    const r = await app.request('/livez');
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { status: 'ok' });
  });

  test('/health: version, store, index freshness, uptime', async () => {
    const r = await call('/health');
    assert.equal(r.status, 200);
    assert.equal(r.data.status, 'ok');
    assert.match(r.data.version, /^\d+\.\d+\.\d+/);
    assert.equal(r.data.store.backend, engine.stores.kind);
    assert.equal(
      r.data.store.path,
      engine.stores.kind === 'sqlite' ? engine.config.dbPath : engine.store.path,
    );
    assert.equal(r.data.index.threads, 1);
    assert.equal(r.data.index.steps, 2);
    assert.equal(r.data.index.files, 1);
    assert.equal(r.data.index.last_updated, '2026-11-20T10:00:00.000Z');
    assert.equal(typeof r.data.uptime_s, 'number');
  });

  test('unknown routes are 404 JSON', async () => {
    const r = await call('/v1/nothing-here');
    assert.equal(r.status, 404);
    assert.equal(r.data.error.code, 'NOT_FOUND');
    assert.match(r.data.error.message, /GET \/v1\/nothing-here/);
  });

  test('no CORS headers, not even to a preflight', async () => {
    const pre = await app.request('/v1/search?q=x', {
      method: 'OPTIONS',
      headers: { ...LOCAL, origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    });
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    const get = await call('/v1/search?q=cors', { headers: { origin: 'http://127.0.0.1:7420' } });
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('access-control-allow-origin'), null);
  });
});

describe('transcripts', () => {
  test('search returns what `tapedeck search --json` prints', async () => {
    const cli = tapedeck(['search', 'cors middleware', '--json', '--no-index'], h.env);
    assert.equal(cli.status, 0, cli.stderr);
    const r = await call('/v1/search?q=cors%20middleware');
    assert.equal(r.status, 200);
    const strip = (x: J) => ({ ...x, took_ms: 0 });
    assert.deepEqual(strip(r.data), strip(cli.json()));
    assert.equal(r.data.hits[0].thread, `claude-code:${S1}`);
    assert.equal(r.data.hits[0].source.line, 2);
  });

  test('search filters: agent (repeatable), role, limit; bad values are 400', async () => {
    const none = await call('/v1/search?q=cors&agent=codex&agent=gemini-cli');
    assert.equal(none.status, 200);
    assert.equal(none.data.hits.length, 0);
    const user = await call('/v1/search?q=cors&role=user&limit=1');
    assert.deepEqual(
      user.data.hits.map((x: J) => x.role),
      ['user'],
    );
    const bad = await call('/v1/search?q=cors&agent=cursor');
    assert.equal(bad.status, 400);
    assert.match(bad.data.error.message, /Unknown agent "cursor"/);
    const big = await call('/v1/search?q=cors&limit=1000');
    assert.equal(big.status, 400);
    assert.equal(big.data.error.details.issues[0].path, 'query.limit');
    const missing = await call('/v1/search');
    assert.equal(missing.status, 400);
    assert.equal(missing.data.error.details.issues[0].path, 'query.q');
  });

  test('threads list, a window around a step, paging, and 404 for an unknown thread', async () => {
    const list = await call('/v1/threads');
    assert.deepEqual(
      list.data.threads.map((t: J) => t.id),
      [`claude-code:${S1}`],
    );
    // The CLI's `--json` naming: snake_case, every thread field present (null when unknown).
    const t = list.data.threads[0];
    assert.equal(typeof t.step_count, 'number');
    assert.ok(t.started_at && t.updated_at && t.session_id === S1);
    assert.ok('parent_id' in t && 'source_gone' in t, 'unknown fields are null, not missing');
    assert.equal(t.stepCount, undefined);
    const win = await call(`/v1/threads/${encodeURIComponent(`claude-code:${S1}`)}?step=1&window=1`);
    assert.equal(win.status, 200);
    assert.deepEqual(
      win.data.steps.map((s: J) => s.step),
      [0, 1],
    );
    assert.equal(win.data.steps[0].thread, `claude-code:${S1}`, 'a step names its thread as `thread`');
    const page = await call(`/v1/threads/claude-code:${S1}?limit=1`);
    assert.equal(page.data.steps.length, 1);
    assert.equal(page.data.next, 1);
    const missing = await call('/v1/threads/claude-code:nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.data.error.code, 'NOT_FOUND');
  });

  test('index and status', async () => {
    const idx = await call('/v1/index', { method: 'POST' });
    assert.equal(idx.status, 200);
    assert.equal(idx.data.files.unchanged, 1);
    const st = await call('/v1/status');
    assert.equal(st.data.threads, 1);
    assert.ok(st.data.per_agent['claude-code']);
    const health = await call('/health');
    assert.ok(health.data.index.last_indexed_at, 'an index run is remembered');
  });
});

describe('knowledge areas', () => {
  test('memories: add (201, then 200 deduplicated), get, search, patch, forget, restore, purge', async () => {
    const add = await call('/v1/memories', {
      json: { content: 'Deploys go through the blue-green pipeline', labels: ['deploy'] },
    });
    assert.equal(add.status, 201);
    const id = add.data.id;
    const again = await call('/v1/memories', {
      json: { content: 'Deploys go through the blue-green pipeline' },
    });
    assert.equal(again.status, 200);
    assert.equal(again.data.deduplicated, true);
    assert.equal((await call(`/v1/memories/${id}`)).data.title, 'Deploys go through the blue-green pipeline');
    const found = await call('/v1/memories/search?q=pipeline');
    assert.equal(found.data.hits[0].id, id);
    const patched = await call(`/v1/memories/${id}`, {
      method: 'PATCH',
      json: { add_labels: ['ci'], importance: 0.9 },
    });
    assert.deepEqual(patched.data.labels, ['deploy', 'ci']);
    assert.equal((await call(`/v1/memories/${id}/forget`, { method: 'POST' })).data.status, 'forgotten');
    assert.equal((await call('/v1/memories/search?q=pipeline')).data.hits.length, 0);
    assert.equal((await call(`/v1/memories/${id}/restore`, { method: 'POST' })).data.status, 'active');
    const purge = await call(`/v1/memories/${id}?force=true`, { method: 'DELETE' });
    assert.deepEqual(purge.data, { id, purged: true });
    assert.equal((await call(`/v1/memories/${id}`)).status, 404);
  });

  test('rules: add, resolve, patch, delete', async () => {
    const add = await call('/v1/rules', { json: { body: 'Run the tests before committing', priority: 5 } });
    assert.equal(add.status, 201);
    const res = await call('/v1/rules/resolve?agent=codex');
    assert.ok(res.data.rules.some((r: J) => r.id === add.data.id));
    const off = await call(`/v1/rules/${add.data.id}`, { method: 'PATCH', json: { enabled: false } });
    assert.equal(off.data.enabled, false);
    assert.equal((await call(`/v1/rules/${add.data.id}`, { method: 'DELETE' })).data.removed, true);
  });

  test('wiki: write (201 then 200), read by nested path, conditional write conflict, history, remove', async () => {
    const put = await call('/v1/wiki/pages/runbooks/deploy.md', {
      method: 'PUT',
      json: { content: '# Deploy\n\nRun make deploy.' },
    });
    assert.equal(put.status, 201);
    const upd = await call('/v1/wiki/pages/runbooks/deploy.md', {
      method: 'PUT',
      json: { content: '# Deploy\n\nRun make release.', expected_version: 1 },
    });
    assert.equal(upd.status, 200);
    assert.equal(upd.data.version, 2);
    const stale = await call('/v1/wiki/pages/runbooks/deploy.md', {
      method: 'PUT',
      json: { content: '# x\n\ny', expected_version: 1 },
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.data.error.code, 'CONFLICT');
    assert.equal(
      (await call('/v1/wiki/pages/runbooks/deploy.md')).data.content,
      '# Deploy\n\nRun make release.',
    );
    assert.equal((await call('/v1/wiki/history/runbooks/deploy.md')).data.versions.length, 2);
    assert.equal((await call('/v1/wiki/search?q=release')).data.hits[0].path, 'runbooks/deploy.md');
    assert.deepEqual(
      (await call('/v1/wiki?prefix=runbooks')).data.pages.map((p: J) => [p.path, p.version]),
      [['runbooks/deploy.md', 2]],
      'the listing holds the pages (awaited, not a promise sent as {})',
    );
    assert.equal((await call('/v1/wiki/pages/runbooks/deploy.md', { method: 'DELETE' })).data.removed, true);
    assert.equal((await call('/v1/wiki/pages/runbooks/deploy.md')).status, 404);
  });

  test('skills: add from fields, show, SKILL.md text, stage, outcome', async () => {
    const add = await call('/v1/skills', {
      json: {
        name: 'release-notes',
        description: 'Write release notes from merged PRs',
        body: 'List merged PRs, group them, write notes.',
      },
    });
    assert.equal(add.status, 201, JSON.stringify(add.data));
    const show = await call('/v1/skills/release-notes');
    assert.equal(show.data.name, 'release-notes');
    const md = await call('/v1/skills/release-notes/skill.md');
    assert.match(md.headers.get('content-type') ?? '', /text\/markdown/);
    assert.match(String(md.data), /^---\nname: release-notes/);
    const out = await call('/v1/skills/release-notes/outcomes', { json: { outcome: 'completed' } });
    assert.equal(out.status, 201);
    const stage = await call('/v1/skills/release-notes/stage', { json: { stage: 'archived' } });
    assert.equal(stage.data.stage, 'archived');
    assert.equal((await call('/v1/skills/nope-nope')).status, 404);
  });

  test('saved threads: import, append with expected count and Idempotency-Key, reconcile, handoff, read', async () => {
    const imp = await call('/v1/saved-threads', {
      json: {
        thread_id: 'chat-1',
        title: 'Pricing',
        source: 'cursor',
        messages: [{ role: 'user', content: 'How do we price seats?' }],
      },
    });
    assert.equal(imp.status, 201);
    assert.equal(imp.data.thread_id, 'chat-1');
    const append = () =>
      call('/v1/saved-threads/chat-1/messages', {
        json: {
          messages: [{ role: 'assistant', content: 'Per active seat, billed monthly.' }],
          expected_message_count: 1,
        },
        headers: { 'idempotency-key': 'k-1' },
      });
    const first = await append();
    assert.equal(first.data.messages_added, 1);
    const replay = await append();
    assert.equal(replay.status, 200);
    assert.equal(replay.data.replayed, true);
    const stale = await call('/v1/saved-threads/chat-1/messages', {
      json: { messages: [{ role: 'user', content: 'and annual?' }], expected_message_count: 1 },
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.data.error.details.actual_message_count, 2);
    const rec = await call('/v1/saved-threads/chat-1/reconcile', {
      json: {
        matched_count: 1,
        messages: [{ role: 'assistant', content: 'Per seat, monthly or annually.' }],
      },
    });
    assert.equal(rec.data.total_messages, 2);
    const got = await call('/v1/saved-threads/chat-1');
    assert.deepEqual(
      got.data.messages.map((m: J) => m.content),
      ['How do we price seats?', 'Per seat, monthly or annually.'],
    );
    const save = await call('/v1/saved-threads/chat-2', {
      method: 'PUT',
      json: { messages: [{ role: 'user', content: 'hi' }] },
    });
    assert.equal(save.status, 201);
    const handoff = await call(`/v1/threads/claude-code:${S1}/handoff`, { method: 'POST' });
    assert.equal(handoff.status, 201);
    assert.match(handoff.data.markdown, /Goal/);
    const list = await call('/v1/saved-threads');
    assert.ok(list.data.threads.some((t: J) => t.id === 'chat-1'));
  });

  test('working memory, context bundle and fs are mounted when the engine has them', async () => {
    if (engine.workingMemory) assert.equal((await call('/v1/working-memory')).status, 200);
    if (engine.contextBundle) {
      const ctx = await call('/v1/context?budget=500');
      assert.equal(ctx.status, 200);
      assert.ok(ctx.data.tokens <= 500);
    }
    if (engine.fs) assert.equal((await call('/v1/fs/ls?path=/')).status, 200);
  });
});

describe('bad input', () => {
  test('malformed JSON is 400, another media type 415', async () => {
    const bad = await call('/v1/memories', {
      body: '{"content": "x",',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.data.error.code, 'INVALID_INPUT');
    assert.match(bad.data.error.message, /not valid JSON/);
    const text = await call('/v1/memories', {
      body: '{"content":"x"}',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    assert.equal(text.data.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('schema violations name the field; unknown fields are refused', async () => {
    const wrong = await call('/v1/memories', { json: { content: 42 } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.data.error.details.issues[0].path, 'body.content');
    const extra = await call('/v1/memories', { json: { content: 'x', colour: 'red' } });
    assert.equal(extra.status, 400);
    assert.match(extra.data.error.message, /colour/);
    const none = await call('/v1/memories', { method: 'POST' });
    assert.equal(none.status, 400);
  });

  test('bodies over the limit are 413, declared or streamed; thread bodies get the larger limit', async () => {
    const big = 'x'.repeat(70 * 1024);
    const declared = await call('/v1/memories', { json: { content: big } });
    assert.equal(declared.status, 413);
    assert.equal(declared.data.error.code, 'PAYLOAD_TOO_LARGE');
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode(`${'y'.repeat(10 * 1024)}`));
        c.close();
      },
    });
    const streamed = await app.request('/v1/memories', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(streamed.status, 413);
    const thread = await call('/v1/saved-threads', {
      json: { thread_id: 'big-1', messages: [{ role: 'user', content: 'z '.repeat(50 * 1024) }] },
    });
    assert.equal(thread.status, 201, 'a 100 KB thread fits the thread limit');
    const tooBig = await call('/v1/saved-threads', {
      json: { thread_id: 'big-2', messages: [{ role: 'user', content: 'z'.repeat(300 * 1024) }] },
    });
    assert.equal(tooBig.status, 413);
  });

  test('a keyless request naming another Host or Origin is refused (DNS rebinding, cross-site pages)', async () => {
    const host = await call('/v1/search?q=x', { headers: { host: 'attacker.example:7420' } });
    assert.equal(host.status, 403);
    const origin = await call('/v1/memories', {
      json: { content: 'planted' },
      headers: { origin: 'https://attacker.example' },
    });
    assert.equal(origin.status, 403);
  });

  test('errors map to statuses once: 503 with Retry-After, 500 without internals', async () => {
    const broken = {
      ...engine,
      transcripts: {
        ...engine.transcripts,
        search() {
          throw new TapedeckError(
            'STORAGE_UNAVAILABLE',
            'The database is locked by another process; try again',
          );
        },
        threads() {
          throw new TypeError('secret internal detail');
        },
      },
    } as Engine;
    const lines: string[] = [];
    const b = createHttpApp(broken, {
      clientAddress: () => '127.0.0.1',
      localToken: TOKEN,
      log: (l) => lines.push(l),
    });
    const locked = await b.request('/v1/search?q=x', { headers: LOCAL });
    assert.equal(locked.status, 503);
    assert.equal(locked.headers.get('retry-after'), '1');
    assert.equal((await json(locked)).error.code, 'STORAGE_UNAVAILABLE');
    const boom = await b.request('/v1/threads', { headers: LOCAL });
    assert.equal(boom.status, 500);
    const body = await json(boom);
    assert.equal(body.error.code, 'INTERNAL');
    assert.doesNotMatch(body.error.message, /secret internal detail/);
    assert.ok(
      lines.some((l) => l.includes('secret internal detail')),
      'the details are logged',
    );
  });
});

describe('OpenAPI', () => {
  test('documents every route with the schemas the handlers validate with', async () => {
    const doc = (await call('/openapi.json')).data;
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(app.routes.length > 40);
    for (const r of app.routes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method];
      assert.ok(op, `${r.method} ${r.path} is documented`);
      if (r.body)
        assert.deepEqual(op.requestBody.content['application/json'].schema, inputSchema(r.body), r.path);
      else assert.equal(op.requestBody, undefined);
      const query = r.query ? Object.keys((inputSchema(r.query).properties ?? {}) as object) : [];
      assert.deepEqual(
        op.parameters.filter((p: J) => p.in === 'query').map((p: J) => p.name),
        query,
        `${r.path} query parameters`,
      );
    }
    assert.ok(doc.paths['/v1/wiki/pages/{path}'].put);
  });

  test('what the document marks required, the handler requires', async () => {
    const doc = (await call('/openapi.json')).data;
    const memory = doc.paths['/v1/memories'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(memory.required, ['content']);
    assert.equal(memory.additionalProperties, false);
    assert.equal((await call('/v1/memories', { json: { title: 'no content' } })).status, 400);
    const q = doc.paths['/v1/search'].get.parameters.find((p: J) => p.name === 'q');
    assert.equal(q.required, true);
    const limit = doc.paths['/v1/search'].get.parameters.find((p: J) => p.name === 'limit');
    assert.equal(limit.schema.maximum, 100);
    assert.equal((await call(`/v1/search?q=x&limit=${limit.schema.maximum + 1}`)).status, 400);
    assert.equal((await call(`/v1/search?q=x&limit=${limit.schema.maximum}`)).status, 200);
  });

  test('input schemas come straight from zod', () => {
    const s = z.strictObject({ a: z.string().min(2), b: z.coerce.number().int().optional() });
    assert.deepEqual(inputSchema(s), {
      type: 'object',
      properties: {
        a: { type: 'string', minLength: 2 },
        b: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      },
      required: ['a'],
      additionalProperties: false,
    });
  });
});
