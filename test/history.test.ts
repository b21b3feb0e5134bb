/**
 * History is never lost (issue 11 §1), through the real CLI on real files: a deleted transcript's
 * thread is still found and shown (marked with when its source went away) and restored
 * byte-identical where Claude Code looks for it; the archive grows incrementally, deduplicates,
 * is owner-only, stays out of exports and can be turned off; `forget` is explicit and confirmed;
 * the retention guard reads Claude Code's cleanupPeriodDays and changes it only when asked.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BIN, tapedeck } from './support/cli.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';

const S1 = 'aaaaaaaa-1111-4111-8111-111111111111';
const S2 = 'bbbbbbbb-2222-4222-8222-222222222222';
const T1 = `claude-code:${S1}`;

function ok(args: string[], env: Record<string, string>) {
  const r = tapedeck(args, env);
  assert.equal(r.status, 0, `tapedeck ${args.join(' ')}: ${r.stderr}${r.stdout}`);
  return r;
}

/** Every file and folder under `dir`, with its permission bits. */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>([[dir, statSync(dir).mode & 0o777]]);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) for (const [k, v] of modes(p)) out.set(k, v);
    else out.set(p, statSync(p).mode & 0o777);
  }
  return out;
}

const session = (id: string, n: number, word: string) =>
  Array.from({ length: n }, (_, i) =>
    claudeLine(
      id,
      i % 2 ? 'assistant' : 'user',
      `${i === 0 ? `Why does the ${word} job fail at night?` : `step ${i} about the ${word} job`} ${'x'.repeat(200)}`,
    ),
  ).join('\n') + '\n';

test('a deleted transcript is still found and shown, and restored byte-identical where Claude Code looks', () => {
  const h = tempHome();
  after(h.cleanup);
  const path = h.write(claudePath(S1), session(S1, 4, 'nightly-backup'));
  ok(['index'], h.env);
  // It grows: the archive follows.
  appendFileSync(
    path,
    `${claudeLine(S1, 'assistant', 'Fixed: the cron ran before the volume was mounted.')}\n`,
  );
  ok(['index'], h.env);
  const original = readFileSync(path);

  const archiveDir = join(h.tapedeckHome, 'archive');
  for (const [p, mode] of modes(archiveDir))
    assert.equal(mode, statSync(p).isDirectory() ? 0o700 : 0o600, `${p} is ${mode.toString(8)}`);

  rmSync(path);
  const run = ok(['index', '--json'], h.env).json();
  assert.equal(run.files.removed, 1);

  const [t] = ok(['threads', '--json'], h.env).json().threads;
  assert.equal(t.id, T1);
  assert.equal(t.step_count, 5);
  assert.equal(t.source_gone.reason, 'deleted');
  assert.ok(Math.abs(Date.now() - Date.parse(t.source_gone.at)) < 60_000);
  assert.match(ok(['threads'], h.env).stdout, /source deleted .*tapedeck restore/);

  const hit = ok(['search', 'volume was mounted', '--json'], h.env).json().hits[0];
  assert.equal(hit.thread, T1);
  assert.equal(hit.source_gone.reason, 'deleted');
  const shown = ok(['show', T1, '--json'], h.env).json();
  assert.equal(shown.steps.length, 5);
  assert.equal(shown.thread.source_gone.reason, 'deleted');

  // A copy of the store (`tapedeck migrate`) keeps the thread and its mark.
  const copy = join(h.home, 'copy.db');
  ok(['migrate', '--to', copy], h.env);
  const [copied] = ok(['threads', '--json', '--db', copy], h.env).json().threads;
  assert.deepEqual([copied.id, copied.step_count, copied.source_gone?.reason], [T1, 5, 'deleted']);

  const restored = ok(['restore', T1, '--json'], h.env).json();
  assert.deepEqual([restored.path, restored.bytes, restored.written], [path, original.length, true]);
  assert.ok(readFileSync(path).equals(original), 'byte-identical, in the project folder');
  // Back on disk: indexing finds the same thread again, no longer marked, nothing duplicated.
  const again = ok(['index', '--json'], h.env).json();
  assert.equal(again.steps.written, 0);
  const back = ok(['show', T1, '--json'], h.env).json();
  assert.equal(back.thread.source_gone, null);
  assert.equal(back.steps.length, 5);
  // Restoring again over the identical file writes nothing.
  assert.equal(ok(['restore', T1, '--json'], h.env).json().written, false);
});

