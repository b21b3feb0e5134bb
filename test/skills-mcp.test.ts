/** (The full tool set, mcpTools=full.) The skills and wiki MCP tools, through a real MCP client over the in-memory transport. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Engine } from '../src/app/engine.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { type TempHome, tempHome } from './support/home.js';

let h: TempHome;
let engine: Engine;
let client: Client;

// biome-ignore lint/suspicious/noExplicitAny: structured results differ per tool; each test reads its own fields
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
  const server = buildMcpServer({ engine, refreshMs: 0, tools: 'full' });
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

const MINE = [
  'skills_find',
  'skills_list',
  'skills_load',
  'skills_manage',
  'skills_outcome',
  'skills_propose',
  'wiki_read',
  'wiki_search',
  'wiki_write',
];

test('the tools are listed with the right annotations and tight descriptions', async () => {
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const n of MINE) assert.ok(byName.has(n), n);
  for (const n of ['skills_find', 'skills_list', 'skills_load', 'wiki_read', 'wiki_search'])
    assert.equal(byName.get(n)?.annotations?.readOnlyHint, true, n);
  for (const n of ['skills_propose', 'skills_outcome', 'skills_manage', 'wiki_write']) {
    assert.equal(byName.get(n)?.annotations?.readOnlyHint, false, n);
    assert.equal(byName.get(n)?.annotations?.destructiveHint, false, n);
  }
  const size = JSON.stringify(MINE.map((n) => byName.get(n))).length;
  assert.ok(size < 9000, `the nine tools stay small (${size} chars)`);
});

test('an agent proposes a skill, finds it for a task, loads it and reports outcomes', async () => {
  const created = await ok('skills_propose', {
    name: 'fix-flaky-test',
    description: 'Use when a test passes locally but fails in CI',
    body: '# Flaky tests\n1. Re-run with --repeat 50.\n2. Look for shared state.\n',
    note: 'worked on the checkout suite',
  });
  assert.equal(created.structuredContent.status, 'created');
  await ok('skills_manage', { name: 'fix-flaky-test', action: 'set_stage', stage: 'active' });

  const found = await ok('skills_find', { task: 'the checkout test fails in CI but passes locally' });
  assert.equal(
    found.content[0].text,
    'fix-flaky-test [Draft] — Use when a test passes locally but fails in CI',
  );
  assert.deepEqual(found.structuredContent.hits, [
    { name: 'fix-flaky-test', badge: 'Draft', stage: 'active' },
  ]);

  const loaded = await ok('skills_load', { name: 'fix-flaky-test' });
  assert.equal(
    loaded.content[0].text,
    'fix-flaky-test v1 [Draft] active — Use when a test passes locally but fails in CI\n\n# Flaky tests\n1. Re-run with --repeat 50.\n2. Look for shared state.\n',
  );

  assert.match(
    (await ok('skills_outcome', { name: 'fix-flaky-test', outcome: 'completed' })).content[0].text,
    /badge Checked/,
  );
  assert.match(
    (
      await ok('skills_outcome', {
        name: 'fix-flaky-test',
        test: 'finds shared state',
        result: 'passed',
        check: 'spots a global',
      })
    ).content[0].text,
    /test "finds shared state" passed; badge Proven/,
  );
  const both = await call('skills_outcome', {
    name: 'fix-flaky-test',
    outcome: 'failed',
    test: 'x',
    result: 'passed',
  });
  assert.equal(both.isError, true);
  assert.match(both.content[0].text, /INVALID_INPUT: Give either outcome, or test and result/);

  // An improvement waits for a person; the agent still loads the accepted version.
  const p = await ok('skills_propose', {
    name: 'fix-flaky-test',
    body: '# Flaky tests\nAlso check timers.\n',
    note: 'timers',
  });
  assert.equal(p.structuredContent.status, 'proposed');
  assert.match((await ok('skills_load', { name: 'fix-flaky-test' })).content[0].text, /shared state/);
  assert.equal(engine.skills.show('fix-flaky-test').pending_proposals.length, 1);

  const listed = await ok('skills_list', {});
  assert.equal(
    listed.content[0].text,
    'fix-flaky-test [Proven] active v1 — Use when a test passes locally but fails in CI',
  );

  const evidence = await call('skills_manage', {
    name: 'fix-flaky-test',
    action: 'add_evidence',
    evidence: ['tapedeck://thread/none#1'],
  });
  assert.equal(evidence.isError, true);
  assert.match(evidence.content[0].text, /NOT_FOUND/);
  const missing = await call('skills_load', { name: 'no-such-skill' });
  assert.equal(missing.isError, true);
  assert.match(missing.content[0].text, /NOT_FOUND: No skill "no-such-skill"/);
  const badProposal = await call('skills_propose', { content: '# no front matter' });
  assert.equal(badProposal.isError, true);
  assert.match(badProposal.content[0].text, /SKILL\.md: no front matter/);
});

test('wiki tools: write, read, list, search; unsafe paths are refused', async () => {
  const w = await ok('wiki_write', {
    path: 'architecture/payments',
    content: '# Payments\nStripe webhooks are queued.\n',
    expected_version: 0,
  });
  assert.equal(w.content[0].text, 'created: architecture/payments.md v1 — Payments');
  const again = await call('wiki_write', {
    path: 'architecture/payments.md',
    content: '# Payments\nchanged',
    expected_version: 0,
  });
  assert.equal(again.isError, true);
  assert.match(again.content[0].text, /CONFLICT/);

  const read = await ok('wiki_read', { path: 'architecture/payments.md' });
  assert.match(
    read.content[0].text,
    /^architecture\/payments\.md v1 \(\d{4}-\d\d-\d\d\)\n\n# Payments\nStripe webhooks are queued\.\n$/,
  );
  assert.equal((await ok('wiki_read', {})).content[0].text, 'architecture/payments.md v1 — Payments');
  const hits = await ok('wiki_search', { query: 'stripe webhook' });
  assert.match(hits.content[0].text, /^architecture\/payments\.md — Payments\n.*«Stripe» «webhooks»/);

  for (const path of ['../secrets.md', '/etc/passwd']) {
    const r = await call('wiki_write', { path, content: 'x' });
    assert.equal(r.isError, true, path);
    assert.match(r.content[0].text, /INVALID_INPUT/);
  }
  assert.deepEqual(
    (await engine.wiki.list()).map((p) => p.path),
    ['architecture/payments.md'],
  );
});
