/**
 * Edits and searches kept as step text, end to end through the real indexer and a real store: the
 * changed lines of a Codex apply_patch and of a Gemini CLI replace are found by what they changed,
 * a secret in a patch is redacted before it is stored, and re-reading a grown or rewritten file
 * replaces steps by number instead of adding copies.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { tempHome } from './support/home.js';

const CODEX_ID = '0199b7c2-5a1e-7d30-9c4f-2e8a6b1d3f57';
const CODEX_FILE = `.codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-${CODEX_ID}.jsonl`;
const SECRET = `sk-proj-${'Q7vL2mX9'.repeat(5)}`;

const rec = (at: number, type: string, payload: Record<string, unknown>) =>
  JSON.stringify({ timestamp: new Date(Date.UTC(2026, 2, 2, 9, 0, at)).toISOString(), type, payload });

function codexTurn(at: number, prompt: string, patch: string, callId: string): string[] {
  return [
    rec(at, 'response_item', {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: prompt }],
    }),
    rec(at, 'event_msg', { type: 'user_message', message: prompt, kind: 'plain' }),
    rec(at + 1, 'response_item', {
      type: 'custom_tool_call',
      status: 'completed',
      call_id: callId,
      name: 'apply_patch',
      input: patch,
    }),
    rec(at + 2, 'response_item', {
      type: 'custom_tool_call_output',
      call_id: callId,
      output: JSON.stringify({
        output: 'Success. Updated the following files:\nM src/http/retry.ts\n',
        metadata: { exit_code: 0 },
      }),
    }),
  ];
}

const PATCH_1 = [
  '*** Begin Patch',
  '*** Update File: src/http/retry.ts',
  '@@ export function backoff(attempt: number) {',
  '   const jitter = Math.random() * 100;',
  '-const RETRY_DELAY_MS = 500;',
  '+const RETRY_DELAY_MS = 2_000; // the bank API rate-limits bursts',
  `+const BANK_TOKEN = "${SECRET}";`,
  '*** End Patch',
].join('\n');
const PATCH_2 =
  '*** Begin Patch\n*** Add File: src/http/jitter.ts\n+export const MAX_JITTER_MS = 250;\n*** End Patch';

test('a Codex patch is found by the lines it changed, redacted, and not duplicated on re-read', async () => {
  const h = tempHome();
  after(h.cleanup);
  const meta = rec(0, 'session_meta', {
    id: CODEX_ID,
    cwd: '/home/mira/src/ledgerline',
    cli_version: '0.46.0',
  });
  const path = h.write(
    CODEX_FILE,
    `${[meta, ...codexTurn(1, 'Slow down the retries against the bank API.', PATCH_1, 'call_1')].join('\n')}\n`,
  );
  const engine = h.engine();
  try {
    engine.transcripts.index();
    const thread = `codex:${CODEX_ID}`;
    const hit = (await engine.transcripts.search('RETRY_DELAY_MS 2_000', { limit: 3 })).hits[0];
    assert.ok(hit, 'the edit is found');
    assert.deepEqual([hit.thread, hit.source.line], [thread, 4]);
    const call = engine.transcripts.show({ thread }).steps.find((s) => s.kind === 'tool_call');
    assert.ok(call);
    assert.match(call.text, /^apply_patch src\/http\/retry\.ts\n/);
    assert.match(call.text, /-const RETRY_DELAY_MS = 500;\n\+const RETRY_DELAY_MS = 2_000;/);
    assert.ok(!call.text.includes('Math.random'), 'context lines are not the change');
    assert.ok(!call.text.includes(SECRET), 'the token is redacted');
    assert.match(call.text, /BANK_TOKEN = "\[REDACTED:[a-z-]+\]"/);

    const before = engine.transcripts.show({ thread }).steps.length;
    assert.equal(engine.transcripts.index().steps.written, 0, 'an unchanged file is not read again');
    appendFileSync(path, `${codexTurn(10, 'Cap the jitter too.', PATCH_2, 'call_2').join('\n')}\n`);
    const grown = engine.transcripts.index();
    const steps = engine.transcripts.show({ thread }).steps;
    assert.equal(steps.length, before + 3, 'only the new turn is added');
    assert.equal(grown.steps.written, 3);
    assert.equal(new Set(steps.map((s) => s.step)).size, steps.length);
    assert.equal((await engine.transcripts.search('MAX_JITTER_MS')).hits[0]?.source.line, 8);

    // --full re-reads every file and replaces its steps by number: same steps, no copies.
    engine.transcripts.index({ full: true });
    assert.equal(engine.transcripts.show({ thread }).steps.length, steps.length);
  } finally {
    engine.close();
  }
});

const GEMINI_ID = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const GEMINI_FILE = '.gemini/tmp/pondcam/chats/session-2026-03-02T09-00-7c1d2e3f.json';

function geminiDoc(messages: Record<string, unknown>[]): string {
  const doc = {
    sessionId: GEMINI_ID,
    projectHash: 'f'.repeat(64),
    startTime: '2026-03-02T09:00:00.000Z',
    messages,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const GEMINI_MESSAGES: Record<string, unknown>[] = [
  { id: 'u-1', timestamp: '2026-03-02T09:00:00.000Z', type: 'user', content: 'The stream drops at night.' },
  {
    id: 'g-1',
    timestamp: '2026-03-02T09:00:09.000Z',
    type: 'gemini',
    content: 'Shortening the first reconnect wait.',
    toolCalls: [
      {
        id: 'replace-1',
        name: 'replace',
        args: {
          file_path: '/home/mira/src/pondcam/pondcam/stream.py',
          old_string: 'def reconnect(self):\n    delay = 1.0',
          new_string: 'def reconnect(self):\n    delay = 0.25',
        },
        status: 'success',
        result: [
          {
            functionResponse: {
              id: 'replace-1',
              name: 'replace',
              response: { output: 'Successfully modified file.' },
            },
          },
        ],
      },
      {
        id: 'grep-1',
        name: 'search_file_content',
        args: { pattern: 'keepalive_interval', path: '/home/mira/src/pondcam' },
        status: 'success',
        result: [
          {
            functionResponse: {
              id: 'grep-1',
              name: 'search_file_content',
              response: { output: 'No matches found' },
            },
          },
        ],
      },
    ],
  },
];

test('a Gemini CLI edit and search are found; a rewritten document replaces its steps in place', async () => {
  const h = tempHome();
  after(h.cleanup);
  const path = h.write(GEMINI_FILE, geminiDoc(GEMINI_MESSAGES));
  const engine = h.engine();
  try {
    engine.transcripts.index();
    const thread = `gemini-cli:${GEMINI_ID}`;
    const lines = geminiDoc(GEMINI_MESSAGES).split('\n');
    const edit = (await engine.transcripts.search('delay 0.25 reconnect')).hits.find(
      (x) => x.thread === thread,
    );
    assert.ok(edit, 'the replace is found by its new value');
    assert.equal(lines[edit.source.line - 1], '    {', 'the step cites the line its message starts on');
    const grep = engine.transcripts.show({ thread }).steps.find((s) => s.tool === 'search_file_content');
    assert.equal(grep?.text, 'search_file_content keepalive_interval /home/mira/src/pondcam');
    const before = engine.transcripts.show({ thread }).steps.length;

    // The CLI rewrites the whole document as the session grows.
    const grown = [
      ...GEMINI_MESSAGES,
      { id: 'u-2', timestamp: '2026-03-02T09:05:00.000Z', type: 'user', content: 'Works now.' },
    ];
    h.write(GEMINI_FILE, geminiDoc(grown));
    engine.transcripts.index();
    const steps = engine.transcripts.show({ thread }).steps;
    assert.equal(steps.length, before + 1);
    assert.equal(new Set(steps.map((s) => s.step)).size, steps.length);
    assert.ok(path.endsWith('.json'));
  } finally {
    engine.close();
  }
});
