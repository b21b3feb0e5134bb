/** A real MCP client talks to `tapedeck mcp` over stdio. */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from './support/cli.js';
import { claudeLine, claudePath, type TempHome, tempHome } from './support/home.js';

const S1 = '5e5e5e5e-1111-4222-8333-444444444444';
let h: TempHome;
let client: Client;
let stderr = '';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: any };
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as unknown as TextResult;

before(async () => {
  h = tempHome();
  h.write(
    claudePath(S1),
    [
      claudeLine(S1, 'user', 'Why do checkout requests fail the CORS preflight?'),
      claudeLine(
        S1,
        'assistant',
        'The API answers OPTIONS with 404; we decided to add the cors middleware before the router.',
      ),
    ].join('\n') + '\n',
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: h.env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  client = new Client({ name: 'tapedeck-test', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  h?.cleanup();
});

test('lists read-only tools with descriptions that say when to use them', async () => {
  const { tools } = await client.listTools();
  const recall = ['get_steps', 'index_status', 'list_conversations', 'search_conversations'];
  const mine = tools.filter((t) => recall.includes(t.name));
  assert.deepEqual(mine.map((t) => t.name).sort(), recall);
  for (const t of mine) {
    assert.equal(t.annotations?.readOnlyHint, true, t.name);
    assert.ok((t.description ?? '').length > 60, `${t.name} explains itself`);
  }
  for (const t of tools)
    assert.equal(typeof t.annotations?.readOnlyHint, 'boolean', `${t.name} is annotated`);
  const listing = JSON.stringify(mine);
  assert.ok(listing.length < 6000, `the recall tools stay small (${listing.length} chars)`);
});

test('search returns compact hits with provenance, indexing on demand', async () => {
  const r = await call('search_conversations', { query: 'what did we decide about the cors middleware' });
  assert.ok(!r.isError, r.content[0]?.text);
  const text = r.content[0].text;
  assert.match(text, new RegExp(`claude-code:${S1}#1`));
  assert.match(text, /«cors»/i);
  const hits = r.structuredContent.hits;
  assert.equal(hits[0].source.line, 2);
  assert.ok(hits[0].source.path.endsWith(`${S1}.jsonl`));
  // Roughly 4 characters a token: one hit stays well under 120 tokens.
  const perHit = text.split('\n[').map((x) => x.length);
  assert.ok(Math.max(...perHit) < 480, `hit sizes ${perHit}`);
});

test('get_steps shows the window; unknown ids are errors with a hint', async () => {
  const r = await call('get_steps', { thread: `claude-code:${S1}`, step: 1, window: 1 });
  assert.match(r.content[0].text, /#0 user\/prompt/);
  assert.match(r.content[0].text, /#1 assistant\/response/);
  const bad = await call('get_steps', { thread: 'claude-code:missing' });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /NOT_FOUND.*Hint/s);
  const invalid = await call('search_conversations', { query: '' });
  assert.equal(invalid.isError, true);
});

test('a line appended to a transcript is found by the next search', async () => {
  appendFileSync(
    `${h.home}/${claudePath(S1)}`,
    `${claudeLine(S1, 'user', 'Now rotate the stripe webhook signing secret')}\n`,
  );
  await new Promise((r) => setTimeout(r, 2100)); // the refresh is throttled to once per 2 s
  const r = await call('search_conversations', { query: 'rotate signing secret' });
  assert.match(r.content[0].text, new RegExp(`claude-code:${S1}#2`));
  const list = await call('list_conversations', {});
  assert.match(list.content[0].text, /3 steps/);
  const status = await call('index_status', {});
  assert.match(status.content[0].text, /claude-code: 1 threads, 3 steps/);
  assert.doesNotMatch(stderr, /Error/);
});
