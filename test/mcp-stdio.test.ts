/**
 * A real MCP client talks to `tapedeck mcp` over stdio (and to /mcp over HTTP): the lean surface
 * an agent can afford, compact search hits, reading one level deeper, and the index refresh.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { estimateTokens } from '../src/core/token-budget.js';
import { BIN } from './support/cli.js';
import { claudeLine, claudePath, type TempHome, tempHome } from './support/home.js';
import { serveHome } from './support/http.js';

const S1 = '5e5e5e5e-1111-4222-8333-444444444444';
const S2 = '5e5e5e5e-2222-4222-8333-444444444444';
/** The goal: at most 8 tools and 6,000 characters of tools/list (the eighth slot is reanchor's). */
const MAX_TOOLS = 8;
const MAX_LIST_CHARS = 6000;

let h: TempHome;
let client: Client;
let stderr = '';

// biome-ignore lint/suspicious/noExplicitAny: structured content differs per tool; each test reads its own fields
type TextResult = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: any };
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as unknown as TextResult;

async function stdioClient(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const c = new Client({ name: 'tapedeck-test', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

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
      claudeLine(
        S1,
        'assistant',
        `${'Long explanation of the browser preflight rules and the headers each one needs. '.repeat(8)}So the cors middleware must also answer Access-Control-Allow-Headers.`,
      ),
    ].join('\n') + '\n',
  );
  h.write(
    claudePath(S2),
    [
      claudeLine(S2, 'user', 'Add the cors middleware to the admin API too', '2026-11-22T09:00:00.000Z'),
      claudeLine(
        S2,
        'assistant',
        'Done: the admin API now uses the same cors middleware.',
        '2026-11-22T09:01:00.000Z',
      ),
    ].join('\n') + '\n',
  );
  client = await stdioClient(h.env);
});

after(async () => {
  await client?.close();
  h?.cleanup();
});

test('the lean surface: at most 8 tools in at most 6,000 characters, each with an output schema and hints', async () => {
  const listing = await client.listTools();
  const size = JSON.stringify(listing).length;
  assert.ok(listing.tools.length <= MAX_TOOLS, `${listing.tools.length} tools`);
  assert.ok(size <= MAX_LIST_CHARS, `tools/list is ${size} characters`);
  assert.deepEqual(listing.tools.map((t) => t.name).sort(), [
    'context',
    'fs',
    'read',
    'reanchor',
    'recall',
    'remember',
    'skills',
    'threads',
  ]);
  for (const t of listing.tools) {
    assert.equal(t.outputSchema?.type, 'object', `${t.name} declares what it returns`);
    assert.equal(typeof t.annotations?.readOnlyHint, 'boolean', t.name);
    assert.equal(typeof t.annotations?.destructiveHint, 'boolean', t.name);
    assert.match(t.description ?? '', /\b(call|before|when|after)\b/i, `${t.name} says when to call it`);
  }
  const hint = (n: string) => listing.tools.find((t) => t.name === n)!.annotations!;
  for (const n of ['recall', 'read', 'context']) assert.equal(hint(n).readOnlyHint, true, n);
  for (const n of ['remember', 'fs']) assert.equal(hint(n).destructiveHint, true, n);
});

test('the same server over HTTP at /mcp lists the same tools; TAPEDECK_MCP_TOOLS=full adds the per-verb ones', async () => {
  const s = await serveHome();
  const key = (await s.engine.keys.create({ name: 'mcp', scope: 'write' })).key;
  const http = new Client({ name: 'tapedeck-test', version: '1.0.0' });
  await http.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  try {
    assert.deepEqual(await http.listTools(), await client.listTools());
  } finally {
    await http.close();
    await s.stop();
  }
  const full = await stdioClient({ ...h.env, TAPEDECK_MCP_TOOLS: 'full' });
  try {
    const names = (await full.listTools()).tools.map((t) => t.name);
    for (const n of ['recall', 'read', 'memory_add', 'rules_add', 'wiki_write', 'skills_manage'])
      assert.ok(names.includes(n), n);
  } finally {
    await full.close();
  }
});

test('recall: hits grouped by thread (title and date once), each a short line with its link', async () => {
  const r = await call('recall', { query: 'what did we decide about the cors middleware', in: 'sessions' });
  assert.ok(!r.isError, r.content[0]?.text);
  const text = r.content[0].text;
  const lines = text.split('\n');
  const titles = lines.filter((l) => l.startsWith('Why do checkout requests fail the CORS preflight?'));
  assert.equal(titles.length, 1, text);
  assert.match(titles[0], /\(2026-11-20, acme-shop\)$/);
  const hits = lines.filter((l) => l.startsWith('- '));
  assert.ok(hits.length >= 3, text);
  for (const l of hits) {
    assert.match(
      l,
      /^- tapedeck:\/\/thread\/claude-code:[0-9a-f-]+#\d+ (user|assistant)( \d{4}-\d\d-\d\d)?: /,
    );
    assert.ok(estimateTokens(l) <= 60, `${estimateTokens(l)} tokens: ${l}`);
  }
  // With its share of the thread's head line, a hit still costs at most 60 tokens.
  assert.ok(
    estimateTokens(text) <= 60 * hits.length,
    `${estimateTokens(text)} tokens for ${hits.length} hits`,
  );
  assert.ok(hits.some((l) => l.includes(`claude-code:${S1}#1`) && /«cors»/i.test(l)));
  // The long step is cut, keeping its match in view.
  assert.ok(
    hits.some((l) => l.includes(`${S1}#2`) && l.includes('…') && l.includes('«')),
    text,
  );
  const s = r.structuredContent.hits.find((x: { link: string }) => x.link.endsWith(`${S1}#1`));
  assert.equal(s.line, 2);
  assert.ok(s.path.endsWith(`${S1}.jsonl`));
});

test('read opens a hit one level deeper; unknown ids and bad input are errors with a hint', async () => {
  const r = await call('read', { ref: `tapedeck://thread/claude-code:${S1}#1`, window: 1 });
  assert.ok(!r.isError, r.content[0].text);
  assert.match(r.content[0].text, /#0 user\/prompt/);
  assert.match(r.content[0].text, /#1 assistant\/response/);
  assert.equal(r.structuredContent.link, `tapedeck://thread/claude-code:${S1}`);
  const bad = await call('read', { ref: 'claude-code:missing' });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /NOT_FOUND.*Hint: recall/s);
  const invalid = await call('recall', { query: 'x', limit: 500 });
  assert.equal(invalid.isError, true);
});

test('a line appended to a transcript is found by the next recall; no query lists recent sessions', async () => {
  appendFileSync(
    `${h.home}/${claudePath(S1)}`,
    `${claudeLine(S1, 'user', 'Now rotate the stripe webhook signing secret')}\n`,
  );
  await new Promise((r) => setTimeout(r, 2100)); // the refresh is throttled to once per 2 s
  const r = await call('recall', { query: 'rotate signing secret' });
  assert.match(r.content[0].text, new RegExp(`claude-code:${S1}#3`));
  const list = await call('recall', {});
  assert.match(list.content[0].text, new RegExp(`tapedeck://thread/claude-code:${S1} .* 4 steps`));
  const filtered = await call('recall', { project: '/nowhere' });
  assert.equal(filtered.content[0].text, 'No sessions match these filters.');
  assert.doesNotMatch(stderr, /Error/);
});
