import assert from 'node:assert/strict';
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
import { geminiCliAdapter } from './index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const DOC = fixture('session-2025-10-21T08-42-5f0c2a91.json');
const CUT_DOC = fixture('session-2025-10-22T11-03-e7a1c0d4.json');
const LOG = fixture('session-2026-02-14T16-20-8c1d7e42.jsonl');
const ROOT = '/home/dev/acme-shop';

/** [step, line, role, kind, tool, target] — the shape of the whole thread at a glance. */
function outline(steps: Step[]) {
  return steps.map((s) => [s.step, s.source.line, s.role, s.kind, s.tool ?? null, s.target ?? null]);
}

function stepAt(steps: Step[], n: number): Step {
  const s = steps.find((x) => x.step === n);
  assert.ok(s, `step ${n} exists`);
  return s;
}

describe('gemini-cli document (session-*.json)', () => {
  const r = parseDocumentFile(geminiCliAdapter, DOC);
  const at = (n: number) => stepAt(r.steps, n);

  it('normalizes messages into the expected outline, located at the line each message object starts on', () => {
    const grid = `${ROOT}/web/src/components/ProductGrid.tsx`;
    assert.deepEqual(outline(r.steps), [
      [0, 7, 'user', 'prompt', null, null],
      [1, 13, 'assistant', 'reasoning', null, null],
      [2, 13, 'assistant', 'response', null, null],
      [3, 13, 'assistant', 'tool_call', 'read_file', grid],
      [4, 13, 'tool', 'tool_result', 'read_file', grid],
      [5, 13, 'assistant', 'tool_call', 'glob', `**/image*.ts ${ROOT}/api/src`],
      [6, 13, 'tool', 'tool_result', 'glob', `**/image*.ts ${ROOT}/api/src`],
      [7, 13, 'assistant', 'tool_call', 'search_file_content', 'sharp\\('],
      [8, 13, 'tool', 'tool_result', 'search_file_content', 'sharp\\('],
      // m-03 (info) is scaffolding
      [9, 116, 'user', 'prompt', null, null],
      [10, 143, 'assistant', 'reasoning', null, null],
      [11, 143, 'assistant', 'response', null, null],
      [12, 143, 'assistant', 'tool_call', 'replace', grid],
      [13, 143, 'tool', 'tool_result', 'replace', grid],
      [14, 143, 'assistant', 'tool_call', 'run_shell_command', 'npm test --workspace api -- image-proxy'],
      [15, 143, 'tool', 'tool_result', 'run_shell_command', 'npm test --workspace api -- image-proxy'],
      [16, 143, 'assistant', 'tool_call', 'write_file', `${ROOT}/api/src/routes/image-proxy.ts`],
      [17, 143, 'tool', 'tool_result', 'write_file', `${ROOT}/api/src/routes/image-proxy.ts`],
      [18, 143, 'assistant', 'tool_call', 'read_file', `${ROOT}/api/src/routes/missing.ts`],
      [19, 143, 'tool', 'tool_result', 'read_file', `${ROOT}/api/src/routes/missing.ts`],
      [20, 143, 'assistant', 'tool_call', 'web_fetch', null],
      [21, 143, 'tool', 'tool_result', 'web_fetch', null],
      [
        22,
        143,
        'assistant',
        'tool_call',
        'read_many_files',
        'web/src/components/ProductGrid.tsx, web/src/components/ProductCard.tsx',
      ],
      [
        23,
        143,
        'tool',
        'tool_result',
        'read_many_files',
        'web/src/components/ProductGrid.tsx, web/src/components/ProductCard.tsx',
      ],
      // still executing: the call, no result yet
      [24, 143, 'assistant', 'tool_call', 'list_directory', `${ROOT}/api/src/routes`],
      [25, 274, 'system', 'response', null, null],
      // m-07 (warning) is scaffolding; m-08/m-09 have an unknown type; messages[9] is not an object
      [26, 299, 'system', 'summary', null, null],
      [27, 309, 'assistant', 'response', null, null],
      [28, 314, 'user', 'prompt', null, null],
      [29, 320, 'assistant', 'response', null, null],
    ]);
  });

  it('records thread facts; the hash-only project stays unset', () => {
    assert.deepEqual(r.thread, {
      sessionId: '5f0c2a91-7b3e-4d1a-9c55-0e6f3b8a2d17',
      startedAt: '2025-10-21T08:42:10.114Z',
      updatedAt: '2025-10-21T08:49:58.020Z',
      title:
        'The product images on the category page load slowly — add lazy loading and serve WebP from the image proxy.',
    });
  });

  it('takes what the user typed, not the files an @path pulled in', () => {
    assert.equal(at(9).text, 'Use the existing sharp pipeline in @api/src/routes/image-proxy.ts');
    assert.equal(at(28).text, 'Keep JPEG as the fallback for browsers without WebP.');
  });

  it('keeps thoughts as reasoning, apart from the visible text', () => {
    assert.equal(
      at(1).text,
      'Scoping the image pipeline\nThe grid likely renders plain <img> tags. I should check the component and the proxy route before changing anything.\n\nChecking the proxy\nIf the proxy already uses sharp, WebP is a format flag away.',
    );
    assert.equal(at(10).text, 'Negotiating on Accept keeps old Safari working.');
    assert.equal(
      at(11).text,
      'Plan: negotiate WebP on the Accept header in the proxy, add loading="lazy" to the grid, then run the tests.',
    );
  });

  it('renders tool calls and reads results from functionResponse, text parts or resultDisplay', () => {
    assert.equal(at(3).text, `read_file ${ROOT}/web/src/components/ProductGrid.tsx`);
    assert.equal(at(20).text, 'web_fetch prompt=Summarize https://sharp.pixelplumbing.com/api-output#webp');
    assert.ok(at(4).text.startsWith('export function ProductGrid({ products }: Props) {'));
    assert.equal(at(4).timestamp, '2025-10-21T08:42:20.010Z');
    assert.equal(at(3).timestamp, '2025-10-21T08:42:19.503Z');
    // replace has no `result`: the diff the terminal showed stands in
    assert.ok(
      at(13).text.includes('+  return products.map((p) => <img src={p.imageUrl} alt={p.name} loading="lazy"'),
    );
    assert.equal(
      at(23).text,
      '--- web/src/components/ProductGrid.tsx ---\n…\n--- web/src/components/ProductCard.tsx ---\n…',
    );
  });

  it('marks failed and cancelled calls with [error]', () => {
    assert.ok(at(15).text.startsWith('[error] Command: npm test --workspace api -- image-proxy'));
    assert.ok(at(15).text.includes('Exit Code: 1'));
    assert.equal(at(17).text, '[error] cancelled');
    assert.equal(at(19).text, `[error] File not found: ${ROOT}/api/src/routes/missing.ts`);
  });

  it('keeps API errors as system steps and compression snapshots as summaries', () => {
    assert.ok(at(25).text.startsWith('[error] [API Error: got status: 429 Too Many Requests.'));
    assert.ok(at(26).text.startsWith('<state_snapshot>\n  <overall_goal>Lazy-load category images'));
    // m-11 has no timestamp: the last one seen is reused
    assert.equal(at(27).timestamp, '2025-10-21T08:47:00.000Z');
  });

  it('reports an unknown message type once and a non-object message', () => {
    assert.deepEqual(
      r.issues.map((i) => [i.line, i.message]),
      [
        [286, 'unknown Gemini message type "tool_group"'],
        [298, 'messages[9] is not an object'],
      ],
    );
  });

  it('reports a half-written document instead of throwing', () => {
    const cut = parseDocumentFile(geminiCliAdapter, CUT_DOC);
    assert.deepEqual(cut.steps, []);
    assert.equal(cut.issues.length, 1);
    assert.match(cut.issues[0]?.message ?? '', /^invalid JSON document: /);
  });

  it('truncates what a previous, longer version of the document left behind', () => {
    const c = createCollector();
    const truncations: number[] = [];
    const sink = {
      ...c.sink,
      truncate: (from: number) => {
        truncations.push(from);
        c.sink.truncate(from);
      },
    };
    geminiCliAdapter.parseDocument(
      DOC,
      '{"sessionId":"s","messages":[{"id":"a","type":"user","content":"hi"}]}',
      sink,
    );
    assert.deepEqual(truncations, [1]);
  });
});

