/**
 * Space isolation on a real server: a key limited to space alpha never sees space beta's
 * memories, threads, search hits, wiki pages or rules — through REST and through MCP over
 * Streamable HTTP (the SDK's own client). Beta's records carry a unique word; no answer to the
 * alpha key may contain it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { json, type ServedHome, serveHome } from './support/http.js';

const BETA_WORD = 'betaonlyword';
let s: ServedHome;
let alphaKey: string;
let betaReader: string;
let betaMemory: string;
const seen: string[] = [];

/** A request with the alpha key; every body is kept to prove beta's word never appears. */
async function alpha(path: string, init: { method?: string; json?: unknown } = {}) {
  const r = await s.req(path, { ...init, key: alphaKey });
  const text = await r.text();
  seen.push(text);
  return { status: r.status, data: text ? JSON.parse(text) : null };
}

before(async () => {
  s = await serveHome();
  const e = s.engine;
  const save = (id: string, space: string, text: string) =>
    e.savedThreads.import({
      id,
      space,
      title: `${space} chat`,
      source: 'cursor',
      messages: [{ role: 'user', content: text }],
    });
  save('alpha-chat', 'alpha', 'zebracorn migration plan for alpha');
  save('beta-chat', 'beta', `zebracorn migration plan ${BETA_WORD}`);
  e.memories.add({ content: 'The zebracorn service runs on port 9000 in alpha', space: 'alpha' });
  betaMemory = e.memories.add({
    content: `The zebracorn service ${BETA_WORD} runs on port 9100`,
    space: 'beta',
  }).id;
  await e.wiki.write('notes/zebracorn.md', `# Zebracorn\n\n${BETA_WORD} notes`, { space: 'beta' });
  await e.rules.add({ body: `Always mention ${BETA_WORD}`, scope: 'space:beta' });
  await e.rules.add({ body: 'Everyone runs the linter', scope: 'global' });
  alphaKey = (await e.keys.create({ name: 'alpha', scope: 'write', spaces: ['alpha'] })).key;
  betaReader = (await e.keys.create({ name: 'beta', scope: 'read', spaces: ['beta'] })).key;
});

after(async () => {
  await s?.stop();
});

