/**
 * Nothing hangs, nothing is dropped (issue 11 §4): only regular files are read — a transcript that
 * is a symlink to a FIFO or to /dev/zero is skipped with a message within a second, by `index` and
 * by `search` (which indexes first) — and a file that starts with a UTF-8 byte-order mark keeps its
 * first step. Real files, real FIFOs, the real CLI.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const GOOD = '11111111-2222-4333-8444-555555555555';
const FIFO = '22222222-2222-4333-8444-555555555555';
const ZERO = '33333333-2222-4333-8444-555555555555';
const BOM = '44444444-2222-4333-8444-555555555555';

function homeWithTraps() {
  const h = tempHome();
  h.write(claudePath(GOOD), `${claudeLine(GOOD, 'user', 'Why is the checkout banner misaligned?')}\n`);
  const fifoTarget = join(h.home, 'pipe');
  execFileSync('mkfifo', [fifoTarget]);
  const fifoLink = join(h.home, claudePath(FIFO));
  mkdirSync(dirname(fifoLink), { recursive: true });
  symlinkSync(fifoTarget, fifoLink);
  symlinkSync('/dev/zero', join(h.home, claudePath(ZERO)));
  return h;
}

test('index skips a FIFO and a /dev/zero symlink with a message, within a second, and indexes the rest', () => {
  const h = homeWithTraps();
  after(h.cleanup);
  const started = performance.now();
  const r = tapedeck(['index', '--json'], h.env, { timeout: 20_000 });
  assert.equal(r.status, 0, r.stderr);
  const summary = r.json();
  assert.equal(summary.files.new, 1);
  const reasons = Object.fromEntries(
    summary.skipped.map((s: { path: string; reason: string }) => [s.path, s.reason]),
  );
  assert.match(reasons[join(h.home, claudePath(FIFO))], /not a regular file \(a FIFO\)/);
  assert.match(reasons[join(h.home, claudePath(ZERO))], /not a regular file \(a character device\)/);
  // The whole CLI run (process start included) is well under a second of indexing: the FIFO was
  // never waited on and /dev/zero never read.
  assert.ok(summary.ms < 1000, `indexing took ${summary.ms} ms`);
  assert.ok(performance.now() - started < 10_000);

  const text = tapedeck(['index'], h.env, { timeout: 20_000 });
  assert.match(text.stdout, /skipped .*pipe|skipped .*22222222.*not a regular file \(a FIFO\)/);
});

test('search indexes first and still answers at once, saying what it skipped', () => {
  const h = homeWithTraps();
  after(h.cleanup);
  const started = performance.now();
  const r = tapedeck(['search', 'checkout banner', '--json'], h.env, { timeout: 20_000 });
  const ms = performance.now() - started;
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json().hits[0]?.thread, `claude-code:${GOOD}`);
  assert.match(r.stderr, /not a regular file \(a FIFO\)/);
  assert.match(r.stderr, /not a regular file \(a character device\)/);
  assert.ok(ms < 10_000, `search took ${ms} ms`);
});

test('the engine skips them within a second (what MCP and the server call before answering)', async () => {
  const h = homeWithTraps();
  after(h.cleanup);
  const engine = h.engine();
  try {
    const t0 = performance.now();
    const quick = engine.transcripts.index({ budgetMs: 1500, quick: true });
    assert.ok(performance.now() - t0 < 1000);
    assert.equal(quick.files.skipped, 2);
    assert.equal((await engine.transcripts.search('checkout banner')).hits.length, 1);
  } finally {
    engine.close();
  }
});

test('a transcript that starts with a UTF-8 byte-order mark keeps its first step', () => {
  const h = tempHome();
  after(h.cleanup);
  h.write(
    claudePath(BOM),
    `\uFEFF${claudeLine(BOM, 'user', 'Rotate the staging TLS certificate before Friday')}\n${claudeLine(BOM, 'assistant', 'Renewed it with certbot and reloaded nginx.')}\n`,
  );
  const r = tapedeck(['index', '--json'], h.env);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json().issues, 0);
  const shown = tapedeck(['show', `claude-code:${BOM}`, '--json'], h.env).json();
  assert.equal(shown.steps.length, 2);
  assert.match(shown.steps[0].text, /Rotate the staging TLS certificate/);
  assert.equal(shown.steps[0].source.line, 1);
  assert.equal(shown.thread.title, 'Rotate the staging TLS certificate before Friday');
});

test('a Gemini CLI session document with a byte-order mark is parsed', () => {
  const h = tempHome();
  after(h.cleanup);
  const doc = {
    sessionId: 'bom-session-0001',
    projectHash: 'abc',
    startTime: '2026-11-20T10:00:00.000Z',
    lastUpdated: '2026-11-20T10:05:00.000Z',
    messages: [
      { id: 'm1', timestamp: '2026-11-20T10:00:00.000Z', type: 'user', content: 'Bump the lodash pin' },
      { id: 'm2', timestamp: '2026-11-20T10:01:00.000Z', type: 'gemini', content: 'Pinned lodash 4.17.21.' },
    ],
  };
  h.write('.gemini/tmp/abc/chats/session-2026-11-20T10-00-bom.json', `\uFEFF${JSON.stringify(doc)}`);
  const engine = h.engine();
  try {
    const run = engine.transcripts.index();
    assert.equal(run.issues, 0);
    const [t] = engine.transcripts.threads();
    assert.equal(engine.transcripts.show({ thread: t.id }).steps.length, 2);
  } finally {
    engine.close();
  }
});
