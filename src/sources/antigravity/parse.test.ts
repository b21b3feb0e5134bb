import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Step, seqOf } from '../../core/types.js';
import { createCollector, fileLines, parseLinesFile, parseLinesFileResumed } from '../test-helpers.js';
import { antigravityAdapter } from './index.js';
import { conversationIdOf } from './parse.js';
import { nativeStepIndex, stepSlot } from './step-number.js';

const CONV = '6b1e0f3a-2c4d-4e8f-9a17-53d2c8e4b901';
const FIXTURE = fileURLToPath(
  new URL(`./fixtures/brain/${CONV}/.system_generated/logs/transcript_full.jsonl`, import.meta.url),
);
const API = '/home/dev/acme-shop/api';
const ORDERS = `${API}/src/routes/orders.ts`;

/** [internal order, line, role, kind, tool, target] — the shape of the whole thread at a glance. */
function outline(steps: Step[]) {
  return steps.map((s) => [seqOf(s), s.source.line, s.role, s.kind, s.tool ?? null, s.target ?? null]);
}

/** Parse inline lines (as a transcript at a brain path) through one fresh parser. */
function parseInline(lines: unknown[]) {
  const c = createCollector();
  const p = antigravityAdapter.createLineParser(
    `/h/.gemini/antigravity/brain/c1/.system_generated/logs/transcript.jsonl`,
  );
  for (const [i, l] of lines.entries()) p.line(typeof l === 'string' ? l : JSON.stringify(l), i + 1, c.sink);
  return c.result();
}

const enc = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, JSON.stringify(v)]));