describe('REST', () => {
  test("search hits come from the key's spaces only", async () => {
    const r = await alpha('/v1/search?q=zebracorn%20migration');
    assert.deepEqual(
      r.data.hits.map((h: { thread: string }) => h.thread),
      ['alpha-chat'],
    );
    const pinned = await alpha('/v1/search?q=zebracorn&thread=beta-chat');
    assert.equal(pinned.data.hits.length, 0);
    const beta = await s.req('/v1/search?q=zebracorn%20migration', { key: betaReader });
    assert.deepEqual(
      (await json(beta)).hits.map((h: { thread: string }) => h.thread),
      ['beta-chat'],
    );
  });

  test('threads of another space are not listed and are NOT_FOUND by id, like a missing one', async () => {
    const list = await alpha('/v1/threads');
    assert.deepEqual(
      list.data.threads.map((t: { id: string }) => t.id),
      ['alpha-chat'],
    );
    const other = await alpha('/v1/threads/beta-chat');
    const missing = await alpha('/v1/threads/no-such-chat');
    assert.equal(other.status, 404);
    assert.equal(other.data.error.message, missing.data.error.message.replace('no-such-chat', 'beta-chat'));
    assert.equal((await alpha('/v1/saved-threads/beta-chat')).status, 404);
    assert.deepEqual(
      (await alpha('/v1/saved-threads')).data.threads.map((t: { id: string }) => t.id),
      ['alpha-chat'],
    );
    assert.equal((await alpha('/v1/status')).data.threads, 1);
  });

  test("another space's threads cannot be written, merged into or handed off", async () => {
    const append = await alpha('/v1/saved-threads/beta-chat/messages', {
      json: { messages: [{ role: 'user', content: 'injected' }] },
    });
    assert.equal(append.status, 404);
    const merge = await alpha('/v1/saved-threads', {
      json: { id: 'beta-chat', merge: true, messages: [{ role: 'user', content: 'injected' }] },
    });
    assert.equal(merge.status, 409);
    const reconcile = await alpha('/v1/saved-threads/beta-chat/reconcile', {
      json: { matched_count: 0, messages: [] },
    });
    assert.equal(reconcile.status, 404);
    assert.equal((await alpha('/v1/threads/beta-chat/handoff', { method: 'POST' })).status, 404);
    assert.equal(s.engine.savedThreads.get('beta-chat').messages.length, 1, 'beta is untouched');
    const mine = await alpha('/v1/saved-threads', {
      json: { id: 'alpha-2', messages: [{ role: 'user', content: 'hello' }] },
    });
    assert.equal(mine.status, 201);
    assert.equal(
      s.engine.store.getThread('alpha-2')?.space,
      'alpha',
      "a new thread lands in the key's space",
    );
  });

  test('memories of another space are invisible: search, list, get, change; naming the space is 403', async () => {
    const hits = await alpha('/v1/memories/search?q=zebracorn');
    assert.equal(hits.data.hits.length, 1);
    assert.equal(hits.data.hits[0].space, 'alpha');
    assert.equal((await alpha('/v1/memories/search?q=zebracorn&all_spaces=true')).data.hits.length, 1);
    assert.equal((await alpha('/v1/memories?all_spaces=true')).data.memories.length, 1);
    assert.equal((await alpha('/v1/memories/search?q=zebracorn&space=beta')).status, 403);
    assert.equal((await alpha(`/v1/memories/${betaMemory}`)).status, 404);
    assert.equal(
      (await alpha(`/v1/memories/${betaMemory}`, { method: 'PATCH', json: { importance: 1 } })).status,
      404,
    );
    assert.equal((await alpha(`/v1/memories/${betaMemory}/forget`, { method: 'POST' })).status, 404);
    assert.equal((await alpha('/v1/memories', { json: { content: 'x', space: 'beta' } })).status, 403);
    const cite = await alpha('/v1/memories', { json: { content: 'cites beta', thread: 'beta-chat' } });
    assert.equal(cite.status, 404, 'provenance cannot point into another space');
    const add = await alpha('/v1/memories', { json: { content: 'Alpha keys add to alpha' } });
    assert.equal(add.data.space, 'alpha');
    assert.equal(s.engine.memories.get(betaMemory).status, 'active');
  });

  test("wiki, rules, fs and the context bundle stay inside the key's spaces", async () => {
    assert.equal((await alpha('/v1/wiki/pages/notes/zebracorn.md')).status, 404);
    assert.equal((await alpha('/v1/wiki/pages/notes/zebracorn.md?space=beta')).status, 403);
    assert.equal((await alpha('/v1/wiki/search?q=zebracorn')).data.hits.length, 0);
    const rules = await alpha('/v1/rules?all_spaces=true');
    assert.deepEqual(
      rules.data.rules.map((r: { scope: string }) => r.scope),
      ['global'],
    );
    assert.equal((await alpha('/v1/rules', { json: { body: 'for all', scope: 'global' } })).status, 403);
    assert.equal(
      (await alpha('/v1/rules', { json: { body: 'alpha only', scope: 'space:alpha' } })).status,
      201,
    );
    if (s.engine.fs) assert.equal((await alpha('/v1/fs/ls?path=/')).status, 403);
    if (s.engine.contextBundle) {
      assert.equal((await alpha('/v1/context?space=beta')).status, 403);
      const ctx = await alpha('/v1/context');
      assert.equal(ctx.status, 200);
      assert.equal(ctx.data.space, 'alpha');
    }
  });

  test("no answer to the alpha key contains beta's word", () => {
    assert.ok(seen.length > 20);
    for (const body of seen) assert.ok(!body.includes(BETA_WORD), body.slice(0, 200));
  });
});