test('restore never overwrites a different file unless forced; --to writes elsewhere', () => {
  const h = tempHome();
  after(h.cleanup);
  const path = h.write(claudePath(S1), session(S1, 3, 'invoice-export'));
  const original = readFileSync(path);
  ok(['index'], h.env);
  writeFileSync(path, 'something else entirely\n');
  const refused = tapedeck(['restore', T1, '--json'], h.env);
  assert.equal(refused.status, 1);
  assert.equal(refused.json().error.code, 'CONFLICT');
  assert.match(refused.json().error.message, /--force/);
  assert.equal(readFileSync(path, 'utf8'), 'something else entirely\n', 'left alone');

  const elsewhere = join(h.home, 'rescued');
  mkdirSync(elsewhere);
  const r = ok(['restore', T1, '--to', elsewhere, '--json'], h.env).json();
  assert.equal(r.path, join(elsewhere, `${S1}.jsonl`));
  assert.ok(readFileSync(r.path).equals(original));

  ok(['restore', T1, '--force'], h.env);
  assert.ok(readFileSync(path).equals(original));
});

test('a truncated transcript keeps its steps; the archive keeps the longer generation', () => {
  const h = tempHome();
  after(h.cleanup);
  const path = h.write(claudePath(S1), session(S1, 6, 'search-reindex'));
  const original = readFileSync(path);
  ok(['index'], h.env);
  const firstLine = original.subarray(0, original.indexOf(10) + 1);
  writeFileSync(path, firstLine);
  ok(['index'], h.env);
  const shown = ok(['show', T1, '--json'], h.env).json();
  assert.equal(shown.steps.length, 6, 'nothing lost with the file');
  assert.equal(shown.thread.source_gone.reason, 'truncated');
  truncateSync(path, 0);
  ok(['index'], h.env);
  assert.equal(ok(['show', T1, '--json'], h.env).json().steps.length, 6);
  const out = join(h.home, 'full.jsonl');
  const r = ok(['restore', T1, '--to', out, '--generation', '0', '--json'], h.env).json();
  assert.equal(r.generations, 2);
  assert.ok(readFileSync(out).equals(original), 'the full original, byte-identical');
});

test('the archive appends as files grow and stores the same bytes once', () => {
  const h = tempHome();
  after(h.cleanup);
  const big = session(S1, 2000, 'ledger-sync'); // ~600 KiB: several 64 KiB pieces
  const p1 = h.write(claudePath(S1), big);
  ok(['index'], h.env);
  const blobs = () =>
    readdirSync(join(h.tapedeckHome, 'archive', 'blobs'), { recursive: true }).filter((f) =>
      String(f).endsWith('.gz'),
    ).length;
  const stats1 = ok(['stats', '--json'], h.env).json().archive;
  assert.equal(stats1.files, 1);
  assert.equal(stats1.original_bytes, Buffer.byteLength(big));
  assert.ok(
    stats1.bytes < stats1.original_bytes / 3,
    `compressed: ${stats1.bytes} of ${stats1.original_bytes}`,
  );
  const pieces = blobs();
  assert.equal(pieces, Math.floor(Buffer.byteLength(big) / (64 * 1024)));

  // A copy of the same session elsewhere (another project folder) adds no piece.
  h.write(`.claude/projects/-home-dev-other/${S1}.jsonl`, big);
  ok(['index'], h.env);
  assert.equal(blobs(), pieces);
  assert.equal(ok(['stats', '--json'], h.env).json().archive.files, 2);

  // Growth appends: the full pieces stay, the grown tail becomes new pieces.
  const more = session(S1, 1000, 'ledger-sync');
  appendFileSync(p1, more);
  ok(['index'], h.env);
  assert.ok(blobs() > pieces);
  rmSync(p1);
  ok(['index'], h.env);
  const out = join(h.home, 'out.jsonl');
  ok(['restore', T1, '--to', out], h.env);
  assert.ok(readFileSync(out).equals(Buffer.from(big + more)), 'byte-identical after growth');
  assert.match(ok(['stats'], h.env).stdout, /archive .*: 2 transcripts, [\d.]+ MB/);
  assert.match(ok(['doctor'], h.env).stdout, /archive .*: 2 transcripts/);
  assert.equal(ok(['doctor', '--json'], h.env).json().archive.files, 2);
});

