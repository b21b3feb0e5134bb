/**
 * `tapedeck wm …` and `tapedeck context` through the built binary, and the working_memory,
 * working_memory_refresh and context_bundle MCP tools through a real MCP client.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Engine } from '../src/app/engine.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { tapedeck } from './support/cli.js';
import { tempHome } from './support/home.js';
import { SHOP, seedSessions } from './support/wm-world.js';

function cli() {
  const h = tempHome();
  after(h.cleanup);
  const run = (...args: string[]) => tapedeck(args, h.env);
  const json = (...args: string[]) => {
    const r = run(...args, '--json');
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r.json();
  };
  return { h, run, json };
}

test('tapedeck wm: read, edit a section, refresh keeps it, --reset drops it; JSON shape', () => {
  const { h, run, json } = cli();
  const e = h.engine();
  seedSessions(h, e);
  e.close();
  json('memory', 'add', 'Migrate billing to Stripe', '--type', 'plan');

  const wm = json('wm');
  assert.deepEqual(Object.keys(wm).sort(), [
    'date',
    'generated_at',
    'markdown',
    'regenerated',
    'sections',
    'space',
    'stale',
  ]);
  assert.equal(wm.space, 'default');
  assert.equal(wm.stale, false);
  assert.deepEqual(Object.keys(wm.sections[0]).sort(), [
    'edited',
    'edited_at',
    'generated_at',
    'heading',
    'items',
    'markdown',
    'name',
  ]);
  assert.match(wm.markdown, /## Open loops\n- Plan: Migrate billing to Stripe <tapedeck:\/\/memory\//);
  const text = run('wm', 'read');
  assert.equal(text.status, 0);
  assert.equal(text.stdout, wm.markdown, 'the human form is the Markdown itself');

  const edited = json('wm', 'edit', '--section', 'open-loops', '--text', '- Call Ana back');
  assert.deepEqual(edited.changed, ['open-loops']);
  json('memory', 'add', 'Switch the shop to pnpm', '--type', 'decision');
  const after1 = json('wm', 'refresh');
  assert.match(after1.markdown, /Switch the shop to pnpm/);
  assert.match(after1.markdown, /## Open loops \(edited\)\n- Call Ana back\n/);
  const reset = json('wm', 'refresh', '--reset', 'open-loops');
  assert.deepEqual(reset.reset, ['open-loops']);
  assert.match(reset.markdown, /## Open loops\n- Plan: Migrate billing/);

  // A whole briefing on standard input: only the changed section is taken.
  const doc = reset.markdown.replace('## Focus\n', '## Focus\n- Only billing this week\n');
  const piped = tapedeck(['wm', 'edit', '--json'], h.env, { input: doc });
  assert.equal(piped.status, 0, piped.stderr);
  assert.deepEqual(piped.json().changed, ['focus']);
  const human = tapedeck(['wm', 'edit', '--file', '-'], h.env, { input: doc });
  assert.equal(human.stdout.trim(), 'No section changed.');

  // Another day, and bad input (exit 2 with a message naming the problem).
  assert.equal(json('wm', 'read', '--date', '2020-01-01').date, '2020-01-01');
  const bad = run('wm', 'edit', '--section', 'todo', '--text', 'x');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /Unknown working-memory section "todo"/);
  const badJson = run('wm', 'read', '--date', '2026-13-01', '--json');
  assert.equal(badJson.status, 2);
  assert.equal(badJson.json().error.code, 'INVALID_INPUT');
  const nothing = tapedeck(['wm', 'edit', '--section', 'focus'], h.env, { input: '' });
  assert.equal(nothing.status, 2);
  assert.match(nothing.stderr, /empty/);
});

test('tapedeck context: Markdown by default, the JSON contract, the budget, bad input', () => {
  const { h, run, json } = cli();
  const e = h.engine();
  seedSessions(h, e);
  e.close();
  json('rules', 'add', 'Use pnpm, never npm.');
  json('rules', 'add', 'Long rule:', ...Array.from({ length: 400 }, (_, i) => `word${i}`));
  json('memory', 'add', 'The staging DB is db-stage-2', '--project', SHOP);

  const b = json('context', '--agent', 'claude-code', '--project', SHOP);
  for (const k of ['markdown', 'tokens', 'budget', 'items', 'omitted']) assert.ok(k in b, k);
  assert.equal(b.budget, 1500);
  assert.ok(b.tokens <= 1500);
  assert.deepEqual(Object.keys(b.items[0]).sort(), ['id', 'kind', 'link', 'reason', 'title', 'tokens']);
  assert.match(b.markdown, /Use pnpm, never npm\./);
  assert.match(b.markdown, /The staging DB is db-stage-2 <tapedeck:\/\/memory\//);

  const small = json('context', '--project', SHOP, '--budget', '150');
  assert.ok(small.tokens <= 150);
  const long = small.omitted.find((o: { kind: string; title: string }) => o.kind === 'rule');
  assert.match(long.title, /^Long rule:/);
  assert.match(long.reason, /not cut/);
  assert.doesNotMatch(small.markdown, /word1\b/);
  assert.match(small.markdown, /_Left out for the 150-token budget: 1 rule/);

  const md = run('context', '--project', SHOP, '--budget', '150');
  assert.equal(md.status, 0);
  assert.equal(md.stdout, small.markdown);

  for (const args of [
    ['--budget', '99'],
    ['--budget', '100001'],
    ['--budget', 'many'],
    ['--agent', 'gpt'],
  ]) {
    const r = run('context', ...args, '--json');
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.json().error.code, 'INVALID_INPUT');
  }
});

// biome-ignore lint/suspicious/noExplicitAny: structured results differ per tool
type Result = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: any };

let mh: ReturnType<typeof tempHome>;
let engine: Engine;
let client: Client;

before(async () => {
  mh = tempHome();
  engine = mh.engine();
  seedSessions(mh, engine);
  await engine.rules.add({ body: 'Use pnpm, never npm.' });
  engine.memories.add({ content: 'Adopt Vitest in the shop', type: 'decision', project: SHOP });
  const server = buildMcpServer({ engine, refreshMs: 0, tools: 'full' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'tapedeck-test', version: '1.0.0' });
  await client.connect(b);
});

after(async () => {
  await client?.close();
  engine?.close();
  mh?.cleanup();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as unknown as Result;

test('MCP: the tools are annotated read-only / write, with short descriptions', async () => {
  const { tools } = await client.listTools();
  const by = new Map(tools.map((t) => [t.name, t]));
  for (const n of ['working_memory', 'context_bundle']) {
    assert.equal(by.get(n)?.annotations?.readOnlyHint, true, n);
    assert.equal(by.get(n)?.annotations?.destructiveHint, false, n);
  }
  assert.equal(by.get('working_memory_refresh')?.annotations?.readOnlyHint, false);
  assert.equal(by.get('working_memory_refresh')?.annotations?.destructiveHint, false);
  for (const n of ['working_memory', 'working_memory_refresh', 'context_bundle'])
    assert.ok((by.get(n)?.description ?? '').length < 300, n);
});

test('MCP: working_memory and working_memory_refresh return the briefing; an edit survives refresh', async () => {
  const r = await call('working_memory', {});
  assert.ok(!r.isError, r.content[0].text);
  assert.match(r.content[0].text, /^# Working memory · \d{4}-\d{2}-\d{2} · space default\n\n## Focus\n/);
  assert.match(r.content[0].text, /Adopt Vitest in the shop/);
  await engine.workingMemory.edit({ section: 'focus', text: '- The shop, all week' });
  const refreshed = await call('working_memory_refresh', {});
  assert.match(refreshed.content[0].text, /## Focus \(edited\)\n- The shop, all week/);
  const bad = await call('working_memory', { date: 'soon' });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /^INVALID_INPUT: Invalid date "soon"/);
});

test('MCP: context_bundle stays within the budget and reports what it left out', async () => {
  const r = await call('context_bundle', { agent: 'claude-code', project: SHOP, budget: 120 });
  assert.ok(!r.isError, r.content[0].text);
  assert.match(r.content[0].text, /^# Session context · claude-code/);
  assert.match(r.content[0].text, /Use pnpm, never npm\./);
  assert.ok(r.structuredContent.tokens <= 120);
  assert.equal(r.structuredContent.budget, 120);
  assert.ok(r.structuredContent.omitted.length > 0);
  assert.match(r.content[0].text, /_Left out for the 120-token budget/);
  const bad = await call('context_bundle', { budget: 50 });
  assert.equal(bad.isError, true);
});
