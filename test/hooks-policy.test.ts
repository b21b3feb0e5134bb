/**
 * Antigravity's PreToolUse answers for Tapedeck's tools: the policy table agrees with the MCP
 * server's own annotations (so a new or changed tool cannot slip through as "read"), and the hook
 * allows reads, asks for destructive tools, and allows writes only when the user's latest
 * message asked to remember or save.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { TOOL_CLASSES } from '../src/interfaces/hooks/tool-policy.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { tempHome } from './support/home.js';
import { hookWorld, runHook, SESSIONS } from './support/hooks.js';

describe('PreToolUse policy', () => {
  it('classifies every MCP tool as its annotations say', async () => {
    const h = tempHome();
    const engine = h.engine();
    after(() => {
      engine.close();
      h.cleanup();
    });
    const server = buildMcpServer({ engine, refreshMs: 0, tools: 'full' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'policy-test', version: '1' });
    await Promise.all([server.connect(a), client.connect(b)]);
    const { tools } = await client.listTools();
    const expected = Object.fromEntries(
      tools.map((t) => [
        t.name,
        t.annotations?.readOnlyHint ? 'read' : t.annotations?.destructiveHint ? 'destructive' : 'write',
      ]),
    );
    // A tool with actions is annotated with its most dangerous one.
    const rank = ['read', 'write', 'destructive'];
    const table = Object.fromEntries(
      Object.entries(TOOL_CLASSES).map(([name, c]) => [
        name,
        typeof c === 'string' ? c : rank[Math.max(...Object.values(c).map((x) => rank.indexOf(x)))],
      ]),
    );
    assert.deepEqual(table, expected);
    // A tool classed per action classes every action it offers.
    for (const t of tools) {
      const c = TOOL_CLASSES[t.name];
      if (typeof c === 'string') continue;
      const actions = (t.inputSchema.properties?.action as { enum?: string[] } | undefined)?.enum ?? [];
      assert.deepEqual(Object.keys(c).filter(Boolean).sort(), [...actions].sort(), t.name);
    }
    await client.close();
  });

  const w = hookWorld({ TAPEDECK_HOOK_NO_WORKER: '1' });
  after(() => w.cleanup());
  const transcript = join(
    w.home,
    SESSIONS.antigravity.to.replace('transcript_full.jsonl', 'transcript.jsonl'),
  );
  const said = (text: string) => {
    mkdirSync(dirname(transcript), { recursive: true });
    const step = (i: number, source: string, type: string, content: string) =>
      JSON.stringify({
        step_index: i,
        source,
        type,
        status: 'DONE',
        created_at: '2026-03-09T09:14:02Z',
        content,
      });
    writeFileSync(
      transcript,
      `${[
        step(
          0,
          'USER_EXPLICIT',
          'USER_INPUT',
          '<USER_REQUEST>\nMake POST /api/orders idempotent.\n</USER_REQUEST>',
        ),
        step(1, 'MODEL', 'PLANNER_RESPONSE', 'I will add an Idempotency-Key header.'),
        step(
          2,
          'USER_EXPLICIT',
          'USER_INPUT',
          `<USER_REQUEST>\n${text}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: 2026-03-09T10:20:00+01:00.\n</ADDITIONAL_METADATA>`,
        ),
        step(3, 'MODEL', 'PLANNER_RESPONSE', 'On it.'),
      ].join('\n')}\n`,
    );
  };
  const decide = async (tool: string, action?: string) => {
    const p = w.payload('antigravity', 'PreToolUse');
    (p.toolCall as { name: string }).name = tool;
    // Antigravity JSON-encodes each argument's value.
    if (action) (p.toolCall as { args: Record<string, string> }).args = { action: JSON.stringify(action) };
    const r = await runHook('antigravity', 'PreToolUse', p, w.env);
    assert.equal(r.status, 0, r.stderr);
    return r.json().decision as string;
  };

  it('allows reads, asks before destructive tools, asks before writes nobody asked for', async () => {
    said('Now make the refund endpoint idempotent too.');
    assert.equal(await decide('mcp_tapedeck_memory_search'), 'allow');
    assert.equal(await decide('mcp_tapedeck_recall'), 'allow');
    assert.equal(await decide('mcp_tapedeck_skills', 'find'), 'allow');
    assert.equal(await decide('mcp_tapedeck_fs', 'cat'), 'allow');
    assert.equal(await decide('mcp_tapedeck_memory_add'), 'ask');
    assert.equal(await decide('mcp_tapedeck_remember'), 'ask');
    assert.equal(await decide('mcp_tapedeck_skills', 'propose'), 'ask');
    assert.equal(await decide('mcp_tapedeck_memory_forget'), 'ask');
    assert.equal(await decide('mcp_tapedeck_skills', 'delete_everything'), 'ask');
    assert.equal(await decide('mcp_tapedeck_some_future_tool'), 'ask');
  });

  it('allows writes when the user asked to remember or save, never destructive ones', async () => {
    said('Great. Remember that order creation is idempotent by Idempotency-Key.');
    assert.equal(await decide('mcp_tapedeck_memory_add'), 'allow');
    assert.equal(await decide('mcp_tapedeck_remember', 'add'), 'allow');
    assert.equal(await decide('mcp_tapedeck_remember', 'forget'), 'ask');
    assert.equal(await decide('mcp_tapedeck_fs', 'rm'), 'ask');
    assert.equal(await decide('mcp_tapedeck_rules_remove'), 'ask');
  });
});