describe('MCP over Streamable HTTP', () => {
  let client: Client;
  const texts: string[] = [];
  type Result = { content: { type: string; text: string }[]; isError?: boolean };
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as unknown as Result;
    texts.push(JSON.stringify(r));
    return r;
  };

  before(async () => {
    client = new Client({ name: 'tapedeck-isolation-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${alphaKey}` } },
      }),
    );
  });
  after(async () => {
    await client?.close();
  });

  test('the tools are there', async () => {
    const { tools } = await client.listTools();
    for (const t of ['recall', 'read', 'remember'])
      assert.ok(
        tools.some((x) => x.name === t),
        t,
      );
  });

  test("search and listing show only the key's threads", async () => {
    const hits = await call('recall', { query: 'zebracorn migration', in: 'sessions' });
    assert.ok(!hits.isError, hits.content[0].text);
    assert.match(hits.content[0].text, /alpha-chat/);
    assert.doesNotMatch(hits.content[0].text, /beta-chat/);
    const list = await call('recall', {});
    assert.doesNotMatch(list.content[0].text, /beta-chat/);
    const steps = await call('read', { ref: 'beta-chat' });
    assert.equal(steps.isError, true);
    assert.match(steps.content[0].text, /NOT_FOUND/);
  });

  test("memories of another space are invisible; writes land in the key's space", async () => {
    const found = await call('recall', { query: 'zebracorn', in: 'memories' });
    assert.ok(!found.isError, found.content[0].text);
    assert.match(found.content[0].text, /port 9000/);
    const other = await call('read', { ref: `tapedeck://memory/${betaMemory}` });
    assert.equal(other.isError, true);
    const added = await call('remember', { content: 'Added through MCP over HTTP with the alpha key' });
    assert.ok(!added.isError, added.content[0].text);
    const saved = s.engine.memories
      .list({ allSpaces: true })
      .memories.find((m) => m.content.startsWith('Added through MCP'));
    assert.equal(saved?.space, 'alpha');
  });

  test("no MCP answer to the alpha key contains beta's word", () => {
    assert.ok(texts.length >= 5);
    for (const t of texts) assert.ok(!t.includes(BETA_WORD), t.slice(0, 200));
  });

  test('a beta read key over MCP sees beta and cannot write', async () => {
    const b = new Client({ name: 'beta', version: '1.0.0' });
    await b.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/`), {
        requestInit: { headers: { 'x-tapedeck-api-key': betaReader } },
      }),
    );
    try {
      const r = (await b.callTool({
        name: 'recall',
        arguments: { query: 'zebracorn', in: 'memories' },
      })) as unknown as Result;
      assert.match(r.content[0].text, /port 9100/);
      const w = (await b.callTool({
        name: 'remember',
        arguments: { content: 'beta reader writes' },
      })) as unknown as Result;
      assert.equal(w.isError, true);
    } finally {
      await b.close();
    }
  });

  test('MCP without a valid key is refused with 401', async () => {
    const r = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer nope',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(r.status, 401);
  });
});

describe('a space crowded out by another', () => {
  test("a key's search finds its own step however many better matches other spaces hold", async () => {
    const e = s.engine;
    // 1,200 steps in beta that match the word better (it is all they say), newer than alpha's one.
    e.savedThreads.import({
      id: 'alpha-quokka',
      space: 'alpha',
      source: 'cursor',
      messages: [{ role: 'user', content: 'We kept the quokka budget at three replicas because of the SLA' }],
    });
    for (let i = 0; i < 60; i++)
      e.savedThreads.import({
        id: `beta-crowd-${i}`,
        space: 'beta',
        source: 'cursor',
        messages: Array.from({ length: 20 }, (_, j) => ({
          role: 'user',
          content: `quokka quokka ${i}-${j}`,
        })),
      });
    const r = await alpha('/v1/search?q=quokka');
    assert.deepEqual(
      r.data.hits.map((h: { thread: string }) => h.thread),
      ['alpha-quokka'],
    );
    const listed = await alpha('/v1/threads?limit=5');
    assert.ok(listed.data.threads.every((t: { id: string }) => !t.id.startsWith('beta')));
  });
});