test('the archive stays out of exports, and "archive": false turns it off', () => {
  const h = tempHome();
  after(h.cleanup);
  h.write(claudePath(S1), session(S1, 3, 'quarantine-flag'));
  ok(['index'], h.env);
  ok(['memory', 'add', 'Feature flags live in LaunchDarkly'], h.env);
  const dir = join(h.home, 'export');
  ok(['export', dir], h.env);
  const all = readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  assert.match(all, /LaunchDarkly/);
  assert.doesNotMatch(all, /quarantine-flag/, 'no transcript bytes in the export');

  const off = tempHome();
  after(off.cleanup);
  mkdirSync(off.tapedeckHome, { recursive: true });
  writeFileSync(join(off.tapedeckHome, 'config.json'), JSON.stringify({ archive: false }));
  off.write(claudePath(S2), session(S2, 3, 'quarantine-flag'));
  ok(['index'], off.env);
  assert.equal(existsSync(join(off.tapedeckHome, 'archive')), false);
  assert.deepEqual(ok(['stats', '--json'], off.env).json().archive, { enabled: false });
  const r = tapedeck(['restore', `claude-code:${S2}`, '--json'], off.env);
  assert.equal(r.status, 1);
  assert.match(r.json().error.message, /archive is turned off/);
  // TAPEDECK_ARCHIVE=1 wins over the file.
  ok(['index', '--full'], { ...off.env, TAPEDECK_ARCHIVE: '1' });
  assert.equal(existsSync(join(off.tapedeckHome, 'archive')), true);
});

test('forget is explicit: --yes (or a prompt); --json needs --yes; the thread and its copy go', () => {
  const h = tempHome();
  after(h.cleanup);
  const path = h.write(claudePath(S1), session(S1, 3, 'dns-failover'));
  ok(['index'], h.env);
  const noYes = tapedeck(['forget', T1, '--json'], h.env);
  assert.equal(noYes.status, 2);
  assert.match(noYes.json().error.message, /--yes/);
  const piped = tapedeck(['forget', T1], h.env, { input: 'y\n' });
  assert.equal(piped.status, 2, 'no terminal to ask on: refused');
  assert.equal(ok(['threads', '--json'], h.env).json().threads.length, 1);

  // On a terminal it asks; anything but yes keeps the thread. (`script` gives the CLI a terminal.)
  const onTty = (answer: string) =>
    spawnSync('script', ['-qec', `${process.execPath} ${BIN} forget ${T1}`, '/dev/null'], {
      env: h.env,
      input: `${answer}\n`,
      encoding: 'utf8',
      timeout: 60_000,
    });
  const probe = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0) {
    const no = onTty('n');
    assert.match(no.stdout, /Forget claude-code:.*\(3 steps, .*\[y\/N\]/);
    assert.match(no.stdout, /Nothing forgotten/);
    assert.equal(ok(['threads', '--json'], h.env).json().threads.length, 1);
  }

  const gone = ok(['forget', T1, '--yes', '--json'], h.env).json();
  assert.deepEqual([gone.forgotten.id, gone.forgotten.step_count], [T1, 3]);
  assert.equal(ok(['threads', '--json'], h.env).json().threads.length, 0);
  assert.equal(ok(['search', 'dns-failover', '--json'], h.env).json().hits.length, 0, 'not read back');
  const show = tapedeck(['show', T1, '--json'], h.env);
  assert.equal(show.json().error.code, 'NOT_FOUND');
  rmSync(path);
  const r = tapedeck(['restore', T1, '--json'], h.env);
  assert.equal(r.json().error.code, 'NOT_FOUND');
  assert.equal(ok(['stats', '--json'], h.env).json().archive.files, 0);
  const unknown = tapedeck(['forget', 'claude-code:nope', '--yes', '--json'], h.env);
  assert.equal(unknown.json().error.code, 'NOT_FOUND');
});

