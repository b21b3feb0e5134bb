/**
 * The lean MCP tools that write or assemble knowledge — remember, context, skills, threads — and
 * recall/read over memories, through a real MCP client (in-memory transport). Each answer's
 * structuredContent is validated by the client against the tool's output schema.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { loadConfig } from '../src/app/config.js';
import type { Engine } from '../src/app/engine.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { type TempHome, tempHome } from './support/home.js';

let h: TempHome;
let engine: Engine;
let client: Client;

// biome-ignore lint/suspicious/noExplicitAny: structured content differs per tool; each test reads its own fields
type Result = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: any };
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as unknown as Result;
const ok = async (name: string, args: Record<string, unknown>) => {
  const r = await call(name, args);
  assert.ok(!r.isError, `${name}: ${r.content[0]?.text}`);
  return r;
};

before(async () => {
  h = tempHome();
  engine = h.engine();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await buildMcpServer({ engine, refreshMs: 0 }).connect(a);
  client = new Client({ name: 'tapedeck-test', version: '1.0.0' });
  await client.connect(b);
});

after(async () => {
  await client?.close();
  engine?.close();
  h?.cleanup();
});

test('remember: add, find it with recall, read it, supersede it; forget needs confirm; restore undoes', async () => {
  const added = await ok('remember', {
    content: 'Orders are idempotent by the Idempotency-Key header',
    type: 'decision',
    labels: ['api'],
    project: '.',
  });
  assert.match(added.content[0].text, /^saved: tapedeck:\/\/memory\/\S+ decision /);
  const link = added.structuredContent.link as string;
  assert.equal(engine.memories.get(link).project, process.cwd(), '"." is the server\'s working directory');
  const again = await ok('remember', {
    content: 'Orders are idempotent by the Idempotency-Key header',
    project: '.',
  });
  assert.equal(again.structuredContent.status, 'deduplicated');

  const found = await ok('recall', { query: 'idempotency key', in: 'memories' });
  assert.match(found.content[0].text, /^Memories:\n- tapedeck:\/\/memory\/\S+ decision \d{4}-\d\d-\d\d: /);
  assert.deepEqual(found.structuredContent.hits, [{ link }]);
  assert.match((await ok('read', { ref: link })).content[0].text, /Idempotency-Key header$/);

  const next = await ok('remember', {
    action: 'supersede',
    id: link,
    content: 'Orders and refunds are idempotent by the Idempotency-Key header',
  });
  assert.equal(next.structuredContent.status, 'superseded');
  assert.equal(engine.memories.get(link).status, 'superseded');
  const newer = next.structuredContent.link as string;

  const refused = await call('remember', { action: 'forget', id: newer });
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text, /confirm: true/);
  assert.equal(engine.memories.get(newer).status, 'active');
  await ok('remember', { action: 'forget', id: newer, confirm: true });
  assert.equal(engine.memories.get(newer).status, 'forgotten');
  await ok('remember', { action: 'restore', id: newer });
  assert.equal(engine.memories.get(newer).status, 'active');

  const missing = await call('remember', { action: 'update', id: '00000000-0000-4000-8000-00000000dead' });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /^NOT_FOUND: .*Hint: recall/);
  const empty = await call('remember', {});
  assert.equal(empty.isError, true);
  assert.match(empty.content[0].text, /^INVALID_INPUT: add needs content/);
});

test('remember rule, then context: the rules, the briefing, and the bundle within its budget', async () => {
  await ok('remember', { action: 'rule', content: 'Use pnpm, never npm.', scope: 'project:.' });
  const [rule] = (await engine.rules.list({})).rules;
  assert.equal(rule.scope, `project:${process.cwd()}`);
  const rules = await ok('context', { part: 'rules', project: '.' });
  assert.match(rules.content[0].text, /Use pnpm, never npm\./);
  const elsewhere = await ok('context', { part: 'rules', project: '/somewhere/else' });
  assert.equal(elsewhere.content[0].text, 'No rules apply.');
  const briefing = await ok('context', { part: 'briefing' });
  assert.match(briefing.content[0].text, /^# Working memory · \d{4}-\d{2}-\d{2}/);
  const bundle = await ok('context', { agent: 'claude-code', project: '.', budget: 200 });
  assert.match(bundle.content[0].text, /^# Session context · claude-code/);
  assert.match(bundle.content[0].text, /Use pnpm, never npm\./);
  assert.ok(bundle.structuredContent.tokens <= 200);
  const bad = await call('context', { budget: 50 });
  assert.equal(bad.isError, true);
});

test('skills: propose a draft, find it for a task, load it, report an outcome', async () => {
  const skill = `---\nname: fix-flaky-test\ndescription: Fix a flaky test by isolating shared state\n---\n\n1. Run it 20 times.\n2. Look for shared state.\n`;
  const proposed = await ok('skills', { action: 'propose', content: skill });
  assert.equal(proposed.content[0].text, 'Created draft skill fix-flaky-test v1.');
  const found = await ok('skills', { action: 'find', task: 'a flaky test fails sometimes' });
  assert.match(found.content[0].text, /^fix-flaky-test \[Draft\] \(draft\) — Fix a flaky test/);
  assert.deepEqual(found.structuredContent.names, ['fix-flaky-test']);
  const loaded = await ok('skills', { action: 'load', name: 'fix-flaky-test' });
  assert.match(loaded.content[0].text, /Look for shared state/);
  const outcome = await ok('skills', { action: 'outcome', name: 'fix-flaky-test', outcome: 'completed' });
  assert.match(outcome.content[0].text, /completed recorded; badge/);
  const missing = await call('skills', { action: 'load' });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /load needs name/);
});

test('threads: save a chat, append to it, read it back, hand it off', async () => {
  const first = await ok('threads', {
    action: 'save',
    thread: 'lean-1',
    title: 'Nightly export',
    messages: [
      { role: 'user', content: 'Why is the nightly export slow?' },
      { role: 'assistant', content: 'We decided to stream rows instead of loading the table.' },
    ],
  });
  assert.match(first.content[0].text, /^created lean-1: \+2 messages, 2 total$/);
  const more = await ok('threads', {
    action: 'save',
    thread: 'lean-1',
    messages: [
      { role: 'assistant', content: 'We decided to stream rows instead of loading the table.' },
      { role: 'user', content: 'TODO: add a progress log.' },
    ],
  });
  assert.match(more.content[0].text, /^saved lean-1: \+1 messages \(1 already there\), 3 total$/);
  assert.match(
    (await ok('read', { ref: 'tapedeck://thread/lean-1#1', window: 0 })).content[0].text,
    /stream rows/,
  );
  const handoff = await ok('threads', { action: 'handoff', thread: 'tapedeck://thread/lean-1' });
  assert.match(handoff.content[0].text, /^# Handoff: Nightly export/);
  assert.equal(handoff.structuredContent.link, 'tapedeck://thread/handoff:lean-1:1');
});

test('mcpTools in config.json (or TAPEDECK_MCP_TOOLS) picks the set; anything else is a clear error', async () => {
  const home = tempHome();
  try {
    home.write('../tapedeck/config.json', JSON.stringify({ mcpTools: 'full' }));
    assert.equal(loadConfig({}, home.env).mcpTools, 'full');
    assert.equal(loadConfig({}, { ...home.env, TAPEDECK_MCP_TOOLS: 'lean' }).mcpTools, 'lean', 'env wins');
    assert.equal(loadConfig({}, h.env).mcpTools, 'lean', 'lean by default');
    home.write('../tapedeck/config.json', JSON.stringify({ mcpTools: 'everything' }));
    assert.throws(() => loadConfig({}, home.env), /mcpTools \(TAPEDECK_MCP_TOOLS\) must be lean or full/);
  } finally {
    home.cleanup();
  }
});
