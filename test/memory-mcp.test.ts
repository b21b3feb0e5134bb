/** (The full tool set, mcpTools=full.) Memory and rule tools through a real MCP client over the in-memory transport. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Engine } from '../src/app/engine.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { type TempHome, tempHome } from './support/home.js';

type Result = {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent: { id: string; deduplicated: boolean; supersedes: string[]; hits: { id: string }[] };
};
let h: TempHome;
let engine: Engine;
let client: Client;
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as unknown as Result;

before(async () => {
  h = tempHome();
  engine = h.engine();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await buildMcpServer({ engine, refreshMs: 0, tools: 'full' }).connect(a);
  client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
});

after(async () => {
  await client?.close();
  engine?.close();
  h?.cleanup();
});

const MEMORY_TOOLS = [
  'memory_add',
  'memory_forget',
  'memory_get',
  'memory_restore',
  'memory_search',
  'memory_supersede',
  'memory_update',
];
const RULE_TOOLS = ['rules_add', 'rules_list', 'rules_remove', 'rules_resolve', 'rules_update'];

test('memory and rule tools are listed with honest annotations and short descriptions', async () => {
  const { tools } = await client.listTools();
  const mine = tools.filter((t) => MEMORY_TOOLS.includes(t.name) || RULE_TOOLS.includes(t.name));
  assert.deepEqual(mine.map((t) => t.name).sort(), [...MEMORY_TOOLS, ...RULE_TOOLS].sort());
  const hint = (name: string) => mine.find((t) => t.name === name)!.annotations!;
  for (const n of ['memory_search', 'memory_get', 'rules_list', 'rules_resolve'])
    assert.equal(hint(n).readOnlyHint, true, n);
  for (const n of [
    'memory_add',
    'memory_update',
    'memory_supersede',
    'memory_restore',
    'rules_add',
    'rules_update',
  ]) {
    assert.equal(hint(n).readOnlyHint, false, n);
    assert.equal(hint(n).destructiveHint, false, n);
  }
  for (const n of ['memory_forget', 'rules_remove']) assert.equal(hint(n).destructiveHint, true, n);
  for (const t of mine)
    assert.ok((t.description ?? '').length > 30 && (t.description ?? '').length < 400, t.name);
  const size = JSON.stringify(mine).length;
  // 9,000 before the rule tools declared their output schemas (the catalogue's, ~2,000 chars) and
  // rules got an owner (~450). The full set is opt-in; the lean default's budget is mcp-stdio's.
  assert.ok(size < 12_000, `these twelve tools stay compact (${size} chars)`);
});

test('an agent adds, finds, reads, corrects and supersedes memories', async () => {
  const add = await call('memory_add', {
    content: 'The mobile app talks to the API through the BFF at /bff, never directly',
    type: 'decision',
    labels: ['mobile', 'api'],
    importance: 0.8,
  });
  assert.equal(add.isError, undefined, add.content[0].text);
  const id = add.structuredContent.id as string;
  assert.equal(add.structuredContent.deduplicated, false);
  assert.match(add.content[0].text, /^saved: tapedeck:\/\/memory\//);
  const dup = await call('memory_add', {
    content: 'the mobile app talks to the API through the BFF at /bff — never directly.',
    labels: ['bff'],
  });
  assert.equal(dup.structuredContent.id, id);
  assert.match(dup.content[0].text, /already known \(exact duplicate\)/);

  const found = await call('memory_search', { query: 'how does the mobile app reach the api' });
  assert.match(found.content[0].text, new RegExp(`\\[1\\] tapedeck://memory/${id} decision imp=0.8`));
  assert.match(found.content[0].text, /\[mobile, api, bff\]/);
  assert.deepEqual(
    found.structuredContent.hits.map((x: { id: string }) => x.id),
    [id],
  );

  const got = await call('memory_get', { id: `tapedeck://memory/${id}` });
  assert.match(got.content[0].text, /never directly/);
  const upd = await call('memory_update', { id, add_labels: ['gateway'], importance: 0.9 });
  assert.match(upd.content[0].text, /imp=0.9/);
  const sup = await call('memory_supersede', {
    id,
    content: 'The mobile app calls the API gateway directly since the BFF was retired',
  });
  assert.deepEqual(sup.structuredContent.supersedes, [id]);
  const now = await call('memory_search', { query: 'mobile app api' });
  assert.equal(now.structuredContent.hits[0].id, sup.structuredContent.id);
  assert.equal(now.structuredContent.hits.length, 1);
  const then = await call('memory_search', {
    query: 'mobile app api',
    as_of: engine.memories.get(id).created_at,
  });
  assert.equal(then.structuredContent.hits[0].id, id);
});

test('forget needs confirm: true; restore undoes it; bad input and unknown ids are isError', async () => {
  const { structuredContent } = await call('memory_add', {
    content: 'Staging resets every Sunday night at 23:00',
  });
  const id = structuredContent.id as string;
  const refused = await call('memory_forget', { id });
  assert.equal(refused.isError, true);
  assert.match(refused.content[0].text, /confirm: true/);
  assert.equal(engine.memories.get(id).status, 'active', 'nothing happened without confirm');
  assert.match((await call('memory_forget', { id, confirm: true })).content[0].text, /^forgotten/);
  assert.equal((await call('memory_search', { query: 'staging resets' })).structuredContent.hits.length, 0);
  assert.match((await call('memory_restore', { id })).content[0].text, /^restored/);

  const missing = await call('memory_get', { id: 'tapedeck://memory/nope' });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /NOT_FOUND.*memory_search/);
  const bad = await call('memory_add', { content: 'x', type: 'decision', event_start: 'someday' });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /INVALID_INPUT: event start/);
  const badThread = await call('memory_add', { content: 'from nowhere', thread: 'codex:none' });
  assert.match(badThread.content[0].text, /NOT_FOUND: No thread "codex:none"/);
});

test('rules: add, resolve in order, update, remove with confirm', async () => {
  const g = await engine.rules.add({ body: 'Prefer small pull requests' });
  await call('rules_add', {
    body: 'Codex runs `make check` before committing',
    scope: 'agent:codex',
    priority: 2,
  });
  await call('rules_add', { body: 'Shop: use pnpm', scope: 'project:/home/dev/shop' });
  const r = await call('rules_resolve', { agent: 'codex', project: '/home/dev/shop' });
  const text = r.content[0].text;
  assert.ok(
    text.indexOf('make check') < text.indexOf('use pnpm') &&
      text.indexOf('use pnpm') < text.indexOf('small pull'),
    text,
  );
  assert.match(text, /applies: agent codex/);
  const off = await call('rules_update', { id: g.id, enabled: false });
  assert.match(off.content[0].text, /DISABLED/);
  assert.doesNotMatch((await call('rules_resolve', {})).content[0].text, /small pull/);
  assert.equal((await call('rules_remove', { id: g.id })).isError, true);
  assert.match((await call('rules_remove', { id: g.id, confirm: true })).content[0].text, /removed rule/);
  assert.doesNotMatch((await call('rules_list', {})).content[0].text, /small pull/);
  const bad = await call('rules_add', { body: 'x', scope: 'project:relative/path' });
  assert.equal(bad.isError, true);
});