test('retention guard: doctor and install read cleanupPeriodDays; only --retention-days changes it', () => {
  const h = tempHome();
  after(h.cleanup);
  const DAY = 86_400_000;
  const old = h.write(claudePath(S1), session(S1, 3, 'old-one'));
  const recent = h.write(claudePath(S2), session(S2, 3, 'recent-one'));
  ok(['index'], h.env); // both archived
  const S3 = 'cccccccc-3333-4333-8333-333333333333';
  const unarchived = h.write(claudePath(S3), session(S3, 3, 'never-indexed'));
  const age = (p: string, days: number) => {
    const t = new Date(Date.now() - days * DAY);
    utimesSync(p, t, t);
  };
  age(old, 26); // deleted by the default 30-day cleanup within 7 days
  age(unarchived, 28);
  age(recent, 2);
  // doctor does not index: S3 is still not archived.
  const d = ok(['doctor', '--json'], h.env).json().retention;
  assert.deepEqual(
    [d.cleanup_period_days, d.configured, d.sessions, d.due_within_7_days, d.archived, d.not_archived],
    [30, false, 3, 2, 1, [unarchived]],
  );
  assert.match(
    ok(['doctor'], h.env).stdout,
    /cleanupPeriodDays 30 \(unset.*2 of 3 sessions are deleted within 7 days: 1 NOT archived/,
  );

  const settings = join(h.home, '.claude', 'settings.json');
  const plain = ok(['install', 'claude-code', '--json'], h.env).json();
  assert.equal(plain.retention.cleanup_period_days, 30);
  assert.equal(JSON.parse(readFileSync(settings, 'utf8')).cleanupPeriodDays, undefined, 'never silently');

  const dry = ok(['install', 'claude-code', '--retention-days', '90', '--dry-run'], h.env);
  assert.match(dry.stdout, /cleanupPeriodDays 90/);
  assert.equal(JSON.parse(readFileSync(settings, 'utf8')).cleanupPeriodDays, undefined);

  const set = ok(['install', 'claude-code', '--retention-days', '90', '--json'], h.env).json();
  const written = JSON.parse(readFileSync(settings, 'utf8'));
  assert.equal(written.cleanupPeriodDays, 90);
  assert.ok(written.hooks.SessionEnd, 'the hooks are still there');
  assert.deepEqual([set.retention.cleanup_period_days, set.retention.due_within_7_days], [90, 0]);
  assert.equal(ok(['doctor', '--json'], h.env).json().retention.configured, true);
  // Uninstall leaves the user's retention alone.
  ok(['uninstall', 'claude-code'], h.env);
  assert.equal(JSON.parse(readFileSync(settings, 'utf8')).cleanupPeriodDays, 90);

  const bad = tapedeck(['install', 'codex', '--retention-days', '90', '--json'], h.env);
  assert.equal(bad.status, 2);
  assert.match(bad.json().error.message, /claude-code only/);
});

test('an archive write that fails (a full disk) is reported and indexing goes on', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-full-archive-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return t.skip(`cannot mount a tmpfs here (${(e as Error).message.split('\n')[0]}); needs root`);
  }
  t.after(() => {
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  const h = tempHome();
  t.after(h.cleanup);
  // The store lives elsewhere; only the home (and so the archive) is on the full disk.
  const env = {
    ...h.env,
    TAPEDECK_HOME: join(dir, 'home'),
    TAPEDECK_DB: join(h.tapedeckHome, 'tapedeck.db'),
  };
  mkdirSync(h.tapedeckHome, { recursive: true });
  mkdirSync(join(dir, 'home'));
  try {
    writeFileSync(join(dir, 'filler'), Buffer.alloc(1024 * 1024)); // fills the disk to the last byte
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
  }
  h.write(claudePath(S1), session(S1, 400, 'disk-quota'));
  const run = ok(['index', '--json'], env).json();
  assert.equal(run.files.new, 1);
  assert.ok(run.steps.written > 0, 'indexed anyway');
  const doctor = ok(['doctor', '--json'], env).json();
  assert.ok(
    doctor.issues.recent.some((i: { message: string }) =>
      /not archived: .*(ENOSPC|no space)/i.test(i.message),
    ),
    JSON.stringify(doctor.issues.recent),
  );
});
