/** `tapedeck thread import|append|reconcile|show|list` end to end through the built CLI. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, type CliResult, tapedeck } from './support/cli.js';
import { tempHome } from './support/home.js';

/** The CLI, failing the test with its stderr when it does not succeed. */
function ok(args: string[], env: Record<string, string>): CliResult {
  const r = tapedeck(args, env);
  assert.equal(r.status, 0, `tapedeck ${args.join(' ')}: ${r.stderr}`);
  return r;
}

function setup() {
  const h = tempHome();
  after(h.cleanup);
  const file = (name: string, body: unknown) => {
    const p = join(h.tapedeckHome, '..', name);
    writeFileSync(p, JSON.stringify(body));
    return p;
  };
  return { h, file };
}

/** The CLI as a child process that runs alongside others. */
function tapedeckAsync(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr, json: () => JSON.parse(stdout) }));
  });
}

const body = {
  thread_id: 'nowledge-7',
  space_id: 'work',
  title: 'Rate limiter design',
  source: 'cursor',
  metadata: { url: 'https://example.test/c/7' },
  messages: [
    {
      role: 'user',
      content: 'How should we rate-limit the public API?',
      external_id: 'm1',
      timestamp: '2026-04-01T08:00:00Z',
    },
    {
      role: 'assistant',
      content: "Let's use a token bucket per API key in Postgres; Redis would be one more service to run.",
      external_id: 'm2',
      timestamp: '2026-04-01T08:01:00Z',
    },
  ],
};

