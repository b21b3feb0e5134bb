import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseLinesFile } from '../test-helpers.js';
import { claudeCodeAdapter } from './index.js';

// The sample sessions the quickstart indexes (examples/home mirrors a user's $HOME).
const HOME = fileURLToPath(new URL('../../../examples/home', import.meta.url));
const PROJECT = join(HOME, '.claude', 'projects', '-home-dev-acme-shop');
const REDIS = 'b7e2c4a1-5d3f-4e8b-9a6c-2f1d0e9b8a7c';
const STRIPE = 'e3a91f5c-7b2d-4c6e-8f0a-9d1b3c5e7f20';

describe('claude-code example sessions', () => {
  const files = claudeCodeAdapter.locate({ home: HOME, env: {} }, (i) => assert.fail(i.message));

  it('are found by locate at the default location', () => {
    assert.deepEqual(files.map((f) => relative(PROJECT, f.path)).sort(), [
      `${REDIS}.jsonl`,
      `${REDIS}/subagents/agent-c41f9a27.jsonl`,
      `${STRIPE}.jsonl`,
    ]);
  });

  it('parse without issues into 15–60 steps with tool calls and outputs', () => {
    for (const f of files) {
      const r = parseLinesFile(claudeCodeAdapter, f.path);
      assert.deepEqual(r.issues, [], f.path);
      assert.equal(r.thread.project, '/home/dev/acme-shop');
      if (f.path.includes('/subagents/')) continue;
      assert.ok(r.steps.length >= 15 && r.steps.length <= 60, `${f.path}: ${r.steps.length} steps`);
      assert.ok(r.steps.some((s) => s.kind === 'tool_call') && r.steps.some((s) => s.kind === 'tool_result'));
    }
  });

  it('hold searchable decisions with their reasons', () => {
    const redis = parseLinesFile(claudeCodeAdapter, join(PROJECT, `${REDIS}.jsonl`));
    assert.match(redis.thread.title ?? '', /^We keep getting stale prices/);
    assert.ok(
      redis.steps.some((s) => /We decided to replace Redis with an in-process LRU because/.test(s.text)),
    );
    const stripe = parseLinesFile(claudeCodeAdapter, join(PROJECT, `${STRIPE}.jsonl`));
    assert.ok(stripe.steps.some((s) => s.target === '/home/dev/acme-shop/src/payments/webhook.ts'));
    assert.ok(stripe.steps.some((s) => /Root cause found\./.test(s.text) && /ECONNRESET/.test(s.text)));
    const sub = parseLinesFile(claudeCodeAdapter, join(PROJECT, REDIS, 'subagents', 'agent-c41f9a27.jsonl'));
    assert.equal(sub.thread.parentId, `claude-code:${REDIS}`);
  });
});
