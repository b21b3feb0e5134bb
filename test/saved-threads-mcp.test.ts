/** (The full tool set, mcpTools=full.) thread_save and thread_handoff through an MCP client (in-memory transport). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Engine } from '../src/app/engine.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { type TempHome, tempHome } from './support/home.js';

type TextResult = {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

describe('saved-thread MCP tools', () => {
  let h: TempHome;
  let engine: Engine;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as unknown as TextResult;

  before(async () => {
    h = tempHome();
    engine = h.engine();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildMcpServer({ engine, refreshMs: 0, tools: 'full' }).connect(serverSide);
    client = new Client({ name: 'tapedeck-test', version: '1.0.0' });
    await client.connect(clientSide);
  });
  after(async () => {
    await client?.close();
    engine?.close();
    h?.cleanup();
  });

  it('declare writes as non-destructive and say when to call them', async () => {
    const { tools } = await client.listTools();
    for (const name of ['thread_save', 'thread_handoff']) {
      const t = tools.find((x) => x.name === name);
      assert.ok(t, name);
      assert.equal(t.annotations?.readOnlyHint, false);
      assert.equal(t.annotations?.destructiveHint, false);
      assert.match(t.description ?? '', /Call it/);
    }
  });

  it('thread_save creates, then appends only new messages, and replays a key', async () => {
    const first = await call('thread_save', {
      thread_id: 'mcp-1',
      source: 'claude-code',
      project: '/home/dev/shop',
      messages: [
        { role: 'user', content: 'Why is the nightly export slow?', external_id: 'u1' },
        {
          role: 'assistant',
          content: 'We decided to stream rows instead of loading the table.',
          external_id: 'a1',
        },
      ],
    });
    assert.ok(!first.isError, first.content[0].text);
    assert.equal(first.content[0].text, 'created mcp-1: +2 messages, 2 total');
    const sync = {
      thread_id: 'mcp-1',
      idempotency_key: 'sync-2',
      expected_message_count: 2,
      messages: [
        {
          role: 'assistant',
          content: 'We decided to stream rows instead of loading the table.',
          external_id: 'a1',
        },
        { role: 'user', content: 'Ship it. TODO: add a progress log.', external_id: 'u2' },
      ],
    };
    const second = await call('thread_save', sync);
    assert.equal(second.content[0].text, 'saved mcp-1: +1 messages (1 already there), 3 total');
    assert.equal(second.structuredContent?.total_messages, 3);
    const replay = await call('thread_save', sync); // a retry after a lost answer
    assert.equal(replay.content[0].text, 'already saved (same idempotency_key): mcp-1, 3 messages');
    const stale = await call('thread_save', {
      thread_id: 'mcp-1',
      expected_message_count: 1,
      messages: [{ role: 'user', content: 'late' }],
    });
    assert.equal(stale.isError, true);
    assert.match(stale.content[0].text, /^CONFLICT: Thread "mcp-1" has 3 messages, not the expected 1/);
    const steps = await call('read', { ref: 'mcp-1' });
    assert.match(
      steps.content[0].text,
      /mcp-1 — Why is the nightly export slow\? \(claude-code, \/home\/dev\/shop, 3 steps\)/,
    );
    const hits = await call('recall', { query: 'stream rows nightly export', in: 'sessions' });
    assert.match(hits.content[0].text, /tapedeck:\/\/thread\/mcp-1#1 assistant: /);
  });

  it('thread_handoff returns the Markdown and saves it', async () => {
    const r = await call('thread_handoff', { thread: 'mcp-1' });
    assert.ok(!r.isError, r.content[0].text);
    const text = r.content[0].text;
    assert.match(text, /^# Handoff: Why is the nightly export slow\?/);
    assert.match(text, /## Decisions\n- We decided to stream rows instead of loading the table\. \(#1\)/);
    assert.match(text, /## Risks\n- TODO: add a progress log\. \(#2\)/);
    assert.match(text, /\(saved as handoff:mcp-1:1\)$/);
    assert.equal(engine.store.getThread('handoff:mcp-1:1')?.parentId, 'mcp-1');
    const missing = await call('thread_handoff', { thread: 'nope' });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, /^NOT_FOUND/);
  });
});
