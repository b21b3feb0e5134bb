/**
 * Nothing is dropped by the hooks (issue 11 §4): on a full disk a SessionEnd save that cannot be
 * queued is told loudly — to the user through the host, on stderr — and a hooks.log that cannot be
 * written says so; a session whose transcript is missing does not open the circuit breaker, so the
 * next valid session is pushed to a healthy server. A real tmpfs fills the disk (as root; skipped
 * with the reason otherwise), a real `tapedeck serve` is the server.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { hookWorld, runHook, SESSIONS } from './support/hooks.js';
import { type ServeProcess, startServe } from './support/serve.js';

/** A 256 KiB tmpfs, filled to the last byte; null (with why) when mounting is not allowed here. */
function fullDisk(): { dir: string; release: () => void } | string {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs here (${(e as Error).message.split('\n')[0]}); needs root`;
  }
  mkdirSync(join(dir, 'tapedeck'));
  try {
    writeFileSync(join(dir, 'filler'), Buffer.alloc(1024 * 1024));
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
  }
  return {
    dir,
    release: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('on a full disk a SessionEnd save is not lost silently: the user and stderr are told', async (t) => {
  const disk = fullDisk();
  if (typeof disk === 'string') return t.skip(disk);
  after(disk.release);
  const w = hookWorld({ TAPEDECK_HOOK_NO_WORKER: '1' });
  t.after(() => w.cleanup());
  w.place('claude-code');
  const env = { ...w.env, TAPEDECK_HOME: join(disk.dir, 'tapedeck') };
  const r = await runHook('claude-code', 'SessionEnd', w.payload('claude-code', 'SessionEnd'), env);
  assert.equal(r.status, 0, 'the hook still answers its host');
  const out = r.json();
  assert.match(out.systemMessage, /did NOT save session claude-code:/);
  assert.match(out.systemMessage, /ENOSPC/);
  assert.doesNotMatch(out.systemMessage, /saved later|next event/);
  assert.match(r.stderr, /did NOT save session/);
  assert.match(r.stderr, /cannot write .*hooks\.log \(disk full \(ENOSPC\)\); log lines go to stderr only/);
  assert.equal(
    existsSync(join(disk.dir, 'tapedeck', 'queue')) &&
      readdirSync(join(disk.dir, 'tapedeck', 'queue')).some((f) => f.endsWith('.json')),
    false,
  );

  // With room again the same hook queues it, and says nothing alarming.
  rmSync(join(disk.dir, 'filler'));
  const ok = await runHook('claude-code', 'SessionEnd', w.payload('claude-code', 'SessionEnd'), env);
  assert.deepEqual(ok.json(), {});
  assert.equal(readdirSync(join(disk.dir, 'tapedeck', 'queue')).filter((f) => f.endsWith('.json')).length, 1);
});

test('a session whose transcript is missing does not trip the breaker for the next valid push', async (t) => {
  const w = hookWorld({ TAPEDECK_HOOK_NO_WORKER: '1' });
  t.after(() => w.cleanup());
  // The owner's server on this machine: the hooks' own Tapedeck home, so the same owner token.
  const serverHome = join(w.root, 'srv home');
  mkdirSync(serverHome, { recursive: true });
  let server: ServeProcess;
  try {
    server = await startServe({
      HOME: serverHome,
      TAPEDECK_HOME: w.tapedeckHome,
      PATH: process.env.PATH ?? '',
    });
  } catch (e) {
    return t.skip(`tapedeck serve is not usable here: ${(e as Error).message}`);
  }
  t.after(() => server.stop());
  w.env.TAPEDECK_API_URL = server.url;
  const missing = {
    ...w.payload('claude-code', 'SessionEnd'),
    session_id: '99999999-0000-4000-8000-000000000000',
    transcript_path: join(w.home, '.claude/projects/-gone/99999999-0000-4000-8000-000000000000.jsonl'),
  };
  await runHook('claude-code', 'SessionEnd', missing, w.env);
  await new Promise((r) => setTimeout(r, 20)); // queued strictly after (the queue is oldest first)
  w.place('claude-code');
  await runHook('claude-code', 'SessionEnd', w.payload('claude-code', 'SessionEnd'), w.env);

  const flushed = tapedeck(['queue', 'flush', '--json'], w.env);
  assert.equal(flushed.status, 0, flushed.stderr);
  const f = flushed.json();
  const valid = `claude-code:${SESSIONS['claude-code'].id}`;
  assert.deepEqual(
    f.saved.map((s: { thread: string; target: string }) => [s.thread, s.target]),
    [[valid, 'server']],
  );
  assert.deepEqual(
    f.failed.map((x: { thread: string }) => x.thread),
    ['claude-code:99999999-0000-4000-8000-000000000000'],
  );
  assert.match(f.failed[0].error, /does not exist/);
  const st = tapedeck(['status', '--json'], w.env).json();
  assert.ok(!st.server.circuit?.open_until, `circuit stays closed: ${JSON.stringify(st.server.circuit)}`);
});
