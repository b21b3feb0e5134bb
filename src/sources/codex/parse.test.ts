import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Step } from '../../core/types.js';
import {
  createCollector,
  fileLines,
  parseDocumentFile,
  parseLinesFile,
  parseLinesFileResumed,
} from '../test-helpers.js';
import { codexAdapter } from './index.js';

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures');
const U1 = '0199a8f2-3c1d-7b42-9e5f-2a6c8d4e1f37';
const U2 = '0199ad40-77e2-7c19-8a3b-5d1e9f2c6a80';
const MAIN = join(FIXTURES, `rollout-2025-10-02T14-21-07-${U1}.jsonl`);
const FORK = join(FIXTURES, `rollout-2025-10-03T09-12-44-${U2}.jsonl`);
const BARE = join(FIXTURES, 'rollout-2025-07-21T08-15-02-3a7e9c1d-2b4f-4e6a-8c0d-1f2e3a4b5c6d.jsonl');
const DOC = join(FIXTURES, 'rollout-2025-04-18-5d3f1a2b-8c4e-4f6a-9b7d-0e1c2a3b4c5d.json');

const shape = (steps: Step[]) => steps.map((s) => [s.source.line, s.role, s.kind, s.tool, s.target]);
const byLine = (steps: Step[], line: number) => steps.filter((s) => s.source.line === line);
const PROMPT =
  'The cart API accepts quantity=0 and negative quantities. Add validation to POST /api/cart/items and a test for it.';