describe('antigravity parser on the recorded fixture', () => {
  const r = parseLinesFile(antigravityAdapter, FIXTURE);
  const at = (n: number) => {
    const s = r.steps.find((x) => seqOf(x) === n);
    assert.ok(s, `step ${n} exists`);
    return s;
  };

  it('normalizes every native step into the expected outline', () => {
    assert.deepEqual(outline(r.steps), [
      [0, 1, 'user', 'prompt', null, null],
      [48, 4, 'assistant', 'reasoning', null, null],
      [49, 4, 'assistant', 'response', null, null],
      [50, 4, 'assistant', 'tool_call', 'list_dir', `${API}/src/routes`],
      [64, 5, 'tool', 'tool_result', 'list_dir', `${API}/src/routes`],
      [81, 6, 'assistant', 'response', null, null],
      [82, 6, 'assistant', 'tool_call', 'view_file', ORDERS],
      [83, 6, 'assistant', 'tool_call', 'grep_search', `sendOrderConfirmation ${API}/src`],
      // results arrive out of order; each pairs with the call of its kind
      [96, 7, 'tool', 'tool_result', 'grep_search', `sendOrderConfirmation ${API}/src`],
      [112, 8, 'tool', 'tool_result', 'view_file', ORDERS],
      [144, 10, 'assistant', 'reasoning', null, null],
      [145, 10, 'assistant', 'response', null, null],
      [146, 10, 'assistant', 'tool_call', 'run_command', 'npm test -- orders'],
      // line 11 (RUNNING) emits nothing: the command went to the background
      [177, 12, 'assistant', 'response', null, null],
      [178, 12, 'assistant', 'tool_call', 'replace_file_content', ORDERS],
      [192, 13, 'tool', 'tool_result', 'replace_file_content', ORDERS],
      // the SYSTEM_MESSAGE that finishes task-10 completes the backgrounded npm test
      [208, 14, 'tool', 'tool_result', 'run_command', 'npm test -- orders'],
      [241, 16, 'assistant', 'response', null, null],
      [242, 16, 'assistant', 'tool_call', 'multi_replace_file_content', ORDERS],
      [256, 17, 'tool', 'tool_result', 'multi_replace_file_content', ORDERS],
      [289, 19, 'assistant', 'response', null, null],
      [290, 19, 'assistant', 'tool_call', 'run_command', 'npx tsc --noEmit -p tsconfig.json'],
      [304, 20, 'tool', 'tool_result', 'run_command', 'npx tsc --noEmit -p tsconfig.json'],
      [320, 21, 'system', 'response', null, null],
      [352, 23, 'user', 'prompt', null, null],
      [369, 24, 'assistant', 'response', null, null],
      [370, 24, 'assistant', 'tool_call', 'read_url_content', null],
      [371, 24, 'assistant', 'tool_call', 'view_file', `${API}/src/middleware/idempotent.ts`],
      [384, 25, 'tool', 'tool_result', 'read_url_content', null],
      [400, 26, 'tool', 'tool_result', 'view_file', `${API}/src/middleware/idempotent.ts`],
      [434, 28, 'assistant', 'tool_call', 'run_command', 'git push origin fix/idempotent-orders'],
      [464, 30, 'tool', 'tool_result', 'run_command', 'git push origin fix/idempotent-orders'],
      // no step_index on line 35: it continues after the last index seen (29)
      [481, 35, 'assistant', 'response', null, null],
    ]);
  });

  it('numbers every step with the native step_index; the slot is only internal order', () => {
    assert.equal(at(146).step, 9);
    assert.equal(stepSlot(146), 2);
    assert.equal(at(208).step, 13);
    for (const s of r.steps) {
      assert.equal(nativeStepIndex(seqOf(s)), s.step);
      const line = fileLines(FIXTURE)[s.source.line - 1] ?? '';
      const native = /"step_index":(\d+)/.exec(line)?.[1];
      if (native) assert.equal(s.step, Number(native), `step ${seqOf(s)}`);
    }
  });

  it('strips the USER_REQUEST wrapper, metadata and settings blocks from prompts', () => {
    assert.equal(
      at(0).text,
      'The order confirmation email is sent twice when a customer double-clicks "Place order". Make POST /api/orders idempotent.',
    );
    assert.equal(at(352).text, 'continue — and check how Stripe does idempotency keys before you pick a TTL');
    // line 18 is only <ADDITIONAL_METADATA> + <USER_SETTINGS_CHANGE>: no step at all
    assert.equal(
      r.steps.some((s) => s.source.line === 18),
      false,
    );
    assert.equal(r.steps.filter((s) => s.kind === 'prompt').length, 2);
  });

  it('records thread facts: conversation id, title, derived project, time range', () => {
    assert.deepEqual(r.thread, {
      sessionId: CONV,
      title:
        'The order confirmation email is sent twice when a customer double-clicks "Place order". Make POST /api/orders idempoten…',
      project: API,
      startedAt: '2026-03-09T09:14:02.000Z',
      updatedAt: '2026-03-09T09:18:10.000Z',
    });
  });

  it('decodes JSON-encoded args (args and `arguments` string forms) into targets and texts', () => {
    assert.equal(at(50).text, `list_dir ${API}/src/routes`);
    assert.equal(at(178).text, `replace_file_content ${ORDERS}`);
    // no target key: tool name plus a one-line rendering of the decoded args, UI labels left out
    assert.equal(at(370).text, 'read_url_content Url=https://docs.stripe.com/api/idempotent_requests');
  });

  it('keeps reasoning and visible text apart', () => {
    assert.equal(
      at(48).text,
      '**Locating the order route**\n\nThe duplicate email points at the create-order handler running twice. I need to find where POST /api/orders lives.',
    );
    assert.equal(at(49).text, "I'll start by listing the API routes to find the order handler.");
  });

  it('drops the Created At / Completed At header from tool output', () => {
    assert.equal(
      at(96).text,
      'src/routes/orders.ts:57:    await sendOrderConfirmation(order);\nsrc/jobs/email.ts:12:export async function sendOrderConfirmation(order: Order) {',
    );
    assert.ok(at(64).text.startsWith('{"name":"cart.ts","sizeBytes":"2311"}'));
  });

  it('completes a backgrounded command from the SYSTEM_MESSAGE, without its log link', () => {
    const done = at(208);
    assert.equal(done.timestamp, '2026-03-09T09:15:02.000Z');
    assert.ok(done.text.startsWith('The command failed with exit code 1.'));
    assert.ok(done.text.includes('AssertionError: expected "spy" to be called 1 times, but got 2 times'));
    assert.ok(done.text.endsWith('Stderr:'));
    assert.ok(!done.text.includes('task-10.log'));
    // the timer-cancelled SYSTEM_MESSAGE (line 15) is scaffolding
    assert.equal(
      r.steps.some((s) => s.source.line === 15),
      false,
    );
  });

  it('marks failed results with [error] and keeps the failure detail', () => {
    assert.equal(
      at(192).text,
      '[error] Error: target content not found in /home/dev/acme-shop/api/src/routes/orders.ts. TargetContent must match the file exactly, including whitespace.\nTARGET_CONTENT_NOT_FOUND',
    );
    assert.ok(at(464).text.startsWith('[error] '));
    assert.ok(at(464).text.endsWith('\nexit status 1'));
    assert.ok(at(464).text.includes("error: failed to push some refs to 'github.com:acme/acme-shop.git'"));
  });

  it('turns ERROR_MESSAGE into the pending call’s failure, or a system step when nothing is pending', () => {
    assert.equal(
      at(304).text,
      '[error] Error invalid tool call: model output error: invalid tool call error (invalid_args) missing required argument "SafeToAutoRun" for run_command',
    );
    assert.equal(
      at(320).text,
      '[error] Agent execution terminated due to error: model provider returned 503 UNAVAILABLE (the model is overloaded). You can retry.',
    );
  });

  it('drops scaffolding: history, knowledge, ephemeral, checkpoint, waiting-for-approval', () => {
    for (const line of [2, 3, 9, 22, 29]) {
      assert.equal(
        r.steps.some((s) => s.source.line === line),
        false,
        `line ${line}`,
      );
    }
  });

  it('reports broken lines and an unknown type once, and never throws', () => {
    assert.deepEqual(
      r.issues.map((i) => [i.line, i.message.split(':')[0]]),
      [
        [25, 'unknown Antigravity step type "READ_URL_CONTENT"'],
        [31, 'invalid JSON'],
        [32, 'invalid JSON'],
        [33, 'expected a JSON object per line'],
        [34, 'line has no "type"'],
        [36, 'invalid JSON'],
      ],
    );
    assert.ok(r.issues.every((i) => i.path === FIXTURE));
  });

  it('gives every step an ISO timestamp and its source line', () => {
    for (const s of r.steps) {
      assert.match(s.timestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(s.source.path, FIXTURE);
    }
  });

  it('resumes exactly from a saved state after every line', () => {
    const total = fileLines(FIXTURE).length;
    for (let k = 0; k <= total; k++) {
      assert.deepEqual(parseLinesFileResumed(antigravityAdapter, FIXTURE, k), r, `split after line ${k}`);
    }
  });

  it('keeps its state small', () => {
    const p = antigravityAdapter.createLineParser(FIXTURE);
    const c = createCollector();
    for (const [i, l] of fileLines(FIXTURE).entries()) p.line(l, i + 1, c.sink);
    assert.ok(JSON.stringify(p.state()).length < 600);
  });

  it('parses a whole file handed over as a document the same way', () => {
    const c = createCollector();
    antigravityAdapter.parseDocument(FIXTURE, readFileSync(FIXTURE, 'utf8'), c.sink);
    assert.deepEqual(c.result(), r);
  });
});

describe('antigravity parser edge cases', () => {
  it('pairs results with calls by position when types do not tell them apart', () => {
    const r = parseInline([
      {
        step_index: 0,
        type: 'PLANNER_RESPONSE',
        tool_calls: [
          { name: 'mcp_postgres_query', args: enc({ sql: 'select 1' }) },
          { name: 'mcp_postgres_query', args: enc({ sql: 'select 2' }) },
        ],
      },
      { step_index: 1, type: 'TOOL_RESPONSE', content: 'one' },
      { step_index: 2, type: 'TOOL_RESPONSE', content: 'two' },
      { step_index: 3, type: 'TOOL_RESPONSE', content: 'orphan' },
    ]);
    assert.deepEqual(
      r.steps.map((s) => [seqOf(s), s.kind, s.tool, s.text]),
      [
        [2, 'tool_call', 'mcp_postgres_query', 'mcp_postgres_query sql=select 1'],
        [3, 'tool_call', 'mcp_postgres_query', 'mcp_postgres_query sql=select 2'],
        [16, 'tool_result', 'mcp_postgres_query', 'one'],
        [32, 'tool_result', 'mcp_postgres_query', 'two'],
        // nothing pending: the result is kept, named after its type
        [48, 'tool_result', 'tool_response', 'orphan'],
      ],
    );
  });

  it('reports a step with more tool calls than slots, still pairing the extra results', () => {
    const calls = Array.from({ length: 15 }, (_, i) => ({
      name: 'view_file',
      args: enc({ AbsolutePath: `/f${i}` }),
    }));
    const lines: unknown[] = [{ step_index: 0, type: 'PLANNER_RESPONSE', tool_calls: calls }];
    for (let i = 0; i < 15; i++)
      lines.push({ step_index: i + 1, type: 'VIEW_FILE', content: `content ${i}` });
    const r = parseInline(lines);
    assert.equal(r.steps.filter((s) => s.kind === 'tool_call').length, 14);
    assert.equal(r.steps.filter((s) => s.kind === 'tool_result').length, 15);
    assert.equal(r.steps.at(-1)?.target, '/f14');
    assert.deepEqual(
      r.issues.map((i) => i.message),
      ['more than 14 tool calls in one step; later calls get no step'],
    );
  });

  it('completes a background task whose id it never saw as run_command, and several per message', () => {
    const r = parseInline([
      {
        step_index: 0,
        type: 'PLANNER_RESPONSE',
        tool_calls: [{ name: 'run_command', args: enc({ CommandLine: 'npm run build' }) }],
      },
      {
        step_index: 1,
        type: 'RUN_COMMAND',
        status: 'RUNNING',
        content: 'Tool is running as a background task with task id: c1/task-1',
      },
      {
        step_index: 2,
        type: 'SYSTEM_MESSAGE',
        content:
          '<SYSTEM_MESSAGE>\n[Message] sender=c1/task-9 content=Task id "c1/task-9" finished with result:\nold output\n[Message] sender=c1/task-1 content=Task id "c1/task-1" finished with result:\nbuilt in 3.1s\n</SYSTEM_MESSAGE>',
      },
    ]);
    assert.deepEqual(
      r.steps.map((s) => [seqOf(s), s.kind, s.tool, s.target ?? null, s.text]),
      [
        [2, 'tool_call', 'run_command', 'npm run build', 'run_command npm run build'],
        [32, 'tool_result', 'run_command', null, 'old output'],
        [33, 'tool_result', 'run_command', 'npm run build', 'built in 3.1s'],
      ],
    );
  });

  it('takes the first Cwd as project and the first real prompt as title', () => {
    const r = parseInline([
      {
        step_index: 0,
        type: 'USER_INPUT',
        content: '<USER_SETTINGS_CHANGE>\nModel changed.\n</USER_SETTINGS_CHANGE>',
      },
      { step_index: 1, type: 'USER_INPUT', content: 'plain prompt without wrapper\nsecond line' },
      {
        step_index: 2,
        type: 'PLANNER_RESPONSE',
        tool_calls: [{ name: 'run_command', args: enc({ CommandLine: 'ls', Cwd: '/w/a' }) }],
      },
      {
        step_index: 3,
        type: 'PLANNER_RESPONSE',
        tool_calls: [{ name: 'run_command', args: enc({ CommandLine: 'ls', Cwd: '/w/b' }) }],
      },
    ]);
    assert.equal(r.thread.title, 'plain prompt without wrapper');
    assert.equal(r.thread.project, '/w/a');
    assert.equal(r.thread.sessionId, 'c1');
    assert.equal(r.steps[0]?.text, 'plain prompt without wrapper\nsecond line');
  });

  it('reuses the last timestamp for lines without one and ignores a garbage state', () => {
    const c = createCollector();
    const p = antigravityAdapter.createLineParser('/x/transcript.jsonl', { nonsense: true });
    p.line(
      JSON.stringify({
        step_index: 0,
        type: 'USER_INPUT',
        content: 'hi',
        created_at: '2026-01-02T03:04:05Z',
      }),
      1,
      c.sink,
    );
    p.line(
      JSON.stringify({ step_index: 1, type: 'PLANNER_RESPONSE', content: 'hello', created_at: 'not a date' }),
      2,
      c.sink,
    );
    const r = c.result();
    assert.equal(r.steps[1]?.timestamp, '2026-01-02T03:04:05.000Z');
    assert.equal(r.thread.sessionId, undefined);
  });

  it('reads the conversation id from the brain path only', () => {
    assert.equal(
      conversationIdOf('/h/.gemini/antigravity-ide/brain/abc/.system_generated/logs/transcript_full.jsonl'),
      'abc',
    );
    assert.equal(
      conversationIdOf('C:\\u\\.gemini\\antigravity\\brain\\abc\\.system_generated\\logs\\transcript.jsonl'),
      'abc',
    );
    assert.equal(conversationIdOf('/tmp/transcript.jsonl'), undefined);
  });
});
