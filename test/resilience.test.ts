/**
 * Failures a user will meet: a run killed mid-index, a database locked by another process, a
 * read-only database, unreadable transcripts. Each gets a clear message and loses nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { createFileArchive } from '../src/storage/archive/file-archive.js';
import { BIN, NOBODY, nobodySkipReason, tapedeck } from './support/cli.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const isRoot = process.getuid?.() === 0;
/** Root ignores file permissions, so permission tests run the CLI as `nobody` when we are root. */
const asNobody = isRoot ? nobodySkipReason() : false;

function sessionId(i: number) {
  return `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
}

function writeCorpus(h: ReturnType<typeof tempHome>, sessions: number, turns: number) {
  for (let i = 0; i < sessions; i++) {
    const id = sessionId(i);
    const lines: string[] = [];
    for (let t = 0; t < turns; t++) {
      lines.push(
        claudeLine(id, 'user', `session ${i} question ${t}: why does order ${i * 1000 + t} fail checkout?`),
      );
      lines.push(
        claudeLine(
          id,
          'assistant',
          `answer ${i}/${t}: the cart total for order ${i * 1000 + t} overflowed; fixed with integer cents.`,
        ),
      );
    }
    h.write(claudePath(id), `${lines.join('\n')}\n`);
  }
}

test('a run killed with SIGKILL mid-index resumes with nothing lost or duplicated', async () => {
  const h = tempHome();
  after(h.cleanup);
  writeCorpus(h, 120, 150); // 36,000 steps
  const child = spawn(process.execPath, [BIN, 'index'], { env: h.env, stdio: 'ignore' });
  const exited = new Promise((r) => child.on('exit', r));
  // Kill it as soon as the first batches are committed, mid-run.
  const db = join(h.tapedeckHome, 'tapedeck.db');
  let partial = 0;
  for (let i = 0; i < 400 && partial === 0; i++) {
    await new Promise((r) => setTimeout(r, 25));
    try {
      const reader = new Database(db, { readonly: true, fileMustExist: true });
      partial = (reader.prepare('SELECT count(*) AS n FROM steps').get() as { n: number }).n;
      reader.close();
    } catch {
      // not created yet
    }
  }
  child.kill('SIGKILL');
  await exited;
  assert.ok(partial > 0 && partial < 120 * 300, `killed mid-run (${partial} steps committed)`);
  const resumed = tapedeck(['index', '--json'], h.env);
  assert.equal(resumed.status, 0, resumed.stderr);
  const stats = tapedeck(['stats', '--json'], h.env).json();
  assert.equal(stats.threads, 120);
  assert.equal(stats.steps, 120 * 300, 'every step exactly once');
  const doctor = tapedeck(['doctor', '--json'], h.env).json();
  assert.deepEqual(doctor.database.problems, [], 'the index is consistent');
  const again = tapedeck(['index', '--json'], h.env).json();
  assert.equal(again.steps.written, 0);
  // The archive worker's copies: a file whose last cursor committed is archived already (the run
  // after a kill skips it as unchanged and would never archive it).
  const archive = createFileArchive(join(h.tapedeckHome, 'archive'));
  for (let i = 0; i < 120; i++) {
    const path = join(h.home, claudePath(sessionId(i)));
    assert.ok(archive.read(path).equals(readFileSync(path)), `${path} archived as it is`);
  }
  const hit = tapedeck(['search', 'order 77042 overflowed', '--json'], h.env).json().hits[0];
  assert.equal(hit.thread, `claude-code:${sessionId(77)}`);
});

test('a database locked by another writer gives a clear error, and the next run succeeds', () => {
  const h = tempHome({ TAPEDECK_BUSY_TIMEOUT_MS: '300' });
  after(h.cleanup);
  writeCorpus(h, 2, 2);
  assert.equal(tapedeck(['index'], h.env).status, 0);
  h.write(claudePath(sessionId(5)), `${claudeLine(sessionId(5), 'user', 'a new session while locked')}\n`);
  const holder = new Database(join(h.tapedeckHome, 'tapedeck.db'));
  holder.exec('BEGIN EXCLUSIVE');
  try {
    const r = tapedeck(['index', '--json'], h.env);
    assert.equal(r.status, 1);
    assert.equal(r.json().error.code, 'STORAGE_UNAVAILABLE');
    assert.match(r.json().error.message, /locked by another process/);
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
  const later = tapedeck(['index', '--json'], h.env).json();
  assert.equal(later.files.new, 1);
  const hit = tapedeck(['search', 'new session while locked', '--json'], h.env).json().hits[0];
  assert.equal(hit.thread, `claude-code:${sessionId(5)}`);
});

test('a read-only database is reported as such', {
  skip: (!isRoot && process.platform !== 'linux') || asNobody,
}, () => {
  const h = tempHome();
  after(h.cleanup);
  writeCorpus(h, 2, 2);
  assert.equal(tapedeck(['index'], h.env).status, 0);
  h.write(
    claudePath(sessionId(9)),
    `${claudeLine(sessionId(9), 'user', 'written after the store became read-only')}\n`,
  );
  const opts = isRoot ? { uid: NOBODY, gid: NOBODY } : {};
  if (isRoot) chmodSync(dirname(h.home), 0o755);
  chmodSync(join(h.tapedeckHome, 'tapedeck.db'), 0o444);
  chmodSync(h.tapedeckHome, 0o555);
  const r = tapedeck(['index', '--json'], h.env, opts);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.json().error.message, /read-only|Cannot open/);
  chmodSync(h.tapedeckHome, 0o755);
  chmodSync(join(h.tapedeckHome, 'tapedeck.db'), 0o644);
});

test('an unreadable transcript is skipped and reported; the rest is indexed', {
  skip: (!isRoot && process.platform !== 'linux') || asNobody,
}, () => {
  const h = tempHome();
  after(h.cleanup);
  writeCorpus(h, 3, 2);
  const locked = join(h.home, claudePath(sessionId(1)));
  chmodSync(locked, 0o000);
  const opts = isRoot ? { uid: NOBODY, gid: NOBODY } : {};
  if (isRoot) {
    chmodSync(dirname(h.home), 0o755);
    mkdirSync(h.tapedeckHome, { recursive: true });
    chownSync(h.tapedeckHome, NOBODY, NOBODY);
  }
  const r = tapedeck(['index', '--json'], h.env, opts);
  assert.equal(r.status, 0, r.stderr);
  const doc = r.json();
  assert.equal(doc.files.new, 2);
  assert.equal(doc.files.skipped, 1);
  assert.deepEqual(doc.skipped, [{ path: locked, reason: 'permission denied' }]);
  const doctor = tapedeck(['doctor', '--json'], h.env, opts).json();
  assert.ok(
    doctor.issues.recent.some(
      (i: { path: string; message: string }) => i.path === locked && /permission denied/.test(i.message),
    ),
  );
});
