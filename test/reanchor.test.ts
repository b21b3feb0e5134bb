/**
 * The re-anchor after a compaction, end to end: the recorded Claude Code session (it holds a real
 * `compact_boundary` and continuation summary) placed where Claude Code writes it, the SessionStart
 * hook run as the host runs it with `source: "compact"`, and `tapedeck reanchor` on the indexed
 * session.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { estimateTokens } from '../src/core/token-budget.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { tapedeck } from './support/cli.js';
import { claudePath, tempHome } from './support/home.js';
import { hookWorld, runHook, SESSIONS } from './support/hooks.js';

const ID = `claude-code:${SESSIONS['claude-code'].id}`;
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;

/** The reanchor block of an injected context. */
const block = (text: string) => /<tapedeck_reanchor[\s\S]*?<\/tapedeck_reanchor>/.exec(text)?.[0] ?? '';

describe('re-anchor after a Claude Code compaction', () => {
  const w = hookWorld();
  after(() => w.cleanup());

  /** The transcript as it stands when SessionStart fires after the compaction: up to its summary. */
  function placeAtCompaction(): string {
    const path = w.place('claude-code');
    const lines = readFileSync(path, 'utf8').split('\n');
    const summary = lines.findIndex(
      (l) => l.includes('"isCompactSummary":true') || l.includes('being continued'),
    );
    assert.ok(summary > 0, 'the fixture has a continuation summary');
    // A secret pasted before the compaction must not come back through the re-anchor.
    const kept = lines
      .slice(0, summary + 1)
      .map((l) =>
        l.replace("Don't reset the DB, staging shares it.", `Don't reset the DB (token ${TOKEN}).`),
      );
    writeFileSync(path, `${kept.join('\n')}\n`);
    return path;
  }

  it('SessionStart with source compact injects a re-anchor within budget naming the task, commands and files', async () => {
    placeAtCompaction();
    const payload = { ...w.payload('claude-code', 'SessionStart'), source: 'compact' };
    const r = await runHook('claude-code', 'SessionStart', payload, w.env);
    assert.equal(r.status, 0, r.stderr);
    const out = r.json();
    assert.equal(out.hookSpecificOutput?.hookEventName, 'SessionStart');
    const text = block(out.hookSpecificOutput?.additionalContext ?? '');
    assert.ok(text, `a re-anchor in ${r.stdout}`);
    assert.ok(estimateTokens(text) <= 600, `${estimateTokens(text)} tokens`);
    for (const needle of [
      `thread="${ID}"`,
      'compacted_at="24"',
      // the open task, in the user's words, and the latest ask
      'GET /api/products?page=0 returns a 500 on staging',
      "Don't reset the DB",
      '[>] Check admin order list',
      // last commands and how they ended
      '`npm test -- src/api/products.test.ts` → failed',
      '`npm run db:reset && npm test` → rejected',
      // files touched
      '`src/lib/pagination.ts` edited',
      '`src/api/products.test.ts` edited',
      `#N is the step tapedeck://thread/${ID}#N`,
      '`src/lib/pagination.ts` edited #11',
    ])
      assert.ok(text.includes(needle), `${needle} in\n${text}`);
    assert.ok(!text.includes(TOKEN), 'the pasted token is redacted');
    assert.match(text, /\[REDACTED:github-token\]/);
    // Nothing from after the compaction's summary leaks in (the commit ran later).
    assert.ok(!text.includes('git commit'));
  });

  it('a plain session start injects no re-anchor', async () => {
    placeAtCompaction();
    const r = await runHook('claude-code', 'SessionStart', w.payload('claude-code', 'SessionStart'), w.env);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!r.stdout.includes('tapedeck_reanchor'), r.stdout);
  });

  it('a missing transcript still gives a valid answer', async () => {
    const payload = {
      ...w.payload('claude-code', 'SessionStart'),
      source: 'compact',
      transcript_path: `${w.home}/nowhere.jsonl`,
    };
    const r = await runHook('claude-code', 'SessionStart', payload, w.env);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!r.stdout.includes('tapedeck_reanchor'));
    assert.doesNotThrow(() => r.json());
  });

  it('`tapedeck reanchor` gives the same from the index: the latest session of the directory, or a thread', () => {
    w.place('claude-code'); // the whole session, with the steps after the compaction
    const r = tapedeck(['reanchor', '--project', '/home/dev/acme-shop', '--json'], w.env);
    assert.equal(r.status, 0, r.stderr);
    const j = r.json();
    assert.equal(j.thread, ID);
    assert.equal(j.compacted_at, 24);
    assert.ok(j.tokens <= 600 && j.budget === 600);
    assert.match(j.task.text, /page=0 returns a 500/);
    assert.deepEqual(
      j.commands.map((c: { outcome: string }) => c.outcome),
      ['failed', 'rejected'],
    );
    assert.ok(
      j.files.some((f: { path: string; edits: number }) => f.path === 'src/lib/pagination.ts' && f.edits),
    );

    const small = tapedeck(['reanchor', ID, '--budget', '150', '--no-index'], w.env);
    assert.equal(small.status, 0, small.stderr);
    assert.ok(estimateTokens(small.stdout.trim()) <= 150);
    assert.match(small.stdout, /more left out: tapedeck reanchor/);

    const bad = tapedeck(['reanchor', ID, '--budget', '5', '--json', '--no-index'], w.env);
    assert.notEqual(bad.status, 0);
    assert.equal(bad.json().error.code, 'INVALID_INPUT');
    const missing = tapedeck(['reanchor', 'claude-code:nope', '--json', '--no-index'], w.env);
    assert.equal(missing.json().error.code, 'NOT_FOUND');
  });
});

describe('the reanchor MCP tool', () => {
  it('answers "what was dropped from my context?" for a thread, and for the latest session of a project', async () => {
    const h = tempHome();
    const fixture = join(import.meta.dirname, '..', 'src', 'sources', 'claude-code', 'fixtures');
    h.write(
      claudePath(SESSIONS['claude-code'].id),
      readFileSync(join(fixture, `${SESSIONS['claude-code'].id}.jsonl`), 'utf8'),
    );
    const engine = h.engine();
    engine.transcripts.index();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await buildMcpServer({ engine, refreshMs: 0 }).connect(a);
    const client = new Client({ name: 'tapedeck-test', version: '1.0.0' });
    await client.connect(b);
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the tool's answer, checked field by field
      const r: any = await client.callTool({
        name: 'reanchor',
        arguments: { thread: `tapedeck://thread/${ID}#3` },
      });
      assert.ok(!r.isError, r.content[0]?.text);
      assert.match(r.content[0].text, /^<tapedeck_reanchor thread="claude-code:4f1c2d3e/);
      assert.match(r.content[0].text, /`npm run db:reset && npm test` → rejected/);
      assert.equal(r.structuredContent.thread, ID);
      assert.ok(r.structuredContent.tokens <= 600);
      // biome-ignore lint/suspicious/noExplicitAny: as above
      const latest: any = await client.callTool({
        name: 'reanchor',
        arguments: { project: '/home/dev/acme-shop', budget: 200 },
      });
      assert.equal(latest.structuredContent.thread, ID);
      assert.ok(latest.structuredContent.tokens <= 200 && latest.structuredContent.omitted > 0);
      // biome-ignore lint/suspicious/noExplicitAny: as above
      const none: any = await client.callTool({ name: 'reanchor', arguments: { project: '/nowhere' } });
      assert.equal(none.isError, true);
      assert.match(none.content[0].text, /^NOT_FOUND: No indexed session in \/nowhere/);
    } finally {
      await client.close();
      engine.close();
      h.cleanup();
    }
  });
});