describe('codex parser: main rollout fixture', () => {
  const r = parseLinesFile(codexAdapter, MAIN);

  it('takes the thread from session_meta and the first real prompt', () => {
    assert.deepEqual(r.thread, {
      sessionId: U1,
      project: '/home/dev/acme-shop',
      title: PROMPT,
      startedAt: '2025-10-02T14:21:07.417Z',
      updatedAt: '2025-10-02T14:22:55.228Z',
    });
  });

  it('produces exactly the expected steps, numbered 0..n-1', () => {
    const test = 'npm test -- src/api/cart.validation.test.ts';
    const commit = "git commit -am 'Validate cart item quantity'";
    assert.deepEqual(shape(r.steps), [
      [6, 'user', 'prompt', undefined, undefined],
      [11, 'assistant', 'reasoning', undefined, undefined],
      [13, 'assistant', 'tool_call', 'shell', 'rg -n "cart/items" src'],
      [14, 'tool', 'tool_result', 'shell', 'rg -n "cart/items" src'],
      [15, 'assistant', 'reasoning', undefined, undefined],
      [18, 'assistant', 'tool_call', 'apply_patch', 'src/api/cart.ts, src/api/cart.validation.test.ts'],
      [19, 'tool', 'tool_result', 'apply_patch', 'src/api/cart.ts, src/api/cart.validation.test.ts'],
      [20, 'assistant', 'tool_call', 'shell', test],
      [21, 'tool', 'tool_result', 'shell', test],
      [22, 'assistant', 'tool_call', 'local_shell', 'npx tsc --noEmit -p tsconfig.json'],
      [23, 'tool', 'tool_result', 'local_shell', 'npx tsc --noEmit -p tsconfig.json'],
      [24, 'assistant', 'tool_call', 'update_plan', undefined],
      [25, 'tool', 'tool_result', 'update_plan', undefined],
      [26, 'assistant', 'tool_call', 'shell_command', test],
      [27, 'tool', 'tool_result', 'shell_command', test],
      [28, 'assistant', 'response', undefined, undefined],
      [33, 'user', 'prompt', undefined, undefined],
      [37, 'assistant', 'tool_call', 'web_search', 'zod coerce number from express json body'],
      [38, 'assistant', 'response', undefined, undefined],
      [39, 'user', 'prompt', undefined, undefined],
      [43, 'system', 'summary', undefined, undefined],
      [50, 'assistant', 'tool_call', 'shell', commit],
      [51, 'tool', 'tool_result', 'shell', commit],
    ]);
    assert.deepEqual(
      r.steps.map((s) => s.step),
      r.steps.map((_, i) => i),
    );
  });

  it('drops developer messages and injected user context (AGENTS.md, environment, shell echo, abort note)', () => {
    for (const line of [2, 3, 4, 5, 32, 42]) assert.deepEqual(byLine(r.steps, line), [], `line ${line}`);
    assert.ok(
      !r.steps.some((s) =>
        /AGENTS\.md|environment_context|permissions instructions|turn_aborted/.test(s.text),
      ),
    );
  });

  it('keeps the prompt once although it is written as a response_item and as an event', () => {
    assert.equal(r.steps.filter((s) => s.text === PROMPT).length, 1);
    assert.deepEqual(byLine(r.steps, 7), []);
  });

  it('keeps a prompt typed twice ("yes") twice, each deduped against its own event copy', () => {
    assert.deepEqual(
      r.steps.filter((s) => s.kind === 'prompt').map((s) => [s.source.line, s.text]),
      [
        [6, PROMPT],
        [33, 'yes'],
        [39, 'yes'],
      ],
    );
  });

  it('dedupes reasoning in either order and joins a multi-part summary', () => {
    assert.equal(
      byLine(r.steps, 11)[0]?.text,
      '**Locating the cart route**\n\nI need to find where POST /api/cart/items is handled.',
    );
    assert.deepEqual(byLine(r.steps, 12), []);
    assert.equal(
      byLine(r.steps, 15)[0]?.text,
      '**Choosing the check**\n\naddItem trusts req.body.quantity as-is.\n\n**Plan**\n\nValidate with the zod schema the product routes already use.',
    );
    assert.deepEqual([...byLine(r.steps, 16), ...byLine(r.steps, 17)], []);
  });

  it('keeps agent_message when it is the only copy and drops the response_item twin otherwise', () => {
    assert.match(byLine(r.steps, 28)[0]!.text, /^POST \/api\/cart\/items now validates the body with zod/);
    assert.deepEqual(byLine(r.steps, 29), []);
    assert.equal(
      byLine(r.steps, 38)[0]?.text,
      'Done — PATCH /api/cart/items/:id now uses the same AddItem.shape.quantity rule. Commit it?',
    );
  });

  it('reads tool output: JSON {output, metadata.exit_code}, plain text, "Exit code: N"', () => {
    assert.equal(
      byLine(r.steps, 14)[0]?.text,
      'src/api/cart.ts:18:router.post("/cart/items", addItem);\nsrc/api/cart.ts:31:router.patch("/cart/items/:id", updateItem);',
    );
    assert.match(byLine(r.steps, 21)[0]!.text, /^\[error\] ✖ rejects quantity 0/);
    assert.equal(
      byLine(r.steps, 23)[0]?.text,
      "[error] src/api/cart.ts(24,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    assert.equal(byLine(r.steps, 25)[0]?.text, 'Plan updated');
    assert.match(byLine(r.steps, 27)[0]!.text, /^Exit code: 0\nWall time/);
    assert.equal(
      byLine(r.steps, 19)[0]?.text,
      'Success. Updated the following files:\nA src/api/cart.validation.test.ts\nM src/api/cart.ts',
    );
  });

  it('renders a call without a target as the tool plus compact args', () => {
    const plan = byLine(r.steps, 24)[0]!;
    assert.ok(plan.text.startsWith('update_plan {"explanation":"Validation is in;'), plan.text);
    assert.ok(plan.text.length <= 200);
    assert.equal(byLine(r.steps, 13)[0]?.text, 'shell rg -n "cart/items" src');
  });

  it('turns a compacted record into a system summary', () => {
    assert.match(byLine(r.steps, 43)[0]!.text, /^Added zod validation for quantity \(integer 1–99\)/);
  });

  it('survives invalid UTF-8 inside a string', () => {
    assert.ok(byLine(r.steps, 51)[0]!.text.includes('\uFFFD'));
  });

  it('reports unknown types once, invalid JSON, junk, wrong shapes and the half-written last line', () => {
    assert.deepEqual(
      r.issues.map((i) => [i.line, i.message.replace(/ \(.*$/s, '')]),
      [
        [45, 'unknown response_item type "x_tool_search_call"'],
        [47, 'unknown line type "x_rollout_marker"'],
        [48, 'invalid JSON'],
        [49, 'invalid JSON'],
        [52, 'response_item payload is string, expected an object'],
        [53, 'expected a JSON object, got an array'],
        [54, 'invalid JSON'],
      ],
    );
    assert.match(r.issues.at(-1)!.message, /Unterminated string/);
    assert.ok(r.issues.every((i) => i.path === MAIN));
  });
});

describe('codex parser: fork', () => {
  const r = parseLinesFile(codexAdapter, FORK);

  it("is named by the first session_meta; the parent's replayed session_meta changes nothing", () => {
    assert.equal(r.thread.sessionId, U2);
    assert.equal(r.thread.parentId, `codex:${U1}`);
    assert.equal(r.thread.project, '/home/dev/acme-shop');
    assert.equal(r.thread.startedAt, '2025-10-03T09:12:44.885Z');
  });

  it('keeps the replayed history (the fork starts with it) followed by the new turn', () => {
    assert.deepEqual(shape(r.steps), [
      [5, 'user', 'prompt', undefined, undefined],
      [7, 'assistant', 'response', undefined, undefined],
      [10, 'user', 'prompt', undefined, undefined],
      [12, 'assistant', 'reasoning', undefined, undefined],
      [14, 'assistant', 'tool_call', 'shell', 'sed -n 1,40p src/api/cart-summary.ts'],
      [15, 'tool', 'tool_result', 'shell', 'sed -n 1,40p src/api/cart-summary.ts'],
      [16, 'assistant', 'response', undefined, undefined],
    ]);
    assert.equal(r.thread.title, PROMPT);
    assert.deepEqual(r.issues, []);
  });
});

describe('codex parser: older layouts', () => {
  it('reads the first Rust rollouts (bare header, bare items, state markers)', () => {
    const r = parseLinesFile(codexAdapter, BARE);
    assert.deepEqual(r.thread, {
      sessionId: '3a7e9c1d-2b4f-4e6a-8c0d-1f2e3a4b5c6d',
      startedAt: '2025-07-21T08:15:02.114Z',
      updatedAt: '2025-07-21T08:15:02.114Z',
      project: '/home/dev/acme-shop',
      title: 'Which migration added the orders.status column?',
    });
    assert.deepEqual(shape(r.steps), [
      [4, 'user', 'prompt', undefined, undefined],
      [5, 'assistant', 'tool_call', 'shell', 'rg -l status migrations/'],
      [6, 'tool', 'tool_result', 'shell', 'rg -l status migrations/'],
      [8, 'assistant', 'response', undefined, undefined],
    ]);
    assert.ok(r.steps.every((s) => s.timestamp === '2025-07-21T08:15:02.114Z'));
    assert.deepEqual(r.issues, []);
  });

  it('parses a legacy .json document with item line numbers and a patch run through shell', () => {
    const r = parseDocumentFile(codexAdapter, DOC);
    assert.deepEqual(r.thread, {
      sessionId: '5d3f1a2b-8c4e-4f6a-9b7d-0e1c2a3b4c5d',
      startedAt: '2025-04-18T16:02:11.123Z',
      updatedAt: '2025-04-18T16:02:11.123Z',
      title: 'The checkout page shows NaN for the shipping fee when the cart is empty. Fix it.',
    });
    assert.deepEqual(shape(r.steps), [
      [8, 'user', 'prompt', undefined, undefined],
      [19, 'assistant', 'reasoning', undefined, undefined],
      [29, 'assistant', 'tool_call', 'shell', 'web/src/checkout/ShippingFee.tsx'],
      [37, 'tool', 'tool_result', 'shell', 'web/src/checkout/ShippingFee.tsx'],
      [43, 'assistant', 'response', undefined, undefined],
    ]);
    assert.deepEqual(r.issues, [{ path: DOC, line: 42, message: 'expected an item object, got string' }]);
  });

  it('cites line 1 for a minified document and reports a broken one', () => {
    const doc = JSON.stringify({
      session: { id: 's1', timestamp: '2025-04-01T10:00:00Z' },
      items: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
    });
    const c = createCollector();
    codexAdapter.parseDocument('/x/rollout-a.json', doc, c.sink);
    assert.deepEqual(shape(c.result().steps), [[1, 'user', 'prompt', undefined, undefined]]);
    const bad = createCollector();
    codexAdapter.parseDocument('/x/rollout-b.json', '{"session": {', bad.sink);
    codexAdapter.parseDocument('/x/rollout-c.json', '{"session": {}}', bad.sink);
    assert.deepEqual(
      bad.result().issues.map((i) => i.message.replace(/ \(.*$/, '')),
      ['invalid JSON', 'expected a JSON object with an "items" array'],
    );
  });
});

describe('codex parser: resuming', () => {
  for (const file of [MAIN, FORK, BARE]) {
    it(`gives the same result for every split point: ${file.slice(FIXTURES.length + 1)}`, () => {
      const whole = parseLinesFile(codexAdapter, file);
      const n = fileLines(file).length;
      for (let k = 0; k <= n; k++) {
        assert.deepEqual(parseLinesFileResumed(codexAdapter, file, k), whole, `split after line ${k}`);
      }
    });
  }

  it('keeps the saved state small at every point', () => {
    const c = createCollector();
    const p = codexAdapter.createLineParser(MAIN);
    let max = 0;
    fileLines(MAIN).forEach((l, i) => {
      p.line(l, i + 1, c.sink);
      max = Math.max(max, JSON.stringify(p.state()).length);
    });
    assert.ok(max < 1536, `state grew to ${max} bytes`);
  });
});

/** Feed literal records through a fresh parser. */
function feed(records: unknown[]) {
  const c = createCollector();
  const p = codexAdapter.createLineParser('/h/.codex/sessions/2025/10/02/rollout-x.jsonl');
  records.forEach((r, i) => {
    p.line(typeof r === 'string' ? r : JSON.stringify(r), i + 1, c.sink);
  });
  return c.result();
}
const line = (type: string, payload: unknown, timestamp = '2025-10-02T10:00:00.000Z') => ({
  timestamp,
  type,
  payload,
});
const userItem = (text: string) =>
  line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const userEvent = (text: string) => line('event_msg', { type: 'user_message', message: text, images: [] });
const asstItem = (text: string) =>
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const asstEvent = (text: string) => line('event_msg', { type: 'agent_message', message: text });

describe('codex parser: edge cases', () => {
  it('dedupes a prompt whose event copy comes first', () => {
    const r = feed([userEvent('Run the linter'), userItem('Run the linter'), asstItem('Done.')]);
    assert.deepEqual(
      r.steps.map((s) => [s.kind, s.text, s.source.line]),
      [
        ['prompt', 'Run the linter', 1],
        ['response', 'Done.', 3],
      ],
    );
  });

  it('keeps the same answer in two turns twice', () => {
    const r = feed([
      userItem('status?'),
      asstEvent('All green.'),
      asstItem('All green.'),
      userItem('and now?'),
      asstItem('All green.'),
      asstEvent('All green.'),
    ]);
    assert.deepEqual(
      r.steps.map((s) => s.text),
      ['status?', 'All green.', 'and now?', 'All green.'],
    );
  });

  it('falls back to turn_context cwd and to <environment_context> cwd for the project', () => {
    assert.equal(
      feed([line('turn_context', { cwd: '/srv/shop', model: 'gpt-5-codex' })]).thread.project,
      '/srv/shop',
    );
    const r = feed([userItem('<environment_context>\n  <cwd>/srv/shop2</cwd>\n</environment_context>')]);
    assert.equal(r.thread.project, '/srv/shop2');
    assert.deepEqual(r.steps, []);
  });

  it('falls back to a shell call’s absolute workdir when no record names a cwd (legacy rollouts)', () => {
    const call = (workdir: string) =>
      line('response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'npm test'], workdir }),
        call_id: 'c1',
      });
    assert.equal(feed([call('relative/dir')]).thread.project, undefined);
    assert.equal(feed([call('/srv/shop3')]).thread.project, '/srv/shop3');
    const first = feed([line('turn_context', { cwd: '/srv/shop' }), call('/srv/shop/api')]);
    assert.equal(first.thread.project, '/srv/shop', 'a recorded cwd wins');
  });

  it('takes the parent of a spawned subagent thread from session_meta.source', () => {
    const r = feed([
      line('session_meta', {
        id: 'child',
        cwd: '/srv/shop',
        source: { subagent: { thread_spawn: { parent_thread_id: 'p1', depth: 1 } } },
      }),
    ]);
    assert.equal(r.thread.parentId, 'codex:p1');
  });

  it('reports a line without type, and a payload that is not an object', () => {
    const r = feed([{ timestamp: 'x', payload: {} }, line('event_msg', null), line('turn_context', [1])]);
    assert.deepEqual(
      r.issues.map((i) => i.message),
      [
        'line has no "type"',
        'event_msg payload is null, expected an object',
        'turn_context payload is an array, expected an object',
      ],
    );
  });

  it('pairs an output with no known call as a result without tool', () => {
    const r = feed([line('response_item', { type: 'function_call_output', call_id: 'nope', output: 'ok' })]);
    assert.deepEqual(shape(r.steps), [[1, 'tool', 'tool_result', undefined, undefined]]);
  });

  it('starts fresh from a state it does not recognise instead of throwing', () => {
    const c = createCollector();
    const p = codexAdapter.createLineParser('/x.jsonl', 'garbage');
    p.line(JSON.stringify(userItem('hello')), 1, c.sink);
    assert.equal(c.result().steps[0]?.step, 0);
  });
});