describe('gemini-cli log (session-*.jsonl)', () => {
  const r = parseLinesFile(geminiCliAdapter, LOG);
  const at = (n: number) => stepAt(r.steps, n);

  it('applies updates, $rewindTo and a $set history into the final outline', () => {
    // Line 23 ($set messages) re-wrote the whole history, so steps 0–13 now come from it.
    assert.deepEqual(outline(r.steps), [
      [0, 23, 'user', 'prompt', null, null],
      [1, 23, 'assistant', 'reasoning', null, null],
      [2, 23, 'assistant', 'response', null, null],
      [3, 23, 'assistant', 'tool_call', 'read_file', `${ROOT}/api/src/server.ts`],
      [4, 23, 'tool', 'tool_result', 'read_file', `${ROOT}/api/src/server.ts`],
      [5, 23, 'assistant', 'response', null, null],
      [6, 23, 'assistant', 'tool_call', 'replace', `${ROOT}/api/src/server.ts`],
      [7, 23, 'tool', 'tool_result', 'replace', `${ROOT}/api/src/server.ts`],
      [8, 23, 'assistant', 'tool_call', 'run_shell_command', 'npm run test -- healthz'],
      [9, 23, 'tool', 'tool_result', 'run_shell_command', 'npm run test -- healthz'],
      [10, 23, 'user', 'prompt', null, null],
      [11, 23, 'assistant', 'response', null, null],
      [12, 23, 'assistant', 'tool_call', 'write_file', `${ROOT}/api/src/healthz.ts`],
      [13, 23, 'tool', 'tool_result', 'write_file', `${ROOT}/api/src/healthz.ts`],
      [14, 24, 'user', 'prompt', null, null],
    ]);
    assert.equal(at(4).text, '[tool output masked to save context: 4 lines]');
    assert.equal(at(10).text, 'Instead, return the version from package.json (keep the DB check)');
    assert.equal(
      at(9).text.split('\n')[2],
      "Output: src/healthz.test.ts(3,25): error TS2307: Cannot find module './healthz'.",
    );
    assert.ok(at(9).text.startsWith('[error] '));
    assert.ok(
      r.steps.every((s) => !s.text.includes('git commit hash') && !s.text.includes('git rev-parse')),
      'the rewound exchange is gone',
    );
  });

  it('records thread facts, project from the recorded workspace directories', () => {
    assert.deepEqual(r.thread, {
      sessionId: '8c1d7e42-3a9b-4f60-b2d8-6e1f0c4a9b73',
      startedAt: '2026-02-14T16:20:41.000Z',
      updatedAt: '2026-02-14T16:26:30.000Z',
      title: 'Add a /healthz endpoint that checks the database connection',
      project: ROOT,
    });
  });

  it('reports broken lines, unknown shapes and types once, and an unknown rewind target', () => {
    assert.deepEqual(
      r.issues.map((i) => [i.line, i.message.split(':')[0]]),
      [
        [16, 'invalid JSON'],
        [17, 'invalid JSON'],
        [18, 'unrecognized Gemini CLI line with keys'],
        [20, 'unknown Gemini message type "tool_group"'],
        [21, '$rewindTo names a message not seen recently'],
        [25, 'invalid JSON'],
      ],
    );
  });

  it('replaces a rewritten last message in place as its results arrive', () => {
    const lines = fileLines(LOG).slice(0, 6);
    const c = createCollector();
    const p = geminiCliAdapter.createLineParser(LOG);
    const seen: number[][] = [];
    for (const [i, l] of lines.entries()) {
      p.line(l, i + 1, c.sink);
      seen.push(c.result().steps.map((s) => s.source.line));
    }
    // g-1 without result (line 4) → with result (line 5) → with tokens (line 6): same numbers, one more step
    assert.deepEqual(seen.slice(3), [
      [2, 4, 4, 4],
      [2, 5, 5, 5, 5],
      [2, 6, 6, 6, 6],
    ]);
  });

  it('drops the rewound message and everything after it', () => {
    const lines = fileLines(LOG).slice(0, 11);
    const c = createCollector();
    const p = geminiCliAdapter.createLineParser(LOG);
    for (const [i, l] of lines.entries()) p.line(l, i + 1, c.sink);
    const texts = c.result().steps.map((s) => s.text);
    assert.equal(texts.length, 10);
    assert.equal(texts.at(-1)?.startsWith('[error] Command: npm run test -- healthz'), true);
  });

  it('resumes exactly from a saved state after every line', () => {
    const total = fileLines(LOG).length;
    for (let k = 0; k <= total; k++) {
      assert.deepEqual(parseLinesFileResumed(geminiCliAdapter, LOG, k), r, `split after line ${k}`);
    }
  });

  it('keeps its state small', () => {
    const p = geminiCliAdapter.createLineParser(LOG);
    const c = createCollector();
    for (const [i, l] of fileLines(LOG).entries()) p.line(l, i + 1, c.sink);
    assert.ok(JSON.stringify(p.state()).length < 800);
  });
});