describe('tapedeck thread (CLI)', () => {
  it('imports from standard input, and the thread is searched, shown and listed like any session', () => {
    const { h } = setup();
    const r = tapedeck(['thread', 'import', '--file', '-', '--json'], h.env, { input: JSON.stringify(body) });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.json(), {
      success: true,
      thread: 'nowledge-7',
      created: true,
      messages_added: 2,
      messages_skipped: 0,
      total_messages: 2,
      replayed: false,
    });
    const hit = tapedeck(['search', 'token bucket per API key', '--json'], h.env).json().hits[0];
    assert.equal(hit.thread, 'nowledge-7');
    assert.equal(hit.agent, 'other');
    assert.deepEqual(hit.source, { path: 'tapedeck://thread/nowledge-7', line: 2 });
    const shown = tapedeck(['show', 'nowledge-7', '--json'], h.env).json();
    assert.equal(shown.thread.space, 'work');
    assert.equal(shown.steps[1].text, body.messages[1].content);
    const human = tapedeck(['show', 'nowledge-7'], h.env);
    assert.match(human.stdout, /Rate limiter design/);
    assert.match(human.stdout, /#1 assistant response/);
    assert.ok(
      tapedeck(['threads', '--json'], h.env)
        .json()
        .threads.some((t: { id: string }) => t.id === 'nowledge-7'),
    );
    const saved = tapedeck(['thread', 'show', 'nowledge-7', '--json'], h.env).json();
    assert.equal(saved.source_app, 'cursor');
    assert.deepEqual(saved.metadata, body.metadata);
    assert.deepEqual(
      saved.messages.map((m: { external_id: string }) => m.external_id),
      ['m1', 'm2'],
    );
    const listed = tapedeck(['thread', 'list'], h.env);
    assert.match(listed.stdout, /Rate limiter design\n\s+nowledge-7 {2}cursor/, listed.stderr);
    // Importing the same id again is a conflict; --merge adds only what is missing.
    const again = tapedeck(['thread', 'import', '--file', '-', '--json'], h.env, {
      input: JSON.stringify(body),
    });
    assert.equal(again.status, 1);
    assert.equal(again.json().error.code, 'CONFLICT');
    const merged = tapedeck(['thread', 'import', '--file', '-', '--merge', '--json'], h.env, {
      input: JSON.stringify({
        ...body,
        messages: [...body.messages, { role: 'user', content: 'And per IP?' }],
      }),
    }).json();
    assert.deepEqual([merged.messages_added, merged.messages_skipped, merged.total_messages], [1, 2, 3]);
  });

  it('appends idempotently: expected count, idempotency key, external ids and --no-dedupe', () => {
    const { h, file } = setup();
    ok(['thread', 'import', '--file', file('t.json', body)], h.env);
    const batch = file('b.json', {
      messages: [
        { role: 'user', content: 'And per IP for anonymous calls?', external_id: 'm3' },
        { role: 'assistant', content: 'Yes, a smaller bucket keyed by IP.', external_id: 'm4' },
      ],
    });
    const stale = tapedeck(
      ['thread', 'append', 'nowledge-7', '--file', batch, '--expected-count', '5', '--json'],
      h.env,
    );
    assert.equal(stale.status, 1);
    assert.deepEqual(stale.json().error, {
      code: 'CONFLICT',
      message: 'Thread "nowledge-7" has 2 messages, not the expected 5; fetch it and reconcile, then retry',
      details: {
        reason: 'checkpoint_conflict',
        thread: 'nowledge-7',
        expected_message_count: 5,
        actual_message_count: 2,
      },
    });
    const args = [
      'thread',
      'append',
      'nowledge-7',
      '--file',
      batch,
      '--expected-count',
      '2',
      '--idempotency-key',
      'req-1',
      '--json',
    ];
    const first = tapedeck(args, h.env).json();
    assert.deepEqual([first.messages_added, first.total_messages, first.replayed], [2, 4, false]);
    const replay = tapedeck(args, h.env);
    assert.equal(replay.status, 0, 'a replay does not trip over its own expected count');
    assert.deepEqual(replay.json(), { ...first, replayed: true });
    const human = tapedeck(['thread', 'append', 'nowledge-7', '--file', batch], h.env);
    assert.equal(
      human.stdout.trim(),
      'Appended 0 messages (2 already there, skipped): nowledge-7 has 4 in total.',
    );
    const forced = tapedeck(
      ['thread', 'append', 'nowledge-7', '--file', batch, '--no-dedupe', '--json'],
      h.env,
    ).json();
    assert.equal(forced.total_messages, 6);
  });

  it('reconciles a changed tail', () => {
    const { h, file } = setup();
    ok(['thread', 'import', '--file', file('t.json', body)], h.env);
    const tail = file('tail.json', [
      { role: 'assistant', content: 'Use a sliding window counter in Postgres instead.' },
    ]);
    const r = tapedeck(
      ['thread', 'reconcile', 'nowledge-7', '--matched', '1', '--file', tail, '--json'],
      h.env,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.json(), {
      success: true,
      thread: 'nowledge-7',
      messages_kept: 1,
      messages_removed: 1,
      messages_added: 1,
      total_messages: 2,
    });
    assert.equal(tapedeck(['search', 'token bucket', '--json'], h.env).json().hits.length, 0);
    assert.equal(tapedeck(['search', 'sliding window', '--json'], h.env).json().hits[0].thread, 'nowledge-7');
    const tooFar = tapedeck(['thread', 'reconcile', 'nowledge-7', '--matched', '3', '--file', tail], h.env);
    assert.equal(tooFar.status, 2);
    assert.match(tooFar.stderr, /matched_count 3 is more than the 2 messages/);
    const truncated = tapedeck(['thread', 'reconcile', 'nowledge-7', '--matched', '1'], h.env);
    assert.equal(truncated.stdout.trim(), 'Reconciled nowledge-7: kept 1, replaced 1 with 0; 1 in total.');
  });

  it('reports unreadable input as a usage error and writes nothing', () => {
    const { h, file } = setup();
    const broken = join(h.tapedeckHome, '..', 'broken.json');
    writeFileSync(broken, '{"messages": [');
    const r = tapedeck(['thread', 'import', '--file', broken, '--json'], h.env);
    assert.equal(r.status, 2);
    assert.equal(r.json().error.code, 'INVALID_INPUT');
    assert.match(r.json().error.message, /broken\.json is not valid JSON/);
    const missing = tapedeck(['thread', 'import', '--file', join(h.home, 'nope.json')], h.env);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /Cannot read/);
    const bad = tapedeck(
      ['thread', 'import', '--file', file('bad.json', { messages: [{ role: 'user', content: '' }] })],
      h.env,
    );
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /message 1 has no text/);
    assert.equal(tapedeck(['thread', 'list', '--json'], h.env).json().threads.length, 0);
  });

  it('two processes appending the same batch at once store it once', async () => {
    const { h, file } = setup();
    tapedeck(
      [
        'thread',
        'import',
        '--file',
        file('t.json', { id: 'race', messages: [{ role: 'user', content: 'start' }] }),
      ],
      h.env,
    );
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
    const make = (round: number, ids: boolean) =>
      Array.from({ length: 200 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: `round ${round} message ${i}: ${words[i % words.length]} ${'lorem ipsum '.repeat(20)}`,
        ...(ids ? { external_id: `r${round}-${i}` } : {}),
      }));
    let expected = 1;
    for (const [round, ids] of [
      [1, true],
      [2, false],
      [3, true],
    ] as const) {
      const batch = file(`race-${round}.json`, { messages: make(round, ids) });
      const [a, b] = await Promise.all([
        tapedeckAsync(['thread', 'append', 'race', '--file', batch, '--json'], h.env),
        tapedeckAsync(['thread', 'append', 'race', '--file', batch, '--json'], h.env),
      ]);
      // With --json an error is the JSON document on stdout.
      assert.equal(a.status, 0, a.stderr || a.stdout);
      assert.equal(b.status, 0, b.stderr || b.stdout);
      const added = [a.json().messages_added, b.json().messages_added].sort((x, y) => x - y);
      assert.deepEqual(added, [0, 200], `round ${round}: one process wrote the batch, the other nothing`);
      expected += 200;
      assert.equal(Math.max(a.json().total_messages, b.json().total_messages), expected);
    }
    const saved = tapedeck(['thread', 'show', 'race', '--json'], h.env).json();
    assert.equal(saved.messages.length, expected);
    assert.deepEqual(
      saved.messages.map((m: { index: number }) => m.index),
      Array.from({ length: expected }, (_, i) => i),
    );
    assert.equal(
      tapedeck(['show', 'race', '--json', '--limit', '1'], h.env).json().thread.step_count,
      expected,
    );
  });
});
