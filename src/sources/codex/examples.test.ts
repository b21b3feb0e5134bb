import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseLinesFile } from '../test-helpers.js';
import { codexAdapter } from './index.js';

// The sample sessions the quickstart indexes (examples/home mirrors a user's $HOME).
const HOME = fileURLToPath(new URL('../../../examples/home', import.meta.url));
const SESSIONS = join(HOME, '.codex', 'sessions');
const JEST = '0199b3c2-5e7a-7d41-a8c3-6f2e1b9d4a57';
const CENTS = '0199b8e9-1c44-7a0e-b5d2-3e8f0a6c2d91';
const JEST_FILE = join(SESSIONS, '2025', '10', '06', `rollout-2025-10-06T10-04-12-${JEST}.jsonl`);
const CENTS_FILE = join(SESSIONS, '2025', '10', '07', `rollout-2025-10-07T09-31-05-${CENTS}.jsonl`);

describe('codex example sessions', () => {
  const files = codexAdapter.locate({ home: HOME, env: {} }, (i) => assert.fail(i.message));

  it('are found by locate at the default location', () => {
    assert.deepEqual(files.map((f) => [relative(SESSIONS, f.path), f.mode]).sort(), [
      [relative(SESSIONS, JEST_FILE), 'lines'],
      [relative(SESSIONS, CENTS_FILE), 'lines'],
    ]);
  });

  it('parse without issues into 15–60 steps with tool calls and outputs', () => {
    for (const f of files) {
      const r = parseLinesFile(codexAdapter, f.path);
      assert.deepEqual(r.issues, [], f.path);
      assert.equal(r.thread.project, '/home/dev/acme-shop');
      assert.ok(r.steps.length >= 15 && r.steps.length <= 60, `${f.path}: ${r.steps.length} steps`);
      assert.ok(r.steps.some((s) => s.kind === 'tool_call') && r.steps.some((s) => s.kind === 'tool_result'));
    }
  });

  it('hold searchable decisions with their reasons; the second is a fork of the first', () => {
    const jest = parseLinesFile(codexAdapter, JEST_FILE);
    assert.ok(
      jest.steps.some((s) =>
        /We moved the API tests from Jest to node:test .* because startup/s.test(s.text),
      ),
    );
    const cents = parseLinesFile(codexAdapter, CENTS_FILE);
    assert.equal(cents.thread.sessionId, CENTS);
    assert.equal(cents.thread.parentId, `codex:${JEST}`);
    assert.ok(
      cents.steps.some((s) => /We rejected decimal\.js/.test(s.text) && /integer cents/.test(s.text)),
    );
    assert.ok(
      cents.steps.some(
        (s) => s.target === 'src/orders/totals.ts, src/orders/totals.test.ts, test/factories.ts',
      ),
    );
  });
});
