import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Step } from '../../core/types.js';
import { createCollector, fileLines, parseLinesFile, parseLinesFileResumed } from '../test-helpers.js';
import { claudeCodeAdapter } from './index.js';

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures');
const SESSION = '4f1c2d3e-8a9b-4c5d-9e0f-1a2b3c4d5e6f';
const MAIN = join(FIXTURES, `${SESSION}.jsonl`);
const SUBAGENT = join(FIXTURES, SESSION, 'subagents', 'agent-a3f9c1e2.jsonl');
const LEGACY_AGENT = join(FIXTURES, 'agent-7b2e41d0.jsonl');

/** [line, role, kind, tool, target] — the shape of the normalized thread at a glance. */
const shape = (steps: Step[]) => steps.map((s) => [s.source.line, s.role, s.kind, s.tool, s.target]);
const byLine = (steps: Step[], line: number) => steps.filter((s) => s.source.line === line);

describe('claude-code parser: main session fixture', () => {
  const r = parseLinesFile(claudeCodeAdapter, MAIN);

  it('names the thread from the file, the cwd field and the first real request', () => {
    assert.deepEqual(r.thread, {
      sessionId: SESSION,
      project: '/home/dev/acme-shop',
      title:
        'GET /api/products?page=0 returns a 500 on staging. Find out why and fix it — the log says "OFFSET must not be negative".',
      // The first two lines (summary, snapshot) carry no envelope timestamp; line 3 is the first.
      startedAt: '2025-08-14T09:02:13.037Z',
      updatedAt: '2025-08-14T09:04:45.668Z',
    });
    assert.equal('parentId' in r.thread, false);
  });

  it('produces exactly the expected steps, numbered 0..n-1 in file order', () => {
    const P = '/home/dev/acme-shop';
    const commit = "npm test && git commit -am 'fix(api): clamp page to >= 1 in paginate()'";
    assert.deepEqual(shape(r.steps), [
      [1, 'system', 'summary', undefined, undefined],
      [6, 'user', 'prompt', undefined, undefined],
      [8, 'assistant', 'reasoning', undefined, undefined],
      [9, 'assistant', 'response', undefined, undefined],
      [12, 'assistant', 'tool_call', 'grep', 'OFFSET src/api'],
      [13, 'assistant', 'tool_call', 'read', `${P}/src/api/products.ts`],
      [14, 'tool', 'tool_result', 'grep', 'OFFSET src/api'],
      [15, 'tool', 'tool_result', 'read', `${P}/src/api/products.ts`],
      [17, 'assistant', 'tool_call', 'bash', 'npm test -- src/api/products.test.ts'],
      [18, 'tool', 'tool_result', 'bash', 'npm test -- src/api/products.test.ts'],
      [19, 'assistant', 'response', undefined, undefined],
      [20, 'assistant', 'tool_call', 'edit', `${P}/src/lib/pagination.ts`],
      [21, 'tool', 'tool_result', 'edit', `${P}/src/lib/pagination.ts`],
      [22, 'assistant', 'tool_call', 'bash', 'npm run db:reset && npm test'],
      [23, 'tool', 'tool_result', 'bash', 'npm run db:reset && npm test'],
      [25, 'user', 'prompt', undefined, undefined],
      [28, 'assistant', 'tool_call', 'todowrite', undefined],
      [29, 'tool', 'tool_result', 'todowrite', undefined],
      [30, 'assistant', 'tool_call', 'webfetch', 'https://www.postgresql.org/docs/16/queries-limit.html'],
      [31, 'tool', 'tool_result', 'webfetch', 'https://www.postgresql.org/docs/16/queries-limit.html'],
      [32, 'assistant', 'tool_call', 'task', 'Audit other OFFSET uses'],
      [34, 'tool', 'tool_result', 'task', 'Audit other OFFSET uses'],
      [35, 'assistant', 'tool_call', 'multiedit', `${P}/src/api/products.test.ts`],
      [36, 'tool', 'tool_result', 'multiedit', `${P}/src/api/products.test.ts`],
      [38, 'system', 'summary', undefined, undefined],
      [41, 'user', 'prompt', undefined, undefined],
      [42, 'assistant', 'response', undefined, undefined],
      [43, 'assistant', 'tool_call', 'bash', commit],
      [44, 'tool', 'tool_result', 'bash', commit],
    ]);
    assert.deepEqual(
      r.steps.map((s) => s.step),
      r.steps.map((_, i) => i),
    );
    for (const s of r.steps) assert.equal(s.source.path, MAIN);
  });

  it('drops scaffolding: meta caveat, slash-command echo, local stdout, interrupt, API error, system lines', () => {
    for (const line of [2, 3, 4, 5, 7, 16, 24, 26, 27, 33, 37, 39, 40, 45, 46]) {
      assert.deepEqual(byLine(r.steps, line), [], `line ${line} must not produce a step`);
    }
    assert.ok(
      !r.steps.some((s) => /command-name|local-command|Request interrupted|API Error|Caveat:/.test(s.text)),
    );
  });

  it('strips <system-reminder> from prompts and tool output', () => {
    assert.equal(
      byLine(r.steps, 6)[0]?.text,
      'GET /api/products?page=0 returns a 500 on staging. Find out why and fix it — the log says "OFFSET must not be negative".',
    );
    const read = byLine(r.steps, 15)[0]!;
    assert.ok(read.text.startsWith('    38\texport async function listProducts'), 'keeps cat -n indentation');
    assert.ok(!r.steps.some((s) => s.text.includes('system-reminder')));
  });

  it('merges consecutive text blocks of one message.id into one step and ignores a block written twice', () => {
    const [merged] = byLine(r.steps, 9);
    assert.equal(
      merged?.text,
      "I'll look at the products route first.\n\nThen I'll check the pagination helper it calls.",
    );
    assert.equal(merged?.timestamp, '2025-08-14T09:02:50.925Z');
    assert.deepEqual(byLine(r.steps, 10), []);
    assert.deepEqual(byLine(r.steps, 11), []);
    assert.equal(
      byLine(r.steps, 8)[0]?.text,
      'The error says OFFSET is negative, so page=0 probably goes through (page - 1) * limit. Look at the route and the helper.',
    );
  });

  it('renders tool calls as "tool target" and compact args when there is no target', () => {
    assert.equal(byLine(r.steps, 12)[0]?.text, 'grep OFFSET src/api');
    assert.equal(byLine(r.steps, 20)[0]?.text, 'edit /home/dev/acme-shop/src/lib/pagination.ts');
    const todo = byLine(r.steps, 28)[0]!;
    assert.ok(todo.text.startsWith('todowrite {"todos":[{"content":"Clamp page in paginate()"'), todo.text);
    assert.ok(todo.text.length <= 200 && !todo.text.includes('\n'));
  });

  it('marks failed tool results with [error] (block-array content and rejected tool use)', () => {
    assert.equal(
      byLine(r.steps, 18)[0]?.text,
      '[error] FAIL src/api/products.test.ts\n  ● GET /api/products › page=0 falls back to the first page\n' +
        '    error: OFFSET must not be negative\n\nTests: 1 failed, 11 passed, 12 total',
    );
    assert.match(
      byLine(r.steps, 23)[0]!.text,
      /^\[error\] The user doesn't want to proceed with this tool use\./,
    );
    assert.equal(byLine(r.steps, 21)[0]?.text.startsWith('[error]'), false);
  });

  it('keeps the text of a prompt with an image and skips the image', () => {
    assert.equal(
      byLine(r.steps, 25)[0]?.text,
      "Don't reset the DB, staging shares it. Here is the error page from the admin list:",
    );
  });

  it('turns isCompactSummary and summary lines into system summaries; neither becomes the title', () => {
    assert.match(
      byLine(r.steps, 38)[0]!.text,
      /^This session is being continued .*\nAnalysis: page=0 produced OFFSET -20/s,
    );
    assert.equal(byLine(r.steps, 1)[0]?.text, 'Products API 500 on page=0 (pagination offset)');
    assert.equal(byLine(r.steps, 1)[0]?.timestamp, undefined, 'nothing seen yet, so no timestamp to reuse');
  });

  it('reads message.content given as a plain string', () => {
    assert.equal(byLine(r.steps, 42)[0]?.text, 'Running the full suite, then committing.');
  });

  it('survives invalid UTF-8 inside a string (replacement characters, no issue)', () => {
    const s = byLine(r.steps, 44)[0]!;
    assert.ok(s.text.includes('\uFFFD'));
    assert.ok(s.text.endsWith('in paginate()'));
    assert.ok(!r.issues.some((i) => i.line === 44));
  });

  it('gives every step after the first timestamped line a timestamp', () => {
    assert.ok(r.steps.slice(1).every((s) => typeof s.timestamp === 'string'));
  });

  it('reports bad lines as issues and never throws: unknown type once, invalid JSON, junk, wrong shapes, half line', () => {
    assert.deepEqual(
      r.issues.map((i) => [i.line, i.path === MAIN]),
      [
        [47, true],
        [49, true],
        [50, true],
        [51, true],
        [52, true],
        [53, true],
        [54, true],
      ],
    );
    const msg = (line: number) => r.issues.find((i) => i.line === line)?.message ?? '';
    assert.equal(msg(47), 'unknown line type "x-telemetry"');
    assert.match(msg(49), /^invalid JSON/);
    assert.match(msg(50), /^invalid JSON/);
    assert.equal(msg(51), 'expected a JSON object, got an array');
    assert.equal(msg(52), 'assistant line without a "message" object');
    assert.equal(msg(53), 'line has no "type"');
    assert.match(msg(54), /^invalid JSON \(Unterminated string/);
  });
});

describe('claude-code parser: subagent transcripts', () => {
  it('gives a subagents/ file its own thread under the parent session', () => {
    const r = parseLinesFile(claudeCodeAdapter, SUBAGENT);
    assert.equal(r.thread.sessionId, `${SESSION}/agent-a3f9c1e2`);
    assert.equal(r.thread.parentId, `claude-code:${SESSION}`);
    assert.equal(r.thread.project, '/home/dev/acme-shop');
    assert.equal(
      r.thread.title,
      'Find every query in src/ that computes OFFSET from a page number and report whether page=0 is clamped.',
    );
    assert.deepEqual(shape(r.steps), [
      [1, 'user', 'prompt', undefined, undefined],
      [2, 'assistant', 'tool_call', 'grep', 'OFFSET \\$ src'],
      [3, 'tool', 'tool_result', 'grep', 'OFFSET \\$ src'],
      [4, 'assistant', 'tool_call', 'read', '/home/dev/acme-shop/src/admin/orders.ts'],
      [5, 'tool', 'tool_result', 'read', '/home/dev/acme-shop/src/admin/orders.ts'],
      [6, 'assistant', 'response', undefined, undefined],
    ]);
    assert.deepEqual(r.issues, []);
  });

  it('learns a legacy agent-*.jsonl parent from the lines (isSidechain: true)', () => {
    const r = parseLinesFile(claudeCodeAdapter, LEGACY_AGENT);
    assert.equal(r.thread.sessionId, '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d/agent-7b2e41d0');
    assert.equal(r.thread.parentId, 'claude-code:9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d');
    assert.equal(r.steps.length, 4);
    assert.match(r.steps[3]!.text, /^db:migrate is safe on staging; db:reset drops every table/);
    assert.deepEqual(r.issues, []);
  });
});

describe('claude-code parser: resuming', () => {
  for (const file of [MAIN, SUBAGENT, LEGACY_AGENT]) {
    it(`gives the same result for every split point: ${file.slice(FIXTURES.length + 1)}`, () => {
      const whole = parseLinesFile(claudeCodeAdapter, file);
      const n = fileLines(file).length;
      for (let k = 0; k <= n; k++) {
        assert.deepEqual(parseLinesFileResumed(claudeCodeAdapter, file, k), whole, `split after line ${k}`);
      }
    });
  }

  it('keeps the saved state small at every point', () => {
    const c = createCollector();
    const p = claudeCodeAdapter.createLineParser(MAIN);
    let max = 0;
    fileLines(MAIN).forEach((l, i) => {
      p.line(l, i + 1, c.sink);
      max = Math.max(max, JSON.stringify(p.state()).length);
    });
    assert.ok(max < 2048, `state grew to ${max} bytes`);
  });
});

/** Feed literal records through a fresh parser. */
function feed(path: string, records: unknown[]) {
  const c = createCollector();
  const p = claudeCodeAdapter.createLineParser(path);
  records.forEach((r, i) => {
    p.line(typeof r === 'string' ? r : JSON.stringify(r), i + 1, c.sink);
  });
  return c.result();
}

describe('claude-code parser: edge cases', () => {
  const path = '/h/.claude/projects/-h-shop/11111111-2222-4333-8444-555555555555.jsonl';
  const env = { cwd: '/h/shop', sessionId: '11111111-2222-4333-8444-555555555555' };
  const user = (content: unknown, extra: object = {}) => ({
    ...env,
    type: 'user',
    message: { role: 'user', content },
    ...extra,
  });
  const asst = (id: string, content: unknown) => ({
    ...env,
    type: 'assistant',
    message: { id, role: 'assistant', content },
  });

  it('uses ai-title / summary as a title hint only until the first real prompt', () => {
    const r = feed(path, [
      { type: 'ai-title', aiTitle: 'Checkout tax bug', sessionId: env.sessionId },
      user('<command-name>/model</command-name>'),
    ]);
    assert.equal(r.thread.title, 'Checkout tax bug');
    const r2 = feed(path, [
      { type: 'ai-title', aiTitle: 'Checkout tax bug' },
      user('Why is VAT applied twice at checkout?'),
      { type: 'ai-title', aiTitle: 'Another title' },
    ]);
    assert.equal(r2.thread.title, 'Why is VAT applied twice at checkout?');
  });

  it('reuses the last timestamp for a line that has none and normalizes it to ISO', () => {
    const r = feed(path, [
      user('First question', { timestamp: '2025-08-14T09:00:00+02:00' }),
      { type: 'summary', summary: 'Two questions' },
      user('Second question', { timestamp: 'not a date' }),
    ]);
    assert.deepEqual(
      r.steps.map((s) => s.timestamp),
      ['2025-08-14T07:00:00.000Z', '2025-08-14T07:00:00.000Z', '2025-08-14T07:00:00.000Z'],
    );
    assert.equal(r.thread.updatedAt, '2025-08-14T07:00:00.000Z');
  });

  it('indexes a repeated summary line once', () => {
    const r = feed(path, [
      { type: 'summary', summary: 'VAT fix', leafUuid: 'a' },
      { type: 'summary', summary: 'VAT fix', leafUuid: 'b' },
    ]);
    assert.equal(r.steps.length, 1);
  });

  it('treats a continuation summary without the isCompactSummary flag as a summary, not a prompt', () => {
    const r = feed(path, [
      user('This session is being continued from a previous conversation that ran out of context.'),
    ]);
    assert.deepEqual(shape(r.steps), [[1, 'system', 'summary', undefined, undefined]]);
    assert.equal(r.thread.title, undefined);
  });

  it('does not duplicate a tool_use written again in a cumulative line', () => {
    const call = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/h/shop/a.ts' } };
    const r = feed(path, [
      asst('msg_1', [{ type: 'text', text: 'Reading.' }]),
      asst('msg_1', [{ type: 'text', text: 'Reading.' }, call]),
      asst('msg_1', [{ type: 'text', text: 'Reading.' }, call]),
    ]);
    assert.deepEqual(
      r.steps.map((s) => s.text),
      ['Reading.', 'read /h/shop/a.ts'],
    );
  });

  it('does not merge text across different messages or across a tool call', () => {
    const r = feed(path, [
      asst('msg_1', [{ type: 'text', text: 'A' }]),
      asst('msg_1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }]),
      asst('msg_1', [{ type: 'text', text: 'B' }]),
      asst('msg_2', [{ type: 'text', text: 'C' }]),
    ]);
    assert.deepEqual(
      r.steps.map((s) => s.text),
      ['A', 'bash ls', 'B', 'C'],
    );
  });

  it('emits an orphan tool result without tool/target, and empty results not at all', () => {
    const r = feed(path, [
      user([{ type: 'tool_result', tool_use_id: 'toolu_gone', content: 'ok' }]),
      user([{ type: 'tool_result', tool_use_id: 'toolu_gone2', content: [] }]),
    ]);
    assert.deepEqual(shape(r.steps), [[1, 'tool', 'tool_result', undefined, undefined]]);
  });

  it('keeps only the text blocks of a tool result that also holds an image', () => {
    const r = feed(path, [
      asst('msg_1', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/h/shop/logo.png' } }]),
      user([
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'logo.png (64x64)' },
          ],
        },
      ]),
    ]);
    assert.deepEqual(
      r.steps.map((s) => [s.kind, s.tool, s.target, s.text]),
      [
        ['tool_call', 'read', '/h/shop/logo.png', 'read /h/shop/logo.png'],
        ['tool_result', 'read', '/h/shop/logo.png', 'logo.png (64x64)'],
      ],
    );
  });

  it('skips !-mode shell echoes and IDE context blocks', () => {
    const r = feed(path, [
      user('<bash-input>git status</bash-input>'),
      user('<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>'),
      user([
        {
          type: 'text',
          text: '<ide_opened_file>The user opened the file /h/shop/src/cart.ts in the IDE.</ide_opened_file>',
        },
        { type: 'text', text: 'Add a unit test for cart totals' },
      ]),
    ]);
    assert.deepEqual(
      r.steps.map((s) => [s.kind, s.text]),
      [['prompt', 'Add a unit test for cart totals']],
    );
  });

  it('reports a JSON string value as a wrong shape', () => {
    const r = feed(path, ['"user"', '42', 'null']);
    assert.deepEqual(
      r.issues.map((i) => i.message),
      [
        'expected a JSON object, got string',
        'expected a JSON object, got number',
        'expected a JSON object, got null',
      ],
    );
  });

  it('starts fresh from a state it does not recognise instead of throwing', () => {
    const c = createCollector();
    const p = claudeCodeAdapter.createLineParser(path, { garbage: true });
    p.line(JSON.stringify(user('Hello')), 1, c.sink);
    assert.equal(c.result().steps[0]?.step, 0);
  });
});
