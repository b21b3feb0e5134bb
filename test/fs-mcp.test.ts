/** The fs MCP tool (reading and writing actions) through a real MCP client over the in-memory transport. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Engine } from '../src/app/engine.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { type TempHome, tempHome } from './support/home.js';
import { type Fixture, populate } from './support/knowledge-fixture.js';

let h: TempHome;
let engine: Engine;
let client: Client;
let fx: Fixture;

// biome-ignore lint/suspicious/noExplicitAny: structured results differ per verb; each test reads its own fields
type Result = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: any };
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as unknown as Result;
const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(name, args);
  assert.ok(!r.isError, `${name}: ${r.content[0]?.text}`);
  return r.content[0].text;
};

before(async () => {
  h = tempHome();
  engine = h.engine();
  fx = await populate(engine);
  const server = buildMcpServer({ engine, refreshMs: 0 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'tapedeck-test', version: '1.0.0' });
  await client.connect(b);
});

after(async () => {
  await client?.close();
  engine?.close();
  h?.cleanup();
});

test('one fs tool, destructive because write and rm change things; export/import have none', async () => {
  const { tools } = await client.listTools();
  const fs = tools.find((t) => t.name === 'fs');
  assert.equal(fs?.annotations?.readOnlyHint, false);
  assert.equal(fs?.annotations?.destructiveHint, true);
  assert.ok(!tools.some((t) => t.name === 'fs_write'));
  assert.ok(!tools.some((t) => /export|import/.test(t.name)));
  assert.match(fs?.description ?? '', /when recall is too narrow/);
});

test('fs: ls, cat (a default window), find, grep, recall — compact text', async () => {
  const ls = await ok('fs', { action: 'ls', path: '/memories/by-label' });
  assert.equal(ls, '/memories/by-label\ncache/ (1)\nci/cd/ (1)\ndb/ (1)');
  const cat = await ok('fs', { action: 'cat', path: `/memories/by-id/${fx.memory}.md` });
  assert.match(cat, /^\/memories\/by-id\/.*\.md lines 1-20 of 20\n---\nid: /);
  const win = await ok('fs', { action: 'cat', path: '/threads/by-id/chat-42.md', lines: '1-3' });
  assert.equal(
    win,
    '/threads/by-id/chat-42.md lines 1-3 of more\n---\nid: chat-42\ntitle: Billing migration\n(more: lines=4-)',
  );
  assert.equal(
    await ok('fs', { action: 'find', path: '/wiki', query: '*.md' }),
    '/wiki/architecture/payments.md\n/wiki/runbooks/deploy.md',
  );
  const grep = await ok('fs', { action: 'grep', path: '/threads', query: '^TODO' });
  const [, line] = grep.match(/^\/threads\/by-id\/chat-42\.md:(\d+):TODO: migrate the invoices table$/)!;
  // The line number is the one cat shows.
  assert.match(
    await ok('fs', { action: 'cat', path: '/threads/by-id/chat-42.md', lines: line }),
    /\nTODO: migrate the invoices table$/,
  );
  assert.match(
    await ok('fs', { action: 'recall', path: '/wiki', query: 'webhooks' }),
    /^\/wiki\/architecture\/payments\.md — Payments\n/,
  );
});

test('fs: errors carry fs hints', async () => {
  const missing = await call('fs', { action: 'cat', path: '/memories/by-id/nope.md' });
  assert.equal(missing.isError, true);
  assert.match(
    missing.content[0].text,
    /^NOT_FOUND: .*nearest existing folder is \/memories\/by-id.*Hint: fs action=ls/,
  );
  const climb = await call('fs', { action: 'ls', path: '/../../etc' });
  assert.match(climb.content[0].text, /^INVALID_INPUT: .*"\.\.".*Hint: paths start at \//);
  const noPattern = await call('fs', { action: 'grep', path: '/' });
  assert.equal(noPattern.isError, true);
});

test('fs write: a memory and a wiki page; rm needs confirm; read-only places are FORBIDDEN', async () => {
  const w = await call('fs', {
    action: 'write',
    path: '/memories/by-type/learning/new.md',
    content: 'FTS5 needs the porter tokenizer for stems',
  });
  assert.ok(!w.isError, w.content[0].text);
  assert.match(w.content[0].text, /^Created /);
  const id = (w.structuredContent.path as string).match(/by-id\/(.+)\.md$/)![1];
  assert.equal(engine.memories.get(id).unit_type, 'learning');
  assert.match(
    await ok('fs', { action: 'write', path: '/wiki/agent/notes.md', content: '# Agent notes\n' }),
    /^Created \/wiki\/agent\/notes\.md v1/,
  );

  const unconfirmed = await call('fs', { action: 'rm', path: `/memories/by-id/${id}.md` });
  assert.equal(unconfirmed.isError, true);
  assert.match(unconfirmed.content[0].text, /confirm: true/);
  assert.equal(engine.memories.get(id).status, 'active');
  assert.match(
    await ok('fs', { action: 'rm', path: `/memories/by-id/${id}.md`, confirm: true }),
    /^forgotten .* \(undo: tapedeck memory restore/,
  );
  assert.equal(engine.memories.get(id).status, 'forgotten');

  const ro = await call('fs', { action: 'write', path: '/threads/by-id/chat-42.md', content: 'x' });
  assert.equal(ro.isError, true);
  assert.match(ro.content[0].text, /^FORBIDDEN: .*read-only\. Writable: /);
});
